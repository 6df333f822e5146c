//! `schema check`: a model's validator dry-run over existing documents, failures counted
//! by document path and keyword with a few `_id`s each, so a tightening can be judged
//! before it is enforced.

use crate::bson::{Bson, RawDocumentBuf};
use crate::dump::DumpError;
use crate::validate::{ValidationError, Validator};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// Documents failing one keyword at one path (array indices folded into `$[]`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Group {
    /// Failing documents.
    pub documents: u64,
    /// The first few failing `_id`s, as relaxed Extended JSON.
    pub ids: Vec<String>,
}

/// What a dry run found. Its size grows with the distinct (path, keyword) pairs, never with
/// the number of documents.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DryRunReport {
    /// Documents validated.
    pub documents: u64,
    /// Documents the validator rejects.
    pub failed: u64,
    /// Keyed by (path, keyword); `required` keys carry the missing field in the path.
    pub groups: BTreeMap<(String, String), Group>,
    ids_per_group: usize,
}

impl DryRunReport {
    /// An empty report keeping up to `ids_per_group` example `_id`s per group.
    pub fn new(ids_per_group: usize) -> Self {
        DryRunReport { ids_per_group, ..DryRunReport::default() }
    }

    /// Validates one document and counts the outcome.
    pub fn add(&mut self, validator: &Validator, doc: &RawDocumentBuf) {
        self.documents += 1;
        let Err(error) = validator.validate_raw(doc) else { return };
        self.failed += 1;
        let id = doc.get("_id").ok().flatten().and_then(|v| Bson::try_from(v).ok());
        for key in keys(&error) {
            let group = self.groups.entry(key).or_default();
            group.documents += 1;
            if group.ids.len() < self.ids_per_group {
                group.ids.push(id.as_ref().map_or_else(|| "(no _id)".to_owned(), shown_id));
            }
        }
    }

    /// A table for people: one line per group, most frequent first.
    pub fn render(&self, collection: &str) -> String {
        let mut out =
            format!("{collection}: {} documents checked, {} fail the validator\n", self.documents, self.failed);
        let mut groups: Vec<_> = self.groups.iter().collect();
        groups.sort_by(|a, b| b.1.documents.cmp(&a.1.documents).then(a.0.cmp(b.0)));
        for ((path, keyword), group) in groups {
            let _ = writeln!(out, "  {:>10}  {path}  {keyword}  e.g. _id {}", group.documents, group.ids.join(", "));
        }
        out
    }
}

/// The distinct (path, keyword) pairs of one failure.
fn keys(error: &ValidationError) -> Vec<(String, String)> {
    let Some(failure) = error.failure() else {
        return vec![("(document)".to_owned(), format!("malformed BSON: {error}"))];
    };
    let mut keys: Vec<(String, String)> =
        failure.violations().iter().map(|v| (group_path(&v.path), v.keyword.to_owned())).collect();
    keys.sort();
    keys.dedup();
    keys
}

/// `items.3.price` -> `items.$[].price`: one group for every element of an array.
fn group_path(path: &str) -> String {
    if path.is_empty() {
        return "(document)".to_owned();
    }
    let segments: Vec<&str> = path
        .split('.')
        .map(|s| if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) { "$[]" } else { s })
        .collect();
    segments.join(".")
}

fn shown_id(id: &Bson) -> String {
    id.clone().into_relaxed_extjson().to_string()
}

/// Validates every document of `docs` into `report`; stops at the first unreadable one.
pub fn dry_run(
    validator: &Validator,
    docs: impl IntoIterator<Item = Result<RawDocumentBuf, DumpError>>,
    report: &mut DryRunReport,
) -> Result<(), DumpError> {
    for doc in docs {
        report.add(validator, &doc?);
    }
    Ok(())
}
