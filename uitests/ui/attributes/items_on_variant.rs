use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

/// `items(...)` belongs on a field.
#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(tag = "type")]
enum Event {
    #[mongo(items(max_length = 3))]
    Tagged { tag: String },
}

fn main() {}
