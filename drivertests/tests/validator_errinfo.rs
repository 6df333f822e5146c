//! The local validator's `errInfo` against a real mongod's, compared whole: for every
//! conformance case and for generated (schema, documents) batches, each document is inserted
//! into a collection whose validator is the schema, and the `errInfo` of mongod's write error
//! 121 (`failingDocumentId` and `details`, key for key, in mongod's key order and with mongod's
//! BSON types) must equal `Failure::err_info` for the same bytes; a document mongod stores must
//! pass locally. Needs `MONGODB_URI` (see `scripts/with-mongod.sh`); without it each test says
//! it was skipped and passes.
//!
//! `ERRINFO_CASES=N` sets the number of generated batches (default 40, for CI); a long local
//! run: `ERRINFO_CASES=5000 scripts/with-mongod.sh cargo test -p mongo-schema-driver-tests --all-features
//! --test it -- --nocapture validator_errinfo::`.
//!

#![forbid(unsafe_code)]
// Under bson 3 only, as `validator_differential.rs`: the driver must speak the same major.
#![cfg(feature = "bson-3")]

use mongo_schema_test_support::validator_cases as cases;
use mongo_schema_test_support::validator_gen as gen;

use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;

use mongo_schema::bson::{doc, Bson, Document, RawDocumentBuf};
use mongo_schema::Validator;
use mongodb::sync::{Client, Database};
use proptest::prelude::*;

static COUNTER: AtomicUsize = AtomicUsize::new(0);

fn database(test: &str) -> Option<Database> {
    static CLIENT: OnceLock<Option<Client>> = OnceLock::new();
    let client = CLIENT.get_or_init(|| {
        let uri = std::env::var("MONGODB_URI").ok()?;
        Some(Client::with_uri_str(uri).expect("MONGODB_URI must be a valid connection string"))
    });
    match client {
        Some(client) => Some(client.database("mongo_schema_validator_errinfo")),
        None => {
            let _ = writeln!(std::io::stderr(), "skipped (no MONGODB_URI): {test}");
            None
        }
    }
}

/// `d` as mongod stores it on insert: `_id` first (given `id` when it has none).
fn stored(d: &Document, id: Bson) -> Document {
    let mut out = doc! { "_id": d.get("_id").cloned().unwrap_or(id) };
    out.extend(d.iter().filter(|(k, _)| k.as_str() != "_id").map(|(k, v)| (k.clone(), v.clone())));
    out
}

/// For each of `docs`, the `errInfo` of mongod's write error (`None` when mongod stored the
/// document), or mongod's error when it refuses `schema` as a validator.
fn server_err_infos(db: &Database, schema: &Document, docs: &[Document]) -> Result<Vec<Option<Document>>, String> {
    let name = format!("e{}", COUNTER.fetch_add(1, Ordering::SeqCst));
    db.run_command(doc! { "create": &name, "validator": { "$jsonSchema": schema.clone() } })
        .run()
        .map_err(|e| e.to_string())?;
    let mut out = vec![None; docs.len()];
    // One insert per document: an `_id` repeated across documents must not turn a validation
    // failure into a duplicate key error.
    for (i, d) in docs.iter().enumerate() {
        let reply = db
            .run_command(doc! { "insert": &name, "documents": [d.clone()], "ordered": false })
            .run()
            .map_err(|e| e.to_string())?;
        if let Ok(errors) = reply.get_array("writeErrors") {
            let error = errors[0].as_document().expect("a write error document");
            assert_eq!(error.get_i32("code").ok(), Some(121), "unexpected write error {error}");
            out[i] = Some(error.get_document("errInfo").expect("errInfo").clone());
        }
        db.collection::<Document>(&name).delete_many(doc! {}).run().map_err(|e| e.to_string())?;
    }
    let _ = db.collection::<Document>(&name).drop().run();
    Ok(out)
}

fn bytes(d: &Document) -> Vec<u8> {
    RawDocumentBuf::try_from(d).expect("serializable").into_bytes()
}

fn json(d: &Document) -> String {
    Bson::Document(d.clone()).into_relaxed_extjson().to_string()
}

/// Every difference between mongod's `errInfo` and the local one for `docs` under `schema`.
fn differences(db: &Database, schema: &Document, docs: &[Document]) -> Vec<String> {
    let docs: Vec<Document> =
        docs.iter().enumerate().map(|(i, d)| stored(d, Bson::Int64(1_000_000 + i as i64))).collect();
    let (local, server) = (Validator::new(schema), server_err_infos(db, schema, &docs));
    let (validator, server) = match (local, server) {
        (Err(_), Err(_)) => return Vec::new(),
        (Ok(_), Err(e)) => return vec![format!("mongod refuses {schema} ({e}), local accepts")],
        (Err(e), Ok(_)) => return vec![format!("local refuses {schema} ({e}), mongod accepts")],
        (Ok(validator), Ok(server)) => (validator, server),
    };
    let mut wrong = Vec::new();
    for (d, server) in docs.iter().zip(server) {
        let raw = RawDocumentBuf::try_from(d).expect("serializable");
        let local = match validator.validate_raw(&raw) {
            Ok(()) => None,
            Err(e) => Some(e.failure().expect("well-formed").err_info()),
        };
        let same = match (&local, &server) {
            (Some(l), Some(s)) => bytes(l) == bytes(s),
            (None, None) => true,
            _ => false,
        };
        if !same {
            let show = |e: &Option<Document>| e.as_ref().map_or("passes".to_owned(), json);
            wrong.push(format!(
                "schema {}\n  doc    {}\n  mongod {}\n  local  {}",
                json(schema),
                json(d),
                show(&server),
                show(&local)
            ));
        }
    }
    wrong
}

fn report(wrong: &[String]) {
    assert!(wrong.is_empty(), "{} errInfo differences with mongod:\n{}", wrong.len(), wrong.join("\n"));
}

#[test]
fn conformance_cases_explain_as_mongod_does() {
    let Some(db) = database("conformance_cases_explain_as_mongod_does") else { return };
    let mut wrong = Vec::new();
    let mut rejected = 0;
    for case in cases::cases() {
        let docs: Vec<Document> = case.docs.iter().map(|(d, _)| d.clone()).collect();
        rejected += case.docs.iter().filter(|(_, ok)| !ok).count();
        wrong.extend(differences(&db, &case.schema, &docs).into_iter().map(|w| format!("{}: {w}", case.name)));
    }
    assert!(rejected > 100, "only {rejected} rejected documents");
    report(&wrong);
}

/// Batches of generated schemas and documents; `ERRINFO_CASES` batches (default 40).
#[test]
fn generated_schemas_explain_as_mongod_does() {
    let Some(db) = database("generated_schemas_explain_as_mongod_does") else { return };
    let cases = std::env::var("ERRINFO_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(40);
    let config =
        ProptestConfig { cases, max_shrink_iters: 200, failure_persistence: None, ..ProptestConfig::default() };
    let strategy = (prop::collection::vec(gen::schema(), 4), prop::collection::vec(gen::document(), 8));
    let result = proptest::test_runner::TestRunner::new(config).run(&strategy, |(schemas, docs)| {
        let wrong: Vec<String> = schemas.iter().flat_map(|s| differences(&db, s, &docs)).collect();
        prop_assert!(
            wrong.is_empty(),
            "{} differences, the first:\n{}",
            wrong.len(),
            wrong[..wrong.len().min(3)].join("\n")
        );
        Ok(())
    });
    if let Err(failure) = result {
        panic!("{failure}");
    }
}
