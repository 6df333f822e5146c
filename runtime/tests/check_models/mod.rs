//! A model with the faults legacy data has, for the `schema check` tests.
#![allow(dead_code)]

use mongo_schema::bson::{self, doc, oid::ObjectId, DateTime, Document};

/// A ledger account whose legacy documents break it in the ways old data does.
pub mod ledger {
    use mongo_schema::bson::{oid::ObjectId, DateTime};
    use mongo_schema::MongoSchema;
    use serde::{Deserialize, Serialize};

    #[derive(Serialize, Deserialize, MongoSchema)]
    #[serde(rename_all = "camelCase")]
    #[mongo(db = "db_check", collection = "t_account")]
    pub struct Account {
        #[serde(rename = "_id")]
        pub id: ObjectId,
        #[mongo(min_length = 2, max_length = 40)]
        pub owner_name: String,
        pub open_time: DateTime,
        pub login_count: i64,
        /// Absent until chosen: written as null.
        #[mongo(max_length = 20)]
        pub nick_name: Option<String>,
        pub status: AccountStatus,
        /// Where statements go.
        #[mongo(max_items = 3)]
        pub addresses: Vec<Address>,
    }

    #[derive(Serialize, Deserialize, MongoSchema)]
    #[serde(rename_all = "lowercase")]
    pub enum AccountStatus {
        Open,
        Frozen,
    }

    #[derive(Serialize, Deserialize, MongoSchema)]
    #[serde(rename_all = "camelCase")]
    pub struct Address {
        #[mongo(min_length = 1, max_length = 100)]
        pub city: String,
        pub floor_count: i32,
    }
}

pub fn oid(i: u32) -> ObjectId {
    let mut bytes = [0u8; 12];
    bytes[8..].copy_from_slice(&i.to_be_bytes());
    ObjectId::from_bytes(bytes)
}

/// Account `i`: valid, except where `i` falls on one of the legacy faults (several can
/// meet in one document). Failures are spread over the whole input, so over every batch.
pub fn account(i: u32) -> Document {
    let mut d = doc! {
        "_id": oid(i),
        "ownerName": format!("owner {i}"),
        "openTime": DateTime::from_millis(1_600_000_000_000 + i64::from(i) * 1000),
        "loginCount": i64::from(i),
        "nickName": bson::Bson::Null,
        "status": "open",
        "addresses": [{ "city": "Lyon", "floorCount": 3 }],
    };
    if i % 7 == 3 {
        d.insert("openTime", "2021-03-04T05:06:07Z");
    }
    if i % 11 == 5 {
        d.insert("loginCount", i.to_string());
    }
    if i % 23 == 9 {
        d.insert("loginCount", f64::from(i));
    }
    if i % 13 == 8 {
        d.remove("nickName");
    }
    if i % 101 == 50 {
        d.insert("status", "closed");
    }
    if i % 997 == 400 {
        d.insert("addresses", vec![bson::Bson::Document(doc! { "city": "", "floorCount": 2 })]);
    }
    d
}
