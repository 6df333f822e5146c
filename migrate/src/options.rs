//! Steps for collection options: time-series and capped creation, indexes (created
//! idempotently; a changed definition changed in place where mongod can, otherwise built
//! before the old one is dropped where the keys allow, each step saying what it does to the
//! live collection) and the shard key (`shardCollection`, through mongos).

use super::step::Step;
use mongo_schema_core::bson::{doc, Bson, Document};
use mongo_schema_core::model::Model;

/// Comment lines of a new collection's create step.
pub(super) fn create_comments(m: &Model) -> Vec<String> {
    let mut lines = Vec::new();
    if m.options.is_timeseries() {
        lines.push(format!(
            "{}: time-series collection; no validator: mongod refuses one on a time-series collection, so validate \
             measurements before writing them with the model's json_schema() and mongo_schema::Validator",
            m.namespace()
        ));
    }
    if m.options.create.contains_key("capped") {
        lines.push(format!("{}: capped collection: the oldest documents make room for new ones", m.namespace()));
    }
    if m.options.create.contains_key("clusteredIndex") {
        lines.push(format!(
            "{}: clustered collection: documents stored in `_id` order, no separate `_id` index",
            m.namespace()
        ));
    }
    if let Ok(collation) = m.options.create.get_document("collation") {
        lines.push(format!(
            "{}: default collation {collation}: its indexes and queries compare strings so unless they name another",
            m.namespace()
        ));
    }
    lines
}

/// Steps that take a collection's options from `before` (`None`: a new collection) to
/// `after`; what cannot be changed by a command goes to `notes`.
pub(super) fn up_steps(before: Option<&Model>, after: &Model, notes: &mut Vec<String>) -> Vec<Step> {
    let mut steps = Vec::new();
    if let Some(before) = before {
        steps.extend(create_option_steps(before, after, notes));
    }
    steps.extend(index_steps(before.map_or(&[][..], |b| &b.options.indexes), after, notes));
    steps.extend(shard_step(before, after, notes));
    steps
}

/// Steps that undo [`up_steps`]: the indexes it created dropped, changed ones restored,
/// the expiry put back. Sharding is not undone. In reverse order of execution, as the
/// plan reverses the down script as a whole.
pub(super) fn down_steps(before: Option<&Model>, after: &Model) -> Vec<Step> {
    let old: &[Document] = before.map_or(&[], |b| &b.options.indexes);
    let name = |spec: &Document| spec.get_str("name").unwrap_or_default().to_owned();
    let mut steps = Vec::new();
    if let Some(before) = before.filter(|b| {
        b.options.is_timeseries() && after.options.is_timeseries() && b.options.create != after.options.create
    }) {
        steps.push(step(
            before,
            vec![format!("{}: back to the previous expiry", before.namespace())],
            before.commands().1,
        ));
    }
    let created: Vec<String> =
        after.options.indexes.iter().map(name).filter(|n| !old.iter().any(|o| &name(o) == n)).collect();
    if !created.is_empty() {
        let line = format!("{}: drop the indexes this migration created: {}", after.namespace(), created.join(", "));
        steps.push(step(after, vec![line], doc! { "dropIndexes": &after.collection, "index": created }));
    }
    for spec in old {
        if let Some(current) = after.options.indexes.iter().find(|s| name(s) == name(spec) && *s != spec) {
            let m = before.unwrap_or(after);
            steps.extend(change_steps(m, &name(spec), current, spec, "restored to its previous definition"));
        }
    }
    steps.reverse();
    steps
}

fn step(m: &Model, comments: Vec<String>, command: Document) -> Step {
    Step::new(&m.db, &m.collection, comments, command)
}

/// Changes to `timeseries`, `expireAfterSeconds`, `capped`, `collation` and `clusteredIndex`
/// of an existing collection: what `collMod` can change, changed; the rest, notes.
fn create_option_steps(before: &Model, after: &Model, notes: &mut Vec<String>) -> Vec<Step> {
    let (b, a) = (&before.options.create, &after.options.create);
    if b == a {
        return Vec::new();
    }
    let ns = after.namespace();
    let (b_ts, a_ts) = (b.get_document("timeseries").ok(), a.get_document("timeseries").ok());
    let mut steps = Vec::new();
    match (b_ts, a_ts) {
        (Some(b_ts), Some(a_ts)) => {
            let fixed = |d: &Document| (d.get("timeField").cloned(), d.get("metaField").cloned());
            if fixed(b_ts) != fixed(a_ts) {
                notes.push(format!("{ns}: timeField / metaField changed; mongod cannot change them on an existing time-series collection: create a new collection and copy the measurements into it ($out)"));
            }
            if b_ts.get("granularity") != a_ts.get("granularity") {
                let granularity = a_ts.get("granularity").cloned().unwrap_or_else(|| Bson::from("seconds"));
                let line = format!("{ns}: granularity -> {granularity} (mongod only accepts a coarser one: seconds -> minutes -> hours)");
                steps.push(step(after, vec![line], doc! { "collMod": &after.collection, "timeseries": { "granularity": granularity } }));
            }
            if b.get("expireAfterSeconds") != a.get("expireAfterSeconds") {
                steps.push(step(after, vec![format!("{ns}: new expiry of measurements")], after.commands().1));
            }
        }
        (None, None) => {
            let part = |d: &Document, keys: &[&str]| -> Document {
                d.iter().filter(|(k, _)| keys.contains(&k.as_str())).map(|(k, v)| (k.clone(), v.clone())).collect()
            };
            if part(b, &["capped", "size", "max"]) != part(a, &["capped", "size", "max"]) {
                notes.push(format!("{ns}: capped options changed; mongod does not resize or uncap a collection through a migration: convert it by hand (convertToCapped, or copy into a new collection)"));
            }
            if b.get("collation") != a.get("collation") {
                notes.push(format!("{ns}: default collation changed; mongod cannot change a collection's collation: create a new collection with it and copy the documents into it ($out), then rename it"));
            }
            let clustered = |d: &Document| d.contains_key("clusteredIndex");
            if clustered(b) != clustered(a) {
                notes.push(format!("{ns}: changed between a clustered and a regular collection; mongod cannot convert one into the other: create a new collection and copy the documents into it"));
            } else if clustered(a) && b.get("expireAfterSeconds") != a.get("expireAfterSeconds") {
                let expire = a.get("expireAfterSeconds").cloned().unwrap_or_else(|| Bson::from("off"));
                let line = format!("{ns}: new expiry of the clustered collection's documents (by `_id`): {expire}");
                steps.push(step(after, vec![line], doc! { "collMod": &after.collection, "expireAfterSeconds": expire }));
            }
        }
        _ => notes.push(format!("{ns}: changed between a regular and a time-series collection; mongod cannot convert one into the other: create a new collection and copy the documents into it")),
    }
    steps
}

/// `createIndexes` for new indexes; drop-and-create for each index whose definition
/// changed; removed indexes are reported, never dropped.
fn index_steps(before: &[Document], after: &Model, notes: &mut Vec<String>) -> Vec<Step> {
    let name = |spec: &Document| spec.get_str("name").unwrap_or_default().to_owned();
    let find = |list: &[Document], n: &str| list.iter().find(|s| name(s) == n).cloned();
    let ns = after.namespace();
    let mut steps = Vec::new();
    let new: Vec<Document> =
        after.options.indexes.iter().filter(|s| find(before, &name(s)).is_none()).cloned().collect();
    if !new.is_empty() {
        let names: Vec<String> = new.iter().map(name).collect();
        let line = format!(
            "{ns}: create indexes {}; harmless to re-run (an identical index is left as it is)",
            names.join(", ")
        );
        steps.push(step(after, vec![line], doc! { "createIndexes": &after.collection, "indexes": new }));
    }
    for spec in &after.options.indexes {
        let n = name(spec);
        if let Some(old) = find(before, &n).filter(|old| old != spec) {
            steps.extend(change_steps(after, &n, &old, spec, "changed"));
        }
    }
    for gone in before.iter().filter(|s| find(&after.options.indexes, &name(s)).is_none()) {
        let n = name(gone);
        notes.push(format!("{ns}: index `{n}` is no longer declared; it is left in place (drop it by hand once no query needs it: db.getSiblingDB(...).{}.dropIndex(\"{n}\"))", after.collection));
    }
    steps
}

/// Options `collMod` changes in place on mongod 6.0 (`{collMod, index: {name, option}}`).
const IN_PLACE: [&str; 2] = ["expireAfterSeconds", "hidden"];
/// The suffix of the temporary index that enforces a new definition while the old index
/// of the same name is replaced.
const INTERIM: &str = "__mongo_schema_interim";

/// Steps that take index `name` from definition `from` to `to` on a live collection, each
/// commented with what it does there, keeping the index's guarantees wherever mongod allows:
/// - only the TTL or `hidden` changed: one `collMod`, nothing rebuilt;
/// - a non-unique index becomes unique (nothing else changed): `collMod` with
///   `prepareUnique` (new duplicates refused from then on), then `unique: true`, which fails,
///   listing them, while duplicates exist; the index keeps serving queries throughout;
/// - the keys of a unique index changed: the new definition is built first under an interim name (with a
///   filter every document matches, which mongod needs to hold it beside the final one), so
///   it holds while the old index is dropped and rebuilt under its name; then the interim is
///   dropped;
/// - anything else (same keys, other options): mongod cannot hold two indexes on the same keys
///   that differ so, so the old index is dropped, then re-created, and the comment says what
///   is not enforced in between.
///
/// Re-running is harmless: a drop of an index already gone counts as done, and creating an
/// identical index is a no-op.
fn change_steps(m: &Model, name: &str, from: &Document, to: &Document, why: &str) -> Vec<Step> {
    let ns = m.namespace();
    let without = |d: &Document, keys: &[&str]| {
        let mut d = d.clone();
        for k in keys {
            d.remove(*k);
        }
        d
    };
    if without(from, &IN_PLACE) == without(to, &IN_PLACE) {
        let mut index = doc! { "name": name };
        for option in IN_PLACE {
            match (from.get(option), to.get(option)) {
                (a, Some(b)) if a != Some(b) => index.insert(option, b.clone()),
                (Some(_), None) if option == "hidden" => index.insert(option, false),
                _ => None,
            };
        }
        if from.contains_key("expireAfterSeconds") && !to.contains_key("expireAfterSeconds") {
            // mongod cannot take the TTL off an index in place
            return recreate(m, name, from, to, why);
        }
        let line = format!("{ns}: index `{name}` {why}: changed in place ({index}); nothing is rebuilt or dropped");
        return vec![step(m, vec![line], doc! { "collMod": &m.collection, "index": index })];
    }
    let becomes_unique = !from.get_bool("unique").unwrap_or(false) && to.get_bool("unique").unwrap_or(false);
    if becomes_unique && without(from, &["unique"]) == without(to, &["unique"]) {
        return vec![
            step(
                m,
                vec![format!("{ns}: index `{name}` {why}: becomes unique in place; first, new duplicate keys are refused (prepareUnique)")],
                doc! { "collMod": &m.collection, "index": { "name": name, "prepareUnique": true } },
            ),
            step(
                m,
                vec![format!("{ns}: index `{name}`: converted to unique; fails, listing them, while duplicates exist: remove them and run again")],
                doc! { "collMod": &m.collection, "index": { "name": name, "unique": true } },
            ),
        ];
    }
    if from.get("key") != to.get("key") && to.get_bool("unique").unwrap_or(false) {
        let interim = format!("{name}{INTERIM}");
        let mut interim_spec = to.clone();
        interim_spec.insert("name", interim.clone());
        // mongod holds two indexes on the same keys only when their filters differ: this one
        // covers every document (all have an `_id`), so it enforces what the new one will
        let every = doc! { "_id": { "$exists": true } };
        let filter = match to.get_document("partialFilterExpression") {
            Ok(own) => doc! { "$and": [own.clone(), every] },
            Err(_) => every,
        };
        interim_spec.insert("partialFilterExpression", filter);
        let mut steps = vec![step(
            m,
            vec![format!("{ns}: index `{name}` {why}: its new definition is built first as `{interim}` (a background build; the collection stays writable), so it holds while `{name}` is replaced")],
            doc! { "createIndexes": &m.collection, "indexes": [interim_spec] },
        )];
        steps.extend(recreate(m, name, from, to, why));
        steps.push(step(
            m,
            vec![format!("{ns}: drop the interim index `{interim}`: `{name}` has its new definition")],
            doc! { "dropIndexes": &m.collection, "index": interim },
        ));
        return steps;
    }
    recreate(m, name, from, to, why)
}

/// Drop-and-create of one index: mongod cannot modify this change in place. Re-running is
/// harmless: a missing index is not an error of this drop.
fn recreate(m: &Model, name: &str, from: &Document, to: &Document, why: &str) -> Vec<Step> {
    let ns = m.namespace();
    let mut lost = vec!["queries that use it scan the collection"];
    if from.get_bool("unique").unwrap_or(false) {
        lost.push("its uniqueness is not enforced");
    }
    if from.contains_key("expireAfterSeconds") {
        lost.push("no document expires through it");
    }
    let drop = format!(
        "{ns}: index `{name}` {why}: DROPPED, then re-created (this index only); until the re-created index is built, {}",
        lost.join(", ")
    );
    vec![
        step(m, vec![drop], doc! { "dropIndexes": &m.collection, "index": name }),
        step(
            m,
            vec![format!("{ns}: index `{name}` re-created: {to}")],
            doc! { "createIndexes": &m.collection, "indexes": [to.clone()] },
        ),
    ]
}

/// `shardCollection` for a newly declared shard key, run against `admin` through mongos.
fn shard_step(before: Option<&Model>, after: &Model, notes: &mut Vec<String>) -> Option<Step> {
    let key = &after.options.shard_key;
    let old = before.map(|b| &b.options.shard_key).filter(|k| !k.is_empty());
    match old {
        Some(old) if old != key => {
            notes.push(format!("{}: shard key changed; resharding is not done by migrations: run reshardCollection (MongoDB 5.0+) or refineCollectionShardKey by hand", after.namespace()));
            None
        }
        Some(_) => None,
        None if key.is_empty() => None,
        None => {
            let comments = vec![
                format!("{}: shard on {key}; needs a sharded cluster: through mongos it runs, elsewhere (a replica set, a standalone) it is skipped as pending and runs when applied through mongos", after.namespace()),
                "harmless to re-run with the same key; a non-empty collection needs an index that starts with the key first".to_owned(),
            ];
            let command = doc! { "shardCollection": after.namespace(), "key": key.clone() };
            Some(Step::new("admin", &after.collection, comments, command))
        }
    }
}
