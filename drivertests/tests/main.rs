//! mongo-schema's tests that drive a deployment through the official driver: one test binary
//! (`it`), each file of this directory a module of it (Cargo.toml: `autotests = false`). The
//! helpers they share with runtime's tests are mongo-schema-test-support's (testsupport/).
//! The deploy tests that need processes of their own spawn this binary again, naming the
//! child test by its path in the binary.

#![forbid(unsafe_code)]

/// The `--auth` deployment's user can write `db_app` only, and the tests that keep migration
/// records there (migrate_workflow_mongod, migrate_deploy_mongod) take turns: one binary runs
/// them side by side.
static DB_APP: std::sync::Mutex<()> = std::sync::Mutex::new(());

mod check_live_mongod;
mod infer_legacy;
mod migrate_deploy_mongod;
mod migrate_workflow_mongod;
mod query_plan_mongod;
mod review_fake;
mod review_mongod;
mod rolling_deploy_mongod;
mod update_mongod;
mod update_pipeline_mongod;
mod validator_differential;
mod validator_errinfo;
mod validator_hostile_bench;

/// No file of this directory is left out of the binary (with `autotests = false`, a file no
/// `mod` names would never be compiled).
#[test]
fn every_file_is_a_module() {
    mongo_schema_test_support::assert_every_file_is_a_module(env!("CARGO_MANIFEST_DIR"));
}
