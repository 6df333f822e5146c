//! The rehearsal of the pending data steps that `migrate --check` and `apply --dry-run`
//! print: its samples read from dumps or a deployment's `$sample`, its findings as lines or
//! JSON.

use super::shared::{chain, Exit};
use crate::check::plan;
use crate::simulate::{Rehearsal, Samples};
use mongo_schema_core::bson::{doc, Document};
use mongo_schema_migrate::file::MigrationFile;
use mongo_schema_migrate::server::Server;
use mongo_schema_migrate::Model;
use serde::Serialize;
use std::collections::BTreeSet;
use std::io::{self, Write};
use std::path::PathBuf;

/// At most this many documents of a collection are read from a dump: the rehearsal runs
/// every data step over each.
pub(super) const MAX_FROM_DUMP: usize = 10_000;

/// The collections `files` write to or install validators on, `db.collection`.
pub(super) fn namespaces(files: &[MigrationFile]) -> Vec<String> {
    let found: BTreeSet<String> = files
        .iter()
        .flat_map(|f| &f.up)
        .filter_map(|s| Some(format!("{}.{}", s.db, s.command.iter().next()?.1.as_str()?)))
        .collect();
    found.into_iter().collect()
}

/// Where each of `files` stands by the records in `state_db` (read after `to_apply`, which
/// refuses a changed file), as `apply` takes it: the steps done, the collections created.
#[cfg(feature = "driver")]
pub(super) fn progress(
    server: &mut dyn Server,
    state_db: &str,
    files: &[MigrationFile],
) -> Result<Vec<mongo_schema_migrate::order::Progress>, Exit> {
    use mongo_schema_migrate::record::{progress_of, read_records};
    let records = read_records(server, state_db)
        .map_err(|e| Exit(2, format!("reading the migration records in {state_db}: {}", chain(&e))))?;
    Ok(progress_of(&records, files))
}

/// The documents of `inputs` (what `schema check` reads: mongodump directories, or files of
/// `collection`), at most [`MAX_FROM_DUMP`] a collection.
pub(super) fn from_dumps(
    models: &[Model],
    files: &[MigrationFile],
    inputs: &[PathBuf],
    collection: Option<&str>,
) -> Result<Samples, Exit> {
    let mut known: Vec<String> = models.iter().map(Model::namespace).collect();
    known.extend(namespaces(files));
    known.sort();
    known.dedup();
    let chosen = match collection {
        Some(c) if !c.contains('.') => {
            Some(known.iter().find(|n| n.ends_with(&format!(".{c}"))).cloned().ok_or_else(|| {
                Exit(2, format!("--collection {c}: no model or migration names it; known: {}", known.join(", ")))
            })?)
        }
        other => other.map(str::to_owned),
    };
    let plan = plan(&known, chosen.as_deref(), inputs).map_err(|e| Exit(2, e.to_string()))?;
    let mut samples = Samples::default();
    for target in &plan.targets {
        for input in &target.inputs {
            let reader = crate::dump::open(input).map_err(|e| Exit(2, format!("{}: {e}", input.display())))?;
            let origin = format!("from {}", input.display());
            for document in reader.only_namespace(&target.namespace) {
                if samples.count(&target.namespace) >= MAX_FROM_DUMP {
                    break;
                }
                let document = document.map_err(|e| Exit(2, format!("{}: {e}", input.display())))?;
                let document =
                    Document::try_from(document.as_ref()).map_err(|e| Exit(2, format!("{}: {e}", input.display())))?;
                samples.add(&target.namespace, document, &origin);
            }
        }
    }
    Ok(samples)
}

/// A server-side `$sample` of `size` documents of each collection of `namespaces`, added
/// to `samples`.
#[cfg_attr(not(feature = "driver"), allow(dead_code))]
pub(super) fn from_server(
    server: &mut dyn Server,
    namespaces: &[String],
    size: u32,
    samples: &mut Samples,
) -> Result<(), Exit> {
    for namespace in namespaces {
        let Some((db, collection)) = namespace.split_once('.') else { continue };
        let command = doc! {
            "aggregate": collection, "pipeline": [{ "$sample": { "size": i64::from(size) } }], "cursor": {},
        };
        let origin = format!("$sample of {namespace}");
        let mut documents = Vec::new();
        server
            .cursor(db, command, &mut |raw| {
                documents.extend(Document::try_from(raw.as_ref()).ok());
                true
            })
            .map_err(|e| Exit(2, format!("sampling {namespace}: {}", chain(&e))))?;
        for document in documents {
            samples.add(namespace, document, &origin);
        }
    }
    Ok(())
}

/// The rehearsal as lines: a summary, then each finding.
pub(super) fn print(rehearsal: &Rehearsal, out: &mut dyn Write) -> io::Result<()> {
    let refused = rehearsal.refused().count();
    let unjudged = rehearsal.not_simulated().count();
    let gates = rehearsal.gates().count();
    let statements = rehearsal.traces.len();
    match (refused, unjudged) {
        (0, 0) if statements == 0 && gates == 0 => writeln!(out, "data steps: none to rehearse")?,
        (0, 0) => writeln!(
            out,
            "data steps: {statements} statement(s) rehearsed over sample documents under the validator in force \
             when each runs: none would be refused"
        )?,
        _ => writeln!(
            out,
            "data steps: {statements} statement(s) rehearsed over sample documents under the validator in force \
             when each runs: {refused} would be refused, {unjudged} not simulated"
        )?,
    }
    for finding in &rehearsal.findings {
        write!(out, "{}", finding.render())?;
    }
    Ok(())
}

/// The rehearsal as JSON: `{statements, refused, notSimulated, gates, findings: [...]}`.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct DataSteps<'a> {
    /// Data statements rehearsed.
    statements: usize,
    refused: usize,
    not_simulated: usize,
    /// Gated steps sample documents would stop.
    gates: usize,
    findings: &'a [crate::simulate::Finding],
}

impl DataSteps<'_> {
    pub(super) fn new(rehearsal: &Rehearsal) -> DataSteps<'_> {
        DataSteps {
            statements: rehearsal.traces.len(),
            refused: rehearsal.refused().count(),
            not_simulated: rehearsal.not_simulated().count(),
            gates: rehearsal.gates().count(),
            findings: &rehearsal.findings,
        }
    }
}
