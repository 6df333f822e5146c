use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

/// Two 2d keys in one index: mongod refuses it (16800).
#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(
    db = "db_shop",
    collection = "t_place",
    index(keys(pin = "2d", spot = "2d"))
)]
struct Place {
    #[mongo(max_items = 2)]
    pin: Vec<f64>,
    #[mongo(max_items = 2)]
    spot: Vec<f64>,
}

fn main() {}
