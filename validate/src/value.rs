//! One view over BSON values, whether decoded (`&Bson`, here) or raw bytes (our own reader,
//! in `walk`), so the validator is written once and monomorphised twice.

use mongo_schema_core::bson::spec::ElementType;
use mongo_schema_core::bson::{Bson, Document};

use super::bytes::same;
use mongo_schema_core::view::number::{BsonNumber, Dec};

/// Raw bytes that do not parse as BSON (only `validate_raw` can meet them).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Malformed(pub String);

impl From<mongo_schema_core::compat::RawError> for Malformed {
    fn from(err: mongo_schema_core::compat::RawError) -> Self {
        Malformed(err.to_string())
    }
}

impl From<mongo_schema_core::compat::RawError> for Box<Malformed> {
    fn from(err: mongo_schema_core::compat::RawError) -> Self {
        Box::new(Malformed::from(err))
    }
}

/// Boxed, so a `Res<bool>` comes back in registers (the error is rare and already allocates).
pub(crate) type Res<T> = Result<T, Box<Malformed>>;

/// The scalar content of a value; documents and arrays stay behind their handles.
#[derive(Clone, Copy)]
pub(crate) enum View<'a, D, A> {
    Double(f64),
    String(&'a str),
    Document(D),
    Array(A),
    Binary { subtype: u8, bytes: &'a [u8] },
    Undefined,
    ObjectId([u8; 12]),
    Boolean(bool),
    DateTime(i64),
    Null,
    Regex { pattern: &'a str, options: &'a str },
    DbPointer,
    Code(&'a str),
    Symbol(&'a str),
    CodeWithScope { code: &'a str, scope: D },
    Int32(i32),
    Timestamp(u64),
    Int64(i64),
    Decimal([u8; 16]),
    MinKey,
    MaxKey,
}

/// A BSON value the validator can inspect.
pub(crate) trait Value<'a>: Copy {
    type Doc: Doc<'a, Value = Self>;
    type Arr: Arr<'a, Value = Self>;
    fn view(self) -> View<'a, Self::Doc, Self::Arr>;
    fn element_type(self) -> ElementType;
    /// The text of a string (not a symbol or code), which the string keywords restrict.
    fn text(self) -> Option<&'a str>;
    /// The value of an int, long, double or decimal, which the numeric keywords restrict.
    fn num(self) -> Option<BsonNumber>;
    fn to_bson(self) -> Res<Bson>;
}

/// A BSON document the validator can iterate.
pub(crate) trait Doc<'a>: Copy {
    type Value: Value<'a, Doc = Self>;
    type Fields: FieldIter<'a, Self::Value>;
    fn fields(self) -> Self::Fields;
    fn get(self, key: &str) -> Res<Option<Self::Value>>;
    /// The document as a value (the root document, or a dependency's object).
    fn as_value(self) -> Self::Value;
}

/// The fields of a document, in stored order.
pub(crate) trait FieldIter<'a, V>: Iterator<Item = Res<(&'a str, V)>> {
    /// The next field, and whether its name is `expected`: for a reader that can compare a
    /// likely name in place more cheaply than it can find where an unknown name ends.
    /// `expected` holds no NUL byte (a raw key ends at its first, so none could equal it).
    #[inline(always)]
    fn next_expecting(&mut self, expected: Option<&str>) -> Option<Res<(&'a str, V, bool)>> {
        Some(
            self.next()?
                .map(|(name, value)| (name, value, expected.is_some_and(|e| same(e.as_bytes(), name.as_bytes())))),
        )
    }
}

/// A BSON array the validator can iterate.
pub(crate) trait Arr<'a>: Copy {
    type Value: Value<'a, Arr = Self>;
    type Items: Iterator<Item = Res<Self::Value>>;
    fn items(self) -> Self::Items;
}

/// A decoded value: an element of a `Document`, or a whole `Document` (the root).
#[derive(Clone, Copy, Debug)]
pub(crate) enum Decoded<'a> {
    Bson(&'a Bson),
    Root(&'a Document),
}

impl<'a> Value<'a> for Decoded<'a> {
    type Doc = &'a Document;
    type Arr = &'a [Bson];

    fn view(self) -> View<'a, &'a Document, &'a [Bson]> {
        let value = match self {
            Decoded::Root(d) => return View::Document(d),
            Decoded::Bson(value) => value,
        };
        match value {
            Bson::Double(d) => View::Double(*d),
            Bson::String(s) => View::String(s),
            Bson::Document(d) => View::Document(d),
            Bson::Array(a) => View::Array(a),
            Bson::Binary(b) => View::Binary { subtype: u8::from(b.subtype), bytes: &b.bytes },
            Bson::Undefined => View::Undefined,
            Bson::ObjectId(o) => View::ObjectId(o.bytes()),
            Bson::Boolean(b) => View::Boolean(*b),
            Bson::DateTime(d) => View::DateTime(d.timestamp_millis()),
            Bson::Null => View::Null,
            Bson::RegularExpression(r) => View::Regex { pattern: r.pattern.as_str(), options: r.options.as_str() },
            Bson::DbPointer(_) => View::DbPointer,
            Bson::JavaScriptCode(c) => View::Code(c),
            Bson::Symbol(s) => View::Symbol(s),
            Bson::JavaScriptCodeWithScope(c) => View::CodeWithScope { code: &c.code, scope: &c.scope },
            Bson::Int32(i) => View::Int32(*i),
            Bson::Timestamp(t) => View::Timestamp(timestamp_bits(*t)),
            Bson::Int64(i) => View::Int64(*i),
            Bson::Decimal128(d) => View::Decimal(d.bytes()),
            Bson::MinKey => View::MinKey,
            Bson::MaxKey => View::MaxKey,
        }
    }

    fn element_type(self) -> ElementType {
        match self {
            Decoded::Bson(value) => value.element_type(),
            Decoded::Root(_) => ElementType::EmbeddedDocument,
        }
    }

    fn text(self) -> Option<&'a str> {
        match self {
            Decoded::Bson(Bson::String(s)) => Some(s),
            _ => None,
        }
    }

    fn num(self) -> Option<BsonNumber> {
        match self {
            Decoded::Bson(Bson::Int32(v)) => Some(BsonNumber::Long(i64::from(*v))),
            Decoded::Bson(Bson::Int64(v)) => Some(BsonNumber::Long(*v)),
            Decoded::Bson(Bson::Double(v)) => Some(BsonNumber::Double(*v)),
            Decoded::Bson(Bson::Decimal128(d)) => Some(BsonNumber::Decimal(Dec::from_bytes(d.bytes()))),
            _ => None,
        }
    }

    fn to_bson(self) -> Res<Bson> {
        match self {
            Decoded::Bson(value) => Ok(value.clone()),
            Decoded::Root(d) => Ok(Bson::Document(d.clone())),
        }
    }
}

fn timestamp_bits(t: mongo_schema_core::bson::Timestamp) -> u64 {
    (u64::from(t.time) << 32) | u64::from(t.increment)
}

/// Fields of a decoded document, in stored order.
pub(crate) struct BsonFields<'a>(mongo_schema_core::bson::document::Iter<'a>);

impl<'a> Iterator for BsonFields<'a> {
    type Item = Res<(&'a str, Decoded<'a>)>;
    fn next(&mut self) -> Option<Self::Item> {
        self.0.next().map(|(k, v)| Ok((k.as_str(), Decoded::Bson(v))))
    }
}

impl<'a> FieldIter<'a, Decoded<'a>> for BsonFields<'a> {}

impl<'a> Doc<'a> for &'a Document {
    type Value = Decoded<'a>;
    type Fields = BsonFields<'a>;

    fn fields(self) -> BsonFields<'a> {
        BsonFields(self.iter())
    }

    fn get(self, key: &str) -> Res<Option<Decoded<'a>>> {
        Ok(Document::get(self, key).map(Decoded::Bson))
    }

    fn as_value(self) -> Decoded<'a> {
        Decoded::Root(self)
    }
}

/// Elements of a decoded array.
pub(crate) struct BsonItems<'a>(std::slice::Iter<'a, Bson>);

impl<'a> Iterator for BsonItems<'a> {
    type Item = Res<Decoded<'a>>;
    fn next(&mut self) -> Option<Self::Item> {
        self.0.next().map(|v| Ok(Decoded::Bson(v)))
    }
}

impl<'a> Arr<'a> for &'a [Bson] {
    type Value = Decoded<'a>;
    type Items = BsonItems<'a>;

    fn items(self) -> BsonItems<'a> {
        BsonItems(self.iter())
    }
}
