//! What a failed validation reports: the violations with their document paths, and the
//! `errInfo` document mongod 5.0+ returns with error 121 "Document failed validation".

use std::collections::HashMap;

use mongo_schema_core::bson::{doc, Bson, Document};

use super::value::Malformed;

/// One keyword a document broke.
#[derive(Clone, Debug, PartialEq)]
pub struct Violation {
    /// Dotted document path of the offending value (`""` is the whole document; array
    /// elements appear as their index, e.g. `items.2.sku`).
    pub path: String,
    /// The keyword that failed, as mongod names it in `operatorName` (e.g. `minLength`).
    pub keyword: &'static str,
    /// Why, worded as mongod's `reason` (or a summary when mongod gives a list instead).
    pub reason: String,
    /// Dotted path of the subschema holding the keyword (`""` is the root schema).
    pub schema_path: String,
    /// The caller's annotation for `schema_path` (see [`Validator::annotate`](super::Validator::annotate)).
    pub note: Option<String>,
}

/// A document that failed validation.
#[derive(Clone, Debug, PartialEq)]
pub struct Failure {
    pub(crate) failing_id: Option<Bson>,
    pub(crate) details: Document,
    pub(crate) violations: Vec<Violation>,
}

impl Failure {
    /// Every violation found, each with its document path.
    pub fn violations(&self) -> &[Violation] {
        &self.violations
    }

    /// The `details` part of `errInfo`: `{operatorName: "$jsonSchema", schemaRulesNotSatisfied: [...]}`.
    pub fn details(&self) -> &Document {
        &self.details
    }

    /// The whole `errInfo` mongod 5.0+ attaches to a write error 121:
    /// `{failingDocumentId, details: {operatorName: "$jsonSchema", ...}}`.
    pub fn err_info(&self) -> Document {
        let mut info = Document::new();
        if let Some(id) = &self.failing_id {
            info.insert("failingDocumentId", id.clone());
        }
        info.insert("details", self.details.clone());
        info
    }
}

/// Why `validate` refused a document.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum ValidationError {
    /// The document breaks the schema.
    Invalid(Box<Failure>),
    /// The bytes are not well-formed BSON (mongod never stores such a document).
    Malformed(Malformed),
}

impl ValidationError {
    /// The failure, when the document was well-formed.
    pub fn failure(&self) -> Option<&Failure> {
        match self {
            ValidationError::Invalid(failure) => Some(failure),
            ValidationError::Malformed(_) => None,
        }
    }
}

impl std::fmt::Display for ValidationError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ValidationError::Malformed(m) => write!(f, "malformed BSON: {}", m.0),
            ValidationError::Invalid(failure) => {
                write!(f, "Document failed validation")?;
                for v in &failure.violations {
                    write!(f, "; `{}`: {} ({})", v.path, v.reason, v.keyword)?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for ValidationError {}

/// Collects violations while the explaining pass walks the document.
pub(crate) struct Explain<'n> {
    path: String,
    pub(crate) violations: Vec<Violation>,
    notes: &'n HashMap<String, String>,
}

impl<'n> Explain<'n> {
    pub(crate) fn new(notes: &'n HashMap<String, String>) -> Self {
        Explain { path: String::new(), violations: Vec::new(), notes }
    }

    /// Descends into `segment` (a field name or an array index) for the duration of `f`.
    pub(crate) fn at<T>(&mut self, segment: &str, f: impl FnOnce(&mut Self) -> T) -> T {
        let len = self.path.len();
        if !self.path.is_empty() {
            self.path.push('.');
        }
        self.path.push_str(segment);
        let out = f(self);
        self.path.truncate(len);
        out
    }

    /// Records that `keyword` of the subschema at `schema_path` failed here.
    pub(crate) fn violation(&mut self, schema_path: &str, keyword: &'static str, reason: impl Into<String>) {
        let note = self.notes.get(schema_path).cloned();
        let path = self.path.clone();
        self.violations.push(Violation {
            path,
            keyword,
            reason: reason.into(),
            schema_path: schema_path.to_owned(),
            note,
        });
    }
}

/// `{operatorName, specifiedAs: {keyword: spec}, reason, consideredValue}`: the shape of a leaf
/// entry in `schemaRulesNotSatisfied`.
pub(crate) fn leaf(keyword: &str, spec: Document, reason: &str, considered: Bson) -> Document {
    doc! { "operatorName": keyword, "specifiedAs": spec, "reason": reason, "consideredValue": considered }
}

/// `{keyword: value}`, mongod's `specifiedAs`.
pub(crate) fn spec(keyword: &str, value: impl Into<Bson>) -> Document {
    let mut d = Document::new();
    d.insert(keyword, value);
    d
}
