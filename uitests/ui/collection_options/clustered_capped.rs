use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

/// A clustered capped collection: mongod refuses it (6127800).
#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(
    db = "db_shop",
    collection = "t_place",
    clustered,
    capped(size = 1048576)
)]
struct Place {
    #[mongo(max_length = 64)]
    name: String,
}

fn main() {}
