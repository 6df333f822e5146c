use bson::DateTime;
use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

/// A metaField inside an embedded document: mongod takes a top-level field only.
#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(db = "db_iot", collection = "t_reading", timeseries(time_field = "timestamp", meta_field = "source.deviceId"))]
struct Reading {
    timestamp: DateTime,
    source: Source,
}

#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
struct Source {
    #[mongo(max_length = 64)]
    device_id: String,
}

fn main() {}
