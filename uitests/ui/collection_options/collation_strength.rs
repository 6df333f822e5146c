use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

/// A collation strength of 6: mongod refuses it (51024).
#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(
    db = "db_shop",
    collection = "t_place",
    index(keys(name = 1), collation(locale = "en", strength = 6))
)]
struct Place {
    #[mongo(max_length = 64)]
    name: String,
}

fn main() {}
