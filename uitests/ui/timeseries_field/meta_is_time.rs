use bson::DateTime;
use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(db = "db_iot", collection = "t_reading", timeseries(time_field = "timestamp", meta_field = "timestamp"))]
struct Reading {
    timestamp: DateTime,
    value: f64,
}

fn main() {}
