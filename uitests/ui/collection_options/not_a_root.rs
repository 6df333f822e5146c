use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

/// An embedded type has no collection to index.
#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(index(keys(city = 1)))]
struct Address {
    #[mongo(max_length = 64)]
    city: String,
}

fn main() {}
