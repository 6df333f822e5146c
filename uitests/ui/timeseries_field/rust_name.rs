use bson::DateTime;
use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

/// Fields are named as serde writes them: `readAt`, not `read_at`.
#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(db = "db_iot", collection = "t_reading", timeseries(time_field = "read_at"))]
struct Reading {
    read_at: DateTime,
    value: f64,
}

fn main() {}
