//! `bsonType` and `type` type sets.

use mongo_schema_contract::bson::{ALIASES, NUMBER};
use mongo_schema_core::bson::spec::ElementType;

/// A set of BSON types, one bit per element type (MinKey and MaxKey get bits 0 and 20).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct TypeSet(u32);

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

    pub(crate) fn intersects(self, other: TypeSet) -> bool {
        self.0 & other.0 != 0
    }

    pub(crate) fn insert(&mut self, other: TypeSet) {
        self.0 |= other.0;
    }

    /// The set an alias names, or `None` for an unknown alias.
    pub(crate) fn from_alias(alias: &str, table: Aliases) -> Option<TypeSet> {
        if alias == NUMBER {
            return Some(TypeSet::NUMBERS);
        }
        match table {
            // the contract's table of mongod's aliases, by element type byte
            Aliases::Bson => {
                ALIASES.iter().find(|(name, _)| *name == alias).and_then(|(_, code)| ElementType::from(*code))
            }
            Aliases::Json => JSON_ALIASES.iter().find(|(name, _)| *name == alias).map(|(_, t)| *t),
        }
        .map(TypeSet::of)
    }
}

/// The alias mongod prints for a type in `consideredType`.
pub fn alias_of(t: ElementType) -> &'static str {
    ALIASES.iter().find(|(_, code)| *code == t as u8).map_or("unknown", |(name, _)| name)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every alias of the contract's table names a BSON element type, and back.
    #[test]
    fn every_alias_is_an_element_type() {
        for (alias, code) in ALIASES {
            let t = ElementType::from(*code).unwrap_or_else(|| panic!("{alias}: {code:#x}"));
            assert_eq!(alias_of(t), *alias);
            assert_eq!(TypeSet::from_alias(alias, Aliases::Bson), Some(TypeSet::of(t)));
        }
        assert_eq!(TypeSet::from_alias("number", Aliases::Bson), Some(TypeSet::NUMBERS));
        assert_eq!(TypeSet::from_alias("integer", Aliases::Bson), None);
    }
}
