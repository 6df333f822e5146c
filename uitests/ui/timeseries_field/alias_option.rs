use bson::DateTime;
use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

/// An alias cannot hide that the time field may be null.
type MaybeWhen = Option<DateTime>;

#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(db = "db_iot", collection = "t_reading", timeseries(time_field = "timestamp"))]
struct Reading {
    timestamp: MaybeWhen,
    value: f64,
}

fn main() {}
