use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, MongoSchema)]
#[mongo(db = "db_order", collection = "OrderDetail")]
struct OrderDetail {
    #[serde(rename = "_id")]
    id: bson::oid::ObjectId,
}

fn main() {}
