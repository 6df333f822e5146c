//! What the integration tests of mongo-schema's packages share, each module named for what it
//! holds (the tests that use it say `use mongo_schema_test_support::migrate_models;`). Every
//! BSON value is `mongo_schema::bson`: the major the build picked.
#![forbid(unsafe_code)]

pub mod hostile_shapes;
pub mod legacy_db;
#[cfg(feature = "cli")]
pub mod migrate_models;
#[cfg(feature = "cli")]
pub mod rehearsal;
#[cfg(feature = "proptest")]
pub mod updates;
#[cfg(feature = "validator")]
pub mod validator_cases;
#[cfg(feature = "proptest")]
pub mod validator_gen;
pub mod validator_orders;

/// The seeded generators, for the tests that depend on this crate alone.
pub use mongo_schema_test_rng::{xorshift, XorShiftStar};

/// Every `.rs` file directly in `<manifest_dir>/tests` but `main.rs` is declared as a module of
/// `tests/main.rs` (`mod name;`, gated or not): a package whose tests are one binary sets
/// `autotests = false`, and a file no `mod` names would then never be compiled or run. Panics
/// naming the files left out.
pub fn assert_every_file_is_a_module(manifest_dir: &str) {
    let dir = std::path::Path::new(manifest_dir).join("tests");
    let main = std::fs::read_to_string(dir.join("main.rs")).expect("tests/main.rs");
    let declared: Vec<&str> =
        main.lines().filter_map(|l| l.trim().strip_prefix("mod ").and_then(|l| l.strip_suffix(';'))).collect();
    let mut left_out: Vec<String> = std::fs::read_dir(&dir)
        .expect("the tests directory")
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
        .filter_map(|p| p.file_stem().and_then(|s| s.to_str()).map(str::to_owned))
        .filter(|stem| stem != "main" && !declared.contains(&stem.as_str()))
        .collect();
    left_out.sort();
    assert!(
        left_out.is_empty(),
        "files of {} that tests/main.rs does not name with `mod`: {left_out:?}",
        dir.display()
    );
}

/// The name libtest gives the test `test` of the module `module_path` (its `module_path!()`):
/// the path without the crate's name (`it::migrate_deploy_mongod` and `child` give
/// `migrate_deploy_mongod::child`). For a test that starts this binary again to run one of its
/// own tests with `--exact` (a child process it kills, or whose `exit` it reads).
pub fn test_name(module_path: &str, test: &str) -> String {
    match module_path.split_once("::") {
        Some((_, module)) => format!("{module}::{test}"),
        None => test.to_owned(),
    }
}

/// For a test that must be alone in its process (it sets the process's tracing subscriber and
/// reads every event): `true` in the process where it is to run. Otherwise it starts the test
/// binary again with only this test (`--exact`), waits for it, fails with its output if it
/// failed, and returns `false`. The child's stderr is this process's, so what it says there
/// (a skip) shows as any test's would.
pub fn alone_in_process(module_path: &str, test: &str) -> bool {
    const ALONE: &str = "MONGO_SCHEMA_TEST_ALONE";
    let name = test_name(module_path, test);
    if std::env::var(ALONE).is_ok_and(|alone| alone == name) {
        return true;
    }
    let out = std::process::Command::new(std::env::current_exe().expect("the test binary"))
        .args([name.as_str(), "--exact", "--nocapture", "--test-threads", "1"])
        .env(ALONE, &name)
        .stderr(std::process::Stdio::inherit())
        .output()
        .expect("the test binary starts");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{name}, alone in a process, failed:\n{stdout}");
    assert!(stdout.contains("1 passed"), "{name} did not run in its process:\n{stdout}");
    false
}
