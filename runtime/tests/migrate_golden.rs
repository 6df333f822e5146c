//! Golden tests of the generated migrations over an add / change / tighten (expand, then
//! contract) / remove sequence. Every generated script is also syntax-checked with `node --check`.

#![forbid(unsafe_code)]
// The `migrate` module comes with the `cli` feature (writing migrations) or `migrate` (applying them).
#![cfg(any(feature = "cli", feature = "migrate"))]

use mongo_schema_test_support::migrate_models;

use migrate_models::{v1, v2, v3, v3_without_orders};
use mongo_schema::command::ValidationLevel;
use mongo_schema::migrate::{migrate, MigrateOptions, Model, Naming, Written};
use std::path::Path;
use std::process::Command;

/// `NNNN_` names, so the snapshots do not change with the clock.
fn numbered() -> MigrateOptions {
    MigrateOptions { naming: Naming::Sequence, ..MigrateOptions::default() }
}

fn run(dir: &Path, models: &[Model], options: &MigrateOptions) -> Option<Written> {
    migrate(dir, models, options).expect("migrate")
}

/// Snapshots every file a run wrote, named `<step>__<file>`; syntax-checks the scripts.
fn assert_golden(step: &str, written: &Written) {
    for path in &written.files {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(path).unwrap();
        if name.ends_with(".js") {
            node_check(path);
        }
        insta::assert_snapshot!(format!("{step}__{name}"), text);
    }
}

fn node_check(path: &Path) {
    match Command::new("node").arg("--check").arg(path).output() {
        Ok(out) => {
            assert!(out.status.success(), "node --check {}: {}", path.display(), String::from_utf8_lossy(&out.stderr))
        }
        Err(_) => eprintln!("skipped (no node on PATH): node --check {}", path.display()),
    }
}

#[test]
fn add_change_tighten_remove() {
    let dir = tempfile::tempdir().unwrap();
    let options = numbered();
    assert_golden("1_add", &run(dir.path(), &v1(), &options).unwrap());
    assert!(run(dir.path(), &v1(), &options).is_none(), "unchanged models write no migration");
    assert_golden("2_change", &run(dir.path(), &v2(), &options).unwrap());
    assert_golden("3_tighten", &run(dir.path(), &v3(), &options).unwrap());
    assert!(
        run(dir.path(), &v3(), &options).is_none(),
        "the tightening's contract is in its own migration: the snapshot is the models', nothing is left to write"
    );
    assert_golden("4_remove", &run(dir.path(), &v3_without_orders(), &options).unwrap());
    assert!(run(dir.path(), &v3_without_orders(), &options).is_none());
}

#[test]
fn direct_tightening_and_moderate_level() {
    let dir = tempfile::tempdir().unwrap();
    run(dir.path(), &v2(), &numbered()).unwrap();
    let options = MigrateOptions { direct: true, level: Some(ValidationLevel::Moderate), ..numbered() };
    let written = run(dir.path(), &v3(), &options).unwrap();
    assert_golden("direct", &written);
    let names: Vec<_> = written.migration.up.iter().map(|s| s.command.get_str("validationAction").unwrap()).collect();
    assert_eq!(names, ["error", "error"], "--direct enforces at once");
}

#[test]
fn files_are_numbered_after_the_highest_existing_migration() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("0041_hand_written.json"), "{}").unwrap();
    let written = run(dir.path(), &v1(), &numbered()).unwrap();
    assert_eq!(written.migration.name, "0042_create_t_order_and_1_more");
}
