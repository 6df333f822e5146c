use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

/// The abbreviation rule's edges: `k`, `v`, `ts` and `pwd` pass; `un` (two characters,
/// not listed), `n1` and `SKU` (all capitals) do not.
#[derive(Serialize, Deserialize, MongoSchema)]
struct Attribute {
    #[mongo(max_length = 50)]
    k: String,
    #[mongo(max_length = 50)]
    v: String,
    ts: bson::DateTime,
    pwd: String,
    un: String,
    n1: i32,
    #[serde(rename = "SKU")]
    sku: String,
}

fn main() {}
