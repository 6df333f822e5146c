//! Fuzzes the dump readers (mongodump `.bson` and `--archive`, Extended JSON lines, a JSON array) over arbitrary bytes:
//! it must never panic, read only forward within the input, return each BSON document as
//! the exact bytes it was stored as, and end right after the first error, whose offset lies
//! within the input.

#![no_main]
#![forbid(unsafe_code)]

use libfuzzer_sys::fuzz_target;
use mongo_schema::dump::{DumpFormat, DumpReader};

fuzz_target!(|data: &[u8]| {
    for format in [DumpFormat::Bson, DumpFormat::JsonLines, DumpFormat::JsonArray, DumpFormat::Archive] {
        let mut reader = DumpReader::new(data, format);
        let mut start = 0u64;
        while let Some(item) = reader.next() {
            let end = reader.offset();
            assert!(start <= end && end <= data.len() as u64, "offsets {start}..{end} of {}", data.len());
            match item {
                Ok(doc) if format == DumpFormat::Bson => {
                    assert_eq!(doc.as_bytes(), &data[start as usize..end as usize])
                }
                Ok(_) => {}
                Err(error) => {
                    assert!(error.offset <= data.len() as u64);
                    assert!(reader.next().is_none(), "the reader goes on after an error");
                    break;
                }
            }
            start = end;
        }
    }
});
