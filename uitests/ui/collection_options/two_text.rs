use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

/// Two text indexes on one collection: mongod refuses the second (85).
#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(
    db = "db_shop",
    collection = "t_place",
    index(keys(name = "text")),
    index(keys(summary = "text"))
)]
struct Place {
    #[mongo(max_length = 64)]
    name: String,
    #[mongo(max_length = 512)]
    summary: String,
}

fn main() {}
