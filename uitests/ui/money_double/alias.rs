use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

type Money = f64;

#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
struct Order {
    unit_price: Money,
}

fn main() {}
