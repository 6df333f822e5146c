//! `schema check` at scale, locally: mongodump directories matched to the models by name,
//! the same report from one thread and from many (counts, groups, example `_id`s in input
//! order, the error that stops a run), and the JSON report for CI.
#![forbid(unsafe_code)]
#![cfg(feature = "cli")]

use crate::check_models;
use mongo_schema_test_support::migrate_models;

use check_models::{account, ledger, oid};
use flate2::write::GzEncoder;
use flate2::Compression;
use mongo_schema::bson::{self, doc, oid::ObjectId, Document};
use mongo_schema::cli::run;
use mongo_schema::dump::{self, DumpError};
use mongo_schema::migrate::Model;
use std::io::Write;
use std::path::Path;

fn models() -> Vec<Model> {
    let mut models = migrate_models::v3();
    models.push(Model::of::<ledger::Account>("ledger::Account"));
    models
}

fn schema(args: &[&str]) -> (i32, String, String) {
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = run(&models(), ["schema", "check"].into_iter().chain(args.iter().copied()), &mut out, &mut err);
    (code, String::from_utf8(out).unwrap(), String::from_utf8(err).unwrap())
}

fn bson_bytes(docs: impl IntoIterator<Item = Document>) -> Vec<u8> {
    let mut bytes = Vec::new();
    for d in docs {
        d.to_writer(&mut bytes).unwrap();
    }
    bytes
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut encoder = GzEncoder::new(Vec::new(), Compression::fast());
    encoder.write_all(bytes).unwrap();
    encoder.finish().unwrap()
}

fn user(i: u8, email: Option<&str>) -> Document {
    let mut d = doc! { "_id": ObjectId::from_bytes([i; 12]), "userName": format!("user {i}"), "status": "active" };
    if let Some(email) = email {
        d.insert("email", email);
    }
    d
}

/// `dump/` as mongodump writes it: one directory per database, `<collection>.bson` (or
/// `.bson.gz` with `--gzip`) and `<collection>.metadata.json` beside it, `prelude.json`
/// at the top.
fn write_dump(root: &Path) {
    let write = |rel: &str, bytes: Vec<u8>| {
        let path = root.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, bytes).unwrap();
    };
    write("prelude.json", br#"{"ServerVersion":"6.0.5","ToolVersion":"100.7.0"}"#.to_vec());
    write("db_check/t_account.bson", bson_bytes((0..40).map(account)));
    write("db_check/t_account.metadata.json", br#"{"indexes":[],"uuid":"00","collectionName":"t_account"}"#.to_vec());
    write("db_check/t_audit.bson", bson_bytes([doc! { "_id": 1, "what": "login" }]));
    write("db_check/t_audit.metadata.json", b"{}".to_vec());
    write("admin/system.version.bson", bson_bytes([doc! { "_id": "featureCompatibilityVersion", "version": "6.0" }]));
    write(
        "db_shop/t_user.bson.gz",
        gzip(&bson_bytes([user(1, Some("a@example.com")), user(2, None), user(3, Some("c@example.com"))])),
    );
    write("db_shop/t_user.metadata.json.gz", gzip(b"{}"));
}

#[test]
fn a_dump_directory_checks_each_collection_that_has_a_model_and_names_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    let dump = dir.path().join("dump");
    write_dump(&dump);
    let (code, out, err) = schema(&[dump.to_str().unwrap()]);
    assert_eq!(code, 1, "{err}");
    let headers: Vec<&str> = out.lines().filter(|l| !l.starts_with(' ')).collect();
    assert_eq!(
        headers,
        [
            "db_check.t_account: 40 documents checked, 14 fail the validator",
            "db_shop.t_user: 3 documents checked, 1 fail the validator",
            &format!(
                "no model for the dumped collection db_check.t_audit ({}): not checked",
                dump.join("db_check/t_audit.bson").display()
            ),
            "no dump of the model's collection db_shop.t_order: not checked",
        ],
        "{out}"
    );

    // One database's directory: its collections only; the other models are not in it.
    let (code, out, _) = schema(&[dump.join("db_shop").to_str().unwrap()]);
    assert_eq!(code, 1);
    let headers: Vec<&str> = out.lines().filter(|l| !l.starts_with(' ')).collect();
    assert_eq!(
        headers,
        [
            "db_shop.t_user: 3 documents checked, 1 fail the validator",
            "no dump of the model's collection db_check.t_account: not checked",
            "no dump of the model's collection db_shop.t_order: not checked",
        ],
        "{out}"
    );

    // --collection picks one collection of the directory, and says nothing of the others.
    let (code, out, _) = schema(&["--collection", "t_user", dump.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(out.starts_with("db_shop.t_user: 3 documents checked, 1 fail the validator\n"), "{out}");
    assert!(!out.contains("db_check") && !out.contains("no dump"), "{out}");
    let (code, out, err) = schema(&["--collection", "t_order", dump.to_str().unwrap()]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(err.contains("no file for db_shop.t_order (expected <dir>/db_shop/t_order.bson or .bson.gz)"), "{err}");
}

#[test]
fn directories_and_files_that_cannot_be_checked_say_why() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("t_user.bson");
    std::fs::write(&file, bson_bytes([user(1, Some("a@example.com"))])).unwrap();
    let (code, _, err) = schema(&[file.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("t_user.bson: a file holds one collection: name its model with --collection"), "{err}");

    let empty = dir.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    let (code, _, err) = schema(&[empty.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("not a mongodump directory: no <db>/<collection>.bson or .bson.gz files"), "{err}");

    let other = dir.path().join("other");
    std::fs::create_dir_all(other.join("db_x")).unwrap();
    std::fs::write(other.join("db_x/t_y.bson"), bson_bytes([doc! { "_id": 1 }])).unwrap();
    let (code, _, err) = schema(&[other.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("no dumped collection has a registered model; dumped: db_x.t_y; registered: "), "{err}");

    let both = dir.path().join("both/db_shop");
    std::fs::create_dir_all(&both).unwrap();
    std::fs::write(both.join("t_user.bson"), bson_bytes([user(1, None)])).unwrap();
    std::fs::write(both.join("t_user.bson.gz"), gzip(&bson_bytes([user(1, None)]))).unwrap();
    let (code, _, err) = schema(&[dir.path().join("both").to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("both dump db_shop.t_user: keep one"), "{err}");
}

/// 12,000 accounts, failures in every batch, as BSON and as gzip Extended JSON lines.
fn large_inputs(dir: &Path) -> Vec<std::path::PathBuf> {
    let docs: Vec<Document> = (0..12_000).map(account).collect();
    let bson_path = dir.join("t_account.bson");
    std::fs::write(&bson_path, bson_bytes(docs.iter().cloned())).unwrap();
    let lines: String =
        docs.iter().map(|d| format!("{}\n", bson::Bson::Document(d.clone()).into_relaxed_extjson())).collect();
    let json_path = dir.join("t_account.json.gz");
    std::fs::write(&json_path, gzip(lines.as_bytes())).unwrap();
    vec![bson_path, json_path]
}

#[test]
fn every_job_count_gives_the_single_threads_report() {
    let dir = tempfile::tempdir().unwrap();
    for input in large_inputs(dir.path()) {
        let input = input.to_str().unwrap();
        let report = |jobs: &str, format: &str| {
            let (code, out, err) =
                schema(&["--collection", "t_account", "--ids", "5", "--jobs", jobs, "--format", format, input]);
            assert_eq!(code, 1, "{err}");
            out
        };
        let single = report("1", "text");
        // The counts the generator implies, worked out apart from the checker.
        let expected_failed = (0..12_000u32)
            .filter(|i| i % 7 == 3 || i % 11 == 5 || i % 23 == 9 || i % 13 == 8 || i % 101 == 50 || i % 997 == 400)
            .count();
        assert!(
            single.starts_with(&format!(
                "db_check.t_account: 12000 documents checked, {expected_failed} fail the validator\n"
            )),
            "{single}"
        );
        let string_dates = (0..12_000u32).filter(|i| i % 7 == 3).count();
        let first_ids: Vec<String> = (0..12_000u32)
            .filter(|i| i % 7 == 3)
            .take(5)
            .map(|i| format!("{{\"$oid\":\"{}\"}}", oid(i).to_hex()))
            .collect();
        assert!(
            single.contains(&format!(
                "{string_dates:>10}  openTime  bsonType  e.g. _id {}  (Account::open_time)",
                first_ids.join(", ")
            )),
            "{single}"
        );
        for jobs in ["2", "3", "8"] {
            assert_eq!(report(jobs, "text"), single, "{input} --jobs {jobs}");
        }
        assert_eq!(report("4", "json"), report("1", "json"), "{input}");
    }
}

#[test]
fn every_job_count_stops_at_the_same_document_with_the_same_partial_report() {
    let dir = tempfile::tempdir().unwrap();
    let good = bson_bytes((0..5_000).map(account));
    // A document whose length is right but whose element has an unknown type: found
    // only when it is decoded, by whichever thread validates its batch.
    let mut bad = bson_bytes([doc! { "_id": oid(5_000), "x": 1_i32 }]);
    bad[4] = 0x77;
    let tail = bson_bytes((5_001..9_000).map(account));
    let corrupt_inside = dir.path().join("inside.bson");
    std::fs::write(&corrupt_inside, [&good[..], &bad, &tail].concat()).unwrap();
    // A document cut short at the end: found by the reader.
    let truncated = dir.path().join("truncated.bson");
    let whole = bson_bytes((0..9_000).map(account));
    std::fs::write(&truncated, &whole[..whole.len() - 10]).unwrap();
    for (path, documents) in [(&corrupt_inside, 5_000), (&truncated, 8_999)] {
        let run_with = |jobs: &str| schema(&["--collection", "t_account", "--jobs", jobs, path.to_str().unwrap()]);
        let (code, out, err) = run_with("1");
        assert_eq!(code, 2);
        assert!(out.starts_with(&format!("db_check.t_account: {documents} documents checked, ")), "{out}");
        assert!(out.ends_with(&format!("(incomplete: stopped at the error in {})\n", path.display())), "{out}");
        assert!(err.contains("at byte offset"), "{err}");
        for jobs in ["2", "5"] {
            assert_eq!(run_with(jobs), (code, out.clone(), err.clone()), "{} --jobs {jobs}", path.display());
        }
    }
}

#[test]
fn the_json_report_says_what_the_text_says() {
    let dir = tempfile::tempdir().unwrap();
    let dump = dir.path().join("dump");
    write_dump(&dump);
    let (code, out, err) = schema(&["--format", "json", "--ids", "2", dump.to_str().unwrap()]);
    assert_eq!(code, 1, "{err}");
    let shown = out.replace(&dump.display().to_string(), "<dump>");
    insta::assert_snapshot!(shown);
    let report: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(report["totals"], serde_json::json!({ "collections": 2, "documents": 43, "failed": 15 }));
}

/// The JSON of a check an input stopped: what was read before counts, the collection names
/// the input it stopped in, and `error` holds what the command prints on standard error.
#[test]
fn the_json_report_of_a_stopped_check_names_the_input_and_the_error() {
    let dir = tempfile::tempdir().unwrap();
    let whole = bson_bytes((0..12).map(account));
    let truncated = dir.path().join("truncated.bson");
    std::fs::write(&truncated, &whole[..whole.len() - 10]).unwrap();
    let args = ["--format", "json", "--ids", "1", "--collection", "t_account", "--jobs", "1"];
    let (code, out, err) = schema(&[&args[..], &[truncated.to_str().unwrap()]].concat());
    assert_eq!(code, 2, "{err}");
    let shown = out.replace(&dir.path().display().to_string(), "<dir>");
    insta::assert_snapshot!(shown);
    let report: serde_json::Value = serde_json::from_str(&out).unwrap();
    let error = report["error"].as_str().expect("an error");
    assert!(err.contains(error), "{err}");
    assert_eq!(report["collections"][0]["incomplete"], truncated.display().to_string());
}

/// What the iterator reads, as (document bytes or error) in order.
fn by_iterator(bytes: &[u8]) -> Vec<Result<Vec<u8>, DumpError>> {
    let reader = dump::from_reader(std::io::Cursor::new(bytes.to_vec())).unwrap();
    reader.map(|r| r.map(|d| d.as_bytes().to_vec())).collect()
}

/// What batches of at most `size` documents hold, decoded, in order.
fn by_batches(bytes: &[u8], size: usize) -> Vec<Result<Vec<u8>, DumpError>> {
    let mut reader = dump::from_reader(std::io::Cursor::new(bytes.to_vec())).unwrap();
    let mut batch = dump::Batch::new();
    let mut out = Vec::new();
    loop {
        batch.clear();
        let read = reader.fill(&mut batch, size, usize::MAX);
        for i in 0..batch.len() {
            match batch.decode(i) {
                Ok(doc) => out.push(Ok(doc.as_bytes().to_vec())),
                Err(e) => return [out, vec![Err(e)]].concat(),
            }
        }
        if let Err(e) = read {
            out.push(Err(e));
            return out;
        }
        if batch.is_empty() {
            return out;
        }
    }
}

#[test]
fn batches_hold_what_the_iterator_reads_errors_included() {
    let docs: Vec<Document> = (0..7).map(account).collect();
    let bson = bson_bytes(docs.iter().cloned());
    let lines: String =
        docs.iter().map(|d| format!("{}\n\n", bson::Bson::Document(d.clone()).into_relaxed_extjson())).collect();
    let items: Vec<String> =
        docs.iter().map(|d| bson::Bson::Document(d.clone()).into_canonical_extjson().to_string()).collect();
    let array = format!("[{}]", items.join(",\n"));
    let mut corrupt_inside = bson.clone();
    let third = bson_bytes(docs[..2].iter().cloned()).len();
    corrupt_inside[third + 4] = 0x77;
    // the third line is not JSON
    let mut bad_lines: Vec<&str> = lines.split_inclusive('\n').collect();
    bad_lines[4] = "{\"_id\" 1}\n";
    let bad_line = bad_lines.concat();
    // (input, documents read before the error, if one)
    for (bytes, error_after) in [
        (bson.clone(), None),
        (gzip(&bson), None),
        (lines.clone().into_bytes(), None),
        (array.into_bytes(), None),
        (bson[..bson.len() - 3].to_vec(), Some(6)),
        (corrupt_inside, Some(2)),
        (bad_line.into_bytes(), Some(2)),
    ] {
        let expected = by_iterator(&bytes);
        let read = expected.iter().filter(|r| r.is_ok()).count();
        match error_after {
            None => assert_eq!((read, expected.len()), (7, 7)),
            Some(n) => assert_eq!((read, expected.len(), expected[n].is_err()), (n, n + 1, true)),
        }
        for size in [1, 2, 3, 100] {
            assert_eq!(by_batches(&bytes, size), expected, "batches of {size}");
        }
    }
}
