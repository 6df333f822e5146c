use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

/// Keywords of another BSON kind than the field's are written and enforce nothing.
#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
struct Product {
    #[mongo(max_length = 50, max_items = 50)]
    title: String,
    #[mongo(minimum = 1)]
    sku: String,
    #[mongo(pattern = "^[0-9]+$")]
    stock_level: i32,
    #[mongo(max_properties = 3)]
    on_sale: bool,
    #[mongo(enum_values = ["small", "large"])]
    size_code: u8,
    #[mongo(enum_values = [1, 2, 3000000000])]
    rank: i32,
    /// `maxLength` would land on the array, not on its items.
    #[mongo(max_items = 10, max_length = 30)]
    labels: Option<Vec<String>>,
    #[mongo(max_properties = 10, minimum = 0)]
    stock_by_site: std::collections::BTreeMap<String, i32>,
}

fn main() {}
