//! The validator admits what the Rust type reads back. For every integer and float width
//! and `Option`, bson's own deserializer is asked which BSON numbers it reads (over a set
//! of probes at every width's edges); the local validator must admit exactly those, and
//! everything the driver writes. README.md's decision table is derived here from that
//! behaviour, so it cannot drift from bson.

#![forbid(unsafe_code)]

use mongo_schema::{MongoSchema, Validator};
use mongo_schema_tests::bson;
use mongo_schema_tests::bson::{doc, Bson, Decimal128, RawDocumentBuf};
use serde::{de::DeserializeOwned, Deserialize, Serialize};

/// One field of type `T`.
#[derive(Debug, Serialize, Deserialize, MongoSchema)]
struct Probe<T> {
    value: T,
}

fn ints() -> Vec<i32> {
    vec![i32::MIN, -32769, -32768, -129, -128, -1, 0, 1, 127, 128, 255, 256, 32767, 32768, 65535, 65536, i32::MAX]
}

fn longs() -> Vec<i64> {
    let mut longs: Vec<i64> = ints().into_iter().map(i64::from).collect();
    longs.extend([i64::from(i32::MIN) - 1, i64::from(i32::MAX) + 1, u32::MAX.into(), i64::from(u32::MAX) + 1]);
    longs.extend([i64::MIN, i64::MAX]);
    longs
}

fn doubles() -> Vec<f64> {
    vec![0.0, 1.0, -1.0, 1.5, 4294967296.0, 1e300]
}

/// The BSON values offered to each type, by the column they count towards.
fn probes() -> Vec<(&'static str, Bson)> {
    let mut all: Vec<(&str, Bson)> = Vec::new();
    all.extend(ints().into_iter().map(|n| ("int", Bson::Int32(n))));
    all.extend(longs().into_iter().map(|n| ("long", Bson::Int64(n))));
    all.extend(doubles().into_iter().map(|n| ("double", Bson::Double(n))));
    all.push(("null", Bson::Null));
    all.push(("other", Bson::Decimal128("1".parse::<Decimal128>().unwrap())));
    all.push(("other", Bson::String("1".into())));
    all.push(("other", Bson::Boolean(true)));
    all
}

fn raw(value: Bson) -> RawDocumentBuf {
    RawDocumentBuf::try_from(&doc! { "value": value }).unwrap()
}

/// One row of the table: what bson does with `T`, and what its schema admits.
struct Row {
    rust: &'static str,
    writes: String,
    /// per column: how many probes it read, of how many
    reads: Vec<(&'static str, usize, usize)>,
    admits: String,
    /// probes where reading and admitting disagree
    disagreements: Vec<String>,
}

fn row<T: MongoSchema + Serialize + DeserializeOwned>(rust: &'static str, written: &[T]) -> Row {
    let schema = Probe::<T>::json_schema();
    let validator = Validator::new(&schema).expect("the derived schema compiles");
    let mut writes: Vec<&str> = Vec::new();
    let mut disagreements = Vec::new();
    for value in written {
        let bytes = bson::serialize_to_raw_document_buf(&Probe { value }).expect("bson writes every sample");
        let alias = mongo_schema_tests::conform::alias(bytes.get("value").unwrap().unwrap());
        if !writes.contains(&alias) {
            writes.push(alias);
        }
        if !validator.is_valid_raw(&bytes) {
            disagreements.push(format!("the driver's own write {bytes:?} is refused"));
        }
    }
    let mut reads: Vec<(&str, usize, usize)> = Vec::new();
    for (column, probe) in probes() {
        let bytes = raw(probe.clone());
        let read = bson::deserialize_from_slice::<Probe<T>>(bytes.as_bytes()).is_ok();
        let admitted = validator.is_valid_raw(&bytes);
        if read != admitted {
            disagreements.push(format!("{probe:?}: bson reads it: {read}, the validator admits it: {admitted}"));
        }
        match reads.iter_mut().find(|(c, ..)| *c == column) {
            Some(entry) => (entry.1, entry.2) = (entry.1 + read as usize, entry.2 + 1),
            None => reads.push((column, read as usize, 1)),
        }
    }
    let property = schema.get_document("properties").unwrap().get_document("value").unwrap();
    Row { rust, writes: writes.join(", "), reads, admits: admitted(property), disagreements }
}

/// `bsonType` and bounds of a field's schema, as the table shows them.
fn admitted(schema: &bson::Document) -> String {
    let types = match schema.get("bsonType") {
        Some(Bson::Array(aliases)) => aliases.iter().filter_map(Bson::as_str).collect::<Vec<_>>().join(", "),
        Some(Bson::String(alias)) => alias.clone(),
        _ => "any".into(),
    };
    let bounds: Vec<String> =
        ["minimum", "maximum"].iter().filter_map(|key| schema.get(key).map(|b| format!("{key} {b}"))).collect();
    match bounds.is_empty() {
        true => types,
        false => format!("{types}; {}", bounds.join(", ")),
    }
}

fn rows() -> Vec<Row> {
    vec![
        row::<i8>("i8", &[i8::MIN, 0, i8::MAX]),
        row::<i16>("i16", &[i16::MIN, 0, i16::MAX]),
        row::<i32>("i32", &[i32::MIN, 0, i32::MAX]),
        row::<i64>("i64", &[i64::MIN, 0, i64::MAX]),
        row::<isize>("isize", &[isize::MIN, 0, isize::MAX]),
        row::<u8>("u8", &[0, u8::MAX]),
        row::<u16>("u16", &[0, u16::MAX]),
        row::<u32>("u32", &[0, u32::MAX]),
        row::<u64>("u64", &[0, i64::MAX as u64]),
        row::<usize>("usize", &[0, i64::MAX as usize]),
        row::<f32>("f32", &[f32::MIN, 0.0, f32::MAX]),
        row::<f64>("f64", &[f64::MIN, 0.0, f64::MAX]),
        row::<Option<i32>>("Option<i32>", &[None, Some(1)]),
        row::<Option<u32>>("Option<u32>", &[None, Some(u32::MAX)]),
        row::<Option<f64>>("Option<f64>", &[None, Some(0.5)]),
    ]
}

/// The README's table: one line per type.
fn table(rows: &[Row]) -> String {
    let mut out = String::from(
        "| Rust | serde writes | reads int32 | reads int64 | reads double | reads null | validator admits |\n\
         |---|---|---|---|---|---|---|\n",
    );
    for row in rows {
        let column = |name: &str| match row.reads.iter().find(|(c, ..)| *c == name) {
            Some((_, 0, _)) => "no".to_owned(),
            Some((_, read, of)) if read == of => "yes".to_owned(),
            Some(_) => "in range".to_owned(),
            None => "?".to_owned(),
        };
        out += &format!(
            "| `{}` | {} | {} | {} | {} | {} | {} |\n",
            row.rust,
            row.writes,
            column("int"),
            column("long"),
            column("double"),
            column("null"),
            row.admits
        );
    }
    out
}

#[test]
fn the_validator_admits_exactly_what_bson_reads_back() {
    let rows = rows();
    let failures: Vec<String> =
        rows.iter().flat_map(|r| r.disagreements.iter().map(move |d| format!("{}: {d}", r.rust))).collect();
    assert!(failures.is_empty(), "{failures:#?}");
    // no column is vacuous: every type reads some probes and refuses others
    for row in &rows {
        let read: usize = row.reads.iter().map(|(_, n, _)| n).sum();
        let all: usize = row.reads.iter().map(|(_, _, n)| n).sum();
        assert!(read > 0 && read < all, "{}", row.rust);
    }
}

#[test]
fn the_readme_table_is_bsons_behaviour() {
    let expected = table(&rows());
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../README.md")).unwrap();
    assert!(
        readme.contains(&expected),
        "README.md's number table is stale; it must contain, as measured on bson:\n\n{expected}"
    );
}

/// The validator's verdicts that §4 of the issue names, spelled out.
#[test]
fn named_cases() {
    fn admits<T: MongoSchema>(value: Bson) -> bool {
        Validator::new(&Probe::<T>::json_schema()).unwrap().is_valid_raw(&raw(value))
    }
    assert!(admits::<i64>(Bson::Int32(1)), "an $inc upsert's int32 in an i64");
    assert!(admits::<u32>(Bson::Int32(5)), "mongosh's NumberInt in a u32");
    assert!(admits::<f64>(Bson::Int32(5)), "an int32 in an f64");
    assert!(!admits::<i32>(Bson::Double(5.0)), "a double in an i32");
    assert!(!admits::<u32>(Bson::Int32(-1)), "a negative int in a u32");
    assert!(!admits::<i32>(Bson::Int64(i64::from(i32::MAX) + 1)), "a long beyond an i32");
    assert!(admits::<i32>(Bson::Int64(7)), "a long within an i32");
}
