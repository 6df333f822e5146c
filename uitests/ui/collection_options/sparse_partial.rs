use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

/// `sparse` with `partial`: mongod refuses it (67).
#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(
    db = "db_shop",
    collection = "t_place",
    index(keys(name = 1), sparse, partial = r#"{"name": {"$exists": true}}"#)
)]
struct Place {
    #[mongo(max_length = 64)]
    name: String,
}

fn main() {}
