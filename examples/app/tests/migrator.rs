//! The app's committed migrations (a directory of `NNNN_` files, written before timestamped
//! names) applied the way a service does at start: `Migrator::run` with its own
//! `mongodb::Database`; then read back by the `schema` binary's `status`.
#![forbid(unsafe_code)]
#![cfg(feature = "driver")]

use mongo_schema::migrate::apply::Outcome;
use mongo_schema::migrate::Migrator;
use std::path::Path;
use std::process::Command;

/// The database the records go to (the app's own would do; this one is dropped after).
const STATE_DB: &str = "db_example_app_state";

#[test]
fn the_committed_migrations_apply_at_start_and_the_cli_sees_them() {
    let Ok(uri) = std::env::var("MONGODB_URI") else {
        eprintln!("skipped (no MONGODB_URI): the_committed_migrations_apply_at_start_and_the_cli_sees_them");
        return;
    };
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("migrations");
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let (first, second) = runtime.block_on(async {
        let client = mongodb::Client::with_uri_str(&uri).await.unwrap();
        // test set-up: the app's databases from scratch (migrations themselves never drop)
        for db in ["db_user_center", "db_order", STATE_DB] {
            client.database(db).drop().await.unwrap();
        }
        let db = client.database(STATE_DB);
        let migrator = Migrator::from_dir(&dir).unwrap();
        (migrator.run(&db).await.unwrap(), migrator.run(&db).await.unwrap())
    });
    let names: Vec<String> = first
        .iter()
        .map(|o| match o {
            Outcome::Applied(name) => name.clone(),
            other => panic!("not applied on a fresh deployment: {other:?}"),
        })
        .collect();
    assert_eq!(names.len(), 3, "{names:?}");
    assert!(names.windows(2).all(|w| w[0] < w[1]) && names[0].starts_with("0001_"), "in order: {names:?}");
    assert_eq!(second, names.iter().cloned().map(Outcome::AlreadyApplied).collect::<Vec<_>>());

    let output = Command::new(env!("CARGO_BIN_EXE_schema"))
        .args(["status", "--uri", &uri, "--dir", dir.to_str().unwrap(), "--state-db", STATE_DB])
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{out}{}", String::from_utf8_lossy(&output.stderr));
    for name in &names {
        assert!(out.contains(&format!("applied  {name}  ")), "{out}");
    }
    assert!(out.ends_with("3 applied, 0 pending, 0 partial\n"), "{out}");
    runtime.block_on(async {
        let client = mongodb::Client::with_uri_str(&uri).await.unwrap();
        for db in ["db_user_center", "db_order", STATE_DB] {
            client.database(db).drop().await.unwrap();
        }
    });
}
