//! `apply` and `drift` against the real mongod `scripts/with-mongod.sh` starts
//! (`MONGODB_URI`): applying twice, and a tightening staged over violating documents
//! (what `warn`, then `error`, do with them). Without `MONGODB_URI` each test says it
//! was skipped and passes.
#![forbid(unsafe_code)]
#![cfg(feature = "driver")]

mod migrate_models;

use migrate_models::{v1, v3};
use mongo_schema::bson::{doc, oid::ObjectId, Document};
use mongo_schema::migrate::apply::{apply, drift, DriftStatus, MigrationFile, Outcome, Server};
use mongo_schema::migrate::driver::MongoServer;
use mongo_schema::migrate::{migrate, pending, MigrateOptions, Model, Naming};
use std::path::Path;
use std::sync::Mutex;

/// The tests share db_shop: one at a time.
static SHOP: Mutex<()> = Mutex::new(());

fn server(name: &str) -> Option<MongoServer> {
    match std::env::var("MONGODB_URI") {
        Ok(uri) => Some(MongoServer::connect(&uri).expect("connect")),
        Err(_) => {
            eprintln!("skipped (no MONGODB_URI): {name}");
            None
        }
    }
}

/// A fresh db_shop and state database (test set-up; migrations themselves never drop).
fn reset(server: &mut MongoServer, state_db: &str) {
    for db in ["db_shop", state_db] {
        server.run_command(db, doc! { "dropDatabase": 1 }).unwrap();
    }
}

fn files(dir: &Path) -> Vec<MigrationFile> {
    pending(dir).unwrap().iter().map(|p| MigrationFile::read(p).unwrap()).collect()
}

fn write(dir: &Path, models: &[Model]) -> String {
    migrate(dir, models, &MigrateOptions { naming: Naming::Sequence, ..MigrateOptions::default() })
        .unwrap()
        .expect("a migration")
        .migration
        .name
}

fn insert(server: &mut MongoServer, doc: Document) -> Result<(), String> {
    let reply =
        server.run_command("db_shop", doc! { "insert": "t_user", "documents": [doc] }).map_err(|e| e.to_string())?;
    match reply.get_array("writeErrors") {
        Ok(errors) => Err(errors[0].as_document().unwrap().get_i32("code").unwrap().to_string()),
        Err(_) => Ok(()),
    }
}

fn user(name: &str, email: Option<&str>) -> Document {
    let mut d = doc! { "_id": ObjectId::new(), "userName": name, "status": "active" };
    if let Some(email) = email {
        d.insert("email", email);
    }
    d
}

#[test]
fn apply_twice_the_second_run_is_a_no_op() {
    let _shop = SHOP.lock().unwrap_or_else(|e| e.into_inner());
    let Some(mut server) = server("apply_twice_the_second_run_is_a_no_op") else { return };
    reset(&mut server, "db_schema_twice");
    let dir = tempfile::tempdir().unwrap();
    let name = write(dir.path(), &v1());
    let first = apply(&mut server, &files(dir.path()), "db_schema_twice").unwrap();
    assert_eq!(first, [Outcome::Applied(name.clone())]);
    let second = apply(&mut server, &files(dir.path()), "db_schema_twice").unwrap();
    assert_eq!(second, [Outcome::AlreadyApplied(name)]);
    let report = drift(&mut server, &v1()).unwrap();
    assert!(report.iter().all(|(_, s)| *s == DriftStatus::InSync), "{report:?}");
}

#[test]
fn a_staged_tightening_warns_then_errors_over_violating_documents() {
    let _shop = SHOP.lock().unwrap_or_else(|e| e.into_inner());
    let Some(mut server) = server("a_staged_tightening_warns_then_errors_over_violating_documents") else { return };
    reset(&mut server, "db_schema_staged");
    let dir = tempfile::tempdir().unwrap();
    let run = |server: &mut MongoServer| apply(server, &files(dir.path()), "db_schema_staged").unwrap();
    write(dir.path(), &v1());
    run(&mut server);
    let legacy = user("Ada", None);
    insert(&mut server, legacy.clone()).expect("valid under v1");

    assert_eq!(write(dir.path(), &v3()), "0002_tighten_t_user");
    run(&mut server);
    insert(&mut server, user("Bo", None)).expect("warn: a document without email is accepted (and logged)");
    assert!(
        matches!(&drift(&mut server, &v3()).unwrap()[1].1, DriftStatus::Differs(lines) if lines == &["validationAction: deployed warn, code error"])
    );

    assert_eq!(write(dir.path(), &v3()), "0003_enforce_t_user");
    run(&mut server);
    assert_eq!(insert(&mut server, user("Cy", None)), Err("121".to_owned()), "error: DocumentValidationFailure");
    insert(&mut server, user("Di", Some("di@example.com"))).expect("a valid document is accepted");
    let update = doc! { "update": "t_user", "updates": [{ "q": { "_id": legacy.get_object_id("_id").unwrap() }, "u": { "$set": { "status": "closed" } } }] };
    let reply = server.run_command("db_shop", update).unwrap();
    assert_eq!(
        reply.get_array("writeErrors").unwrap()[0].as_document().unwrap().get_i32("code").unwrap(),
        121,
        "strict level: updating a legacy violator fails until it is fixed"
    );
    assert!(drift(&mut server, &v3()).unwrap().iter().all(|(_, s)| *s == DriftStatus::InSync));
}
