//! A migration: the commands that take the deployment from the snapshot to the models,
//! and the commands that take it back.

use super::diff::Change;
use super::options;
use super::snapshot::Entry;
use super::step::{Migration, Phase, Step};
use mongo_schema_core::bson::{doc, Bson, Document};
use mongo_schema_core::command::{coll_mod, ValidationAction, ValidationLevel};
use mongo_schema_core::model::Model;
use mongo_schema_core::view::{Properties, SchemaView};

/// The migration versioned `prefix` for `changes` (which must not be empty). Unless
/// `direct`, what the previous release's writes would not pass is left to the contract
/// phase: the expand steps come first, the contract steps after them.
pub(super) fn plan(prefix: &str, changes: &[Change], direct: bool) -> Migration {
    let mut parts = Parts::default();
    for change in changes {
        add(&mut parts, change, direct);
    }
    parts.down.reverse();
    for step in &mut parts.contract {
        step.phase = Phase::Contract;
    }
    Migration {
        name: format!("{prefix}_{}", summary(changes)),
        notes: parts.notes,
        up: parts.expand.into_iter().chain(parts.contract).collect(),
        down: parts.down,
        removed: parts.removed,
    }
}

/// A migration being planned: the steps of each phase, the down steps (last to run first).
#[derive(Default)]
struct Parts {
    expand: Vec<Step>,
    contract: Vec<Step>,
    down: Vec<Step>,
    notes: Vec<String>,
    removed: Vec<Entry>,
}

fn add(parts: &mut Parts, change: &Change, direct: bool) {
    match change {
        Change::Create { after } => {
            let adopt = !direct && !after.model.options.is_timeseries();
            parts.expand.push(create_step(after, adopt));
            parts.expand.extend(options::up_steps(None, &after.model, &mut parts.notes));
            if adopt {
                let m = &after.model;
                parts.contract.extend(move_step(m, &m.renames));
                parts.contract.push(enforce_step(after, "enforce the model's validator on an adopted collection"));
                parts.notes.push(adoption_note(m));
            }
            if !after.model.options.is_timeseries() {
                parts.down.push(unvalidate_step(after));
            }
            parts.down.extend(options::down_steps(None, &after.model));
        }
        Change::Alter { before, after, tightening } => {
            let renamed = declared_renames(&before.model, &after.model);
            let changed = validation_changed(before, after);
            let staged = changed && !direct && (!tightening.is_empty() || !renamed.is_empty());
            let comments = alter_comments(before, after, tightening, staged);
            let restore = vec![format!("{}: restore the previous validator", namespace(before))];
            let back: Vec<(String, String)> = renamed.iter().map(|(new, old)| (old.clone(), new.clone())).collect();
            // pushed last-to-run first: the keys moved back, then the previous validator
            if changed {
                parts.down.push(coll_mod_step(before, restore));
            }
            parts.down.extend(move_step(&before.model, &back));
            if staged {
                // a stricter level or action alone has nothing to expand
                if before.model.validator != after.model.validator || !renamed.is_empty() {
                    parts.expand.push(coll_mod_step(&expand_entry(before, after, &renamed), comments));
                }
                parts.contract.extend(move_step(&after.model, &renamed));
                parts.contract.push(enforce_step(after, "enforce the model's validator"));
                parts.notes.push(staged_note(&after.model, tightening, &renamed));
            } else {
                if changed {
                    parts.expand.push(coll_mod_step(after, comments));
                }
                parts.expand.extend(move_step(&after.model, &renamed));
            }
            parts.expand.extend(options::up_steps(Some(&before.model), &after.model, &mut parts.notes));
            parts.down.extend(options::down_steps(Some(&before.model), &after.model));
        }
        Change::Enforce { before, after } => {
            // a tightening staged by an earlier version (the snapshot's `enforceAction`)
            let line = format!("validationAction {} -> {}", before.model.action, after.model.action);
            parts.contract.push(enforce_step(after, &line));
            parts.down.push(coll_mod_step(
                before,
                vec![format!("{}: back to validationAction {}", namespace(before), before.model.action)],
            ));
        }
        Change::Removed { before } => parts.removed.push(before.clone()),
    }
    parts.notes.extend(notes(change));
}

fn namespace(entry: &Entry) -> String {
    format!("{} ({})", entry.model.namespace(), entry.model.rust_type)
}

/// `createCollection` with the model's validator; when the collection exists, `collMod`:
/// with the model's validator, level and action, or, to `adopt` a collection full of
/// documents no validator saw, under `validationAction: "warn"` and `validationLevel:
/// "moderate"` (renamed keys accepted under their old names too), which refuse no write of
/// the applications already writing there.
fn create_step(after: &Entry, adopt: bool) -> Step {
    let m = &after.model;
    let (command, mut fallback) = m.commands();
    let mut comments = vec![format!("{}: new collection; collMod when it already exists", namespace(after))];
    if adopt {
        let validator = accepting_both(&m.validator, &renamed_keys(&m.validator, &m.renames), &m.renames);
        fallback = coll_mod(&m.collection, validator, ValidationLevel::Moderate, ValidationAction::Warn);
        comments = vec![format!(
            "{}: new collection, enforced at once; a collection that exists is adopted instead: its validator \
             installed with validationAction \"warn\" and validationLevel \"moderate\", so no write of the \
             applications already writing there is refused, until the contract enforces it",
            namespace(after)
        )];
    }
    comments.extend(options::create_comments(m));
    Step { if_namespace_exists: Some(fallback), ..Step::new(&m.db, &m.collection, comments, command) }
}

/// The contract's `collMod` to the model's validator, level and action, gated: `apply` runs
/// it only when no stored document fails that validator (an action of `warn` refuses
/// nothing, so it needs no gate).
fn enforce_step(after: &Entry, what: &str) -> Step {
    let m = &after.model;
    let comments = vec![
        format!("{}: {what} (validationLevel {}, validationAction {})", namespace(after), m.level, m.action),
        "runs only when no stored document fails it (apply counts them first and stops naming the count)".to_owned(),
    ];
    Step { require_valid: m.action != ValidationAction::Warn, ..coll_mod_step(after, comments) }
}

/// What the expand phase installs while the previous release still writes: a validator
/// admitting every document `before`'s admits and every one `after`'s does (each side also
/// accepting the other's name of a renamed key), at `before`'s level and action.
fn expand_entry(before: &Entry, after: &Entry, renamed: &[(String, String)]) -> Entry {
    let (b, a) = (&before.model, &after.model);
    let olds: Vec<&String> = renamed.iter().map(|(_, old)| old).collect();
    let news: Vec<&String> = renamed.iter().map(|(new, _)| new).collect();
    let old_side = with_properties(&b.validator, &a.validator, &news);
    let new_side = with_properties(&a.validator, &b.validator, &olds);
    let validator = match (old_side.get_document("$jsonSchema"), new_side.get_document("$jsonSchema")) {
        (Ok(o), Ok(n)) if old_side.len() == 1 && new_side.len() == 1 => {
            doc! { "$jsonSchema": { "anyOf": [o.clone(), n.clone()] } }
        }
        _ => doc! { "$or": [old_side, new_side] },
    };
    Entry { model: Model { validator, level: b.level, action: b.action, ..a.clone() }, enforce: None }
}

/// `base` with the top-level `properties` of `other` named in `keys` that `base` lacks.
fn with_properties(base: &Document, other: &Document, keys: &[&String]) -> Document {
    let mut out = base.clone();
    let from = other.get_document("$jsonSchema").and_then(|s| s.get_document("properties")).ok();
    if let (Some(from), Ok(props)) =
        (from, out.get_document_mut("$jsonSchema").and_then(|s| s.get_document_mut("properties")))
    {
        for key in keys {
            if let (Some(schema), false) = (from.get(key.as_str()), props.contains_key(key.as_str())) {
                props.insert(key.as_str(), schema.clone());
            }
        }
    }
    out
}

/// `validator` with each renamed key under its old name: what the documents written before
/// the rename hold.
fn renamed_keys(validator: &Document, renames: &[(String, String)]) -> Document {
    let mut out = validator.clone();
    let Ok(schema) = out.get_document_mut("$jsonSchema") else { return out };
    let rename = |name: &str| renames.iter().find(|(new, _)| new == name).map_or(name, |(_, old)| old).to_owned();
    if let Ok(props) = schema.get_document("properties") {
        let renamed: Document = props.iter().map(|(k, v)| (rename(k), v.clone())).collect();
        schema.insert("properties", renamed);
    }
    if let Ok(required) = schema.get_array("required") {
        let renamed: Vec<Bson> =
            required.iter().map(|r| Bson::String(rename(r.as_str().unwrap_or_default()))).collect();
        schema.insert("required", renamed);
    }
    out
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
    Step::new(&m.db, &m.collection, vec![line], command)
}

fn coll_mod_step(entry: &Entry, comments: Vec<String>) -> Step {
    let m = &entry.model;
    let command = coll_mod(&m.collection, m.validator.clone(), m.level, m.action);
    Step::new(&m.db, &m.collection, comments, command)
}

fn alter_comments(before: &Entry, after: &Entry, tightening: &[String], staged: bool) -> Vec<String> {
    let head = match (tightening.is_empty(), staged) {
        (true, false) => "loosened; accepts every document the previous one did",
        (true, true) => "renamed keys: first a validator that accepts either name; the contract moves the values",
        (false, true) => {
            "tightened: first a validator that admits what the previous release writes and what this \
                          one writes; the contract enforces the new one, which may reject stored documents:"
        }
        (false, false) => "tightened, enforced at once; it may reject stored documents:",
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
    let (Some(old), Some(new)) =
        (SchemaView::of_validator(&before.validator), SchemaView::of_validator(&after.validator))
    else {
        return Vec::new();
    };
    let mut notes = Vec::new();
    rename_notes(after, "", old, new, &mut notes);
    // a declared rename is carried out by the migration's own steps
    notes.retain(|n| !declared.iter().any(|(_, old)| n.contains(&format!(": `{old}` is gone and"))));
    notes
}

/// The `renamed_from` declarations of `after` that this change carries out: the old key is
/// a top-level property before and gone after, the new key appears.
fn declared_renames(before: &Model, after: &Model) -> Vec<(String, String)> {
    let old_props = SchemaView::of_validator(&before.validator).and_then(|s| s.properties());
    let new_props = SchemaView::of_validator(&after.validator).and_then(|s| s.properties());
    let declares = |props: Option<Properties<'_>>, name: &str| props.is_some_and(|p| p.contains(name));
    after
        .renames
        .iter()
        .filter(|(new, old)| {
            declares(old_props, old)
                && !declares(old_props, new)
                && declares(new_props, new)
                && !declares(new_props, old)
        })
        .cloned()
        .collect()
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

/// Moves each `(to, from)` pair's value from `from` to `to`, in one `update` that bypasses
/// document validation (the tool's own move, which must not stop at a document that breaks
/// another rule): where a document holds `from` only, its value goes to `to` and `from` is
/// gone in the same update; where it holds both (a newer release set `to` on an older
/// document), `to` is kept and `from` unset. Never both keys left behind, which serde's
/// `alias` refuses to read; idempotent. `None` without pairs.
fn move_step(m: &Model, pairs: &[(String, String)]) -> Option<Step> {
    if pairs.is_empty() {
        return None;
    }
    let mut updates = Vec::new();
    for (to, from) in pairs {
        updates.push(doc! {
            "q": { from: { "$exists": true }, to: { "$exists": false } },
            "u": [{ "$set": { to: format!("${from}") } }, { "$unset": from }],
            "multi": true,
        });
        updates.push(doc! { "q": { from: { "$exists": true } }, "u": { "$unset": { from: "" } }, "multi": true });
    }
    let moved: Vec<String> = pairs.iter().map(|(to, from)| format!("`{from}` to `{to}`")).collect();
    let comments = vec![format!(
        "{}.{}: move {} (the value moves, the old key goes; bypasses validation)",
        m.db,
        m.collection,
        moved.join(", ")
    )];
    let command = doc! { "update": &m.collection, "updates": updates, "bypassDocumentValidation": true };
    Some(Step::new(&m.db, &m.collection, comments, command))
}

fn rename_notes(m: &Model, path: &str, old: SchemaView<'_>, new: SchemaView<'_>, notes: &mut Vec<String>) {
    let (Some(old_props), Some(new_props)) = (old.properties(), new.properties()) else {
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
    for (gone, schema) in old_props.entries().filter(|(k, _)| !new_props.contains(k)) {
        let same: Vec<&str> = new_props
            .entries()
            .filter(|(k, s)| !old_props.contains(k) && plain(s) == plain(schema))
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
    for (name, n) in new_props.iter() {
        if let Some(o) = old_props.get(name) {
            rename_notes(m, &at(name), o, n, notes);
        }
    }
}

/// How a staged change goes: expand with the release, contract once the previous release
/// no longer writes.
fn staged_note(m: &Model, tightening: &[String], renamed: &[(String, String)]) -> String {
    let mut what = Vec::new();
    if !renamed.is_empty() {
        let moved: Vec<String> = renamed.iter().map(|(new, old)| format!("`{old}` to `{new}`")).collect();
        what.push(format!("moves {}", moved.join(", ")));
    }
    if !tightening.is_empty() {
        what.push("enforces the new validator".to_owned());
    }
    format!(
        "{ns}: expand and contract. This release's deploy installs a validator admitting what the previous release \
         writes and what this one writes, so neither is refused while both run. The contract {what} once no instance \
         of the previous release writes: run `schema apply --contract` (or `Migrator::contract(true)`) then. It \
         enforces only when no stored document fails the new validator; `schema check --uri \"$MONGODB_URI\" \
         --collection {ns}` lists them with a fix for each.",
        ns = m.namespace(),
        what = what.join(" and ")
    )
}

/// What a new model's migration does to a collection that already holds documents.
fn adoption_note(m: &Model) -> String {
    let moved: Vec<String> = m.renames.iter().map(|(new, old)| format!("`{old}` to `{new}`")).collect();
    let moves = match moved.is_empty() {
        true => String::new(),
        false => format!(
            " Renamed fields: the validator accepts the old keys too until the contract moves {} (renamed_from).",
            moved.join(", ")
        ),
    };
    format!(
        "{ns}: if the collection already exists, it is adopted: the validator is installed with validationAction \
         \"warn\" and validationLevel \"moderate\", so nothing its current writers do is refused (apply says how many \
         stored documents fail it). The contract enforces \"{action}\" once no stored document fails: fix them with \
         the fixes `schema check --uri \"$MONGODB_URI\" --collection {ns}` prints (in data migrations), then run \
         `schema apply --contract`. `--direct` enforces at once instead.{moves}",
        ns = m.namespace(),
        action = m.action
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
