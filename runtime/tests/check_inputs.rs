//! `schema check` inputs: every shape mongodump and mongoexport write (BSON, gzip by content,
//! Extended JSON lines, `--jsonArray`), and a message naming the file, the offset and what
//! was expected for each malformed one.
#![forbid(unsafe_code)]
#![cfg(feature = "cli")]

use mongo_schema_test_support::migrate_models;

use flate2::write::GzEncoder;
use flate2::Compression;
use migrate_models::v3;
use mongo_schema::bson;
use mongo_schema::bson::{doc, oid::ObjectId, RawDocumentBuf};
use mongo_schema::cli::run;
use mongo_schema::dump::{self, DumpError, DumpErrorKind, DumpFormat};
use std::io::{Cursor, Write};

fn schema(args: &[&str]) -> (i32, String, String) {
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = run(
        &v3(),
        ["schema", "check", "--collection", "t_user"].into_iter().chain(args.iter().copied()),
        &mut out,
        &mut err,
    );
    (code, String::from_utf8(out).unwrap(), String::from_utf8(err).unwrap())
}

fn user(id: u8, name: &str, email: Option<&str>) -> bson::Document {
    let mut d = doc! { "_id": ObjectId::from_bytes([id; 12]), "userName": name, "status": "active" };
    if let Some(email) = email {
        d.insert("email", email);
    }
    d
}

/// Two valid users and one without its required email.
fn users() -> Vec<bson::Document> {
    vec![user(1, "Ada", Some("ada@example.com")), user(2, "Bo", None), user(3, "Cy", Some("cy@example.com"))]
}

fn bson_bytes(docs: &[bson::Document]) -> Vec<u8> {
    let mut bytes = Vec::new();
    for d in docs {
        d.to_writer(&mut bytes).unwrap();
    }
    bytes
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut encoder = GzEncoder::new(Vec::new(), Compression::default());
    encoder.write_all(bytes).unwrap();
    encoder.finish().unwrap()
}

/// mongoexport's default: relaxed Extended JSON, one document a line.
fn relaxed_lines(docs: &[bson::Document]) -> String {
    docs.iter().map(|d| format!("{}\n", bson::Bson::Document(d.clone()).into_relaxed_extjson())).collect()
}

/// `mongoexport --jsonArray`: `[` then the documents separated by `,` and a newline, then `]`.
fn json_array(docs: &[bson::Document]) -> String {
    let items: Vec<String> =
        docs.iter().map(|d| bson::Bson::Document(d.clone()).into_relaxed_extjson().to_string()).collect();
    format!("[{}]", items.join(",\n"))
}

fn read(bytes: Vec<u8>) -> (DumpFormat, bool, Vec<RawDocumentBuf>, Option<DumpError>) {
    let mut reader = dump::from_reader(Cursor::new(bytes)).unwrap();
    let (format, gzip) = (reader.format(), reader.gzip());
    let mut docs = Vec::new();
    for item in &mut reader {
        match item {
            Ok(doc) => docs.push(doc),
            Err(e) => return (format, gzip, docs, Some(e)),
        }
    }
    (format, gzip, docs, None)
}

fn ids(docs: &[RawDocumentBuf]) -> Vec<ObjectId> {
    docs.iter().map(|d| d.get_object_id("_id").unwrap()).collect()
}

#[test]
fn every_format_reads_the_same_documents_plain_or_gzip() {
    let docs = users();
    let expected: Vec<ObjectId> = docs.iter().map(|d| d.get_object_id("_id").unwrap()).collect();
    for (format, bytes) in [
        (DumpFormat::Bson, bson_bytes(&docs)),
        (DumpFormat::JsonLines, relaxed_lines(&docs).into_bytes()),
        (
            DumpFormat::JsonLines,
            docs.iter()
                .map(|d| format!("{}\n", bson::Bson::Document(d.clone()).into_canonical_extjson()))
                .collect::<String>()
                .into_bytes(),
        ),
        (DumpFormat::JsonArray, json_array(&docs).into_bytes()),
        (DumpFormat::JsonArray, format!(" \n[\n{}\n]\n\n", json_array(&docs).trim_matches(['[', ']'])).into_bytes()),
    ] {
        for compressed in [false, true] {
            let input = if compressed { gzip(&bytes) } else { bytes.clone() };
            let (found, gz, read_docs, err) = read(input);
            assert_eq!((found, gz, err), (format, compressed, None));
            assert_eq!(ids(&read_docs), expected, "{format:?} gzip={compressed}");
        }
    }
    // A concatenation of gzip members (as `cat a.gz b.gz` makes) is one stream.
    let two = [gzip(&bson_bytes(&docs[..1])), gzip(&bson_bytes(&docs[1..]))].concat();
    assert_eq!(ids(&read(two).2), expected);
    assert_eq!(read(b"[]".to_vec()).2.len(), 0);
    assert_eq!(read(b"[ ]\n".to_vec()).3, None);
}

#[test]
fn malformed_json_arrays_name_the_offset_and_what_was_expected() {
    use DumpErrorKind::{ArraySyntax, NotADocument, NotJson};
    for (text, offset, kind, message) in [
        ("[{\"a\": 1} {\"a\": 2}]", 10, ArraySyntax, "expected ',' or ']' after a document of the array, found '{'"),
        ("[{\"a\": 1},", 10, ArraySyntax, "expected a document or ']', found the end of the input"),
        (
            "[{\"a\": 1}",
            9,
            ArraySyntax,
            "expected ',' or ']' after a document of the array, found the end of the input",
        ),
        ("[{\"a\": 1}] x", 11, ArraySyntax, "expected the end of the input after the array's closing ']', found 'x'"),
        ("[{\"a\": 1}][]", 10, ArraySyntax, "expected the end of the input after the array's closing ']', found '['"),
        ("[{\"a\": 1}, [2]]", 11, NotADocument, "an array element holds array, not a document"),
        ("[{\"a\": 1}, {\"a\": }]", 11, NotJson, "not JSON"),
    ] {
        let (format, _, docs, err) = read(text.as_bytes().to_vec());
        assert_eq!(format, DumpFormat::JsonArray);
        assert_eq!(docs.len(), 1, "{text}");
        let err = err.unwrap_or_else(|| panic!("{text}: no error"));
        assert_eq!(err.offset, offset, "{text}: {err}");
        assert_eq!((err.kind, err.message.as_str()), (kind, message), "{text}: {err}");
    }
}

#[test]
fn gzip_errors_count_offsets_in_the_decompressed_data() {
    let bytes = bson_bytes(&users());
    let mut damaged = bytes.clone();
    damaged.extend_from_slice(&[0xff, 0xff, 0xff, 0x7f, 1]);
    let (_, gz, docs, err) = read(gzip(&damaged));
    assert!(gz);
    assert_eq!(docs.len(), 3);
    let err = err.unwrap();
    assert_eq!(err.offset, bytes.len() as u64);
    assert!(
        err.to_string().starts_with(&format!("at byte offset {} of the decompressed data: corrupt", bytes.len())),
        "{err}"
    );
    // A cut-off gzip file: the decoder's error, at the document it interrupted.
    let whole = gzip(&bytes);
    let (_, _, _, err) = read(whole[..whole.len() / 2].to_vec());
    let err = err.expect("a truncated gzip stream is an error");
    assert!(matches!(err.kind, DumpErrorKind::Read | DumpErrorKind::Truncated), "{err}");
}

#[test]
fn check_reads_a_gzip_dump_whatever_its_name_and_a_json_array() {
    let dir = tempfile::tempdir().unwrap();
    for (name, bytes) in [
        ("t_user.bson.gz", gzip(&bson_bytes(&users()))),
        ("t_user.bson", gzip(&bson_bytes(&users()))),
        ("users.json", json_array(&users()).into_bytes()),
        ("users.json.gz", gzip(relaxed_lines(&users()).as_bytes())),
    ] {
        let path = dir.path().join(name);
        std::fs::write(&path, bytes).unwrap();
        let (code, out, err) = schema(&[path.to_str().unwrap()]);
        assert_eq!(code, 1, "{name}: {err}");
        assert!(out.starts_with("db_shop.t_user: 3 documents checked, 1 fail the validator\n"), "{name}: {out}");
        assert!(out.contains("email  required"), "{name}: {out}");
    }
}

#[test]
fn empty_and_unreadable_inputs_say_so_without_an_empty_report() {
    let dir = tempfile::tempdir().unwrap();
    for (name, bytes) in [("empty.bson", Vec::new()), ("blank.json", b"\n \n".to_vec()), ("empty.bson.gz", gzip(b""))] {
        let path = dir.path().join(name);
        std::fs::write(&path, bytes).unwrap();
        let (code, out, err) = schema(&[path.to_str().unwrap()]);
        assert_eq!((code, out.as_str()), (2, ""), "{name}");
        assert!(err.contains(&format!("{}: empty: no documents (expected mongodump BSON", path.display())), "{err}");
    }
    let missing = dir.path().join("missing.bson");
    let (code, out, err) = schema(&[missing.to_str().unwrap()]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(err.contains(&format!("{}\n  caused by: ", missing.display())), "{err}");
}

#[test]
fn a_malformed_array_in_the_cli_names_file_and_offset_after_the_partial_report() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("export.json");
    let good = json_array(&users()[..1]);
    std::fs::write(&path, format!("{}\n{{\"a\": 1}}]", &good[..good.len() - 1])).unwrap();
    let (code, out, err) = schema(&[path.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(out.starts_with("db_shop.t_user: 1 documents checked, 0 fail the validator\n"), "{out}");
    assert!(out.ends_with(&format!("(incomplete: stopped at the error in {})\n", path.display())), "{out}");
    assert!(
        err.contains(&format!(
            "{}\n  caused by: at byte offset {}: expected ',' or ']' after a document of the array, found '{{'",
            path.display(),
            good.len()
        )),
        "{err}"
    );
}

/// One `mongodump --archive` segment or header: the BSON bytes of `docs`, then the terminator
/// when `terminated`.
fn segment(docs: &[bson::Document], terminated: bool) -> Vec<u8> {
    let mut bytes = bson_bytes(docs);
    if terminated {
        bytes.extend_from_slice(&[0xff; 4]);
    }
    bytes
}

fn namespace_header(collection: &str, eof: bool) -> bson::Document {
    doc! { "db": "db_shop", "collection": collection, "EOF": eof, "CRC": 0_i64 }
}

/// An archive laid out as mongodump writes it (the format's documented grammar): magic, header,
/// collection metadata, terminator, then the two collections' segments interleaved, each
/// collection closed by an EOF header.
fn archive(users: &[bson::Document]) -> Vec<u8> {
    let header =
        doc! { "concurrent_collections": 4, "version": "0.1", "server_version": "6.0.5", "tool_version": "100.7.0" };
    let metadata = |c: &str| doc! { "db": "db_shop", "collection": c, "metadata": "{\"indexes\":[]}", "size": 0 };
    let order = doc! { "_id": ObjectId::from_bytes([9; 12]), "total": 1 };
    [
        dump::ARCHIVE_MAGIC.to_vec(),
        segment(&[header, metadata("t_order"), metadata("t_user")], true),
        segment(&[namespace_header("t_user", false), users[0].clone()], true),
        segment(&[namespace_header("t_order", false), order], true),
        segment(&[namespace_header("t_user", false)], false),
        segment(&users[1..], true),
        segment(&[namespace_header("t_order", true)], true),
        segment(&[namespace_header("t_user", true)], true),
    ]
    .concat()
}

#[test]
fn an_archive_yields_one_collections_documents_across_its_segments_plain_or_gzip() {
    let docs = users();
    let expected: Vec<ObjectId> = docs.iter().map(|d| d.get_object_id("_id").unwrap()).collect();
    for compressed in [false, true] {
        let bytes = if compressed { gzip(&archive(&docs)) } else { archive(&docs) };
        let mut reader = dump::from_reader(Cursor::new(bytes)).unwrap().only_namespace("db_shop.t_user");
        assert_eq!((reader.format(), reader.gzip()), (DumpFormat::Archive, compressed));
        let read: Vec<RawDocumentBuf> = (&mut reader).map(Result::unwrap).collect();
        assert_eq!(ids(&read), expected);
    }
    // Without a collection named, every collection's documents, in archive order.
    let (_, _, all, err) = read(archive(&docs));
    assert_eq!((all.len(), err), (4, None));
    // A collection the archive does not hold.
    let err = dump::from_reader(Cursor::new(archive(&docs)))
        .unwrap()
        .only_namespace("db_shop.t_nope")
        .find_map(Result::err)
        .unwrap();
    assert_eq!(
        (err.kind, err.message.as_str()),
        (
            DumpErrorKind::MissingCollection,
            "the archive holds no collection db_shop.t_nope; it holds: db_shop.t_order, db_shop.t_user"
        )
    );
}

#[test]
fn malformed_archives_name_the_offset_and_what_was_expected() {
    let docs = users();
    let whole = archive(&docs);
    // Cut right after the prelude's terminator + the first namespace header.
    let prelude = whole.windows(4).position(|w| w == [0xff; 4]).unwrap() + 4;
    let header_len = bson_bytes(&[namespace_header("t_user", false)]).len();
    use DumpErrorKind::{CorruptArchive, Truncated};
    let kinds = [Truncated, Truncated, CorruptArchive, CorruptArchive, CorruptArchive];
    for ((bytes, offset, message), kind) in [
        (
            whole[..prelude - 2].to_vec(),
            prelude as u64 - 4,
            "truncated: the archive ends where a collection metadata document or the prelude's terminator was expected"
                .to_owned(),
        ),
        (
            whole[..prelude + header_len].to_vec(),
            (prelude + header_len) as u64,
            "truncated: the archive ends where a document or the segment's terminator was expected".to_owned(),
        ),
        (
            [&whole[..prelude], &[0xff; 4][..]].concat(),
            prelude as u64,
            "corrupt archive: expected a namespace header or the end of the archive, found a terminator".to_owned(),
        ),
        (
            [&whole[..prelude], &segment(&[doc! { "db": "db_shop" }], true)[..]].concat(),
            prelude as u64,
            "corrupt archive: a namespace header document without string fields db and collection".to_owned(),
        ),
        (
            [&whole[..prelude], &segment(&[namespace_header("t_user", true), docs[0].clone()], false)[..]].concat(),
            (prelude + header_len) as u64,
            "corrupt archive: expected the terminator after an EOF header".to_owned(),
        ),
    ]
    .into_iter()
    .zip(kinds)
    {
        let err = dump::from_reader(Cursor::new(bytes)).unwrap().find_map(Result::err).unwrap();
        assert_eq!((err.offset, err.kind, err.message.as_str()), (offset, kind, message.as_str()));
    }
}

#[test]
fn check_reads_the_models_collection_from_an_archive() {
    let dir = tempfile::tempdir().unwrap();
    for (name, bytes) in [("dump.archive", archive(&users())), ("dump.archive.gz", gzip(&archive(&users())))] {
        let path = dir.path().join(name);
        std::fs::write(&path, bytes).unwrap();
        let (code, out, err) = schema(&[path.to_str().unwrap()]);
        assert_eq!(code, 1, "{name}: {err}");
        assert!(out.starts_with("db_shop.t_user: 3 documents checked, 1 fail the validator\n"), "{name}: {out}");
    }
}

/// A model with 64-bit counters, as mongoexport's relaxed output shows them: small values as
/// plain numbers, which read back as int.
mod counters {
    use mongo_schema::bson::oid::ObjectId;
    use mongo_schema::MongoSchema;
    use serde::{Deserialize, Serialize};

    #[derive(Serialize, Deserialize, MongoSchema)]
    #[serde(rename_all = "camelCase")]
    #[mongo(db = "db_shop", collection = "t_counter")]
    pub struct Counter {
        #[serde(rename = "_id")]
        pub id: ObjectId,
        pub login_count: i64,
        pub bytes_sent: u64,
    }
}

#[test]
fn relaxed_exports_of_valid_longs_pass_end_to_end() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t_counter.json");
    let docs: Vec<bson::Document> = (0..30_u8)
        .map(|i| doc! { "_id": ObjectId::from_bytes([i; 12]), "loginCount": i64::from(i) * 7, "bytesSent": 1_i64 << (i + 20) })
        .collect();
    let text = relaxed_lines(&docs);
    assert!(text.contains("\"loginCount\":7,"), "small longs are plain numbers in relaxed output: {text}");
    std::fs::write(&path, text).unwrap();
    let models = [mongo_schema::migrate::Model::of::<counters::Counter>("app::Counter")];
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code =
        run(&models, ["schema", "check", "--collection", "t_counter", path.to_str().unwrap()], &mut out, &mut err);
    let out = String::from_utf8(out).unwrap();
    assert_eq!(
        (code, out.as_str()),
        (0, "db_shop.t_counter: 30 documents checked, 0 fail the validator\n"),
        "{}",
        String::from_utf8_lossy(&err)
    );
}
