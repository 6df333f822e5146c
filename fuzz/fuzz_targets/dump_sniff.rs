//! Fuzzes the format detection in front of the dump readers over arbitrary bytes: gzip or
//! not, then BSON, Extended JSON lines or a JSON array, chosen from the first bytes. It must
//! never panic, and the stream ends right after its first error. Read in batches (as
//! `schema check` reads), the same documents and the same error come out, whatever the
//! batch size.

#![no_main]
#![forbid(unsafe_code)]

use libfuzzer_sys::fuzz_target;
use mongo_schema::dump::{self, Batch, DumpError};

fn by_iterator(data: &[u8]) -> Option<Vec<Result<Vec<u8>, DumpError>>> {
    let mut reader = dump::from_reader(std::io::Cursor::new(data.to_vec())).ok()?;
    let mut out = Vec::new();
    while let Some(item) = reader.next() {
        let failed = item.is_err();
        out.push(item.map(|doc| doc.as_bytes().to_vec()));
        if failed {
            assert!(reader.next().is_none(), "the reader goes on after an error");
            break;
        }
    }
    Some(out)
}

fn by_batches(data: &[u8], size: usize) -> Option<Vec<Result<Vec<u8>, DumpError>>> {
    let mut reader = dump::from_reader(std::io::Cursor::new(data.to_vec())).ok()?;
    let mut batch = Batch::new();
    let mut out = Vec::new();
    loop {
        batch.clear();
        let read = reader.fill(&mut batch, size, 64);
        for i in 0..batch.len() {
            match batch.decode(i) {
                Ok(doc) => out.push(Ok(doc.as_bytes().to_vec())),
                Err(e) => {
                    out.push(Err(e));
                    return Some(out);
                }
            }
        }
        if let Err(e) = read {
            out.push(Err(e));
            return Some(out);
        }
        if batch.is_empty() {
            return Some(out);
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Some(expected) = by_iterator(data) else { return };
    let size = usize::from(data.first().copied().unwrap_or(0) % 4) + 1;
    assert_eq!(by_batches(data, size), Some(expected), "batches of {size}");
});
