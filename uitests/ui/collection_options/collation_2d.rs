use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

/// A collation on a 2d index: mongod refuses it (67).
#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(
    db = "db_shop",
    collection = "t_place",
    index(keys(pin = "2d"), collation(locale = "en"))
)]
struct Place {
    #[mongo(max_items = 2)]
    pin: Vec<f64>,
}

fn main() {}
