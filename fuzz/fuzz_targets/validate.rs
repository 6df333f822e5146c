//! Fuzzes the local `$jsonSchema` validator over (schema, document) bytes: the input is split
//! at its first byte's offset into a BSON schema and a BSON document. Whatever the bytes,
//! `Validator::new`, `validate_raw` and `validate` must return, never panic, in bounded time;
//! `validate_raw`'s own BSON reader must call nothing malformed that bson decodes whole, and
//! explain a failure with the errInfo `validate` builds from the decoded document.

#![no_main]
#![forbid(unsafe_code)]

use libfuzzer_sys::fuzz_target;
use mongo_schema::bson::{Document, RawDocument, RawDocumentBuf};
use mongo_schema::validate::ValidationError;
use mongo_schema::Validator;

fuzz_target!(|data: &[u8]| {
    let Some((&split, rest)) = data.split_first() else { return };
    let (schema_bytes, doc_bytes) = rest.split_at((split as usize).min(rest.len()));
    let Ok(schema) = Document::from_reader(schema_bytes) else { return };
    let Ok(validator) = Validator::new(&schema) else { return };
    let Ok(raw) = RawDocument::from_bytes(doc_bytes) else { return };
    let by_bytes = validator.validate_raw(raw);
    assert_eq!(validator.is_valid_raw(raw), by_bytes.is_ok());
    let read = mongo_schema::validate::__bench::read_raw(raw);
    let Ok(doc) = Document::try_from(raw) else { return };
    // Bytes bson decodes whole hold nothing our reader may call malformed.
    assert!(read.is_ok(), "{read:?}");
    assert!(!matches!(by_bytes, Err(ValidationError::Malformed(_))), "{by_bytes:?}");
    // Bytes that decode and re-encode unchanged (no repeated field names, which a `Document`
    // cannot hold) must get the same verdict on the decoded path.
    let round_trips = RawDocumentBuf::try_from(&doc).is_ok_and(|again| again.as_bytes() == raw.as_bytes());
    if round_trips {
        let decoded = validator.validate(&doc);
        assert_eq!(decoded.is_ok(), by_bytes.is_ok());
        // ... and the same errInfo, byte for byte (the explaining pass reads either view).
        let info = |r: &Result<(), ValidationError>| {
            r.as_ref().err().and_then(ValidationError::failure).map(|f| RawDocumentBuf::try_from(&f.err_info()).ok())
        };
        assert_eq!(info(&decoded), info(&by_bytes));
    }
});
