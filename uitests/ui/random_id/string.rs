use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, MongoSchema)]
#[mongo(db = "db_order", collection = "t_order")]
struct Order {
    #[serde(rename = "_id")]
    #[mongo(max_length = 36)]
    id: String,
}

fn main() {}
