use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, MongoSchema)]
#[mongo(db = "local", collection = "t_cache", allow(system_db, reason = "we really want it"))]
struct Cache {
    #[serde(rename = "_id")]
    id: bson::oid::ObjectId,
}

fn main() {}
