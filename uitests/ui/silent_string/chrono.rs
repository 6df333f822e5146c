use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
struct Session {
    expire_time: chrono::DateTime<chrono::Utc>,
}

fn main() {}
