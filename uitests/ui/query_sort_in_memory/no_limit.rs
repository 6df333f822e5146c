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

// `query!(Order, { "customerId": c }, sort = { "status": 1 })`: the index bounds the filter,
// not the sort, and nothing limits what mongod sorts in memory.
const SHAPE: Shape = Shape {
    filter: &[Filter::Pred(Pred { path: "customerId", op: Op::Eq })],
    sort: &[("status", Direction::Ascending)],
    projection: &[],
    limit: None,
    skip: None,
    name: None,
    allow: &[],
    module: "orders",
    file: "src/orders.rs",
    line: 20,
};

const _: () = enforce(&SHAPE, &Registration::of::<Order>("Order"));

fn main() {}
