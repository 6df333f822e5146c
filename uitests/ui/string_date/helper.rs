use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
struct Event {
    #[serde(with = "bson::serde_helpers::datetime::AsRfc3339String")]
    update_time: bson::DateTime,
}

fn main() {}
