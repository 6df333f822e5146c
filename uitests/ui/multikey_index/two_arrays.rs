use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
struct Line {
    #[mongo(max_length = 32)]
    sku: String,
}

/// `tags` and `items.sku` are both arrays: MongoDB cannot index parallel arrays.
#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(db = "db_order", collection = "t_order", index(keys(tags = 1, "items.sku" = 1)))]
struct Order {
    #[mongo(max_items = 10)]
    tags: Vec<String>,
    #[mongo(max_items = 50)]
    items: Vec<Line>,
}

fn main() {}
