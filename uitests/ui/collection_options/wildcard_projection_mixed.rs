use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

/// A projection both including and excluding: mongod refuses it (31254).
#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(
    db = "db_shop",
    collection = "t_place",
    index(keys("$**" = 1), wildcard_projection(name = 1, summary = 0))
)]
struct Place {
    #[mongo(max_length = 64)]
    name: String,
    #[mongo(max_length = 512)]
    summary: String,
}

fn main() {}
