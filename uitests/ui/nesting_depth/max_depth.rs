use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, MongoSchema)]
#[mongo(max_depth = 2)]
struct Order {
    #[mongo(max_items = 10)]
    items: Vec<Item>,
}
#[derive(Serialize, Deserialize, MongoSchema)]
struct Item {
    product: Product,
}
#[derive(Serialize, Deserialize, MongoSchema)]
struct Product {
    #[mongo(max_length = 100)]
    name: String,
}

fn main() {}
