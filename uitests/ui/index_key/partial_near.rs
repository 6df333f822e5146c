use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

/// `$near` in a partial filter: mongod refuses it (5626500).
#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(
    db = "db_shop",
    collection = "t_place",
    index(keys(userId = 1), partial = r#"{"pin": {"$near": [0, 0]}}"#)
)]
struct Place {
    user_id: i64,
    #[mongo(max_items = 2)]
    pin: Vec<f64>,
}

fn main() {}
