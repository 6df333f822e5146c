//! The `schema` command line: print, migrate and check, as a user's binary runs them.
#![forbid(unsafe_code)]
#![cfg(feature = "cli")]

use mongo_schema_test_support::migrate_models;

use migrate_models::{v1, v3};
use mongo_schema::bson;
use mongo_schema::bson::{doc, oid::ObjectId};
use mongo_schema::cli::run;
use mongo_schema::migrate::Model;
use std::path::Path;

fn schema(models: &[Model], args: &[&str]) -> (i32, String, String) {
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = run(models, std::iter::once("schema").chain(args.iter().copied()), &mut out, &mut err);
    (code, String::from_utf8(out).unwrap(), String::from_utf8(err).unwrap())
}

#[test]
fn print_js_and_json_for_one_collection() {
    let (code, js, _) = schema(&v1(), &["print", "--collection", "t_user"]);
    assert_eq!(code, 0);
    assert!(js.starts_with("// db_shop.t_user (app::User): create the collection"), "{js}");
    assert!(js.contains(r#"db.getSiblingDB("db_shop").createCollection("t_user", {"#), "{js}");
    assert!(!js.contains("t_order"));
    let (code, json, _) = schema(&v1(), &["print", "--format", "json"]);
    assert_eq!(code, 0);
    let value: serde_json::Value = serde_json::from_str(&json).unwrap();
    let names: Vec<&str> =
        value.as_array().unwrap().iter().map(|m| m["createCollection"]["create"].as_str().unwrap()).collect();
    assert_eq!(names, ["t_order", "t_user"]);
}

#[test]
fn unknown_collections_list_the_registered_ones() {
    let (code, _, err) = schema(&v1(), &["print", "--collection", "t_nope"]);
    assert_eq!(code, 2);
    assert_eq!(err, "schema: no model for collection \"t_nope\"; registered: db_shop.t_order, db_shop.t_user\n");
}

#[test]
fn migrate_writes_once_then_reports_no_changes() {
    let dir = tempfile::tempdir().unwrap();
    let dir_arg = dir.path().to_str().unwrap();
    let (code, out, _) = schema(&v1(), &["migrate", "--dir", dir_arg, "--numbered"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.starts_with("wrote migration 0001_create_t_order_and_1_more:\n"), "{out}");
    assert!(dir.path().join("0001_create_t_order_and_1_more.js").exists());
    let (code, out, _) = schema(&v1(), &["migrate", "--dir", dir_arg]);
    assert_eq!((code, out.starts_with("no changes")), (0, true), "{out}");
    let (_, out, _) = schema(&v3(), &["migrate", "--dir", dir_arg]);
    assert!(out.contains("note: db_shop.t_user: expand and contract."), "{out}");
}

#[test]
fn collection_count_fails_migrate_with_the_rule_id() {
    let dir = tempfile::tempdir().unwrap();
    let (code, _, err) = schema(&v1(), &["migrate", "--dir", dir.path().to_str().unwrap(), "--max-collections", "1"]);
    assert_eq!(code, 1);
    assert!(
        err.starts_with("schema: collection_count: database \"db_shop\" would hold 2 collections, more than 1"),
        "{err}"
    );
    assert!(std::fs::read_dir(dir.path()).unwrap().next().is_none(), "nothing written");
    let (code, _, err) = schema(&v1(), &["migrate", "--max-collections", "101"]);
    assert_eq!(code, 2, "the standard's ceiling cannot be raised: {err}");
}

#[test]
fn a_damaged_snapshot_names_the_file_the_cause_and_the_fix() {
    let dir = tempfile::tempdir().unwrap();
    let snapshot = dir.path().join("snapshot.json");
    std::fs::write(&snapshot, "{").unwrap();
    let (code, _, err) = schema(&v1(), &["migrate", "--dir", dir.path().to_str().unwrap()]);
    assert_eq!(code, 2);
    let head = format!(
        "schema: {}; restore it from version control\n  caused by: not JSON\n  caused by: ",
        snapshot.display()
    );
    assert!(err.starts_with(&head), "{err}");
}

fn write_dump(path: &Path, docs: &[bson::Document]) {
    let mut bytes = Vec::new();
    for d in docs {
        d.to_writer(&mut bytes).unwrap();
    }
    std::fs::write(path, bytes).unwrap();
}

fn user(id: i32, name: &str, email: Option<&str>) -> bson::Document {
    let mut d = doc! { "_id": ObjectId::from_bytes([id as u8; 12]), "userName": name, "status": "active" };
    if let Some(email) = email {
        d.insert("email", email);
    }
    d
}

#[test]
fn check_groups_failures_by_path_and_keyword() {
    let dir = tempfile::tempdir().unwrap();
    let dump = dir.path().join("t_user.bson");
    write_dump(
        &dump,
        &[
            user(1, "Ada", Some("ada@example.com")),
            user(2, "Bo", None),
            user(3, "C", Some("c@example.com")),
            user(4, "Di", None),
        ],
    );
    let (code, out, err) = schema(&v3(), &["check", "--collection", "db_shop.t_user", dump.to_str().unwrap()]);
    assert_eq!(code, 1, "{err}");
    let mut lines = out.lines();
    assert_eq!(lines.next(), Some("db_shop.t_user: 4 documents checked, 3 fail the validator"));
    let first = lines.next().unwrap();
    assert!(first.contains(" 2  email  required  e.g. _id {\"$oid\":\"020202020202020202020202\"}, {\"$oid\":\"040404040404040404040404\"}  (User::email)"), "{out}");
    // each group says what would fix it: here nothing mechanical
    assert!(
        lines
            .next()
            .unwrap()
            .trim()
            .starts_with("needs a person: `email` is missing and the model accepts neither null"),
        "{out}"
    );
    assert!(
        lines
            .next()
            .unwrap()
            .contains(" 1  userName  minLength  e.g. _id {\"$oid\":\"030303030303030303030303\"}  (User::user_name)"),
        "{out}"
    );
    assert!(lines.next().unwrap().trim().starts_with("needs a person: strings outside the length bounds"), "{out}");
    assert_eq!(lines.next(), None, "{out}");
}

#[test]
fn check_passes_clean_extended_json_lines() {
    let dir = tempfile::tempdir().unwrap();
    let lines = dir.path().join("users.jsonl");
    let doc = user(1, "Ada", Some("ada@example.com"));
    std::fs::write(&lines, format!("{}\n", bson::Bson::Document(doc).into_canonical_extjson())).unwrap();
    let (code, out, _) = schema(&v3(), &["check", "--collection", "t_user", lines.to_str().unwrap()]);
    assert_eq!((code, out.as_str()), (0, "db_shop.t_user: 1 documents checked, 0 fail the validator\n"));
}

#[test]
fn check_stops_at_a_corrupt_dump_with_its_offset() {
    let dir = tempfile::tempdir().unwrap();
    let dump = dir.path().join("t_user.bson");
    write_dump(&dump, &[user(1, "Ada", Some("a@b.c"))]);
    let mut bytes = std::fs::read(&dump).unwrap();
    let good = bytes.len();
    bytes.extend_from_slice(&[0xff, 0xff, 0xff, 0x7f, 1, 2]);
    std::fs::write(&dump, bytes).unwrap();
    let (code, out, err) = schema(&v3(), &["check", "--collection", "t_user", dump.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(out.starts_with("db_shop.t_user: 1 documents checked, 0 fail"), "{out}");
    assert!(err.contains(&format!("at byte offset {good}: corrupt: document length")), "{err}");
}

#[test]
fn a_binary_without_models_says_how_to_link_them() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path().to_str().unwrap();
    for args in [&["print"][..], &["migrate", "--dir", dir], &["check", "--collection", "t_user", "x.bson"]] {
        let (code, out, err) = schema(&[], args);
        assert_eq!(code, 2, "{args:?}");
        assert_eq!(out, "", "{args:?}");
        assert!(
            err.contains("no collection root is registered in this binary")
                && err.contains("use your_models_crate as _;"),
            "{err}"
        );
    }
    assert_eq!(std::fs::read_dir(dir).unwrap().count(), 0, "migrate wrote nothing");
}

mod sized {
    use mongo_schema::MongoSchema;
    use serde::{Deserialize, Serialize};

    /// Bounded everywhere: a fixed-width pattern bounds `postcode`.
    #[derive(Serialize, Deserialize, MongoSchema)]
    #[mongo(db = "db_shop", collection = "t_parcel")]
    pub struct Parcel {
        #[serde(rename = "_id")]
        pub id: i64,
        #[mongo(pattern = "^[0-9]{6}$")]
        pub postcode: String,
    }

    #[derive(Serialize, Deserialize, MongoSchema)]
    pub struct Address {
        #[mongo(max_length = 20)]
        pub city: String,
        #[mongo(pattern = "^[0-9]+$")]
        pub street: String,
    }

    /// `address.street` is bounded by no schema keyword.
    #[derive(Serialize, Deserialize, MongoSchema)]
    #[mongo(db = "db_shop", collection = "t_customer")]
    pub struct Customer {
        #[serde(rename = "_id")]
        pub id: i64,
        pub address: Address,
    }

    /// A polymorphic root: the unbounded string is in a variant.
    #[derive(Serialize, Deserialize, MongoSchema)]
    #[serde(tag = "kind", rename_all = "snake_case")]
    #[mongo(db = "db_shop", collection = "t_payment")]
    pub enum Payment {
        Card {
            #[serde(rename = "_id")]
            id: i64,
            #[mongo(max_length = 19)]
            number: String,
        },
        Transfer {
            #[serde(rename = "_id")]
            id: i64,
            reference: String,
        },
    }

    /// Only a value of any BSON type leaves it unbounded.
    #[derive(Serialize, Deserialize, MongoSchema)]
    #[mongo(db = "db_shop", collection = "t_event")]
    pub struct Event {
        #[serde(rename = "_id")]
        pub id: i64,
        pub payload: mongo_schema::bson::Bson,
    }
}

#[test]
fn print_shows_each_roots_worst_case_size_or_what_leaves_it_unbounded() {
    use mongo_schema::MongoCollection;
    let models = [Model::of::<sized::Parcel>("sized::Parcel"), Model::of::<sized::Customer>("sized::Customer")];
    let bound = sized::Parcel::MAX_DOCUMENT_SIZE.unwrap();
    // _id (1 + 3 + 1 + 8) and postcode (1 + 8 + 1 + 4 + 7 + 1), in a document (5)
    assert_eq!(bound, 5 + 13 + 22);
    let (code, js, _) = schema(&models, &["print", "--collection", "t_parcel"]);
    assert_eq!(code, 0);
    assert!(js.contains(&format!("\n// worst-case document size: {bound} bytes\n")), "{js}");
    let (_, js, _) = schema(&models, &["print", "--collection", "t_customer"]);
    assert!(
        js.contains("\n// document size unbounded: `address.street` is a string with neither `max_length` nor a fixed-width `pattern`\n"),
        "{js}"
    );
    for (model, line) in [
        (Model::of::<sized::Payment>("sized::Payment"), "`reference` is a string with neither `max_length`"),
        (Model::of::<sized::Event>("sized::Event"), "`payload` is a value of any BSON type, which no schema bounds"),
    ] {
        let (_, js, _) = schema(std::slice::from_ref(&model), &["print"]);
        assert!(js.contains(&format!("\n// document size unbounded: {line}")), "{js}");
    }
    let (_, json, _) = schema(&models, &["print", "--format", "json"]);
    let value: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(value[0]["documentSize"], serde_json::json!({ "worstCaseBytes": bound }));
    assert_eq!(
        value[1]["documentSize"]["unboundedBy"],
        "address.street: a string with neither `max_length` nor a fixed-width `pattern`"
    );
}

/// Readings of a time-series collection, which takes no server validator.
#[derive(serde::Serialize, serde::Deserialize, mongo_schema::MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(
    db = "db_iot",
    collection = "t_reading",
    timeseries(time_field = "timestamp", meta_field = "deviceId", granularity = "seconds")
)]
struct Reading {
    timestamp: bson::DateTime,
    #[mongo(max_length = 32)]
    device_id: String,
    #[mongo(minimum = -50.0, maximum = 150.0)]
    celsius: f64,
}

#[test]
fn check_holds_time_series_documents_to_the_types_schema() {
    let dir = tempfile::tempdir().unwrap();
    let lines = dir.path().join("t_reading.jsonl");
    let reading =
        |celsius: f64| doc! { "timestamp": bson::DateTime::from_millis(0), "deviceId": "s-1", "celsius": celsius };
    let text: String = [reading(21.5), reading(900.0), doc! { "deviceId": "s-2", "celsius": 3.0 }]
        .into_iter()
        .map(|d| format!("{}\n", bson::Bson::Document(d).into_canonical_extjson()))
        .collect();
    std::fs::write(&lines, text).unwrap();
    let models = [Model::of::<Reading>("app::Reading")];
    assert!(models[0].validator.is_empty(), "a time-series collection installs no validator");
    let (code, out, err) = schema(&models, &["check", "--collection", "t_reading", lines.to_str().unwrap()]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.starts_with("db_iot.t_reading: 3 documents checked, 2 fail the validator"), "{out}");
    assert!(out.contains("celsius  maximum") && out.contains("timestamp  required"), "{out}");
}

/// Sessions with an index and a shard key.
#[derive(serde::Serialize, serde::Deserialize, mongo_schema::MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(db = "db_auth", collection = "t_session", index(keys(userId = 1), unique), shard_key(userId = "hashed"))]
struct Session {
    user_id: i64,
}

#[test]
fn print_shows_indexes_and_the_shard_key() {
    let models = [Model::of::<Session>("app::Session")];
    let (code, js, _) = schema(&models, &["print"]);
    assert_eq!(code, 0);
    assert!(js.contains("// its indexes:\ndb.getSiblingDB(\"db_auth\").runCommand("), "{js}");
    assert!(js.contains("\"createIndexes\": \"t_session\""), "{js}");
    assert!(
        js.contains("db.getSiblingDB(\"admin\").runCommand(")
            && js.contains("\"shardCollection\": \"db_auth.t_session\""),
        "{js}"
    );
    let (_, json, _) = schema(&models, &["print", "--format", "json"]);
    let value: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(value[0]["createIndexes"]["indexes"][0]["name"], "userId_1");
    assert_eq!(value[0]["shardCollection"]["key"]["userId"], "hashed");
}
