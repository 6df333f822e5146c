use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

/// `$exists: false` in a partial filter: mongod refuses it (67).
#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(
    db = "db_shop",
    collection = "t_place",
    index(keys(userId = 1), partial = r#"{"readAt": {"$exists": false}}"#)
)]
struct Place {
    user_id: i64,
    read_at: Option<bson::DateTime>,
}

fn main() {}
