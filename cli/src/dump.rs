//! Streaming readers of existing data: mongodump `.bson` files (BSON documents one after
//! another, nothing between them) and `--archive` files, Extended JSON lines (mongoexport's
//! default output, canonical or relaxed) and one JSON array of documents (`mongoexport
//! --jsonArray`), each plain or gzip-compressed (`mongodump --gzip`), told apart by their first bytes, never by the name.
//! One document is held at a time, so memory stays flat however large the file.
//!
//! A truncated or corrupt file ends the stream with a [`DumpError`] that names the byte
//! offset of the document at fault; nothing panics, whatever the bytes.

use mongo_schema_core::bson::{Bson, RawBsonRef, RawDocument, RawDocumentBuf};
use std::borrow::Cow;
use std::error::Error;
use std::fmt;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::Path;
use std::sync::Arc;

/// mongod's largest document (16 MiB) plus the 16 KiB it allows internally (oplog
/// entries): a larger length prefix means the file is not a BSON dump or is corrupt.
pub const MAX_DOCUMENT_SIZE: usize = mongo_schema_contract::size::MAX_DOCUMENT_SIZE as usize + 16 * 1024;
/// The longest Extended JSON line read: a 16 MiB document with generous escaping.
pub const MAX_LINE: usize = 8 * MAX_DOCUMENT_SIZE;

/// How the documents are stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum DumpFormat {
    /// Concatenated BSON documents (mongodump `.bson`).
    Bson,
    /// One Extended JSON document per line (mongoexport's default).
    JsonLines,
    /// One JSON array of Extended JSON documents (`mongoexport --jsonArray`).
    JsonArray,
    /// `mongodump --archive`: a prelude (magic number, header, one metadata document per
    /// collection, terminator), then segments of several collections interleaved, each a
    /// namespace header, documents and a terminator, and one EOF header per collection.
    Archive,
}

/// The first four bytes of a `mongodump --archive` (0x8199e26d, little-endian).
pub const ARCHIVE_MAGIC: [u8; 4] = [0x6d, 0xe2, 0x99, 0x81];
/// Ends the archive's prelude and each of its segments (an int32 of -1).
const TERMINATOR: [u8; 4] = [0xff; 4];

/// Where a [`DumpFormat::Archive`] reader is in the archive.
#[derive(Debug, Clone, PartialEq, Eq)]
enum ArchiveState {
    Magic,
    Header,
    /// Collection metadata documents until the terminator.
    Prelude,
    /// Between segments: a namespace header or the end.
    Between,
    /// After an EOF header: its terminator.
    EofTerminator,
    /// In a segment: documents until the terminator; `true` when its collection is read.
    Segment(bool),
}

/// Where a [`DumpFormat::JsonArray`] reader is in the array.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ArrayState {
    /// Before the `[`.
    Open,
    /// After the `[`: a document or `]`.
    First,
    /// After a document: `,` or `]`.
    Next,
    /// After the `]`: only blanks until the end.
    Closed,
}

/// Why reading stopped: the byte offset where the bad document starts, which way it is
/// wrong and what is wrong; the I/O, BSON or JSON error behind it is the
/// [`source`](std::error::Error::source).
#[derive(Debug, Clone)]
pub struct DumpError {
    /// Where the bad document (or line) starts, in bytes from the start of the input.
    pub offset: u64,
    /// Which way the input is wrong: what a program matches on.
    pub kind: DumpErrorKind,
    /// What is wrong, for people: `truncated: ...`, `corrupt document`, `not JSON`, ...
    pub message: String,
    /// The input is gzip-compressed: [`offset`](Self::offset) counts decompressed bytes.
    pub gzip: bool,
    cause: Option<Arc<dyn Error + Send + Sync>>,
}

/// Which way a dump is wrong ([`DumpError::kind`]).
///
/// ```
/// use mongo_schema_cli::dump::{DumpErrorKind, DumpFormat, DumpReader};
///
/// // a BSON file cut two bytes into its first document's length prefix
/// let error = DumpReader::new(&[5u8, 0][..], DumpFormat::Bson).next().unwrap().unwrap_err();
/// assert_eq!((error.offset, error.kind), (0, DumpErrorKind::Truncated));
/// assert_eq!(error.to_string(), "at byte offset 0: truncated: the file ends 2 byte(s) into a document's length prefix");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum DumpErrorKind {
    /// Reading the input failed (the I/O or gzip error is the source).
    Read,
    /// The input ends inside a document, its length prefix, or where an archive needs more.
    Truncated,
    /// A BSON length prefix no document can have: not a BSON dump, or damaged there.
    BadLength,
    /// A BSON document whose elements do not decode (the BSON error is the source).
    CorruptDocument,
    /// A `mongodump --archive` whose framing is wrong: magic number, terminators, headers.
    CorruptArchive,
    /// The archive holds no collection of the namespace asked for (the message lists the
    /// ones it holds).
    MissingCollection,
    /// A line or an array element that is not JSON (serde_json's error is the source).
    NotJson,
    /// A JSON array of documents broken between its elements (`expected ',' or ']' ...`).
    ArraySyntax,
    /// A line longer than [`MAX_LINE`]: not Extended JSON lines.
    LineTooLong,
    /// JSON that is not Extended JSON (bson's error is the source).
    NotExtendedJson,
    /// A line or an array element holding a value that is not a document.
    NotADocument,
    /// A document that cannot be encoded as BSON (bson's error is the source).
    NotEncodable,
}

impl fmt::Display for DumpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let of = if self.gzip { " of the decompressed data" } else { "" };
        write!(f, "at byte offset {}{of}: {}", self.offset, self.message)
    }
}

/// Equal when they say the same: same offset, kind, message and cause text.
impl PartialEq for DumpError {
    fn eq(&self, other: &Self) -> bool {
        let said =
            |e: &DumpError| (e.offset, e.gzip, e.kind, e.message.clone(), e.cause.as_ref().map(|c| c.to_string()));
        said(self) == said(other)
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
    kind: DumpErrorKind,
    message: String,
    cause: Option<Arc<dyn Error + Send + Sync>>,
}

impl Bad {
    /// A problem the message says in full.
    fn new(kind: DumpErrorKind, message: String) -> Self {
        Bad { kind, message, cause: None }
    }

    /// `message`, caused by `e`.
    fn by<E: Error + Send + Sync + 'static>(kind: DumpErrorKind, message: &str) -> impl FnOnce(E) -> Bad + '_ {
        move |e| Bad { kind, message: message.to_owned(), cause: Some(Arc::new(e)) }
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
    /// Documents read so far.
    documents: u64,
    gzip: bool,
    array: ArrayState,
    archive: ArchiveState,
    /// The archive's collection read (`db.collection`); `None`: every collection.
    namespace: Option<String>,
    /// The collections an archive names, in order.
    archive_namespaces: Vec<String>,
    /// An archive prelude's metadata per collection: (`db.collection`, its JSON text).
    archive_metadata: Vec<(String, String)>,
    /// The collection of the archive segment being read.
    segment_namespace: Option<String>,
}

/// The bytes a reader hands on: a file, standard input, or either through gunzip. `Send`,
/// so that the threads checking documents can take turns reading.
pub type Input = BufReader<Box<dyn Read + Send>>;

/// Opens `path` (`-`: standard input) and tells its format from its first bytes.
pub fn open(path: &Path) -> io::Result<DumpReader<Input>> {
    if path == Path::new("-") {
        return from_reader(io::stdin());
    }
    from_reader(File::open(path)?)
}

/// [`open`] over any reader of a dump's bytes (e.g. one that reports progress): gzip
/// (magic `1f 8b`, mongodump `--gzip`) is decompressed, then [`sniff`] picks the format.
pub fn from_reader<R: Read + Send + 'static>(reader: R) -> io::Result<DumpReader<Input>> {
    let mut input: Input = BufReader::with_capacity(1 << 20, Box::new(reader));
    let gzip = input.fill_buf()?.starts_with(&[0x1f, 0x8b]);
    if gzip {
        input = BufReader::with_capacity(1 << 20, Box::new(flate2::read::MultiGzDecoder::new(input)));
    }
    let format = sniff(input.fill_buf()?);
    let mut reader = DumpReader::new(input, format);
    reader.gzip = gzip;
    Ok(reader)
}

/// JSON text starts with `{` (lines) or `[` (an array) after blanks and has no NUL byte
/// (`head` is the first buffer of the input: up to 1 MiB);
/// a BSON document's 4-byte length prefix always holds a NUL below 16 MiB.
pub fn sniff(head: &[u8]) -> DumpFormat {
    let first = head.iter().find(|b| !b.is_ascii_whitespace());
    let prefix = &head[..head.len().min(4)];
    match first {
        _ if prefix == ARCHIVE_MAGIC => DumpFormat::Archive,
        Some(b'{') if !prefix.contains(&0) => DumpFormat::JsonLines,
        Some(b'[') if !prefix.contains(&0) => DumpFormat::JsonArray,
        // Only blanks: blank lines (a BSON length prefix of blanks is far past 16 MiB).
        None if !head.is_empty() => DumpFormat::JsonLines,
        _ => DumpFormat::Bson,
    }
}

/// Counts the bytes serde_json pulls through it.
struct Counted<'a, R> {
    inner: &'a mut R,
    count: u64,
}

impl<R: Read> Read for Counted<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.count += n as u64;
        Ok(n)
    }
}

/// A byte for people: `'x'`, or its value when it does not print.
fn shown(byte: u8) -> String {
    if byte.is_ascii_graphic() {
        format!("'{}'", byte as char)
    } else {
        format!("byte 0x{byte:02x}")
    }
}

impl<R: BufRead> DumpReader<R> {
    /// Reads `input` as `format`, from its first byte (offsets count from there).
    pub fn new(input: R, format: DumpFormat) -> Self {
        DumpReader {
            input,
            format,
            offset: 0,
            start: 0,
            failed: false,
            documents: 0,
            gzip: false,
            array: ArrayState::Open,
            archive: ArchiveState::Magic,
            namespace: None,
            archive_namespaces: Vec::new(),
            archive_metadata: Vec::new(),
            segment_namespace: None,
        }
    }

    /// Reads only the documents of `namespace` (`db.collection`) from an archive; an archive
    /// without that collection ends in an error listing the ones it has. Other formats hold
    /// one collection and ignore this.
    pub fn only_namespace(mut self, namespace: &str) -> Self {
        self.namespace = Some(namespace.to_owned());
        self
    }

    fn next_archive(&mut self, out: &mut Vec<u8>) -> Option<Result<Kind, Bad>> {
        loop {
            self.start = self.offset;
            let mut prefix = [0u8; 4];
            let got = match read_full(&mut self.input, &mut prefix) {
                Ok(n) => n,
                Err(e) => return Some(Err(Bad::by(DumpErrorKind::Read, "read error")(e))),
            };
            let expected = match &self.archive {
                ArchiveState::Magic => "the archive's magic number",
                ArchiveState::Header => "the archive's header document",
                ArchiveState::Prelude => "a collection metadata document or the prelude's terminator",
                ArchiveState::Between => "a namespace header or the end of the archive",
                ArchiveState::EofTerminator => "the terminator after an EOF header",
                ArchiveState::Segment(_) => "a document or the segment's terminator",
            };
            if got == 0 && self.archive == ArchiveState::Between {
                return self.archive_end();
            }
            if got < 4 {
                return Some(Err(Bad::new(
                    DumpErrorKind::Truncated,
                    format!("truncated: the archive ends where {expected} was expected"),
                )));
            }
            let terminator = prefix == TERMINATOR;
            match self.archive.clone() {
                ArchiveState::Magic => {
                    self.offset += 4;
                    if prefix != ARCHIVE_MAGIC {
                        return Some(Err(Bad::new(
                            DumpErrorKind::CorruptArchive,
                            format!("corrupt archive: expected {expected}"),
                        )));
                    }
                    self.archive = ArchiveState::Header;
                }
                ArchiveState::EofTerminator | ArchiveState::Segment(_) | ArchiveState::Prelude if terminator => {
                    self.offset += 4;
                    self.archive = ArchiveState::Between;
                }
                ArchiveState::EofTerminator => {
                    return Some(Err(Bad::new(
                        DumpErrorKind::CorruptArchive,
                        format!("corrupt archive: expected {expected}"),
                    )));
                }
                ArchiveState::Between if terminator => {
                    return Some(Err(Bad::new(
                        DumpErrorKind::CorruptArchive,
                        format!("corrupt archive: expected {expected}, found a terminator"),
                    )));
                }
                ArchiveState::Segment(true) => return Some(self.bson_into(prefix, out).map(|()| Kind::Bson)),
                ArchiveState::Segment(false) => {
                    if let Err(bad) = self.bson_bytes(prefix) {
                        return Some(Err(bad));
                    }
                }
                state => {
                    let doc = match self.bson_bytes(prefix).and_then(decode_bson) {
                        Ok(doc) => doc,
                        Err(bad) => return Some(Err(bad)),
                    };
                    match state {
                        ArchiveState::Header => self.archive = ArchiveState::Prelude,
                        ArchiveState::Prelude | ArchiveState::Between => {
                            let name = |key: &str| doc.get_str(key).ok().map(str::to_owned);
                            let (Some(db), Some(collection)) = (name("db"), name("collection")) else {
                                let what = if state == ArchiveState::Prelude { "metadata" } else { "namespace header" };
                                return Some(Err(Bad::new(
                                    DumpErrorKind::CorruptArchive,
                                    format!(
                                        "corrupt archive: a {what} document without string fields db and collection"
                                    ),
                                )));
                            };
                            let namespace = format!("{db}.{collection}");
                            if state == ArchiveState::Prelude {
                                if let Ok(json) = doc.get_str("metadata") {
                                    self.archive_metadata.push((namespace.clone(), json.to_owned()));
                                }
                                self.archive_namespaces.push(namespace);
                            } else if doc.get_bool("EOF").unwrap_or(false) {
                                self.archive = ArchiveState::EofTerminator;
                            } else {
                                let wanted = self.namespace.as_deref().is_none_or(|n| n == namespace);
                                if !self.archive_namespaces.contains(&namespace) {
                                    self.archive_namespaces.push(namespace.clone());
                                }
                                self.segment_namespace = Some(namespace);
                                self.archive = ArchiveState::Segment(wanted);
                            }
                        }
                        _ => {}
                    }
                }
            }
        }
    }

    /// The end of an archive: an error when the collection asked for is not in it.
    fn archive_end(&mut self) -> Option<Result<Kind, Bad>> {
        let wanted = self.namespace.as_deref()?;
        if self.archive_namespaces.iter().any(|n| n == wanted) {
            return None;
        }
        let held =
            if self.archive_namespaces.is_empty() { "none".to_owned() } else { self.archive_namespaces.join(", ") };
        Some(Err(Bad::new(
            DumpErrorKind::MissingCollection,
            format!("the archive holds no collection {wanted}; it holds: {held}"),
        )))
    }

    /// In an archive, the collection (`db.collection`) of the document read last (its
    /// segment's); `None` in other formats and before the first segment.
    pub fn archive_namespace(&self) -> Option<&str> {
        self.segment_namespace.as_deref()
    }

    /// The collections an archive names (its prelude's, then any segment's), as far as read.
    pub fn archive_namespaces(&self) -> &[String] {
        &self.archive_namespaces
    }

    /// An archive's metadata of `namespace` (`db.collection`): the JSON text mongodump
    /// writes, [`Metadata::parse`] reads it. `None` before the prelude is read (the first
    /// document) and for a collection the prelude does not name.
    pub fn archive_metadata(&self, namespace: &str) -> Option<&str> {
        self.archive_metadata.iter().find(|(ns, _)| ns == namespace).map(|(_, json)| json.as_str())
    }

    /// Documents read so far.
    pub fn documents(&self) -> u64 {
        self.documents
    }

    /// The format read.
    pub fn format(&self) -> DumpFormat {
        self.format
    }

    /// The input is gzip-compressed ([`offset`](Self::offset) counts decompressed bytes).
    pub fn gzip(&self) -> bool {
        self.gzip
    }

    /// Skips blanks; the next byte, not consumed, or `None` at the end.
    fn peek_past_blanks(&mut self) -> io::Result<Option<u8>> {
        loop {
            let buf = match self.input.fill_buf() {
                Ok(buf) => buf,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if buf.is_empty() {
                return Ok(None);
            }
            let blanks = buf.iter().take_while(|b| b.is_ascii_whitespace()).count();
            if blanks < buf.len() {
                let next = buf[blanks];
                self.input.consume(blanks);
                self.offset += blanks as u64;
                return Ok(Some(next));
            }
            let all = buf.len();
            self.input.consume(all);
            self.offset += all as u64;
        }
    }

    /// The next document of a `[doc, doc, ...]` array: a small state machine around
    /// serde_json, which parses one element at a time straight from the input.
    fn next_array(&mut self, out: &mut Vec<u8>) -> Option<Result<Kind, Bad>> {
        loop {
            self.start = self.offset;
            let next = match self.peek_past_blanks() {
                Ok(next) => next,
                Err(e) => return Some(Err(Bad::by(DumpErrorKind::Read, "read error")(e))),
            };
            self.start = self.offset;
            let expected = match (self.array, next) {
                (ArrayState::Closed, None) => return None,
                (ArrayState::Open, Some(b'[')) => {
                    self.consume_one();
                    self.array = ArrayState::First;
                    continue;
                }
                (ArrayState::First | ArrayState::Next, Some(b']')) => {
                    self.consume_one();
                    self.array = ArrayState::Closed;
                    continue;
                }
                (ArrayState::Next, Some(b',')) => {
                    self.consume_one();
                    self.array = ArrayState::First;
                    continue;
                }
                (ArrayState::First, Some(_)) => {
                    self.array = ArrayState::Next;
                    return Some(self.array_element().map(|doc| {
                        out.extend_from_slice(doc.as_bytes());
                        Kind::Checked
                    }));
                }
                (ArrayState::Open, _) => "'[' opening a JSON array",
                (ArrayState::First, None) => "a document or ']'",
                (ArrayState::Next, _) => "',' or ']' after a document of the array",
                (ArrayState::Closed, Some(_)) => "the end of the input after the array's closing ']'",
            };
            let found = next.map_or_else(|| "the end of the input".to_owned(), shown);
            return Some(Err(Bad::new(DumpErrorKind::ArraySyntax, format!("expected {expected}, found {found}"))));
        }
    }

    fn consume_one(&mut self) {
        self.input.consume(1);
        self.offset += 1;
    }

    fn array_element(&mut self) -> Result<RawDocumentBuf, Bad> {
        let mut counted = Counted { inner: &mut self.input, count: 0 };
        let parsed = {
            use serde::Deserialize as _;
            let mut de = serde_json::Deserializer::from_reader(&mut counted);
            serde_json::Value::deserialize(&mut de)
        };
        self.offset += counted.count;
        let value = parsed.map_err(Bad::by(DumpErrorKind::NotJson, "not JSON"))?;
        json_value(value, "an array element")
    }

    /// Bytes consumed so far.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    fn next_bson(&mut self, out: &mut Vec<u8>) -> Option<Result<Kind, Bad>> {
        self.start = self.offset;
        let mut prefix = [0u8; 4];
        let got = match read_full(&mut self.input, &mut prefix) {
            Ok(0) => return None,
            Ok(n) => n,
            Err(e) => return Some(Err(Bad::by(DumpErrorKind::Read, "read error")(e))),
        };
        if got < 4 {
            return Some(Err(Bad::new(
                DumpErrorKind::Truncated,
                format!("truncated: the file ends {got} byte(s) into a document's length prefix"),
            )));
        }
        Some(self.bson_into(prefix, out).map(|()| Kind::Bson))
    }

    /// Appends to `out` the document whose length prefix is `prefix`, not yet checked;
    /// `out` is left as it was on an error.
    fn bson_into(&mut self, prefix: [u8; 4], out: &mut Vec<u8>) -> Result<(), Bad> {
        let len = document_length(prefix)?;
        let start = out.len();
        out.resize(start + len, 0);
        out[start..start + 4].copy_from_slice(&prefix);
        let read = read_full(&mut self.input, &mut out[start + 4..]);
        let got = match read {
            Ok(got) => got,
            Err(e) => {
                out.truncate(start);
                return Err(Bad::by(DumpErrorKind::Read, "read error")(e));
            }
        };
        self.offset += 4 + got as u64;
        if got < len - 4 {
            out.truncate(start);
            return Err(Bad::new(
                DumpErrorKind::Truncated,
                format!("truncated: the document declares {len} bytes, the file ends after {}", got + 4),
            ));
        }
        Ok(())
    }

    /// The bytes of the document whose length prefix is `prefix`, not yet checked.
    fn bson_bytes(&mut self, prefix: [u8; 4]) -> Result<Vec<u8>, Bad> {
        let mut bytes = Vec::new();
        self.bson_into(prefix, &mut bytes)?;
        Ok(bytes)
    }

    fn next_json(&mut self, out: &mut Vec<u8>) -> Option<Result<Kind, Bad>> {
        let start = out.len();
        loop {
            self.start = self.offset;
            out.truncate(start);
            let got = match (&mut self.input).take(MAX_LINE as u64 + 1).read_until(b'\n', out) {
                Ok(0) => return None,
                Ok(n) => n,
                Err(e) => return Some(Err(Bad::by(DumpErrorKind::Read, "read error")(e))),
            };
            self.offset += got as u64;
            if got > MAX_LINE {
                return Some(Err(Bad::new(
                    DumpErrorKind::LineTooLong,
                    format!("line longer than {MAX_LINE} bytes: not Extended JSON lines"),
                )));
            }
            if out[start..].iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            return Some(Ok(Kind::Line));
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

/// The length a BSON document's prefix declares, when a document can have it.
fn document_length(prefix: [u8; 4]) -> Result<usize, Bad> {
    let declared = i32::from_le_bytes(prefix);
    let len = usize::try_from(declared).ok().filter(|n| (5..=MAX_DOCUMENT_SIZE).contains(n));
    len.ok_or_else(|| {
        Bad::new(
            DumpErrorKind::BadLength,
            format!(
            "corrupt: document length {declared} is outside 5..={MAX_DOCUMENT_SIZE}; not a BSON dump, or damaged here"
        ),
        )
    })
}

/// A BSON document's bytes, checked: framing, then every element, nested ones included.
fn decode_bson(bytes: Vec<u8>) -> Result<RawDocumentBuf, Bad> {
    let doc = RawDocumentBuf::from_bytes(bytes).map_err(Bad::by(DumpErrorKind::CorruptDocument, "corrupt document"))?;
    well_formed(&doc).map_err(Bad::by(DumpErrorKind::CorruptDocument, "corrupt document"))?;
    Ok(doc)
}

/// [`decode_bson`] in place.
fn check_bson(bytes: &[u8]) -> Result<&RawDocument, Bad> {
    let doc = RawDocument::from_bytes(bytes).map_err(Bad::by(DumpErrorKind::CorruptDocument, "corrupt document"))?;
    well_formed(doc).map_err(Bad::by(DumpErrorKind::CorruptDocument, "corrupt document"))?;
    Ok(doc)
}

/// Walks every element, embedded documents and arrays included, so damage inside a
/// document is found here (with its offset) rather than half-way through validation.
fn well_formed(doc: &RawDocument) -> Result<(), mongo_schema_core::compat::RawError> {
    for element in doc.iter() {
        nested(element?.1)?;
    }
    Ok(())
}

fn nested(value: RawBsonRef<'_>) -> Result<(), mongo_schema_core::compat::RawError> {
    match value {
        RawBsonRef::Document(doc) => well_formed(doc),
        RawBsonRef::Array(items) => items.into_iter().try_for_each(|item| nested(item?)),
        _ => Ok(()),
    }
}

/// What mongodump keeps of a collection besides its documents (`<collection>.metadata.json`,
/// or an archive prelude's entry): its indexes as `listIndexes` lists them, and its options
/// (`validator`, `validationLevel`, ...) as `listCollections` does.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Metadata {
    /// The index specifications (`_id_` among them).
    pub indexes: Vec<mongo_schema_core::bson::Document>,
    /// The collection's options.
    pub options: mongo_schema_core::bson::Document,
}

impl Metadata {
    /// Reads the metadata's JSON (canonical or relaxed Extended JSON, as mongodump's
    /// versions write it).
    pub fn parse(json: &str) -> Result<Metadata, DumpError> {
        let doc = json_document(json.as_bytes()).map_err(|bad| bad.at(0, false))?;
        let doc = mongo_schema_core::bson::Document::try_from(doc.as_ref())
            .map_err(|e| Bad::by(DumpErrorKind::CorruptDocument, "cannot decode")(e).at(0, false))?;
        let indexes = match doc.get_array("indexes") {
            Ok(list) => list.iter().filter_map(|i| i.as_document().cloned()).collect(),
            Err(_) => Vec::new(),
        };
        let options = doc.get_document("options").cloned().unwrap_or_default();
        Ok(Metadata { indexes, options })
    }
}

/// The `$type` alias of a BSON type code (`array`, `string`), as mongod names types.
fn bson_type_name(code: u8) -> String {
    let alias = mongo_schema_contract::bson::ALIASES.iter().find(|(_, c)| *c == code);
    alias.map_or_else(|| format!("BSON type 0x{code:02x}"), |(name, _)| (*name).to_owned())
}

fn json_document(line: &[u8]) -> Result<RawDocumentBuf, Bad> {
    let value: serde_json::Value = serde_json::from_slice(line).map_err(Bad::by(DumpErrorKind::NotJson, "not JSON"))?;
    json_value(value, "a line")
}

fn json_value(value: serde_json::Value, what: &str) -> Result<RawDocumentBuf, Bad> {
    match Bson::try_from(value) {
        Ok(Bson::Document(doc)) => {
            RawDocumentBuf::try_from(&doc).map_err(Bad::by(DumpErrorKind::NotEncodable, "cannot encode as BSON"))
        }
        Ok(other) => {
            let held = bson_type_name(other.element_type() as u8);
            Err(Bad::new(DumpErrorKind::NotADocument, format!("{what} holds {held}, not a document")))
        }
        Err(e) => Err(Bad::by(DumpErrorKind::NotExtendedJson, "not Extended JSON")(e)),
    }
}

impl<R: BufRead> DumpReader<R> {
    /// Appends the next document's bytes to `out`, as read: not yet decoded. `None` at
    /// the end and after an error; on an error `out` is as it was.
    fn next_item(&mut self, out: &mut Vec<u8>) -> Option<Result<Kind, DumpError>> {
        if self.failed {
            return None;
        }
        let item = match self.format {
            DumpFormat::Bson => self.next_bson(out),
            DumpFormat::JsonLines => self.next_json(out),
            DumpFormat::JsonArray => self.next_array(out),
            DumpFormat::Archive => self.next_archive(out),
        }?;
        self.failed = item.is_err();
        self.documents += u64::from(item.is_ok());
        Some(item.map_err(|bad| bad.at(self.start, self.gzip)))
    }

    /// The next document as read, not yet decoded (see [`Frame`]); `None` at the end and
    /// after an error.
    pub fn next_frame(&mut self) -> Option<Result<Frame, DumpError>> {
        let mut bytes = Vec::new();
        let kind = self.next_item(&mut bytes)?;
        Some(kind.map(|kind| Frame { offset: self.start, gzip: self.gzip, kind, bytes }))
    }

    /// Appends documents to `batch`, as read (not yet decoded), until it holds
    /// `max_documents` or `max_bytes`, or the input ends (nothing is appended then). On an
    /// error, the documents before it stay in the batch.
    pub fn fill(&mut self, batch: &mut Batch, max_documents: usize, max_bytes: usize) -> Result<(), DumpError> {
        batch.gzip = self.gzip;
        while batch.items.len() < max_documents && batch.bytes.len() < max_bytes {
            let start = batch.bytes.len();
            match self.next_item(&mut batch.bytes) {
                None => break,
                Some(Ok(kind)) => batch.items.push(Item { offset: self.start, start, end: batch.bytes.len(), kind }),
                Some(Err(e)) => return Err(e),
            }
        }
        Ok(())
    }
}

impl Bad {
    fn at(self, offset: u64, gzip: bool) -> DumpError {
        DumpError { offset, gzip, kind: self.kind, message: self.message, cause: self.cause }
    }
}

/// What a document's bytes are, as read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// BSON, length prefix checked, elements not yet.
    Bson,
    /// One line of Extended JSON.
    Line,
    /// BSON already checked (a JSON array's element, parsed to find its end).
    Checked,
}

/// One document as the reader cut it from the input, before the work that can run on
/// any thread: checking a BSON document's elements, parsing an Extended JSON line.
/// [`DumpReader::next_frame`] hands them out in input order; [`Frame::decode`] finishes
/// them.
#[derive(Debug, Clone)]
pub struct Frame {
    offset: u64,
    gzip: bool,
    kind: Kind,
    bytes: Vec<u8>,
}

impl Frame {
    /// Where the document starts, in bytes from the start of the (decompressed) input.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// The document, or what is wrong with it (at its offset).
    pub fn decode(self) -> Result<RawDocumentBuf, DumpError> {
        let decoded = match self.kind {
            Kind::Bson => decode_bson(self.bytes),
            Kind::Line => json_document(&self.bytes),
            Kind::Checked => RawDocumentBuf::from_bytes(self.bytes)
                .map_err(Bad::by(DumpErrorKind::CorruptDocument, "corrupt document")),
        };
        decoded.map_err(|bad| bad.at(self.offset, self.gzip))
    }
}

/// Documents as the reader cut them from the input ([`DumpReader::fill`]), in one buffer:
/// what one thread reads and another decodes and validates ([`Batch::decode`]). Cleared,
/// it keeps its memory for the next batch.
#[derive(Debug, Default)]
pub struct Batch {
    bytes: Vec<u8>,
    items: Vec<Item>,
    gzip: bool,
}

#[derive(Debug, Clone, Copy)]
struct Item {
    offset: u64,
    start: usize,
    end: usize,
    kind: Kind,
}

impl Batch {
    /// An empty batch.
    pub fn new() -> Self {
        Batch::default()
    }

    /// Documents in the batch.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// No document in the batch.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// Empties the batch, keeping its memory.
    pub fn clear(&mut self) {
        self.bytes.clear();
        self.items.clear();
    }

    /// Document `i` (in input order), checked or parsed, or what is wrong with it (at its
    /// offset). A BSON document is borrowed from the batch; a JSON line's is built.
    ///
    /// # Panics
    ///
    /// When `i` is not below [`len`](Self::len).
    pub fn decode(&self, i: usize) -> Result<Cow<'_, RawDocument>, DumpError> {
        let item = self.items[i];
        let bytes = &self.bytes[item.start..item.end];
        let decoded = match item.kind {
            Kind::Bson => check_bson(bytes).map(Cow::Borrowed),
            Kind::Line => json_document(bytes).map(Cow::Owned),
            Kind::Checked => RawDocument::from_bytes(bytes)
                .map(Cow::Borrowed)
                .map_err(Bad::by(DumpErrorKind::CorruptDocument, "corrupt document")),
        };
        decoded.map_err(|bad| bad.at(item.offset, self.gzip))
    }
}

impl<R: BufRead> Iterator for DumpReader<R> {
    type Item = Result<RawDocumentBuf, DumpError>;

    fn next(&mut self) -> Option<Self::Item> {
        let decoded = self.next_frame()?.and_then(Frame::decode);
        if decoded.is_err() && !self.failed {
            // the frame was counted when read: it is not a document after all
            self.failed = true;
            self.documents -= 1;
        }
        Some(decoded)
    }
}
