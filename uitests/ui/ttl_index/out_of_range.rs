use bson::DateTime;
use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

/// mongod takes `expireAfterSeconds` from 0 to 2147483647; 0 is allowed (see options_mongod).
#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(db = "db_shop", collection = "t_session", index(keys(expireAt = 1), ttl = 2147483648))]
struct Session {
    expire_at: DateTime,
}

fn main() {}
