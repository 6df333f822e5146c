use bson::DateTime;
use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(db = "db_iot", collection = "t_reading", timeseries(time_field = "timestamp", meta_field = "device"))]
struct Reading {
    timestamp: DateTime,
    #[mongo(max_length = 64)]
    device_id: String,
}

fn main() {}
