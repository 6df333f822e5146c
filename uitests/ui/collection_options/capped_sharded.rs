use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(db = "db_log", collection = "t_recent_log", capped(size = 1048576), shard_key(userId = "hashed"))]
struct RecentLog {
    user_id: i64,
}

fn main() {}
