use bson::oid::ObjectId;
use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
struct Address {
    #[mongo(max_length = 64)]
    city: String,
}

/// `address.town` is checked through `Address`, which has no `town`.
#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(db = "db_order", collection = "t_order", index(keys("address.town" = 1)))]
struct Order {
    #[serde(rename = "_id")]
    id: ObjectId,
    address: Option<Address>,
}

fn main() {}
