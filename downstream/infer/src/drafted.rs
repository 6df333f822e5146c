// Drafted by `schema infer` from the data: the target shape of each collection, what the
// modelling rules want, chosen from what the documents hold. Review every type, waiver and
// bound before adopting it (docs/INFER.md); `schema check` with these models lists the
// documents that must change.
#![allow(dead_code)]

use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

/// `db_legacy.customers`: 50 documents read.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(db = "db_legacy", collection = "customers", allow(collection_name, reason = "the deployed names, kept as they are: renaming a database or collection is a move, not a model change"))]
pub struct Customers {
    /// 50 of 50: objectId 100%.
    #[serde(rename = "_id")]
    pub id: mongo_schema::bson::oid::ObjectId,
    /// 50 of 50: string 100%.
    pub name: String,
    /// 50 of 50: string 100%.
    pub email: String,
    /// 50 of 50: bool 100%.
    pub vip: bool,
    /// 50 of 50: date 100%.
    pub joined_at: mongo_schema::bson::DateTime,
}

/// `db_legacy.t_order`: 400 documents read.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(db = "db_legacy", collection = "t_order")]
pub struct Order {
    /// 400 of 400: objectId 100%.
    #[serde(rename = "_id")]
    pub id: mongo_schema::bson::oid::ObjectId,
    /// 400 of 400: int32 67%, int64 34%.
    pub order_no: i64,
    /// 400 of 400: int32 90%, double 10%.
    pub quantity: i32,
    /// 400 of 400: decimal128 86%, double 15%.
    #[serde(with = "mongo_schema::serde_helpers::decimal128")]
    pub total_amount: rust_decimal::Decimal,
    /// 400 of 400: date 88%, string 13%.
    pub create_time: mongo_schema::bson::DateTime,
    /// 400 of 400: string 100%.
    pub status: OrderStatus,
    /// 400 of 400: objectId 89%, string 11%.
    pub customer_id: mongo_schema::bson::oid::ObjectId,
    /// 400 of 400: string 75%, null 25%.
    pub coupon_code: Option<String>,
    /// 400 of 400: array 100%.
    #[mongo(max_items = 20)]
    pub items: Vec<OrderItems>,
    /// 400 of 400: array 100%.
    #[mongo(max_items = 2, items(max_items = 2))]
    pub box_sizes: Vec<Vec<mongo_schema::bson::Bson>>,
    /// 400 of 400: object 100%.
    #[mongo(max_properties = 5)]
    pub stock_by_warehouse: std::collections::BTreeMap<String, i32>,
    /// 266 of 400: string 100%.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub remark: Option<String>,
    /// 320 of 400: string 75%, null 25%.
    /// Missing in some documents and null in others: both admitted (`nullable`), both read as `None`.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[mongo(nullable)]
    pub gift_message: Option<String>,
    /// 300 of 400: array 100%.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[mongo(max_items = 2)]
    pub tags: Option<Vec<OrderTags>>,
    /// 333 of 400: uuid 100%.
    #[serde(skip_serializing_if = "Option::is_none", with = "mongo_schema::serde_helpers::uuid_binary_option", default)]
    pub tracking_id: Option<uuid::Uuid>,
    /// 400 of 400: object 100% (with `shipTo`, its old key).
    #[serde(alias = "shipTo")]
    #[mongo(renamed_from = "shipTo")]
    pub shipping_address: OrderShippingAddress,
}

/// The values of `status`: "cancelled" 102, "paid" 97, "pending" 89, "shipped" 112.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, MongoSchema)]
pub enum OrderStatus {
    #[serde(rename = "cancelled")]
    Cancelled,
    #[serde(rename = "paid")]
    Paid,
    #[serde(rename = "pending")]
    Pending,
    #[serde(rename = "shipped")]
    Shipped,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
pub struct OrderItems {
    /// 1,200 of 1,200: string 100%.
    pub sku: String,
    /// 1,200 of 1,200: int32 100%.
    pub qty: i32,
    /// 1,200 of 1,200: decimal128 100%.
    #[serde(with = "mongo_schema::serde_helpers::decimal128")]
    pub unit_price: rust_decimal::Decimal,
}

/// The values of `tags.$[]`: "express" 156, "gift" 300.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, MongoSchema)]
pub enum OrderTags {
    #[serde(rename = "express")]
    Express,
    #[serde(rename = "gift")]
    Gift,
}

/// The values of `shippingAddress.city`: "Kyoto" 134, "Lyon" 128, "Oslo" 138.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, MongoSchema)]
pub enum OrderShippingAddressCity {
    #[serde(rename = "Kyoto")]
    Kyoto,
    #[serde(rename = "Lyon")]
    Lyon,
    #[serde(rename = "Oslo")]
    Oslo,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, MongoSchema)]
pub struct OrderShippingAddress {
    /// 400 of 400: string 100%.
    pub city: OrderShippingAddressCity,
    /// 400 of 400: string 100%.
    pub zip: String,
}
