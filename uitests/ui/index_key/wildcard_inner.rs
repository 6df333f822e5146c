use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

/// `$**` inside a path: mongod refuses the key (67).
#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(
    db = "db_shop",
    collection = "t_place",
    index(keys("attributes.$**.size" = 1))
)]
struct Place {
    #[mongo(max_properties = 8, items(max_length = 16))]
    attributes: std::collections::BTreeMap<String, String>,
}

fn main() {}
