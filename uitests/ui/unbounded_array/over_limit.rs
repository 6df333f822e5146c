use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, MongoSchema)]
struct Device {
    #[mongo(max_items = 5000)]
    readings: Vec<i64>,
}

fn main() {}
