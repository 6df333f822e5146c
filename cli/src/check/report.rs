//! A validator's dry run over existing documents: failures counted by document path and
//! keyword with a few `_id`s each, so a tightening can be judged before it is enforced.

use crate::dump::DumpError;
use mongo_schema_core::bson::{Bson, RawBsonRef, RawDocument, RawDocumentBuf};
use mongo_schema_validate::{alias_of, join, ValidationError, Validator, Violation};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

/// Documents failing one keyword at one path (array indices folded into `$[]`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Group {
    /// Failing documents.
    pub documents: u64,
    /// The first few failing `_id`s, in input order, as relaxed Extended JSON.
    pub ids: Vec<String>,
    /// The Rust field behind the path (`User::email`), when the validator is annotated
    /// (see [`Validator::for_type`]).
    pub field: Option<String>,
    /// The subschema holding the failed keyword (dotted, as in
    /// [`Violation::schema_path`]); for `required`, the missing field's own subschema.
    pub schema_path: String,
    /// For `bsonType` / `type` failures: the BSON types found at the path (`string`, `int`).
    pub found: BTreeSet<String>,
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

    /// Example `_id`s kept per group.
    pub fn ids_per_group(&self) -> usize {
        self.ids_per_group
    }

    /// Validates one document and counts the outcome.
    pub fn add(&mut self, validator: &Validator, doc: &RawDocument) {
        self.documents += 1;
        let Err(error) = validator.validate_raw(doc) else { return };
        self.failed += 1;
        let id = doc.get("_id").ok().flatten().and_then(|v| Bson::try_from(v).ok());
        for (key, seen) in keys(validator, doc, &error) {
            let group = self.groups.entry(key).or_default();
            if group.documents == 0 {
                group.field = seen.field;
                group.schema_path = seen.schema_path;
            }
            group.documents += 1;
            group.found.extend(seen.found);
            if group.ids.len() < self.ids_per_group {
                group.ids.push(id.as_ref().map_or_else(|| "(no _id)".to_owned(), shown_id));
            }
        }
    }

    /// Adds the report of the documents that follow this report's in the input: the
    /// result is the report of both runs made as one, whatever the split.
    pub fn merge(&mut self, later: DryRunReport) {
        self.documents += later.documents;
        self.failed += later.failed;
        for (key, group) in later.groups {
            let mine = self.groups.entry(key).or_default();
            if mine.documents == 0 {
                mine.field = group.field;
                mine.schema_path = group.schema_path;
            }
            mine.documents += group.documents;
            mine.found.extend(group.found);
            let room = self.ids_per_group.saturating_sub(mine.ids.len());
            mine.ids.extend(group.ids.into_iter().take(room));
        }
    }

    /// The groups, most frequent first (then by path and keyword).
    pub fn sorted_groups(&self) -> Vec<(&(String, String), &Group)> {
        let mut groups: Vec<_> = self.groups.iter().collect();
        groups.sort_by(|a, b| b.1.documents.cmp(&a.1.documents).then(a.0.cmp(b.0)));
        groups
    }

    /// A table for people: one line per group, most frequent first.
    pub fn render(&self, collection: &str) -> String {
        let mut out =
            format!("{collection}: {} documents checked, {} fail the validator\n", self.documents, self.failed);
        for ((path, keyword), group) in self.sorted_groups() {
            let field = group.field.as_ref().map(|f| format!("  ({f})")).unwrap_or_default();
            let _ =
                writeln!(out, "  {:>10}  {path}  {keyword}  e.g. _id {}{field}", group.documents, group.ids.join(", "));
        }
        out
    }
}

/// What one document shows of a group besides its key.
struct Seen {
    field: Option<String>,
    schema_path: String,
    found: Option<String>,
}

/// The distinct (path, keyword) pairs of one failure, each with what it shows.
fn keys(validator: &Validator, doc: &RawDocument, error: &ValidationError) -> Vec<((String, String), Seen)> {
    let Some(failure) = error.failure() else {
        let seen = Seen { field: None, schema_path: String::new(), found: None };
        return vec![(("(document)".to_owned(), format!("malformed BSON: {error}")), seen)];
    };
    let mut keys: Vec<((String, String), Seen)> = Vec::new();
    for v in failure.violations() {
        let key = (group_path(&v.path), v.keyword.to_owned());
        if keys.iter().any(|(k, _)| *k == key) {
            continue;
        }
        keys.push((key, seen(validator, doc, v)));
    }
    keys
}

fn seen(validator: &Validator, doc: &RawDocument, v: &Violation) -> Seen {
    let (schema_path, note) = match v.keyword {
        // the missing field's own subschema and Rust field, not its parent's
        "required" => {
            let name = v.path.rsplit('.').next().unwrap_or_default();
            let own = join(&v.schema_path, &format!("properties.{name}"));
            let note = validator.note(&own).map(str::to_owned);
            (own, note)
        }
        _ => (v.schema_path.clone(), v.note.clone()),
    };
    let found = match v.keyword {
        "bsonType" | "type" => value_at(doc, &v.path).map(|value| alias_of(value.element_type()).to_owned()),
        _ => None,
    };
    Seen { field: note, schema_path, found }
}

/// The value at a dotted document path (array elements by index).
fn value_at<'a>(doc: &'a RawDocument, path: &str) -> Option<RawBsonRef<'a>> {
    let mut segments = path.split('.');
    let mut value = doc.get(segments.next()?).ok()??;
    for segment in segments {
        value = match value {
            RawBsonRef::Document(d) => d.get(segment).ok()??,
            RawBsonRef::Array(a) => a.get(segment.parse().ok()?).ok()??,
            _ => return None,
        };
    }
    Some(value)
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
