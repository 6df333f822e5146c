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
    /// `"2dsphere"`
    Sphere2d,
    /// `"text"`
    Text,
}

impl IndexKey {
    /// Every kind of key.
    pub const ALL: [IndexKey; 5] =
        [IndexKey::Ascending, IndexKey::Descending, IndexKey::Hashed, IndexKey::Sphere2d, IndexKey::Text];

    /// The key's value as text: the suffix MongoDB gives the key in a default index name
    /// (`field_1`), and the value written in the attribute.
    pub const fn suffix(self) -> &'static str {
        match self {
            IndexKey::Ascending => "1",
            IndexKey::Descending => "-1",
            IndexKey::Hashed => "hashed",
            IndexKey::Sphere2d => "2dsphere",
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

    /// The variant's name, as generated code spells it (`_p::IndexKey::Ascending`).
    pub const fn variant(self) -> &'static str {
        match self {
            IndexKey::Ascending => "Ascending",
            IndexKey::Descending => "Descending",
            IndexKey::Hashed => "Hashed",
            IndexKey::Sphere2d => "Sphere2d",
            IndexKey::Text => "Text",
        }
    }
}

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
