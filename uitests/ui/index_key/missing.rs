use bson::{oid::ObjectId, DateTime};
use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(db = "db_order", collection = "t_order", index(keys(userId = 1, createdAt = -1)))]
struct Order {
    #[serde(rename = "_id")]
    id: ObjectId,
    user_id: i64,
    create_time: DateTime,
}

fn main() {}
