//! What the server counts against a validator: the stored documents that fail it. The gate
//! before a step that enforces a validator, the count `apply` tells when it adopts an
//! existing collection, and what `status` and `drift` check before calling a collection clean.

use super::server::{CommandError, Server};
use crate::bson::{doc, Bson, Document};

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
