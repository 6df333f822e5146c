//! What a migration is: its steps, each one command on one database, and its notes.

use super::snapshot::Entry;
use crate::bson::Document;

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
