//! The corpus. Collection roots live in `db_test_*` databases.

use crate::bson;
use crate::bson::{oid::ObjectId, Binary, Bson, DateTime, Decimal128, Document, Regex, Timestamp};
use crate::Samples;
use mongo_schema::MongoSchema;
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};
use std::sync::Arc;

fn oid(n: u8) -> ObjectId {
    ObjectId::from_bytes([n; 12])
}

fn at(millis: i64) -> DateTime {
    DateTime::from_millis(millis)
}

/// Every scalar row of the mapping table.
#[derive(Debug, Clone, Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(db = "db_test_mapping", collection = "t_mapping_scalar")]
pub struct Scalars {
    #[serde(rename = "_id")]
    pub id: ObjectId,
    pub text: String,
    pub flag: bool,
    pub tiny: i8,
    pub small: i16,
    pub medium: i32,
    pub byte: u8,
    pub word: u16,
    pub large: i64,
    pub unsigned32: u32,
    pub unsigned64: u64,
    pub ratio32: f32,
    pub ratio64: f64,
    pub letter: char,
    #[serde(with = "mongo_schema::serde_helpers::decimal128")]
    pub price: Decimal,
    #[serde(with = "mongo_schema::serde_helpers::decimal128_option")]
    pub discount: Option<Decimal>,
    pub exact_value: Decimal128,
    pub create_time: DateTime,
    #[serde(with = "mongo_schema::serde_helpers::chrono_datetime")]
    pub update_time: chrono::DateTime<chrono::Utc>,
    #[serde(with = "mongo_schema::serde_helpers::uuid_binary")]
    pub trace_id: uuid::Uuid,
    pub request_id: bson::Uuid,
    pub payload: Binary,
    pub cluster_clock: Timestamp,
    pub attributes: Document,
    pub any_value: Bson,
    pub match_rule: Regex,
    pub placeholder: (),
}

impl Samples for Scalars {
    // bson 2 regexes hold `String`s (bson 3 `CString`s): the conversion is a no-op under bson 2
    #[cfg_attr(not(feature = "bson-3"), allow(clippy::useless_conversion))]
    fn samples() -> Vec<Self> {
        let base = Scalars {
            id: oid(1),
            text: "hello".into(),
            flag: true,
            tiny: i8::MIN,
            small: i16::MAX,
            medium: -7,
            byte: u8::MAX,
            word: u16::MAX,
            large: i64::MIN,
            unsigned32: u32::MAX,
            unsigned64: i64::MAX as u64,
            ratio32: 0.5,
            ratio64: -1e300,
            letter: 'ü',
            price: "19.99".parse().unwrap(),
            discount: Some("-0.000000000000000000000000001".parse().unwrap()),
            exact_value: "1.5".parse().unwrap(),
            create_time: at(1_700_000_000_000),
            update_time: chrono::DateTime::from_timestamp(1_700_000_000, 5_000_000).unwrap(),
            trace_id: uuid::Uuid::from_u128(42),
            request_id: bson::Uuid::from_bytes([7; 16]),
            payload: Binary { subtype: bson::spec::BinarySubtype::Generic, bytes: vec![1, 2, 3] },
            cluster_clock: Timestamp { time: 1, increment: 2 },
            attributes: bson::doc! { "any": ["thing", 1] },
            any_value: Bson::Int64(3),
            match_rule: Regex {
                pattern: "^a".to_owned().try_into().unwrap(),
                options: "i".to_owned().try_into().unwrap(),
            },
            placeholder: (),
        };
        let other =
            Scalars { id: oid(2), discount: None, any_value: Bson::Null, unsigned64: 0, letter: 'x', ..base.clone() };
        vec![base, other]
    }
}

/// Containers and wrappers: arrays, sets, maps, tuples, boxes, aliases, newtypes, generics.
#[derive(Debug, Clone, Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(db = "db_test_mapping", collection = "t_mapping_container")]
pub struct Containers {
    #[serde(rename = "_id")]
    pub id: i64,
    #[mongo(max_items = 5)]
    pub tags: Vec<String>,
    #[mongo(max_items = 5)]
    pub queue: VecDeque<i32>,
    pub fixed: [i32; 3],
    #[mongo(max_items = 5)]
    pub hash_set: HashSet<String>,
    #[mongo(max_items = 5)]
    pub sorted_set: BTreeSet<i64>,
    #[mongo(max_properties = 5)]
    pub labels: HashMap<String, String>,
    #[mongo(max_properties = 5)]
    pub counters: BTreeMap<String, i64>,
    pub boxed: Box<Address>,
    pub shared_name: Arc<String>,
    pub pair: (i32, String),
    #[serde(skip_serializing_if = "Option::is_none")]
    pub maybe_address: Option<Address>,
    pub nullable_count: Option<i32>,
    pub address: Address,
    #[mongo(max_items = 3)]
    pub addresses: Vec<Address>,
    pub quantity: Quantity,
    pub length: Meters,
    pub labeled: Labeled<i64>,
}

/// A type alias: the derive asks the trait, not the syntax.
pub type Quantity = i32;

/// A newtype: written as its inner value.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, MongoSchema)]
pub struct Meters(pub f64);

/// A postal address, embedded.
#[derive(Debug, Clone, Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
pub struct Address {
    #[mongo(min_length = 1, max_length = 100)]
    pub street: String,
    #[mongo(min_length = 1, max_length = 50)]
    pub city: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[mongo(pattern = r"^\d{6}$")]
    pub zip_code: Option<String>,
}

/// A generic embedded type.
#[derive(Debug, Clone, Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
pub struct Labeled<T> {
    #[mongo(max_length = 20)]
    pub label: String,
    pub value: T,
}

fn address(n: usize) -> Address {
    Address {
        street: "s".repeat(n.clamp(1, 100)),
        city: "Shenzhen".into(),
        zip_code: n.is_multiple_of(2).then(|| "518000".into()),
    }
}

impl Samples for Containers {
    fn samples() -> Vec<Self> {
        let full = Containers {
            id: 20240315000001,
            tags: (0..5).map(|i| format!("tag{i}")).collect(),
            queue: VecDeque::from([1, 2, 3]),
            fixed: [7, 8, 9],
            hash_set: HashSet::from(["one".to_owned()]),
            sorted_set: BTreeSet::from([1, 2, 3, 4, 5]),
            labels: HashMap::from([("env".to_owned(), "prod".to_owned())]),
            counters: (0..5).map(|i| (format!("c{i}"), i)).collect(),
            boxed: Box::new(address(100)),
            shared_name: Arc::new("shared".into()),
            pair: (1, "one".into()),
            maybe_address: Some(address(2)),
            nullable_count: Some(3),
            address: address(1),
            addresses: (1..=3).map(address).collect(),
            quantity: 12,
            length: Meters(1.5),
            labeled: Labeled { label: "l".repeat(20), value: 9 },
        };
        let empty = Containers {
            id: 20240315000002,
            tags: vec![],
            queue: VecDeque::new(),
            hash_set: HashSet::new(),
            sorted_set: BTreeSet::new(),
            labels: HashMap::new(),
            counters: BTreeMap::new(),
            maybe_address: None,
            nullable_count: None,
            addresses: vec![],
            ..full.clone()
        };
        vec![full, empty]
    }
}

/// A unit enum under `rename_all`: a string `enum`.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum Priority {
    Low,
    VeryHigh,
    #[serde(rename = "urgent!")]
    Urgent,
}

/// Externally tagged data enum (serde's default).
#[derive(Debug, Clone, Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
pub enum Shape {
    Point,
    Circle {
        radius: f64,
    },
    Square(f64),
    Segment(i32, i32),
    #[serde(skip)]
    Hidden,
}

/// Internally tagged (`tag`).
#[derive(Debug, Clone, Serialize, Deserialize, MongoSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Event {
    Created {
        #[mongo(max_length = 30)]
        #[mongo(allow(field_name, reason = "exercises internal tagging; the key name is not under test"))]
        by: String,
    },
    Deleted,
    Moved(Address),
}

/// Adjacently tagged (`tag` + `content`), with `rename_all_fields`.
#[derive(Debug, Clone, Serialize, Deserialize, MongoSchema)]
#[serde(tag = "type", content = "data", rename_all_fields = "camelCase")]
pub enum Message {
    Text(String),
    Ping,
    Pair(i32, i32),
    Full { body_text: String },
}

/// Untagged: written as the content alone.
#[derive(Debug, Clone, Serialize, Deserialize, MongoSchema)]
#[serde(untagged)]
pub enum Loose {
    Number(i64),
    Text(String),
    Nothing,
}

/// Every enum representation in one collection.
#[derive(Debug, Clone, Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(db = "db_test_mapping", collection = "t_mapping_enum")]
pub struct Enums {
    #[serde(rename = "_id")]
    pub id: ObjectId,
    pub priority: Priority,
    pub shape: Shape,
    pub event: Event,
    pub message: Message,
    pub loose: Loose,
}

impl Samples for Enums {
    fn samples() -> Vec<Self> {
        let variants = [
            (
                Priority::Low,
                Shape::Point,
                Event::Created { by: "b".repeat(30) },
                Message::Text("hi".into()),
                Loose::Number(1),
            ),
            (Priority::VeryHigh, Shape::Circle { radius: 2.0 }, Event::Deleted, Message::Ping, Loose::Text("t".into())),
            (Priority::Urgent, Shape::Square(1.0), Event::Moved(address(3)), Message::Pair(1, 2), Loose::Nothing),
            (
                Priority::Low,
                Shape::Segment(1, 2),
                Event::Deleted,
                Message::Full { body_text: "b".into() },
                Loose::Nothing,
            ),
        ];
        variants
            .into_iter()
            .enumerate()
            .map(|(i, (priority, shape, event, message, loose))| Enums {
                id: oid(10 + i as u8),
                priority,
                shape,
                event,
                message,
                loose,
            })
            .collect()
    }
}

/// A `#[serde(transparent)]` wrapper.
#[derive(Debug, Clone, Serialize, Deserialize, MongoSchema)]
#[serde(transparent)]
pub struct DisplayName {
    #[mongo(min_length = 1, max_length = 40)]
    pub value: String,
}

/// `#[serde(into = "String")]`: the schema is `String`'s.
#[derive(Debug, Clone, Serialize, Deserialize, MongoSchema)]
#[serde(into = "String", from = "String")]
pub struct Sku(pub String);

impl From<Sku> for String {
    fn from(sku: Sku) -> String {
        sku.0
    }
}

impl From<String> for Sku {
    fn from(s: String) -> Sku {
        Sku(s)
    }
}

/// serde attributes that change what is written.
#[derive(Debug, Clone, Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[mongo(db = "db_test_serde", collection = "t_serde_attribute")]
pub struct SerdeAttributes {
    #[serde(rename = "_id")]
    pub id: ObjectId,
    #[serde(rename = "display_name")]
    pub name: DisplayName,
    pub sku: Sku,
    #[serde(skip)]
    pub cache: Vec<u8>,
    #[serde(skip_serializing, default)]
    pub secret: String,
    #[serde(default)]
    pub retry_count: i32,
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    #[mongo(max_items = 3)]
    pub notes: Vec<String>,
    #[cfg_attr(feature = "bson-3", serde(with = "bson::serde_helpers::object_id::AsHexString"))]
    #[cfg_attr(
        not(feature = "bson-3"),
        serde(serialize_with = "bson::serde_helpers::serialize_object_id_as_hex_string")
    )]
    pub owner_hex: ObjectId,
    #[serde(serialize_with = "serialize_len", deserialize_with = "deserialize_len")]
    #[mongo(bson_type = "int", minimum = 0)]
    pub name_length: usize,
    pub r#type: Priority,
    /// May be missing (serde skips `None`; older documents lack it) or null (other
    /// writers store it): serde reads both back as `None`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[mongo(nullable, max_length = 20)]
    pub middle_name: Option<String>,
    /// The same through a helper, which needs `default` to read a missing field.
    #[serde(default, with = "mongo_schema::serde_helpers::decimal128_option", skip_serializing_if = "Option::is_none")]
    #[mongo(nullable)]
    pub tip_amount: Option<Decimal>,
}

fn serialize_len<S: serde::Serializer>(n: &usize, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_i32(i32::try_from(*n).map_err(serde::ser::Error::custom)?)
}

fn deserialize_len<'de, D: serde::Deserializer<'de>>(d: D) -> Result<usize, D::Error> {
    let n = i32::deserialize(d)?;
    usize::try_from(n).map_err(serde::de::Error::custom)
}

impl Samples for SerdeAttributes {
    fn samples() -> Vec<Self> {
        let base = SerdeAttributes {
            id: oid(30),
            name: DisplayName { value: "n".repeat(40) },
            sku: Sku("SKU-1".into()),
            cache: vec![1],
            secret: "never written".into(),
            retry_count: 0,
            notes: vec!["a".into(), "b".into(), "c".into()],
            owner_hex: oid(31),
            name_length: 40,
            r#type: Priority::Urgent,
            middle_name: Some("m".repeat(20)),
            tip_amount: Some(Decimal::new(150, 2)),
        };
        let bare = SerdeAttributes { id: oid(32), notes: vec![], middle_name: None, tip_amount: None, ..base.clone() };
        vec![base, bare]
    }
}

/// The documents a `nullable` field meets, each with the values serde reads from it:
/// `SerdeAttributes`' first sample as the driver writes it, with its two `nullable`
/// fields missing (as older documents, and serde's own `None`), null (as other writers
/// store them), and holding values.
pub fn nullable_cases() -> Vec<(&'static str, Document, Option<String>, Option<Decimal>)> {
    let sample = SerdeAttributes::samples().remove(0);
    let written: Document =
        bson::deserialize_from_slice(crate::driver_bytes(&sample).as_bytes()).expect("the driver's bytes read back");
    let (middle_name, tip_amount) = (sample.middle_name, sample.tip_amount);
    assert!(matches!(written.get("tip_amount"), Some(Bson::Decimal128(_))), "{written}");
    let mut missing = written.clone();
    missing.remove("middle_name");
    missing.remove("tip_amount");
    let mut null = written.clone();
    null.insert("middle_name", Bson::Null);
    null.insert("tip_amount", Bson::Null);
    vec![("missing", missing, None, None), ("null", null, None, None), ("a value", written, middle_name, tip_amount)]
}

/// Audit fields shared by several models, flattened into them.
#[derive(Debug, Clone, Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
pub struct Audit {
    pub create_time: DateTime,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub update_time: Option<DateTime>,
}

/// `#[serde(flatten)]` of a struct and of a map.
#[derive(Debug, Clone, Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(db = "db_test_serde", collection = "t_serde_flatten")]
pub struct Flattened {
    #[serde(rename = "_id")]
    pub id: ObjectId,
    #[mongo(max_length = 10)]
    pub title: String,
    #[serde(flatten)]
    pub audit: Audit,
    #[serde(flatten)]
    pub extra: BTreeMap<String, i32>,
}

impl Samples for Flattened {
    fn samples() -> Vec<Self> {
        let audit = Audit { create_time: at(0), update_time: Some(at(1)) };
        vec![
            Flattened {
                id: oid(40),
                title: "t".into(),
                audit: audit.clone(),
                extra: BTreeMap::from([("score".into(), 3)]),
            },
            Flattened {
                id: oid(41),
                title: "t".repeat(10),
                audit: Audit { update_time: None, ..audit },
                extra: BTreeMap::new(),
            },
        ]
    }
}

/// Every field keyword the derive documents (runtime/src/derive.md).
#[derive(Debug, Clone, Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(
    db = "db_test_keyword",
    collection = "t_keyword_all",
    validation_level = "moderate",
    validation_action = "warn"
)]
#[mongo(title = "Keywords", description = "Every keyword a field attribute sets")]
pub struct Keywords {
    #[serde(rename = "_id")]
    pub id: ObjectId,
    #[mongo(min_length = 2, max_length = 8, pattern = "^[a-z]+$")]
    pub code: String,
    #[mongo(minimum = -5, maximum = 5)]
    pub level: i32,
    #[mongo(exclusive_minimum = 0, exclusive_maximum = 1)]
    pub fraction: f64,
    #[mongo(multiple_of = 5)]
    pub step: i32,
    #[mongo(min_items = 1, max_items = 4, unique_items)]
    pub choices: Vec<i32>,
    #[mongo(min_properties = 1, max_properties = 3)]
    pub attrs: BTreeMap<String, String>,
    #[mongo(enum_values = ["CNY", "USD", "EUR"])]
    pub currency: String,
    #[mongo(title = "Nickname", description = "Shown to other users")]
    /// Overridden by the description attribute.
    pub nick: String,
    /// A doc comment becomes the description.
    pub documented: bool,
    #[mongo(minimum = 0.5, maximum = 99.5)]
    pub score: f64,
}

impl Samples for Keywords {
    fn samples() -> Vec<Self> {
        let low = Keywords {
            id: oid(50),
            code: "ab".into(),
            level: -5,
            fraction: 0.001,
            step: -10,
            choices: vec![1],
            attrs: BTreeMap::from([("a".into(), "1".into())]),
            currency: "CNY".into(),
            nick: "nick \"quoted\" </script>".into(),
            documented: false,
            score: 0.5,
        };
        let high = Keywords {
            id: oid(51),
            code: "abcdefgh".into(),
            level: 5,
            fraction: 0.999,
            step: 25,
            choices: vec![1, 2, 3, 4],
            attrs: (0..3).map(|i| (format!("k{i}"), "v".into())).collect(),
            currency: "EUR".into(),
            score: 99.5,
            ..low.clone()
        };
        vec![low, high]
    }
}

/// The polymorphic pattern, struct form: the common fields, and a flattened internally
/// tagged enum whose variants carry the per-type fields.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(db = "db_test_poly", collection = "t_poly_content")]
pub struct Content {
    #[serde(rename = "_id")]
    pub id: ObjectId,
    #[mongo(max_length = 100)]
    pub title: String,
    #[serde(flatten)]
    pub body: ContentBody,
}

/// The per-type part of a [`Content`] (and of a [`StrictContent`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, MongoSchema)]
#[serde(tag = "type", rename_all = "snake_case", rename_all_fields = "camelCase")]
pub enum ContentBody {
    Link {
        #[mongo(max_length = 2048)]
        url: String,
    },
    Video {
        #[mongo(max_length = 2048)]
        url: String,
        duration_secs: u32,
    },
    Note {
        #[mongo(max_length = 500)]
        body_text: String,
    },
    Placeholder,
}

fn content_bodies() -> Vec<ContentBody> {
    vec![
        ContentBody::Link { url: "u".repeat(2048) },
        ContentBody::Video { url: "https://example.com/v".into(), duration_secs: u32::MAX },
        ContentBody::Note { body_text: "n".repeat(500) },
        ContentBody::Placeholder,
    ]
}

impl Samples for Content {
    fn samples() -> Vec<Self> {
        let each = content_bodies().into_iter().enumerate();
        each.map(|(i, body)| Content { id: oid(60 + i as u8), title: "t".repeat(100), body }).collect()
    }
}

/// [`Content`] with `deny_unknown_fields`: the variants' own fields are still known.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[mongo(db = "db_test_poly", collection = "t_poly_strict")]
pub struct StrictContent {
    #[serde(rename = "_id")]
    pub id: ObjectId,
    #[mongo(max_length = 100)]
    pub title: String,
    #[serde(flatten)]
    pub body: ContentBody,
}

impl Samples for StrictContent {
    fn samples() -> Vec<Self> {
        let each = content_bodies().into_iter().enumerate();
        each.map(|(i, body)| StrictContent { id: oid(70 + i as u8), title: "s".into(), body }).collect()
    }
}

/// The polymorphic pattern, enum form: an internally tagged enum as the collection root.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, MongoSchema)]
#[serde(tag = "kind", rename_all = "snake_case", rename_all_fields = "camelCase")]
#[mongo(db = "db_test_poly", collection = "t_poly_asset")]
pub enum Asset {
    Image {
        #[serde(rename = "_id")]
        id: ObjectId,
        #[mongo(max_length = 2048)]
        url: String,
        width: u16,
    },
    File {
        #[serde(rename = "_id")]
        id: ObjectId,
        #[mongo(max_length = 100)]
        file_name: String,
        page_count: Option<u32>,
    },
    Folder {
        #[serde(rename = "_id")]
        id: ObjectId,
    },
}

impl Samples for Asset {
    fn samples() -> Vec<Self> {
        vec![
            Asset::Image { id: oid(80), url: "u".repeat(2048), width: u16::MAX },
            Asset::File { id: oid(81), file_name: "f".repeat(100), page_count: Some(3) },
            Asset::File { id: oid(82), file_name: "f".into(), page_count: None },
            Asset::Folder { id: oid(83) },
        ]
    }
}

/// The polymorphic pattern, adjacently tagged: `{kind: "...", data: {...}}` as the root
/// (the `_id` the driver adds beside them).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, MongoSchema)]
#[serde(tag = "kind", content = "data", rename_all = "snake_case", rename_all_fields = "camelCase")]
#[mongo(db = "db_test_poly", collection = "t_poly_notice")]
pub enum Notice {
    Mention {
        #[mongo(max_length = 60)]
        user_name: String,
        #[mongo(max_length = 280)]
        excerpt: String,
    },
    Invoice(#[mongo(minimum = 1)] u32),
    Maintenance,
}

impl Samples for Notice {
    fn samples() -> Vec<Self> {
        vec![
            Notice::Mention { user_name: "n".repeat(60), excerpt: "e".repeat(280) },
            Notice::Invoice(u32::MAX),
            Notice::Maintenance,
        ]
    }
}

/// Every integer and float width, and an `Option`, for the number decision table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(db = "db_test_number", collection = "t_number_width")]
pub struct Numbers {
    #[serde(rename = "_id")]
    pub id: ObjectId,
    pub tiny: i8,
    pub small: i16,
    pub medium: i32,
    pub large: i64,
    pub byte: u8,
    pub word: u16,
    pub unsigned32: u32,
    pub unsigned64: u64,
    pub signed_size: isize,
    pub unsigned_size: usize,
    pub ratio32: f32,
    pub ratio64: f64,
    pub maybe_count: Option<u32>,
}

impl Samples for Numbers {
    fn samples() -> Vec<Self> {
        let low = Numbers {
            id: oid(90),
            tiny: i8::MIN,
            small: i16::MIN,
            medium: i32::MIN,
            large: i64::MIN,
            byte: 0,
            word: 0,
            unsigned32: 0,
            unsigned64: 0,
            signed_size: isize::MIN,
            unsigned_size: 0,
            ratio32: f32::MIN,
            ratio64: f64::MIN,
            maybe_count: None,
        };
        let high = Numbers {
            id: oid(91),
            tiny: i8::MAX,
            small: i16::MAX,
            medium: i32::MAX,
            large: i64::MAX,
            byte: u8::MAX,
            word: u16::MAX,
            unsigned32: u32::MAX,
            unsigned64: i64::MAX as u64,
            signed_size: isize::MAX,
            unsigned_size: i64::MAX as usize,
            ratio32: f32::MAX,
            ratio64: f64::MAX,
            maybe_count: Some(u32::MAX),
        };
        vec![low, high]
    }
}

/// A counters collection: `$inc` on an upsert writes an int32 `seq`, which an `i64` reads.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, MongoSchema)]
#[mongo(db = "db_test_number", collection = "t_number_counter")]
pub struct Counter {
    #[serde(rename = "_id")]
    #[mongo(allow(random_id, reason = "a counter is named by the sequence it counts"))]
    pub id: String,
    pub seq: i64,
}

impl Samples for Counter {
    fn samples() -> Vec<Self> {
        vec![Counter { id: "order".into(), seq: 1 }, Counter { id: "invoice".into(), seq: i64::MAX }]
    }
}
