use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

/// A 2dsphere index on a string: mongod refuses every insert (16755).
#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(
    db = "db_shop",
    collection = "t_place",
    index(keys(address = "2dsphere"))
)]
struct Place {
    #[mongo(max_length = 128)]
    address: String,
}

fn main() {}
