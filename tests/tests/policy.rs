//! The crate policy end to end: a small crate with its own `Cargo.toml` is checked, its
//! `[package.metadata.mongo-schema]` table is edited, and the next `cargo check` must
//! rebuild and reach the new verdict. (UI tests cannot set a crate's metadata; the
//! policy's parsing and each key's effect are unit-tested in `macros/src/policy.rs` and
//! `macros/src/rules/`.)

use std::path::{Path, PathBuf};
use std::process::Command;

const MODEL: &str = r#"
use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, MongoSchema)]
#[mongo(db = "shop", collection = "t_order")]
pub struct Order {
    #[serde(rename = "_id")]
    pub id: i64,
    pub un: String,
}
"#;

fn manifest(policy: &str) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let runtime = root.join("runtime");
    format!(
        r#"[package]
name = "policy-probe"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
mongo-schema = {{ path = {runtime:?} }}
serde = {{ version = "1", features = ["derive"] }}

[workspace]
{policy}"#
    )
}

/// `cargo check` of the probe crate: (success, stderr).
fn check(dir: &Path) -> (bool, String) {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let output = Command::new(cargo)
        .args(["check", "--offline", "--quiet", "--message-format=short"])
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", dir.join("target"))
        .env_remove("RUSTFLAGS")
        .output()
        .expect("cargo runs");
    (output.status.success(), String::from_utf8_lossy(&output.stderr).into_owned())
}

fn write(path: &Path, text: &str) {
    std::fs::write(path, text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
}

#[test]
fn editing_the_policy_rebuilds_and_changes_the_verdicts() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("policy-probe");
    std::fs::create_dir_all(dir.join("src")).unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    // the workspace's versions, so the probe builds offline with what is already fetched
    std::fs::copy(root.join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();
    write(&dir.join("src/lib.rs"), MODEL);

    // 1. the crate's conventions: no database prefix, `un` a known short name
    let relaxed = "\n[package.metadata.mongo-schema]\ndb_prefix = \"\"\nshort_names = [\"un\"]\n";
    write(&dir.join("Cargo.toml"), &manifest(relaxed));
    let (ok, stderr) = check(&dir);
    assert!(ok, "the policy allows `shop` and `un`:\n{stderr}");

    // 2. the table removed: nothing else changed, so only a tracked manifest rebuilds
    std::thread::sleep(std::time::Duration::from_millis(1100));
    write(&dir.join("Cargo.toml"), &manifest(""));
    let (ok, stderr) = check(&dir);
    assert!(!ok, "the standard refuses `shop` and `un`, so the crate must be rebuilt:\n{stderr}");
    assert!(stderr.contains("db_name: database name `shop` should be `db_` + lowercase"), "{stderr}");
    assert!(stderr.contains("field_name: field `un` looks like a meaningless abbreviation"), "{stderr}");

    // 3. a crate-wide waiver of one rule
    let waiver = "\n[package.metadata.mongo-schema]\nshort_names = [\"un\"]\nallow = [{ rule = \"db_name\", reason = \"the shop database predates the standard\" }]\n";
    write(&dir.join("Cargo.toml"), &manifest(waiver));
    let (ok, stderr) = check(&dir);
    assert!(ok, "db_name is waived crate-wide:\n{stderr}");

    // 4. a mistake in the table is an error that says what to write
    let wrong = "\n[package.metadata.mongo-schema]\nallow = [{ rule = \"document_size\", reason = \"big\" }]\n";
    write(&dir.join("Cargo.toml"), &manifest(wrong));
    let (ok, stderr) = check(&dir);
    assert!(!ok, "{stderr}");
    assert!(
        stderr.contains(
            "Cargo.toml [package.metadata.mongo-schema]: `allow` waives `document_size`, which cannot be waived"
        ),
        "{stderr}"
    );
}
