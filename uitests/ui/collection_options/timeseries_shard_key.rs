use bson::DateTime;
use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

/// A time-series collection shards on its metaField, not on a measurement.
#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(
    db = "db_iot",
    collection = "t_reading",
    timeseries(time_field = "timestamp", meta_field = "deviceId"),
    shard_key(temperature = "hashed")
)]
struct Reading {
    timestamp: DateTime,
    #[mongo(max_length = 64)]
    device_id: String,
    temperature: f64,
}

fn main() {}
