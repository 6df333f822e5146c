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
    // the index gives the sort but bounds nothing of the filter: mongod walks all of it,
    // fetching every document
    let _ = query!(Order, {
        "status": status,
        "createTime": { "$gte": since },
    }, sort = { "customerId": 1 }, limit = 10, name = "orders_by_status");
}
