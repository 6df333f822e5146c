use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

/// A text language mongod does not know: refused (67).
#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(
    db = "db_shop",
    collection = "t_place",
    index(keys(name = "text"), default_language = "klingon")
)]
struct Place {
    #[mongo(max_length = 64)]
    name: String,
}

fn main() {}
