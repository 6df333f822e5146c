//! `schema check --uri` as a user runs it, through the driver's cursor, on the standalone
//! mongod, the single-node replica set (read preference `secondaryPreferred`, the default,
//! which falls back to the primary there) and `--auth` as a read-only user: the groups it
//! prints are the dump check's, line for line, for the same documents; `--limit` and
//! `--sample` say what they counted; a user without the privilege gets the server's refusal.
//! Each deployment whose variable is unset is skipped with a message.

#![forbid(unsafe_code)]

use mongo_schema_test_support::migrate_models;

use migrate_models::v3;
use mongo_schema::bson::{doc, oid::ObjectId, Document};
use mongo_schema::cli::run;
use mongo_schema::migrate::driver::MongoServer;
use mongo_schema::migrate::server::Server;
use mongo_schema::migrate::Model;

fn schema(models: &[Model], args: &[&str]) -> (i32, String, String) {
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = run(models, std::iter::once("schema").chain(args.iter().copied()), &mut out, &mut err);
    (code, String::from_utf8(out).unwrap(), String::from_utf8(err).unwrap())
}

/// v3's models with `t_user` moved to `db`.`collection`.
fn models(db: &str, collection: &str) -> Vec<Model> {
    v3().into_iter()
        .map(|mut m| {
            if m.collection == "t_user" {
                (m.db, m.collection) = (db.to_owned(), collection.to_owned());
            }
            m
        })
        .collect()
}

/// Users of v3 (`userName` 2 to 80 characters, `email` required): 40 documents, a third
/// valid, the rest missing the email, with a one-letter name, or both.
fn users() -> Vec<Document> {
    (0..40u8)
        .map(|i| {
            let mut d = doc! { "_id": ObjectId::from_bytes([i; 12]), "userName": if i % 3 == 1 { "X" } else { "Ada" }, "status": "active" };
            if i % 3 == 0 {
                d.insert("email", format!("u{i}@example.com"));
            }
            d
        })
        .collect()
}

/// Drops what a test seeded: other tests list these databases' collections.
fn remove(uri: &str, db: &str, collection: &str) {
    let _ = MongoServer::connect(uri).expect("connect").run_command(db, doc! { "drop": collection });
}

/// Seeds `db.collection` (no validator: legacy data) with `users()`, as an admin would.
fn seed(uri: &str, db: &str, collection: &str) {
    let mut server = MongoServer::connect(uri).expect("connect");
    let _ = server.run_command(db, doc! { "drop": collection });
    server.run_command(db, doc! { "insert": collection, "documents": users() }).expect("insert");
}

fn dump_lines(models: &[Model], collection: &str) -> Vec<String> {
    let dir = tempfile::tempdir().unwrap();
    let dump = dir.path().join("users.bson");
    let mut bytes = Vec::new();
    for d in users() {
        d.to_writer(&mut bytes).unwrap();
    }
    std::fs::write(&dump, bytes).unwrap();
    let (code, out, err) = schema(models, &["check", "--collection", collection, dump.to_str().unwrap()]);
    assert_eq!(code, 1, "{err}");
    out.lines().map(str::to_owned).collect()
}

fn deployment(variable: &str, test: &str) -> Option<String> {
    let uri = std::env::var(variable).ok();
    if uri.is_none() {
        // not through eprintln!, which the test harness captures
        use std::io::Write;
        let _ = writeln!(std::io::stderr(), "skipped (no {variable}): check_live_mongod::{test}");
    }
    uri
}

#[test]
fn the_live_check_prints_the_dump_checks_groups() {
    for variable in ["MONGODB_URI", "MONGODB_URI_REPLSET"] {
        let Some(uri) = deployment(variable, "the_live_check_prints_the_dump_checks_groups") else { continue };
        let models = models("db_shop", "t_live_user");
        seed(&uri, "db_shop", "t_live_user");
        let from_dump = dump_lines(&models, "t_live_user");
        let (code, out, err) = schema(&models, &["check", "--uri", &uri, "--collection", "t_live_user", "--ids", "2"]);
        assert_eq!(code, 1, "{variable}: {err}");
        let mut lines = out.lines();
        assert_eq!(
            lines.next(),
            Some("db_shop.t_live_user: checked on the server (read preference secondaryPreferred, the collection's count)")
        );
        // the dump check's report, with the default --ids 3 cut to 2
        let expected: Vec<String> = from_dump
            .iter()
            .map(|line| match line.split_once("e.g. _id ") {
                Some((head, ids)) => {
                    format!("{head}e.g. _id {}", ids.split(", ").take(2).collect::<Vec<_>>().join(", "))
                }
                None => line.clone(),
            })
            .collect();
        assert_eq!(lines.map(str::to_owned).collect::<Vec<_>>(), expected, "{variable}:\n{out}");
        assert_eq!(expected[0], "db_shop.t_live_user: 40 documents checked, 26 fail the validator");

        // the same from the primary, and with every example: still the dump's table
        let (code, out, _) =
            schema(&models, &["check", "--uri", &uri, "--collection", "t_live_user", "--read-preference", "primary"]);
        assert_eq!(code, 1);
        assert_eq!(out.lines().skip(1).map(str::to_owned).collect::<Vec<_>>(), from_dump, "{variable}");
        remove(&uri, "db_shop", "t_live_user");
    }
}

#[test]
fn limit_and_sample_say_what_they_counted() {
    let Some(uri) = deployment("MONGODB_URI", "limit_and_sample_say_what_they_counted") else { return };
    let models = models("db_shop", "t_live_limit");
    seed(&uri, "db_shop", "t_live_limit");
    let (code, out, _) = schema(&models, &["check", "--uri", &uri, "--collection", "t_live_limit", "--limit", "5"]);
    assert_eq!(code, 1);
    assert!(out.contains("\ndb_shop.t_live_limit: 40 documents checked, 26 fail the validator\n"), "{out}");
    assert!(out.ends_with("note: the groups explain the first 5 failing documents (--limit)\n"), "{out}");

    // the same as JSON for CI: the dump check's object, with what the server did
    let args = ["check", "--uri", &uri, "--collection", "t_live_limit", "--limit", "5", "--format", "json"];
    let (code, out, _) = schema(&models, &args);
    assert_eq!(code, 1);
    let report: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    let collection = &report["collections"][0];
    assert_eq!((collection["documents"].as_u64(), collection["failed"].as_u64()), (Some(40), Some(26)), "{out}");
    assert_eq!(collection["server"]["explained"].as_u64(), Some(5), "{out}");
    assert_eq!(collection["server"]["readPreference"], "secondaryPreferred", "{out}");
    let grouped: u64 =
        collection["groups"].as_array().unwrap().iter().map(|g| g["documents"].as_u64().unwrap()).max().unwrap();
    assert!(grouped <= 5, "{out}");

    let (code, out, _) =
        schema(&models, &["check", "--uri", &uri, "--collection", "t_live_limit", "--sample", "10", "--limit", "1"]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.starts_with(
            "db_shop.t_live_limit: checked on the server (read preference secondaryPreferred, a random $sample)\n"
        ),
        "{out}"
    );
    assert!(out.contains("\ndb_shop.t_live_limit: 10 documents checked, 1 or more fail the validator\n"), "{out}");

    // a collection that passes: exit 0
    let mut server = MongoServer::connect(&uri).unwrap();
    server.run_command("db_shop", doc! { "delete": "t_live_limit", "deletes": [{ "q": { "email": { "$exists": false } }, "limit": 0 }, { "q": { "userName": "X" }, "limit": 0 }] }).unwrap();
    let (code, out, _) = schema(&models, &["check", "--uri", &uri, "--collection", "t_live_limit"]);
    assert_eq!(
        (code, out.lines().nth(1)),
        (0, Some("db_shop.t_live_limit: 14 documents checked, 0 fail the validator")),
        "{out}"
    );
    remove(&uri, "db_shop", "t_live_limit");
}

/// A read-only user of `db_app` checks `db_app` and is refused elsewhere, with the server's
/// reason and no password.
#[test]
fn a_read_only_user_checks_what_it_may_read() {
    let (Some(read), Some(root)) = (
        deployment("MONGODB_URI_AUTH_READ", "a_read_only_user_checks_what_it_may_read"),
        deployment("MONGODB_URI_AUTH_ROOT", "a_read_only_user_checks_what_it_may_read"),
    ) else {
        return;
    };
    seed(&root, "db_app", "t_live_user");
    seed(&root, "db_shop", "t_live_user");
    let (code, out, err) =
        schema(&models("db_app", "t_live_user"), &["check", "--uri", &read, "--collection", "t_live_user"]);
    assert_eq!(code, 1, "{err}");
    assert!(out.contains("\ndb_app.t_live_user: 40 documents checked, 26 fail the validator\n"), "{out}");

    let (code, out, err) =
        schema(&models("db_shop", "t_live_user"), &["check", "--uri", &read, "--collection", "t_live_user"]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(err.starts_with("schema: db_shop.t_live_user: ") && err.contains("not authorized"), "{err}");
    assert!(err.contains("(code 13)") && !err.contains("mongo-schema-test"), "{err}");
    remove(&root, "db_app", "t_live_user");
    remove(&root, "db_shop", "t_live_user");
}

/// Checking nothing proves nothing: an absent collection is said to be absent.
#[test]
fn an_absent_collection_is_named() {
    let Some(uri) = deployment("MONGODB_URI", "an_absent_collection_is_named") else { return };
    let models = models("db_shop", "t_live_absent");
    remove(&uri, "db_shop", "t_live_absent");
    let (code, out, err) = schema(&models, &["check", "--uri", &uri, "--collection", "t_live_absent"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("\ndb_shop.t_live_absent: 0 documents checked, 0 fail the validator\n"), "{out}");
    assert!(
        out.ends_with("note: the collection is empty or absent on this deployment: nothing was checked\n"),
        "{out}"
    );
}

#[test]
fn files_and_uri_exclude_each_other() {
    let (code, _, err) = schema(&v3(), &["check", "--collection", "t_user", "--uri", "mongodb://h", "x.bson"]);
    assert_eq!(code, 2);
    assert!(err.contains("cannot be used with"), "{err}");
    let (code, _, err) = schema(&v3(), &["check", "--collection", "t_user", "--sample", "5", "x.bson"]);
    assert_eq!(code, 2);
    assert!(err.contains("--uri"), "{err}");
}
