//! A migration: the commands that take the deployment from the snapshot to the models,
//! and the commands that take it back.

use super::diff::Change;
use super::model::Model;
use super::options;
use super::snapshot::Entry;
use super::step::{Migration, Step};
use crate::bson::{doc, Bson, Document};
use crate::command::{coll_mod, ValidationAction, ValidationLevel};

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
            let renamed = declared_renames(&before.model, &after.model);
            let moves = rename_steps(before, after, &renamed);
            // down runs reversed: the old key back, the previous validator, the new key gone
            migration.down.extend(moves.down_last);
            if validation_changed(before, after) {
                migration.up.extend(moves.up_first);
                migration.up.push(coll_mod_step(after, alter_comments(before, after, tightening)));
                migration.down.push(coll_mod_step(
                    before,
                    vec![format!("{}: restore the previous validator", namespace(before))],
                ));
                migration.down.extend(moves.down_first);
            }
            migration.up.extend(options::up_steps(Some(&before.model), &after.model, &mut migration.notes));
            migration.up.extend(moves.up_last);
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
        let declared = declared_renames(&before.model, &after.model);
        notes.extend(renames(&before.model, &after.model, &declared));
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
fn renames(before: &Model, after: &Model, declared: &[(String, String)]) -> Vec<String> {
    let schema = |m: &Model| m.validator.get_document("$jsonSchema").ok().cloned();
    let (Some(old), Some(new)) = (schema(before), schema(after)) else { return Vec::new() };
    let mut notes = Vec::new();
    rename_notes(after, "", &old, &new, &mut notes);
    // a declared rename is carried out by the migration's own steps
    notes.retain(|n| !declared.iter().any(|(_, old)| n.contains(&format!(": `{old}` is gone and"))));
    notes
}

/// The `renamed_from` declarations of `after` that this change carries out: the old key is
/// a top-level property before and gone after, the new key appears.
fn declared_renames(before: &Model, after: &Model) -> Vec<(String, String)> {
    let properties = |m: &Model| {
        m.validator.get_document("$jsonSchema").and_then(|s| s.get_document("properties")).cloned().unwrap_or_default()
    };
    let (old_props, new_props) = (properties(before), properties(after));
    after
        .renames
        .iter()
        .filter(|(new, old)| {
            old_props.contains_key(old)
                && !old_props.contains_key(new)
                && new_props.contains_key(new)
                && !new_props.contains_key(old)
        })
        .cloned()
        .collect()
}

/// The steps around a validator change that carry renamed fields over, in the expand and
/// contract sequence: a validator that accepts both keys, the values copied, (the new
/// validator), the old keys unset; and the same backwards for `revert`.
#[derive(Default)]
struct RenameSteps {
    up_first: Vec<Step>,
    up_last: Vec<Step>,
    down_first: Vec<Step>,
    down_last: Vec<Step>,
}

fn rename_steps(before: &Entry, after: &Entry, renamed: &[(String, String)]) -> RenameSteps {
    if renamed.is_empty() {
        return RenameSteps::default();
    }
    let (b, a) = (&before.model, &after.model);
    let list = |pairs: &[(String, String)], pick: fn(&(String, String)) -> &String| {
        pairs.iter().map(|p| format!("`{}`", pick(p))).collect::<Vec<_>>().join(", ")
    };
    let forward: Vec<(String, String)> = renamed.to_vec();
    let backward: Vec<(String, String)> = renamed.iter().map(|(new, old)| (old.clone(), new.clone())).collect();
    let both = |base: &Model, other: &Model, pairs: &[(String, String)]| {
        let mut model = base.clone();
        model.validator = accepting_both(&base.validator, &other.validator, pairs);
        Entry { model, enforce: None }
    };
    let expand_up = both(a, b, &forward);
    let expand_down = both(b, a, &backward);
    RenameSteps {
        up_first: std::iter::once(coll_mod_step(
            &Entry { model: Model { level: b.level, action: b.action, ..expand_up.model.clone() }, enforce: None },
            vec![format!(
                "{}: renamed {} from {}: first a validator that accepts either key, so that every step after it \
                 passes while the values move",
                namespace(after),
                list(renamed, |p| &p.0),
                list(renamed, |p| &p.1)
            )],
        ))
        .chain(forward.iter().map(|(new, old)| copy_step(a, old, new)))
        .collect(),
        up_last: forward.iter().map(|(new, old)| unset_step(a, old, new)).collect(),
        // pushed before the global reversal: these run last and first on the way down
        down_last: backward.iter().map(|(old, new)| unset_step(b, new, old)).rev().collect(),
        down_first: backward
            .iter()
            .map(|(old, new)| copy_step(b, new, old))
            .rev()
            .chain(std::iter::once(coll_mod_step(
                &Entry {
                    model: Model { level: a.level, action: a.action, ..expand_down.model.clone() },
                    enforce: None,
                },
                vec![format!("{}: accept either key again while the values move back", namespace(before))],
            )))
            .collect(),
    }
}

/// `base`'s validator that also accepts each `(kept, other)` pair's `other` key with the
/// schema `other_validator` gives it, and requires one of the two where `base` required
/// `kept` (or the other validator required `other`).
fn accepting_both(base: &Document, other_validator: &Document, pairs: &[(String, String)]) -> Document {
    let mut validator = base.clone();
    let other = other_validator.get_document("$jsonSchema").cloned().unwrap_or_default();
    let other_props = other.get_document("properties").cloned().unwrap_or_default();
    let other_required: Vec<Bson> = other.get_array("required").cloned().unwrap_or_default();
    let Ok(schema) = validator.get_document_mut("$jsonSchema") else { return validator };
    let mut either = Vec::new();
    for (kept, moved) in pairs {
        let required: Vec<Bson> = schema.get_array("required").cloned().unwrap_or_default();
        let was_required =
            required.contains(&Bson::String(kept.clone())) || other_required.contains(&Bson::String(moved.clone()));
        if let Some(property) = other_props.get(moved) {
            if let Ok(props) = schema.get_document_mut("properties") {
                props.insert(moved.clone(), property.clone());
            }
        }
        if was_required {
            let rest: Vec<Bson> = required.into_iter().filter(|r| *r != Bson::String(kept.clone())).collect();
            match rest.is_empty() {
                true => drop(schema.remove("required")),
                false => drop(schema.insert("required", rest)),
            }
            either.push(Bson::Document(doc! { "anyOf": [{ "required": [kept] }, { "required": [moved] }] }));
        }
    }
    if !either.is_empty() {
        let mut all: Vec<Bson> = schema.get_array("allOf").cloned().unwrap_or_default();
        all.extend(either);
        schema.insert("allOf", all);
    }
    validator
}

/// Copies `from` into `to` where a document has `from` and not yet `to`: idempotent, so a
/// run killed in it resumes safely.
fn copy_step(m: &Model, from: &str, to: &str) -> Step {
    let update = doc! {
        "q": { from: { "$exists": true }, to: { "$exists": false } },
        "u": [{ "$set": { to: format!("${from}") } }],
        "multi": true,
    };
    Step {
        db: m.db.clone(),
        collection: m.collection.clone(),
        comments: vec![format!("{}.{}: copy `{from}` into `{to}` where it is not there yet", m.db, m.collection)],
        command: doc! { "update": &m.collection, "updates": [update] },
        if_namespace_exists: None,
    }
}

/// Unsets `from` once its values are in `to` (only where `to` is there).
fn unset_step(m: &Model, from: &str, to: &str) -> Step {
    let update = doc! {
        "q": { from: { "$exists": true }, to: { "$exists": true } },
        "u": { "$unset": { from: "" } },
        "multi": true,
    };
    Step {
        db: m.db.clone(),
        collection: m.collection.clone(),
        comments: vec![format!("{}.{}: unset `{from}`, now copied into `{to}`", m.db, m.collection)],
        command: doc! { "update": &m.collection, "updates": [update] },
        if_namespace_exists: None,
    }
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
