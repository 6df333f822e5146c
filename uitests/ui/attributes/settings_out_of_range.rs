use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, MongoSchema)]
#[mongo(max_depth = 8)]
#[mongo(max_items_limit = 5000)]
struct User {
    #[mongo(max_length = 50)]
    name: String,
}

fn main() {}
