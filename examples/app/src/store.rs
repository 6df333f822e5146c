//! The service's data access: every filter is a `query!`, so a misspelt key, a value of the
//! wrong type or a query no index serves fails the build, and `schema queries` lists each
//! query with the index mongod will use (`--uri .. --explain` asks mongod to confirm).

use crate::{Customer, Order, OrderRefund, OrderStatus};
use mongo_schema::bson::{oid::ObjectId, DateTime};
use mongo_schema::query;
use mongodb::Collection;
use serde::Deserialize;

/// A cursor read to the end.
async fn all<T>(mut cursor: mongodb::Cursor<T>) -> mongodb::error::Result<Vec<T>>
where
    T: for<'de> Deserialize<'de> + Send + Sync,
{
    let mut out = Vec::new();
    while cursor.advance().await? {
        out.push(cursor.deserialize_current()?);
    }
    Ok(out)
}

/// Equality, sort and limit: a customer's last 20 orders, newest first. Index
/// `customerId_1_createTime_-1` bounds the customer and gives the order.
pub async fn recent_orders(coll: &Collection<Order>, customer: ObjectId) -> mongodb::error::Result<Vec<Order>> {
    let q = query!(Order, { "customerId": customer }, sort = { "createTime": -1 }, limit = 20, name = "recent_orders");
    all(coll.find(q.filter()).with_options(q.find_options()).await?).await
}

/// A range: the orders paid in `[from, to)`, by pay time (index `status_1_payTime_1`:
/// the status's equality, then the pay time's range, which also gives the order).
pub async fn paid_between(
    coll: &Collection<Order>,
    from: DateTime,
    to: DateTime,
) -> mongodb::error::Result<Vec<Order>> {
    let q = query!(Order, {
        "status": OrderStatus::Paid,
        "payTime": { "$gte": from, "$lt": to },
    }, sort = { "payTime": 1 }, limit = 500, name = "paid_between");
    all(coll.find(q.filter()).with_options(q.find_options()).await?).await
}

/// An `$in`: the orders waiting on the shop (pending payment or paid, not shipped), oldest
/// payment first; one scan of `status_1_payTime_1` per status, merged in order.
pub async fn awaiting(coll: &Collection<Order>) -> mongodb::error::Result<Vec<Order>> {
    let q = query!(Order, {
        "status": { "$in": [OrderStatus::PendingPayment, OrderStatus::Paid] },
    }, sort = { "payTime": 1 }, limit = 100, name = "awaiting");
    all(coll.find(q.filter()).with_options(q.find_options()).await?).await
}

/// What the covered query returns: the order number and its status, nothing else.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OrderStatusView {
    pub order_no: String,
    pub status: OrderStatus,
}

/// A covered query: the filter and the projection are all in `orderNo_1_status_1` and `_id`
/// is excluded, so mongod answers from the index without reading the order.
pub async fn order_status(coll: &Collection<Order>, order_no: &str) -> mongodb::error::Result<Option<OrderStatusView>> {
    let q = query!(Order, { "orderNo": order_no }, projection = { "_id": 0, "orderNo": 1, "status": 1 }, limit = 1, name = "order_status");
    let view = coll.clone_with_type::<OrderStatusView>();
    Ok(all(view.find(q.filter()).with_options(q.find_options()).await?).await?.pop())
}

/// Sign-in: one customer by email (the unique index `email_1`).
pub async fn customer_by_email(coll: &Collection<Customer>, email: &str) -> mongodb::error::Result<Option<Customer>> {
    let q = query!(Customer, { "email": email }, name = "customer_by_email");
    coll.find_one(q.filter()).await
}

/// An order's refunds, newest first (index `orderId_1_createTime_-1`).
pub async fn refunds_of(coll: &Collection<OrderRefund>, order: ObjectId) -> mongodb::error::Result<Vec<OrderRefund>> {
    let q = query!(OrderRefund, { "orderId": order }, sort = { "createTime": -1 }, name = "refunds_of");
    all(coll.find(q.filter()).with_options(q.find_options()).await?).await
}
