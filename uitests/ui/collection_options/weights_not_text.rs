use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

/// `weights` on an index with no text key: mongod refuses it (67).
#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(
    db = "db_shop",
    collection = "t_place",
    index(keys(name = 1), weights(name = 5))
)]
struct Place {
    #[mongo(max_length = 64)]
    name: String,
}

fn main() {}
