//! The dump reader on mongodump-format bytes: well-formed, truncated and corrupt.

#![forbid(unsafe_code)]
// The dump reader is the `dump` feature's (`cli` turns it on).
#![cfg(feature = "dump")]

use mongo_schema::bson;
use mongo_schema::bson::{doc, oid::ObjectId, RawDocumentBuf};
use mongo_schema::dump::{sniff, DumpError, DumpErrorKind, DumpFormat, DumpReader};
use proptest::prelude::*;

/// `{"hello": "world"}`, byte for byte as the BSON specification's first example.
const HELLO: &[u8] = b"\x16\x00\x00\x00\x02hello\x00\x06\x00\x00\x00world\x00\x00";

fn read(bytes: &[u8], format: DumpFormat) -> (Vec<RawDocumentBuf>, Option<DumpError>) {
    let mut docs = Vec::new();
    for item in DumpReader::new(bytes, format) {
        match item {
            Ok(doc) => docs.push(doc),
            Err(e) => return (docs, Some(e)),
        }
    }
    (docs, None)
}

fn dump(docs: &[bson::Document]) -> Vec<u8> {
    docs.iter()
        .flat_map(|d| {
            let mut bytes = Vec::new();
            d.to_writer(&mut bytes).unwrap();
            bytes
        })
        .collect()
}

#[test]
fn reads_concatenated_documents_in_order() {
    let bytes = [HELLO, HELLO].concat();
    let (docs, err) = read(&bytes, DumpFormat::Bson);
    assert_eq!(err, None);
    assert_eq!(docs.len(), 2);
    assert_eq!(docs[1].get_str("hello").unwrap(), "world");
    let nested =
        dump(&[doc! { "_id": ObjectId::new(), "items": [{ "price": bson::Decimal128::from_bytes([0; 16]) }, [1, 2]] }]);
    assert_eq!(read(&nested, DumpFormat::Bson).0.len(), 1);
    assert_eq!(read(b"", DumpFormat::Bson), (vec![], None));
}

#[test]
fn truncated_length_prefix_names_its_offset() {
    let bytes = [HELLO, &HELLO[..2]].concat();
    let (docs, err) = read(&bytes, DumpFormat::Bson);
    assert_eq!(docs.len(), 1);
    let err = err.unwrap();
    assert_eq!(err.offset, 22);
    assert_eq!(
        err.to_string(),
        "at byte offset 22: truncated: the file ends 2 byte(s) into a document's length prefix"
    );
}

#[test]
fn truncated_document_says_how_much_is_missing() {
    let bytes = [HELLO, &HELLO[..10]].concat();
    let err = read(&bytes, DumpFormat::Bson).1.unwrap();
    assert_eq!(
        (err.offset, err.kind, err.message.as_str()),
        (22, DumpErrorKind::Truncated, "truncated: the document declares 22 bytes, the file ends after 10")
    );
}

#[test]
fn impossible_lengths_are_corrupt_not_allocated() {
    for prefix in [[0xff, 0xff, 0xff, 0xff], [3, 0, 0, 0], [0, 0, 0, 0x7f]] {
        let bytes = [HELLO, &prefix, b"rest"].concat();
        let err = read(&bytes, DumpFormat::Bson).1.unwrap();
        assert_eq!(err.offset, 22);
        assert_eq!(err.kind, DumpErrorKind::BadLength, "{err}");
        assert!(err.message.starts_with("corrupt: document length"), "{err}");
    }
}

#[test]
fn damage_inside_a_document_is_corrupt() {
    let mut no_terminator = HELLO.to_vec();
    no_terminator[21] = 1;
    let mut bad_string_length = HELLO.to_vec();
    bad_string_length[11] = 0x60;
    let mut bad_nested = dump(&[doc! { "a": { "b": "c" } }]);
    bad_nested[9] = 0x40;
    for bytes in [no_terminator, bad_string_length, bad_nested] {
        let err = read(&bytes, DumpFormat::Bson).1.unwrap();
        assert_eq!(err.offset, 0);
        assert_eq!(err.kind, DumpErrorKind::CorruptDocument, "{err}");
    }
}

#[test]
fn the_stream_stops_after_an_error() {
    let bytes = [HELLO, &[9, 0, 0, 0, 0, 0, 0, 0, 1], HELLO].concat();
    let items: Vec<_> = DumpReader::new(&bytes[..], DumpFormat::Bson).collect();
    assert_eq!(items.len(), 2);
    assert!(items[1].is_err());
}

#[test]
fn extended_json_lines_canonical_and_relaxed() {
    let text = "{\"_id\": {\"$oid\": \"65f000000000000000000001\"}, \"n\": {\"$numberInt\": \"1\"}}\n\n  \n{\"_id\": 2, \"d\": {\"$date\": \"2024-03-01T00:00:00Z\"}}\n";
    let (docs, err) = read(text.as_bytes(), DumpFormat::JsonLines);
    assert_eq!(err, None);
    assert_eq!(docs.len(), 2);
    assert_eq!(docs[0].get_i32("n").unwrap(), 1);
    assert!(docs[1].get_datetime("d").is_ok());
}

#[test]
fn bad_json_lines_name_their_offset() {
    let text = "{\"a\": 1}\n[1, 2]\n";
    let err = read(text.as_bytes(), DumpFormat::JsonLines).1.unwrap();
    assert_eq!(err.offset, 9);
    assert_eq!((err.kind, err.message.as_str()), (DumpErrorKind::NotADocument, "a line holds array, not a document"));
    let err = read(b"{\"a\": 1}\n{\"a\": \n", DumpFormat::JsonLines).1.unwrap();
    assert_eq!(err.offset, 9);
    assert_eq!(err.kind, DumpErrorKind::NotJson, "{err}");
    let err = read(b"{\"d\": {\"$date\": {\"$numberLong\": \"x\"}}}\n", DumpFormat::JsonLines).1.unwrap();
    assert_eq!(err.kind, DumpErrorKind::NotExtendedJson, "{err}");
}

#[test]
fn sniffs_json_from_bson() {
    assert_eq!(sniff(b"  {\"a\": 1}"), DumpFormat::JsonLines);
    assert_eq!(sniff(HELLO), DumpFormat::Bson);
    assert_eq!(sniff(b"{\x00\x00\x00"), DumpFormat::Bson, "a 123-byte BSON document starts with '{{'");
}

proptest! {
    #[test]
    fn any_bytes_end_in_documents_or_one_error(bytes in proptest::collection::vec(any::<u8>(), 0..200), json in any::<bool>()) {
        let format = if json { DumpFormat::JsonLines } else { DumpFormat::Bson };
        let items: Vec<_> = DumpReader::new(&bytes[..], format).collect();
        let errors = items.iter().filter(|i| i.is_err()).count();
        prop_assert!(errors <= 1);
        prop_assert!(errors == 0 || items.last().unwrap().is_err());
    }

    #[test]
    fn every_prefix_of_a_dump_is_read_or_refused_at_a_document_start(cut in 0usize..66) {
        let bytes = [HELLO, HELLO, HELLO].concat();
        let (docs, err) = read(&bytes[..cut], DumpFormat::Bson);
        prop_assert_eq!(docs.len(), cut / 22);
        prop_assert_eq!(err.map(|e| e.offset), (cut % 22 != 0).then_some((cut / 22 * 22) as u64));
    }
}
