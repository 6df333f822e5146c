//! The passing side of the collection-option rules (the failing side is in
//! `uitests/ui/{timeseries_field,index_key,ttl_index,multikey_index,index_name,
//! monotonic_shard_key,collection_options}/`), and the golden commands each option
//! generates (`tests/tests/snapshots/options_pass__*.snap`, reviewed).

#![forbid(unsafe_code)]

use mongo_schema::{MongoCollection, MongoSchema};
use mongo_schema_tests::bson;
use mongo_schema_tests::bson::{oid::ObjectId, DateTime};
use serde::{Deserialize, Serialize};

/// What labels a series: the metaField, an embedded document.
#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
struct SensorMeta {
    #[mongo(max_length = 64)]
    device_id: String,
    #[mongo(max_length = 32)]
    site: String,
}

/// `timeseries_field`: a date time field (through an alias), an embedded metaField; an
/// index on a path inside it; a shard key on the metaField then the timeField.
#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(
    db = "db_iot",
    collection = "t_sensor_reading",
    timeseries(time_field = "timestamp", meta_field = "meta", granularity = "minutes", expire_after_seconds = 2592000),
    index(keys("meta.deviceId" = 1, timestamp = -1)),
    shard_key("meta.deviceId" = "hashed", timestamp = 1)
)]
struct SensorReading {
    timestamp: When,
    meta: SensorMeta,
    temperature: f64,
}

type When = DateTime;

#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
struct Address {
    #[mongo(max_length = 64)]
    city: String,
    #[mongo(max_items = 5)]
    lines: Vec<String>,
}

#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
struct Line {
    #[mongo(max_length = 32)]
    sku: String,
}

/// `index_key` through renames and embedded types, `ttl_index` on a date, one array per
/// compound index (`multikey_index`), default and declared names (`index_name`), a
/// partial filter in Extended JSON, hashed and text keys.
#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(
    db = "db_order",
    collection = "t_order",
    index(keys(orderNo = 1), unique, name = "uk_order_no"),
    index(keys("address.city" = 1, createTime = -1)),
    index(keys("items.sku" = 1, createTime = -1)),
    index(keys(expireTime = 1), ttl = 3600),
    index(keys(userId = "hashed")),
    index(keys(note = "text"), name = "ft_note"),
    index(keys(userId = 1), name = "ix_paid_user", partial = r#"{"paidTime": {"$gt": {"$date": "2024-01-01T00:00:00Z"}}}"#)
)]
struct Order {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[mongo(max_length = 32)]
    order_no: String,
    user_id: i64,
    address: Address,
    #[mongo(max_items = 50)]
    items: Vec<Line>,
    #[mongo(max_length = 500)]
    note: String,
    create_time: DateTime,
    expire_time: Option<DateTime>,
    #[serde(skip_serializing_if = "Option::is_none")]
    paid_time: Option<DateTime>,
}

/// `collection_options`: a capped collection (not time-series, not sharded).
#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(db = "db_audit", collection = "t_audit_recent", capped(size = 1048576, max = 1000))]
struct RecentAudit {
    #[mongo(max_length = 200)]
    message: String,
    create_time: DateTime,
}

/// `monotonic_shard_key`: a hashed ObjectId key.
#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(db = "db_user_center", collection = "t_user_profile", shard_key(_id = "hashed"))]
struct UserProfile {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[mongo(max_length = 50)]
    nick_name: String,
}

/// `monotonic_shard_key`: a high-cardinality field first, the increasing one second.
#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(db = "db_chat", collection = "t_chat_message", shard_key(roomId = 1, seq = 1))]
struct ChatMessage {
    #[mongo(max_length = 36)]
    room_id: String,
    #[mongo(auto_increment)]
    seq: i64,
}

/// `monotonic_shard_key`: an ObjectId that references another document (the tenant) leads
/// a range key: it does not grow with insert time as the document's own `_id` does.
#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(db = "db_desk", collection = "t_ticket", shard_key(tenantId = 1, createTime = 1))]
struct Ticket {
    #[serde(rename = "_id")]
    id: ObjectId,
    tenant_id: ObjectId,
    create_time: mongo_schema::bson::DateTime,
}

/// `collection_options`: unique indexes of a sharded collection led by the shard key's
/// fields, or by `_id`, which `shardCollection` accepts.
#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(
    db = "db_shop",
    collection = "t_customer",
    shard_key(tenantId = 1, region = 1),
    index(keys(tenantId = 1, region = 1, email = 1), unique),
    index(keys(_id = 1, email = -1), unique, name = "ux_id_email")
)]
struct Customer {
    #[mongo(max_length = 64)]
    tenant_id: String,
    #[mongo(max_length = 16)]
    region: String,
    #[mongo(max_length = 254)]
    email: String,
}

#[test]
fn unique_indexes_led_by_the_shard_key_or_id_are_created() {
    let indexes = Customer::create_indexes_command().expect("indexes");
    let names: Vec<&str> = indexes
        .get_array("indexes")
        .unwrap()
        .iter()
        .map(|i| i.as_document().unwrap().get_str("name").unwrap())
        .collect();
    assert_eq!(names, ["tenantId_1_region_1_email_1", "ux_id_email"]);
}

/// `monotonic_shard_key` waived, with a reason, on the field.
#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(db = "db_archive", collection = "t_archive_day", shard_key(day = 1))]
struct ArchiveDay {
    #[mongo(allow(monotonic_shard_key, reason = "written once a day by one job; zones move old days to cold shards"))]
    day: DateTime,
}

/// Paths behind `#[serde(flatten)]` resolve through the flattened type.
#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
struct Audit {
    create_time: DateTime,
}

#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(db = "db_cms", collection = "t_cms_page", index(keys(createTime = -1)), index(keys(slug = 1), unique))]
struct Page {
    #[mongo(max_length = 100)]
    slug: String,
    #[serde(flatten)]
    audit: Audit,
}

fn json(doc: &Option<bson::Document>) -> String {
    match doc {
        Some(doc) => {
            serde_json::to_string_pretty(&bson::Bson::Document(doc.clone()).into_relaxed_extjson()).expect("json")
        }
        None => "none".to_owned(),
    }
}

fn commands<T: MongoCollection>() -> String {
    let create = T::create_collection_command();
    let create = if T::TIMESERIES.is_some() {
        json(&Some(create))
    } else {
        format!("(validator elided) {}", json(&Some(without_validator(create))))
    };
    format!(
        "create: {create}\ncollMod: {}\ncreateIndexes: {}\nshardCollection: {}\n",
        json(&Some(without_validator(T::coll_mod_command()))),
        json(&T::create_indexes_command()),
        json(&T::shard_collection_command())
    )
}

fn without_validator(mut doc: bson::Document) -> bson::Document {
    doc.remove("validator");
    doc
}

#[test]
fn timeseries_commands() {
    insta::assert_snapshot!(commands::<SensorReading>());
}

#[test]
fn index_commands() {
    insta::assert_snapshot!(commands::<Order>());
}

#[test]
fn capped_commands() {
    insta::assert_snapshot!(commands::<RecentAudit>());
}

#[test]
fn shard_commands() {
    let all = [commands::<UserProfile>(), commands::<ChatMessage>(), commands::<ArchiveDay>(), commands::<Page>()];
    insta::assert_snapshot!(all.join("\n"));
}

#[test]
fn timeseries_has_no_validator_but_keeps_its_schema() {
    let create = SensorReading::create_collection_command();
    assert!(!create.contains_key("validator"), "mongod refuses a validator on a time-series collection");
    let schema = SensorReading::json_schema();
    assert_eq!(
        schema.get_document("properties").unwrap().get_document("timestamp").unwrap().get_str("bsonType").ok(),
        Some("date")
    );
    assert!(schema.get_str("description").unwrap().contains("MongoDB's limit: 4194304 bytes"));
    let reading = SensorReading {
        timestamp: DateTime::now(),
        meta: SensorMeta { device_id: "d1".into(), site: "s".into() },
        temperature: 21.5,
    };
    let validator = mongo_schema::Validator::new(&schema).expect("schema compiles");
    let raw = bson::serialize_to_raw_document_buf(&reading).expect("serializes");
    assert!(validator.validate_raw(&raw).is_ok());
}

#[test]
fn registration_carries_the_options() {
    // the binary's registry holds every module's models: policy.rs has a `t_order` too
    let reg = mongo_schema::registered()
        .into_iter()
        .find(|r| (r.db, r.collection) == ("db_order", "t_order"))
        .expect("db_order.t_order registered");
    assert_eq!(reg.indexes.len(), 7);
    assert_eq!(reg.indexes[1].name, "address.city_1_createTime_-1");
    assert_eq!(reg.create_indexes_command(), Order::create_indexes_command());
    assert!(reg.timeseries.is_none() && reg.shard_key.is_empty());
}

use crate::support::index_models;

/// Every index option reaches `createIndexes` as mongod takes it.
#[test]
fn index_options_are_written_as_mongod_takes_them() {
    use mongo_schema_tests::bson::doc;
    let command = index_models::Account::create_indexes_command().expect("indexes");
    let specs: Vec<bson::Document> =
        command.get_array("indexes").unwrap().iter().map(|s| s.as_document().unwrap().clone()).collect();
    assert_eq!(
        specs[0],
        doc! { "key": { "email": 1 }, "name": "uk_email_ci", "unique": true, "collation": { "locale": "en", "strength": 2 } }
    );
    assert_eq!(specs[1], doc! { "key": { "nickname": 1 }, "name": "nickname_1", "sparse": true });
    assert_eq!(specs[2], doc! { "key": { "lastLogin": -1 }, "name": "lastLogin_-1", "hidden": true });
    assert_eq!(
        specs[3],
        doc! {
            "key": { "title": "text", "bio": "text" }, "name": "tx_profile", "weights": { "title": 10, "bio": 2 },
            "default_language": "french", "language_override": "lang",
        }
    );
    assert_eq!(specs[4], doc! { "key": { "home": "2dsphere" }, "name": "home_2dsphere" });
    assert_eq!(specs[5], doc! { "key": { "pin": "2d" }, "name": "pin_2d" });
    assert_eq!(specs[6], doc! { "key": { "attributes.$**": 1 }, "name": "attributes.$**_1" });
    assert_eq!(
        specs[7],
        doc! { "key": { "$**": 1 }, "name": "wc_all", "wildcardProjection": { "attributes": 0, "home": 0 } }
    );
    assert_eq!(specs[8], doc! { "key": { "region": "hashed" }, "name": "region_hashed" });
    assert_eq!(
        specs[9].get_document("partialFilterExpression").unwrap(),
        &doc! { "$or": [{ "level": { "$in": ["gold", "silver"] } }, { "score": { "$gte": 5 } }] }
    );
}

/// A collection's collation and clustered options reach `createCollection`; its indexes
/// carry the collation mongod gives them.
#[test]
fn collection_options_are_written_as_mongod_takes_them() {
    use index_models::{Click, Note};
    use mongo_schema_tests::bson::doc;
    let create = Note::create_collection_command();
    assert_eq!(create.get_document("collation").unwrap(), &doc! { "locale": "fr", "strength": 1 });
    let command = Note::create_indexes_command().expect("indexes");
    let specs: Vec<bson::Document> =
        command.get_array("indexes").unwrap().iter().map(|s| s.as_document().unwrap().clone()).collect();
    assert_eq!(specs[0].get_document("collation").unwrap(), &doc! { "locale": "fr", "strength": 1 });
    assert_eq!(specs[1].get_document("collation").unwrap(), &doc! { "locale": "simple" }, "text: simple");
    assert_eq!(specs[2].get_document("collation").unwrap(), &doc! { "locale": "simple" }, "its own");
    let create = Click::create_collection_command();
    assert_eq!(create.get_document("clusteredIndex").unwrap(), &doc! { "key": { "_id": 1 }, "unique": true });
    assert_eq!(create.get_i32("expireAfterSeconds").ok(), Some(86400));
    assert!(create.contains_key("validator"), "a clustered collection keeps its validator");
    let model = mongo_schema::migrate::Model::of::<Click>("Click");
    assert!(model.options.create.contains_key("clusteredIndex"), "migrations create it clustered");
}
