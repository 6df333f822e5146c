//! What the server counts against a validator: the stored documents that fail it. The gate
//! before a step that enforces a validator, the count `apply` tells when it adopts an
//! existing collection, and what `status` and `drift` check before calling a collection clean.

use super::server::{CommandError, Server};
use mongo_schema_core::bson::{doc, Bson, Document};

/// How many documents of `db.collection` fail `validator` (a validator document, as
/// `collMod` takes it), and how many it holds: `count` with `{$nor: [validator]}`, which the
/// server runs over every document (through mongos, on every shard).
pub fn failing(
    server: &mut dyn Server,
    db: &str,
    collection: &str,
    validator: &Document,
) -> Result<(u64, u64), CommandError> {
    let failing = count(server, db, doc! { "count": collection, "query": { "$nor": [validator.clone()] } })?;
    let total = count(server, db, doc! { "count": collection })?;
    Ok((failing, total))
}

fn count(server: &mut dyn Server, db: &str, command: Document) -> Result<u64, CommandError> {
    let reply = server.run_command(db, command)?;
    match reply.get("n") {
        Some(Bson::Int32(n)) => Ok(u64::try_from(*n).unwrap_or(0)),
        Some(Bson::Int64(n)) => Ok(u64::try_from(*n).unwrap_or(0)),
        Some(Bson::Double(n)) => Ok(*n as u64),
        _ => Err(CommandError::reply("count", "a count at `n`", &reply)),
    }
}

/// A collection whose enforced validator (`validationAction` other than `warn`) stored
/// documents fail, as the server counts them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failing {
    /// `db.collection`.
    pub namespace: String,
    /// Documents failing its validator.
    pub failing: u64,
    /// Documents it holds.
    pub total: u64,
}

/// The collections among `namespaces` (`(db, collection)`) whose deployed validator is
/// enforced and failed by stored documents: a collection where they are is not clean,
/// whatever the migrations' records say. A collection that does not exist, has no
/// validator or only warns is left out.
pub fn enforced_failing(
    server: &mut dyn Server,
    namespaces: &[(String, String)],
) -> Result<Vec<Failing>, CommandError> {
    let mut found = Vec::new();
    for (db, collection) in namespaces {
        let Some(options) = collection_options(server, db, collection)? else { continue };
        if let Some((failing, total)) = enforced_failing_in(server, db, collection, &options)? {
            found.push(Failing { namespace: format!("{db}.{collection}"), failing, total });
        }
    }
    Ok(found)
}

/// `listCollections`' `options` of `db.collection`; `None` when it does not exist.
pub(crate) fn collection_options(
    server: &mut dyn Server,
    db: &str,
    collection: &str,
) -> Result<Option<Document>, CommandError> {
    let reply = server.run_command(db, doc! { "listCollections": 1, "filter": { "name": collection } })?;
    let first = reply
        .get_document("cursor")
        .and_then(|c| c.get_array("firstBatch"))
        .ok()
        .and_then(|b| b.first())
        .and_then(Bson::as_document);
    Ok(first.map(|info| info.get_document("options").cloned().unwrap_or_default()))
}

/// `(failing, total)` when the collection's validator (in its `listCollections` `options`)
/// is enforced and stored documents fail it; `None` otherwise.
pub(crate) fn enforced_failing_in(
    server: &mut dyn Server,
    db: &str,
    collection: &str,
    options: &Document,
) -> Result<Option<(u64, u64)>, CommandError> {
    let validator = match options.get_document("validator") {
        Ok(v) if !v.is_empty() => v,
        _ => return Ok(None),
    };
    if options.get_str("validationAction").ok() == Some("warn")
        || options.get_str("validationLevel").ok() == Some("off")
    {
        return Ok(None);
    }
    let (failing, total) = failing(server, db, collection, validator)?;
    Ok((failing > 0).then_some((failing, total)))
}

/// The collections whose validators `steps` install (`createCollection`, `collMod`), each once.
pub fn validated_namespaces<'a>(steps: impl Iterator<Item = &'a super::file::FileStep>) -> Vec<(String, String)> {
    let mut found: Vec<(String, String)> = Vec::new();
    for (db, collection) in steps.filter_map(super::file::FileStep::validated) {
        let ns = (db.to_owned(), collection.to_owned());
        if !found.contains(&ns) {
            found.push(ns);
        }
    }
    found
}

/// The keys a contract's move of renamed keys (`migrate` writes it: an `update` bypassing
/// validation) moves, `(to, from)`: where a document holds `from` and not `to`, the value
/// moves to `to`; `from` goes wherever it is. `None` for any other step.
pub fn moves(step: &super::file::FileStep) -> Option<Vec<(String, String)>> {
    let command = &step.command;
    command.get_str("update").ok()?;
    if command.get_bool("bypassDocumentValidation").ok() != Some(true) {
        return None;
    }
    let updates = command.get_array("updates").ok()?;
    let mut pairs: Vec<(String, String)> = Vec::new();
    for statement in updates {
        let statement = statement.as_document()?;
        let (q, u) = (statement.get_document("q").ok()?, statement.get("u")?);
        let exists = |key: &str, value: bool| q.get_document(key).ok() == Some(&doc! { "$exists": value });
        match u {
            // `{from: {$exists: true}, to: {$exists: false}}`: `[{$set: {to: "$from"}}, {$unset: from}]`
            Bson::Array(stages) => {
                let [Bson::Document(set), Bson::Document(unset)] = &stages[..] else { return None };
                let set = set.get_document("$set").ok()?;
                let (to, value) = set.iter().next().filter(|_| set.len() == 1)?;
                let from = value.as_str()?.strip_prefix('$')?;
                let sure = unset.get_str("$unset").ok() == Some(from) && q.len() == 2;
                (sure && exists(from, true) && exists(to, false)).then_some(())?;
                pairs.push((to.clone(), from.to_owned()));
            }
            // `{from: {$exists: true}}`: `{$unset: {from: ""}}`, where both keys are held
            Bson::Document(modifier) => {
                let unset = modifier.get_document("$unset").ok().filter(|_| modifier.len() == 1)?;
                let (from, _) = unset.iter().next().filter(|_| unset.len() == 1)?;
                (q.len() == 1 && exists(from, true) && pairs.iter().any(|(_, f)| f == from)).then_some(())?;
            }
            _ => return None,
        }
    }
    (!pairs.is_empty()).then_some(pairs)
}

/// [`failing`], counted as the documents will be once `moves` (`(to, from)`, as [`moves`]
/// reads them) are made, before any is: an `aggregate` that moves each key in the documents
/// it reads, then counts those failing `validator`; with the `_id`s of the first three. The
/// stored documents are not changed.
pub fn failing_after_moves(
    server: &mut dyn Server,
    db: &str,
    collection: &str,
    validator: &Document,
    moves: &[(String, String)],
) -> Result<(u64, u64, Vec<Bson>), CommandError> {
    let mut pipeline: Vec<Bson> = Vec::new();
    for (to, from) in moves {
        let moved = doc! { "$cond": [{ "$eq": [{ "$type": format!("${to}") }, "missing"] }, format!("${from}"), format!("${to}")] };
        pipeline.push(doc! { "$set": { to.as_str(): moved } }.into());
    }
    let froms: Vec<Bson> = moves.iter().map(|(_, from)| Bson::String(from.clone())).collect();
    if !froms.is_empty() {
        pipeline.push(doc! { "$unset": froms }.into());
    }
    pipeline.push(doc! { "$match": { "$nor": [validator.clone()] } }.into());
    let run = |server: &mut dyn Server, last: Vec<Document>| {
        let mut pipeline = pipeline.clone();
        pipeline.extend(last.into_iter().map(Bson::Document));
        let reply = server.run_command(db, doc! { "aggregate": collection, "pipeline": pipeline, "cursor": {} })?;
        let batch = reply
            .get_document("cursor")
            .and_then(|c| c.get_array("firstBatch"))
            .map_err(|_| CommandError::reply("aggregate", "a cursor with a first batch", &reply))?;
        let batch: Vec<Document> = batch.iter().filter_map(Bson::as_document).cloned().collect();
        Ok::<_, CommandError>((batch, reply))
    };
    let (counted, reply) = run(server, vec![doc! { "$count": "n" }])?;
    let first = counted.first();
    let failing = match first.as_ref().and_then(|d| d.get("n")) {
        None => 0,
        Some(Bson::Int32(n)) => u64::try_from(*n).unwrap_or(0),
        Some(Bson::Int64(n)) => u64::try_from(*n).unwrap_or(0),
        Some(_) => return Err(CommandError::reply("aggregate", "a `$count` at `n`", &reply)),
    };
    let ids = match failing {
        0 => Vec::new(),
        _ => run(server, vec![doc! { "$limit": 3 }, doc! { "$project": { "_id": 1 } }])?
            .0
            .iter()
            .filter_map(|d| d.get("_id").cloned())
            .collect(),
    };
    let total = count(server, db, doc! { "count": collection })?;
    Ok((failing, total, ids))
}
