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

/// Values of a Rust type the key does not store, written as expressions and as literals.
fn main() {
    let since = String::from("2026-01-01");
    let total: f64 = 9.5;
    let wide: i64 = 7;
    let id = String::from("6592f1f8a1b2c3d4e5f6a7b8");
    let _ = query!(Order, { "createTime": { "$gte": since } }, allow(query_unindexed, reason = "the case is about values"), allow(query_sort_in_memory, reason = "the case is about values"));
    let _ = query!(Order, { "createTime": { "$gte": "2026-01-01" } }, allow(query_unindexed, reason = "the case is about values"), allow(query_sort_in_memory, reason = "the case is about values"));
    let _ = query!(Order, { "total": total }, allow(query_unindexed, reason = "the case is about values"), allow(query_sort_in_memory, reason = "the case is about values"));
    let _ = query!(Order, { "total": { "$lt": 9.5 } }, allow(query_unindexed, reason = "the case is about values"), allow(query_sort_in_memory, reason = "the case is about values"));
    let _ = query!(Order, { "customerId": id }, allow(query_unindexed, reason = "the case is about values"), allow(query_sort_in_memory, reason = "the case is about values"));
    let _ = query!(Order, { "quantity": wide }, allow(query_unindexed, reason = "the case is about values"), allow(query_sort_in_memory, reason = "the case is about values"));
    let _ = query!(Order, { "paid": 1 }, allow(query_unindexed, reason = "the case is about values"), allow(query_sort_in_memory, reason = "the case is about values"));
    let _ = query!(Order, { "status": { "$in": ["Paid", "Pending"] } }, allow(query_unindexed, reason = "the case is about values"), allow(query_sort_in_memory, reason = "the case is about values"));
    let _ = query!(Order, { "status": 3 }, allow(query_unindexed, reason = "the case is about values"), allow(query_sort_in_memory, reason = "the case is about values"));
    let _ = query!(Order, { "tags": 3 }, allow(query_unindexed, reason = "the case is about values"), allow(query_sort_in_memory, reason = "the case is about values"));
    let _ = query!(Order, { "lines.quantity": "two" }, allow(query_unindexed, reason = "the case is about values"), allow(query_sort_in_memory, reason = "the case is about values"));
}
