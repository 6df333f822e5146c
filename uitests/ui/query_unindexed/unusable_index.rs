use mongo_schema::prelude::*;
use mongo_schema::query;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(
    db = "db_shop",
    collection = "t_order",
    index(keys(customerId = 1, createTime = -1)),
    index(keys(email = 1), collation(locale = "en", strength = 2)),
    index(keys(legacyCode = 1), hidden),
    index(keys(coupon = 1), partial = r#"{"coupon": {"$exists": true}}"#),
    index(keys(externalRef = 1), sparse),
    index(keys(slug = "hashed"))
)]
struct Order {
    #[serde(rename = "_id")]
    id: i64,
    #[mongo(max_length = 24)]
    customer_id: String,
    create_time: mongo_schema::bson::DateTime,
    #[mongo(max_length = 10)]
    status: String,
    #[mongo(max_length = 80)]
    email: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[mongo(max_length = 10)]
    legacy_code: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[mongo(max_length = 10)]
    coupon: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[mongo(max_length = 10)]
    external_ref: Option<String>,
    #[mongo(max_length = 40)]
    slug: String,
}

/// Each query names a key an index of the model has, and mongod cannot use that index:
/// another collation, hidden, partial on what the filter does not imply, sparse (no
/// document without the key), hashed (no range), a `$or` branch without one, and bounds
/// that select nothing. The message names the index and why.
fn main() {
    let _ = query!(Order, { "email": "ann@example.com" });
    let _ = query!(Order, { "legacyCode": "L-1" });
    let _ = query!(Order, { "coupon": null });
    let _ = query!(Order, { "externalRef": null });
    let _ = query!(Order, { "slug": { "$gt": "m" } });
    let _ = query!(Order, { "$or": [{ "customerId": "c-1" }, { "status": "Paid" }] });
    let _ = query!(Order, { "customerId": { "$ne": "c-1" } });
}
