//! BSON as `$jsonSchema` names it: the kinds of values the derive reasons about, the
//! `bsonType` aliases mongod accepts (with their element type bytes), the BSON type of
//! each Rust primitive, and encoded sizes.

/// The BSON type the driver writes for a value (bson's raw serializer), as `$jsonSchema`
/// names it in `bsonType`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BsonKind {
    /// `double`: a 64-bit float.
    Double,
    /// `string`: UTF-8 text.
    String,
    /// `object`: an embedded document.
    Object,
    /// `array`
    Array,
    /// `binData`: binary data with a subtype.
    BinData,
    /// `objectId`: 12 bytes, timestamp first.
    ObjectId,
    /// `bool`
    Bool,
    /// `date`: milliseconds since the epoch.
    Date,
    /// `null`
    Null,
    /// `regex`
    Regex,
    /// `int`: a 32-bit integer.
    Int,
    /// `timestamp`: MongoDB's internal timestamp.
    Timestamp,
    /// `long`: a 64-bit integer.
    Long,
    /// `decimal`: Decimal128.
    Decimal,
    /// Any BSON value (`bson::Bson`): the schema constrains nothing.
    Any,
    /// Values of different BSON types (data-carrying enums).
    Mixed,
}

impl BsonKind {
    /// Every kind, in declaration order.
    pub const ALL: [BsonKind; 16] = [
        BsonKind::Double,
        BsonKind::String,
        BsonKind::Object,
        BsonKind::Array,
        BsonKind::BinData,
        BsonKind::ObjectId,
        BsonKind::Bool,
        BsonKind::Date,
        BsonKind::Null,
        BsonKind::Regex,
        BsonKind::Int,
        BsonKind::Timestamp,
        BsonKind::Long,
        BsonKind::Decimal,
        BsonKind::Any,
        BsonKind::Mixed,
    ];

    /// The encoded size of every value of this kind, when it is fixed.
    pub const fn fixed_size(self) -> Option<u64> {
        match self {
            BsonKind::Double | BsonKind::Date | BsonKind::Timestamp | BsonKind::Long => Some(8),
            BsonKind::ObjectId => Some(12),
            BsonKind::Bool => Some(1),
            BsonKind::Null => Some(0),
            BsonKind::Int => Some(4),
            BsonKind::Decimal => Some(16),
            _ => None,
        }
    }

    /// The `bsonType` alias, when there is exactly one.
    pub const fn alias(self) -> Option<&'static str> {
        Some(match self {
            BsonKind::Double => "double",
            BsonKind::String => "string",
            BsonKind::Object => "object",
            BsonKind::Array => "array",
            BsonKind::BinData => "binData",
            BsonKind::ObjectId => "objectId",
            BsonKind::Bool => "bool",
            BsonKind::Date => "date",
            BsonKind::Null => "null",
            BsonKind::Regex => "regex",
            BsonKind::Int => "int",
            BsonKind::Timestamp => "timestamp",
            BsonKind::Long => "long",
            BsonKind::Decimal => "decimal",
            BsonKind::Any | BsonKind::Mixed => return None,
        })
    }

    /// The kind a `bsonType` alias names; `None` for aliases the derive does not reason
    /// about (`undefined`, `minKey`, `number`, ...), which it treats as any value.
    pub fn from_alias(alias: &str) -> Option<BsonKind> {
        BsonKind::ALL.into_iter().find(|kind| kind.alias() == Some(alias))
    }

    /// The variant's name, as generated code spells it (`_p::BsonKind::Double`).
    pub const fn variant(self) -> &'static str {
        match self {
            BsonKind::Double => "Double",
            BsonKind::String => "String",
            BsonKind::Object => "Object",
            BsonKind::Array => "Array",
            BsonKind::BinData => "BinData",
            BsonKind::ObjectId => "ObjectId",
            BsonKind::Bool => "Bool",
            BsonKind::Date => "Date",
            BsonKind::Null => "Null",
            BsonKind::Regex => "Regex",
            BsonKind::Int => "Int",
            BsonKind::Timestamp => "Timestamp",
            BsonKind::Long => "Long",
            BsonKind::Decimal => "Decimal",
            BsonKind::Any => "Any",
            BsonKind::Mixed => "Mixed",
        }
    }

    /// Integer kinds (`int`, `long`).
    pub const fn is_integer(self) -> bool {
        matches!(self, BsonKind::Int | BsonKind::Long)
    }

    /// Kinds an `_id` can take that grow as documents are written (`random_id`): an ObjectId,
    /// an integer, a date. The derive's syntax path and its const checks both ask this.
    pub const fn increases(self) -> bool {
        matches!(self, BsonKind::ObjectId | BsonKind::Int | BsonKind::Long | BsonKind::Date)
    }

    /// Number kinds whose values the derive's rules treat as numbers (`int`, `long`, `double`).
    pub const fn is_number(self) -> bool {
        matches!(self, BsonKind::Int | BsonKind::Long | BsonKind::Double)
    }
}

/// The `bsonType` aliases mongod accepts for one element type (MongoDB manual, "BSON
/// Types", alias column), in that table's order, with the element type byte of the BSON
/// specification.
pub const ALIASES: &[(&str, u8)] = &[
    ("double", 0x01),
    ("string", 0x02),
    ("object", 0x03),
    ("array", 0x04),
    ("binData", 0x05),
    ("undefined", 0x06),
    ("objectId", 0x07),
    ("bool", 0x08),
    ("date", 0x09),
    ("null", 0x0A),
    ("regex", 0x0B),
    ("dbPointer", 0x0C),
    ("javascript", 0x0D),
    ("symbol", 0x0E),
    ("javascriptWithScope", 0x0F),
    ("int", 0x10),
    ("timestamp", 0x11),
    ("long", 0x12),
    ("decimal", 0x13),
    ("minKey", 0xFF),
    ("maxKey", 0x7F),
];

/// The std containers whose BSON kind the derive decides from the syntax alone: serde writes
/// each sequence as an array and each map as a document, whatever its items.
pub const SEQUENCES: [&str; 5] = ["Vec", "VecDeque", "LinkedList", "HashSet", "BTreeSet"];
/// See [`SEQUENCES`].
pub const MAPS: [&str; 2] = ["HashMap", "BTreeMap"];

/// The alias that names every numeric type (`double`, `int`, `long`, `decimal`).
pub const NUMBER: &str = "number";

/// The types [`NUMBER`] names, from the narrowest to the widest: the order in which `$inc`
/// and `$mul` promote a result (int, then long, double, decimal).
pub const NUMBER_ALIASES: [&str; 4] = ["int", "long", "double", "decimal"];

/// The code the `$type` query operator gives the type `alias` names: its element type
/// byte, but `minKey` is -1; `None` for an unknown alias and for [`NUMBER`] (several).
pub fn type_code(alias: &str) -> Option<i32> {
    let (_, byte) = ALIASES.iter().find(|(name, _)| *name == alias)?;
    Some(if *byte == 0xFF { -1 } else { i32::from(*byte) })
}

/// Whether mongod accepts `alias` in `bsonType` (`"number"` included).
pub fn is_alias(alias: &str) -> bool {
    alias == NUMBER || ALIASES.iter().any(|(name, _)| *name == alias)
}

/// Every alias `bsonType` accepts, `"number"` last, as mongod's messages list them.
pub fn alias_names() -> impl Iterator<Item = &'static str> {
    ALIASES.iter().map(|(name, _)| *name).chain([NUMBER])
}

/// The BSON kind of each Rust primitive (and `String`), as bson's serializer writes it:
/// `u32` and `u64` go out as Int64 (bson 3), `char` as a one-character string. Syntax alone
/// decides these, so the derive applies the type rules to them without a const check;
/// the runtime's `MongoSchema` impls must agree (a test there ties them).
pub const PRIMITIVES: &[(&str, BsonKind)] = &[
    ("bool", BsonKind::Bool),
    ("i8", BsonKind::Int),
    ("i16", BsonKind::Int),
    ("i32", BsonKind::Int),
    ("u8", BsonKind::Int),
    ("u16", BsonKind::Int),
    ("i64", BsonKind::Long),
    ("u32", BsonKind::Long),
    ("u64", BsonKind::Long),
    ("isize", BsonKind::Long),
    ("usize", BsonKind::Long),
    ("f32", BsonKind::Double),
    ("f64", BsonKind::Double),
    ("char", BsonKind::String),
    ("str", BsonKind::String),
    ("String", BsonKind::String),
];

/// The kind of a Rust primitive named by its identifier.
pub fn primitive(name: &str) -> Option<BsonKind> {
    PRIMITIVES.iter().find(|(rust, _)| *rust == name).map(|(_, kind)| *kind)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_and_aliases_agree() {
        for kind in BsonKind::ALL {
            assert_eq!(format!("{kind:?}"), kind.variant());
            if let Some(alias) = kind.alias() {
                assert!(is_alias(alias), "{alias}");
                assert_eq!(BsonKind::from_alias(alias), Some(kind));
            }
        }
        assert_eq!(alias_names().count(), 22);
        assert_eq!(alias_names().last(), Some("number"));
    }
}
