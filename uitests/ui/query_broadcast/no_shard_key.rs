use mongo_schema::bson::DateTime;
use mongo_schema::prelude::*;
use mongo_schema::query;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(
    db = "db_shop",
    collection = "t_order",
    index(keys(customerId = 1, createTime = -1)),
    index(keys(createTime = -1)),
    shard_key(customerId = 1)
)]
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
    let since = DateTime::now();
    // indexed, but no equality on the shard key's `customerId`: every shard answers
    let _ = query!(Order, { "createTime": { "$gte": since } }, limit = 100, name = "recent_orders");
}
