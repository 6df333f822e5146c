//! Schemas mongod would refuse.

use std::fmt;

/// A `$jsonSchema` that mongod refuses, with the path of the offending keyword inside the
/// schema (dotted, e.g. `properties.tags.items.maxLength`) and mongod's reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SchemaError {
    path: String,
    message: String,
}

impl SchemaError {
    pub(crate) fn new(path: String, message: impl Into<String>) -> Self {
        SchemaError { path, message: message.into() }
    }

    /// Dotted path of the offending keyword in the schema document.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// Why mongod refuses it, worded after mongod's own message.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for SchemaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid $jsonSchema at `{}`: {}", self.path, self.message)
    }
}

impl std::error::Error for SchemaError {}
