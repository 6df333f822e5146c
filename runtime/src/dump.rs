//! Streaming readers of existing data: mongodump `.bson` files (BSON documents one after
//! another, nothing between them) and Extended JSON lines (mongoexport's default output).
//! One document is held at a time, so memory stays flat however large the file.
//!
//! A truncated or corrupt file ends the stream with a [`DumpError`] that names the byte
//! offset of the document at fault; nothing panics, whatever the bytes.

use crate::bson::{Bson, RawBsonRef, RawDocument, RawDocumentBuf};
use std::error::Error;
use std::fmt;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::Path;
use std::sync::Arc;

/// mongod's largest document (16 MiB) plus the 16 KiB it allows internally (oplog
/// entries): a larger length prefix means the file is not a BSON dump or is corrupt.
pub const MAX_DOCUMENT_SIZE: usize = 16 * 1024 * 1024 + 16 * 1024;
/// The longest Extended JSON line read: a 16 MiB document with generous escaping.
pub const MAX_LINE: usize = 8 * MAX_DOCUMENT_SIZE;

/// How the documents are stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DumpFormat {
    /// Concatenated BSON documents (mongodump `.bson`).
    Bson,
    /// One Extended JSON document per line (mongoexport, `.json`/`.jsonl`/`.ndjson`).
    JsonLines,
}

/// Why reading stopped: the byte offset where the bad document starts, and what is wrong;
/// the I/O, BSON or JSON error behind it is the [`source`](std::error::Error::source).
#[derive(Debug, Clone)]
pub struct DumpError {
    /// Where the bad document (or line) starts, in bytes from the start of the input.
    pub offset: u64,
    /// What is wrong: `truncated: ...`, `corrupt document`, `not JSON`, ...
    pub message: String,
    cause: Option<Arc<dyn Error + Send + Sync>>,
}

impl fmt::Display for DumpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "at byte offset {}: {}", self.offset, self.message)
    }
}

/// Equal when they say the same: same offset, message and cause text.
impl PartialEq for DumpError {
    fn eq(&self, other: &Self) -> bool {
        let cause = |e: &DumpError| e.cause.as_ref().map(|c| c.to_string());
        (self.offset, &self.message, cause(self)) == (other.offset, &other.message, cause(other))
    }
}

impl Eq for DumpError {}

impl Error for DumpError {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        self.cause.as_deref().map(|e| e as &(dyn Error + 'static))
    }
}

/// What is wrong with one document, before its offset is attached.
struct Bad {
    message: String,
    cause: Option<Arc<dyn Error + Send + Sync>>,
}

impl Bad {
    /// A problem the message says in full.
    fn new(message: String) -> Self {
        Bad { message, cause: None }
    }

    /// `message`, caused by `e`.
    fn by<E: Error + Send + Sync + 'static>(message: &str) -> impl FnOnce(E) -> Bad + '_ {
        move |e| Bad { message: message.to_owned(), cause: Some(Arc::new(e)) }
    }
}

/// The documents of a dump, in file order; ends after the first error.
pub struct DumpReader<R> {
    input: R,
    format: DumpFormat,
    /// Bytes consumed so far.
    offset: u64,
    /// Where the document being read starts.
    start: u64,
    failed: bool,
}

/// Opens `path`, choosing the format from the extension (`.bson`; `.json`, `.jsonl`,
/// `.ndjson`) or else from the first bytes.
pub fn open(path: &Path) -> io::Result<DumpReader<BufReader<File>>> {
    from_reader(path, File::open(path)?)
}

/// [`open`] over any reader of `path`'s bytes (e.g. one that reports progress).
pub fn from_reader<R: Read>(path: &Path, reader: R) -> io::Result<DumpReader<BufReader<R>>> {
    let mut input = BufReader::with_capacity(1 << 20, reader);
    let by_name = match path.extension().and_then(|e| e.to_str()) {
        Some("bson") => Some(DumpFormat::Bson),
        Some("json" | "jsonl" | "ndjson") => Some(DumpFormat::JsonLines),
        _ => None,
    };
    let format = match by_name {
        Some(format) => format,
        None => sniff(input.fill_buf()?),
    };
    Ok(DumpReader::new(input, format))
}

/// JSON text starts with `{` (after blanks) and has no NUL byte; a BSON document's
/// 4-byte length prefix always holds a NUL below 16 MiB.
pub fn sniff(head: &[u8]) -> DumpFormat {
    let first = head.iter().find(|b| !b.is_ascii_whitespace());
    let prefix = &head[..head.len().min(4)];
    if first == Some(&b'{') && !prefix.contains(&0) {
        DumpFormat::JsonLines
    } else {
        DumpFormat::Bson
    }
}

impl<R: BufRead> DumpReader<R> {
    /// Reads `input` as `format`, from its first byte (offsets count from there).
    pub fn new(input: R, format: DumpFormat) -> Self {
        DumpReader { input, format, offset: 0, start: 0, failed: false }
    }

    /// Bytes consumed so far.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    fn next_bson(&mut self) -> Option<Result<RawDocumentBuf, Bad>> {
        self.start = self.offset;
        let mut prefix = [0u8; 4];
        let got = match read_full(&mut self.input, &mut prefix) {
            Ok(0) => return None,
            Ok(n) => n,
            Err(e) => return Some(Err(Bad::by("read error")(e))),
        };
        if got < 4 {
            return Some(Err(Bad::new(format!(
                "truncated: the file ends {got} byte(s) into a document's length prefix"
            ))));
        }
        Some(self.bson_body(prefix))
    }

    fn bson_body(&mut self, prefix: [u8; 4]) -> Result<RawDocumentBuf, Bad> {
        let declared = i32::from_le_bytes(prefix);
        let len = usize::try_from(declared).ok().filter(|n| (5..=MAX_DOCUMENT_SIZE).contains(n));
        let len = len.ok_or_else(|| Bad::new(format!("corrupt: document length {declared} is outside 5..={MAX_DOCUMENT_SIZE}; not a BSON dump, or damaged here")))?;
        let mut bytes = vec![0u8; len];
        bytes[..4].copy_from_slice(&prefix);
        let got = read_full(&mut self.input, &mut bytes[4..]).map_err(Bad::by("read error"))?;
        self.offset += 4 + got as u64;
        if got < len - 4 {
            return Err(Bad::new(format!(
                "truncated: the document declares {len} bytes, the file ends after {}",
                got + 4
            )));
        }
        let doc = RawDocumentBuf::from_bytes(bytes).map_err(Bad::by("corrupt document"))?;
        well_formed(&doc).map_err(Bad::by("corrupt document"))?;
        Ok(doc)
    }

    fn next_json(&mut self) -> Option<Result<RawDocumentBuf, Bad>> {
        loop {
            self.start = self.offset;
            let mut line = Vec::new();
            let got = match (&mut self.input).take(MAX_LINE as u64 + 1).read_until(b'\n', &mut line) {
                Ok(0) => return None,
                Ok(n) => n,
                Err(e) => return Some(Err(Bad::by("read error")(e))),
            };
            self.offset += got as u64;
            if got > MAX_LINE {
                return Some(Err(Bad::new(format!("line longer than {MAX_LINE} bytes: not Extended JSON lines"))));
            }
            if line.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            return Some(json_document(&line));
        }
    }
}

/// Reads until `buf` is full or the input ends; the count read.
fn read_full(input: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut got = 0;
    while got < buf.len() {
        match input.read(&mut buf[got..]) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(got)
}

/// Walks every element, embedded documents and arrays included, so damage inside a
/// document is found here (with its offset) rather than half-way through validation.
fn well_formed(doc: &RawDocument) -> Result<(), crate::compat::RawError> {
    for element in doc.iter() {
        nested(element?.1)?;
    }
    Ok(())
}

fn nested(value: RawBsonRef<'_>) -> Result<(), crate::compat::RawError> {
    match value {
        RawBsonRef::Document(doc) => well_formed(doc),
        RawBsonRef::Array(items) => items.into_iter().try_for_each(|item| nested(item?)),
        _ => Ok(()),
    }
}

fn json_document(line: &[u8]) -> Result<RawDocumentBuf, Bad> {
    let value: serde_json::Value = serde_json::from_slice(line).map_err(Bad::by("not JSON"))?;
    match Bson::try_from(value) {
        Ok(Bson::Document(doc)) => RawDocumentBuf::try_from(&doc).map_err(Bad::by("cannot encode as BSON")),
        Ok(other) => Err(Bad::new(format!("a line holds {:?}, not a document", other.element_type()))),
        Err(e) => Err(Bad::by("not Extended JSON")(e)),
    }
}

impl<R: BufRead> Iterator for DumpReader<R> {
    type Item = Result<RawDocumentBuf, DumpError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        let item = match self.format {
            DumpFormat::Bson => self.next_bson(),
            DumpFormat::JsonLines => self.next_json(),
        }?;
        self.failed = item.is_err();
        Some(item.map_err(|bad| DumpError { offset: self.start, message: bad.message, cause: bad.cause }))
    }
}
