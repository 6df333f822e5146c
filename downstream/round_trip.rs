//! The round trip of a user's crate, shared by both downstream crates: derived models with
//! ObjectId / DateTime / Decimal128 fields (the driver's own bson types, no `bson_type`
//! override, no conversion), the generated `createCollection` through `run_command`,
//! `Collection<T>::insert_many`, the local validator over the documents as mongod stored them,
//! and the models read back. Each crate's `bson` is the major its driver uses.

use bson::doc;
use mongo_schema::{MongoCollection, MongoSchema, Validator};
use mongodb::bson::{oid::ObjectId, DateTime, Decimal128, Document, RawDocumentBuf};
use mongodb::Client;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(db = "db_downstream", collection = "t_account")]
pub struct Account {
    #[serde(rename = "_id")]
    pub id: ObjectId,
    #[mongo(min_length = 2, max_length = 20)]
    pub user_name: String,
    pub create_time: DateTime,
    pub credit_limit: Decimal128,
    #[serde(with = "mongo_schema::serde_helpers::decimal128")]
    pub balance: rust_decimal::Decimal,
    #[serde(with = "mongo_schema::serde_helpers::chrono_datetime")]
    pub last_login_time: chrono::DateTime<chrono::Utc>,
    #[serde(with = "mongo_schema::serde_helpers::uuid_binary")]
    pub external_id: uuid::Uuid,
    #[mongo(max_items = 10)]
    pub tags: Vec<String>,
    pub profile: Profile,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
pub struct Profile {
    pub nick_name: String,
    pub birth_time: Option<DateTime>,
}

fn account(n: u8, user_name: &str) -> Account {
    Account {
        id: ObjectId::new(),
        user_name: user_name.into(),
        create_time: DateTime::from_millis(1_700_000_000_000 + i64::from(n)),
        credit_limit: "1234.50".parse().unwrap(),
        balance: rust_decimal::Decimal::new(-99_95 - i64::from(n), 2),
        last_login_time: chrono::DateTime::from_timestamp_millis(1_700_000_000_123).unwrap(),
        external_id: uuid::Uuid::from_u128(0x0123_4567_89ab_cdef_0123_4567_89ab_cdef + u128::from(n)),
        tags: vec!["a".into(), format!("t{n}")],
        profile: Profile {
            nick_name: format!("nick {n}"),
            birth_time: n.is_multiple_of(2).then(|| DateTime::from_millis(0)),
        },
    }
}

#[tokio::test]
async fn round_trip_through_the_users_driver() {
    let Ok(uri) = std::env::var("MONGODB_URI") else {
        println!("skipped (no MONGODB_URI)");
        return;
    };
    let client = Client::with_uri_str(&uri).await.expect("MONGODB_URI must be a valid connection string");
    let db = client.database(Account::DB_NAME);
    db.collection::<Document>(Account::COLLECTION_NAME).drop().await.expect("drop");

    // the generated command is the driver's own `Document`: no conversion
    db.run_command(Account::create_collection_command()).await.expect("createCollection");

    let accounts: Vec<Account> = (0..4).map(|n| account(n, &format!("user {n}"))).collect();
    let coll = db.collection::<Account>(Account::COLLECTION_NAME);
    coll.insert_many(&accounts).await.expect("mongod's validator accepts what the models write");

    // mongod refuses what the validator refuses, and so does the local validator
    let bad = account(9, "x");
    let refused = coll.insert_one(&bad).await.expect_err("user name shorter than 2");
    assert!(refused.to_string().contains("Document failed validation"), "{refused}");

    // the local validator over the documents exactly as mongod stored them
    let validator = Validator::new(&Account::json_schema()).expect("the generated schema");
    let mut stored = db
        .collection::<RawDocumentBuf>(Account::COLLECTION_NAME)
        .find(doc! {})
        .sort(doc! { "createTime": 1 })
        .await
        .expect("find");
    let mut n = 0;
    while stored.advance().await.expect("cursor") {
        let raw = stored.deserialize_current().expect("raw document");
        validator.validate_raw(&raw).expect("the local validator agrees with mongod");
        n += 1;
    }
    assert_eq!(n, accounts.len());
    let bad_bytes: Vec<u8> = crate::driver_bytes(&bad);
    assert!(validator.validate_raw(&bad_bytes).is_err(), "the local validator refuses what mongod refused");

    // BSON types as stored: the helpers and the bson types wrote what the schema says
    let first = db.collection::<Document>(Account::COLLECTION_NAME).find_one(doc! { "_id": accounts[0].id }).await;
    let first = first.expect("find_one").expect("stored");
    assert!(matches!(first.get("creditLimit"), Some(mongodb::bson::Bson::Decimal128(_))), "{first:?}");
    assert!(matches!(first.get("balance"), Some(mongodb::bson::Bson::Decimal128(_))), "{first:?}");
    assert!(matches!(first.get("lastLoginTime"), Some(mongodb::bson::Bson::DateTime(_))), "{first:?}");
    assert!(
        matches!(first.get("externalId"), Some(mongodb::bson::Bson::Binary(b)) if b.bytes.len() == 16),
        "{first:?}"
    );

    // and the models read back equal
    let mut back = Vec::new();
    let mut cursor = coll.find(doc! {}).sort(doc! { "createTime": 1 }).await.expect("find");
    while cursor.advance().await.expect("cursor") {
        back.push(cursor.deserialize_current().expect("an Account"));
    }
    assert_eq!(back, accounts);
}
