use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

/// `wildcard_projection` on a path wildcard: mongod refuses it (9).
#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(
    db = "db_shop",
    collection = "t_place",
    index(keys("attributes.$**" = 1), wildcard_projection(size = 1))
)]
struct Place {
    #[mongo(max_properties = 8, items(max_length = 16))]
    attributes: std::collections::BTreeMap<String, String>,
}

fn main() {}
