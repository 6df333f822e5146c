use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, MongoSchema)]
struct User {
    #[mongo(max_len = 50)]
    name: String,
}

fn main() {}
