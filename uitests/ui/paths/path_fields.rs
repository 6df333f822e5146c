use mongo_schema::{path, MongoSchema};
use serde::Serialize;
use std::collections::HashMap;

#[derive(Serialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
struct Address {
    #[mongo(max_length = 60)]
    city_name: String,
}

#[derive(Serialize, MongoSchema)]
#[serde(tag = "kind")]
enum Payment {
    Cash,
}

#[derive(Serialize, MongoSchema)]
#[mongo(db = "db_shop", collection = "t_customer")]
struct Customer {
    #[serde(rename = "_id")]
    id: i64,
    #[serde(rename = "addr")]
    address: Address,
    #[mongo(max_items = 5)]
    previous: Vec<Address>,
    #[mongo(max_properties = 5)]
    scores: HashMap<String, i64>,
    payment: Payment,
    #[serde(flatten)]
    audit: Audit,
}

#[derive(Serialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
struct Audit {
    created_at: bson::DateTime,
}

/// Each path breaks one rule; the build reports every one, at the segment.
fn main() {
    // a field the struct does not declare (renamed, misspelt): the fields it has are listed
    let _ = path!(Customer.address.city);
    // the key serde writes, where the Rust field is wanted
    let _ = path!(Customer.address.cityName);
    // a key as a string where the fields are known
    let _ = path!(Customer.address."cityName");
    // a field name inside an enum: the table lists no keys there
    let _ = path!(Customer.payment.amount);
    // an array operator on a document
    let _ = path!(Customer.address.$[]);
    // a field after a scalar
    let _ = path!(Customer.id.value);
    // a map's key is fine; what follows a scalar value is not
    let _ = path!(Customer.scores."math".x);
    // a flattened field alone: its fields are the parent's
    let _ = path!(Customer.audit);
}
