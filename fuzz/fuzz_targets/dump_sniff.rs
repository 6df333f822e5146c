//! Fuzzes the format detection in front of the dump readers over arbitrary bytes: gzip or
//! not, then BSON, Extended JSON lines or a JSON array, chosen from the first bytes. It must
//! never panic, and the stream ends right after its first error.

#![no_main]
#![forbid(unsafe_code)]

use libfuzzer_sys::fuzz_target;
use mongo_schema::dump;

fuzz_target!(|data: &[u8]| {
    let Ok(mut reader) = dump::from_reader(std::io::Cursor::new(data.to_vec())) else { return };
    while let Some(item) = reader.next() {
        if item.is_err() {
            assert!(reader.next().is_none(), "the reader goes on after an error");
            break;
        }
    }
});
