use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

/// A weight for a field that is not a text key.
#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(
    db = "db_shop",
    collection = "t_place",
    index(keys(name = "text"), weights(summary = 5))
)]
struct Place {
    #[mongo(max_length = 64)]
    name: String,
    #[mongo(max_length = 512)]
    summary: String,
}

fn main() {}
