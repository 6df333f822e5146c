use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, MongoSchema)]
#[mongo(db = "db_log", collection = "t_log$202403", allow(collection_name, reason = "legacy name"))]
struct Log {
    #[serde(rename = "_id")]
    id: bson::oid::ObjectId,
}

fn main() {}
