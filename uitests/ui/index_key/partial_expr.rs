use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

/// `$expr` in a partial filter: mongod refuses it (224).
#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(
    db = "db_shop",
    collection = "t_place",
    index(keys(userId = 1), partial = r#"{"$expr": {"$gt": ["$userId", 0]}}"#)
)]
struct Place {
    user_id: i64,
}

fn main() {}
