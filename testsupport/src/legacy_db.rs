//! The seeded legacy database of `schema infer`'s tests (drivertests/tests/infer_legacy.rs) and
//! of the crate that compiles the drafted models (downstream/infer/tests/check.rs): two
//! collections, and the anomalies planted in them (`path → documents`), so that both the
//! inference report and `schema check` with the drafted models can be held to exact counts.

use mongo_schema::bson::{doc, oid::ObjectId, spec::BinarySubtype, Binary, Bson, DateTime, Decimal128, Document};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use mongo_schema_test_rng::XorShiftStar as Rng;

pub const ORDERS: u64 = 400;
pub const CUSTOMERS: u64 = 50;

fn oid(i: u64, tag: u8) -> ObjectId {
    let mut bytes = [0u8; 12];
    bytes[0] = 0x65;
    bytes[3] = tag;
    bytes[4..12].copy_from_slice(&i.to_be_bytes());
    ObjectId::from_bytes(bytes)
}

fn decimal(cents: u64) -> Decimal128 {
    format!("{}.{:02}", cents / 100, cents % 100).parse().unwrap()
}

/// The legacy database: `t_order` (messy) and `customers` (clean, a name off the standard).
pub struct Legacy {
    pub orders: Vec<Document>,
    pub customers: Vec<Document>,
    /// The anomalies planted in `t_order`: path → documents.
    pub planted: BTreeMap<&'static str, u64>,
    /// Whether each order has at least one (the documents `schema check` must refuse).
    pub dirty: Vec<bool>,
}

pub fn legacy(seed: u64) -> Legacy {
    let mut rng = Rng(seed | 1);
    let mut planted: BTreeMap<&'static str, u64> = BTreeMap::new();
    let statuses = ["pending", "paid", "shipped", "cancelled"];
    let mut orders = Vec::new();
    let mut dirty = Vec::new();
    for i in 0..ORDERS {
        let planted_before: u64 = planted.values().sum();
        let mut d = doc! { "_id": oid(i, 1) };
        // int32 and int64: an i64, nothing refused
        d.insert("orderNo", if i % 3 == 0 { Bson::Int64(1_000_000 + i as i64) } else { Bson::Int32(i as i32) });
        // a counter with a few integral doubles: an integer, the doubles refused
        if i % 10 == 0 {
            d.insert("quantity", (1 + rng.below(5)) as f64);
            *planted.entry("quantity").or_default() += 1;
        } else {
            d.insert("quantity", (1 + rng.below(5)) as i32);
        }
        // money: Decimal128, a few doubles refused
        if i % 7 == 0 {
            d.insert("totalAmount", rng.below(10_000) as f64 / 100.0 + 0.01);
            *planted.entry("totalAmount").or_default() += 1;
        } else {
            d.insert("totalAmount", decimal(rng.below(100_000)));
        }
        // a BSON date, some string dates refused
        let millis = 1_700_000_000_000 + (i as i64) * 60_000;
        if i % 8 == 0 {
            d.insert("createTime", DateTime::from_millis(millis).try_to_rfc3339_string().unwrap());
            *planted.entry("createTime").or_default() += 1;
        } else {
            d.insert("createTime", DateTime::from_millis(millis));
        }
        d.insert("status", statuses[rng.below(4) as usize]);
        // an ObjectId reference, some stored as its hex string
        let customer = oid(rng.below(CUSTOMERS), 2);
        if i % 9 == 0 {
            d.insert("customerId", customer.to_hex());
            *planted.entry("customerId").or_default() += 1;
        } else {
            d.insert("customerId", customer);
        }
        // renamed: the first 150 documents have the old key
        let city = ["Lyon", "Oslo", "Kyoto"][rng.below(3) as usize];
        let address = doc! { "city": city, "zip": format!("{:05}", rng.below(99_999)) };
        if i < 150 {
            d.insert("shipTo", address);
            *planted.entry("shipTo").or_default() += 1;
        } else {
            d.insert("shippingAddress", address);
        }
        // optional (missing), nullable (null), and both (the nulls refused)
        if i % 3 != 0 {
            d.insert("remark", format!("remark {}", rng.below(1_000_000)));
        }
        d.insert(
            "couponCode",
            if i % 4 == 0 { Bson::Null } else { Bson::String(format!("C{}", rng.below(1_000_000))) },
        );
        match i % 5 {
            0 => {}
            // missing in some documents, null in others: optional and nullable, both admitted
            1 => drop(d.insert("giftMessage", Bson::Null)),
            _ => {
                d.insert("giftMessage", format!("for you {}", rng.below(1_000_000)));
            }
        }
        // an array of documents, and an array of arrays
        // a tail of longer orders, and two far longer than the rest (anomalies past max_items)
        let lines = match i {
            123 | 321 => {
                *planted.entry("items").or_default() += 1;
                60
            }
            _ if i % 50 == 0 => 12,
            _ => 1 + rng.below(4),
        };
        let items: Vec<Bson> = (0..lines)
            .map(|_| {
                Bson::Document(doc! {
                    "sku": format!("SKU-{}", rng.below(100_000)),
                    "qty": (1 + rng.below(3)) as i32,
                    "unitPrice": decimal(rng.below(5_000)),
                })
            })
            .collect();
        d.insert("items", items);
        let sizes: Vec<Bson> = (0..1 + rng.below(2))
            .map(|_| Bson::Array(vec![Bson::Int32(rng.below(100) as i32), Bson::Int32(rng.below(100) as i32)]))
            .collect();
        d.insert("boxSizes", sizes);
        // a map keyed by ObjectIds
        let mut stock = Document::new();
        for _ in 0..1 + rng.below(3) {
            stock.insert(oid(rng.below(20), 3).to_hex(), rng.below(50) as i32);
        }
        d.insert("stockByWarehouse", stock);
        // an optional array of enum-like strings
        if i % 4 != 0 {
            let tags = ["gift", "express", "fragile"];
            let n = 1 + rng.below(2) as usize;
            d.insert("tags", tags[..n].iter().map(|t| Bson::String((*t).to_owned())).collect::<Vec<_>>());
        }
        // binary UUIDs (subtype 4), missing in some documents
        if i % 6 != 0 {
            let mut bytes = [0u8; 16];
            bytes[..8].copy_from_slice(&rng.next_u64().to_be_bytes());
            bytes[8..].copy_from_slice(&rng.next_u64().to_be_bytes());
            d.insert("trackingId", Binary { subtype: BinarySubtype::Uuid, bytes: bytes.to_vec() });
        }
        dirty.push(planted.values().sum::<u64>() > planted_before);
        orders.push(d);
    }
    let customers = (0..CUSTOMERS)
        .map(|i| {
            doc! {
                "_id": oid(i, 2),
                "name": format!("Customer {i}"),
                "email": format!("c{i}@example.com"),
                "vip": i % 4 == 0,
                "joinedAt": DateTime::from_millis(1_600_000_000_000 + i as i64 * 86_400_000),
            }
        })
        .collect();
    Legacy { orders, customers, planted, dirty }
}

/// Writes the database as Extended JSON lines, one file per collection, in `dir/db_legacy/`.
pub fn write_dump(dir: &Path, orders: &[Document], customers: &[Document]) -> PathBuf {
    let db = dir.join("db_legacy");
    std::fs::create_dir_all(&db).unwrap();
    for (name, docs) in [("t_order", orders), ("customers", customers)] {
        let text: String =
            docs.iter().map(|d| format!("{}\n", Bson::Document(d.clone()).into_canonical_extjson())).collect();
        std::fs::write(db.join(format!("{name}.json")), text).unwrap();
    }
    db
}

/// A second domain: a device fleet's telemetry. `t_event` is polymorphic (a `type` tag whose
/// values bring their own keys), `t_device` has a renamed key below the root, a map keyed
/// by dates, an array of arrays and a UUID `_id`, `t_session` is clean (its `traceId` holds
/// UUIDs as strings only).
pub struct Fleet {
    /// (collection, documents), sorted by name.
    pub collections: Vec<(&'static str, Vec<Document>)>,
    /// The anomalies planted: (collection, path as `schema infer` reports it) → documents.
    pub planted: BTreeMap<(&'static str, &'static str), u64>,
    /// Per collection, whether each document has at least one anomaly.
    pub dirty: BTreeMap<&'static str, Vec<bool>>,
    /// An old key's path → the path of its new key (what `schema check` reports missing).
    pub renamed: BTreeMap<&'static str, &'static str>,
}

pub const EVENTS: u64 = 600;
const MODELS: [&str; 3] = ["T100", "T200", "X1"];
pub const DEVICES: u64 = 120;
pub const SESSIONS: u64 = 200;

fn uuid_bytes(rng: &mut Rng) -> [u8; 16] {
    let mut bytes = [0u8; 16];
    bytes[..8].copy_from_slice(&rng.next_u64().to_be_bytes());
    bytes[8..].copy_from_slice(&rng.next_u64().to_be_bytes());
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    bytes
}

fn uuid_binary(bytes: [u8; 16]) -> Bson {
    Bson::Binary(Binary { subtype: BinarySubtype::Uuid, bytes: bytes.to_vec() })
}

fn uuid_text(b: [u8; 16]) -> String {
    let hex: String = b.iter().map(|x| format!("{x:02x}")).collect();
    format!("{}-{}-{}-{}-{}", &hex[..8], &hex[8..12], &hex[12..16], &hex[16..20], &hex[20..])
}

pub fn fleet(seed: u64) -> Fleet {
    let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let mut planted: BTreeMap<(&'static str, &'static str), u64> = BTreeMap::new();
    let mut dirty: BTreeMap<&'static str, Vec<bool>> = BTreeMap::new();
    let device_ids: Vec<[u8; 16]> = (0..DEVICES).map(|_| uuid_bytes(&mut rng)).collect();

    let mut devices = Vec::new();
    for (i, id) in device_ids.iter().enumerate() {
        let i = i as u64;
        let mut bad = false;
        let mut plant = |path: &'static str, planted: &mut BTreeMap<_, _>| {
            *planted.entry(("t_device", path)).or_insert(0) += 1;
            bad = true;
        };
        let mut d = doc! {
            "_id": uuid_binary(*id),
            "serialNumber": format!("SN-{:05}", 10_000 + i),
            "model": MODELS[rng.below(3) as usize],
            "firmware": format!("{}.{}.{}", 1 + rng.below(3), rng.below(10), rng.below(40)),
        };
        // a renamed key one level down: the first 40 devices still have the old one
        let unit = ["C", "F"][rng.below(2) as usize];
        let settings = if i < 40 {
            plant("settings.tempUnit", &mut planted);
            doc! { "tempUnit": unit, "reportEvery": (60 * (1 + rng.below(5))) as i32 }
        } else {
            doc! { "temperatureUnit": unit, "reportEvery": (60 * (1 + rng.below(5))) as i32 }
        };
        d.insert("settings", settings);
        // a map keyed by dates
        let mut usage = Document::new();
        for day in 0..1 + rng.below(4) {
            usage.insert(format!("2024-03-{:02}", 1 + day + rng.below(3) * 4), rng.below(1_440) as i32);
        }
        d.insert("dailyUsage", usage);
        // an array of arrays: [epoch millis, value]
        let readings: Vec<Bson> = (0..1 + rng.below(3))
            .map(|k| {
                Bson::Array(vec![
                    Bson::Int64(1_710_000_000_000 + (k as i64) * 60_000),
                    Bson::Double(rng.below(400) as f64 / 10.0),
                ])
            })
            .collect();
        d.insert("readings", readings);
        // owners: ObjectIds, one stored as its hex string now and then
        let mut owners: Vec<Bson> = (0..1 + rng.below(2)).map(|_| Bson::ObjectId(oid(rng.below(30), 5))).collect();
        if i.is_multiple_of(15) {
            owners.push(Bson::String(oid(rng.below(30), 5).to_hex()));
            plant("ownerIds.$[]", &mut planted);
        }
        d.insert("ownerIds", owners);
        if !i.is_multiple_of(5) {
            d.insert(
                "location",
                doc! { "lat": 40.0 + rng.below(1000) as f64 / 100.0, "lng": rng.below(1000) as f64 / 100.0 + 0.5 },
            );
        }
        match i % 3 {
            0 => {}
            1 => drop(d.insert("retiredAt", Bson::Null)),
            _ => drop(d.insert("retiredAt", DateTime::from_millis(1_720_000_000_000 + i as i64 * 1_000))),
        }
        dirty.entry("t_device").or_default().push(bad);
        devices.push(d);
    }

    let mut events = Vec::new();
    for i in 0..EVENTS {
        let mut bad = false;
        let mut plant = |path: &'static str, planted: &mut BTreeMap<_, _>| {
            *planted.entry(("t_event", path)).or_insert(0) += 1;
            bad = true;
        };
        let device = device_ids[rng.below(DEVICES) as usize];
        let kind = ["login", "purchase", "pageView", "logout"][rng.below(4) as usize];
        let mut d = doc! { "_id": oid(i, 4), "type": kind };
        // binary UUIDs, some written as strings by an old client
        if i % 10 == 0 {
            d.insert("deviceId", uuid_text(device));
            plant("deviceId", &mut planted);
        } else {
            d.insert("deviceId", uuid_binary(device));
        }
        d.insert("occurredAt", DateTime::from_millis(1_710_000_000_000 + i as i64 * 30_000));
        match kind {
            "login" => {
                d.insert("userId", oid(rng.below(30), 5));
                d.insert("ip", format!("10.0.{}.{}", rng.below(256), rng.below(256)));
                if rng.below(2) == 0 {
                    d.insert("mfa", rng.below(2) == 0);
                }
            }
            "purchase" => {
                if i % 9 == 0 {
                    d.insert("amount", rng.below(10_000) as f64 / 100.0 + 0.01);
                    plant("amount", &mut planted);
                } else {
                    d.insert("amount", decimal(rng.below(100_000)));
                }
                d.insert("currency", ["EUR", "USD", "JPY"][rng.below(3) as usize]);
                let quoted = i % 25 == 1;
                let lines: Vec<Bson> = (0..1 + rng.below(3))
                    .map(|k| {
                        let qty = if quoted && k == 0 {
                            Bson::String((1 + rng.below(3)).to_string())
                        } else {
                            Bson::Int32((1 + rng.below(3)) as i32)
                        };
                        Bson::Document(doc! { "sku": format!("SKU-{}", rng.below(100_000)), "qty": qty })
                    })
                    .collect();
                if quoted {
                    plant("lines.$[].qty", &mut planted);
                }
                d.insert("lines", lines);
            }
            "pageView" => {
                d.insert("url", format!("/p/{}", rng.below(100_000)));
                let ms = rng.below(90_000) as i64;
                d.insert("durationMs", if i % 4 == 0 { Bson::Int64(ms) } else { Bson::Int32(ms as i32) });
            }
            _ => {}
        }
        dirty.entry("t_event").or_default().push(bad);
        events.push(d);
    }

    let sessions: Vec<Document> = (0..SESSIONS)
        .map(|i| {
            let mut d = doc! {
                "_id": oid(i, 6),
                "deviceId": uuid_binary(device_ids[rng.below(DEVICES) as usize]),
                "traceId": uuid_text(uuid_bytes(&mut rng)),
                "startedAt": DateTime::from_millis(1_710_000_000_000 + i as i64 * 600_000),
                "pageCount": rng.below(40) as i32,
                "userAgent": format!("FleetApp/{}.{}", 1 + rng.below(4), rng.below(10)),
            };
            if i % 4 != 0 {
                d.insert("endedAt", DateTime::from_millis(1_710_000_300_000 + i as i64 * 600_000));
            }
            d
        })
        .collect();
    dirty.insert("t_session", vec![false; SESSIONS as usize]);

    Fleet {
        collections: vec![("t_device", devices), ("t_event", events), ("t_session", sessions)],
        planted,
        dirty,
        renamed: BTreeMap::from([("settings.tempUnit", "settings.temperatureUnit")]),
    }
}

/// Writes `collections` as a mongodump directory of `db`: `<collection>.bson` files beside
/// their `<collection>.metadata.json` (the indexes given, as mongodump 100.x writes them).
pub fn write_bson_dump(dir: &Path, db: &str, collections: &[(&str, Vec<Document>, Vec<Document>)]) -> PathBuf {
    let at = dir.join(db);
    std::fs::create_dir_all(&at).unwrap();
    for (name, docs, indexes) in collections {
        let mut bytes = Vec::new();
        for d in docs {
            d.to_writer(&mut bytes).unwrap();
        }
        std::fs::write(at.join(format!("{name}.bson")), bytes).unwrap();
        let metadata = doc! { "indexes": indexes.iter().cloned().map(Bson::Document).collect::<Vec<_>>(), "collectionName": *name, "type": "collection" };
        std::fs::write(
            at.join(format!("{name}.metadata.json")),
            Bson::Document(metadata).into_canonical_extjson().to_string(),
        )
        .unwrap();
    }
    at
}

/// Data that a drafted file must survive: keys that are Rust keywords, not ASCII, hold
/// spaces, line breaks or start with a digit; strings that would make variant names
/// `Self` or start with a digit, or that start with a letter that is not ASCII; fields always null or always empty arrays; mixed arrays;
/// nesting past the rules' depth; a document of 300 keys; `_id`s of mixed types; a tagged
/// collection with odd tag values and UUID `_id`s; a collection whose name is `Self`'s.
pub fn edges() -> Vec<(&'static str, Vec<Document>)> {
    const LEAGUES: [&str; 5] = ["Österreichische Bundesliga", "Eredivisie", "Ærøskøbing", "東京", "Łódź"];
    let mut rng = Rng(0x5eed_ed9e);
    let keys: Vec<Document> = (0..40)
        .map(|i: i64| {
            let mut d = doc! {
                "_id": if i % 2 == 0 { Bson::String(format!("k{i}")) } else { Bson::Int64(i) },
                "type": "t", "self": 1, "fn": true, "gen": 2, "yield": 3, "box": 4, "Self": 5,
                "naïve": "n", "with space": 6, "line\nbreak": 7, "2fa": false, "___": 8,
                "fooBar": 9, "foo_bar": 10, "a-b": 11, "x": 12,
            };
            if i % 3 == 0 {
                d.insert("sometimes", Bson::Null);
            }
            d
        })
        .collect();
    let values: Vec<Document> = (0..60)
        .map(|i: u64| {
            let words = ["self", "Self", "", "1st", "a b", "ünï", "SELF", "crate"];
            let mut wide = Document::new();
            for k in 0..300 {
                if rng.below(3) == 0 {
                    wide.insert(format!("k{k}"), k);
                }
            }
            let mut deep = doc! { "leaf": i as i32 };
            for level in 0..7 {
                deep = doc! { format!("l{level}"): deep };
            }
            doc! {
                "_id": oid(i, 7),
                "word": words[(i % 8) as usize],
                "status": (i % 3) as i32,
                "nothing": Bson::Null,
                "empty": Bson::Array(vec![]),
                "mixed": [1_i32, "two", 3.5_f64],
                "deep": deep,
                "wide": wide,
                "when": if i.is_multiple_of(2) { Bson::String("2024-01-01".into()) } else { Bson::Int32(20240101) },
                // values whose first letter is not ASCII: ASCII variant names, none lost
                "league": LEAGUES[(i % 5) as usize],
            }
        })
        .collect();
    let tagged: Vec<Document> = (0..30)
        .map(|i: u64| {
            let mut d = doc! { "_id": uuid_binary(uuid_bytes(&mut rng)) };
            match i % 3 {
                0 => drop(d.insert("kind", "self")),
                1 => {
                    d.insert("kind", "1");
                    d.insert("one", i as i32);
                }
                _ => {
                    d.insert("kind", "a b");
                    d.insert("ab", format!("v{i}"));
                    d.insert("type", "inner");
                }
            }
            d.insert("self", i as i32);
            d
        })
        .collect();
    // a root whose keys are data: `_id`, then a count per day, 300 distinct days
    let wide: Vec<Document> = (0..150)
        .map(|i: u64| {
            let mut d = doc! { "_id": oid(i, 8) };
            d.insert(format!("2024-{:02}-{:02}", 1 + (2 * i) % 12, 1 + (2 * i) % 25), i as i32);
            d.insert(format!("2025-{:02}-{:02}", 1 + (2 * i + 1) % 12, 1 + (2 * i + 1) % 25), i as i32);
            d
        })
        .collect();
    vec![("Self", values), ("t_", tagged), ("t_keys", keys), ("t_wide", wide)]
}

/// A naming style for the keys of a generated level.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// `payloadSize`, `sourceApp`
    Camel,
    /// `payload_size`, `source_app`
    Snake,
    /// `payload`, `source`: one word, which fits either case
    Single,
}

/// What the deployment says of a renamed collection: where its TTL index is, or a validator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Deployed {
    /// A TTL index on the new date key.
    TtlOnNew,
    /// A validator (under `warn`) whose `$jsonSchema` names the new keys.
    ValidatorOnNew,
    /// An index on a key the rename does not touch (`status`): it names neither side.
    Unrelated,
    /// TTL indexes on both date keys (the old release's not dropped yet): they name both sides.
    Both,
    /// No index but `_id`'s, no validator.
    Nothing,
}

/// An events collection renamed by its last release (issue 46): three keys of one case
/// replaced by three of the other, the documents of the old release first.
#[derive(Debug, Clone, Copy)]
pub struct RenameCase {
    /// The new keys are camelCase (`eventType`, `customerId`, `createTime`); else they are
    /// the snake_case ones (`event_type`, `customer_id`, `created_at`).
    pub new_camel: bool,
    /// The other keys of the level.
    pub others: Style,
    /// Percent of documents the new release wrote (the new keys).
    pub new_percent: u64,
    pub deployed: Deployed,
    /// The style of the database's other collection (`users`); `None`: no other collection.
    pub database: Option<Style>,
    /// The new release also added a key, in the new keys' case, written before the renamed
    /// ones (`sessionId` / `session_id`, a string): it too never meets the old keys.
    pub added: bool,
}

/// A generated collection with what the deployment holds of it and what was planted.
pub struct Generated {
    pub documents: Vec<Document>,
    /// `listIndexes`' documents (`_id_` first).
    pub indexes: Vec<Document>,
    /// `listCollections`' options: `validator`, `validationLevel`, `validationAction`.
    pub options: Document,
    /// Anomalies planted: path → documents.
    pub planted: BTreeMap<String, u64>,
    /// Whether each document has one.
    pub dirty: Vec<bool>,
}

/// The renamed keys, `(camelCase, snake_case)`: the camel ones replaced the snake ones
/// when `new_camel`, the other way round otherwise.
pub const RENAMED: [(&str, &str); 3] =
    [("eventType", "event_type"), ("customerId", "customer_id"), ("createTime", "created_at")];

/// `(new, old)` keys of `case`.
pub fn rename_pairs(case: &RenameCase) -> [(&'static str, &'static str); 3] {
    RENAMED.map(|(camel, snake)| if case.new_camel { (camel, snake) } else { (snake, camel) })
}

fn styled(style: Style, camel: &'static str, snake: &'static str, single: &'static str) -> &'static str {
    match style {
        Style::Camel => camel,
        Style::Snake => snake,
        Style::Single => single,
    }
}

pub const EVENT_TTL: i32 = 7_776_000;

/// The events collection of `case`: 60 to 300 documents (by `seed`), the old release's
/// first. Every document holds `status` (a string of 3 values, random: no tag), a payload
/// size and a source app in the level's style; the old release's documents are the only
/// anomalies (their keys are the old ones).
pub fn renamed_events(case: &RenameCase, seed: u64) -> Generated {
    let mut rng = Rng(seed.wrapping_mul(0x2545_f491_4f6c_dd1d) | 1);
    let n = 60 + rng.below(241);
    let old_docs = n * (100 - case.new_percent) / 100;
    let pairs = rename_pairs(case);
    let size_key = styled(case.others, "payloadSize", "payload_size", "payload");
    let app_key = styled(case.others, "sourceApp", "source_app", "source");
    let mut planted = BTreeMap::new();
    let mut dirty = Vec::new();
    let mut documents = Vec::new();
    for i in 0..n {
        let old = i < old_docs;
        let keys: Vec<&str> = pairs.iter().map(|(new, before)| if old { *before } else { *new }).collect();
        let mut d = doc! { "_id": oid(i, 9) };
        if case.added && !old {
            d.insert(if case.new_camel { "sessionId" } else { "session_id" }, format!("s-{}", rng.below(100_000)));
        }
        d.insert(keys[0], ["click", "view", "purchase", "signup"][rng.below(4) as usize]);
        d.insert(keys[1], oid(rng.below(40), 2));
        d.insert(keys[2], DateTime::from_millis(1_730_000_000_000 + i as i64 * 45_000));
        d.insert("status", ["new", "seen", "done"][rng.below(3) as usize]);
        d.insert(size_key, rng.below(4_096) as i32);
        d.insert(app_key, ["web", "ios", "android"][rng.below(3) as usize]);
        if old {
            for (_, before) in pairs {
                *planted.entry(before.to_owned()).or_default() += 1;
            }
        }
        dirty.push(old);
        documents.push(d);
    }
    let mut indexes = vec![doc! { "v": 2, "key": { "_id": 1 }, "name": "_id_" }];
    let mut options = Document::new();
    let new_date = pairs[2].0;
    match case.deployed {
        Deployed::TtlOnNew => indexes.push(
            doc! { "v": 2, "key": { new_date: 1 }, "name": format!("{new_date}_1"), "expireAfterSeconds": EVENT_TTL },
        ),
        Deployed::Unrelated => indexes.push(doc! { "v": 2, "key": { "status": 1 }, "name": "status_1" }),
        Deployed::Both => {
            for date in [pairs[2].1, new_date] {
                indexes.push(
                    doc! { "v": 2, "key": { date: 1 }, "name": format!("{date}_1"), "expireAfterSeconds": EVENT_TTL },
                );
            }
        }
        Deployed::ValidatorOnNew => {
            let properties: Document =
                pairs.iter().map(|(new, _)| ((*new).to_owned(), Bson::Document(doc! {}))).collect();
            options = doc! {
                "validator": { "$jsonSchema": { "bsonType": "object", "properties": properties, "required": [pairs[0].0] } },
                "validationLevel": "moderate",
                "validationAction": "warn",
            };
        }
        Deployed::Nothing => {}
    }
    Generated { documents, indexes, options, planted, dirty }
}

/// The database's other collection, its keys in `style`.
pub fn users(style: Style, seed: u64) -> Vec<Document> {
    let mut rng = Rng(seed | 1);
    let keys = match style {
        Style::Camel => ["firstName", "lastLogin", "signupSource"],
        Style::Snake => ["first_name", "last_login", "signup_source"],
        Style::Single => ["name", "login", "source"],
    };
    (0..40)
        .map(|i| {
            let mut d = doc! { "_id": oid(i, 2) };
            d.insert(keys[0], format!("User {}", rng.below(1_000)));
            d.insert(keys[1], DateTime::from_millis(1_700_000_000_000 + i as i64 * 86_400_000));
            d.insert(keys[2], ["ad", "search", "friend"][rng.below(3) as usize]);
            d
        })
        .collect()
}

/// A telemetry collection tagged by `type` (issue 46): `variants` values (2 to 6, the first
/// the most frequent), each with keys of its own but for `bare_last` (the last value has
/// none: only `speedKmh` when it is shared with it, else nothing beyond the common keys),
/// `speedKmh` held by the values whose bit is set in `shared` (bit 0: the first value),
/// every document with `_id`, `deviceId`, `ts` (2% of them strings, the only anomalies) and
/// `source` (3 values, random: a decoy). With `tagged` false the keys follow a hidden choice
/// `type` knows nothing of: no discriminator. With `untagged`, 1 document in 100 has no
/// `type` (or a null one): anomalies of the tag itself.
#[derive(Debug, Clone, Copy)]
pub struct TagCase {
    pub variants: usize,
    pub shared: u8,
    pub bare_last: bool,
    pub tagged: bool,
    pub untagged: bool,
}

/// The tag values, in order, and their keys of their own: `(key, required in the variant)`.
pub const TAG_VALUES: [(&str, &[(&str, bool)]); 6] = [
    ("position", &[("lat", true), ("lng", true), ("heading", false)]),
    ("overspeed", &[("limitKmh", true)]),
    ("geofence", &[("zoneId", true), ("entered", true)]),
    ("fault", &[("code", true), ("message", false)]),
    ("ignition", &[("ignitionOn", true)]),
    ("battery", &[("voltage", true)]),
];

/// The keys each tag value's documents hold, `key → required`, common keys included.
pub fn tag_expected(case: &TagCase) -> BTreeMap<&'static str, BTreeMap<&'static str, bool>> {
    (0..case.variants)
        .map(|v| {
            let (value, own) = TAG_VALUES[v];
            let mut keys: BTreeMap<&str, bool> =
                ["_id", "deviceId", "ts", "source"].into_iter().map(|k| (k, true)).collect();
            if !(case.bare_last && v == case.variants - 1) {
                keys.extend(own.iter().copied());
            }
            if case.shared & (1 << v) != 0 {
                keys.insert("speedKmh", true);
            }
            (value, keys)
        })
        .collect()
}

pub fn telemetry(case: &TagCase, seed: u64) -> Generated {
    let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 3);
    // weights 6, 3, 2, 1, 1, 1 (the 6,000 / 3,000 / 2,000 / 1,000), 20 to 60 a unit
    let weights = [6u64, 3, 2, 1, 1, 1];
    let unit = 20 + rng.below(41);
    let total: u64 = weights[..case.variants].iter().sum::<u64>() * unit;
    let expected = tag_expected(case);
    let mut planted = BTreeMap::new();
    let mut dirty = Vec::new();
    let mut documents = Vec::new();
    let mut left: Vec<u64> = weights[..case.variants].iter().map(|w| w * unit).collect();
    for i in 0..total {
        // a value drawn among those left, so that each has exactly its weight
        let mut pick = rng.below(left.iter().sum());
        let v = left
            .iter()
            .position(|n| {
                if pick < *n {
                    true
                } else {
                    pick -= n;
                    false
                }
            })
            .unwrap();
        left[v] -= 1;
        let shape = if case.tagged { v } else { rng.below(case.variants as u64) as usize };
        let mut d = doc! { "_id": oid(i, 10), "type": TAG_VALUES[v].0, "deviceId": oid(rng.below(25), 11) };
        let mut bad = false;
        if case.untagged && i % 100 == 42 {
            match i % 200 {
                42 => drop(d.remove("type")),
                _ => drop(d.insert("type", Bson::Null)),
            }
            *planted.entry("type".to_owned()).or_default() += 1;
            bad = true;
        }
        let at = DateTime::from_millis(1_735_000_000_000 + i as i64 * 5_000);
        if i % 50 == 7 {
            d.insert("ts", at.try_to_rfc3339_string().unwrap());
            *planted.entry("ts".to_owned()).or_default() += 1;
            bad = true;
        } else {
            d.insert("ts", at);
        }
        dirty.push(bad);
        d.insert("source", ["gps", "can", "app"][rng.below(3) as usize]);
        for (key, required) in &expected[TAG_VALUES[shape].0] {
            if d.contains_key(*key) || (!required && rng.below(2) == 0) {
                continue;
            }
            let value = match *key {
                "lat" | "lng" => Bson::Double(rng.below(18_000) as f64 / 100.0 + 0.5),
                "heading" | "limitKmh" | "speedKmh" | "code" => Bson::Int32(rng.below(360) as i32),
                "zoneId" => Bson::ObjectId(oid(rng.below(12), 12)),
                "entered" | "ignitionOn" => Bson::Boolean(rng.below(2) == 0),
                "voltage" => Bson::Double(11.0 + rng.below(300) as f64 / 100.0 + 0.005),
                _ => Bson::String(format!("message {}", rng.below(10_000))),
            };
            d.insert(*key, value);
        }
        documents.push(d);
    }
    let indexes = vec![
        doc! { "v": 2, "key": { "_id": 1 }, "name": "_id_" },
        doc! { "v": 2, "key": { "deviceId": 1, "ts": -1 }, "name": "deviceId_1_ts_-1" },
    ];
    Generated { documents, indexes, options: Document::new(), planted, dirty }
}
