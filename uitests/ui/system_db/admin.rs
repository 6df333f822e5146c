use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

/// A business collection inside MongoDB's own `admin` database.
#[derive(Serialize, Deserialize, MongoSchema)]
#[mongo(db = "admin", collection = "t_app_config")]
struct AppConfig {
    #[serde(rename = "_id")]
    id: bson::oid::ObjectId,
}

fn main() {}
