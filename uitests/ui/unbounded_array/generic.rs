use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, MongoSchema)]
struct Page<T> {
    items: T,
}

#[derive(Serialize, Deserialize, MongoSchema)]
struct Feed {
    page: Page<Vec<String>>,
}

fn main() {}
