use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize)]
struct Coordinates {
    latitude: bson::Decimal128,
}

/// Embedded types must derive `MongoSchema` too.
#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
struct Shop {
    location: Coordinates,
}

fn main() {}
