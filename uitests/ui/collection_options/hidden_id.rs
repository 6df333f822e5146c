use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

/// A hidden `_id` index: mongod refuses it (197).
#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(
    db = "db_shop",
    collection = "t_place",
    index(keys(_id = 1), hidden)
)]
struct Place {
    #[mongo(max_length = 64)]
    name: String,
}

fn main() {}
