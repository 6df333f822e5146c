use bson::DateTime;
use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(db = "db_user_center", collection = "t_session", index(keys(userId = 1, expireTime = 1), ttl = 3600))]
struct Session {
    user_id: i64,
    expire_time: DateTime,
}

fn main() {}
