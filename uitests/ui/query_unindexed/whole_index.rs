use mongo_schema::bson::DateTime;
use mongo_schema::query::plan::enforce;
use mongo_schema::query::{Direction, Filter, Op, Pred, Shape};
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

// What `query!(Order, { "status": s, "createTime": { "$gte": t } }, sort = { "customerId": 1 }, limit = 10)`
// writes: no index starts with `status`; the fix is the ESR index.
const SHAPE: Shape = Shape {
    filter: &[
        Filter::Pred(Pred { path: "status", op: Op::Eq }),
        Filter::Pred(Pred { path: "createTime", op: Op::Gte }),
    ],
    sort: &[("customerId", Direction::Ascending)],
    projection: &[],
    limit: Some(10),
    skip: None,
    name: Some("orders_by_status"),
    allow: &[("query_broadcast", "an admin screen")],
    module: "orders",
    file: "src/orders.rs",
    line: 12,
};

const _: () = enforce(&SHAPE, &Registration::of::<Order>("Order"));

fn main() {}
