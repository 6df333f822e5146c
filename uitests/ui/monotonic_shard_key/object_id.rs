use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

/// The ObjectId `_id` mongod adds grows with time.
#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(db = "db_order", collection = "t_order", shard_key(_id = 1))]
struct Order {
    user_id: i64,
}

fn main() {}
