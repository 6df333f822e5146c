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

/// Written beside the tag by the newtype variant `Channel::Sms`.
#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
struct SmsInfo {
    #[mongo(max_length = 20)]
    phone_number: String,
    segments: i32,
}

/// `priority` is an int in one variant, a string in another.
#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(tag = "kind")]
enum Channel {
    Email {
        #[mongo(max_length = 80)]
        inbox: String,
        priority: i32,
    },
    Push {
        #[mongo(max_length = 10)]
        priority: String,
    },
    Sms(SmsInfo),
}

#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(db = "db_shop", collection = "t_order", index(keys(customerId = 1, createTime = -1)), index(keys(createTime = -1)), index(keys(total = 1)), index(keys(quantity = 1)), index(keys(paid = 1)), index(keys(status = 1)), index(keys(tags = 1)), index(keys("lines.quantity" = 1)), index(keys(traceId = 1)), index(keys(paidTime = 1)), index(keys(amount = 1)), index(keys("channel.priority" = 1)), index(keys("channel.segments" = 1)), index(keys("channel.phoneNumber" = 1)), index(keys("channels.priority" = 1)), index(keys("channels.segments" = 1)))]
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
    #[serde(with = "mongo_schema::serde_helpers::uuid_binary")]
    trace_id: uuid::Uuid,
    #[serde(with = "mongo_schema::serde_helpers::chrono_datetime")]
    paid_time: chrono::DateTime<chrono::Utc>,
    #[serde(with = "mongo_schema::serde_helpers::decimal128")]
    amount: rust_decimal::Decimal,
    channel: Channel,
    #[mongo(max_items = 5)]
    channels: Vec<Channel>,
}

/// Values of a Rust type the key does not store, written as expressions and as literals.
fn main() {
    let since = String::from("2026-01-01");
    let total: f64 = 9.5;
    let wide: i64 = 7;
    let id = String::from("6592f1f8a1b2c3d4e5f6a7b8");
    let _ = query!(Order, { "createTime": { "$gte": since } });
    let _ = query!(Order, { "createTime": { "$gte": "2026-01-01" } });
    let _ = query!(Order, { "total": total });
    let _ = query!(Order, { "total": { "$lt": 9.5 } });
    let _ = query!(Order, { "customerId": id });
    let _ = query!(Order, { "quantity": wide });
    let _ = query!(Order, { "paid": 1 });
    let _ = query!(Order, { "status": { "$in": ["Paid", "Pending"] } });
    // a number against the enum's key: enum_values.rs (reported where nothing else fails)
    let _ = query!(Order, { "tags": 3 });
    let _ = query!(Order, { "lines.quantity": "two" });
    let trace = String::from("67e55044-10b1-426f-9247-bb680e5fe0c8");
    let _ = query!(Order, { "traceId": trace });
    let _ = query!(Order, { "paidTime": { "$lt": "2026-01-01T00:00:00Z" } });
    let _ = query!(Order, { "amount": { "$gte": 10.5f64 } });
    let _ = query!(Order, { "status": { "$ne": "Pending" } });
    let _ = query!(Order, { "quantity": 7u32 });
    // through a newtype variant's struct, and a key two variants store as different types
    let _ = query!(Order, { "channel.segments": "two" });
    let _ = query!(Order, { "channel.phoneNumber": 33 });
    let _ = query!(Order, { "channel.priority": true });
    let _ = query!(Order, { "channel.priority": { "$in": [2, 2.5] } });
    let _ = query!(Order, { "channels": { "$elemMatch": { "priority": false } } });
    let _ = query!(Order, { "channels": { "$elemMatch": { "segments": "two" } } });
    // a key two variants hold is offered once
    let _ = query!(Order, { "channel.priorty": 2 });
}
