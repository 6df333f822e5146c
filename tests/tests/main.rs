//! The suite over the test models: one test binary (`it`), each file of this directory a
//! module of it (Cargo.toml: `autotests = false`); `support` holds what the mongod tests
//! share (the client of `MONGODB_URI`, refusal codes, the index models).

#![forbid(unsafe_code)]

mod support;

mod agreement;
mod collection_count;
mod errinfo_mongod;
mod index_change_mongod;
mod index_options_mongod;
mod items_mongod;
mod live_check_mongod;
mod mongod;
mod nullable;
mod numbers;
mod options_migrate;
mod options_mongod;
mod options_pass;
mod paths;
mod paths_mongod;
mod policy;
mod poly_mongod;
mod query_mongod;
mod rename_note;
mod renamed_from;
mod rules_doc;
mod rules_pass;
mod shard_migrate;
mod size_mongod;
mod snapshots;
mod validator_models;

/// No file of this directory is left out of the binary (with `autotests = false`, a file no
/// `mod` names would never be compiled).
#[test]
fn every_file_is_a_module() {
    mongo_schema_test_support::assert_every_file_is_a_module(env!("CARGO_MANIFEST_DIR"));
}
