use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, MongoSchema)]
#[mongo(max_items_limit = 50)]
struct Device {
    #[mongo(max_items = 100)]
    readings: Vec<i64>,
}

fn main() {}
