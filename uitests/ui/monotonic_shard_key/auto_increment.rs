use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(db = "db_order", collection = "t_order", shard_key(orderSeq = 1))]
struct Order {
    #[mongo(auto_increment)]
    order_seq: i64,
}

fn main() {}
