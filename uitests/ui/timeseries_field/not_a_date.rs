use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

/// The time field is a string: mongod refuses such measurements.
#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(db = "db_iot", collection = "t_reading", timeseries(time_field = "readAt"))]
struct Reading {
    #[mongo(max_length = 30, allow(string_date, reason = "this case is about timeseries_field"))]
    read_at: String,
    value: f64,
}

fn main() {}
