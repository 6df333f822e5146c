use bson::DateTime;
use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

type When = DateTime;

#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(db = "db_log", collection = "t_access_log", shard_key(createTime = 1, userId = 1))]
struct AccessLog {
    create_time: When,
    user_id: i64,
}

fn main() {}
