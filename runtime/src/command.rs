//! Collection roots: names, validation options and the commands that install the
//! validator (`createCollection`, `collMod`), for `Database::run_command`.
//!
//! Only options that work both through mongos on a sharded cluster and on a replica set
//! are generated.

use crate::schema::MongoSchema;
use bson::{doc, Document};
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
    pub const fn as_str(self) -> &'static str {
        match self {
            ValidationLevel::Strict => "strict",
            ValidationLevel::Moderate => "moderate",
            ValidationLevel::Off => "off",
        }
    }
}

impl ValidationAction {
    pub const fn as_str(self) -> &'static str {
        match self {
            ValidationAction::Error => "error",
            ValidationAction::Warn => "warn",
            ValidationAction::ErrorAndLog => "errorAndLog",
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

/// A collection root: a derived type with `#[mongo(db = "...", collection = "...")]`.
pub trait MongoCollection: MongoSchema {
    /// The database name (`db_*`).
    const DB_NAME: &'static str;
    /// The collection name (`t_*`).
    const COLLECTION_NAME: &'static str;
    /// `#[mongo(validation_level = "...")]`, default strict.
    const VALIDATION_LEVEL: ValidationLevel = ValidationLevel::Strict;
    /// `#[mongo(validation_action = "...")]`, default error.
    const VALIDATION_ACTION: ValidationAction = ValidationAction::Error;
    /// The worst-case encoded BSON size of a document in bytes, computed at compile time,
    /// or `None` when a string, array or map in it has no bound. The derive refuses
    /// models whose bound exceeds MongoDB's 16 MiB (rule `document_size`).
    const MAX_DOCUMENT_SIZE: Option<u64> = <Self as MongoSchema>::FACTS.max_size;

    /// `{create, validator, validationLevel, validationAction}`.
    fn create_collection_command() -> Document {
        create_collection(Self::COLLECTION_NAME, Self::validator(), Self::VALIDATION_LEVEL, Self::VALIDATION_ACTION)
    }

    /// `{collMod, validator, validationLevel, validationAction}`: installs the validator on
    /// an existing collection.
    fn coll_mod_command() -> Document {
        coll_mod(Self::COLLECTION_NAME, Self::validator(), Self::VALIDATION_LEVEL, Self::VALIDATION_ACTION)
    }
}

/// A `createCollection` command with a validator.
pub fn create_collection(collection: &str, validator: Document, level: ValidationLevel, action: ValidationAction) -> Document {
    doc! {
        "create": collection,
        "validator": validator,
        "validationLevel": level.as_str(),
        "validationAction": action.as_str(),
    }
}

/// A `collMod` command that replaces the validator.
pub fn coll_mod(collection: &str, validator: Document, level: ValidationLevel, action: ValidationAction) -> Document {
    doc! {
        "collMod": collection,
        "validator": validator,
        "validationLevel": level.as_str(),
        "validationAction": action.as_str(),
    }
}

/// A collection root registered by `#[derive(MongoSchema)]`, so a binary can enumerate
/// every model it links without listing them. Generic roots are not registered.
#[derive(Debug, Clone, Copy)]
pub struct Registration {
    pub db: &'static str,
    pub collection: &'static str,
    /// The Rust type, as `module::path::Type`.
    pub rust_type: &'static str,
    pub validation_level: ValidationLevel,
    pub validation_action: ValidationAction,
    pub json_schema: fn() -> Document,
    pub create_collection_command: fn() -> Document,
    pub coll_mod_command: fn() -> Document,
}

impl Registration {
    pub const fn of<T: MongoCollection>(rust_type: &'static str) -> Self {
        Registration {
            db: T::DB_NAME,
            collection: T::COLLECTION_NAME,
            rust_type,
            validation_level: T::VALIDATION_LEVEL,
            validation_action: T::VALIDATION_ACTION,
            json_schema: T::json_schema,
            create_collection_command: T::create_collection_command,
            coll_mod_command: T::coll_mod_command,
        }
    }
}

inventory::collect!(Registration);

/// Every registered collection root, sorted by database then collection, so output
/// never depends on link order.
pub fn registered() -> Vec<&'static Registration> {
    let mut all: Vec<&'static Registration> = inventory::iter::<Registration>.into_iter().collect();
    all.sort_by_key(|r| (r.db, r.collection, r.rust_type));
    all
}
