//! The app's committed migrations (a directory of `NNNN_` files, written before timestamped
//! names) applied the way a service does at start: embedded with `migrations!` and run with
//! its own `mongodb::Database`; then read back by the `schema` binary's `status`, both with
//! their default state database, so the CLI and the application keep one record.
#![forbid(unsafe_code)]
#![cfg(feature = "driver")]

use mongo_schema::migrate::apply::{Outcome, DEFAULT_STATE_DB};
use mongo_schema::migrate::Migrator;
use std::path::Path;
use std::process::Command;

/// The app's databases, dropped before and after (test set-up: migrations never drop).
const DATABASES: [&str; 2] = ["db_user_center", "db_order"];

#[test]
fn the_committed_migrations_apply_at_start_and_the_cli_sees_them() {
    let Ok(uri) = std::env::var("MONGODB_URI") else {
        eprintln!("skipped (no MONGODB_URI): the_committed_migrations_apply_at_start_and_the_cli_sees_them");
        return;
    };
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("migrations");
    let embedded: Migrator = mongo_schema::migrations!("migrations");
    let names: Vec<String> = embedded.migrations().iter().map(|m| m.name.clone()).collect();
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let reset = || {
        runtime.block_on(async {
            let client = mongodb::Client::with_uri_str(&uri).await.unwrap();
            for db in DATABASES {
                client.database(db).drop().await.unwrap();
            }
            let records = client.database(DEFAULT_STATE_DB).collection::<mongodb::bson::Document>("t_schema_migration");
            records.delete_many(mongodb::bson::doc! { "migration": { "$in": &names } }).await.unwrap();
        })
    };
    reset();
    let (first, second) = runtime.block_on(async {
        let client = mongodb::Client::with_uri_str(&uri).await.unwrap();
        let db = client.database("db_user_center");
        (embedded.run(&db).await.unwrap(), Migrator::from_dir(&dir).unwrap().run(&db).await.unwrap())
    });
    let applied: Vec<String> = first
        .iter()
        .map(|o| match o {
            Outcome::Applied(name) => name.clone(),
            other => panic!("not applied on a fresh deployment: {other:?}"),
        })
        .collect();
    assert_eq!(applied, names, "every file of the directory is embedded, in order");
    assert_eq!(names.len(), 3, "{names:?}");
    assert!(names.windows(2).all(|w| w[0] < w[1]) && names[0].starts_with("0001_"), "in order: {names:?}");
    // the directory read at run time is the same migrations: recognised as applied
    assert_eq!(second, names.iter().cloned().map(Outcome::AlreadyApplied).collect::<Vec<_>>());

    let output = Command::new(env!("CARGO_BIN_EXE_schema"))
        .args(["status", "--uri", &uri, "--dir", dir.to_str().unwrap()])
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{out}{}", String::from_utf8_lossy(&output.stderr));
    for name in &names {
        assert!(out.contains(&format!("applied  {name}  ")), "{out}");
    }
    assert!(out.ends_with("3 applied, 0 pending, 0 partial, 0 contract pending\n"), "{out}");
    reset();
}
