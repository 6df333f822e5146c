use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

/// Two hashed fields in one index: mongod refuses it (31303).
#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(
    db = "db_shop",
    collection = "t_place",
    index(keys(name = "hashed", code = "hashed"))
)]
struct Place {
    #[mongo(max_length = 64)]
    name: String,
    #[mongo(max_length = 16)]
    code: String,
}

fn main() {}
