use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

/// Bounds that no value satisfies: mongod would reject every insert.
#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
struct Product {
    #[mongo(minimum = 5, maximum = 1)]
    stock_level: i32,
    #[mongo(min_length = 10, max_length = 2)]
    title: String,
    #[mongo(max_items = 3, min_items = 4)]
    tags: Vec<String>,
    #[mongo(exclusive_minimum = 0.5, maximum = 0.5)]
    ratio: f64,
    #[mongo(minimum = 0, exclusive_minimum = 0)]
    weight: f64,
    #[mongo(multiple_of = 0)]
    step: i32,
}

fn main() {}
