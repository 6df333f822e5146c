//! A migration: the commands that take the deployment from the snapshot to the models,
//! and the commands that take it back.

use super::{options, Change, Entry, Model};
use crate::bson::{doc, Bson, Document};
use crate::command::{coll_mod, ValidationAction, ValidationLevel};

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

/// The migration versioned `prefix` for `changes` (which must not be empty).
pub(super) fn plan(prefix: &str, changes: &[Change]) -> Migration {
    let mut migration = Migration {
        name: format!("{prefix}_{}", summary(changes)),
        notes: vec![],
        up: vec![],
        down: vec![],
        removed: vec![],
    };
    for change in changes {
        add(&mut migration, change);
    }
    migration.down.reverse();
    migration
}

fn add(migration: &mut Migration, change: &Change) {
    match change {
        Change::Create { after } => {
            migration.up.push(create_step(after));
            migration.up.extend(options::up_steps(None, &after.model, &mut migration.notes));
            if !after.model.options.is_timeseries() {
                migration.down.push(unvalidate_step(after));
            }
            migration.down.extend(options::down_steps(None, &after.model));
        }
        Change::Alter { before, after, tightening } => {
            if validation_changed(before, after) {
                migration.up.push(coll_mod_step(after, alter_comments(before, after, tightening)));
                migration.down.push(coll_mod_step(
                    before,
                    vec![format!("{}: restore the previous validator", namespace(before))],
                ));
            }
            migration.up.extend(options::up_steps(Some(&before.model), &after.model, &mut migration.notes));
            migration.down.extend(options::down_steps(Some(&before.model), &after.model));
        }
        Change::Enforce { before, after } => {
            let line = format!(
                "{}: enforce the staged validator: validationAction {} -> {}",
                namespace(after),
                before.model.action,
                after.model.action
            );
            migration.up.push(coll_mod_step(after, vec![line]));
            migration.down.push(coll_mod_step(
                before,
                vec![format!("{}: back to validationAction {}", namespace(before), before.model.action)],
            ));
        }
        Change::Removed { before } => migration.removed.push(before.clone()),
    }
    migration.notes.extend(notes(change));
}

fn namespace(entry: &Entry) -> String {
    format!("{} ({})", entry.model.namespace(), entry.model.rust_type)
}

fn create_step(after: &Entry) -> Step {
    let m = &after.model;
    let (command, fallback) = options::create_commands(m);
    let mut comments = vec![format!("{}: new collection; collMod when it already exists", namespace(after))];
    comments.extend(options::create_comments(m));
    Step { db: m.db.clone(), collection: m.collection.clone(), comments, command, if_namespace_exists: Some(fallback) }
}

/// The validator, level or action differ (not only the options).
fn validation_changed(before: &Entry, after: &Entry) -> bool {
    let (b, a) = (&before.model, &after.model);
    b.validator != a.validator || b.level != a.level || b.action != a.action
}

/// Down of a create: the collection and its data stay, only the validator goes.
fn unvalidate_step(after: &Entry) -> Step {
    let m = &after.model;
    let line = format!("{}: remove the validator; the collection and its documents are kept", namespace(after));
    let command = coll_mod(&m.collection, doc! {}, ValidationLevel::Strict, ValidationAction::Error);
    Step {
        db: m.db.clone(),
        collection: m.collection.clone(),
        comments: vec![line],
        command,
        if_namespace_exists: None,
    }
}

fn coll_mod_step(entry: &Entry, comments: Vec<String>) -> Step {
    let m = &entry.model;
    let command = coll_mod(&m.collection, m.validator.clone(), m.level, m.action);
    Step { db: m.db.clone(), collection: m.collection.clone(), comments, command, if_namespace_exists: None }
}

fn alter_comments(before: &Entry, after: &Entry, tightening: &[String]) -> Vec<String> {
    let head = match (tightening.is_empty(), after.enforce) {
        (true, _) => "loosened; accepts every document the previous one did",
        (false, Some(_)) => "tightened, staged with validationAction \"warn\"; it may reject stored documents:",
        (false, None) => "tightened, enforced at once; it may reject stored documents:",
    };
    let mut lines = vec![format!("{} {}: {head}", namespace(after), changed(&before.model, &after.model))];
    lines.extend(tightening.iter().map(|t| format!("  - {t}")));
    lines
}

/// `validator, validationLevel strict -> moderate`: what an alter changes.
fn changed(before: &super::Model, after: &super::Model) -> String {
    let mut what = Vec::new();
    if before.validator != after.validator {
        what.push("validator".to_owned());
    }
    if before.level != after.level {
        what.push(format!("validationLevel {} -> {}", before.level, after.level));
    }
    if before.action != after.action {
        what.push(format!("validationAction {} -> {}", before.action, after.action));
    }
    format!("[{}]", what.join(", "))
}

fn notes(change: &Change) -> Vec<String> {
    let mut notes = Vec::new();
    let after = change.after();
    if let Some(e) = after.filter(|e| e.enforce.is_some()) {
        notes.push(staged_note(e));
    }
    if let Some(e) = after.filter(|e| e.model.action == ValidationAction::ErrorAndLog) {
        notes.push(format!(
            "{}: validationAction \"errorAndLog\" needs MongoDB 8.1 or newer; older servers refuse the command",
            e.model.namespace()
        ));
    }
    if let Change::Alter { before, after, .. } = change {
        notes.extend(renames(&before.model, &after.model));
    }
    if let Change::Removed { before } = change {
        notes.push(format!("{}: no longer in the code; its collection, documents and validator are left as they are (migrations never drop)", namespace(before)));
    }
    notes
}

/// A field that disappears while one with the same schema appears, at the same level, looks
/// like a rename: the documents still hold the old name, which the new validator does not
/// know. Said as a note with the `$rename` data migration that would carry the values over
/// (never run unasked: `schema new-data` takes it).
fn renames(before: &Model, after: &Model) -> Vec<String> {
    let schema = |m: &Model| m.validator.get_document("$jsonSchema").ok().cloned();
    let (Some(old), Some(new)) = (schema(before), schema(after)) else { return Vec::new() };
    let mut notes = Vec::new();
    rename_notes(after, "", &old, &new, &mut notes);
    notes
}

fn rename_notes(m: &Model, path: &str, old: &Document, new: &Document, notes: &mut Vec<String>) {
    let (Ok(old_props), Ok(new_props)) = (old.get_document("properties"), new.get_document("properties")) else {
        return;
    };
    let plain = |schema: &Bson| match schema {
        Bson::Document(d) => {
            let mut d = d.clone();
            d.remove("description");
            d.remove("title");
            Bson::Document(d)
        }
        other => other.clone(),
    };
    let at = |name: &str| if path.is_empty() { name.to_owned() } else { format!("{path}.{name}") };
    for (gone, schema) in old_props.iter().filter(|(k, _)| !new_props.contains_key(k.as_str())) {
        let same: Vec<&String> = new_props
            .iter()
            .filter(|(k, s)| !old_props.contains_key(k.as_str()) && plain(s) == plain(schema))
            .map(|(k, _)| k)
            .collect();
        if let [renamed] = same[..] {
            let (from, to) = (at(gone), at(renamed));
            notes.push(format!(
                "{}: `{from}` is gone and `{to}` appeared with the same schema: it looks like a rename. The stored \
                 documents still say `{from}`; if it is one, carry the values over before this migration with a data \
                 migration (`schema new-data rename_{}`) whose step is {{\"db\": \"{}\", \"command\": {{\"update\": \"{}\", \
                 \"updates\": [{{\"q\": {{\"{from}\": {{\"$exists\": true}}}}, \"u\": {{\"$rename\": {{\"{from}\": \"{to}\"}}}}, \
                 \"multi\": true}}]}}}} (nothing runs it unasked)",
                m.namespace(),
                to.replace('.', "_"),
                m.db,
                m.collection
            ));
        }
    }
    for (name, schema) in new_props {
        if let (Some(Bson::Document(o)), Bson::Document(n)) = (old_props.get(name), schema) {
            rename_notes(m, &at(name), o, n, notes);
        }
    }
}

fn staged_note(entry: &Entry) -> String {
    let m = &entry.model;
    let target = entry.enforce.map_or("error", ValidationAction::as_str);
    format!(
        "{}: staged. Writes that fail the new validator are accepted and logged. Dump the collection (mongodump --db {} --collection {}), run `schema check --collection {} <file>.bson`, fix what it reports, then run `schema migrate` again: it writes the migration that switches to \"{target}\".",
        m.namespace(), m.db, m.collection, m.collection
    )
}

/// `create_t_users`, or `alter_t_order_and_2_more` for several collections.
fn summary(changes: &[Change]) -> String {
    let first = &changes[0];
    let verb = if changes.iter().all(|c| c.verb() == first.verb()) { first.verb() } else { "migrate" };
    let text = match changes.len() {
        1 => format!("{verb}_{}", first.collection()),
        n => format!("{verb}_{}_and_{}_more", first.collection(), n - 1),
    };
    let safe: String =
        text.chars().map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '_' }).collect();
    safe.chars().take(60).collect()
}
