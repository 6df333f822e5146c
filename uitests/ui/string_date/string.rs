use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
struct Order {
    #[mongo(max_length = 30)]
    create_time: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[mongo(max_length = 30)]
    paid_at: Option<String>,
}

fn main() {}
