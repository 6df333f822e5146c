use mongo_schema::prelude::*;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, MongoSchema)]
#[mongo(db = "db_shop", collection = "t_customer")]
struct Customer {
    #[serde(rename = "_id")]
    id: i64,
    #[mongo(max_items = 10, items(max_length = 20))]
    tags: Vec<String>,
}

/// A string ends a path: it has no fields to name, and a bounded push takes the
/// array's item type only.
fn main() {
    let _ = Customer::fields().id().value();
    let _ = Customer::fields().tags().push([42]);
}
