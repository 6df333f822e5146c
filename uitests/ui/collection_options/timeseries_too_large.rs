use bson::DateTime;
use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

/// A measurement may reach 5 MB: over the 4 MiB of a time-series collection.
#[derive(Serialize, Deserialize, MongoSchema)]
#[mongo(db = "db_iot", collection = "t_reading", timeseries(time_field = "timestamp"))]
struct Reading {
    timestamp: DateTime,
    #[mongo(max_length = 1250000)]
    payload: String,
}

fn main() {}
