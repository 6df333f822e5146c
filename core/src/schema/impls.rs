//! `MongoSchema` for std, bson and foreign types, each mapped to what bson's raw
//! serializer (the driver's path) writes, numbers widened to what bson's deserializer
//! reads back (README.md lists the mapping). The widths
//! follow bson 3: `u32`/`u64` go out as Int64, `u64` above `i64::MAX` fails to serialize,
//! `i128`/`u128` are unsupported and have no impl.

use super::{bson_type, size, BsonKind, FieldFacts, MongoSchema, SchemaFacts, Shape};
use crate::bson::{doc, Bson, Document};
use crate::paths::{Array, Leaf, Map};
#[cfg(any(feature = "decimal", feature = "chrono-0_4", feature = "uuid-1"))]
use mongo_schema_contract::helpers;
use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, LinkedList, VecDeque};
use std::rc::Rc;
use std::sync::Arc;

/// An integer of a Rust type whose values lie in `min..=max`. bson's deserializer reads
/// an Int32 and an Int64 into every integer width when the value is in range (and never a
/// Double), and mongosh, `$inc` upserts and relaxed-JSON imports write Int32 for small
/// values whatever the field's width: so both BSON integer types are admitted, within
/// the Rust type's range (a bound that a BSON `long` already has is not written).
fn integer(min: i64, max: i64) -> Document {
    let mut schema = doc! { "bsonType": ["int", "long"] };
    if min > i64::MIN {
        schema.insert("minimum", narrow(min));
    }
    if max < i64::MAX {
        schema.insert("maximum", narrow(max));
    }
    schema
}

/// A float: serde's float visitors read a Double and every integer (converted; a `long`
/// beyond 2⁵³ rounds), so mongosh's `NumberInt`/`NumberLong` and `$inc` upserts read back.
/// Not `decimal`: bson reads a Decimal128 into no float.
fn float() -> Document {
    doc! { "bsonType": ["double", "int", "long"] }
}

/// An `i64` as Int32 when it fits, so schemas read as people write them.
pub(crate) fn narrow(n: i64) -> Bson {
    i32::try_from(n).map_or(Bson::Int64(n), Bson::Int32)
}

/// `type => kind [size], schema;`: the size defaults to the kind's fixed size.
macro_rules! leaf {
    ($($ty:ty => $kind:ident $([$size:expr])?, $schema:expr;)*) => {$(
        impl MongoSchema for $ty {
            type Fields = Leaf;
            const FACTS: SchemaFacts = SchemaFacts::scalar(BsonKind::$kind, leaf!(@size $kind $($size)?));
            fn json_schema() -> Document {
                $schema
            }
        }
    )*};
    (@size $kind:ident) => { BsonKind::$kind.fixed_size() };
    (@size $kind:ident $size:expr) => { $size };
}

leaf! {
    bool => Bool, bson_type("bool");
    i8 => Int, integer(i8::MIN.into(), i8::MAX.into());
    i16 => Int, integer(i16::MIN.into(), i16::MAX.into());
    i32 => Int, integer(i32::MIN.into(), i32::MAX.into());
    u8 => Int, integer(0, u8::MAX.into());
    u16 => Int, integer(0, u16::MAX.into());
    i64 => Long, integer(i64::MIN, i64::MAX);
    u32 => Long, integer(0, u32::MAX.into());
    u64 => Long, integer(0, i64::MAX);
    isize => Long, integer(isize::MIN as i64, isize::MAX as i64);
    usize => Long, integer(0, i64::try_from(usize::MAX).unwrap_or(i64::MAX));
    f32 => Double, float();
    f64 => Double, float();
    char => String [size::string(Some(1))], doc! { "bsonType": "string", "minLength": 1, "maxLength": 1 };
    String => String, bson_type("string");
    str => String, bson_type("string");
    () => Null, bson_type("null");
}

/// The bson types of one major: both majors' serializers write each the same way (the
/// driver's raw serializer and `to_document` alike), so both get the same schema, and a
/// build with both features (features unify) accepts either major's types in a model.
macro_rules! bson_leaves {
    ($bson:ident) => {
        leaf! {
            $bson::oid::ObjectId => ObjectId, bson_type("objectId");
            $bson::DateTime => Date, bson_type("date");
            $bson::Decimal128 => Decimal, bson_type("decimal");
            $bson::Timestamp => Timestamp, bson_type("timestamp");
            $bson::Binary => BinData, bson_type("binData");
            $bson::Uuid => BinData [Some(size::binary(16))], bson_type("binData");
            $bson::Regex => Regex, bson_type("regex");
            $bson::Document => Object, bson_type("object");
            $bson::RawDocumentBuf => Object, bson_type("object");
            $bson::Bson => Any, Document::new();
        }
    };
}
#[cfg(feature = "bson-2")]
bson_leaves!(bson2);
#[cfg(feature = "bson-3")]
bson_leaves!(bson3);

/// serde's default for `Decimal` is a string; the runtime's helper writes Decimal128.
#[cfg(feature = "decimal")]
impl MongoSchema for rust_decimal::Decimal {
    type Fields = Leaf;
    const FACTS: SchemaFacts =
        SchemaFacts::scalar(BsonKind::Decimal, BsonKind::Decimal.fixed_size()).with_helper(helpers::DECIMAL128);
    fn json_schema() -> Document {
        bson_type("decimal")
    }
}

#[cfg(feature = "chrono-0_4")]
impl MongoSchema for chrono::DateTime<chrono::Utc> {
    type Fields = Leaf;
    const FACTS: SchemaFacts =
        SchemaFacts::scalar(BsonKind::Date, BsonKind::Date.fixed_size()).with_helper(helpers::CHRONO_DATETIME);
    fn json_schema() -> Document {
        bson_type("date")
    }
}

#[cfg(feature = "uuid-1")]
impl MongoSchema for uuid::Uuid {
    type Fields = Leaf;
    const FACTS: SchemaFacts =
        SchemaFacts::scalar(BsonKind::BinData, Some(size::binary(16))).with_helper(helpers::UUID_BINARY);
    fn json_schema() -> Document {
        bson_type("binData")
    }
}

/// `T` may be `null`: `Option::None` is written as `null` unless the field skips it.
pub fn nullable(mut schema: Document) -> Document {
    let mut typed = false;
    match schema.get_mut("bsonType") {
        Some(Bson::String(alias)) if alias != "null" => {
            let alias = std::mem::take(alias);
            schema.insert("bsonType", vec![Bson::String(alias), Bson::from("null")]);
            typed = true;
        }
        Some(Bson::Array(aliases)) => {
            if !aliases.contains(&Bson::from("null")) {
                aliases.push(Bson::from("null"));
            }
            typed = true;
        }
        Some(_) => typed = true,
        None => {}
    }
    if let Some(Bson::Array(values)) = schema.get_mut("enum") {
        if !values.contains(&Bson::Null) {
            values.push(Bson::Null);
        }
        typed = true;
    }
    if typed || schema.is_empty() {
        return schema;
    }
    doc! { "anyOf": [bson_type("null"), schema] }
}

impl<T: MongoSchema> MongoSchema for Option<T> {
    type Fields = T::Fields;
    const FACTS: SchemaFacts = SchemaFacts { nullable: true, ..T::FACTS };
    const FIELDS: Option<&'static [FieldFacts]> = T::FIELDS;
    const NAME: &'static str = T::NAME;
    const TAGGED: Option<&'static [FieldFacts]> = T::TAGGED;
    fn json_schema() -> Document {
        nullable(T::json_schema())
    }
}

macro_rules! transparent {
    ($($ty:ty),*) => {$(
        impl<T: MongoSchema + ?Sized> MongoSchema for $ty {
            type Fields = T::Fields;
            const FACTS: SchemaFacts = T::FACTS;
            const FIELDS: Option<&'static [FieldFacts]> = T::FIELDS;
            const NAME: &'static str = T::NAME;
            const TAGGED: Option<&'static [FieldFacts]> = T::TAGGED;
            fn json_schema() -> Document {
                T::json_schema()
            }
        }
    )*};
}

transparent!(Box<T>, Arc<T>, Rc<T>, &T);

impl<T: MongoSchema + ToOwned + ?Sized> MongoSchema for Cow<'_, T> {
    type Fields = T::Fields;
    const FACTS: SchemaFacts = T::FACTS;
    const FIELDS: Option<&'static [FieldFacts]> = T::FIELDS;
    const NAME: &'static str = T::NAME;
    const TAGGED: Option<&'static [FieldFacts]> = T::TAGGED;
    fn json_schema() -> Document {
        T::json_schema()
    }
}

/// `{bsonType: "array", items: <item>}`, plus `uniqueItems` for sets.
pub fn array_of(items: Document, unique: bool) -> Document {
    let mut schema = doc! { "bsonType": "array", "items": items };
    if unique {
        schema.insert("uniqueItems", true);
    }
    schema
}

/// The fields a container passes on from its items (a map: its values): none when the
/// items are maps themselves, whose keys come between the container's and their fields
/// and which a path's walk would take for field names.
const fn item_fields(item: SchemaFacts, fields: Option<&'static [FieldFacts]>) -> Option<&'static [FieldFacts]> {
    match item.shape {
        Shape::Map => None,
        _ => fields,
    }
}

const fn sequence_facts(item: SchemaFacts, shape: Shape) -> SchemaFacts {
    SchemaFacts {
        kind: BsonKind::Array,
        shape,
        nullable: false,
        depth: item.depth,
        max_size: None,
        item_max_size: item.max_size,
        item_kind: item.kind,
        needs_helper: item.needs_helper,
        variants: item.variants,
    }
}

macro_rules! sequence {
    ($($ty:ident $(: $bound:path)? => $shape:ident, $unique:expr;)*) => {$(
        impl<T: MongoSchema $(+ $bound)?> MongoSchema for $ty<T> {
            type Fields = Array<T>;
            const FACTS: SchemaFacts = sequence_facts(T::FACTS, Shape::$shape);
            const FIELDS: Option<&'static [FieldFacts]> = item_fields(T::FACTS, T::FIELDS);
            const NAME: &'static str = T::NAME;
            const TAGGED: Option<&'static [FieldFacts]> = T::TAGGED;
            fn json_schema() -> Document {
                array_of(T::json_schema(), $unique)
            }
        }
    )*};
}

sequence! {
    Vec => Array, false;
    VecDeque => Array, false;
    LinkedList => Array, false;
    BTreeSet => Set, true;
}

impl<T: MongoSchema, S> MongoSchema for HashSet<T, S> {
    type Fields = Array<T>;
    const FACTS: SchemaFacts = sequence_facts(T::FACTS, Shape::Set);
    const FIELDS: Option<&'static [FieldFacts]> = item_fields(T::FACTS, T::FIELDS);
    const NAME: &'static str = T::NAME;
    const TAGGED: Option<&'static [FieldFacts]> = T::TAGGED;
    fn json_schema() -> Document {
        array_of(T::json_schema(), true)
    }
}

impl<T: MongoSchema> MongoSchema for [T] {
    type Fields = Array<T>;
    const FACTS: SchemaFacts = sequence_facts(T::FACTS, Shape::Array);
    const FIELDS: Option<&'static [FieldFacts]> = item_fields(T::FACTS, T::FIELDS);
    const NAME: &'static str = T::NAME;
    const TAGGED: Option<&'static [FieldFacts]> = T::TAGGED;
    fn json_schema() -> Document {
        array_of(T::json_schema(), false)
    }
}

impl<T: MongoSchema, const N: usize> MongoSchema for [T; N] {
    type Fields = Array<T>;
    const FACTS: SchemaFacts = SchemaFacts {
        shape: Shape::FixedArray,
        max_size: size::array(Some(N as u64), T::FACTS.max_size),
        ..sequence_facts(T::FACTS, Shape::FixedArray)
    };
    const FIELDS: Option<&'static [FieldFacts]> = item_fields(T::FACTS, T::FIELDS);
    const NAME: &'static str = T::NAME;
    const TAGGED: Option<&'static [FieldFacts]> = T::TAGGED;
    fn json_schema() -> Document {
        let mut schema = array_of(T::json_schema(), false);
        schema.insert("minItems", narrow(N as i64));
        schema.insert("maxItems", narrow(N as i64));
        schema
    }
}

/// Types serde writes as a BSON document key: only strings are accepted by bson.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a MongoDB document key",
    note = "bson writes only string map keys; use `String` keys (or a newtype that serializes as a string)"
)]
pub trait MapKey {}
impl MapKey for String {}
impl MapKey for str {}
impl MapKey for Box<str> {}
impl MapKey for Cow<'_, str> {}
impl MapKey for Arc<str> {}

/// `{bsonType: "object", additionalProperties: <value>}`.
pub fn map_of(value: Document) -> Document {
    doc! { "bsonType": "object", "additionalProperties": value }
}

const fn map_facts(value: SchemaFacts) -> SchemaFacts {
    SchemaFacts {
        kind: BsonKind::Object,
        shape: Shape::Map,
        nullable: false,
        depth: 1 + value.depth,
        max_size: None,
        item_max_size: value.max_size,
        item_kind: value.kind,
        needs_helper: value.needs_helper,
        variants: value.variants,
    }
}

impl<K: MapKey, V: MongoSchema, S> MongoSchema for HashMap<K, V, S> {
    type Fields = Map<V>;
    const FACTS: SchemaFacts = map_facts(V::FACTS);
    // a value's fields, under a key of any name
    const FIELDS: Option<&'static [FieldFacts]> = item_fields(V::FACTS, V::FIELDS);
    const NAME: &'static str = V::NAME;
    const TAGGED: Option<&'static [FieldFacts]> = V::TAGGED;
    fn json_schema() -> Document {
        map_of(V::json_schema())
    }
}

impl<K: MapKey, V: MongoSchema> MongoSchema for BTreeMap<K, V> {
    type Fields = Map<V>;
    const FACTS: SchemaFacts = map_facts(V::FACTS);
    // a value's fields, under a key of any name
    const FIELDS: Option<&'static [FieldFacts]> = item_fields(V::FACTS, V::FIELDS);
    const NAME: &'static str = V::NAME;
    const TAGGED: Option<&'static [FieldFacts]> = V::TAGGED;
    fn json_schema() -> Document {
        map_of(V::json_schema())
    }
}

/// A tuple: an array of exactly these items, in order.
pub fn tuple_of(items: Vec<Document>) -> Document {
    let n = narrow(items.len() as i64);
    doc! {
        "bsonType": "array",
        "items": items,
        "additionalItems": false,
        "minItems": n.clone(),
        "maxItems": n,
    }
}

macro_rules! tuple {
    ($($name:ident)+) => {
        impl<$($name: MongoSchema),+> MongoSchema for ($($name,)+) {
            type Fields = Leaf;
            const FACTS: SchemaFacts = {
                let mut facts = SchemaFacts::scalar(BsonKind::Array, Some(5));
                facts.shape = Shape::FixedArray;
                $(
                    facts.depth = size::max_depth(facts.depth, $name::FACTS.depth);
                    facts.max_size = size::add(facts.max_size, size::add(Some(size::element_header(1)), $name::FACTS.max_size));
                    if facts.needs_helper.is_none() {
                        facts.needs_helper = $name::FACTS.needs_helper;
                    }
                )+
                facts
            };
            fn json_schema() -> Document {
                tuple_of(vec![$($name::json_schema()),+])
            }
        }
    };
}

tuple!(A);
tuple!(A B);
tuple!(A B C);
tuple!(A B C D);
tuple!(A B C D E);
tuple!(A B C D E F);
tuple!(A B C D E F G);
tuple!(A B C D E F G H);

#[cfg(test)]
mod tests {
    use super::*;
    use mongo_schema_contract::bson::{primitive, PRIMITIVES};

    /// The derive decides the type rules of primitives by their name alone
    /// (`bson::PRIMITIVES`): each must be what its impl here says, schema included.
    #[test]
    fn primitives_are_what_the_derive_assumes() {
        fn check<T: MongoSchema + ?Sized>(name: &str) -> usize {
            let kind = primitive(name).unwrap_or_else(|| panic!("{name} is not in PRIMITIVES"));
            assert_eq!(T::FACTS.kind, kind, "{name}");
            // the kind serde writes is admitted (numbers admit more: what they read back)
            let schema = T::json_schema();
            let admitted = match schema.get("bsonType") {
                Some(Bson::Array(aliases)) => aliases.iter().filter_map(|a| a.as_str()).collect(),
                Some(Bson::String(alias)) => vec![alias.as_str()],
                _ => vec![],
            };
            assert!(kind.alias().is_some_and(|alias| admitted.contains(&alias)), "{name}: {admitted:?}");
            1
        }
        let checked = check::<bool>("bool")
            + check::<i8>("i8")
            + check::<i16>("i16")
            + check::<i32>("i32")
            + check::<u8>("u8")
            + check::<u16>("u16")
            + check::<i64>("i64")
            + check::<u32>("u32")
            + check::<u64>("u64")
            + check::<isize>("isize")
            + check::<usize>("usize")
            + check::<f32>("f32")
            + check::<f64>("f64")
            + check::<char>("char")
            + check::<str>("str")
            + check::<String>("String");
        assert_eq!(checked, PRIMITIVES.len());
    }

    /// The kind each leaf type's facts give is the `bsonType` its schema writes.
    #[test]
    fn leaf_schemas_write_their_kind() {
        fn check<T: MongoSchema>() {
            assert_eq!(
                T::json_schema().get_str("bsonType").ok(),
                T::FACTS.kind.alias(),
                "{}",
                std::any::type_name::<T>()
            );
        }
        check::<()>();
        macro_rules! check_bson {
            ($bson:ident) => {
                check::<$bson::oid::ObjectId>();
                check::<$bson::DateTime>();
                check::<$bson::Decimal128>();
                check::<$bson::Timestamp>();
                check::<$bson::Binary>();
                check::<$bson::Uuid>();
                check::<$bson::Regex>();
                check::<$bson::Document>();
                check::<$bson::RawDocumentBuf>();
            };
        }
        #[cfg(feature = "bson-2")]
        check_bson!(bson2);
        #[cfg(feature = "bson-3")]
        check_bson!(bson3);
        #[cfg(feature = "decimal")]
        check::<rust_decimal::Decimal>();
        #[cfg(feature = "chrono-0_4")]
        check::<chrono::DateTime<chrono::Utc>>();
        #[cfg(feature = "uuid-1")]
        check::<uuid::Uuid>();
    }
}
