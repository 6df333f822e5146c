//! What a service on the driver's defaults already has, which must keep compiling when
//! mongo-schema (and its `driver` feature) comes in: bson 2's names through the driver
//! (`mongodb::bson::to_document`) and the crate's own `bson::doc!`, mixed freely.

use serde::Serialize;

/// A filter document for the driver, from the user's own `bson::doc!` and `to_document`.
pub fn filter<T: Serialize>(value: &T) -> mongodb::bson::Document {
    let mut filter: mongodb::bson::Document = bson::doc! { "deleted": false };
    filter.extend(mongodb::bson::to_document(value).expect("a struct"));
    filter
}

/// `query!` as the README writes it: the filter and the driver's `FindOptions` from a
/// query checked against the model, in a crate with `mongodb = "3"` and mongo-schema alone.
pub mod orders {
    use futures_util::TryStreamExt;
    use mongo_schema::{query, MongoSchema};
    use mongodb::bson::{oid::ObjectId, DateTime};
    use serde::{Deserialize, Serialize};

    #[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, MongoSchema)]
    pub enum OrderStatus {
        Paid,
        Shipped,
        Cancelled,
    }

    #[derive(Debug, Serialize, Deserialize, MongoSchema)]
    #[serde(rename_all = "camelCase")]
    #[mongo(db = "db_shop", collection = "t_order", index(keys(customerId = 1, createTime = -1, status = 1)))]
    pub struct Order {
        #[serde(rename = "_id")]
        pub id: ObjectId,
        pub customer_id: ObjectId,
        pub status: OrderStatus,
        pub create_time: DateTime,
    }

    /// A customer's recent paid or shipped orders, newest first.
    pub async fn recent(
        coll: &mongodb::Collection<Order>,
        customer_id: ObjectId,
        since: DateTime,
    ) -> mongodb::error::Result<Vec<Order>> {
        let q = query!(Order, {
            "customerId": customer_id,                 // any Rust expression as a value
            "status": { "$in": [OrderStatus::Paid, OrderStatus::Shipped] },
            "createTime": { "$gte": since },
        }, sort = { "createTime": -1 }, limit = 50);
        let orders: Vec<Order> = coll.find(q.filter()).with_options(q.find_options()).await?.try_collect().await?;
        Ok(orders)
    }

    /// How many of a customer's orders are in `status` (`count_documents` with the query's
    /// filter and `CountOptions`).
    pub async fn count(
        coll: &mongodb::Collection<Order>,
        customer_id: ObjectId,
        status: OrderStatus,
    ) -> mongodb::error::Result<u64> {
        let q = query!(Order, { "customerId": customer_id, "status": status }, limit = 1000);
        coll.count_documents(q.filter()).with_options(q.count_options()).await
    }
}
