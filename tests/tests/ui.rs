//! Compile-fail UI tests of the modelling rules: one folder per rule id, one mistake per
//! file (plus `several/`, `waivers/` and `attributes/`), each with its reviewed `.stderr`.
//! Regenerate with `TRYBUILD=overwrite cargo test -p mongo-schema-tests --test ui` on the
//! pinned toolchain, then read every diff.

#![forbid(unsafe_code)]

#[test]
fn ui() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("ui/*/*.rs");
}
