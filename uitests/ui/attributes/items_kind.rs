use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// `items(...)` constrains the items of an array or the values of a map, with the same
/// kind checks as the field's own keywords.
#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
struct Sensor {
    /// a string has no items
    #[mongo(items(max_length = 30))]
    label: String,
    /// the items are ints: `max_length` would be ignored
    #[mongo(max_items = 10, items(max_length = 30))]
    readings: Vec<i32>,
    /// the values are strings: `minimum` would be ignored
    #[mongo(max_properties = 10, items(minimum = 0))]
    units: HashMap<String, String>,
    /// the items hold strings, not the integer 3
    #[mongo(max_items = 10, items(enum_values = ["a", 3]))]
    grades: Vec<String>,
    /// the inner items are strings, which have no items of their own
    #[mongo(max_items = 10, items(max_items = 5, items(items(max_length = 3))))]
    grid: Vec<Vec<String>>,
    /// contradictory bounds inside `items(...)`
    #[mongo(max_items = 10, items(min_length = 10, max_length = 2))]
    codes: Vec<String>,
    /// `bson_type` cannot be set on the items
    #[mongo(max_items = 10, items(bson_type = "string"))]
    tags: Vec<String>,
    /// an empty `items(...)` does nothing
    #[mongo(max_items = 10, items())]
    notes: Vec<String>,
}

fn main() {}
