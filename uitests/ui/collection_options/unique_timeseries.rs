use bson::DateTime;
use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(db = "db_iot", collection = "t_reading", timeseries(time_field = "timestamp"), index(keys(timestamp = 1), unique))]
struct Reading {
    timestamp: DateTime,
}

fn main() {}
