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

// `query!(Order, { "status": s, "createTime": { "$gte": t } }, limit = 10)`: no index starts
// with `status` or `createTime`; the fix is the ESR index (equalities first, ranges last).
const SHAPE: Shape = Shape {
    filter: &[
        Filter::Pred(Pred { path: "createTime", op: Op::Gte }),
        Filter::Pred(Pred { path: "status", op: Op::Eq }),
    ],
    sort: &[],
    projection: &[],
    limit: Some(10),
    skip: None,
    name: None,
    allow: &[("query_broadcast", "an admin screen")],
    module: "orders",
    file: "src/orders.rs",
    line: 40,
};

const _: () = enforce(&SHAPE, &Registration::of::<Order>("Order"));

fn main() {}
