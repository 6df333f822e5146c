use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

/// `tags` and `tagsArchive` are two arrays, although one name starts with the other.
#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(db = "db_order", collection = "t_order", index(keys(tags = 1, tagsArchive = 1)))]
struct Order {
    #[mongo(max_items = 10)]
    tags: Vec<String>,
    #[mongo(max_items = 10)]
    tags_archive: Vec<String>,
}

fn main() {}
