use bson::DateTime;
use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, MongoSchema)]
#[mongo(db = "db_iot", collection = "t_reading", timeseries(time_field = "timestamp", granularity = "days"))]
struct Reading {
    timestamp: DateTime,
}

fn main() {}
