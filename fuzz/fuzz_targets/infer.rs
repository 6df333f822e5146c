//! Fuzzes `schema infer`'s reading of untrusted input over arbitrary bytes: a collection's
//! metadata (the JSON mongodump writes beside it) and its documents (BSON) are observed
//! into the inference state, then drafted. It must never panic, count every document read,
//! and draft the same source twice from the same state.

#![no_main]
#![forbid(unsafe_code)]

use libfuzzer_sys::fuzz_target;
use mongo_schema::dump::{DumpFormat, DumpReader, Metadata};
use mongo_schema::infer::{draft, Collection, Input};

fuzz_target!(|data: &[u8]| {
    // the metadata's JSON up to the first 0 byte, the documents after it
    let (metadata, documents) = match data.iter().position(|b| *b == 0) {
        Some(at) => (&data[..at], &data[at + 1..]),
        None => (data, &[][..]),
    };
    let metadata = std::str::from_utf8(metadata).ok().and_then(|json| Metadata::parse(json).ok()).unwrap_or_default();
    let mut stats = Collection::default();
    let mut read = 0;
    for doc in DumpReader::new(documents, DumpFormat::Bson) {
        let Ok(doc) = doc else { break };
        if stats.observe(&doc).is_err() {
            return;
        }
        read += 1;
    }
    assert_eq!(stats.documents, read);
    let input = Input {
        db: "db_fuzz".into(),
        collection: "t_fuzz".into(),
        stats,
        total: None,
        indexes: metadata.indexes,
        validator: metadata.options.get_document("validator").ok().cloned(),
        validation_level: metadata.options.get_str("validationLevel").ok().map(str::to_owned),
        validation_action: metadata.options.get_str("validationAction").ok().map(str::to_owned),
    };
    let first = draft(std::slice::from_ref(&input));
    assert_eq!(first, draft(&[input]));
});
