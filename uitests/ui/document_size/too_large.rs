use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, MongoSchema)]
struct Chunk {
    #[mongo(max_length = 100000)]
    text: String,
}

#[derive(Serialize, Deserialize, MongoSchema)]
#[mongo(db = "db_archive", collection = "t_archive_page")]
struct Page {
    #[serde(rename = "_id")]
    id: bson::oid::ObjectId,
    #[mongo(max_items = 1000)]
    chunks: Vec<Chunk>,
}

fn main() {}
