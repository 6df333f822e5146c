use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

type Money = f64;

/// Every rule a careless model can break, reported in one build.
#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(db = "OrderDB", collection = "orders")]
struct Order {
    #[serde(rename = "_id")]
    id: String,
    #[serde(rename = "CT")]
    created: bson::DateTime,
    total_amount: Money,
    pay_time: String,
    status: i32,
    items: Vec<String>,
    expire_time: chrono::DateTime<chrono::Utc>,
}

fn main() {}
