//! A small shop's models, written to the data modelling standard: `db_*`/`t_*` names,
//! camelCase fields, ObjectId `_id`, Decimal128 money, BSON dates, string enums for
//! status, every array bounded. `src/bin/schema.rs` turns them into migrations; the
//! service's reads are in [`store`], each a `query!` the build checks against its model and
//! plans against these indexes (`schema queries` lists them).
//!
//! Try it: add a field to [`Customer`], then
//! `cargo run -p mongo-schema-example-app --bin schema -- migrate --dir migrations/`.

#![forbid(unsafe_code)]

pub mod store;

use mongo_schema::bson::{oid::ObjectId, DateTime};
use mongo_schema::MongoSchema;
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

/// Customers of the shop.
#[derive(Debug, Clone, Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(
    db = "db_user_center",
    collection = "t_customer",
    // sign-in: one customer by email (`store::customer_by_email`)
    index(keys(email = 1), unique)
)]
pub struct Customer {
    #[serde(rename = "_id")]
    pub id: ObjectId,
    /// Display name, 2 to 50 characters
    #[mongo(min_length = 2, max_length = 50)]
    pub user_name: String,
    /// Contact email
    #[mongo(pattern = r"^[^@\s]+@[^@\s]+\.[^@\s]+$", max_length = 254)]
    pub email: String,
    pub status: CustomerStatus,
    /// Delivery addresses, at most 5
    #[mongo(max_items = 5)]
    pub addresses: Vec<Address>,
    pub create_time: DateTime,
}

#[derive(Debug, Clone, Copy, Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "lowercase")]
pub enum CustomerStatus {
    Active,
    Suspended,
    Closed,
}

/// A delivery address, embedded in its customer.
#[derive(Debug, Clone, Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
pub struct Address {
    #[mongo(min_length = 1, max_length = 100)]
    pub city: String,
    #[mongo(min_length = 1, max_length = 200)]
    pub street: String,
    #[mongo(pattern = r"^[0-9A-Z -]{3,10}$")]
    pub postal_code: String,
}

/// Orders, with their lines embedded: always read together.
#[derive(Debug, Clone, Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(
    db = "db_order",
    collection = "t_order",
    // a customer's orders, newest first (`store::recent_orders`)
    index(keys(customerId = 1, createTime = -1)),
    // the payments desk: orders in a set of statuses paid in a window, by pay time
    // (`store::paid_between`, `store::awaiting`)
    index(keys(status = 1, payTime = 1)),
    // an order by its number, answered from the index alone (`store::order_status`)
    index(keys(orderNo = 1, status = 1)),
    // deliberately left for `schema queries` to name: REDUNDANT, a prefix of
    // `customerId_1_createTime_-1`, which serves every query it could
    index(keys(customerId = 1)),
    // deliberately left for `schema queries` to name: UNUSED, the index of a sales report
    // that was removed; no query reads it and every write still maintains it
    index(keys(totalAmount = -1))
)]
pub struct Order {
    #[serde(rename = "_id")]
    pub id: ObjectId,
    /// Business order number
    #[mongo(min_length = 1, max_length = 32)]
    pub order_no: String,
    /// The customer (t_customer)
    pub customer_id: ObjectId,
    /// Order lines, 1 to 100
    #[mongo(min_items = 1, max_items = 100)]
    pub lines: Vec<OrderLine>,
    /// Order total, Decimal128
    #[serde(with = "mongo_schema::serde_helpers::decimal128")]
    pub total_amount: Decimal,
    pub status: OrderStatus,
    pub create_time: DateTime,
    /// When it was paid, absent until then
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pay_time: Option<DateTime>,
}

/// One order line: the product and a snapshot of what was sold.
#[derive(Debug, Clone, Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
pub struct OrderLine {
    pub product_id: ObjectId,
    /// Product name when ordered
    #[mongo(min_length = 1, max_length = 200)]
    pub product_name: String,
    /// Unit price when ordered, Decimal128
    #[serde(with = "mongo_schema::serde_helpers::decimal128")]
    pub price: Decimal,
    #[mongo(minimum = 1, maximum = 10000)]
    pub quantity: i32,
}

#[derive(Debug, Clone, Copy, Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
pub enum OrderStatus {
    PendingPayment,
    Paid,
    Shipped,
    Completed,
    Cancelled,
}

/// Refunds of an order, kept apart: they are written and read on their own.
#[derive(Debug, Clone, Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(
    db = "db_order",
    collection = "t_order_refund",
    // an order's refunds (`store::refunds_of`)
    index(keys(orderId = 1, createTime = -1))
)]
pub struct OrderRefund {
    #[serde(rename = "_id")]
    pub id: ObjectId,
    /// The refunded order (t_order)
    pub order_id: ObjectId,
    /// Refunded amount, Decimal128
    #[serde(with = "mongo_schema::serde_helpers::decimal128")]
    #[mongo(minimum = 0)]
    pub refund_amount: Decimal,
    /// Why, as the customer wrote it
    #[mongo(max_length = 500)]
    pub reason: String,
    pub create_time: DateTime,
}
