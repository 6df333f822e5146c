//! `schema check --uri` against the dump check, on mongod: for every corpus model, a
//! collection seeded with its valid samples and with documents breaking each declared
//! bound (no validator installed, as legacy data is); the server's selection
//! (`$nor: [{$jsonSchema}]`) explained by the local validator must give the same report,
//! document for document (every failing `_id`, in order, in the same groups), as the local
//! check of the same documents written as a mongodump `.bson` file. `getMore` runs through
//! `Server::run_command` here (the trait's own cursor loop: a batch size of 2 makes it
//! page); the CLI's driver cursor is tested in drivertests' `check_live_mongod`.

#![forbid(unsafe_code)]

use mongo_schema::check::{dry_run, DryRunReport};
use mongo_schema::check::{live_check, LiveCheck};
use mongo_schema::dump;
use mongo_schema::migrate::server::{CommandError, Server};
use mongo_schema::Validator;
use mongo_schema_tests::bson;
use mongo_schema_tests::bson::{doc, oid::ObjectId, Bson, Document, RawDocumentBuf};
use mongo_schema_tests::{roots, violations};

/// Every `_id` of every group: the reports then compare document for document.
const ALL_IDS: usize = usize::MAX;

/// The driver's `run_command` in one explicit session (mongod refuses a `getMore` from
/// another session than the cursor's, code 50738), with `aggregate`'s batches made tiny so
/// the cursor pages.
struct Driver {
    client: mongodb::sync::Client,
    session: mongodb::sync::ClientSession,
}

impl Driver {
    fn new(client: &mongodb::sync::Client) -> Driver {
        Driver { client: client.clone(), session: client.start_session().run().expect("a session") }
    }
}

impl Server for Driver {
    fn run_command(&mut self, db: &str, mut command: Document) -> Result<Document, CommandError> {
        if command.contains_key("aggregate") {
            command.insert("cursor", doc! { "batchSize": 2 });
        } else if command.contains_key("getMore") {
            command.insert("batchSize", 2);
        }
        self.client.database(db).run_command(command).session(&mut self.session).run().map_err(|e| {
            match e.kind.as_ref() {
                mongodb::error::ErrorKind::Command(c) => {
                    CommandError::Refused { code: c.code, message: c.message.clone() }
                }
                _ => CommandError::Driver(std::sync::Arc::new(e)),
            }
        })
    }
}

/// The samples and one document per violation, each with an `_id` of its own (of the
/// sample's kind), so none is lost to a duplicate key.
fn seed_documents(schema: &Document, samples: &[RawDocumentBuf]) -> Vec<Document> {
    let mut next = 1_000_000_i64;
    let mut fresh_id = |document: &mut Document| match document.get("_id") {
        Some(Bson::ObjectId(_)) => {
            document.insert("_id", ObjectId::new());
        }
        Some(Bson::Int64(_)) => {
            next += 1;
            document.insert("_id", next);
        }
        Some(Bson::Int32(_)) => {
            next += 1;
            document.insert("_id", i32::try_from(next).expect("small"));
        }
        _ => {}
    };
    let mut out = Vec::new();
    for sample in samples {
        let sample: Document = bson::deserialize_from_slice(sample.as_bytes()).expect("a sample is a document");
        let mut valid = sample.clone();
        fresh_id(&mut valid);
        out.push(valid);
        for violation in violations::of(schema, &sample) {
            let mut document = violation.document;
            if !violation.what.starts_with("_id") {
                fresh_id(&mut document);
            }
            out.push(document);
        }
    }
    out
}

#[test]
fn the_servers_selection_and_the_local_verdicts_agree_document_for_document() {
    let Ok(uri) = std::env::var("MONGODB_URI") else {
        mongo_schema_tests::skipped("live_check_mongod::the_servers_selection_and_the_local_verdicts_agree");
        return;
    };
    let client = mongodb::sync::Client::with_uri_str(&uri).expect("MONGODB_URI is a connection string");
    let mut server = Driver::new(&client);
    for root in roots() {
        let schema = root.create.get_document("validator").and_then(|v| v.get_document("$jsonSchema"));
        let schema = schema.unwrap_or_else(|_| panic!("{}: no $jsonSchema", root.rust_type)).clone();
        let validator = Validator::new(&schema).expect("the schema compiles");
        let name = format!("{}_live", root.collection);
        let collection = client.database(root.db).collection::<Document>(&name);
        collection.drop().run().expect("drop");
        for document in seed_documents(&schema, &root.samples) {
            // a violation mongod cannot store at all (a duplicate `_id`) is not legacy data
            let _ = collection.insert_one(document).run();
        }

        // the dump: what mongodump writes, the stored documents back to back, in natural order
        let mut bson_file = Vec::new();
        for document in collection.clone_with_type::<RawDocumentBuf>().find(doc! {}).run().expect("find") {
            bson_file.extend_from_slice(document.expect("a stored document").as_bytes());
        }
        let mut from_dump = DryRunReport::new(ALL_IDS);
        dry_run(&validator, dump::from_reader(std::io::Cursor::new(bson_file)).expect("a .bson dump"), &mut from_dump)
            .expect("read");

        let options = LiveCheck { ids: ALL_IDS, ..LiveCheck::default() };
        let live = live_check(&mut server, root.db, &name, &schema, &validator, &options)
            .unwrap_or_else(|e| panic!("{}: {e}", root.rust_type));
        assert!(
            live.admitted_locally.is_empty(),
            "{}: server-only failures {:?}",
            root.rust_type,
            live.admitted_locally
        );
        assert_eq!(live.explained, from_dump.failed, "{}", root.rust_type);
        assert_eq!(live.report, from_dump, "{}: live and dump reports differ", root.rust_type);
        assert!(
            from_dump.failed > 0 && from_dump.failed < from_dump.documents,
            "{}: {} of {} fail: seed both kinds",
            root.rust_type,
            from_dump.failed,
            from_dump.documents
        );
        collection.drop().run().expect("drop");
    }
}

/// `--limit` stops fetching, not counting: the total still comes from the server.
#[test]
fn a_limit_explains_fewer_documents_and_still_counts_them_all() {
    let Ok(uri) = std::env::var("MONGODB_URI") else {
        mongo_schema_tests::skipped("live_check_mongod::a_limit_explains_fewer_documents_and_still_counts_them_all");
        return;
    };
    let client = mongodb::sync::Client::with_uri_str(&uri).expect("MONGODB_URI is a connection string");
    let root = roots().into_iter().next().expect("a corpus model");
    let schema = root.create.get_document("validator").unwrap().get_document("$jsonSchema").unwrap().clone();
    let validator = Validator::new(&schema).unwrap();
    let name = format!("{}_live_limit", root.collection);
    let collection = client.database(root.db).collection::<Document>(&name);
    collection.drop().run().expect("drop");
    for document in seed_documents(&schema, &root.samples) {
        let _ = collection.insert_one(document).run();
    }
    let mut server = Driver::new(&client);
    let all = live_check(&mut server, root.db, &name, &schema, &validator, &LiveCheck { ids: 3, ..Default::default() })
        .expect("live check");
    assert!(all.report.failed > 3, "seed more than the limit: {}", all.report.failed);
    let limited = LiveCheck { ids: 3, limit: Some(2), ..Default::default() };
    let some = live_check(&mut server, root.db, &name, &schema, &validator, &limited).expect("live check");
    assert_eq!((some.explained, some.report.failed, some.failed_at_least), (2, all.report.failed, false));
    assert_eq!(some.report.documents, all.report.documents);

    let sampled = LiveCheck { ids: 3, limit: Some(2), sample: Some(1000) };
    let sample = live_check(&mut server, root.db, &name, &schema, &validator, &sampled).expect("live check");
    assert_eq!((sample.explained, sample.failed_at_least), (2, true));
    assert_eq!(sample.report.documents, all.report.documents, "a sample larger than the collection is all of it");
    collection.drop().run().expect("drop");
}
