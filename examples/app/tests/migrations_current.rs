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
