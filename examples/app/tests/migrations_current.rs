//! The migrations committed beside the app are current: running `migrate` over them
//! would write nothing. A model change without its migration fails here.

#![forbid(unsafe_code)]

use mongo_schema::migrate::{registered_models, MigrateOptions, Snapshot, SNAPSHOT_FILE};
use mongo_schema_example_app as _;
use std::path::Path;

#[test]
fn committed_migrations_match_the_models() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("migrations").join(SNAPSHOT_FILE);
    let snapshot = Snapshot::from_json(&std::fs::read_to_string(path).unwrap()).unwrap();
    let models = registered_models();
    assert_eq!(models.len(), 3, "Customer, Order and OrderRefund register themselves");
    let next = snapshot.next_migration(&models, &MigrateOptions::default()).unwrap();
    let pending = next.map(|m| m.up_js()).unwrap_or_default();
    assert!(pending.is_empty(), "models changed without a migration; run\n  cargo run -p mongo-schema-example-app --bin schema -- migrate --dir examples/app/migrations\nto write:\n{pending}");
}

/// CI's guard for data steps: every data step of the embedded migrations (`migrations!`, as
/// the service applies them at start) rehearsed over documents of every shape the models
/// admit, under the validator in force when it runs: none would be refused, none is left
/// unjudged. (This app has no data migration yet: add one, and this test holds it to that.)
#[cfg(feature = "driver")]
#[test]
fn the_embedded_migrations_data_steps_pass_the_rehearsal() {
    use mongo_schema::simulate::{rehearse_release, Samples};
    let embedded = mongo_schema::migrations!("migrations");
    let rehearsal = rehearse_release(embedded.migrations(), &Samples::default());
    let found: Vec<String> = rehearsal.findings.iter().map(|f| f.render()).collect();
    assert!(found.is_empty(), "{}", found.join(""));
}
