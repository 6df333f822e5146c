use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
struct Request {
    trace_id: uuid::Uuid,
}

fn main() {}
