//! `apply` and `drift` against the real mongod `scripts/with-mongod.sh` starts
//! (`MONGODB_URI`): applying twice, and a tightening over violating documents in its two
//! phases (the expand admits what the previous release still writes; the contract's gate
//! refuses to enforce while stored documents fail, and enforces once they are fixed).
//! Without `MONGODB_URI` each test says it was skipped and passes.
#![forbid(unsafe_code)]
#![cfg(feature = "driver")]

use mongo_schema_test_support::migrate_models;

use migrate_models::{apply_all, v1, v3};
use mongo_schema::bson::{doc, oid::ObjectId, Document};
use mongo_schema::migrate::apply::{apply, status, ApplyError, Outcome};
use mongo_schema::migrate::drift::{drift, DriftStatus};
use mongo_schema::migrate::driver::MongoServer;
use mongo_schema::migrate::file::MigrationFile;
use mongo_schema::migrate::record::State;
use mongo_schema::migrate::server::Server;
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
    // the collections did not exist: their contract ran with the expand, nothing is pending
    let first = apply(&mut server, &files(dir.path()), "db_schema_twice").unwrap();
    assert_eq!(first, [Outcome::Applied(name.clone())]);
    let again = apply(&mut server, &files(dir.path()), "db_schema_twice").unwrap();
    assert_eq!(again, [Outcome::AlreadyApplied(name.clone())]);
    let second = apply_all(&mut server, &files(dir.path()), "db_schema_twice").unwrap();
    assert_eq!(second, [Outcome::AlreadyApplied(name)]);
    let report = drift(&mut server, &v1()).unwrap();
    assert!(report.iter().all(|(_, s)| *s == DriftStatus::InSync), "{report:?}");
}

#[test]
fn a_tightening_admits_both_releases_then_enforces_only_over_fixed_documents() {
    let test = "a_tightening_admits_both_releases_then_enforces_only_over_fixed_documents";
    let _shop = SHOP.lock().unwrap_or_else(|e| e.into_inner());
    let Some(mut server) = server(test) else { return };
    reset(&mut server, "db_schema_staged");
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), &v1());
    apply_all(&mut server, &files(dir.path()), "db_schema_staged").unwrap();
    let legacy = user("Ada", None);
    insert(&mut server, legacy.clone()).expect("valid under v1");

    // v3 requires `email`: the expand, while the previous release (no email) still writes
    assert_eq!(write(dir.path(), &v3()), "0002_tighten_t_user");
    let expanded = apply(&mut server, &files(dir.path()), "db_schema_staged").unwrap();
    assert_eq!(expanded[1], Outcome::ContractPending { name: "0002_tighten_t_user".into(), done: 1, steps: 2 });
    insert(&mut server, user("Bo", None)).expect("the previous release's document is accepted");
    insert(&mut server, user("Di", Some("di@example.com"))).expect("this release's document is accepted");
    let mut bad = user("Ed", Some("ed@example.com"));
    bad.insert("status", "bogus");
    assert_eq!(insert(&mut server, bad), Err("121".to_owned()), "what neither release writes is still refused");
    let lines = status(&mut server, &files(dir.path()), "db_schema_staged").unwrap();
    assert_eq!(lines[1].state, Some(State::ContractPending { done: 1, steps: 2 }));
    assert!(matches!(&drift(&mut server, &v3()).unwrap()[1].1, DriftStatus::Differs(_)), "the union is not the model");

    // the contract: refused while Ada and Bo lack `email`, counted by the server
    let err = apply_all(&mut server, &files(dir.path()), "db_schema_staged").unwrap_err();
    let ApplyError::Migration { migration, message, .. } = &err else { panic!("{err:?}") };
    assert_eq!(migration, "0002_tighten_t_user");
    assert!(message.contains("and 2 of 3 documents of db_shop.t_user fail it"), "{err}");
    assert!(!err.is_deployment_error());
    insert(&mut server, user("Fy", None)).expect("nothing was enforced");
    let fix = doc! { "update": "t_user", "updates": [{ "q": { "email": { "$exists": false } }, "u": { "$set": { "email": "unknown@example.com" } }, "multi": true }] };
    assert_eq!(server.run_command("db_shop", fix).unwrap().get_i32("n").unwrap(), 3);
    let done = apply_all(&mut server, &files(dir.path()), "db_schema_staged").unwrap();
    assert_eq!(done[1], Outcome::Resumed { name: "0002_tighten_t_user".into(), done: 1 });
    assert_eq!(insert(&mut server, user("Cy", None)), Err("121".to_owned()), "enforced: DocumentValidationFailure");
    insert(&mut server, user("Gu", Some("gu@example.com"))).expect("a valid document is accepted");
    let update = doc! { "update": "t_user", "updates": [{ "q": { "_id": legacy.get_object_id("_id").unwrap() }, "u": { "$set": { "status": "closed" } } }] };
    let reply = server.run_command("db_shop", update).unwrap();
    assert!(reply.get_array("writeErrors").is_err(), "the fixed legacy document updates: {reply}");
    assert!(drift(&mut server, &v3()).unwrap().iter().all(|(_, s)| *s == DriftStatus::InSync));

    // a document failing the enforced validator (written around it) makes drift say so
    let sneak = doc! { "insert": "t_user", "documents": [user("Hal", None)], "bypassDocumentValidation": true };
    server.run_command("db_shop", sneak).unwrap();
    let DriftStatus::Differs(lines) = &drift(&mut server, &v3()).unwrap()[1].1 else { panic!("not clean") };
    assert!(lines[0].starts_with("documents: 1 of 6 fail the enforced validator"), "{lines:?}");
}
