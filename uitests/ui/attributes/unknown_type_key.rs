use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, MongoSchema)]
#[mongo(database = "db_user")]
struct User {
    #[mongo(max_length = 50)]
    name: String,
}

fn main() {}
