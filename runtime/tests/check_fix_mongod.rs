//! The fixes `schema check` prints, run by a real mongosh against the test mongod
//! (`MONGODB_URI`): a collection seeded with legacy documents passes the model's
//! `$jsonSchema` afterwards, except the values no conversion can save, which the server
//! and the local check both still name. Without `MONGODB_URI` or mongosh the test says it
//! was skipped and passes.
#![forbid(unsafe_code)]
#![cfg(feature = "driver")]

mod check_models;

use check_models::{account, ledger, oid};
use mongo_schema::bson::{doc, Bson, Document};
use mongo_schema::cli::run;
use mongo_schema::migrate::apply::Server;
use mongo_schema::migrate::driver::MongoServer;
use mongo_schema::migrate::Model;

use std::process::Command;

mod support;
use support::mongosh;

const DB: &str = "db_check_fix";

fn model() -> Model {
    let mut model = Model::of::<ledger::Account>("ledger::Account");
    model.db = DB.to_owned();
    model
}

/// `schema check --format json` over `docs` written as a mongodump `.bson` file.
fn check(docs: &[Document]) -> serde_json::Value {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t_account.bson");
    let mut bytes = Vec::new();
    for d in docs {
        d.to_writer(&mut bytes).unwrap();
    }
    std::fs::write(&path, bytes).unwrap();
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let args = ["schema", "check", "--collection", "t_account", "--format", "json", path.to_str().unwrap()];
    let code = run(&[model()], args, &mut out, &mut err);
    assert!(code <= 1, "{}", String::from_utf8_lossy(&err));
    serde_json::from_slice(&out).unwrap()
}

/// The `_id`s of the documents the server says fail the model's `$jsonSchema`.
fn failing_on_server(server: &mut MongoServer, schema: &Document) -> Vec<Bson> {
    let pipeline = vec![
        doc! { "$match": { "$nor": [{ "$jsonSchema": schema.clone() }] } },
        doc! { "$sort": { "_id": 1 } },
        doc! { "$project": { "_id": 1 } },
    ];
    let reply = server
        .run_command(DB, doc! { "aggregate": "t_account", "pipeline": pipeline, "cursor": { "batchSize": 1000 } })
        .unwrap();
    let batch = reply.get_document("cursor").unwrap().get_array("firstBatch").unwrap();
    batch.iter().map(|d| d.as_document().unwrap().get("_id").unwrap().clone()).collect()
}

fn all_documents(server: &mut MongoServer) -> Vec<Document> {
    let reply = server.run_command(DB, doc! { "find": "t_account", "sort": { "_id": 1 }, "batchSize": 1000 }).unwrap();
    let batch = reply.get_document("cursor").unwrap().get_array("firstBatch").unwrap();
    batch.iter().map(|d| d.as_document().unwrap().clone()).collect()
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
    for group in groups {
        let update = group["fix"]["mongosh"].as_str().unwrap_or_else(|| panic!("a mechanical fix: {group:#}"));
        let out = Command::new(&mongosh).args(["--quiet", &uri, "--eval", update]).output().unwrap();
        assert!(
            out.status.success(),
            "mongosh {update}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }

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
