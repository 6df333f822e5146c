use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

/// A 2d key after another: mongod refuses it (16801).
#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(
    db = "db_shop",
    collection = "t_place",
    index(keys(name = 1, pin = "2d"))
)]
struct Place {
    #[mongo(max_length = 64)]
    name: String,
    #[mongo(max_items = 2)]
    pin: Vec<f64>,
}

fn main() {}
