use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

/// A clustered time-series collection: mongod refuses it (72).
#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(
    db = "db_shop",
    collection = "t_place",
    clustered,
    timeseries(time_field = "readAt")
)]
struct Place {
    read_at: bson::DateTime,
}

fn main() {}
