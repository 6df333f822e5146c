use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

/// Generic over the amount type: the rule holds once `T` is known.
#[derive(Serialize, Deserialize, MongoSchema)]
struct Line<T> {
    price: T,
}

#[derive(Serialize, Deserialize, MongoSchema)]
struct Order {
    line: Line<f64>,
}

fn main() {}
