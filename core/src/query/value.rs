//! What a `query!` is at run time ([`Query`]: the filter document, the options as
//! documents and as the driver's option types) and how its values are checked and written:
//! a value compared with a key must be of a Rust type the key's BSON type stores
//! ([`Stores`], whose class argument the query's constant computes from the model), and
//! is written as the model writes it (a `chrono` date as a BSON date, a `rust_decimal` as
//! a Decimal128, a `uuid` as binData subtype 4), not as serde's default would.

use super::shape::{Direction, Shape};
use crate::bson::{Bson, Document};
use crate::paths::UnitEnum;
use crate::schema::MongoSchema;
use serde::Serialize;
use std::marker::PhantomData;

/// The classes of values a key takes, as the const generic argument of [`Class`]
/// ([`super::check::value_class`] computes it from the model).
pub const ANY: u8 = 0;
/// `double`
pub const DOUBLE: u8 = 1;
/// `string`
pub const STRING: u8 = 2;
/// an embedded document of listed fields
pub const DOCUMENT: u8 = 3;
/// `binData`
pub const BINARY: u8 = 4;
/// `objectId`
pub const OBJECT_ID: u8 = 5;
/// `bool`
pub const BOOL: u8 = 6;
/// `date`
pub const DATE: u8 = 7;
/// `int`
pub const INT: u8 = 8;
/// `long`
pub const LONG: u8 = 9;
/// `decimal`
pub const DECIMAL: u8 = 10;
/// `timestamp`
pub const TIMESTAMP: u8 = 11;
/// `regex`
pub const REGEX: u8 = 12;
/// a string out of a derived enum's unit variants
pub const ENUM: u8 = 13;
/// the argument of `$size` and `$mod`: an integer
pub const COUNT: u8 = 14;
/// the pattern of `$regex`: a string or a regex
pub const PATTERN: u8 = 15;

/// The kinds of values, as types: `Class<{ value_class::<Order>("createTime") }>` names
/// one of them through [`Kind`], so the compiler's trait check says which.
pub mod kinds {
    macro_rules! kinds {
        ($($name:ident = $code:ident: $doc:literal),* $(,)?) => {$(
            #[doc = $doc]
            #[derive(Debug)]
            pub enum $name {}
            impl super::Kind for super::Class<{ super::$code }> {
                type Is = $name;
            }
        )*};
    }
    kinds! {
        AnyValue = ANY: "Any value (a `Bson` field, a map's or a document's unlisted keys).",
        Double = DOUBLE: "A `double` field: `f64`, `f32`, an integer of up to 32 bits or an `i64`.",
        String = STRING: "A `string` field: `String`, `&str`, `char`.",
        EmbeddedDocument = DOCUMENT: "An embedded document: a `Document` or a derived struct.",
        Binary = BINARY: "A `binData` field: `Binary`, `bson::Uuid`, `uuid::Uuid`.",
        ObjectId = OBJECT_ID: "An `objectId` field: `ObjectId`.",
        Bool = BOOL: "A `bool` field: `bool`.",
        Date = DATE: "A `date` field: `bson::DateTime`, `chrono::DateTime<Utc>`, `SystemTime`.",
        Int32 = INT: "An `int` field (i32): `i32`, `i16`, `i8`, `u16`, `u8`.",
        Int64 = LONG: "A `long` field (i64): `i64`, `i32`, `u32` and smaller integers.",
        Decimal128 = DECIMAL: "A `decimal` field: `Decimal128`, `rust_decimal::Decimal`, an integer.",
        Timestamp = TIMESTAMP: "A `timestamp` field: `bson::Timestamp`.",
        Regex = REGEX: "A `regex` field: `bson::Regex`.",
        EnumVariant = ENUM: "A field of a derived enum of unit variants: the enum (serialized; a reference, an `Option`, a `Box` of it), or a string (`String`, `&str`, an `Option` of one).",
        Count = COUNT: "The integer argument of `$size` or `$mod`.",
        Pattern = PATTERN: "The pattern of `$regex`: a string or a `bson::Regex`.",
    }
}

/// A class code as a type.
#[doc(hidden)]
pub struct Class<const C: u8>;

/// The kind type of a [`Class`].
#[doc(hidden)]
pub trait Kind {
    /// One of [`kinds`].
    type Is;
}

/// A Rust value that can be compared with a key storing `K` (one of [`kinds`]), and the
/// BSON it is compared as.
#[diagnostic::on_unimplemented(
    message = "a `{Self}` cannot be compared with this key, which stores `{K}`",
    label = "a `{Self}` here matches no document",
    note = "query! compares a value with what the model stores at the key; `{K}` lists the Rust types it takes",
    note = "a string is never equal to a date, a number or an ObjectId in mongod: parse it first (`DateTime::parse_rfc3339_str`, `ObjectId::parse_str`, `Decimal128::from_str`)"
)]
pub trait Stores<K> {
    /// The value as the model writes it.
    fn to_bson(&self) -> Bson;
}

/// One value of a `query!`, checked and written (the macro calls it spanned at the value).
#[doc(hidden)]
#[inline]
pub fn value<K, V: Stores<K>>(value: V) -> Bson {
    value.to_bson()
}

/// An array of values, each checked (an `$in` or `$all` given as an expression).
#[doc(hidden)]
pub fn values<K, I>(values: I) -> Bson
where
    I: IntoIterator,
    I::Item: Stores<K>,
{
    Bson::Array(values.into_iter().map(|v| v.to_bson()).collect())
}

/// Serializes a value as the driver would (bson's serializer): derived types and `Bson`.
#[doc(hidden)]
pub fn serialized<V: Serialize + ?Sized>(value: &V) -> Bson {
    match crate::compat::to_bson(value) {
        Ok(bson) => bson,
        // a derived type whose serde output is no BSON value (a map with non-string keys)
        Err(error) => panic!("query!: the value does not serialize to BSON: {error}"),
    }
}

macro_rules! stores {
    ($kind:ident: $($ty:ty => |$v:ident| $body:expr),* $(,)?) => {$(
        impl Stores<kinds::$kind> for $ty {
            #[inline]
            fn to_bson(&self) -> Bson {
                let $v = self;
                $body
            }
        }
        impl Stores<kinds::$kind> for &$ty {
            #[inline]
            fn to_bson(&self) -> Bson {
                let $v = *self;
                $body
            }
        }
    )*};
}

stores!(Double:
    f64 => |v| Bson::Double(*v), f32 => |v| Bson::Double(f64::from(*v)),
    i8 => |v| Bson::Int32(i32::from(*v)), i16 => |v| Bson::Int32(i32::from(*v)), i32 => |v| Bson::Int32(*v),
    u8 => |v| Bson::Int32(i32::from(*v)), u16 => |v| Bson::Int32(i32::from(*v)), u32 => |v| Bson::Int64(i64::from(*v)),
    i64 => |v| Bson::Int64(*v),
);
stores!(Int32:
    i8 => |v| Bson::Int32(i32::from(*v)), i16 => |v| Bson::Int32(i32::from(*v)), i32 => |v| Bson::Int32(*v),
    u8 => |v| Bson::Int32(i32::from(*v)), u16 => |v| Bson::Int32(i32::from(*v)),
);
stores!(Int64:
    i8 => |v| Bson::Int32(i32::from(*v)), i16 => |v| Bson::Int32(i32::from(*v)), i32 => |v| Bson::Int32(*v),
    u8 => |v| Bson::Int32(i32::from(*v)), u16 => |v| Bson::Int32(i32::from(*v)), u32 => |v| Bson::Int64(i64::from(*v)),
    i64 => |v| Bson::Int64(*v),
);
stores!(Decimal128:
    crate::bson::Decimal128 => |v| Bson::Decimal128(*v),
    i8 => |v| Bson::Int32(i32::from(*v)), i16 => |v| Bson::Int32(i32::from(*v)), i32 => |v| Bson::Int32(*v),
    u8 => |v| Bson::Int32(i32::from(*v)), u16 => |v| Bson::Int32(i32::from(*v)), u32 => |v| Bson::Int64(i64::from(*v)),
    i64 => |v| Bson::Int64(*v),
);
#[cfg(feature = "decimal")]
stores!(Decimal128: rust_decimal::Decimal => |v| Bson::Decimal128(crate::serde_helpers::decimal_to_decimal128(*v)));
stores!(Count:
    i8 => |v| Bson::Int32(i32::from(*v)), i16 => |v| Bson::Int32(i32::from(*v)), i32 => |v| Bson::Int32(*v),
    u8 => |v| Bson::Int32(i32::from(*v)), u16 => |v| Bson::Int32(i32::from(*v)), u32 => |v| Bson::Int64(i64::from(*v)),
    i64 => |v| Bson::Int64(*v),
    usize => |v| Bson::Int64(i64::try_from(*v).unwrap_or(i64::MAX)),
);
stores!(String:
    String => |v| Bson::String(v.clone()), str => |v| Bson::String(v.to_owned()),
    char => |v| Bson::String(v.to_string()), std::borrow::Cow<'_, str> => |v| Bson::String(v.to_string()),
);
/// A derived enum of unit variants (`Status::Paid`), and anything `MongoSchema` passes its
/// paths through (`&Status`, `Option<Status>`, `Box<Status>`): one impl for all of them,
/// keyed on the paths type the derive gives such an enum ([`UnitEnum`], through
/// `EnumPaths`), so the derive writes no impl of its own. Written as serde writes it,
/// which is the variant's string (`None`: `null`); a variant serde skips is never written
/// and matches no document.
impl<T: MongoSchema + ?Sized> Stores<kinds::EnumVariant> for T
where
    T::Fields: EnumPaths<T>,
{
    #[inline]
    fn to_bson(&self) -> Bson {
        <T::Fields as EnumPaths<T>>::to_bson(self)
    }
}

/// The paths of `T` are a derived unit enum's ([`UnitEnum`]), and `T` is written by serde:
/// what the blanket `Stores<EnumVariant>` impl asks of a value, so that a value of another
/// type gets the error `Stores` would give (naming the value's type).
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "a `{T}` cannot be compared with this key, which stores `EnumVariant`",
    label = "a `{T}` here matches no document",
    note = "query! compares a value with what the model stores at the key; `EnumVariant` lists the Rust types it takes: the enum (`Status::Paid`, a reference or an `Option` of it) or its variant's string; several values go under `$in` (`{{ \"$in\": [Status::Paid, Status::Shipped] }}`)"
)]
pub trait EnumPaths<T: ?Sized> {
    /// The value as serde writes it.
    fn to_bson(value: &T) -> Bson;
}

impl<T: Serialize + ?Sized> EnumPaths<T> for UnitEnum {
    #[inline]
    fn to_bson(value: &T) -> Bson {
        crate::compat::to_bson(value).unwrap_or_else(|_| Bson::String(String::new()))
    }
}

/// The strings compared with a key of a derived enum (the blanket impl above takes every
/// type whose paths are [`UnitEnum`]: `&T` and `Option<T>` cannot be generic here).
macro_rules! enum_strings {
    ($($ty:ty => |$v:ident| $body:expr),* $(,)?) => {$(
        impl Stores<kinds::EnumVariant> for $ty {
            #[inline]
            fn to_bson(&self) -> Bson {
                let $v = self;
                $body
            }
        }
    )*};
}

enum_strings!(
    String => |v| Bson::String(v.clone()),
    str => |v| Bson::String(v.to_owned()),
    &String => |v| Bson::String((*v).clone()),
    &str => |v| Bson::String((*v).to_owned()),
    &&str => |v| Bson::String((**v).to_owned()),
    Bson => |v| v.clone(),
    &Bson => |v| (*v).clone(),
    Option<String> => |v| v.as_ref().map_or(Bson::Null, |s| Bson::String(s.clone())),
    Option<&String> => |v| v.map_or(Bson::Null, |s| Bson::String(s.clone())),
    Option<&str> => |v| v.map_or(Bson::Null, |s| Bson::String(s.to_owned())),
);

stores!(Pattern:
    String => |v| Bson::String(v.clone()), str => |v| Bson::String(v.to_owned()),
    crate::bson::Regex => |v| Bson::RegularExpression(v.clone()),
);
stores!(Bool: bool => |v| Bson::Boolean(*v));
stores!(ObjectId: crate::bson::oid::ObjectId => |v| Bson::ObjectId(*v));
stores!(Date:
    crate::bson::DateTime => |v| Bson::DateTime(*v),
    std::time::SystemTime => |v| Bson::DateTime(crate::bson::DateTime::from_system_time(*v)),
);
#[cfg(feature = "chrono-0_4")]
stores!(Date: chrono::DateTime<chrono::Utc> => |v| Bson::DateTime(crate::bson::DateTime::from_millis(v.timestamp_millis())));
stores!(Binary:
    crate::bson::Binary => |v| Bson::Binary(v.clone()),
    crate::bson::Uuid => |v| Bson::Binary(crate::bson::Binary::from_uuid(*v)),
);
#[cfg(feature = "uuid-1")]
stores!(Binary: uuid::Uuid => |v| Bson::Binary(crate::bson::Binary::from_uuid(crate::bson::Uuid::from_bytes(v.into_bytes()))));
stores!(Timestamp: crate::bson::Timestamp => |v| Bson::Timestamp(*v));
stores!(Regex: crate::bson::Regex => |v| Bson::RegularExpression(v.clone()));
stores!(EmbeddedDocument: Document => |v| Bson::Document(v.clone()));

/// An `Option` of a value a key takes: `None` is `null` (which also matches a missing key);
/// a `Bson` value, taken as it is (the one way to pass a value the check cannot read).
macro_rules! open_values {
    ($($kind:ident),*) => {$(
        impl<T: Stores<kinds::$kind>> Stores<kinds::$kind> for Option<T> {
            #[inline]
            fn to_bson(&self) -> Bson {
                match self {
                    Some(value) => value.to_bson(),
                    None => Bson::Null,
                }
            }
        }
        impl Stores<kinds::$kind> for Bson {
            #[inline]
            fn to_bson(&self) -> Bson {
                self.clone()
            }
        }
    )*};
}

open_values!(
    Double,
    String,
    EmbeddedDocument,
    Binary,
    ObjectId,
    Bool,
    Date,
    Int32,
    Int64,
    Decimal128,
    Timestamp,
    Regex
);

impl<T: Serialize + ?Sized> Stores<kinds::AnyValue> for T {
    #[inline]
    fn to_bson(&self) -> Bson {
        serialized(self)
    }
}

/// The driver's option types a [`Query`] fills: `(FindOptions, CountOptions)` of the
/// `mongodb` crate the user's crate depends on (the macro reads its `Cargo.toml`).
#[diagnostic::on_unimplemented(
    message = "this query has no driver option types: `query!` found no `mongodb` dependency in this crate's Cargo.toml",
    note = "add `mongodb = \"3\"` to `[dependencies]`, or pass the documents yourself: `q.sort()`, `q.projection()`, `q.limit()`, `q.skip()`"
)]
pub trait Driver {
    /// `mongodb::options::FindOptions`.
    type Find: serde::de::DeserializeOwned;
    /// `mongodb::options::CountOptions`.
    type Count: serde::de::DeserializeOwned;
}

impl<F: serde::de::DeserializeOwned, C: serde::de::DeserializeOwned> Driver for (F, C) {
    type Find = F;
    type Count = C;
}

/// A query written with `query!`: its filter document and its options, checked against
/// the model at compile time. `D` is the driver's option types (see [`Driver`]).
pub struct Query<D = ()> {
    shape: &'static Shape,
    filter: Document,
    driver: PhantomData<fn() -> D>,
}

impl<D> Clone for Query<D> {
    fn clone(&self) -> Self {
        Query { shape: self.shape, filter: self.filter.clone(), driver: PhantomData }
    }
}

impl<D> std::fmt::Debug for Query<D> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Query")
            .field("filter", &self.filter)
            .field("sort", &self.sort())
            .field("projection", &self.projection())
            .field("limit", &self.shape.limit)
            .field("skip", &self.shape.skip)
            .finish()
    }
}

impl<D> Query<D> {
    #[doc(hidden)]
    pub fn __new(shape: &'static Shape, filter: Document) -> Self {
        Query { shape, filter, driver: PhantomData }
    }

    /// The filter document, for `find`, `find_one`, `count_documents`, `delete_many`,
    /// `update_many` (a copy: the driver takes it by value).
    pub fn filter(&self) -> Document {
        self.filter.clone()
    }

    /// The filter document, without a copy.
    pub fn into_filter(self) -> Document {
        self.filter
    }

    /// The filter document, borrowed.
    pub fn filter_ref(&self) -> &Document {
        &self.filter
    }

    /// What the macro read of the query (keys, operators, options), as the planner and
    /// `schema queries` read it.
    pub fn shape(&self) -> &'static Shape {
        self.shape
    }

    /// `sort = { .. }` as a document, `None` without one.
    pub fn sort(&self) -> Option<Document> {
        if self.shape.sort.is_empty() {
            return None;
        }
        let mut sort = Document::new();
        for (key, direction) in self.shape.sort {
            let n = match direction {
                Direction::Ascending => 1,
                Direction::Descending => -1,
            };
            sort.insert(*key, Bson::Int32(n));
        }
        Some(sort)
    }

    /// `projection = ..` as a document, `None` without one.
    pub fn projection(&self) -> Option<Document> {
        if self.shape.projection.is_empty() {
            return None;
        }
        let mut projection = Document::new();
        for (key, included) in self.shape.projection {
            projection.insert(*key, Bson::Int32(i32::from(*included)));
        }
        Some(projection)
    }

    /// `limit = N`.
    pub fn limit(&self) -> Option<u64> {
        self.shape.limit
    }

    /// `skip = N`.
    pub fn skip(&self) -> Option<u64> {
        self.shape.skip
    }

    /// The aggregation stages that find the same documents: `$match`, then `$sort`,
    /// `$skip`, `$limit` and `$project` where the query has them.
    pub fn pipeline(&self) -> Vec<Document> {
        let mut stages = vec![crate::bson::doc! { "$match": self.filter.clone() }];
        if let Some(sort) = self.sort() {
            stages.push(crate::bson::doc! { "$sort": sort });
        }
        if let Some(skip) = self.shape.skip {
            stages.push(crate::bson::doc! { "$skip": i64::try_from(skip).unwrap_or(i64::MAX) });
        }
        if let Some(limit) = self.shape.limit {
            stages.push(crate::bson::doc! { "$limit": i64::try_from(limit).unwrap_or(i64::MAX) });
        }
        if let Some(projection) = self.projection() {
            stages.push(crate::bson::doc! { "$project": projection });
        }
        stages
    }

    /// The options of `find` as a document (`sort`, `projection`, `limit`, `skip`): the
    /// fields of the driver's `FindOptions`.
    pub fn find_options_document(&self) -> Document {
        let mut options = Document::new();
        if let Some(sort) = self.sort() {
            options.insert("sort", sort);
        }
        if let Some(projection) = self.projection() {
            options.insert("projection", projection);
        }
        if let Some(limit) = self.shape.limit {
            options.insert("limit", i64::try_from(limit).unwrap_or(i64::MAX));
        }
        if let Some(skip) = self.shape.skip {
            options.insert("skip", i64::try_from(skip).unwrap_or(i64::MAX));
        }
        options
    }

    /// The options of `count_documents` as a document (`limit`, `skip`).
    pub fn count_options_document(&self) -> Document {
        let mut options = Document::new();
        if let Some(limit) = self.shape.limit {
            options.insert("limit", i64::try_from(limit).unwrap_or(i64::MAX));
        }
        if let Some(skip) = self.shape.skip {
            options.insert("skip", i64::try_from(skip).unwrap_or(i64::MAX));
        }
        options
    }
}

impl<D> Query<D> {
    /// The driver's `FindOptions`: the sort, projection, limit and skip of the query.
    /// (The bound is on the method, so that a crate without the driver is told why.)
    pub fn find_options(&self) -> D::Find
    where
        D: Driver,
    {
        driver_options(self.find_options_document())
    }

    /// The driver's `CountOptions`: the limit and skip of the query.
    pub fn count_options(&self) -> D::Count
    where
        D: Driver,
    {
        driver_options(self.count_options_document())
    }
}

fn driver_options<T: serde::de::DeserializeOwned>(options: Document) -> T {
    match crate::compat::from_document(options) {
        Ok(options) => options,
        // the fields are the driver's own names and types: only a driver that renamed them
        Err(error) => {
            panic!("query!: the driver's options type does not read {{sort, projection, limit, skip}}: {error}")
        }
    }
}
