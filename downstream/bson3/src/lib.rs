//! What a service on the driver with bson 3 already has, which must keep compiling when
//! mongo-schema (and its `driver` feature) comes in: bson 3's names through the driver
//! (`mongodb::bson::serialize_to_document`) and the crate's own `bson::doc!`, mixed freely.

use serde::Serialize;

/// A filter document for the driver, from the user's own `bson::doc!` and `serialize_to_document`.
pub fn filter<T: Serialize>(value: &T) -> mongodb::bson::Document {
    let mut filter: mongodb::bson::Document = bson::doc! { "deleted": false };
    filter.extend(mongodb::bson::serialize_to_document(value).expect("a struct"));
    filter
}
