//! Models declaring every index and collection option of mongod 6.0 the derive generates:
//! the passing side (`options_pass`) and the round trip through a migration on mongod
//! (`options_roundtrip_mongod`) use the same declarations.

#![allow(dead_code)] // the tests use some of each model

use mongo_schema::MongoSchema;
use mongo_schema_tests::bson::{oid::ObjectId, DateTime};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A GeoJSON point: what a 2dsphere index reads.
#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
pub struct GeoPoint {
    #[serde(rename = "type")]
    #[mongo(max_length = 16)]
    pub kind: String,
    #[mongo(max_items = 2)]
    pub coordinates: Vec<f64>,
}

/// Every index option: a case-insensitive unique email (collation), sparse, hidden, a text
/// index with weights and languages, 2dsphere on GeoJSON, 2d on a legacy pair, wildcard
/// indexes (one path, and every field with a projection), hashed, a partial filter with
/// `$or` / `$in` / `$gte`.
#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(
    db = "db_test_index_options",
    collection = "t_account",
    index(keys(email = 1), unique, name = "uk_email_ci", collation(locale = "en", strength = 2)),
    index(keys(nickname = 1), sparse),
    index(keys(lastLogin = -1), hidden),
    index(
        keys(title = "text", bio = "text"),
        name = "tx_profile",
        weights(title = 10, bio = 2),
        default_language = "french",
        language_override = "lang"
    ),
    index(keys(home = "2dsphere")),
    index(keys(pin = "2d")),
    index(keys("attributes.$**" = 1)),
    index(keys("$**" = 1), name = "wc_all", wildcard_projection(attributes = 0, home = 0)),
    index(keys(region = "hashed")),
    index(
        keys(level = 1),
        name = "ix_active",
        partial = r#"{"$or": [{"level": {"$in": ["gold", "silver"]}}, {"score": {"$gte": 5}}]}"#
    )
)]
pub struct Account {
    #[serde(rename = "_id")]
    pub id: ObjectId,
    #[mongo(max_length = 128)]
    pub email: String,
    #[mongo(max_length = 32)]
    pub nickname: Option<String>,
    pub last_login: DateTime,
    #[mongo(max_length = 64)]
    pub title: String,
    #[mongo(max_length = 512)]
    pub bio: String,
    #[mongo(max_length = 16)]
    pub lang: String,
    pub home: GeoPoint,
    #[mongo(max_items = 2)]
    pub pin: Vec<f64>,
    #[mongo(max_properties = 20, items(max_length = 64))]
    pub attributes: BTreeMap<String, String>,
    #[mongo(max_length = 16)]
    pub region: String,
    #[mongo(max_length = 16)]
    pub level: String,
    pub score: i32,
}

/// A collection's default collation: its plain indexes take it (written into each, as
/// mongod copies it), its text index the simple collation mongod needs there; one index
/// names its own.
#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(
    db = "db_test_index_options",
    collection = "t_note",
    collation(locale = "fr", strength = 1),
    index(keys(title = 1)),
    index(keys(body = "text")),
    index(keys(code = 1), unique, collation(locale = "simple"))
)]
pub struct Note {
    #[mongo(max_length = 64)]
    pub title: String,
    #[mongo(max_length = 512)]
    pub body: String,
    #[mongo(max_length = 16)]
    pub code: String,
}

/// A clustered collection whose documents expire a day after their `_id`, a date.
#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(
    db = "db_test_index_options",
    collection = "t_click",
    clustered(expire_after_seconds = 86400),
    index(keys(page = 1))
)]
pub struct Click {
    /// The click's time: a clustered collection expires documents by a date `_id`.
    #[serde(rename = "_id")]
    pub id: DateTime,
    #[mongo(max_length = 128)]
    pub page: String,
}
