use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

/// A compound wildcard index: mongod 6.0 refuses it (67).
#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(
    db = "db_shop",
    collection = "t_place",
    index(keys("$**" = 1, name = 1))
)]
struct Place {
    #[mongo(max_length = 64)]
    name: String,
}

fn main() {}
