use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, MongoSchema)]
#[mongo(db = "db_order", collection = "system.orders", allow(collection_name, reason = "legacy"))]
struct Order {
    #[serde(rename = "_id")]
    id: bson::oid::ObjectId,
}

fn main() {}
