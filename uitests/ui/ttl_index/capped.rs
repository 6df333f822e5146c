use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

/// A TTL index on a capped collection: mongod refuses it (67).
#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(
    db = "db_shop",
    collection = "t_place",
    capped(size = 1048576),
    index(keys(readAt = 1), ttl = 3600)
)]
struct Place {
    read_at: Option<bson::DateTime>,
}

fn main() {}
