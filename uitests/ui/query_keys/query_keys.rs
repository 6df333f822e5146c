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
struct Carrier {
    #[mongo(max_length = 40)]
    carrier_name: String,
}

/// Written beside the tag by the newtype variant `Channel::Sms`: its own names, its
/// flattened struct's keys with them.
#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
struct SmsInfo {
    #[mongo(max_length = 20)]
    phone_number: String,
    #[serde(flatten)]
    carrier: Carrier,
}

#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(tag = "kind", rename_all = "camelCase")]
enum Channel {
    Email {
        #[mongo(max_length = 80)]
        inbox: String,
    },
    Sms(SmsInfo),
    Chat,
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
    #[serde(skip_serializing_if = "Option::is_none")]
    billing: Option<Address>,
    channel: Channel,
}

/// Keys the model does not store: misspelt, renamed, through an embedded document, an
/// array of documents, and a scalar; through a flattened struct, an internally tagged
/// enum (a struct variant's keys, a newtype variant's struct's, its flattened struct's),
/// an `Option` of a struct and a position in an array; each refused at its key.
fn main() {
    let _ = query!(Order, { "customerID": ObjectId::new() });
    let _ = query!(Order, { "shipTo.cityName": "Lyon" });
    let _ = query!(Order, { "shipAddress.city": "Lyon" });
    let _ = query!(Order, { "lines.skuu": "A-1" });
    let _ = query!(Order, { "quantity.value": 1 });
    let _ = query!(Order, { "status": "Paid" }, sort = { "createdAt": -1 });
    let _ = query!(Order, { "$or": [{ "paid": true }, { "creatdBy": "ann" }] });
    let _ = query!(Order, { "lines": { "$elemMatch": { "qty": { "$gt": 2 } } } });
    let _ = query!(Order, { "createBy": "ann" });
    let _ = query!(Order, { "channel.inbx": "support" });
    let _ = query!(Order, { "channel.type": "email" });
    let _ = query!(Order, { "channel.phoneNumbr": "+33 6" });
    let _ = query!(Order, { "channel.phone_number": "+33 6" });
    let _ = query!(Order, { "channel.carierName": "Orange" });
    let _ = query!(Order, { "billing.city": "Lyon" });
    let _ = query!(Order, { "lines.0.skuu": "A-1" });
    let _ = query!(Order, { "Status": "Paid" });
    let _ = query!(Order, { "customerId": ObjectId::new() }, projection = { "shipTo": 1 });
}
