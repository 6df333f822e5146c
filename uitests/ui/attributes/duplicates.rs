use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, MongoSchema)]
#[mongo(max_depth = 3, max_depth = 4)]
struct User {
    #[mongo(max_length = 50, max_length = 60)]
    #[mongo(money, money)]
    name: String,
}

fn main() {}
