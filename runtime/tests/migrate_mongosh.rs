//! Generated scripts run by a real mongosh against the test mongod: the up script twice
//! (the second create falls back to collMod), then the down script restores the previous
//! validator. mongosh comes from `$MONGOSH`, `.cache/npm` (`npm install mongosh`) or
//! PATH; without it or without `MONGODB_URI` the test says it was skipped and passes.
#![forbid(unsafe_code)]
#![cfg(feature = "driver")]

use mongo_schema_test_support::migrate_models;

use migrate_models::{v1, v3};
use mongo_schema::bson::doc;
use mongo_schema::migrate::drift::{drift, DriftStatus};
use mongo_schema::migrate::driver::MongoServer;
use mongo_schema::migrate::server::Server;
use mongo_schema::migrate::{migrate, MigrateOptions};
use std::path::Path;
use std::process::Command;

use crate::support;
use support::mongosh;

/// `mongosh URI [--eval EVAL] SCRIPT`, which must succeed; its output.
fn run_script_with(mongosh: &Path, uri: &str, eval: Option<&str>, script: &Path) -> String {
    let mut command = Command::new(mongosh);
    command.args(["--quiet", uri]);
    if let Some(eval) = eval {
        command.args(["--eval", eval]);
    }
    let out = command.arg(script).output().unwrap();
    assert!(
        out.status.success(),
        "mongosh {}: {}{}",
        script.display(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn run_script(mongosh: &Path, uri: &str, script: &Path) -> String {
    run_script_with(mongosh, uri, None, script)
}

#[test]
fn mongosh_runs_the_generated_scripts() {
    let name = "mongosh_runs_the_generated_scripts";
    let (Ok(uri), Some(mongosh)) = (std::env::var("MONGODB_URI"), mongosh()) else {
        eprintln!("skipped (no MONGODB_URI or no mongosh): {name}");
        return;
    };
    let mut server = MongoServer::connect(&uri).unwrap();
    server.run_command("db_shell", doc! { "dropDatabase": 1 }).unwrap();
    let shell = |models: Vec<mongo_schema::migrate::Model>| {
        models
            .into_iter()
            .map(|mut m| {
                m.db = "db_shell".into();
                m
            })
            .collect::<Vec<_>>()
    };
    let dir = tempfile::tempdir().unwrap();
    let first = migrate(dir.path(), &shell(v1()), &MigrateOptions::default()).unwrap().unwrap();
    let out = run_script(&mongosh, &uri, &first.files[0]);
    assert!(out.contains("expanded; the contract waits"), "{out}");
    assert!(drift(&mut server, &shell(v1())).unwrap().iter().all(|(_, s)| *s == DriftStatus::InSync), "created");
    // run again, the collections exist: adopted under warn until the contract enforces
    run_script(&mongosh, &uri, &first.files[0]);
    assert!(drift(&mut server, &shell(v1())).unwrap().iter().all(|(_, s)| *s != DriftStatus::InSync), "adopted");
    run_script_with(&mongosh, &uri, Some("var contract = true"), &first.files[0]);
    assert!(drift(&mut server, &shell(v1())).unwrap().iter().all(|(_, s)| *s == DriftStatus::InSync), "enforced");
    // the contract's gate: a document failing the validator stops the script before enforcing
    let legacy = doc! { "insert": "t_user", "documents": [{ "userName": 7 }], "bypassDocumentValidation": true };
    server.run_command("db_shell", legacy).unwrap();
    let out = Command::new(&mongosh)
        .args(["--quiet", &uri, "--eval", "var contract = true"])
        .arg(&first.files[0])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr).into_owned() + &String::from_utf8_lossy(&out.stdout);
    assert!(
        !out.status.success() && err.contains("1 of 1 documents fail the validator the next step enforces"),
        "{err}"
    );
    server.run_command("db_shell", doc! { "delete": "t_user", "deletes": [{ "q": {}, "limit": 0 }] }).unwrap();
    let second = migrate(dir.path(), &shell(v3()), &MigrateOptions { direct: true, ..MigrateOptions::default() })
        .unwrap()
        .unwrap();
    run_script(&mongosh, &uri, &second.files[0]);
    assert!(drift(&mut server, &shell(v3())).unwrap().iter().all(|(_, s)| *s == DriftStatus::InSync));
    run_script(&mongosh, &uri, &second.files[1]);
    assert!(
        drift(&mut server, &shell(v1())).unwrap().iter().all(|(_, s)| *s == DriftStatus::InSync),
        "down restores v1"
    );
}
