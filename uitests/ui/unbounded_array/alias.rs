use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

type Tags = std::collections::VecDeque<String>;

#[derive(Serialize, Deserialize, MongoSchema)]
struct Post {
    tags: Tags,
}

fn main() {}
