//! The `schema` binary never prints the password of a connection string: not in `--help`
//! (clap shows `env` values by default), not in usage errors, not in driver errors.
#![forbid(unsafe_code)]
#![cfg(feature = "driver")]

use std::process::{Command, Output};

const PASSWORD: &str = "s3cret-pw";

fn schema(args: &[&str], uri_env: Option<&str>) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_schema"));
    command.args(args).env_remove("MONGODB_URI");
    if let Some(uri) = uri_env {
        command.env("MONGODB_URI", uri);
    }
    command.output().expect("the schema binary runs")
}

fn printed(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned() + &String::from_utf8_lossy(&output.stderr)
}

#[test]
fn help_hides_the_uri_from_the_environment() {
    for sub in ["apply", "status", "revert", "drift", "review"] {
        let output = schema(&[sub, "--help"], Some(&format!("mongodb://app:{PASSWORD}@127.0.0.1:9/")));
        assert!(output.status.success());
        let text = printed(&output);
        assert!(text.contains("--uri") && !text.contains(PASSWORD), "{text}");
    }
}

#[test]
fn errors_redact_the_password() {
    // the driver refuses the port and quotes what it was given
    let uri = format!("mongodb://app:{PASSWORD}@127.0.0.1:notaport/");
    let output = schema(&["drift", "--uri", &uri], None);
    assert_eq!(output.status.code(), Some(2));
    let text = printed(&output);
    assert!(text.starts_with("schema: cannot connect") && !text.contains(PASSWORD), "{text}");
    let output = schema(&["review", "--uri", &uri], None);
    assert_eq!(output.status.code(), Some(2));
    let text = printed(&output);
    assert!(text.starts_with("schema: cannot review") && !text.contains(PASSWORD), "{text}");
    // a usage error quoting the value
    let output = schema(&["apply", "--uri", &uri, "--no-such-flag"], None);
    assert_eq!(output.status.code(), Some(2));
    assert!(!printed(&output).contains(PASSWORD), "{}", printed(&output));
}

#[test]
fn apply_refuses_a_missing_directory() {
    let output =
        schema(&["apply", "--dir", "no/such/migrations"], Some(&format!("mongodb://app:{PASSWORD}@127.0.0.1:9/")));
    assert_eq!(output.status.code(), Some(2));
    let text = printed(&output);
    assert!(text.contains("no migrations directory at no/such/migrations") && !text.contains("applied"), "{text}");
}
