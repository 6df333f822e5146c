use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

// A string bounded only by a fixed-width pattern is bounded: 1000 chunks of up to
// 20000 code points (4 bytes each) exceed 16 MiB.
#[derive(Serialize, Deserialize, MongoSchema)]
struct Chunk {
    #[mongo(pattern = "^.{20000}$")]
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
