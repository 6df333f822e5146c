use mongo_schema::{path, MongoSchema};
use serde::Serialize;

#[derive(Serialize, MongoSchema)]
#[mongo(db = "db_shop", collection = "t_customer")]
struct Customer {
    #[serde(rename = "_id")]
    id: i64,
    #[mongo(max_items = 5, items(max_length = 20))]
    tags: Vec<String>,
}

/// What `path!` cannot read: each is refused where it is written.
fn main() {
    // the model alone
    let _ = path!(Customer);
    // an array filter identifier mongod refuses
    let _ = path!(Customer.tags.$[Item]);
    // a key with a dot
    let _ = path!(Customer.tags."a.b");
    // an index that is not a plain decimal integer
    let _ = path!(Customer.tags.0x1);
    // a segment missing after a dot
    let _ = path!(Customer.tags.);
}
