use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

/// A locale that is no locale: mongod refuses it (2).
#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(
    db = "db_shop",
    collection = "t_place",
    collation(locale = "English")
)]
struct Place {
    #[mongo(max_length = 64)]
    name: String,
}

fn main() {}
