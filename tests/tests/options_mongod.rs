//! Collection options against a real mongod (`MONGODB_URI`, set by
//! `scripts/with-mongod.sh`): the time-series, index, TTL and capped commands are
//! accepted and do what they declare; mongod refuses a validator on a time-series
//! collection and large measurements far below 16 MiB, as the derive assumes. `shardCollection`
//! needs a mongos and is checked by golden output only (`options_pass`).
//! Without `MONGODB_URI` each test says it was skipped and passes.

#![forbid(unsafe_code)]

use mongo_schema::{MongoCollection, MongoSchema};
use mongo_schema_tests::bson;
use mongo_schema_tests::bson::{doc, oid::ObjectId, DateTime, Document};
use mongodb::sync::{Client, Database};
use serde::{Deserialize, Serialize};

use crate::support;
use support::code;

/// A device's readings, as the standard's IoT case: one time-series collection.
#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(
    db = "db_test_options",
    collection = "t_device_reading",
    timeseries(time_field = "timestamp", meta_field = "deviceId", granularity = "seconds", expire_after_seconds = 86400),
    index(keys(deviceId = 1, timestamp = -1))
)]
struct DeviceReading {
    timestamp: DateTime,
    #[mongo(max_length = 64)]
    device_id: String,
    /// Unbounded, so that a test can send a measurement over 4 MiB.
    payload: String,
}

#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
struct Address {
    #[mongo(max_length = 64)]
    city: String,
}

#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(
    db = "db_test_options",
    collection = "t_session",
    index(keys(token = 1), unique, name = "uk_token"),
    index(keys("address.city" = 1, createTime = -1)),
    index(keys(expireTime = 1), ttl = 1),
    index(keys(userId = 1), name = "ix_open", partial = r#"{"createTime": {"$gt": {"$date": "2024-01-01T00:00:00Z"}}}"#)
)]
struct Session {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[mongo(max_length = 64)]
    token: String,
    user_id: i64,
    address: Address,
    create_time: DateTime,
    expire_time: DateTime,
}

#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(db = "db_test_options", collection = "t_recent_event", capped(size = 4096, max = 3))]
struct RecentEvent {
    seq: i32,
}

fn database(test: &str) -> Option<Database> {
    match std::env::var("MONGODB_URI") {
        Ok(uri) => Some(
            Client::with_uri_str(uri).expect("MONGODB_URI is a valid connection string").database("db_test_options"),
        ),
        Err(_) => {
            mongo_schema_tests::skipped(&format!("options_mongod::{test}"));
            None
        }
    }
}

/// Installs `T`'s collection under `name` (tests run in parallel, each on its own).
fn install<T: MongoCollection>(db: &Database, name: &str) {
    db.collection::<Document>(name).drop().run().expect("drop");
    let mut create = T::create_collection_command();
    create.insert("create", name);
    db.run_command(create).run().expect("createCollection accepted");
    if let Some(mut indexes) = T::create_indexes_command() {
        indexes.insert("createIndexes", name);
        db.run_command(indexes.clone()).run().expect("createIndexes accepted");
        db.run_command(indexes).run().expect("createIndexes again is harmless");
    }
}

/// The options mongod reports for a collection.
fn options_of(db: &Database, name: &str) -> Document {
    let list =
        db.run_command(doc! { "listCollections": 1, "filter": { "name": name } }).run().expect("listCollections");
    let batch = list.get_document("cursor").and_then(|c| c.get_array("firstBatch")).expect("cursor");
    batch[0].as_document().expect("collection info").get_document("options").expect("options").clone()
}

fn index_names(db: &Database, name: &str) -> Vec<String> {
    let list = db.run_command(doc! { "listIndexes": name }).run().expect("listIndexes");
    let batch = list.get_document("cursor").and_then(|c| c.get_array("firstBatch")).expect("cursor");
    batch.iter().map(|i| i.as_document().unwrap().get_str("name").unwrap().to_owned()).collect()
}

fn reading(device: &str, payload_len: usize) -> DeviceReading {
    DeviceReading { timestamp: DateTime::now(), device_id: device.to_owned(), payload: "x".repeat(payload_len) }
}

#[test]
fn timeseries_collection_is_created_with_expiry_and_index() {
    let Some(db) = database("timeseries_collection_is_created_with_expiry_and_index") else { return };
    install::<DeviceReading>(&db, "t_device_reading");
    let options = options_of(&db, "t_device_reading");
    let timeseries = options.get_document("timeseries").expect("a time-series collection");
    assert_eq!(timeseries.get_str("timeField").ok(), Some("timestamp"));
    assert_eq!(timeseries.get_str("metaField").ok(), Some("deviceId"));
    assert_eq!(
        options.get_i64("expireAfterSeconds").ok().or(options.get_i32("expireAfterSeconds").ok().map(i64::from)),
        Some(86400)
    );
    assert!(index_names(&db, "t_device_reading").contains(&"deviceId_1_timestamp_-1".to_owned()));
    let coll = db.collection::<DeviceReading>("t_device_reading");
    coll.insert_one(reading("d1", 10)).run().expect("a measurement inserts");
    db.run_command(DeviceReading::coll_mod_command()).run().expect("collMod of a time-series collection accepted");
}

#[test]
fn mongod_refuses_a_validator_on_a_timeseries_collection() {
    let Some(db) = database("mongod_refuses_a_validator_on_a_timeseries_collection") else { return };
    db.collection::<Document>("t_device_reading_v").drop().run().expect("drop");
    let mut create = DeviceReading::create_collection_command();
    create.insert("create", "t_device_reading_v");
    create.insert("validator", DeviceReading::validator());
    let error = db.run_command(create).run().expect_err("mongod refuses a validator on a time-series collection");
    assert!(code(&error).is_some(), "a command error: {error}");
}

/// MongoDB documents 4 MB for a time-series measurement. mongod 6.0.5 enforces it
/// through the bucket, which holds each value about three times (data, control.min,
/// control.max): measurements at the derive's 4 MiB bound insert, and an 8 MiB one,
/// well under the 16 MiB of a regular document, is refused.
#[test]
fn timeseries_measurements_have_a_lower_limit_than_16_mib() {
    let Some(db) = database("timeseries_measurements_have_a_lower_limit_than_16_mib") else { return };
    install::<DeviceReading>(&db, "t_device_reading_big");
    let limit = mongo_schema::__private::size::MAX_TIMESERIES_DOCUMENT_SIZE as usize;
    let coll = db.collection::<DeviceReading>("t_device_reading_big");
    coll.insert_one(reading("d2", limit - 200)).run().expect("a measurement within 4 MiB inserts");
    let error = coll.insert_one(reading("d2", 2 * limit)).run().expect_err("an 8 MiB measurement is refused");
    assert_eq!(code(&error), Some(10334), "BSONObjectTooLarge: {error}");
}

#[test]
fn indexes_are_created_idempotently_and_enforced() {
    let Some(db) = database("indexes_are_created_idempotently_and_enforced") else { return };
    install::<Session>(&db, "t_session");
    let names = index_names(&db, "t_session");
    for expected in ["_id_", "uk_token", "address.city_1_createTime_-1", "expireTime_1", "ix_open"] {
        assert!(names.contains(&expected.to_owned()), "{expected} in {names:?}");
    }
    let session = |token: &str| Session {
        id: ObjectId::new(),
        token: token.to_owned(),
        user_id: 7,
        address: Address { city: "Lyon".into() },
        create_time: DateTime::now(),
        expire_time: DateTime::now(),
    };
    let coll = db.collection::<Session>("t_session");
    coll.insert_one(session("a")).run().expect("first insert");
    let error = coll.insert_one(session("a")).run().expect_err("the unique index refuses a duplicate token");
    assert_eq!(code(&error), Some(11000));
}

#[test]
fn ttl_and_partial_indexes_are_installed_as_declared() {
    let Some(db) = database("ttl_and_partial_indexes_are_installed_as_declared") else { return };
    install::<Session>(&db, "t_session_ttl");
    let list = db.run_command(doc! { "listIndexes": "t_session_ttl" }).run().expect("listIndexes");
    let batch = list.get_document("cursor").and_then(|c| c.get_array("firstBatch")).expect("cursor");
    let partial = batch
        .iter()
        .filter_map(|i| i.as_document())
        .find(|i| i.get_str("name").ok() == Some("ix_open"))
        .expect("partial index");
    assert!(partial.get_document("partialFilterExpression").is_ok());
    let ttl = batch
        .iter()
        .filter_map(|i| i.as_document())
        .find(|i| i.get_str("name").ok() == Some("expireTime_1"))
        .expect("TTL index");
    // mongod's TTL monitor deletes at its next pass (every 60 s): the declared expiry is
    // what is checked here
    assert_eq!(ttl.get_i32("expireAfterSeconds").ok(), Some(1));
}

#[test]
fn capped_collection_keeps_the_last_documents() {
    let Some(db) = database("capped_collection_keeps_the_last_documents") else { return };
    install::<RecentEvent>(&db, "t_recent_event");
    let options = options_of(&db, "t_recent_event");
    assert_eq!(options.get_bool("capped").ok(), Some(true));
    let coll = db.collection::<RecentEvent>("t_recent_event");
    coll.insert_many((0..5).map(|seq| RecentEvent { seq })).run().expect("inserts");
    let kept: Vec<i32> = coll.find(doc! {}).run().expect("find").map(|e| e.expect("event").seq).collect();
    assert_eq!(kept, vec![2, 3, 4], "max = 3 keeps the last three");
}

/// What `collection_options` refuses at compile time, mongod refuses too.
#[test]
fn mongod_refuses_what_collection_options_refuses() {
    let Some(db) = database("mongod_refuses_what_collection_options_refuses") else { return };
    install::<DeviceReading>(&db, "t_device_reading_unique");
    let unique = doc! { "createIndexes": "t_device_reading_unique", "indexes": [{ "key": { "timestamp": 1 }, "name": "uk_ts", "unique": true }] };
    assert!(db.run_command(unique).run().is_err(), "no unique index on a time-series collection");
    db.collection::<Document>("t_capped_ts").drop().run().expect("drop");
    let capped =
        doc! { "create": "t_capped_ts", "timeseries": { "timeField": "timestamp" }, "capped": true, "size": 4096 };
    assert!(db.run_command(capped).run().is_err(), "a time-series collection cannot be capped");
}

/// The attribute pattern's `{name, value}` pairs.
#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
struct Spec {
    #[mongo(max_length = 32)]
    name: String,
    #[mongo(max_length = 64)]
    value: String,
}

/// Ordinary modelling `multikey_index`, `ttl_index` and `pattern` must not refuse: a
/// compound index over two fields of the same array, `ttl = 0` (expire at the time stored
/// in the field), and PCRE that Rust's regex syntax does not know.
#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(
    db = "db_test_options",
    collection = "t_product",
    index(keys("specs.name" = 1, "specs.value" = 1)),
    index(keys(expireAt = 1), ttl = 0)
)]
struct Product {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[mongo(max_items = 20)]
    specs: Vec<Spec>,
    #[mongo(max_items = 5)]
    labels: Vec<String>,
    expire_at: DateTime,
    /// An atomic group.
    #[mongo(max_length = 8, pattern = r"^(?>ab|a)c$")]
    grade: String,
    /// `\h`: horizontal white space only.
    #[mongo(max_length = 8, pattern = r"^\h*x$")]
    indent: String,
    /// A quoted run: the dot is literal.
    #[mongo(max_length = 8, pattern = r"^\Q1.5\E$")]
    version: String,
    /// A possessive quantifier.
    #[mongo(max_length = 8, pattern = r"^a++b$")]
    run: String,
    /// `(*UCP)`: `\w` matches every Unicode letter.
    #[mongo(max_length = 8, pattern = r"(*UCP)^\w+$")]
    word: String,
}

fn product() -> Product {
    Product {
        id: ObjectId::new(),
        specs: vec![
            Spec { name: "color".into(), value: "red".into() },
            Spec { name: "size".into(), value: "XL".into() },
        ],
        labels: vec!["new".into()],
        expire_at: DateTime::now(),
        grade: "ac".into(),
        indent: " \tx".into(),
        version: "1.5".into(),
        run: "aab".into(),
        word: "été".into(),
    }
}

#[test]
fn same_array_index_and_ttl_zero_are_declared() {
    let indexes = Product::create_indexes_command().expect("indexes");
    let indexes = indexes.get_array("indexes").expect("indexes");
    let key = |i: usize| indexes[i].as_document().unwrap().get_document("key").unwrap().clone();
    assert_eq!(key(0), doc! { "specs.name": 1, "specs.value": 1 });
    assert_eq!(indexes[1].as_document().unwrap().get_i32("expireAfterSeconds").ok(), Some(0));
}

#[test]
fn pcre_patterns_compile_in_the_local_validator() {
    let validator = mongo_schema::Validator::new(&Product::json_schema()).expect("PCRE2 compiles every pattern");
    let raw = bson::serialize_to_raw_document_buf(&product()).expect("serializes");
    assert!(validator.validate_raw(&raw).is_ok());
}

#[test]
fn mongod_builds_same_array_and_ttl_zero_indexes_and_runs_pcre_patterns() {
    let Some(db) = database("mongod_builds_same_array_and_ttl_zero_indexes_and_runs_pcre_patterns") else { return };
    install::<Product>(&db, "t_product");
    let names = index_names(&db, "t_product");
    for expected in ["specs.name_1_specs.value_1", "expireAt_1"] {
        assert!(names.contains(&expected.to_owned()), "{expected} in {names:?}");
    }
    let list = db.run_command(doc! { "listIndexes": "t_product" }).run().expect("listIndexes");
    let batch = list.get_document("cursor").and_then(|c| c.get_array("firstBatch")).expect("cursor");
    let ttl = batch
        .iter()
        .filter_map(|i| i.as_document())
        .find(|i| i.get_str("name").ok() == Some("expireAt_1"))
        .expect("TTL index");
    assert_eq!(ttl.get_i32("expireAfterSeconds").ok(), Some(0));
    let coll = db.collection::<Product>("t_product");
    coll.insert_one(product()).run().expect("a document with two specs is indexed");
    let raw = db.collection::<Document>("t_product");
    let broken: [(&str, bson::Bson); 5] = [
        ("grade", "abd".into()),
        ("indent", "\nx".into()),
        ("version", "105".into()),
        ("run", "aa".into()),
        ("word", "a-b".into()),
    ];
    for (field, value) in broken {
        let mut doc = bson::serialize_to_document(&product()).expect("serializes");
        doc.insert(field, value.clone());
        let error = raw.insert_one(doc).run().expect_err(&format!("{field} = {value} breaks its keyword"));
        assert_eq!(code(&error), Some(121), "{field}: {error}");
    }
}

/// What `multikey_index` still refuses, keys in two different arrays, mongod refuses: the
/// index builds on an empty collection, then every document with both arrays fails.
#[test]
fn mongod_refuses_parallel_arrays() {
    let Some(db) = database("mongod_refuses_parallel_arrays") else { return };
    let coll = db.collection::<Document>("t_parallel");
    coll.drop().run().expect("drop");
    let index = doc! { "createIndexes": "t_parallel", "indexes": [{ "key": { "labels": 1, "specs.name": 1 }, "name": "ix_parallel" }] };
    db.run_command(index).run().expect("createIndexes");
    let doc = doc! { "labels": ["a", "b"], "specs": [{ "name": "color" }, { "name": "size" }] };
    let error = coll.insert_one(doc).run().expect_err("parallel arrays are refused");
    assert_eq!(code(&error), Some(171), "CannotIndexParallelArrays: {error}");
    coll.insert_one(doc! { "labels": "a", "specs": [{ "name": "color" }, { "name": "size" }] })
        .run()
        .expect("one array at a time is indexed");
}

/// The polymorphic pattern: a flattened internally tagged enum writes `type` and each
/// variant's fields into the document, so index paths may name them.
#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(tag = "type", rename_all = "lowercase")]
enum Payload {
    Link {
        #[mongo(max_length = 2048)]
        url: String,
    },
    Note {
        #[mongo(max_length = 500)]
        text: String,
    },
}

#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(
    db = "db_test_options",
    collection = "t_content",
    index(keys(r#type = 1, createTime = -1)),
    index(keys(url = 1))
)]
struct Content {
    #[serde(rename = "_id")]
    id: ObjectId,
    create_time: DateTime,
    #[serde(flatten)]
    payload: Payload,
}

#[test]
fn mongod_indexes_the_tag_and_variant_fields_of_a_flattened_enum() {
    let Some(db) = database("mongod_indexes_the_tag_and_variant_fields_of_a_flattened_enum") else { return };
    install::<Content>(&db, "t_content");
    let names = index_names(&db, "t_content");
    for expected in ["type_1_createTime_-1", "url_1"] {
        assert!(names.contains(&expected.to_owned()), "{expected} in {names:?}");
    }
    let coll = db.collection::<Content>("t_content");
    let link = Payload::Link { url: "https://example.com".into() };
    let note = Payload::Note { text: "hello".into() };
    for payload in [link, note] {
        coll.insert_one(Content { id: ObjectId::new(), create_time: DateTime::now(), payload }).run().expect("insert");
    }
    let raw = db.collection::<Document>("t_content");
    let found = raw.find_one(doc! { "type": "link" }).hint(mongodb::options::Hint::Name("type_1_createTime_-1".into()));
    assert!(found.run().expect("find through the tag index").is_some_and(|d| d.contains_key("url")));
}

/// One label: the newtype carries the bound of each item of an array.
#[derive(Serialize, Deserialize, MongoSchema)]
struct Label(#[mongo(max_length = 16)] String);

#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(db = "db_test_options", collection = "t_labelled")]
struct Labelled {
    #[mongo(max_items = 5)]
    labels: Vec<Label>,
}

#[test]
fn mongod_enforces_an_item_bound_carried_by_a_newtype() {
    let Some(db) = database("mongod_enforces_an_item_bound_carried_by_a_newtype") else { return };
    install::<Labelled>(&db, "t_labelled");
    let coll = db.collection::<Labelled>("t_labelled");
    coll.insert_one(Labelled { labels: vec![Label("new".into()), Label("sixteen-chars-ok".into())] })
        .run()
        .expect("items within the bound");
    let raw = db.collection::<Document>("t_labelled");
    let error = raw.insert_one(doc! { "labels": ["new", "seventeen-chars!!"] }).run().expect_err("an item too long");
    assert_eq!(code(&error), Some(121), "{error}");
}
