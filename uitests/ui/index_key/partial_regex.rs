use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

/// A regex in a partial filter: mongod refuses it (67).
#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(
    db = "db_shop",
    collection = "t_place",
    index(keys(userId = 1), partial = r#"{"name": {"$regex": "^a"}}"#)
)]
struct Place {
    user_id: i64,
    #[mongo(max_length = 64)]
    name: String,
}

fn main() {}
