use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, MongoSchema)]
struct Point {
    #[mongo(max_items = 2)]
    coordinates: Vec<f64>,
}

/// A text and a 2dsphere key in one index: mongod refuses it (67).
#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(
    db = "db_shop",
    collection = "t_place",
    index(keys(name = "text", home = "2dsphere"))
)]
struct Place {
    #[mongo(max_length = 64)]
    name: String,
    home: Point,
}

fn main() {}
