use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, MongoSchema)]
struct User {
    #[serde(rename = "userName")]
    user_name: String,
    create_time: bson::DateTime,
}

fn main() {}
