//! Hostile text in names, descriptions and patterns cannot break out of the generated
//! scripts: every `.js` passes `node --check`, and running it with a recording `db` sends
//! exactly the commands of the JSON file, text intact.

#![forbid(unsafe_code)]
// The `migrate` module comes with the `cli` feature (writing migrations) or `migrate` (applying them).
#![cfg(any(feature = "cli", feature = "migrate"))]

use mongo_schema::bson::{doc, Bson, Document};
use mongo_schema::command::{ValidationAction, ValidationLevel};
use mongo_schema::migrate::{migrate, MigrateOptions, Model};
use serde_json::Value;
use std::path::Path;
use std::process::Command;

const HOSTILE: &str = "q\"uote' back\\slash\nnew\rline </script> */ /* ${x} `tick` \u{2028}\u{2029} ünï 数据 🦀";

fn model(description: &str) -> Model {
    let schema = doc! {
        "bsonType": "object",
        "description": description,
        "properties": { HOSTILE: { "bsonType": "string", "pattern": format!("^{HOSTILE}[\\s\\\\]*$"), "description": HOSTILE } },
    };
    Model {
        db: format!("db_{HOSTILE}"),
        collection: format!("t_{HOSTILE}"),
        rust_type: format!("app::{HOSTILE}"),
        validator: doc! { "$jsonSchema": schema },
        level: ValidationLevel::Strict,
        action: ValidationAction::Error,
        options: Default::default(),
        renames: Vec::new(),
        max_document_size: None,
    }
}

/// Runs `script` under node with a `db` that records `[dbName, command]` pairs.
fn recorded_commands(script: &Path) -> Option<Value> {
    let harness = r#"
        const calls = [];
        globalThis.db = { getSiblingDB: (name) => ({ runCommand: (command) => { calls.push([name, command]); return { ok: 1 }; } }) };
        globalThis.print = () => {};
        require("vm").runInThisContext(require("fs").readFileSync(process.argv[1], "utf8"));
        process.stdout.write(JSON.stringify(calls));
    "#;
    let out = match Command::new("node").arg("-e").arg(harness).arg(script).output() {
        Ok(out) => out,
        Err(_) => {
            eprintln!("skipped (no node on PATH): {}", script.display());
            return None;
        }
    };
    assert!(out.status.success(), "{}: {}", script.display(), String::from_utf8_lossy(&out.stderr));
    Some(serde_json::from_slice(&out.stdout).unwrap())
}

/// The `[db, command]` pairs of a JSON file's `up` or `down`, as relaxed JSON.
fn json_commands(file: &Value, key: &str) -> Value {
    let steps = file[key].as_array().unwrap();
    Value::Array(
        steps
            .iter()
            .map(|s| {
                let command = match Bson::try_from(s["command"].clone()).unwrap() {
                    Bson::Document(d) => d,
                    _ => unreachable!(),
                };
                Value::Array(vec![s["db"].clone(), Bson::Document(command).into_relaxed_extjson()])
            })
            .collect(),
    )
}

fn syntax_ok(path: &Path) {
    if let Ok(out) = Command::new("node").arg("--check").arg(path).output() {
        assert!(out.status.success(), "node --check {}: {}", path.display(), String::from_utf8_lossy(&out.stderr));
    }
}

#[test]
fn hostile_text_round_trips_through_scripts_and_json() {
    let dir = tempfile::tempdir().unwrap();
    let options = MigrateOptions::default();
    migrate(dir.path(), &[model("first")], &options).unwrap().unwrap();
    let written = migrate(dir.path(), &[model(HOSTILE)], &options).unwrap().unwrap();
    let [up, down, json, _snapshot] = &written.files[..] else { panic!("{:?}", written.files) };
    let file: Value = serde_json::from_str(&std::fs::read_to_string(json).unwrap()).unwrap();
    for (script, key) in [(up, "up"), (down, "down")] {
        syntax_ok(script);
        let text = std::fs::read_to_string(script).unwrap();
        assert!(!text.contains(['\r', '\u{2028}', '\u{2029}']), "raw line terminators in {}", script.display());
        if let Some(calls) = recorded_commands(script) {
            assert_eq!(calls, json_commands(&file, key), "{}", script.display());
        }
    }
    let sent: Document = match Bson::try_from(file["up"][0]["command"].clone()).unwrap() {
        Bson::Document(d) => d,
        _ => unreachable!(),
    };
    assert_eq!(
        sent,
        mongo_schema::command::coll_mod(
            &format!("t_{HOSTILE}"),
            model(HOSTILE).validator,
            ValidationLevel::Strict,
            ValidationAction::Error
        )
    );
}

#[test]
fn hostile_text_in_comments_stays_in_comments() {
    let dir = tempfile::tempdir().unwrap();
    let written = migrate(dir.path(), &[model(HOSTILE)], &MigrateOptions::default()).unwrap().unwrap();
    let up = std::fs::read_to_string(&written.files[0]).unwrap();
    let comment = up.lines().find(|l| l.starts_with("// db_q")).expect("the step's comment names the collection");
    assert!(comment.contains(r"new\rline </script> */ /* ${x}"), "{comment}");
    assert!(comment.contains(r"\u2028\u2029 ünï 数据 🦀"), "{comment}");
    if let Some(calls) = recorded_commands(&written.files[0]) {
        assert_eq!(calls.as_array().unwrap().len(), 1, "one createCollection, nothing smuggled in");
        assert_eq!(calls[0][0], Value::from(format!("db_{HOSTILE}")));
    }
}
