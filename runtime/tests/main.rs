//! mongo-schema's integration tests: one test binary (`it`), each file of this directory a
//! module of it, so that a change links one binary, not one per file (Cargo.toml:
//! `autotests = false`). The files that need the local validator are gated on the feature, as
//! `required-features` gated their binaries. What other packages' tests share with these is in
//! mongo-schema-test-support (testsupport/); what only these share is below (`support`,
//! `check_models`). A test that needs a process of its own says so and spawns one.

mod check_models;
mod support;

#[cfg(feature = "validator")]
mod bson_majors;
mod check_dump;
mod check_fix_mongod;
mod check_inputs;
mod cli_commands;
mod drift_mongod;
mod layers;
mod migrate_apply;
mod migrate_changes_mongod;
mod migrate_dump;
mod migrate_golden;
mod migrate_injection;
mod migrate_mongod;
mod migrate_mongosh;
mod migrate_workflow;
mod tls_mongod;
#[cfg(feature = "validator")]
mod update_check;
mod upsert_mongod;
#[cfg(feature = "validator")]
mod validator_alloc;
#[cfg(feature = "validator")]
mod validator_conformance;
#[cfg(feature = "validator")]
mod validator_properties;
#[cfg(feature = "validator")]
mod validator_scaling;

/// No file of this directory is left out of the binary (with `autotests = false`, a file no
/// `mod` names would never be compiled).
#[test]
fn every_file_is_a_module() {
    mongo_schema_test_support::assert_every_file_is_a_module(env!("CARGO_MANIFEST_DIR"));
}
