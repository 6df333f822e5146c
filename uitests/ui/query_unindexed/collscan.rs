use mongo_schema::bson::DateTime;
use mongo_schema::prelude::*;
use mongo_schema::query;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(db = "db_shop", collection = "t_order", index(keys(customerId = 1, createTime = -1)))]
struct Order {
    #[serde(rename = "_id")]
    id: i64,
    #[mongo(max_length = 24)]
    customer_id: String,
    create_time: DateTime,
    #[mongo(max_length = 10)]
    status: String,
}

fn main() {
    let (status, since) = (String::from("Paid"), DateTime::now());
    // no index starts with `status` or `createTime` (the index's `createTime` comes after
    // `customerId`): the fix is the ESR index, equalities first and ranges last
    let _ = query!(Order, { "status": status, "createTime": { "$gte": since } }, limit = 10);
}
