//! Names of collection options both sides spell: `validationLevel`, `validationAction`
//! and the kinds of index keys.

use std::fmt;

/// `validationLevel`: which writes mongod validates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum ValidationLevel {
    /// Every insert and update (MongoDB's default).
    #[default]
    Strict,
    /// Inserts, and updates of documents that already pass: for legacy data.
    Moderate,
    /// No validation.
    Off,
}

/// `validationAction`: what mongod does with a write that fails validation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum ValidationAction {
    /// Reject the write (code 121, DocumentValidationFailure).
    #[default]
    Error,
    /// Accept the write and log a warning.
    Warn,
    /// Reject the write and log it. Needs MongoDB 8.1 or newer: older servers refuse
    /// the command.
    ErrorAndLog,
}

impl ValidationLevel {
    /// Every level.
    pub const ALL: [ValidationLevel; 3] = [ValidationLevel::Strict, ValidationLevel::Moderate, ValidationLevel::Off];

    /// The name mongod and the attribute use: `"strict"`, `"moderate"`, `"off"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            ValidationLevel::Strict => "strict",
            ValidationLevel::Moderate => "moderate",
            ValidationLevel::Off => "off",
        }
    }

    /// The level `name` names.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|level| level.as_str() == name)
    }

    /// The variant's name, as generated code spells it.
    pub const fn variant(self) -> &'static str {
        match self {
            ValidationLevel::Strict => "Strict",
            ValidationLevel::Moderate => "Moderate",
            ValidationLevel::Off => "Off",
        }
    }
}

impl ValidationAction {
    /// Every action.
    pub const ALL: [ValidationAction; 3] =
        [ValidationAction::Error, ValidationAction::Warn, ValidationAction::ErrorAndLog];

    /// The name mongod and the attribute use: `"error"`, `"warn"`, `"errorAndLog"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            ValidationAction::Error => "error",
            ValidationAction::Warn => "warn",
            ValidationAction::ErrorAndLog => "errorAndLog",
        }
    }

    /// The action `name` names.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|action| action.as_str() == name)
    }

    /// The variant's name, as generated code spells it.
    pub const fn variant(self) -> &'static str {
        match self {
            ValidationAction::Error => "Error",
            ValidationAction::Warn => "Warn",
            ValidationAction::ErrorAndLog => "ErrorAndLog",
        }
    }

    /// The oldest MongoDB release that accepts this action, when newer than 5.0.
    pub const fn minimum_server_version(self) -> Option<&'static str> {
        match self {
            ValidationAction::ErrorAndLog => Some("8.1"),
            _ => None,
        }
    }
}

impl fmt::Display for ValidationLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Display for ValidationAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The value of one key in an index or shard key pattern.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum IndexKey {
    /// `1`
    Ascending,
    /// `-1`
    Descending,
    /// `"hashed"`
    Hashed,
    /// `"2dsphere"`: GeoJSON objects and legacy coordinate pairs on a sphere.
    Sphere2d,
    /// `"2d"`: legacy coordinate pairs on a flat plane.
    Geo2d,
    /// `"text"`
    Text,
}

impl IndexKey {
    /// Every kind of key.
    pub const ALL: [IndexKey; 6] = [
        IndexKey::Ascending,
        IndexKey::Descending,
        IndexKey::Hashed,
        IndexKey::Sphere2d,
        IndexKey::Geo2d,
        IndexKey::Text,
    ];

    /// The key's value as text: the suffix MongoDB gives the key in a default index name
    /// (`field_1`), and the value written in the attribute.
    pub const fn suffix(self) -> &'static str {
        match self {
            IndexKey::Ascending => "1",
            IndexKey::Descending => "-1",
            IndexKey::Hashed => "hashed",
            IndexKey::Sphere2d => "2dsphere",
            IndexKey::Geo2d => "2d",
            IndexKey::Text => "text",
        }
    }

    /// The direction of a range key (`1`, `-1`); `None` for the named kinds, written as
    /// their [`suffix`](Self::suffix).
    pub const fn direction(self) -> Option<i32> {
        match self {
            IndexKey::Ascending => Some(1),
            IndexKey::Descending => Some(-1),
            _ => None,
        }
    }

    /// An ascending or descending key.
    pub const fn is_range(self) -> bool {
        self.direction().is_some()
    }

    /// A geospatial key (`"2dsphere"`, `"2d"`).
    pub const fn is_geo(self) -> bool {
        matches!(self, IndexKey::Sphere2d | IndexKey::Geo2d)
    }

    /// The variant's name, as generated code spells it (`_p::IndexKey::Ascending`).
    pub const fn variant(self) -> &'static str {
        match self {
            IndexKey::Ascending => "Ascending",
            IndexKey::Descending => "Descending",
            IndexKey::Hashed => "Hashed",
            IndexKey::Sphere2d => "Sphere2d",
            IndexKey::Geo2d => "Geo2d",
            IndexKey::Text => "Text",
        }
    }
}

/// The keys of the index and collection options the derive reads (`#[mongo(index(sparse,
/// collation(locale = "en")))]`), as the attribute spells them.
pub mod keys {
    /// `index(sparse)`
    pub const SPARSE: &str = "sparse";
    /// `index(hidden)`
    pub const HIDDEN: &str = "hidden";
    /// `index(collation(...))`, and on a root the collection's default collation.
    pub const COLLATION: &str = "collation";
    /// `index(weights(field = n, ...))`
    pub const WEIGHTS: &str = "weights";
    /// `index(default_language = "...")`
    pub const DEFAULT_LANGUAGE: &str = "default_language";
    /// `index(language_override = "...")`
    pub const LANGUAGE_OVERRIDE: &str = "language_override";
    /// `index(wildcard_projection(path = 1, ...))`
    pub const WILDCARD_PROJECTION: &str = "wildcard_projection";
    /// `clustered` / `clustered(expire_after_seconds = N)` on a root.
    pub const CLUSTERED: &str = "clustered";
    /// `collation(locale = "...")`
    pub const LOCALE: &str = "locale";
    /// `collation(strength = N)`
    pub const STRENGTH: &str = "strength";
    /// `collation(case_level)`
    pub const CASE_LEVEL: &str = "case_level";
    /// `collation(case_first = "...")`
    pub const CASE_FIRST: &str = "case_first";
    /// `collation(numeric_ordering)`
    pub const NUMERIC_ORDERING: &str = "numeric_ordering";
    /// `collation(alternate = "...")`
    pub const ALTERNATE: &str = "alternate";
    /// `collation(max_variable = "...")`
    pub const MAX_VARIABLE: &str = "max_variable";
    /// `collation(normalization)`
    pub const NORMALIZATION: &str = "normalization";
    /// `collation(backwards)`
    pub const BACKWARDS: &str = "backwards";
}

/// `collation(strength = N)`: the comparison levels of ICU, 1 (base letters) to 5.
pub const COLLATION_STRENGTHS: std::ops::RangeInclusive<u32> = 1..=5;
/// `collation(case_first = "...")`.
pub const COLLATION_CASE_FIRST: [&str; 3] = ["upper", "lower", "off"];
/// `collation(alternate = "...")`.
pub const COLLATION_ALTERNATE: [&str; 2] = ["non-ignorable", "shifted"];
/// `collation(max_variable = "...")`.
pub const COLLATION_MAX_VARIABLE: [&str; 2] = ["punct", "space"];

/// The languages of a text index's `default_language` (and of a document's language
/// field) that mongod 6.0 accepts: the names and their ISO 639-1 codes; `"none"` stems
/// nothing and drops no stop word.
pub const TEXT_LANGUAGES: [&str; 31] = [
    "danish",
    "dutch",
    "english",
    "finnish",
    "french",
    "german",
    "hungarian",
    "italian",
    "norwegian",
    "portuguese",
    "romanian",
    "russian",
    "spanish",
    "swedish",
    "turkish",
    "da",
    "nl",
    "en",
    "fi",
    "fr",
    "de",
    "hu",
    "it",
    "nb",
    "pt",
    "ro",
    "ru",
    "es",
    "sv",
    "tr",
    "none",
];

/// The most indexes a collection holds, its `_id` (or clustered) index included.
pub const MAX_INDEXES: usize = 64;

/// A text index weight lies strictly between 0 and this.
pub const MAX_TEXT_WEIGHT: u32 = 100_000;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variant_names_are_the_variants() {
        for level in ValidationLevel::ALL {
            assert_eq!(format!("{level:?}"), level.variant());
            assert_eq!(ValidationLevel::from_name(level.as_str()), Some(level));
        }
        for action in ValidationAction::ALL {
            assert_eq!(format!("{action:?}"), action.variant());
            assert_eq!(ValidationAction::from_name(action.as_str()), Some(action));
        }
        for key in IndexKey::ALL {
            assert_eq!(format!("{key:?}"), key.variant());
        }
    }
}
