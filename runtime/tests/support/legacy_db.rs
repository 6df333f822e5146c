//! The seeded legacy database of `schema infer`'s tests (runtime/tests/infer_legacy.rs) and
//! of the crate that compiles the drafted models (downstream/infer/tests/check.rs): two
//! collections, and the anomalies planted in them (`path → documents`), so that both the
//! inference report and `schema check` with the drafted models can be held to exact counts.
#![allow(dead_code)]

use mongo_schema::bson::{doc, oid::ObjectId, spec::BinarySubtype, Binary, Bson, DateTime, Decimal128, Document};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// xorshift64*: a fixed sequence per seed, no dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

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
        let lines = if i % 50 == 0 { 12 } else { 1 + rng.below(4) };
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
            bytes[..8].copy_from_slice(&rng.next().to_be_bytes());
            bytes[8..].copy_from_slice(&rng.next().to_be_bytes());
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
