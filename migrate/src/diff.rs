//! What changed between the snapshot and the registered models.

use super::snapshot::{Entry, Snapshot};
use super::tighten::tightenings;
use mongo_schema_core::command::ValidationLevel;
use mongo_schema_core::model::Model;

/// One collection's change, with the state the migration leaves it in.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Change {
    /// A model the snapshot does not know: `createCollection`, or `collMod` if it exists.
    Create { after: Entry },
    /// A changed validator, level or action. `tightening` lists what may reject stored
    /// documents.
    Alter { before: Entry, after: Entry, tightening: Vec<String> },
    /// A tightening staged by an earlier version (the snapshot's `enforceAction`), switched
    /// to the model's action.
    Enforce { before: Entry, after: Entry },
    /// A model no longer in the code: a comment, never a drop.
    Removed { before: Entry },
}

impl Change {
    /// The namespace's entry after the migration, `None` when the model is gone.
    pub(super) fn after(&self) -> Option<&Entry> {
        match self {
            Change::Create { after } | Change::Alter { after, .. } | Change::Enforce { after, .. } => Some(after),
            Change::Removed { .. } => None,
        }
    }

    /// The namespace's entry before the migration.
    pub(super) fn before(&self) -> Option<&Entry> {
        match self {
            Change::Alter { before, .. } | Change::Enforce { before, .. } | Change::Removed { before } => Some(before),
            Change::Create { .. } => None,
        }
    }

    /// A one-word verb for file names: create, alter, tighten, enforce, remove.
    pub(super) fn verb(&self) -> &'static str {
        match self {
            Change::Create { .. } => "create",
            Change::Alter { tightening, .. } if tightening.is_empty() => "alter",
            Change::Alter { .. } => "tighten",
            Change::Enforce { .. } => "enforce",
            Change::Removed { .. } => "remove",
        }
    }

    /// The collection name.
    pub(super) fn collection(&self) -> &str {
        let entry = self.after().or(self.before()).expect("every change has an entry");
        &entry.model.collection
    }
}

/// The changes from `snapshot` to `models`, in namespace order. `level` overrides the
/// models' `validationLevel` (`--validation-level moderate`). Each change leaves the
/// collection as its model says; how it gets there while the previous release still writes
/// (expand, then contract) is the plan's.
pub(super) fn diff(snapshot: &Snapshot, models: &[Model], level: Option<ValidationLevel>) -> Vec<Change> {
    let mut changes: Vec<Change> = models.iter().filter_map(|m| model_change(snapshot, m, level)).collect();
    let gone = snapshot
        .entries
        .iter()
        .filter(|e| !models.iter().any(|m| m.db == e.model.db && m.collection == e.model.collection));
    changes.extend(gone.map(|e| Change::Removed { before: e.clone() }));
    changes.sort_by_key(namespace);
    changes
}

fn namespace(change: &Change) -> (String, String) {
    let m = &change.after().or(change.before()).expect("every change has an entry").model;
    (m.db.clone(), m.collection.clone())
}

fn model_change(snapshot: &Snapshot, model: &Model, level: Option<ValidationLevel>) -> Option<Change> {
    let mut wanted = model.clone();
    wanted.level = level.unwrap_or(model.level);
    let Some(before) = snapshot.get(&model.db, &model.collection) else {
        return Some(Change::Create { after: Entry { model: wanted, enforce: None } });
    };
    let same = |m: &Model| {
        m.validator == wanted.validator
            && m.level == wanted.level
            && m.action == wanted.action
            && m.options == wanted.options
    };
    if same(&before.model) && before.enforce.is_none() {
        return None;
    }
    let tightening = tightenings(&before.model.validator, &wanted.validator)
        .into_iter()
        .chain(stricter_level(before.model.level, wanted.level))
        .collect::<Vec<_>>();
    if tightening.is_empty() && before.model.validator == wanted.validator && before.enforce.is_some() {
        return Some(Change::Enforce { before: before.clone(), after: Entry { model: wanted, enforce: None } });
    }
    Some(Change::Alter { before: before.clone(), after: Entry { model: wanted, enforce: None }, tightening })
}

/// `moderate` or `off` to `strict` validates documents that were not validated before.
fn stricter_level(before: ValidationLevel, after: ValidationLevel) -> Option<String> {
    let rank = |l: ValidationLevel| match l {
        ValidationLevel::Off => 0,
        ValidationLevel::Moderate => 1,
        ValidationLevel::Strict => 2,
    };
    (rank(after) > rank(before)).then(|| format!("(collection): validationLevel {before} -> {after}"))
}
