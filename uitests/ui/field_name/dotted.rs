use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, MongoSchema)]
struct Address {
    #[serde(rename = "geo.city")]
    city: String,
    #[serde(rename = "$zip")]
    zip: String,
}

fn main() {}
