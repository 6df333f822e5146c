use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

type OrderId = bson::Uuid;

#[derive(Serialize, Deserialize, MongoSchema)]
#[mongo(db = "db_order", collection = "t_order")]
struct Order {
    #[serde(rename = "_id")]
    id: OrderId,
}

fn main() {}
