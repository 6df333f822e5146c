use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, MongoSchema)]
struct Node {
    #[mongo(max_length = 100)]
    name: String,
    #[mongo(max_items = 10)]
    children: Vec<Node>,
}

fn main() {}
