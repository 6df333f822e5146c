//! The local validator against a real mongod: for every conformance case and for generated
//! (schema, documents) batches, mongod's verdicts (documents inserted into a collection with
//! no validator, then `find({$jsonSchema})` / `$facet` of several `$match: {$jsonSchema}`)
//! must equal the local ones on the exact bytes mongod stored, and mongod must refuse exactly
//! the schemas `Validator::new` refuses. Needs `MONGODB_URI` (see `scripts/with-mongod.sh`);
//! without it each test says it was skipped and passes.

#![forbid(unsafe_code)]
// Under bson 3 only (the validator is the same code under either major): the driver it compares
// with must speak the same major, which the workspace run gets from `mongo-schema-tests/bson-3`.
#![cfg(feature = "bson-3")]

use mongo_schema_test_support::validator_cases as cases;
use mongo_schema_test_support::validator_gen as gen;

use std::io::Write;
use std::sync::OnceLock;

use mongo_schema::bson::{doc, Bson, Document, RawDocumentBuf};
use mongo_schema::Validator;
use mongodb::sync::{Client, Collection, Database};
use proptest::prelude::*;

static COUNTER: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// The test database, or `None` (after saying so on stderr) without `MONGODB_URI`.
fn database(test: &str) -> Option<Database> {
    static CLIENT: OnceLock<Option<Client>> = OnceLock::new();
    let client = CLIENT.get_or_init(|| {
        let uri = std::env::var("MONGODB_URI").ok()?;
        Some(Client::with_uri_str(uri).expect("MONGODB_URI must be a valid connection string"))
    });
    match client {
        Some(client) => Some(client.database("mongo_schema_validator_differential")),
        None => {
            // Straight to the stderr handle: the test harness captures `eprintln!`.
            let _ = writeln!(std::io::stderr(), "skipped (no MONGODB_URI): {test}");
            None
        }
    }
}

/// A fresh collection holding `docs` (each given `_id` = its index unless it has one),
/// returned with the documents exactly as mongod stored them, in `_id` order of insertion.
fn load(db: &Database, docs: &[Document]) -> (Collection<Document>, Vec<RawDocumentBuf>) {
    let name = format!("c{}", COUNTER.fetch_add(1, std::sync::atomic::Ordering::SeqCst));
    let coll = db.collection::<Document>(&name);
    let with_ids: Vec<Document> = docs.iter().enumerate().map(|(i, d)| with_id(d, i)).collect();
    // a server that ran this test before (a developer's own MONGODB_URI) still has the name
    let _ = coll.drop().run();
    if !with_ids.is_empty() {
        coll.insert_many(&with_ids).run().expect("insert");
    }
    let raw = db.collection::<RawDocumentBuf>(&name);
    let stored = raw
        .find(doc! {})
        .sort(doc! { "$natural": 1 })
        .run()
        .expect("find")
        .collect::<Result<Vec<_>, _>>()
        .expect("cursor");
    (coll, stored)
}

fn with_id(d: &Document, i: usize) -> Document {
    if d.contains_key("_id") {
        return d.clone();
    }
    let mut out = doc! { "_id": Bson::Int64(1_000_000 + i as i64) };
    out.extend(d.clone());
    out
}

/// The `_id`s mongod's `$jsonSchema` query matches, or mongod's error if it refuses the schema.
fn server_matches(coll: &Collection<Document>, schema: &Document) -> Result<Vec<Bson>, String> {
    let cursor = coll
        .find(doc! { "$jsonSchema": schema.clone() })
        .projection(doc! { "_id": 1 })
        .run()
        .map_err(|e| e.to_string())?;
    let docs = cursor.collect::<Result<Vec<_>, _>>().map_err(|e| e.to_string())?;
    Ok(docs.into_iter().filter_map(|d| d.get("_id").cloned()).collect())
}

fn id_of(raw: &RawDocumentBuf) -> Bson {
    Document::try_from(raw.as_ref()).unwrap().get("_id").cloned().unwrap_or(Bson::Null)
}

/// Every disagreement between mongod and the local validator for one schema.
fn disagreements(coll: &Collection<Document>, stored: &[RawDocumentBuf], schema: &Document) -> Vec<String> {
    let local = Validator::new(schema);
    let server = server_matches(coll, schema);
    match (local, server) {
        (Err(_), Err(_)) => Vec::new(),
        (Ok(_), Err(e)) => vec![format!("mongod refuses {schema} ({e}), local accepts")],
        (Err(e), Ok(_)) => vec![format!("local refuses {schema} ({e}), mongod accepts")],
        (Ok(validator), Ok(matched)) => stored
            .iter()
            .filter(|raw| validator.validate_raw(raw).is_ok() != matched.contains(&id_of(raw)))
            .map(|raw| {
                format!(
                    "schema {schema}\n  doc {:?}: mongod {}, local {}",
                    Document::try_from(raw.as_ref()).unwrap(),
                    matched.contains(&id_of(raw)),
                    !matched.contains(&id_of(raw))
                )
            })
            .collect(),
    }
}

#[test]
fn conformance_cases_agree_with_mongod() {
    let Some(db) = database("conformance_cases_agree_with_mongod") else { return };
    let mut wrong = Vec::new();
    for case in cases::cases() {
        // Cases reuse explicit `_id`s, so each document gets its own collection when it has one.
        let (plain, explicit): (Vec<Document>, Vec<Document>) =
            case.docs.iter().map(|(d, _)| d.clone()).partition(|d| !d.contains_key("_id"));
        for batch in std::iter::once(plain).chain(explicit.into_iter().map(|d| vec![d])) {
            let (coll, stored) = load(&db, &batch);
            wrong.extend(
                disagreements(&coll, &stored, &case.schema)
                    .into_iter()
                    .map(|w| format!("{} [{}]: {w}", case.name, case.source)),
            );
        }
    }
    assert!(wrong.is_empty(), "{} disagreements with mongod:\n{}", wrong.len(), wrong.join("\n"));
}

#[test]
fn refused_schemas_are_refused_by_mongod() {
    let Some(db) = database("refused_schemas_are_refused_by_mongod") else { return };
    let (coll, stored) = load(&db, &[doc! { "a": 1 }]);
    let wrong: Vec<String> = cases::refused()
        .iter()
        .flat_map(|r| disagreements(&coll, &stored, &r.schema).into_iter().map(move |w| format!("{}: {w}", r.name)))
        .collect();
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// Schemas at the edges of what mongod accepts, where acceptance itself is the question.
#[test]
fn acceptance_edges_agree_with_mongod() {
    let Some(db) = database("acceptance_edges_agree_with_mongod") else { return };
    let (coll, stored) = load(&db, &[doc! { "a": "x", "s_1": 1 }, doc! { "a": 1 }]);
    let edges = [
        doc! { "pattern": "([" },
        doc! { "patternProperties": { "([": {} } },
        doc! { "encryptMetadata": { "algorithm": "AEAD_AES_256_CBC_HMAC_SHA_512-Random" } },
        doc! { "properties": { "a": { "encryptMetadata": {} } } },
        doc! { "encrypt": {} },
        doc! { "properties": { "a": { "encrypt": { "keyId": "/x", "bogus": 1 } } } },
        doc! { "dependencies": { "title": "x" } },
        doc! { "multipleOf": f64::NAN },
        doc! { "properties": { "a": { "maxLength": 2.0, "minItems": mongo_schema::bson::Decimal128::from_bytes([0; 16]) } } },
        doc! { "properties": { "a": { "minLength": 9223372036854775807i64 } } },
        doc! { "properties": { "a": { "minLength": 1e19 } } },
        doc! { "properties": { "a": { "pattern": "\\N{U+0041}" } } },
        doc! { "properties": { "a": { "pattern": "(*LIMIT_MATCH=1)a" } } },
        doc! { "items": [1] },
        doc! { "additionalItems": 1 },
        doc! { "bsonType": "number", "type": "number" },
    ];
    let wrong: Vec<String> = edges.iter().flat_map(|s| disagreements(&coll, &stored, s)).collect();
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// One round trip decides many schemas: a `$facet` with one `$match: {$jsonSchema}` each.
fn facet_matches(coll: &Collection<Document>, schemas: &[Document]) -> Result<Vec<Vec<Bson>>, String> {
    let facets: Document = schemas
        .iter()
        .enumerate()
        .map(|(i, s)| {
            (
                format!("f{i}"),
                Bson::Array(vec![
                    Bson::Document(doc! { "$match": { "$jsonSchema": s.clone() } }),
                    Bson::Document(doc! { "$project": { "_id": 1 } }),
                ]),
            )
        })
        .collect();
    let mut cursor = coll.aggregate(vec![doc! { "$facet": facets }]).run().map_err(|e| e.to_string())?;
    let out = cursor.next().ok_or("no facet result")?.map_err(|e| e.to_string())?;
    let ids = |i: usize| {
        out.get_array(format!("f{i}"))
            .map(|a| a.iter().filter_map(|d| d.as_document()?.get("_id").cloned()).collect())
            .unwrap_or_default()
    };
    Ok((0..schemas.len()).map(ids).collect())
}

fn batch_disagreements(db: &Database, schemas: &[Document], docs: &[Document]) -> Vec<String> {
    let (coll, stored) = load(db, docs);
    let Ok(all) = facet_matches(&coll, schemas) else {
        // Some schema was refused: decide them one by one to find it.
        return schemas.iter().flat_map(|s| disagreements(&coll, &stored, s)).collect();
    };
    let mut wrong = Vec::new();
    for (schema, matched) in schemas.iter().zip(all) {
        let validator = match Validator::new(schema) {
            Ok(v) => v,
            Err(e) => {
                wrong.push(format!("local refuses {schema} ({e}), mongod accepts"));
                continue;
            }
        };
        for raw in &stored {
            let (local, server) = (validator.validate_raw(raw).is_ok(), matched.contains(&id_of(raw)));
            if local != server {
                wrong.push(format!(
                    "schema {schema}\n  doc {:?}: mongod {server}, local {local}",
                    Document::try_from(raw.as_ref()).unwrap()
                ));
            }
        }
    }
    let _ = coll.drop().run();
    wrong
}

// 200 batches x 12 generated schemas x 12 generated documents: every verdict equal to
// mongod's; proptest shrinks a disagreement to a minimal (schema, document) batch.
#[test]
fn generated_schemas_agree_with_mongod() {
    let Some(db) = database("generated_schemas_agree_with_mongod") else { return };
    let config =
        ProptestConfig { cases: 200, max_shrink_iters: 300, failure_persistence: None, ..ProptestConfig::default() };
    let strategy = (prop::collection::vec(gen::schema(), 12), prop::collection::vec(gen::document(), 12));
    let result = proptest::test_runner::TestRunner::new(config).run(&strategy, |(schemas, docs)| {
        let wrong = batch_disagreements(&db, &schemas, &docs);
        prop_assert!(wrong.is_empty(), "{}", wrong.join("\n"));
        Ok(())
    });
    if let Err(failure) = result {
        panic!("{failure}");
    }
}

// Fuzz regression (crash-62070af3): repeated field names in raw BSON. mongod must agree that
// `properties` judges the first occurrence.
#[test]
fn repeated_field_names_agree_with_mongod() {
    let Some(db) = database("repeated_field_names_agree_with_mongod") else { return };
    let schema = doc! { "properties": { "n": { "bsonType": "double" } } };
    let validator = Validator::new(&schema).unwrap();
    let name = format!("dup{}", COUNTER.fetch_add(1, std::sync::atomic::Ordering::SeqCst));
    let raw = db.collection::<RawDocumentBuf>(&name);
    let mut wrong = Vec::new();
    for (i, (first, second)) in
        [(Bson::Double(3.0), Bson::String("x".into())), (Bson::String("x".into()), Bson::Double(3.0))]
            .into_iter()
            .enumerate()
    {
        let mut buf = RawDocumentBuf::new();
        buf.append(mongo_schema::bson::raw::cstr!("_id"), i as i32);
        buf.append(mongo_schema::bson::raw::cstr!("n"), mongo_schema::bson::RawBson::try_from(first).unwrap());
        buf.append(mongo_schema::bson::raw::cstr!("n"), mongo_schema::bson::RawBson::try_from(second).unwrap());
        raw.insert_one(&buf).run().expect("insert");
        let server = raw.find(doc! { "_id": i as i32, "$jsonSchema": schema.clone() }).run().unwrap().count() == 1;
        if server != validator.validate_raw(&buf).is_ok() {
            wrong.push(format!("doc #{i}: mongod {server}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
