//! `path!`: a field path checked where it is written, against the fields
//! table (`MongoSchema::FIELDS`) every derived struct already has. Nothing is generated
//! per model: a use costs one constant where it is written, so it is on with no feature.
//!
//! The macro turns `path!(Customer.address.city_name)` into one string of segments
//! (`faddress.fcity_name`, see [`resolve`]); the `const fn`s here walk it through the
//! table once, in the use's constant, writing the path into a buffer, and a renamed field
//! fails the build with a message naming the segment and the fields there are.

use super::{Path, Push, PushError};
use crate::schema::{BsonKind, FieldFacts, Keyword, MongoSchema, Shape};
use mongo_schema_contract::rules::ConstMessage;
use serde::Serialize;
use std::fmt;

/// A field path written with `path!` and checked at compile time: the
/// dotted path serde writes (`"addr.cityName"` for `path!(Customer.address.city_name)`),
/// a `&'static str` with no allocation. It reads as a string (`Deref<Target = str>`,
/// `Display`, `Into<String>`), so it goes wherever a key does: `doc! { p.as_str(): 1 }`.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct FieldPath {
    path: &'static str,
    ends: End,
}

/// What the path's last segment holds, for [`FieldPath::push`].
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum End {
    /// An array field, with its `max_items` if declared.
    Array(Option<u64>),
    /// Anything else (a scalar, a document, an element, a key the table does not list).
    Other,
}

impl FieldPath {
    #[doc(hidden)]
    pub const fn __new(resolved: &'static Resolved) -> FieldPath {
        let path = match std::str::from_utf8(resolved.bytes.split_at(resolved.len).0) {
            Ok(path) => path,
            // field names are `&str`s and segments are joined by '.': always UTF-8
            Err(_) => "",
        };
        FieldPath { path, ends: resolved.ends }
    }

    /// The path as text.
    pub const fn as_str(&self) -> &'static str {
        self.path
    }

    /// The `max_items` declared on the array field the path names; `None` for an array
    /// without one and for anything that is not an array field.
    pub const fn max_items(&self) -> Option<u64> {
        match self.ends {
            End::Array(max) => max,
            End::Other => None,
        }
    }

    /// This path with `key` appended: a map's key or an array index known only at run time.
    pub fn join(&self, key: &str) -> Path {
        Path(self.path.to_owned()).join(key)
    }

    /// `{$push: {path: {$each: [items...], $slice: -max_items}}}` for an array field: appends
    /// the items and, when the field declares `max_items`, keeps the newest `max_items` in
    /// the same update (no `$slice` without one). Items are serialized as the driver writes
    /// a document (bson's raw serializer). [`Push::update`] fails for a path that is not an
    /// array field.
    pub fn push<I>(&self, items: I) -> Push
    where
        I: IntoIterator,
        I::Item: Serialize,
    {
        let path = Path(self.path.to_owned());
        let each = match self.ends {
            End::Array(_) => {
                let items: Vec<I::Item> = items.into_iter().collect();
                let values: Vec<&I::Item> = items.iter().collect();
                super::serialize_items(&values)
            }
            End::Other => Err("the path names no array field: `$push` needs one".to_owned()),
        };
        let each = each.map_err(|message| PushError { path: self.path.to_owned(), message });
        Push { path, each, max_items: self.max_items(), sort: None, position: None, keep_first: false }
    }
}

impl std::ops::Deref for FieldPath {
    type Target = str;
    fn deref(&self) -> &str {
        self.path
    }
}

impl AsRef<str> for FieldPath {
    fn as_ref(&self) -> &str {
        self.path
    }
}

impl fmt::Display for FieldPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.path)
    }
}

impl fmt::Debug for FieldPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.path, f)
    }
}

impl From<FieldPath> for String {
    fn from(path: FieldPath) -> String {
        path.path.to_owned()
    }
}

impl From<FieldPath> for Path {
    fn from(path: FieldPath) -> Path {
        Path(path.path.to_owned())
    }
}

impl PartialEq<str> for FieldPath {
    fn eq(&self, other: &str) -> bool {
        self.path == other
    }
}

impl PartialEq<&str> for FieldPath {
    fn eq(&self, other: &&str) -> bool {
        self.path == *other
    }
}

/// One segment of a `path!` as written.
#[derive(Clone, Copy)]
enum Segment {
    /// A Rust field, by its name in the struct (`r#type` as written).
    Field(&'static str),
    /// A key written as a string: a map's key, a key of a value whose fields the table
    /// does not list. Taken as written.
    Key(&'static str),
    /// An array operator or index as written: `$`, `$[]`, `$[id]`, `3`.
    Element(&'static str),
}

/// Where the walk stands between two segments.
#[derive(Clone, Copy)]
enum At {
    /// In a document whose fields the table lists, declared by the struct `owner`.
    Fields(&'static [FieldFacts], &'static str),
    /// On an array (through `levels` nested arrays, 1 for `Vec<T>`) of items of `kind`,
    /// with their fields when the items are documents the table lists.
    Array { levels: u32, kind: BsonKind, fields: Option<&'static [FieldFacts]>, owner: &'static str },
    /// On a map of values of `kind` (with their fields, declared by `owner`, when the table
    /// lists them): the next segment is a key.
    Map { kind: BsonKind, fields: Option<&'static [FieldFacts]>, owner: &'static str },
    /// In a value whose keys the table does not list (an enum, a `Document`, a map's value).
    Unlisted,
    /// On a value that has no fields.
    Scalar(BsonKind),
}

/// Why a segment cannot follow the ones before it.
#[derive(Clone, Copy)]
enum Problem {
    /// A Rust field name the struct does not declare.
    NoField(&'static [FieldFacts], &'static str),
    /// A string key where the struct's fields are known.
    KeyOfKnownFields(&'static [FieldFacts], &'static str),
    /// A Rust field name where the keys are not known.
    FieldOfUnlisted,
    /// An array operator or index on a value that is not an array.
    NotArray(BsonKind),
    /// Anything after a value that has no fields.
    AfterScalar(BsonKind),
    /// A flattened field at the end: its fields are written into the parent.
    Flattened(Option<&'static [FieldFacts]>),
    /// The path would outgrow the buffer it is written into.
    TooLong,
}

/// The longest path `path!` writes, in bytes.
const MAX_PATH: usize = 512;

/// A `path!` walked through the table: the path's bytes and what its end holds.
#[doc(hidden)]
#[derive(Clone, Copy)]
pub struct Resolved {
    bytes: [u8; MAX_PATH],
    len: usize,
    ends: End,
}

/// The walk of `segments` from a root's `fields` (`None`: a root whose keys the table does
/// not list): the path, or the first segment that does not fit and why.
const fn walk(
    fields: Option<&'static [FieldFacts]>,
    owner: &'static str,
    segments: &[Segment],
) -> Result<Resolved, (usize, Problem)> {
    let mut at = match fields {
        Some(list) => At::Fields(list, owner),
        None => At::Unlisted,
    };
    let mut out = Resolved { bytes: [0; MAX_PATH], len: 0, ends: End::Other };
    let mut i = 0;
    while i < segments.len() {
        out.ends = End::Other;
        // an array's items stand where a field or key is named: mongod reaches into them
        if let (At::Array { levels: 1, kind, fields, owner }, Segment::Field(_) | Segment::Key(_)) = (at, segments[i]) {
            at = item(kind, fields, owner);
        }
        let written: &str = match (at, segments[i]) {
            (At::Fields(list, owner), Segment::Field(ident)) => {
                let Some(field) = by_ident(list, ident.as_bytes()) else {
                    return Err((i, Problem::NoField(list, owner)));
                };
                at = holds(field);
                if field.flatten {
                    // serde writes its fields into the parent: no segment of its own, and
                    // no path that is its own
                    if i + 1 == segments.len() {
                        return Err((i, Problem::Flattened(field.fields)));
                    }
                    i += 1;
                    continue;
                }
                if let At::Array { .. } = at {
                    out.ends = End::Array(max_items(field.keywords));
                }
                field.name
            }
            (At::Fields(list, owner), Segment::Key(_)) => return Err((i, Problem::KeyOfKnownFields(list, owner))),
            (At::Map { kind, fields, owner }, Segment::Key(key)) => {
                at = match (kind, fields) {
                    // a map of arrays of documents: the table keeps the documents' fields
                    (BsonKind::Array, Some(_)) => At::Array { levels: 1, kind: BsonKind::Object, fields, owner },
                    _ => item(kind, fields, owner),
                };
                key
            }
            (At::Unlisted, Segment::Key(key)) => key,
            (At::Map { .. } | At::Unlisted, Segment::Field(_)) => return Err((i, Problem::FieldOfUnlisted)),
            (At::Array { levels, kind, fields, owner }, Segment::Element(element)) => {
                at = if levels > 1 {
                    At::Array { levels: levels - 1, kind, fields, owner }
                } else {
                    item(kind, fields, owner)
                };
                element
            }
            (At::Unlisted, Segment::Element(element)) => element,
            (At::Fields(..) | At::Map { .. }, Segment::Element(_)) => {
                return Err((i, Problem::NotArray(BsonKind::Object)))
            }
            (At::Scalar(kind), Segment::Element(_)) => return Err((i, Problem::NotArray(kind))),
            (At::Scalar(kind), _) => return Err((i, Problem::AfterScalar(kind))),
            // arrays of arrays: a field or key needs an element first
            (At::Array { .. }, _) => return Err((i, Problem::AfterScalar(BsonKind::Array))),
        };
        let dot = (out.len > 0) as usize;
        if out.len + dot + written.len() > MAX_PATH {
            return Err((i, Problem::TooLong));
        }
        if dot == 1 {
            out.bytes[out.len] = b'.';
            out.len += 1;
        }
        let mut b = 0;
        while b < written.len() {
            out.bytes[out.len] = written.as_bytes()[b];
            out.len += 1;
            b += 1;
        }
        i += 1;
    }
    Ok(out)
}

/// What a field's value leads to.
const fn holds(field: &'static FieldFacts) -> At {
    let facts = field.facts;
    match facts.shape {
        Shape::Array | Shape::Set | Shape::FixedArray => {
            // `Vec<Vec<T>>`: the item's kind is an array; the table keeps the innermost fields
            let levels = if matches!(facts.item_kind, BsonKind::Array) { 2 } else { 1 };
            At::Array { levels, kind: facts.item_kind, fields: field.fields, owner: field.type_name }
        }
        Shape::Map => At::Map { kind: facts.item_kind, fields: field.fields, owner: field.type_name },
        Shape::Document | Shape::Scalar => match field.fields {
            Some(list) => At::Fields(list, field.type_name),
            None => scalar(facts.kind),
        },
    }
}

/// An array's item or a map's value.
const fn item(kind: BsonKind, fields: Option<&'static [FieldFacts]>, owner: &'static str) -> At {
    match fields {
        Some(list) => At::Fields(list, owner),
        None => scalar(kind),
    }
}

/// A value with no listed fields: a document of unknown keys, or a scalar.
const fn scalar(kind: BsonKind) -> At {
    match kind {
        BsonKind::Object | BsonKind::Any | BsonKind::Mixed | BsonKind::Array => At::Unlisted,
        kind => At::Scalar(kind),
    }
}

const fn by_ident(list: &'static [FieldFacts], ident: &[u8]) -> Option<&'static FieldFacts> {
    let mut i = 0;
    while i < list.len() {
        if mongo_schema_contract::helpers::bytes_eq(list[i].rust_name().as_bytes(), ident) {
            return Some(&list[i]);
        }
        i += 1;
    }
    None
}

const fn max_items(keywords: &[Keyword]) -> Option<u64> {
    let mut i = 0;
    while i < keywords.len() {
        if let Keyword::MaxItems(n) = keywords[i] {
            return Some(n);
        }
        i += 1;
    }
    None
}

/// The path `segments` name from the root `M` (`model`: as written), a build error naming
/// the first segment that does not fit. `segments` is the macro's encoding: each segment
/// after a '.', its kind first (`f` a Rust field, `k` a key, `e` an element), then its text
/// (`faddress.e$[].fcity`): one string literal a use, whatever the path's length.
#[doc(hidden)]
#[track_caller]
pub const fn resolve<M: MongoSchema + ?Sized>(model: &str, segments: &'static str) -> Resolved {
    let (list, count) = decode(segments);
    let segments = list.split_at(count).0;
    match walk(M::FIELDS, M::NAME, segments) {
        Ok(resolved) => resolved,
        Err((index, problem)) => {
            let before = written(model, segments, index);
            let segment = written(model, segments, index + 1);
            let segment = segment.as_str().split_at(before.as_str().len() + 1).1;
            fail(problem, before.as_str(), segment)
        }
    }
}

/// The most segments a path has.
const MAX_SEGMENTS: usize = 32;

/// The segments of the macro's encoding (see [`resolve`]).
#[track_caller]
const fn decode(mut rest: &'static str) -> ([Segment; MAX_SEGMENTS], usize) {
    let mut list = [Segment::Field(""); MAX_SEGMENTS];
    let mut count = 0;
    while !rest.is_empty() {
        let mut end = 0;
        while end < rest.len() && rest.as_bytes()[end] != b'.' {
            end += 1;
        }
        let (segment, after) = rest.split_at(end);
        rest = if after.is_empty() { after } else { after.split_at(1).1 };
        if count == MAX_SEGMENTS {
            panic!("a path of more than 32 segments: mongo-schema's `path!` does not write one");
        }
        let (kind, text) = segment.split_at(1);
        list[count] = match kind.as_bytes()[0] {
            b'f' => Segment::Field(text),
            b'k' => Segment::Key(text),
            _ => Segment::Element(text),
        };
        count += 1;
    }
    (list, count)
}

/// The path as written, up to segment `end` (excluded): `Customer.address."key".$[]`.
const fn written(model: &str, segments: &[Segment], end: usize) -> ConstMessage {
    let mut message = ConstMessage::new().str(model);
    let mut i = 0;
    while i < end {
        message = match segments[i] {
            Segment::Field(text) | Segment::Element(text) => message.str(".").str(text),
            Segment::Key(text) => message.str(".\"").str(text).str("\""),
        };
        i += 1;
    }
    message
}

/// Fails the build: `segment` (as written) cannot follow `before`.
#[track_caller]
const fn fail(problem: Problem, before: &str, segment: &str) -> ! {
    let message = ConstMessage::new().str("`").str(segment).str("` ");
    let message = match problem {
        Problem::NoField(list, owner) => {
            let message = message.str("is not a field of `").str(owner).str("` (at `").str(before).str("`)");
            match by_name(list, segment.as_bytes()) {
                // the key serde writes, named where the Rust field is wanted
                Some(field) => message
                    .str(": it is the key serde writes for the Rust field `")
                    .str(field.rust_name())
                    .str("`; name the field, and the path follows serde's renames"),
                None => fields_of(message.str("; name a Rust field of the struct (the path follows its serde renames): "), list),
            }
        }
        Problem::KeyOfKnownFields(list, owner) => {
            let message =
                message.str("is a key written as a string, where the fields of `").str(owner).str("` are known (at `");
            let message = message.str(before).str("`): ");
            let key = trim_quotes(segment.as_bytes());
            match by_name(list, key) {
                Some(field) => message
                    .str("name the Rust field `")
                    .str(field.rust_name())
                    .str("` instead, so that a rename of the field reaches this path"),
                None => fields_of(message.str("name one of its Rust fields: "), list),
            }
        }
        Problem::FieldOfUnlisted => message
            .str("names a field inside `")
            .str(before)
            .str("`, whose keys the fields table does not list (a map, an enum, a `Document`): write the key as a string, `\"")
            .str(segment)
            .str("\"`, which the build takes as written"),
        Problem::Flattened(fields) => {
            let message = message
                .str("is flattened: serde writes its fields into `")
                .str(before)
                .str("` itself, so it has no path of its own; name one of its fields");
            match fields {
                Some(list) => fields_of(message.str(": "), list),
                None => message.str(" (a key, as a string)"),
            }
        }
        Problem::TooLong => message.str("makes the path longer than mongo-schema's 512 bytes (at `").str(before).str("`)"),
        Problem::NotArray(kind) => message
            .str("is an array operator or index, and `")
            .str(before)
            .str("` holds ")
            .str(kind_name(kind))
            .str(", not an array"),
        Problem::AfterScalar(kind) => match kind {
            BsonKind::Array => message
                .str("follows `")
                .str(before)
                .str("`, an array of arrays: name an element first (`$`, `$[]`, `$[id]` or an index)"),
            kind => message
                .str("follows `")
                .str(before)
                .str("`, which holds ")
                .str(kind_name(kind))
                .str(": it has no fields, the path ends there"),
        },
    };
    panic!("{}", message.as_str())
}

/// The field of `list` that serde writes under `name`.
const fn by_name(list: &'static [FieldFacts], name: &[u8]) -> Option<&'static FieldFacts> {
    match FieldFacts::written(list, name, "") {
        Some((_, field)) => Some(field),
        None => None,
    }
}

/// `"key"` without its quotes.
const fn trim_quotes(text: &[u8]) -> &[u8] {
    match text {
        [b'"', inner @ .., b'"'] => inner,
        text => text,
    }
}

/// `message` followed by the Rust names of `list`'s fields.
const fn fields_of(mut message: ConstMessage, list: &'static [FieldFacts]) -> ConstMessage {
    let (mut i, mut first) = (0, true);
    while i < list.len() {
        if !list[i].rust_name().is_empty() {
            message = message.str(if first { "`" } else { ", `" }).str(list[i].rust_name()).str("`");
            first = false;
        }
        i += 1;
    }
    if first {
        message = message.str("it has none");
    }
    message
}

/// The BSON type's name in a message of `path!` and `query!`.
pub(crate) const fn kind_name(kind: BsonKind) -> &'static str {
    match kind {
        BsonKind::Double => "a double",
        BsonKind::String => "a string",
        BsonKind::Object => "a document",
        BsonKind::Array => "an array",
        BsonKind::BinData => "binData",
        BsonKind::ObjectId => "an objectId",
        BsonKind::Bool => "a bool",
        BsonKind::Date => "a date",
        BsonKind::Null => "null",
        BsonKind::Regex => "a regex",
        BsonKind::Int => "an int (i32)",
        BsonKind::Timestamp => "a timestamp",
        BsonKind::Long => "a long (i64)",
        BsonKind::Decimal => "a decimal (Decimal128)",
        BsonKind::Any | BsonKind::Mixed => "a value of no single type",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_reads_as_the_text_it_holds() {
        let path = FieldPath { path: "addr.cityName", ends: End::Other };
        assert_eq!(path, "addr.cityName");
        assert_eq!(path.to_string(), "addr.cityName");
        assert_eq!(format!("{path:?}"), "\"addr.cityName\"");
        assert_eq!(path.join("x").as_str(), "addr.cityName.x");
        assert_eq!(path.max_items(), None);
    }

    #[test]
    fn a_push_to_a_path_that_is_no_array_is_an_error() {
        let path = FieldPath { path: "name", ends: End::Other };
        let error = path.push(["a"]).update().expect_err("not an array");
        assert!(error.to_string().contains("names no array field"), "{error}");
        let unbounded = FieldPath { path: "tags", ends: End::Array(None) };
        let update = unbounded.push(["a"]).update().expect("strings serialize");
        assert_eq!(update, crate::bson::doc! { "$push": { "tags": { "$each": ["a"] } } });
    }
}
