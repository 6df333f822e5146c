//! What a migration is: its steps, each one command on one database, and its notes.

use super::snapshot::Entry;
use mongo_schema_core::bson::Document;

/// One command on one database, with what to run instead when the collection exists.
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    /// The database the command runs on.
    pub db: String,
    /// The collection the step is about.
    pub collection: String,
    /// Why the step is there: one line each, plain text (rendered escaped).
    pub comments: Vec<String>,
    /// The command (`createCollection`, `collMod`, `createIndexes`, ...).
    pub command: Document,
    /// Run instead when `command` fails with NamespaceExists (code 48): the `collMod` that
    /// makes `createCollection` idempotent.
    pub if_namespace_exists: Option<Document>,
    /// When the step runs: with the release ([`Phase::Expand`]), or only once the previous
    /// release no longer writes ([`Phase::Contract`]).
    pub phase: Phase,
    /// A `collMod` that enforces its validator: `apply` runs it only when no stored document
    /// fails that validator (counted by the server), and otherwise stops naming the count.
    pub require_valid: bool,
}

impl Step {
    /// A step of the expand phase, ungated, without a fallback.
    pub(super) fn new(db: &str, collection: &str, comments: Vec<String>, command: Document) -> Self {
        Step {
            db: db.to_owned(),
            collection: collection.to_owned(),
            comments,
            command,
            if_namespace_exists: None,
            phase: Phase::Expand,
            require_valid: false,
        }
    }
}

/// When a step runs in a rolling deploy, where the previous release keeps writing while the
/// new one migrates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum Phase {
    /// Safe while the previous release still writes: validators that admit what both releases
    /// write, backfills, new indexes. `apply` and `Migrator::run` run it.
    #[default]
    Expand,
    /// Only once no instance of the previous release writes: keys moved to their new names,
    /// the model's validator enforced. Runs when asked: `schema apply --contract`,
    /// `Migrator::contract(true)`.
    Contract,
}

impl Phase {
    /// `expand` or `contract`, as the JSON file says it.
    pub fn as_str(self) -> &'static str {
        match self {
            Phase::Expand => "expand",
            Phase::Contract => "contract",
        }
    }
}

/// A numbered migration: up and down steps, notes for the reviewer, removed models.
#[derive(Debug, Clone, PartialEq)]
pub struct Migration {
    /// `0002_tighten_t_users`: the file stem.
    pub name: String,
    /// For the reviewer: staged tightenings and how to enforce them, version requirements,
    /// removed models. Printed by the CLI and written at the top of the up script.
    pub notes: Vec<String>,
    /// The steps that apply the migration, in order.
    pub up: Vec<Step>,
    /// The steps that revert it (validators restored; nothing dropped), in order.
    pub down: Vec<Step>,
    /// Models no longer in the code: reported, never dropped.
    pub removed: Vec<Entry>,
}
