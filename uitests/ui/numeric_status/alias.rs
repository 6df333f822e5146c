use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

type Code = i64;

#[derive(Serialize, Deserialize, MongoSchema)]
struct Order {
    state: Option<Code>,
}

fn main() {}
