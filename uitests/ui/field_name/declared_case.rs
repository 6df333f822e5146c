use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(field_case = "snake_case")]
struct User {
    user_name: String,
    email: String,
}

fn main() {}
