use mongo_schema::bson::{oid::ObjectId, DateTime, Decimal128};
use mongo_schema::prelude::*;
use mongo_schema::query;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[derive(Serialize, Deserialize, MongoSchema, Clone, Copy)]
enum OrderStatus {
    Paid,
    Shipped,
}

#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
struct Address {
    #[mongo(max_length = 60)]
    city_name: String,
}

#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
struct Line {
    #[mongo(max_length = 20)]
    sku: String,
    quantity: i32,
}

#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
struct Audit {
    #[mongo(max_length = 40)]
    created_by: String,
}

#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(db = "db_shop", collection = "t_order", index(keys(customerId = 1, createTime = -1)))]
struct Order {
    #[serde(rename = "_id")]
    id: ObjectId,
    customer_id: ObjectId,
    status: OrderStatus,
    create_time: DateTime,
    total: Decimal128,
    quantity: i32,
    paid: bool,
    #[mongo(renamed_from = "shipTo")]
    #[serde(alias = "shipTo")]
    ship_address: Address,
    #[mongo(max_items = 50)]
    lines: Vec<Line>,
    #[mongo(max_items = 10, items(max_length = 20))]
    tags: Vec<String>,
    #[mongo(max_properties = 10)]
    labels: BTreeMap<String, i64>,
    #[serde(flatten)]
    audit: Audit,
    note: Option<String>,
}

/// A crate without a `mongodb` dependency gets the filter and the options as documents,
/// and no driver option types.
fn main() {
    let q = query!(Order, { "paid": true }, sort = { "createTime": -1 }, allow(query_unindexed, reason = "the case is about the driver"), allow(query_sort_in_memory, reason = "the case is about the driver"));
    let _ = (q.filter(), q.sort(), q.pipeline());
    let _ = q.find_options();
}
