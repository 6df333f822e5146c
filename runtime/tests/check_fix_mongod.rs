//! The fixes `schema check` prints, run by a real mongosh against the test mongod
//! (`MONGODB_URI`): a collection seeded with legacy documents passes the model's
//! `$jsonSchema` afterwards, except the values no conversion can save, which the server
//! and the local check both still name: top-level conversions and missing values
//! (`t_account`), renamed fields still under their old key and conversions inside arrays
//! of documents (`t_invoice`). Without `MONGODB_URI` or mongosh each test says it was
//! skipped and passes.
#![forbid(unsafe_code)]
#![cfg(feature = "driver")]

use crate::check_models;

use check_models::{account, ledger, oid};
use mongo_schema::bson::{doc, Bson, Document};
use mongo_schema::cli::run;
use mongo_schema::migrate::driver::MongoServer;
use mongo_schema::migrate::server::Server;
use mongo_schema::migrate::Model;

use std::process::Command;

use crate::support;
use support::mongosh;

const DB: &str = "db_check_fix";

fn model() -> Model {
    let mut model = Model::of::<ledger::Account>("ledger::Account");
    model.db = DB.to_owned();
    model
}

/// `schema check --format json` over `docs` written as a mongodump `.bson` file.
fn check(docs: &[Document]) -> serde_json::Value {
    check_model(model(), docs)
}

/// `schema check --format json` of `model`'s collection over `docs` written as a mongodump
/// `.bson` file.
fn check_model(model: Model, docs: &[Document]) -> serde_json::Value {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(format!("{}.bson", model.collection));
    let mut bytes = Vec::new();
    for d in docs {
        d.to_writer(&mut bytes).unwrap();
    }
    std::fs::write(&path, bytes).unwrap();
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let collection = model.collection.clone();
    let args = ["schema", "check", "--collection", &collection, "--format", "json", path.to_str().unwrap()];
    let code = run(&[model], args, &mut out, &mut err);
    assert!(code <= 1, "{}", String::from_utf8_lossy(&err));
    serde_json::from_slice(&out).unwrap()
}

/// The `_id`s of the documents the server says fail the model's `$jsonSchema`.
fn failing_on_server(server: &mut MongoServer, schema: &Document) -> Vec<Bson> {
    failing_in(server, DB, "t_account", schema)
}

fn failing_in(server: &mut MongoServer, db: &str, collection: &str, schema: &Document) -> Vec<Bson> {
    let pipeline = vec![
        doc! { "$match": { "$nor": [{ "$jsonSchema": schema.clone() }] } },
        doc! { "$sort": { "_id": 1 } },
        doc! { "$project": { "_id": 1 } },
    ];
    let reply = server
        .run_command(db, doc! { "aggregate": collection, "pipeline": pipeline, "cursor": { "batchSize": 1000 } })
        .unwrap();
    let batch = reply.get_document("cursor").unwrap().get_array("firstBatch").unwrap();
    batch.iter().map(|d| d.as_document().unwrap().get("_id").unwrap().clone()).collect()
}

fn all_documents(server: &mut MongoServer) -> Vec<Document> {
    documents_in(server, DB, "t_account")
}

fn documents_in(server: &mut MongoServer, db: &str, collection: &str) -> Vec<Document> {
    let reply = server.run_command(db, doc! { "find": collection, "sort": { "_id": 1 }, "batchSize": 1000 }).unwrap();
    let batch = reply.get_document("cursor").unwrap().get_array("firstBatch").unwrap();
    batch.iter().map(|d| d.as_document().unwrap().clone()).collect()
}

/// Runs each group's printed fix with mongosh; every group must have one.
fn run_fixes(mongosh: &std::path::Path, uri: &str, groups: &[serde_json::Value]) {
    for group in groups {
        let update = group["fix"]["mongosh"].as_str().unwrap_or_else(|| panic!("a mechanical fix: {group:#}"));
        let out = Command::new(mongosh).args(["--quiet", uri, "--eval", update]).output().unwrap();
        assert!(
            out.status.success(),
            "mongosh {update}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

#[test]
fn the_printed_fixes_make_legacy_documents_pass_on_mongod() {
    let name = "the_printed_fixes_make_legacy_documents_pass_on_mongod";
    let (Ok(uri), Some(mongosh)) = (std::env::var("MONGODB_URI"), mongosh()) else {
        eprintln!("skipped (no MONGODB_URI or no mongosh): {name}");
        return;
    };
    // Accounts 0..50 hold only faults with a mechanical fix: string dates, counts stored
    // as strings and doubles, a missing nullable field. Two more hold values no
    // conversion saves: a count with a fraction and a string that is not a date.
    let mut docs: Vec<Document> = (0..50).map(account).collect();
    let mut fraction = account(60);
    fraction.insert("loginCount", 2.5);
    let mut not_a_date = account(61);
    not_a_date.insert("openTime", "last tuesday");
    docs.extend([fraction, not_a_date]);

    let mut server = MongoServer::connect(&uri).unwrap();
    server.run_command(DB, doc! { "dropDatabase": 1 }).unwrap();
    // legacy documents under the model's strict validator, installed after they were written:
    // a fix that mends one rule on a document still breaking another must not fail with 121
    server.run_command(DB, doc! { "create": "t_account", "validator": model().validator.clone() }).unwrap();
    let inserted = server
        .run_command(DB, doc! { "insert": "t_account", "documents": docs.clone(), "bypassDocumentValidation": true })
        .unwrap();
    assert!(!inserted.contains_key("writeErrors"), "{inserted}");
    let schema = model().validator.get_document("$jsonSchema").unwrap().clone();
    let before = failing_on_server(&mut server, &schema);

    let report = check(&docs);
    let account_report = &report["collections"][0];
    assert_eq!(
        account_report["failed"].as_u64(),
        Some(before.len() as u64),
        "the server and the check agree: {report:#}"
    );
    let groups = account_report["groups"].as_array().unwrap();
    let mut keys: Vec<(&str, &str)> =
        groups.iter().map(|g| (g["path"].as_str().unwrap(), g["keyword"].as_str().unwrap())).collect();
    keys.sort();
    assert_eq!(keys, [("loginCount", "bsonType"), ("nickName", "required"), ("openTime", "bsonType")], "{report:#}");
    run_fixes(&mongosh, &uri, groups);

    // Only the two unsavable documents still fail, on the server and in the local check
    // of what the server now holds, each for the value it could not convert.
    assert_eq!(failing_on_server(&mut server, &schema), [Bson::ObjectId(oid(60)), Bson::ObjectId(oid(61))]);
    let after = check(&all_documents(&mut server));
    let account_report = &after["collections"][0];
    assert_eq!((account_report["documents"].as_u64(), account_report["failed"].as_u64()), (Some(52), Some(2)));
    let mut groups: Vec<(String, Vec<String>)> = account_report["groups"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            let ids = g["ids"].as_array().unwrap().iter().map(|id| id["$oid"].as_str().unwrap().to_owned()).collect();
            (g["path"].as_str().unwrap().to_owned(), ids)
        })
        .collect();
    groups.sort();
    assert_eq!(
        groups,
        [("loginCount".to_owned(), vec![oid(60).to_hex()]), ("openTime".to_owned(), vec![oid(61).to_hex()])],
        "{after:#}"
    );
    // The converted values are the ones the strings and doubles said.
    let fixed = all_documents(&mut server);
    let three = fixed.iter().find(|d| d.get_object_id("_id").unwrap() == oid(3)).unwrap();
    assert_eq!(three.get_datetime("openTime").unwrap().timestamp_millis(), 1_614_834_367_000);
    let five = fixed.iter().find(|d| d.get_object_id("_id").unwrap() == oid(5)).unwrap();
    assert_eq!(five.get_i64("loginCount").unwrap(), 5);
    let nine = fixed.iter().find(|d| d.get_object_id("_id").unwrap() == oid(9)).unwrap();
    assert_eq!(nine.get_i64("loginCount").unwrap(), 9);
    let eight = fixed.iter().find(|d| d.get_object_id("_id").unwrap() == oid(8)).unwrap();
    assert_eq!(eight.get("nickName"), Some(&Bson::Null));
    server.run_command(DB, doc! { "dropDatabase": 1 }).unwrap();
}

/// An invoice whose buyer and note were renamed, and whose lines hold prices and
/// quantities that old writers stored as doubles and strings.
mod billing {
    use mongo_schema::bson::{oid::ObjectId, Decimal128};
    use mongo_schema::MongoSchema;
    use serde::{Deserialize, Serialize};

    #[derive(Debug, Serialize, Deserialize, MongoSchema)]
    #[serde(rename_all = "camelCase")]
    #[mongo(db = "db_check", collection = "t_invoice")]
    pub struct Invoice {
        #[serde(rename = "_id")]
        pub id: ObjectId,
        /// Stored as `buyer` before.
        #[serde(alias = "buyer")]
        #[mongo(min_length = 1, max_length = 40, renamed_from = "buyer")]
        pub buyer_name: String,
        /// Stored as `memo` before; null when there is none.
        #[serde(alias = "memo")]
        #[mongo(max_length = 100, renamed_from = "memo")]
        pub note_text: Option<String>,
        #[mongo(max_items = 20)]
        pub lines: Vec<Line>,
    }

    #[derive(Debug, Serialize, Deserialize, MongoSchema)]
    #[serde(rename_all = "camelCase")]
    pub struct Line {
        #[mongo(max_length = 20)]
        pub sku: String,
        pub quantity: i32,
        pub unit_price: Decimal128,
    }
}

const MOVES_DB: &str = "db_check_fix_moves";

fn decimal(s: &str) -> Bson {
    Bson::Decimal128(s.parse().unwrap())
}

/// Invoice `i`: valid, except where `i` falls on a legacy fault (several can meet in one
/// document): the buyer or the note under its old key, no note at all, prices stored as
/// doubles or strings, a quantity stored as a double.
fn invoice(i: u32) -> Document {
    let mut d = doc! {
        "_id": oid(i),
        "buyerName": format!("buyer {i}"),
        "noteText": Bson::Null,
        "lines": [
            { "sku": "A-1", "quantity": 1, "unitPrice": decimal("9.99") },
            { "sku": "B-2", "quantity": 2, "unitPrice": decimal("12.50") },
        ],
    };
    let line = |d: &mut Document, n: usize| d.get_array_mut("lines").unwrap()[n].as_document_mut().unwrap().clone();
    let set_line = |d: &mut Document, n: usize, key: &str, value: Bson| {
        let mut l = line(d, n);
        l.insert(key, value);
        d.get_array_mut("lines").unwrap()[n] = Bson::Document(l);
    };
    if i % 3 == 1 {
        let buyer = d.remove("buyerName").unwrap();
        d.insert("buyer", buyer);
    }
    if i % 4 == 2 {
        d.remove("noteText");
        d.insert("memo", format!("memo {i}"));
    }
    if i % 5 == 3 {
        d.remove("noteText");
    }
    if i.is_multiple_of(2) {
        set_line(&mut d, 0, "unitPrice", Bson::Double(9.99));
    }
    if i.is_multiple_of(7) {
        set_line(&mut d, 1, "unitPrice", Bson::String("12.50".to_owned()));
    }
    if i % 6 == 1 {
        set_line(&mut d, 1, "quantity", Bson::Double(2.0));
    }
    d
}

#[test]
fn renamed_keys_move_and_values_in_arrays_convert_on_mongod() {
    let name = "renamed_keys_move_and_values_in_arrays_convert_on_mongod";
    let (Ok(uri), Some(mongosh)) = (std::env::var("MONGODB_URI"), mongosh()) else {
        eprintln!("skipped (no MONGODB_URI or no mongosh): {name}");
        return;
    };
    let mut model = Model::of::<billing::Invoice>("billing::Invoice");
    model.db = MOVES_DB.to_owned();
    assert_eq!(
        model.renames,
        [("buyerName".to_owned(), "buyer".to_owned()), ("noteText".to_owned(), "memo".to_owned())]
    );
    // Invoices 0..40 hold only faults with a mechanical fix. Three more hold what no fix
    // saves: a price that is no number, a quantity with a fraction, and no buyer under
    // either key.
    let mut docs: Vec<Document> = (0..40).map(invoice).collect();
    let mut not_a_price = invoice(50);
    not_a_price.get_array_mut("lines").unwrap()[0] =
        Bson::Document(doc! { "sku": "A-1", "quantity": 1, "unitPrice": "call us" });
    let mut fraction = invoice(51);
    fraction.get_array_mut("lines").unwrap()[1] =
        Bson::Document(doc! { "sku": "B-2", "quantity": 2.5, "unitPrice": decimal("12.50") });
    let mut no_buyer = invoice(52);
    no_buyer.remove("buyerName");
    no_buyer.remove("buyer");
    docs.extend([not_a_price, fraction, no_buyer]);

    let mut server = MongoServer::connect(&uri).unwrap();
    server.run_command(MOVES_DB, doc! { "dropDatabase": 1 }).unwrap();
    server.run_command(MOVES_DB, doc! { "create": "t_invoice", "validator": model.validator.clone() }).unwrap();
    let inserted = server
        .run_command(
            MOVES_DB,
            doc! { "insert": "t_invoice", "documents": docs.clone(), "bypassDocumentValidation": true },
        )
        .unwrap();
    assert!(!inserted.contains_key("writeErrors"), "{inserted}");
    let schema = model.validator.get_document("$jsonSchema").unwrap().clone();
    let before = failing_in(&mut server, MOVES_DB, "t_invoice", &schema);

    let report = check_model(model.clone(), &docs);
    let invoices = &report["collections"][0];
    assert_eq!(invoices["failed"].as_u64(), Some(before.len() as u64), "the server and the check agree: {report:#}");
    let groups = invoices["groups"].as_array().unwrap();
    let mut keys: Vec<(&str, &str)> =
        groups.iter().map(|g| (g["path"].as_str().unwrap(), g["keyword"].as_str().unwrap())).collect();
    keys.sort();
    assert_eq!(
        keys,
        [
            ("buyerName", "required"),
            ("lines.$[].quantity", "bsonType"),
            ("lines.$[].unitPrice", "bsonType"),
            ("noteText", "required")
        ],
        "{report:#}"
    );
    run_fixes(&mongosh, &uri, groups);

    // Only the three unsavable documents still fail, on the server and in the local check.
    assert_eq!(
        failing_in(&mut server, MOVES_DB, "t_invoice", &schema),
        [Bson::ObjectId(oid(50)), Bson::ObjectId(oid(51)), Bson::ObjectId(oid(52))]
    );
    let fixed = documents_in(&mut server, MOVES_DB, "t_invoice");
    let after = check_model(model, &fixed);
    let invoices = &after["collections"][0];
    assert_eq!((invoices["documents"].as_u64(), invoices["failed"].as_u64()), (Some(43), Some(3)), "{after:#}");
    let mut left: Vec<(String, String)> = invoices["groups"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| (g["path"].as_str().unwrap().to_owned(), g["ids"][0]["$oid"].as_str().unwrap().to_owned()))
        .collect();
    left.sort();
    assert_eq!(
        left,
        [
            ("buyerName".to_owned(), oid(52).to_hex()),
            ("lines.$[].quantity".to_owned(), oid(51).to_hex()),
            ("lines.$[].unitPrice".to_owned(), oid(50).to_hex()),
        ],
        "{after:#}"
    );

    // The values moved and converted are the ones the documents held, and no document keeps
    // an old key; every document that passes reads back through serde.
    let by_id = |i: u32| fixed.iter().find(|d| d.get_object_id("_id").unwrap() == oid(i)).unwrap();
    for d in &fixed {
        assert!(!d.contains_key("buyer") && !d.contains_key("memo"), "an old key stayed: {d}");
    }
    assert_eq!(by_id(1).get_str("buyerName").unwrap(), "buyer 1", "moved from `buyer`");
    assert_eq!(by_id(2).get_str("noteText").unwrap(), "memo 2", "moved from `memo`");
    assert_eq!(by_id(3).get("noteText"), Some(&Bson::Null), "neither key: the null the model accepts");
    let lines = |i: u32| by_id(i).get_array("lines").unwrap().clone();
    let line = |i: u32, n: usize| lines(i)[n].as_document().unwrap().clone();
    let price = |i: u32, n: usize| line(i, n).get("unitPrice").unwrap().clone();
    let as_number = |b: &Bson| match b {
        Bson::Decimal128(d) => d.to_string().parse::<f64>().unwrap(),
        other => panic!("not a decimal: {other}"),
    };
    assert_eq!(as_number(&price(2, 0)), 9.99, "a double price converted in place");
    assert_eq!(as_number(&price(7, 1)), 12.5, "a string price converted in place");
    assert_eq!(price(2, 1), decimal("12.50"), "an element that was right is left as it was");
    assert_eq!(line(7, 0), doc! { "sku": "A-1", "quantity": 1, "unitPrice": decimal("9.99") }, "{}", by_id(7));
    assert!(matches!(line(1, 1).get("quantity"), Some(Bson::Int32(2) | Bson::Int64(2))), "{}", by_id(1));
    assert_eq!(line(50, 0).get_str("unitPrice").unwrap(), "call us", "what does not convert stays");
    assert_eq!(line(51, 1).get_f64("quantity").unwrap(), 2.5, "a fraction stays");
    let unreadable: Vec<String> = fixed
        .iter()
        .filter(|d| read::<billing::Invoice>(d).is_err())
        .map(|d| d.get_object_id("_id").unwrap().to_hex())
        .collect();
    assert_eq!(unreadable, [oid(50).to_hex(), oid(51).to_hex(), oid(52).to_hex()]);
    server.run_command(MOVES_DB, doc! { "dropDatabase": 1 }).unwrap();
}

/// `document` read as the driver reads a typed find: bson's raw deserializer over its bytes.
fn read<T: serde::de::DeserializeOwned>(document: &Document) -> Result<T, String> {
    let mut bytes = Vec::new();
    document.to_writer(&mut bytes).map_err(|e| e.to_string())?;
    #[cfg(feature = "bson-3")]
    return mongo_schema::bson::deserialize_from_slice(&bytes).map_err(|e| e.to_string());
    #[cfg(not(feature = "bson-3"))]
    return mongo_schema::bson::from_slice(&bytes).map_err(|e| e.to_string());
}
