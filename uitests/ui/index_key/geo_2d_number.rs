use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

/// A 2d index on a number: mongod indexes nothing there.
#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(
    db = "db_shop",
    collection = "t_place",
    index(keys(floor = "2d"))
)]
struct Place {
    floor: i32,
}

fn main() {}
