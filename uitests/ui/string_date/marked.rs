use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, MongoSchema)]
struct Holiday {
    #[mongo(date, max_length = 10)]
    day: String,
}

fn main() {}
