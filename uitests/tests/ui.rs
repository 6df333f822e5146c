//! Compile-fail UI tests of the modelling rules: one folder per rule id, one mistake per
//! file (plus `several/`, `waivers/` and `attributes/`), each with its reviewed `.stderr`.
//! Regenerate with `TRYBUILD=overwrite cargo test -p mongo-schema-ui --features bson-3` on the
//! pinned toolchain, then read every diff.

#![forbid(unsafe_code)]

// The cases name `bson::` (bson 3, a dependency of this crate) and the snapshots hold rustc's
// words about those types: they run under bson 3 (`--all-features`) only.
#[test]
#[cfg_attr(not(feature = "bson-3"), ignore = "the UI snapshots run under bson 3 (`--features mongo-schema-ui/bson-3`)")]
fn ui() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("ui/*/*.rs");
}
