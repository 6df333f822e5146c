//! The inference state: what one pass over a collection's documents saw at every path.
//! Every part of it is bounded (distinct strings, keys, array lengths and example `_id`s
//! are capped), so memory follows the state, never the number of documents read.

use mongo_schema_core::bson::{RawBsonRef, RawDocument};
use std::collections::BTreeMap;

/// Distinct strings kept per path: the enum candidates. More, and the path is free text.
pub const MAX_STRINGS: usize = 32;
/// Distinct keys kept per embedded document before it is taken for a map (its keys are data).
pub const MAX_KEYS: usize = 256;
/// Example `_id`s kept per path and kind.
pub const EXAMPLES: usize = 3;
/// Array lengths counted one by one up to this; longer arrays share one bucket. Also the
/// standard's greatest `max_items`.
pub const MAX_LENGTH: u32 = 1000;
/// The longest arrays kept per path (their documents), so that the few far longer than the
/// rest can be counted exactly as anomalies.
pub const LONGEST: usize = 100;
/// Keys whose co-occurrence is tracked (rename candidates), per document level.
const TRACKED_KEYS: usize = 64;
/// Nesting followed; deeper values are counted by kind only.
const MAX_NESTING: usize = 64;

/// A BSON type as `$type` names it (`binData` of subtype 4 apart: `uuid`).
#[allow(missing_docs)] // the variants are the BSON types of the same names
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    Double,
    String,
    Object,
    Array,
    BinData,
    Uuid,
    Undefined,
    ObjectId,
    Bool,
    Date,
    Null,
    Regex,
    DbPointer,
    JavaScript,
    Symbol,
    JavaScriptWithScope,
    Int,
    Timestamp,
    Long,
    Decimal,
    MinKey,
    MaxKey,
}

impl Kind {
    /// The `$type` alias (`uuid`: binData subtype 4).
    pub fn name(self) -> &'static str {
        match self {
            Kind::Double => "double",
            Kind::String => "string",
            Kind::Object => "object",
            Kind::Array => "array",
            Kind::BinData => "binData",
            Kind::Uuid => "uuid",
            Kind::Undefined => "undefined",
            Kind::ObjectId => "objectId",
            Kind::Bool => "bool",
            Kind::Date => "date",
            Kind::Null => "null",
            Kind::Regex => "regex",
            Kind::DbPointer => "dbPointer",
            Kind::JavaScript => "javascript",
            Kind::Symbol => "symbol",
            Kind::JavaScriptWithScope => "javascriptWithScope",
            Kind::Int => "int32",
            Kind::Timestamp => "timestamp",
            Kind::Long => "int64",
            Kind::Decimal => "decimal128",
            Kind::MinKey => "minKey",
            Kind::MaxKey => "maxKey",
        }
    }

    fn of(value: &RawBsonRef<'_>) -> Kind {
        match value {
            RawBsonRef::Double(_) => Kind::Double,
            RawBsonRef::String(_) => Kind::String,
            RawBsonRef::Document(_) => Kind::Object,
            RawBsonRef::Array(_) => Kind::Array,
            RawBsonRef::Binary(b) if b.subtype == mongo_schema_core::bson::spec::BinarySubtype::Uuid => Kind::Uuid,
            RawBsonRef::Binary(_) => Kind::BinData,
            RawBsonRef::Undefined => Kind::Undefined,
            RawBsonRef::ObjectId(_) => Kind::ObjectId,
            RawBsonRef::Boolean(_) => Kind::Bool,
            RawBsonRef::DateTime(_) => Kind::Date,
            RawBsonRef::Null => Kind::Null,
            RawBsonRef::RegularExpression(_) => Kind::Regex,
            RawBsonRef::DbPointer(_) => Kind::DbPointer,
            RawBsonRef::JavaScriptCode(_) => Kind::JavaScript,
            RawBsonRef::Symbol(_) => Kind::Symbol,
            RawBsonRef::JavaScriptCodeWithScope(_) => Kind::JavaScriptWithScope,
            RawBsonRef::Int32(_) => Kind::Int,
            RawBsonRef::Timestamp(_) => Kind::Timestamp,
            RawBsonRef::Int64(_) => Kind::Long,
            RawBsonRef::Decimal128(_) => Kind::Decimal,
            RawBsonRef::MinKey => Kind::MinKey,
            RawBsonRef::MaxKey => Kind::MaxKey,
        }
    }
}

/// How often something was seen: values, the documents holding one, and the first
/// documents' `_id`s.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Seen {
    /// Values (an array's items each count).
    pub values: u64,
    /// Documents of the collection holding at least one.
    pub documents: u64,
    /// `_id`s (relaxed Extended JSON) of the first [`EXAMPLES`] documents.
    pub examples: Vec<String>,
    last: u64,
}

impl Seen {
    fn add(&mut self, doc: &Doc<'_>) {
        self.values += 1;
        if self.last != doc.seq {
            self.last = doc.seq;
            self.documents += 1;
            if self.examples.len() < EXAMPLES {
                self.examples.push(doc.id.to_owned());
            }
        }
    }

    fn merge(&mut self, other: &Seen) {
        self.values += other.values;
        // the same document may be counted on both sides: a bound, not an exact count
        self.documents = self.documents.max(other.documents);
        for id in &other.examples {
            if self.examples.len() < EXAMPLES && !self.examples.contains(id) {
                self.examples.push(id.clone());
            }
        }
    }
}

/// The document a value is in: its sequence number in the pass and its `_id`.
pub struct Doc<'a> {
    /// The document's number in the pass (from 1).
    pub seq: u64,
    /// Its `_id`, as the report shows it.
    pub id: &'a str,
}

/// What the values at one path were.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Values {
    /// Each BSON kind seen, with its count of values.
    pub kinds: BTreeMap<Kind, Seen>,
    /// Distinct strings with counts, up to [`MAX_STRINGS`]; `None` past it.
    pub strings: Option<BTreeMap<String, u64>>,
    /// Strings of 24 hex digits (an ObjectId's text).
    pub hex_strings: u64,
    /// Strings that start as an ISO 8601 date (`2024-03-01...`).
    pub date_strings: u64,
    /// Strings in the 8-4-4-4-12 hex form of a UUID.
    pub uuid_strings: u64,
    /// Doubles with no fractional part.
    pub integral_doubles: u64,
    /// Doubles an int32 cannot hold (integral or not).
    pub wide_doubles: u64,
    /// Doubles with one; their documents are kept too (an integer field refuses them).
    pub fractional: Seen,
    /// Array lengths (longer than [`MAX_LENGTH`]: counted at `MAX_LENGTH + 1`).
    pub lengths: BTreeMap<u32, u64>,
    /// Arrays longer than [`MAX_LENGTH`].
    pub too_long: Seen,
    /// The [`LONGEST`] longest arrays, longest first (the first seen first among equals):
    /// (length, the document's number in the pass, its `_id`).
    pub longest: Vec<(u32, u64, String)>,
    /// The items of the arrays.
    pub items: Option<Box<Values>>,
    /// The embedded documents.
    pub object: Option<Box<Object>>,
}

/// What the documents at one path held: their keys, each with its values.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Object {
    /// Documents seen here.
    pub count: u64,
    /// The keys in the order first seen, each with its stats (empty once a map).
    pub fields: Vec<Field>,
    /// More than [`MAX_KEYS`] distinct keys: the keys are data, the values are in `map`.
    pub overflowed: bool,
    /// The values of every key, merged (kept once [`overflowed`](Self::overflowed)).
    pub map: Option<Box<Values>>,
    /// The most keys one document held.
    pub max_keys: u64,
    /// Keys that look like data (an ObjectId's hex, a number, a date, a UUID), counted once each.
    pub data_keys: u64,
    /// At the root: per (key position, string value), the keys seen with it (first
    /// `TRACKED_KEYS` keys, at most 16 values a key).
    pub by_value: BTreeMap<(u8, String), Together>,
    /// Key positions with more distinct string values than are tracked.
    pub many_values: u64,
    /// Distinct keys counted; once [`overflowed`](Self::overflowed), a lower bound (keys are
    /// no longer told apart).
    pub distinct_keys: u64,
}

/// The documents in which one key held one string value: which keys they all had, and
/// which any had (bits by key position). Kept at the root for discriminator candidates.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Together {
    /// Documents with this value.
    pub documents: u64,
    /// Keys every one of them had.
    pub all: u64,
    /// Keys any of them had.
    pub any: u64,
}

/// String values tracked per key for discriminators; past this, the key is no discriminator.
const DISCRIMINATOR_VALUES: usize = 16;

/// One key of an embedded document.
#[derive(Debug, Clone, PartialEq)]
pub struct Field {
    /// The key.
    pub key: String,
    /// Documents (at this level) holding the key, `null` included.
    pub present: u64,
    /// The collection's documents holding the key somewhere (an array's embedded documents
    /// count once per document), with their first `_id`s.
    pub holders: Seen,
    /// Its values.
    pub values: Values,
    /// For the first `TRACKED_KEYS` keys: the keys (by position) seen in a document with it.
    pub seen_with: u64,
}

/// One collection's inference state.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Collection {
    /// Documents holding one (for a map's values, at least this many).
    pub documents: u64,
    /// The documents themselves.
    pub root: Object,
}

impl Collection {
    /// Adds one document to the state.
    pub fn observe(&mut self, doc: &RawDocument) -> Result<(), mongo_schema_core::compat::RawError> {
        self.documents += 1;
        let id = match doc.get("_id")? {
            Some(id) => id_text(id),
            None => "(no _id)".to_owned(),
        };
        let at = Doc { seq: self.documents, id: &id };
        self.root.observe(doc, &at, 0)
    }
}

/// An `_id` as the report shows it: relaxed Extended JSON.
pub fn id_text(id: RawBsonRef<'_>) -> String {
    match id {
        RawBsonRef::ObjectId(oid) => format!("ObjectId(\"{}\")", oid.to_hex()),
        RawBsonRef::String(s) => format!("{s:?}"),
        RawBsonRef::Int32(n) => n.to_string(),
        RawBsonRef::Int64(n) => n.to_string(),
        other => match mongo_schema_core::bson::Bson::try_from(other) {
            Ok(b) => b.into_relaxed_extjson().to_string(),
            Err(_) => "(unreadable _id)".to_owned(),
        },
    }
}

impl Object {
    fn observe(
        &mut self,
        doc: &RawDocument,
        at: &Doc<'_>,
        depth: usize,
    ) -> Result<(), mongo_schema_core::compat::RawError> {
        self.count += 1;
        let mut keys = 0u64;
        let mut mask = 0u64;
        let mut strings: Vec<(usize, &str)> = Vec::new();
        for element in doc.iter() {
            let (key, value) = element?;
            let key = mongo_schema_core::compat::key_str(key);
            keys += 1;
            if self.overflowed && key != "_id" {
                self.map.get_or_insert_with(Default::default).observe(value, at, depth + 1)?;
                continue;
            }
            let position = match self.fields.iter().position(|f| f.key == key) {
                Some(p) => p,
                None => {
                    self.distinct_keys += 1;
                    self.data_keys += u64::from(data_key(key));
                    if self.fields.len() >= MAX_KEYS {
                        self.overflow();
                        self.map.get_or_insert_with(Default::default).observe(value, at, depth + 1)?;
                        continue;
                    }
                    self.fields.push(Field {
                        key: key.to_owned(),
                        present: 0,
                        holders: Seen::default(),
                        values: Values::default(),
                        seen_with: 0,
                    });
                    self.fields.len() - 1
                }
            };
            if position < TRACKED_KEYS {
                mask |= 1 << position;
                if let (0, RawBsonRef::String(s)) = (depth, value) {
                    strings.push((position, s));
                }
            }
            let field = &mut self.fields[position];
            field.present += 1;
            field.holders.add(at);
            field.values.observe(value, at, depth + 1)?;
        }
        self.max_keys = self.max_keys.max(keys);
        for (position, value) in strings {
            if self.many_values & (1 << position) != 0 {
                continue;
            }
            let key = (position as u8, value.to_owned());
            let known = self
                .by_value
                .range((position as u8, String::new())..)
                .take_while(|((p, _), _)| *p as usize == position)
                .count();
            if !self.by_value.contains_key(&key) && known >= DISCRIMINATOR_VALUES {
                self.many_values |= 1 << position;
                self.by_value.retain(|(p, _), _| *p as usize != position);
                continue;
            }
            let together = self.by_value.entry(key).or_insert(Together { documents: 0, all: u64::MAX, any: 0 });
            together.documents += 1;
            together.all &= mask;
            together.any |= mask;
        }
        for (i, field) in self.fields.iter_mut().enumerate().take(TRACKED_KEYS) {
            if mask & (1 << i) != 0 {
                field.seen_with |= mask;
            }
        }
        Ok(())
    }

    /// Too many distinct keys: they are data. The fields' values merge into one map value,
    /// but for `_id`'s (a collection's documents keep theirs beside the data).
    fn overflow(&mut self) {
        self.overflowed = true;
        let map = self.map.get_or_insert_with(Default::default);
        for field in std::mem::take(&mut self.fields) {
            match field.key == "_id" {
                true => self.fields.push(field),
                false => map.merge(&field.values),
            }
        }
    }

    /// The values of every key but `_id` merged: a root's entries when its keys are data.
    pub fn merged_data(&self) -> Values {
        let mut merged = self.map.as_deref().cloned().unwrap_or_default();
        for field in self.fields.iter().filter(|f| f.key != "_id") {
            merged.merge(&field.values);
        }
        merged
    }

    /// The values of every key merged (a map's value), whether or not it overflowed.
    pub fn merged(&self) -> Values {
        let mut merged = self.map.as_deref().cloned().unwrap_or_default();
        for field in &self.fields {
            merged.merge(&field.values);
        }
        merged
    }
}

/// A key that is data rather than a name: an ObjectId's hex, a number, a date, a UUID.
pub fn data_key(key: &str) -> bool {
    hex24(key) || (!key.is_empty() && key.bytes().all(|b| b.is_ascii_digit())) || date_text(key) || uuid_text(key)
}

fn hex24(s: &str) -> bool {
    s.len() == 24 && s.bytes().all(|b| b.is_ascii_hexdigit())
}

/// `YYYY-MM-DD`, alone or followed by a time.
fn date_text(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() >= 10
        && b[..4].iter().all(u8::is_ascii_digit)
        && b[4] == b'-'
        && b[5..7].iter().all(u8::is_ascii_digit)
        && b[7] == b'-'
        && b[8..10].iter().all(u8::is_ascii_digit)
        && (b.len() == 10 || matches!(b[10], b'T' | b' '))
}

fn uuid_text(s: &str) -> bool {
    s.len() == 36
        && s.bytes().enumerate().all(|(i, b)| match i {
            8 | 13 | 18 | 23 => b == b'-',
            _ => b.is_ascii_hexdigit(),
        })
}

impl Values {
    fn observe(
        &mut self,
        value: RawBsonRef<'_>,
        at: &Doc<'_>,
        depth: usize,
    ) -> Result<(), mongo_schema_core::compat::RawError> {
        let kind = Kind::of(&value);
        self.kinds.entry(kind).or_default().add(at);
        match value {
            RawBsonRef::String(s) => {
                self.hex_strings += u64::from(hex24(s));
                self.date_strings += u64::from(date_text(s));
                self.uuid_strings += u64::from(uuid_text(s));
                if self.strings.is_none() && self.kinds[&Kind::String].values == 1 {
                    self.strings = Some(BTreeMap::new());
                }
                if let Some(strings) = &mut self.strings {
                    if let Some(n) = strings.get_mut(s) {
                        *n += 1;
                    } else if strings.len() < MAX_STRINGS {
                        strings.insert(s.to_owned(), 1);
                    } else {
                        self.strings = None;
                    }
                }
            }
            RawBsonRef::Double(d) => {
                self.wide_doubles += u64::from(!(f64::from(i32::MIN)..=f64::from(i32::MAX)).contains(&d));
                match d.fract() == 0.0 && d.is_finite() {
                    true => self.integral_doubles += 1,
                    false => self.fractional.add(at),
                }
            }
            RawBsonRef::Array(items) if depth < MAX_NESTING => {
                let mut length = 0u32;
                let values = self.items.get_or_insert_with(Default::default);
                for item in items {
                    values.observe(item?, at, depth + 1)?;
                    length = length.saturating_add(1);
                }
                if length > MAX_LENGTH {
                    self.too_long.add(at);
                }
                if self.longest.len() < LONGEST || self.longest.last().is_some_and(|(l, _, _)| length > *l) {
                    let at_rank = self.longest.partition_point(|(l, _, _)| *l >= length);
                    self.longest.insert(at_rank, (length, at.seq, at.id.to_owned()));
                    self.longest.truncate(LONGEST);
                }
                *self.lengths.entry(length.min(MAX_LENGTH + 1)).or_default() += 1;
            }
            RawBsonRef::Document(doc) if depth < MAX_NESTING => {
                self.object.get_or_insert_with(Default::default).observe(doc, at, depth)?;
            }
            _ => {}
        }
        Ok(())
    }

    /// Every value seen at this path, `null` included.
    pub fn total(&self) -> u64 {
        self.kinds.values().map(|s| s.values).sum()
    }

    /// Values of `kind`.
    pub fn count(&self, kind: Kind) -> u64 {
        self.kinds.get(&kind).map_or(0, |s| s.values)
    }

    /// The longest array (longer than [`MAX_LENGTH`]: `MAX_LENGTH + 1`).
    pub fn max_length(&self) -> u32 {
        self.lengths.keys().next_back().copied().unwrap_or(0)
    }

    /// Arrays longer than `bound`, with the documents holding one, when every such array is
    /// among the [`LONGEST`] kept (`None` otherwise: too many to tell their documents).
    pub fn longer_than(&self, bound: u32) -> Option<Seen> {
        let over: u64 = self.lengths.range(bound + 1..).map(|(_, n)| n).sum();
        if over > self.longest.len() as u64 {
            return None;
        }
        let mut hits: Vec<(u64, &str)> =
            self.longest.iter().filter(|(l, _, _)| *l > bound).map(|(_, seq, id)| (*seq, id.as_str())).collect();
        // in document order, as a pass would have seen them
        hits.sort_unstable();
        let mut seen = Seen::default();
        for (seq, id) in hits {
            seen.add(&Doc { seq, id });
        }
        Some(seen)
    }

    /// The length `percent` % of the arrays do not exceed.
    pub fn length_percentile(&self, percent: u64) -> u32 {
        let total: u64 = self.lengths.values().sum();
        let wanted = (total * percent).div_ceil(100);
        let mut seen = 0;
        for (length, n) in &self.lengths {
            seen += n;
            if seen >= wanted {
                return *length;
            }
        }
        0
    }

    /// Adds what `other` saw (a map's values: every key's merged).
    pub fn merge(&mut self, other: &Values) {
        for (kind, seen) in &other.kinds {
            self.kinds.entry(*kind).or_default().merge(seen);
        }
        let had_strings = self.count(Kind::String) > other.count(Kind::String);
        self.strings = match (self.strings.take(), &other.strings) {
            (Some(mut mine), Some(theirs)) => {
                for (s, n) in theirs {
                    *mine.entry(s.clone()).or_default() += n;
                }
                (mine.len() <= MAX_STRINGS).then_some(mine)
            }
            (None, Some(theirs)) if !had_strings => Some(theirs.clone()),
            (Some(mine), None) if other.count(Kind::String) == 0 => Some(mine),
            _ => None,
        };
        self.hex_strings += other.hex_strings;
        self.date_strings += other.date_strings;
        self.uuid_strings += other.uuid_strings;
        self.integral_doubles += other.integral_doubles;
        self.wide_doubles += other.wide_doubles;
        self.fractional.merge(&other.fractional);
        for (length, n) in &other.lengths {
            *self.lengths.entry(*length).or_default() += n;
        }
        self.too_long.merge(&other.too_long);
        for entry in &other.longest {
            let at_rank = self.longest.partition_point(|(l, _, _)| *l >= entry.0);
            self.longest.insert(at_rank, entry.clone());
        }
        self.longest.truncate(LONGEST);
        if let Some(items) = &other.items {
            self.items.get_or_insert_with(Default::default).merge(items);
        }
        if let Some(object) = &other.object {
            self.object.get_or_insert_with(Default::default).merge(object);
        }
    }
}

impl Object {
    fn merge(&mut self, other: &Object) {
        self.count += other.count;
        self.max_keys = self.max_keys.max(other.max_keys);
        self.data_keys += other.data_keys;
        self.distinct_keys += other.distinct_keys;
        if let Some(map) = &other.map {
            self.map.get_or_insert_with(Default::default).merge(map);
        }
        self.overflowed |= other.overflowed;
        for field in &other.fields {
            if self.overflowed && field.key != "_id" {
                self.map.get_or_insert_with(Default::default).merge(&field.values);
                continue;
            }
            match self.fields.iter_mut().find(|f| f.key == field.key) {
                Some(mine) => {
                    mine.present += field.present;
                    mine.holders.merge(&field.holders);
                    mine.values.merge(&field.values);
                    // positions differ between the two: co-occurrence is no longer known
                    mine.seen_with = u64::MAX;
                }
                None => self.fields.push(Field { seen_with: u64::MAX, ..field.clone() }),
            }
        }
        if self.fields.len() > MAX_KEYS {
            self.overflow();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mongo_schema_core::bson::{doc, Document, RawDocumentBuf};

    fn observe(collection: &mut Collection, doc: Document) {
        collection.observe(&RawDocumentBuf::try_from(&doc).unwrap()).unwrap();
    }

    #[test]
    fn kinds_presence_and_documents_are_counted_per_path() {
        let mut c = Collection::default();
        observe(&mut c, doc! { "_id": 1, "n": 1, "tags": ["a", "b", "a"] });
        observe(&mut c, doc! { "_id": 2, "n": 2.5, "tags": [] });
        observe(&mut c, doc! { "_id": 3, "n": null });
        assert_eq!(c.documents, 3);
        let n = &c.root.fields[1];
        assert_eq!((n.key.as_str(), n.present), ("n", 3));
        assert_eq!((n.values.count(Kind::Int), n.values.count(Kind::Double), n.values.count(Kind::Null)), (1, 1, 1));
        assert_eq!(n.values.fractional.examples, ["2"]);
        let tags = &c.root.fields[2];
        assert_eq!(tags.present, 2);
        let items = tags.values.items.as_deref().unwrap();
        // three string values, in one document
        assert_eq!((items.count(Kind::String), items.kinds[&Kind::String].documents), (3, 1));
        assert_eq!(items.strings.as_ref().unwrap().get("a"), Some(&2));
        assert_eq!(tags.values.max_length(), 3);
        assert_eq!(tags.values.length_percentile(50), 0);
        assert_eq!(tags.values.length_percentile(100), 3);
    }

    #[test]
    fn distinct_strings_and_keys_are_capped() {
        let mut c = Collection::default();
        for i in 0..(MAX_KEYS as i32 + 10) {
            let mut inner = Document::new();
            inner.insert(format!("k{i}"), i);
            observe(&mut c, doc! { "_id": i, "s": format!("v{i}"), "m": inner });
        }
        let s = &c.root.fields[1].values;
        assert_eq!(s.strings, None, "past {MAX_STRINGS} distinct strings, none are kept");
        let m = c.root.fields[2].values.object.as_deref().unwrap();
        assert!(m.overflowed);
        assert!(m.fields.is_empty(), "the keys are dropped once they are data");
        // past the cap, keys are no longer told apart: at least this many
        assert_eq!(m.distinct_keys, MAX_KEYS as u64 + 1);
        assert_eq!(m.merged().count(Kind::Int), MAX_KEYS as u64 + 10);
        assert_eq!(m.max_keys, 1);
    }

    #[test]
    fn keys_never_together_are_told_apart_from_keys_together() {
        let mut c = Collection::default();
        observe(&mut c, doc! { "_id": 1, "old": 1, "both": 1 });
        observe(&mut c, doc! { "_id": 2, "new": 1, "both": 1 });
        let [_, old, both, new] = &c.root.fields[..] else { panic!("{:?}", c.root.fields) };
        assert_eq!(old.seen_with & (1 << 3), 0, "old and new never met");
        assert_ne!(old.seen_with & (1 << 2), 0);
        assert_ne!(both.seen_with & (1 << 3), 0);
        assert_eq!(new.seen_with & (1 << 1), 0);
    }

    #[test]
    fn data_keys_and_string_shapes() {
        assert!(data_key("65a1b2c3d4e5f60718293a4b"));
        assert!(data_key("2024-03-01"));
        assert!(data_key("12345"));
        assert!(data_key("123e4567-e89b-12d3-a456-426614174000"));
        assert!(!data_key("createTime"));
        assert!(!data_key("2024-03-01x"));
        let mut c = Collection::default();
        observe(&mut c, doc! { "_id": 1, "at": "2024-03-01T10:00:00Z", "ref": "65a1b2c3d4e5f60718293a4b" });
        assert_eq!(c.root.fields[1].values.date_strings, 1);
        assert_eq!(c.root.fields[2].values.hex_strings, 1);
    }
}
