use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

/// A text weight of 100000: mongod refuses it (67).
#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(
    db = "db_shop",
    collection = "t_place",
    index(keys(name = "text"), weights(name = 100000))
)]
struct Place {
    #[mongo(max_length = 64)]
    name: String,
}

fn main() {}
