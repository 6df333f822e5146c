//! `schema check --uri`: a validator's dry run where the data is. The server selects the
//! documents the model's `$jsonSchema` refuses, `{$nor: [{$jsonSchema: S}]}` (through
//! mongos, on every shard in parallel), so only failing documents travel; the local
//! validator then explains each one, grouped as the dump check groups them.

use super::report::DryRunReport;
use mongo_schema_core::bson::{doc, Bson, Document};
use mongo_schema_migrate::server::{CommandError, Server};
use mongo_schema_validate::Validator;

/// What to select on the server.
#[derive(Debug, Clone, Default)]
pub struct LiveCheck {
    /// Check a random `$sample` of this many documents instead of the whole collection.
    pub sample: Option<u64>,
    /// Fetch and explain at most this many failing documents; the rest are only counted.
    pub limit: Option<u64>,
    /// Example `_id`s kept per failure group.
    pub ids: usize,
}

/// What a live check found.
#[derive(Debug, Clone)]
pub struct LiveReport {
    /// `documents`: the documents checked (the collection's count, or the sample's size);
    /// `failed`: the documents the server's `$jsonSchema` refuses; `groups`: the local
    /// validator's explanation of each fetched one.
    pub report: DryRunReport,
    /// Whether `documents` is a `$sample`'s size rather than the collection's count.
    pub sampled: bool,
    /// Failing documents fetched and explained (fewer than `failed` under a `limit`).
    pub explained: u64,
    /// Whether `failed` is only a lower bound: a limited check of a sample, whose rest
    /// cannot be counted without drawing another sample.
    pub failed_at_least: bool,
    /// `_id`s (relaxed Extended JSON) of documents the server refuses and the local
    /// validator admits: a disagreement, which is a bug of the local validator.
    pub admitted_locally: Vec<String>,
}

/// Runs the check of `db.collection` against `schema` (a `$jsonSchema` document) on `server`.
pub fn live_check(
    server: &mut dyn Server,
    db: &str,
    collection: &str,
    schema: &Document,
    validator: &Validator,
    options: &LiveCheck,
) -> Result<LiveReport, CommandError> {
    let in_collection = count(&server.run_command(db, doc! { "count": collection })?)?;
    let failing = doc! { "$match": { "$nor": [{ "$jsonSchema": schema.clone() }] } };
    let mut pipeline = Vec::new();
    if let Some(size) = options.sample {
        pipeline.push(doc! { "$sample": { "size": to_i64(size) } });
    }
    pipeline.push(failing.clone());

    let mut report = DryRunReport::new(options.ids);
    let mut admitted_locally = Vec::new();
    let mut explained = 0;
    let command = doc! { "aggregate": collection, "pipeline": pipeline, "cursor": {} };
    server.cursor(db, command, &mut |document| {
        let failed = report.failed;
        report.add(validator, &document);
        if report.failed == failed {
            let id = document.get("_id").ok().flatten().and_then(|id| Bson::try_from(id).ok());
            admitted_locally.push(id.map_or_else(|| "(no _id)".to_owned(), |id| id.into_relaxed_extjson().to_string()));
        }
        explained += 1;
        options.limit.is_none_or(|limit| explained < limit)
    })?;

    let limited = options.limit.is_some_and(|limit| explained >= limit);
    let mut failed_at_least = false;
    report.failed = match (limited, options.sample) {
        (false, _) => explained,
        // another `$sample` would be other documents: say "at least"
        (true, Some(_)) => {
            failed_at_least = true;
            explained
        }
        (true, None) => {
            let command = doc! { "aggregate": collection, "pipeline": [failing, { "$count": "n" }], "cursor": {} };
            let mut total = 0;
            let mut counted = Ok(());
            server.cursor(db, command, &mut |document| {
                let n = document.get("n").ok().flatten().and_then(|n| Bson::try_from(n).ok());
                counted = n.map_or(Err("a count at `n`"), |n| count_value(&n).map(|n| total = n)).map_err(|expected| {
                    let reply = Document::try_from(document.as_ref()).unwrap_or_default();
                    CommandError::reply("aggregate", expected, &reply)
                });
                false
            })?;
            counted?;
            total
        }
    };
    report.documents = match options.sample {
        Some(size) => size.min(in_collection),
        None => in_collection,
    };
    Ok(LiveReport { report, sampled: options.sample.is_some(), explained, failed_at_least, admitted_locally })
}

/// The `n` of a `count` reply.
fn count(reply: &Document) -> Result<u64, CommandError> {
    let n = reply.get("n").ok_or_else(|| CommandError::reply("count", "a count at `n`", reply))?;
    count_value(n).map_err(|expected| CommandError::reply("count", expected, reply))
}

/// A count, or what the value at `n` is not.
fn count_value(n: &Bson) -> Result<u64, &'static str> {
    let n = match n {
        Bson::Int32(n) => i64::from(*n),
        Bson::Int64(n) => *n,
        Bson::Double(n) if n.fract() == 0.0 => *n as i64,
        _ => return Err("a whole number at `n`"),
    };
    u64::try_from(n).map_err(|_| "a count that is not negative at `n`")
}

fn to_i64(n: u64) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}
