use bson::oid::ObjectId;
use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(db = "db_user_center", collection = "t_session", index(keys(expireAt = 1), ttl = 3600))]
struct Session {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[mongo(allow(string_date, reason = "this case is about ttl_index"))]
    expire_at: i64,
}

fn main() {}
