use mongo_schema::bson::DateTime;
use mongo_schema::query::plan::enforce;
use mongo_schema::query::{Filter, Op, Pred, Shape};
use mongo_schema::{MongoSchema, Registration};
use serde::Serialize;

#[derive(Serialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(
    db = "db_shop",
    collection = "t_order",
    index(keys(customerId = 1, createTime = -1)),
    shard_key(customerId = 1)
)]
struct Order {
    #[serde(rename = "_id")]
    id: i64,
    customer_id: String,
    create_time: DateTime,
    status: String,
}

// `query!(Order, { "createTime": { "$gte": t } }, allow(query_unindexed, reason = ".."))`:
// no equality on the shard key's `customerId`: every shard answers.
const SHAPE: Shape = Shape {
    filter: &[Filter::Pred(Pred { path: "createTime", op: Op::Gte })],
    sort: &[],
    projection: &[],
    limit: Some(100),
    skip: None,
    name: Some("recent_orders"),
    allow: &[("query_unindexed", "a small collection")],
    module: "orders",
    file: "src/orders.rs",
    line: 30,
};

const _: () = enforce(&SHAPE, &Registration::of::<Order>("Order"));

fn main() {}
