//! The passing side of every modelling rule (the failing side is `uitests/ui/<rule_id>/`):
//! models that follow the standard, or waive a rule with a reason, derive and behave; and
//! the document-size bound the rules compute matches what bson really writes.

#![forbid(unsafe_code)]

use mongo_schema::{MongoCollection, MongoSchema};
use mongo_schema_tests::bson;
use mongo_schema_tests::bson::{oid::ObjectId, DateTime, Decimal128};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// `system_db`, `db_name`, `collection_name`: a business database and a module_entity
/// collection with a time suffix.
#[derive(Serialize, Deserialize, MongoSchema)]
#[mongo(db = "db_user_center", collection = "t_login_log_202403")]
struct LoginLog {
    #[serde(rename = "_id")]
    id: ObjectId,
    login_time: DateTime,
}

/// `db_name` / `collection_name` waived for a legacy database, with a reason.
#[derive(Serialize, Deserialize, MongoSchema)]
#[mongo(
    db = "UserCenter",
    collection = "userAccounts",
    allow(db_name, collection_name, reason = "legacy names shared with the PHP service until its migration")
)]
struct LegacyAccount {
    #[serde(rename = "_id")]
    id: i64,
}

#[test]
fn names_that_follow_the_standard_or_are_waived() {
    assert_eq!((LoginLog::DB_NAME, LoginLog::COLLECTION_NAME), ("db_user_center", "t_login_log_202403"));
    assert_eq!((LegacyAccount::DB_NAME, LegacyAccount::COLLECTION_NAME), ("UserCenter", "userAccounts"));
}

/// `field_name`: camelCase after `rename_all`, `_id` allowed, short names on the allow-list.
#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
struct CamelUser {
    #[serde(rename = "_id")]
    id: ObjectId,
    user_name: String,
    email: String,
    ip: String,
    order_items: [i32; 2],
}

/// `field_name`: snake_case, declared.
#[derive(Serialize, Deserialize, MongoSchema)]
#[mongo(field_case = "snake_case")]
struct SnakeUser {
    user_name: String,
    create_time: DateTime,
    /// A coordinate: `x`, `y`, `z` are allowed short names.
    x: f64,
}

/// `field_name`: the attribute pattern's `{k, v}` (the names `$arrayToObject` and
/// `$objectToArray` require) and `ts` are allowed short names; names of three characters
/// or more with a lowercase letter are never judged abbreviations.
#[derive(Serialize, Deserialize, MongoSchema)]
struct Spec {
    #[mongo(max_length = 50)]
    k: String,
    #[mongo(max_length = 200)]
    v: String,
    ts: DateTime,
    qty: i32,
    msg: String,
}

#[test]
fn allowed_short_names_and_words() {
    let schema = Spec::json_schema();
    let keys: Vec<&String> = schema.get_document("properties").unwrap().keys().collect();
    assert_eq!(keys, ["k", "v", "ts", "qty", "msg"]);
}

#[test]
fn field_names_in_one_style() {
    let camel = CamelUser::json_schema();
    let keys: Vec<&String> = camel.get_document("properties").unwrap().keys().collect();
    assert_eq!(keys, ["_id", "userName", "email", "ip", "orderItems"]);
    assert!(SnakeUser::json_schema().get_document("properties").unwrap().contains_key("create_time"));
}

/// `money_double`, `string_date`, `silent_string`: Decimal128 money, BSON dates, and each
/// string-by-default type with its helper.
#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
struct Payment {
    #[serde(with = "mongo_schema::serde_helpers::decimal128")]
    total_amount: Decimal,
    #[serde(with = "mongo_schema::serde_helpers::decimal128_option")]
    discount: Option<Decimal>,
    shipping_fee: Decimal128,
    /// Not money: the last word decides.
    total_weight: f64,
    tax_rate: f64,
    #[mongo(allow(money_double, reason = "an FX quote for display, never summed"))]
    quoted_price: f64,
    create_time: DateTime,
    #[serde(with = "mongo_schema::serde_helpers::chrono_datetime")]
    paid_at: chrono::DateTime<chrono::Utc>,
    #[serde(skip_serializing_if = "Option::is_none")]
    refund_time: Option<DateTime>,
    #[serde(with = "mongo_schema::serde_helpers::uuid_binary")]
    trace_id: uuid::Uuid,
    request_id: bson::Uuid,
    /// A date as written by a partner: waived, with the reason.
    #[mongo(max_length = 40, allow(string_date, reason = "verbatim partner timestamp, parsed into createTime"))]
    partner_time: String,
}

#[test]
fn money_dates_and_helpers_in_their_bson_types() {
    let properties = Payment::json_schema().get_document("properties").unwrap().clone();
    let bson_type = |key: &str| properties.get_document(key).unwrap().get("bsonType").cloned().unwrap();
    assert_eq!(bson_type("totalAmount"), "decimal".into());
    assert_eq!(bson_type("paidAt"), "date".into());
    assert_eq!(bson_type("traceId"), "binData".into());
    assert_eq!(bson_type("partnerTime"), "string".into());
}

/// `silent_string`: helpers named by the short path a `use` leaves, and the `Option`
/// forms of the chrono and uuid helpers.
mod short_helpers {
    use bson::serde_helpers::datetime;
    use mongo_schema::serde_helpers::{chrono_datetime_option, decimal128, uuid_binary_option};
    use mongo_schema::MongoSchema;
    use rust_decimal::Decimal;
    use serde::{Deserialize, Serialize};

    #[derive(Serialize, Deserialize, MongoSchema)]
    #[serde(rename_all = "camelCase")]
    pub struct Refund {
        #[serde(with = "decimal128")]
        pub refund_amount: Decimal,
        #[serde(with = "datetime::FromChrono04DateTime")]
        pub create_time: chrono::DateTime<chrono::Utc>,
        #[serde(with = "chrono_datetime_option", default)]
        pub settle_time: Option<chrono::DateTime<chrono::Utc>>,
        #[serde(with = "uuid_binary_option", default)]
        pub trace_id: Option<uuid::Uuid>,
    }
}

#[test]
fn helpers_by_short_path_and_option_forms() {
    use short_helpers::Refund;
    let schema = Refund::json_schema();
    let properties = schema.get_document("properties").unwrap().clone();
    let bson_type = |key: &str| properties.get_document(key).unwrap().get("bsonType").cloned().unwrap();
    assert_eq!(bson_type("refundAmount"), "decimal".into());
    assert_eq!(bson_type("createTime"), "date".into());
    assert_eq!(bson_type("settleTime"), bson::bson!(["date", "null"]));
    assert_eq!(bson_type("traceId"), bson::bson!(["binData", "null"]));
    let validator = mongo_schema::Validator::new(&schema).expect("schema compiles");
    let at = chrono::DateTime::from_timestamp_millis(1_700_000_000_000).unwrap();
    for (settle, trace) in [(Some(at), Some(uuid::Uuid::from_u128(9))), (None, None)] {
        let refund =
            Refund { refund_amount: Decimal::new(1999, 2), create_time: at, settle_time: settle, trace_id: trace };
        let raw = bson::serialize_to_raw_document_buf(&refund).expect("serializes");
        assert!(validator.validate_raw(&raw).is_ok(), "{raw:?}");
    }
}

/// `random_id`: ObjectId, an integer, a date, or a newtype over one.
#[derive(Serialize, Deserialize, MongoSchema)]
struct UserId(ObjectId);

#[derive(Serialize, Deserialize, MongoSchema)]
#[mongo(db = "db_user_center", collection = "t_user_profile")]
struct Profile {
    #[serde(rename = "_id")]
    id: UserId,
}

#[derive(Serialize, Deserialize, MongoSchema)]
#[mongo(db = "db_order", collection = "t_order_sequence")]
struct Sequence {
    #[serde(rename = "_id", skip_serializing_if = "Option::is_none")]
    id: Option<u32>,
}

/// A date `_id` increases with the document's time (a clustered collection expires by it).
#[derive(Serialize, Deserialize, MongoSchema)]
#[mongo(db = "db_order", collection = "t_order_event")]
struct OrderEvent {
    #[serde(rename = "_id", with = "mongo_schema::serde_helpers::chrono_datetime")]
    at: chrono::DateTime<chrono::Utc>,
}

/// `numeric_status`: a string enum, a free string, and a boolean flag.
#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "lowercase")]
enum OrderStatus {
    Pending,
    Paid,
}

#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
struct Order {
    status: OrderStatus,
    #[mongo(max_length = 20)]
    pay_type: String,
    deleted_flag: bool,
}

#[test]
fn ids_and_statuses() {
    assert_eq!(
        Profile::json_schema()
            .get_document("properties")
            .unwrap()
            .get_document("_id")
            .unwrap()
            .get_str("bsonType")
            .ok(),
        Some("objectId")
    );
    assert_eq!(
        Sequence::json_schema().get_document("properties").unwrap().get_document("_id").unwrap().get("bsonType"),
        // a `u32` reads back both BSON integer types (README.md's number table)
        Some(&bson::Bson::from(vec!["int", "long"]))
    );
    let event_id = OrderEvent::json_schema().get_document("properties").unwrap().get_document("_id").unwrap().clone();
    assert_eq!(event_id.get_str("bsonType").ok(), Some("date"));
    let status = Order::json_schema().get_document("properties").unwrap().get_document("status").unwrap().clone();
    assert_eq!(status.get_array("enum").unwrap(), &vec![bson::Bson::from("pending"), "paid".into()]);
}

/// `unbounded_array`: bounded arrays, sets and maps, fixed arrays, a lower type limit,
/// and a waiver.
#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(max_items_limit = 20)]
struct Device {
    #[mongo(max_items = 20)]
    recent_readings: Vec<i64>,
    #[mongo(max_items = 5)]
    owners: BTreeSet<String>,
    #[mongo(max_properties = 10)]
    labels: BTreeMap<String, String>,
    position: [f64; 3],
    #[mongo(allow(unbounded_array, reason = "capped by the firmware at 64 entries"))]
    firmware_log: Vec<String>,
}

#[test]
fn arrays_and_maps_with_bounds() {
    let readings =
        Device::json_schema().get_document("properties").unwrap().get_document("recentReadings").unwrap().clone();
    assert_eq!(readings.get_i32("maxItems").ok(), Some(20));
}

/// `nesting_depth`: exactly five levels, counting the root, pass.
#[derive(Serialize, Deserialize, MongoSchema)]
struct Level1 {
    level2: Level2,
}
#[derive(Serialize, Deserialize, MongoSchema)]
struct Level2 {
    #[mongo(max_items = 3)]
    level3: Vec<Level3>,
}
#[derive(Serialize, Deserialize, MongoSchema)]
struct Level3 {
    level4: Option<Level4>,
}
#[derive(Serialize, Deserialize, MongoSchema)]
struct Level4 {
    #[mongo(max_length = 10)]
    data: String,
}

#[derive(Serialize, Deserialize, MongoSchema)]
#[mongo(max_depth = 2)]
struct Shallow {
    level4: Level4,
}

#[test]
fn nesting_within_the_limit() {
    assert_eq!(<Level1 as MongoSchema>::FACTS.depth, 4);
    assert_eq!(<Shallow as MongoSchema>::FACTS.depth, 2);
}

/// A generic model: the rules hold for the instances used.
#[derive(Serialize, Deserialize, MongoSchema)]
struct Line<T> {
    price: T,
    #[mongo(max_items = 3)]
    notes: Vec<T>,
}

#[derive(Serialize, Deserialize, MongoSchema)]
struct Invoice {
    line: Line<Decimal128>,
}

#[test]
fn generic_models_pass_with_compliant_parameters() {
    assert_eq!(<Invoice as MongoSchema>::FACTS.depth, 2);
}

/// `document_size`: a root bounded everywhere, its bound exposed and checked against the
/// encoder with a document at every maximum.
#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
struct Tag {
    #[mongo(max_length = 8)]
    label: String,
    weight: i32,
}

/// Bounded everywhere.
#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(db = "db_blog", collection = "t_blog_post")]
struct Post {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[mongo(max_length = 50)]
    title: String,
    #[mongo(max_items = 12)]
    tags: Vec<Tag>,
    status: OrderStatus,
    publish_time: Option<DateTime>,
    pinned: bool,
}

fn largest_post() -> Post {
    let wide = |n: usize| "\u{1F600}".repeat(n);
    Post {
        id: ObjectId::new(),
        title: wide(50),
        tags: (0..12).map(|_| Tag { label: wide(8), weight: i32::MAX }).collect(),
        status: OrderStatus::Pending,
        publish_time: Some(DateTime::now()),
        pinned: true,
    }
}

#[test]
fn document_size_bound_matches_the_encoder() {
    let bound = Post::MAX_DOCUMENT_SIZE.expect("every field of Post is bounded");
    let encoded = bson::serialize_to_vec(&largest_post()).unwrap();
    assert_eq!(encoded.len() as u64, bound);
    assert!(bound < mongo_schema::__private::size::MAX_DOCUMENT_SIZE);
    let description = Post::json_schema().get_str("description").unwrap().to_owned();
    assert_eq!(
        description,
        format!("Bounded everywhere.\nWorst-case BSON size: {bound} bytes (MongoDB's limit: 16777216 bytes).")
    );
}

/// `document_size`: a string bounded only by a fixed-width pattern is bounded, so the
/// root is: at most the pattern's bytes, plus the one trailing newline a final `$`
/// admits.
#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(db = "db_shop", collection = "t_shipment")]
struct Shipment {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[mongo(pattern = "^[0-9]{6}$")]
    postcode: String,
    #[mongo(pattern = "^[A-Z]{3}$")]
    currency: String,
    /// both bound it: the smaller wins (8 code points of 4 bytes, not 40 ASCII bytes)
    #[mongo(pattern = "^[a-z]{1,40}$", max_length = 8)]
    carrier_code: String,
}

#[test]
fn fixed_width_patterns_bound_the_document() {
    let bound = Shipment::MAX_DOCUMENT_SIZE.expect("a fixed-width pattern bounds a string");
    let largest = Shipment {
        id: ObjectId::new(),
        postcode: "123456\n".to_owned(),
        currency: "EUR\n".to_owned(),
        carrier_code: "\u{1F600}".repeat(8),
    };
    let encoded = bson::serialize_to_vec(&largest).unwrap();
    assert_eq!(encoded.len() as u64, bound);
    // the longest values match their patterns as mongod reads them
    let schema = Shipment::json_schema();
    let validator = mongo_schema::Validator::new(&schema).unwrap();
    let document = bson::serialize_to_document(&Shipment { carrier_code: "dhl".to_owned(), ..largest }).unwrap();
    assert!(validator.validate(&document).is_ok(), "{:?}", validator.validate(&document));
}

#[test]
fn unbounded_roots_have_no_bound() {
    assert_eq!(LoginLog::MAX_DOCUMENT_SIZE, Some(5 + (1 + 3 + 1 + 12) + (1 + 10 + 1 + 8)));
    assert_eq!(Profile::MAX_DOCUMENT_SIZE, Some(5 + 17));
    assert_eq!(LegacyAccount::MAX_DOCUMENT_SIZE, Some(5 + 5 + 8));
    #[derive(Serialize, Deserialize, MongoSchema)]
    #[mongo(db = "db_blog", collection = "t_blog_comment")]
    struct Comment {
        body: String,
    }
    assert_eq!(Comment::MAX_DOCUMENT_SIZE, None);
    assert!(Comment::json_schema().get("description").is_none());
}

/// Tight bounds that some value satisfies are not contradictory (the failing side is
/// `uitests/ui/attributes/contradictory_bounds.rs`).
#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
struct Tight {
    #[mongo(minimum = 1, maximum = 1)]
    version: i32,
    #[mongo(min_length = 2, max_length = 2)]
    country_code: String,
    #[mongo(exclusive_minimum = 0, maximum = 0.5, multiple_of = 0.25)]
    ratio: f64,
}

#[test]
fn tight_bounds_that_admit_a_value_pass() {
    let validator = mongo_schema::Validator::new(&Tight::json_schema()).expect("schema compiles");
    let tight = Tight { version: 1, country_code: "FR".into(), ratio: 0.25 };
    let raw = bson::serialize_to_raw_document_buf(&tight).expect("serializes");
    assert!(validator.validate_raw(&raw).is_ok());
}

/// Keywords of the field's own kind, and `enum_values` it can hold (the failing side is
/// `uitests/ui/attributes/keyword_kind.rs`).
#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
struct Kinds {
    #[mongo(max_length = 8, pattern = "^[A-Z]+$", enum_values = ["S", "M", "L"])]
    size_code: String,
    #[mongo(minimum = 0, maximum = 100, multiple_of = 5, enum_values = [0, 50, 100])]
    discount_percent: i32,
    #[mongo(minimum = 0.5, enum_values = [0.5, 1, 2.5])]
    weight: f64,
    #[mongo(max_items = 3, unique_items)]
    tags: Vec<String>,
}

#[test]
fn keywords_of_the_fields_own_kind_pass() {
    let validator = mongo_schema::Validator::new(&Kinds::json_schema()).expect("schema compiles");
    let kinds = Kinds { size_code: "M".into(), discount_percent: 50, weight: 1.0, tags: vec!["a".into()] };
    let raw = bson::serialize_to_raw_document_buf(&kinds).expect("serializes");
    assert!(validator.validate_raw(&raw).is_ok());
}

/// Numeric keywords apply to Decimal128 too.
#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
struct Priced {
    #[mongo(minimum = 0, maximum = 1000000)]
    #[serde(with = "mongo_schema::serde_helpers::decimal128")]
    unit_price: Decimal,
}

#[test]
fn numeric_keywords_apply_to_decimal128() {
    let validator = mongo_schema::Validator::new(&Priced::json_schema()).expect("schema compiles");
    let ok = bson::serialize_to_raw_document_buf(&Priced { unit_price: Decimal::new(1999, 2) }).expect("serializes");
    assert!(validator.validate_raw(&ok).is_ok());
    let negative =
        bson::serialize_to_raw_document_buf(&Priced { unit_price: Decimal::new(-1, 0) }).expect("serializes");
    assert!(validator.validate_raw(&negative).is_err());
}

/// What the `keyword_kind` error suggests for the items of an array: a newtype whose
/// field carries the keyword.
#[derive(Serialize, Deserialize, MongoSchema)]
struct Label(#[mongo(max_length = 4)] String);

#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
struct Labelled {
    #[mongo(max_items = 3)]
    labels: Vec<Label>,
}

#[test]
fn a_newtype_bounds_each_item() {
    let validator = mongo_schema::Validator::new(&Labelled::json_schema()).expect("schema compiles");
    let ok = Labelled { labels: vec![Label("new".into())] };
    let long = Labelled { labels: vec![Label("new".into()), Label("too long".into())] };
    assert!(validator.validate_raw(&bson::serialize_to_raw_document_buf(&ok).unwrap()).is_ok());
    assert!(validator.validate_raw(&bson::serialize_to_raw_document_buf(&long).unwrap()).is_err());
}

/// `items(...)`: the items' string bound bounds the document, exactly as the encoder
/// writes the widest items; keywords through an alias and a generic parameter pass when
/// the kind fits.
type Sku = String;

#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
struct Described<T> {
    #[mongo(max_length = 40)]
    text: T,
}

#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(db = "db_shop", collection = "t_shop_listing")]
struct Listing {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[mongo(max_length = 20, pattern = "^[A-Z0-9-]+$")]
    sku: Sku,
    #[mongo(max_items = 6, items(max_length = 10))]
    keywords: Vec<String>,
    #[mongo(max_items = 4, items(max_length = 3))]
    codes: Vec<Sku>,
    summary: Described<String>,
}

#[test]
fn item_bounds_bound_the_document() {
    let bound = Listing::MAX_DOCUMENT_SIZE.expect("every string of Listing is bounded, items included");
    let wide = |n: usize| "\u{1F600}".repeat(n);
    let largest = Listing {
        id: ObjectId::new(),
        sku: "A".repeat(20),
        keywords: (0..6).map(|_| wide(10)).collect(),
        codes: (0..4).map(|_| wide(3)).collect(),
        summary: Described { text: wide(40) },
    };
    let encoded = bson::serialize_to_vec(&largest).unwrap();
    // a pattern of `[A-Z0-9-]` is not fixed-width: `sku` is bounded by its 20 code points
    assert_eq!(bound, encoded.len() as u64 + 3 * 20, "4 bytes a code point of `sku`, 1 written");
    let schema = Listing::json_schema();
    let codes = schema.get_document("properties").unwrap().get_document("codes").unwrap();
    assert_eq!(codes.get_document("items").unwrap().get_i32("maxLength").unwrap(), 3);
}

/// A document with an unbounded string, a flattened part, a nested document two levels
/// deep and lists of both: the derive computes only its depth (it has no size bound).
#[derive(Serialize, Deserialize, MongoSchema)]
#[mongo(db = "db_shop", collection = "t_note_thread")]
struct NoteThread {
    #[serde(rename = "_id")]
    id: ObjectId,
    title: Option<String>,
    #[serde(flatten)]
    audit: Audit,
    #[mongo(max_items = 10)]
    notes: Vec<Described<String>>,
    #[mongo(max_items = 5)]
    tags: Vec<String>,
    pinned: Option<Outer>,
}

#[derive(Serialize, Deserialize, MongoSchema)]
struct Audit {
    create_time: DateTime,
    editor: Outer,
}

#[derive(Serialize, Deserialize, MongoSchema)]
struct Outer {
    #[mongo(max_length = 10)]
    label: String,
    inner: Described<String>,
}

#[test]
fn the_unbounded_fast_path_computes_the_facts_of_the_whole_table() {
    let whole = mongo_schema::__private::object_facts(NoteThread::FIELDS);
    assert_eq!(NoteThread::FACTS, whole);
    assert_eq!((NoteThread::FACTS.depth, NoteThread::FACTS.max_size), (3, None));
    // bounded strings only: the whole computation, and a size bound
    assert_eq!(Outer::FACTS, mongo_schema::__private::object_facts(Outer::FIELDS));
}
