//! Migrations: the registered models compared with the snapshot the previous run left in
//! the migrations directory, written as the next numbered mongosh script (plus a down
//! script) and a JSON file of the same commands for drivers and other runners.
//!
//! Every step installs a validator (`createCollection`, falling back to `collMod` when the
//! collection exists); nothing is ever dropped, and re-running a migration is harmless.
//! A change that tightens a validator is staged: first `validationAction: "warn"`, then,
//! on the next run, the switch to the model's action. See `docs/MIGRATIONS.md`.

mod diff;
mod files;
mod plan;
mod render;
mod rules;
mod snapshot;
mod tighten;

pub mod apply;
pub mod check;
#[cfg(feature = "driver")]
pub mod driver;

pub use diff::{diff, Change};
pub use files::{migrate, pending, MigrateError, MigrateOptions, Written};
pub use plan::{plan, Migration, Step};
pub use render::{down_js, up_js, commands_json};
pub use rules::{check_collection_count, DEFAULT_MAX_COLLECTIONS};
pub use snapshot::{Entry, Snapshot, SnapshotError, SNAPSHOT_FILE};
pub use tighten::tightenings;

use crate::command::{Registration, ValidationAction, ValidationLevel};
use crate::MongoCollection;
use bson::Document;

/// A collection root as migrations see it: owned, comparable, serialisable.
#[derive(Debug, Clone, PartialEq)]
pub struct Model {
    pub db: String,
    pub collection: String,
    /// The Rust type, for comments (`module::Type`).
    pub rust_type: String,
    /// `{"$jsonSchema": ...}`.
    pub validator: Document,
    pub level: ValidationLevel,
    pub action: ValidationAction,
}

impl Model {
    /// The model of a collection root type.
    pub fn of<T: MongoCollection>(rust_type: &str) -> Self {
        Model {
            db: T::DB_NAME.to_owned(),
            collection: T::COLLECTION_NAME.to_owned(),
            rust_type: rust_type.to_owned(),
            validator: T::validator(),
            level: T::VALIDATION_LEVEL,
            action: T::VALIDATION_ACTION,
        }
    }

    /// `db.collection`, the key models are matched by.
    pub fn namespace(&self) -> String {
        format!("{}.{}", self.db, self.collection)
    }
}

impl From<&Registration> for Model {
    fn from(r: &Registration) -> Self {
        Model {
            db: r.db.to_owned(),
            collection: r.collection.to_owned(),
            rust_type: r.rust_type.to_owned(),
            validator: bson::doc! { "$jsonSchema": (r.json_schema)() },
            level: r.validation_level,
            action: r.validation_action,
        }
    }
}

/// Every model registered in this binary, sorted by database then collection.
pub fn registered_models() -> Vec<Model> {
    crate::registered().into_iter().map(Model::from).collect()
}

/// `validationLevel` from its MongoDB name.
pub fn parse_level(s: &str) -> Option<ValidationLevel> {
    [ValidationLevel::Strict, ValidationLevel::Moderate, ValidationLevel::Off].into_iter().find(|l| l.as_str() == s)
}

/// `validationAction` from its MongoDB name.
pub fn parse_action(s: &str) -> Option<ValidationAction> {
    [ValidationAction::Error, ValidationAction::Warn, ValidationAction::ErrorAndLog].into_iter().find(|a| a.as_str() == s)
}
