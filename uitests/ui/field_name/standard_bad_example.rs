use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

/// The standard's "not recommended" document: four spellings and abbreviations.
#[derive(Serialize, Deserialize, MongoSchema)]
struct Order {
    #[serde(rename = "UN")]
    user_name: String,
    #[serde(rename = "Create_Time")]
    create_time: bson::DateTime,
    #[serde(rename = "oi")]
    #[mongo(max_items = 10)]
    order_items: Vec<String>,
    #[serde(rename = "_total")]
    total: bson::Decimal128,
}

fn main() {}
