//! `bsonType` and `type` type sets.

use bson::spec::ElementType;

/// A set of BSON types, one bit per element type (MinKey and MaxKey get bits 0 and 20).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct TypeSet(u32);

/// The BSON aliases `bsonType` accepts (MongoDB manual, "BSON Types", alias column).
const BSON_ALIASES: &[(&str, ElementType)] = &[
    ("double", ElementType::Double),
    ("string", ElementType::String),
    ("object", ElementType::EmbeddedDocument),
    ("array", ElementType::Array),
    ("binData", ElementType::Binary),
    ("undefined", ElementType::Undefined),
    ("objectId", ElementType::ObjectId),
    ("bool", ElementType::Boolean),
    ("date", ElementType::DateTime),
    ("null", ElementType::Null),
    ("regex", ElementType::RegularExpression),
    ("dbPointer", ElementType::DbPointer),
    ("javascript", ElementType::JavaScriptCode),
    ("symbol", ElementType::Symbol),
    ("javascriptWithScope", ElementType::JavaScriptCodeWithScope),
    ("int", ElementType::Int32),
    ("timestamp", ElementType::Timestamp),
    ("long", ElementType::Int64),
    ("decimal", ElementType::Decimal128),
    ("minKey", ElementType::MinKey),
    ("maxKey", ElementType::MaxKey),
];

/// The JSON Schema names `type` accepts; `integer` is refused by mongod.
const JSON_ALIASES: &[(&str, ElementType)] = &[
    ("object", ElementType::EmbeddedDocument),
    ("array", ElementType::Array),
    ("string", ElementType::String),
    ("boolean", ElementType::Boolean),
    ("null", ElementType::Null),
];

/// Which alias table a type keyword reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Aliases {
    Bson,
    Json,
}

#[inline(always)]
fn bit(t: ElementType) -> u32 {
    match t {
        ElementType::MinKey => 1,
        ElementType::MaxKey => 1 << 20,
        other => 1 << (other as u8 as u32),
    }
}

impl TypeSet {
    /// Every type.
    pub(crate) const ALL: TypeSet = TypeSet(u32::MAX);

    pub(crate) const NUMBERS: TypeSet = TypeSet(
        1 << ElementType::Double as u8
            | 1 << ElementType::Int32 as u8
            | 1 << ElementType::Int64 as u8
            | 1 << ElementType::Decimal128 as u8,
    );

    pub(crate) fn of(t: ElementType) -> TypeSet {
        TypeSet(bit(t))
    }

    #[inline(always)]
    pub(crate) fn contains(self, t: ElementType) -> bool {
        self.0 & bit(t) != 0
    }

    pub(crate) fn insert(&mut self, other: TypeSet) {
        self.0 |= other.0;
    }

    /// The set an alias names, or `None` for an unknown alias.
    pub(crate) fn from_alias(alias: &str, table: Aliases) -> Option<TypeSet> {
        if alias == "number" {
            return Some(TypeSet::NUMBERS);
        }
        let entries = match table {
            Aliases::Bson => BSON_ALIASES,
            Aliases::Json => JSON_ALIASES,
        };
        entries.iter().find(|(name, _)| *name == alias).map(|(_, t)| TypeSet::of(*t))
    }
}

/// The alias mongod prints for a type in `consideredType`.
pub(crate) fn alias_of(t: ElementType) -> &'static str {
    BSON_ALIASES.iter().find(|(_, e)| *e == t).map_or("unknown", |(name, _)| name)
}
