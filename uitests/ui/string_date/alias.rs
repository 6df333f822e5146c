use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

type Timestamp = std::string::String;

#[derive(Serialize, Deserialize, MongoSchema)]
struct User {
    birthday: Timestamp,
}

fn main() {}
