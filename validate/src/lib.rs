//! A local `$jsonSchema` validator that decides as mongod decides, without a server.
//!
//! ```
//! use mongo_schema::{bson::doc, Validator};
//!
//! let schema = doc! {
//!     "bsonType": "object",
//!     "required": ["name"],
//!     "properties": { "name": { "bsonType": "string", "minLength": 2 } },
//! };
//! let validator = Validator::new(&schema)?;
//! assert!(validator.validate(&doc! { "name": "Ada" }).is_ok());
//!
//! let failure = validator.validate(&doc! { "_id": 1, "name": "A" }).unwrap_err();
//! let violation = &failure.failure().unwrap().violations()[0];
//! assert_eq!((violation.path.as_str(), violation.keyword), ("name", "minLength"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! [`Validator::new`] parses the schema once and refuses what mongod refuses ([`SchemaError`],
//! with the path of the offending keyword). [`Validator::validate_raw`] walks the BSON bytes
//! directly, and allocates nothing when the document passes; a failure is explained in a
//! second pass that builds mongod's `errInfo` ([`Failure::err_info`]).
//!
//! # Semantics
//!
//! Every keyword follows mongod's translation of `$jsonSchema` (MongoDB manual, "$jsonSchema"
//! and "JSON Schema Omissions"): restriction keywords apply only to values of their type
//! (`minLength` ignores numbers), `properties` applies to the fields present, `required`
//! makes them present, the root schema ignores scalar and array keywords, `enum` and
//! `uniqueItems` compare with BSON equality (numbers across int/long/double/decimal, embedded
//! documents without regard to field order), `multipleOf` uses decimal arithmetic on the
//! value's 15-digit decimal form, and `additionalProperties: false` counts `_id` like any
//! other field.
//!
//! # The `errInfo`
//!
//! [`Failure::err_info`] is the document mongod 6.0 attaches to write error 121, equal to the
//! server's key for key, in its key order and with its BSON types (only `failingDocumentId`
//! differs when the document has no `_id`: mongod reports the one it generated). The
//! differential tests (`drivertests/tests/validator_errinfo.rs`, `tests/tests/errinfo_mongod.rs`)
//! compare whole documents with a mongod 6.0.5 on every conformance case, every bound
//! violation of the test models and generated schemas and documents. What mongod does, and
//! this validator with it:
//!
//! * Each subschema's entries come in mongod's translation order, whatever order the keywords
//!   are written in: `pattern`, `maxLength`, `minLength`, `multipleOf`, `maximum`, `minimum`;
//!   `minItems`, `maxItems`, `uniqueItems`, `items`, `additionalItems`; `encrypt`;
//!   `properties` (in the order written), `additionalProperties`, `patternProperties`,
//!   `required` (missing names sorted), `minProperties`, `maxProperties`, `dependencies`;
//!   `allOf`, `anyOf`, `oneOf`, `not`, `enum`; the type last.
//! * `title` then `description` of a subschema go beside the entry that reports it: the root
//!   (`{operatorName: "$jsonSchema", title, description, schemaRulesNotSatisfied}`), a
//!   property, a clause of `allOf` / `anyOf` / `oneOf`, `items` and `additionalItems` with a
//!   schema, `additionalProperties` with a schema, a `patternProperties` entry; never for an
//!   `items` array entry, a `dependencies` schema or `not`.
//! * `items: {schema}` and `additionalItems: {schema}` report the first failing element
//!   (`itemIndex` an int); `items: [schemas]` every failing element (`itemIndex` a long);
//!   `additionalItems: false` the extra elements' values. `additionalProperties: {schema}`
//!   reports the first failing property (`failingProperty`); each pattern of
//!   `patternProperties` the first property it matches that fails.
//! * With a single stated type (one alias, or `encrypt`'s binData), keywords restricting other
//!   types are dropped and explain nothing; with several types they still apply.
//! * A required property that is missing is also run through its subschema; when that explains
//!   something (`encrypt`, or a combinator that fails on a missing value), it is listed under
//!   `properties` as well as under `required`.
//! * A root schema whose type excludes documents, or a root `enum` with no document among its
//!   values, is an expression that is always false: `{operatorName, specifiedAs, reason:
//!   "expression always evaluates to false"}`.
//!
//! Newer servers (6.1+) build this document with the same visitor; the differences known
//! from their source, not checked here against a running server: they compile both keywords'
//! regexes with PCRE2 (so error wording and the `patternProperties` dialect below may differ),
//! and Queryable Encryption's `encrypt` (7.0+) has reasons of its own ("FLE2 encrypted value
//! has wrong type"). This crate follows 6.0.
//!
//! # Differences from mongod 6.0
//!
//! * Patterns run on PCRE2 10.46 (the copy vendored in the `mongo-schema-pcre2` crate and
//!   compiled with its own symbol names: never a system library, whatever is installed); mongod
//!   6.0 uses PCRE 8.x. Both are compiled as 6.0 compiles them: no flags, unanchored, JIT
//!   when available; `pattern` in UTF mode (`^.$` matches "é"), `patternProperties` without
//!   it, byte by byte (`^.$` does not match the name "é", `^..$` does, and `\x{100}` is
//!   refused as too large). PCRE2 accepts some syntax PCRE 8 refuses (for instance the
//!   alternative assertion names such as `(*napla:...)`, or `\K` inside lookarounds), so such
//!   a pattern passes [`Validator::new`] but would be refused by a 6.0 server (6.1+ uses PCRE2
//!   too). `\N{U+...}`, the one such escape found by the differential tests, is refused here as
//!   mongod 6.0 refuses it. A refused pattern's [`SchemaError`] gives PCRE2's reason and where
//!   in the pattern it is (mongod gives PCRE's reason alone). Patterns of the form `^...$`
//!   made only of ASCII literals, escaped punctuation, `\d`, `\w` and ASCII classes, each with
//!   an optional greedy quantifier (`^[0-9]{5}$`, `^[a-zA-Z0-9._%+-]+@[a-zA-Z0-9.-]+\.[a-zA-Z]{2,}$`),
//!   are decided without PCRE2: by a fixed-width comparison when every count is fixed,
//!   otherwise by a bit-parallel NFA, used only on subjects short enough that PCRE2 could not
//!   come near its match limit. Unit tests hold both to PCRE2's verdicts (including `$` before
//!   a final newline), and conformance cases to mongod's.
//! * A match runs under mongod 6.0's own PCRE budget: [`MATCH_LIMIT`] (200,000) backtracking
//!   steps and [`DEPTH_LIMIT`] (4,000) nested frames, the `MATCH_LIMIT` and
//!   `MATCH_LIMIT_RECURSION` its vendored PCRE 8.42 is built with (pcrecpp sets none), plus
//!   [`HEAP_LIMIT_KIB`] of heap. A limit hit counts as "no match", which is how mongod's PCRE
//!   wrapper reads it; the violation's reason says the limit was hit. So `^(a+)+$` on
//!   `"aaa…ab"` gives up as soon as mongod does, and `^(a|b)*$` stops matching past 1,998
//!   characters as in mongod 6.0.5. The JIT decides first; a pattern with a group has a JIT
//!   match confirmed by PCRE2's interpreter, which honours the depth limit as PCRE 8 does.
//!   Steps are counted differently by the JIT, PCRE2's interpreter and PCRE 8 (within a
//!   factor of about 3), so verdicts on patterns right at the limit may differ.
//! * Property names containing `.` are matched literally here; mongod treats them as paths.
//!
//! # Cost per keyword
//!
//! For a document of `F` fields / `I` array items / `L` string bytes under a subschema with
//! `N` named properties, `R` required names, `E` enum values, `P` patterns, `D` dependencies
//! (`runtime/tests/validator_scaling.rs` checks that none of the shapes below grows faster
//! than linearly in the document; `bench/hostile/` times them against mongod):
//!
//! | keyword | cost |
//! |---|---|
//! | `properties`, `required`, `additionalProperties: false` | `O(F log N)` (a guess of the next declared name, else a binary search), `O(N log N)` to parse |
//! | `patternProperties` | `O(F × P)` matches: each pattern against each name, inherent (mongod does the same) |
//! | `pattern` | linear for the fast path's `^...$` shapes; otherwise at most [`MATCH_LIMIT`] steps per string, whatever its length |
//! | `maxLength`, `minLength` | `O(1)` when the byte length settles it, else `O(L)` to count code points |
//! | `enum` | strings: `O(log E)` per value (sorted); other values: `O(E')` BSON comparisons, `E'` the non-string values; parse `O(E log E + E'^2)` |
//! | `uniqueItems` | linear expected (hashing, `unique.rs`) |
//! | `items`, `additionalItems`, `minItems`, `maxItems` | `O(I)` subschema runs |
//! | `dependencies` | `O(D × F)`: each dependency looks its name up in the document (and its listed names); bounded by schema × document, not by the document alone |
//! | `allOf`, `anyOf`, `oneOf`, `not` | the sum of their subschemas: nesting `k` deep costs `O(k)` per value, the schema's own size |
//! | `minProperties`, `maxProperties`, numbers, `bsonType` | `O(1)` per value (`O(F)` to count fields) |
//!
//! Explaining a failure (`errInfo`) walks the failing parts again with the same costs.
//!
//! # Cargo feature
//!
//! This crate is `mongo_schema::validate`, the `validator` feature of mongo-schema (off by
//! default; `cli` turns it on). A crate that only derives schemas can leave it off and
//! compile no C.

// The only `unsafe` is in the BSON reader (`walk`, `bytes`): each block says why it holds, and
// an `unsafe fn` states its contract without licensing unsafe operations.
#![deny(unsafe_op_in_unsafe_fn, clippy::undocumented_unsafe_blocks)]
#![warn(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

mod bytes;
mod check_static;
mod equal;
mod error;
mod eval;
mod for_type;
mod keywords;
mod pattern;
#[cfg(test)]
mod polymorphic_tests;
mod report;
mod schema;
mod types;
mod unique;
mod update_check;
mod value;
mod walk;

#[cfg(test)]
pub(crate) use mongo_schema_test_rng::xorshift;

use std::collections::HashMap;

use mongo_schema_core::bson::Document;

pub use check_static::{check_update_static, check_upsert_static};
pub use error::SchemaError;
pub use pattern::{DEPTH_LIMIT, HEAP_LIMIT_KIB, MATCH_LIMIT};
pub use report::{Failure, ValidationError, Violation};
pub use update_check::{filter_matches, lint_update, lint_upsert, Finding, FindingKind, UpdateError, UpdateOptions};
pub use value::Malformed;

use report::Explain;
#[doc(hidden)]
pub use schema::join;
use schema::{Ctx, Schema};
#[doc(hidden)]
pub use types::alias_of;
use value::{Doc, Value};
use walk::Bytes;

/// Hooks for this crate's own benchmark (`runtime/benches/validate.rs`) and fuzz targets,
/// which measure and check `validate_raw`'s BSON reader on its own. Not part of the API:
/// hidden from the docs, outside semver, and may change or go in any release.
#[doc(hidden)]
pub mod __bench {
    use super::{walk, Bytes, Malformed};
    use mongo_schema_core::bson::RawDocument;

    /// Reads every element of `doc` (recursively) with `validate_raw`'s BSON reader and
    /// counts them: the floor under `validate_raw`'s time.
    pub fn read_raw(doc: &RawDocument) -> Result<usize, Malformed> {
        walk::count(Bytes::of(doc)).map_err(|m| *m)
    }
}

/// A compiled `$jsonSchema`, ready to validate many documents.
#[derive(Debug)]
pub struct Validator {
    root: Schema,
    notes: HashMap<String, String>,
}

impl Validator {
    /// Compiles `schema` (the value of `$jsonSchema`), refusing what mongod refuses.
    pub fn new(schema: &Document) -> Result<Validator, SchemaError> {
        let root = Schema::parse(schema, Ctx { at: "", top: true })?;
        Ok(Validator { root, notes: HashMap::new() })
    }

    /// Attaches `note` (e.g. "User::email") to the subschema at `schema_path` (dotted, as in
    /// [`Violation::schema_path`], e.g. `properties.email`); violations there carry it.
    pub fn annotate(&mut self, schema_path: impl Into<String>, note: impl Into<String>) -> &mut Self {
        self.notes.insert(schema_path.into(), note.into());
        self
    }

    /// The annotation of the subschema at `schema_path`, if any.
    #[doc(hidden)]
    pub fn note(&self, schema_path: &str) -> Option<&str> {
        self.notes.get(schema_path).map(String::as_str)
    }

    /// Validates a decoded document.
    pub fn validate(&self, doc: &Document) -> Result<(), ValidationError> {
        self.verdict(doc)
    }

    /// Validates BSON bytes in place, without decoding them to a `Document`: a `RawDocument`
    /// or `RawDocumentBuf` of either bson major (whichever the driver gave you), or plain
    /// bytes (`&[u8]`, `Vec<u8>`), whose framing is checked first
    /// ([`ValidationError::Malformed`] when it is wrong).
    pub fn validate_raw<B: BsonBytes + ?Sized>(&self, doc: &B) -> Result<(), ValidationError> {
        match bytes_of(doc) {
            Ok(bytes) => self.verdict(bytes),
            Err(malformed) => Err(ValidationError::Malformed(*malformed)),
        }
    }

    /// Whether a decoded document passes (the fast path alone, never allocates).
    pub fn is_valid(&self, doc: &Document) -> bool {
        self.root.matches(doc.as_value()).unwrap_or(false)
    }

    /// Whether BSON bytes pass (the same inputs as [`Validator::validate_raw`]); malformed
    /// bytes do not.
    pub fn is_valid_raw<B: BsonBytes + ?Sized>(&self, doc: &B) -> bool {
        bytes_of(doc).is_ok_and(|bytes| self.root.matches(bytes.as_value()).unwrap_or(false))
    }

    fn verdict<'a, D: Doc<'a>>(&self, doc: D) -> Result<(), ValidationError> {
        match self.root.matches(doc.as_value()) {
            Ok(true) => Ok(()),
            Ok(false) => Err(self.explain(doc)),
            Err(malformed) => Err(ValidationError::Malformed(*malformed)),
        }
    }

    /// The failure pass: re-walks the document collecting mongod's `errInfo` entries.
    fn explain<'a, D: Doc<'a>>(&self, doc: D) -> ValidationError {
        let mut ex = Explain::new(&self.notes);
        let rules = match self.root.explain(doc.as_value(), &mut ex) {
            Ok(rules) => rules,
            Err(malformed) => return ValidationError::Malformed(*malformed),
        };
        let failing_id = doc.get("_id").ok().flatten().and_then(|id| id.to_bson().ok());
        let details = eval::root_details(&self.root, rules);
        ValidationError::Invalid(Box::new(Failure { failing_id, details, violations: ex.violations }))
    }
}

/// What [`Validator::validate_raw`] reads: a `RawDocument` or `RawDocumentBuf` of bson 2 or
/// bson 3 (each with its feature), or plain BSON bytes (`[u8]`, `Vec<u8>`). Sealed.
pub trait BsonBytes: sealed::Sealed {
    /// The bytes, and whether their framing (length prefix, terminator) is known to be right.
    #[doc(hidden)]
    fn bson_bytes(&self) -> (&[u8], bool);
}

/// The document's bytes, the framing checked unless the type vouches for it.
fn bytes_of<B: BsonBytes + ?Sized>(doc: &B) -> Result<Bytes<'_>, Box<Malformed>> {
    match doc.bson_bytes() {
        (bytes, true) => Ok(Bytes::framed(bytes)),
        (bytes, false) => Bytes::new(bytes),
    }
}

mod sealed {
    pub trait Sealed {}
}

impl<T: BsonBytes + ?Sized> sealed::Sealed for &T {}
impl<T: BsonBytes + ?Sized> BsonBytes for &T {
    fn bson_bytes(&self) -> (&[u8], bool) {
        (**self).bson_bytes()
    }
}

impl sealed::Sealed for [u8] {}
impl BsonBytes for [u8] {
    fn bson_bytes(&self) -> (&[u8], bool) {
        (self, false)
    }
}

impl sealed::Sealed for Vec<u8> {}
impl BsonBytes for Vec<u8> {
    fn bson_bytes(&self) -> (&[u8], bool) {
        (self, false)
    }
}

/// Either major's raw documents: their constructors check the framing already.
macro_rules! raw_documents {
    ($($bson:tt)*) => {
        impl sealed::Sealed for $($bson)*::RawDocument {}
        impl BsonBytes for $($bson)*::RawDocument {
            fn bson_bytes(&self) -> (&[u8], bool) {
                (self.as_bytes(), true)
            }
        }
        impl sealed::Sealed for $($bson)*::RawDocumentBuf {}
        impl BsonBytes for $($bson)*::RawDocumentBuf {
            fn bson_bytes(&self) -> (&[u8], bool) {
                (self.as_bytes(), true)
            }
        }
    };
}
mongo_schema_core::__each_bson_major!(raw_documents);

#[doc = include_str!("update.md")]
pub mod update {
    // The checker's names had a second path here until the update checker's module became
    // private (`update_check`): deprecated for one release, then removed. `#[deprecated]` has
    // no effect on a `pub use`, so each is an alias or a wrapper that warns where it is used.
    use mongo_schema_core::bson::Document;

    /// Deprecated: [`crate::UpdateOptions`].
    #[deprecated(note = "use `mongo_schema::validate::UpdateOptions`")]
    #[doc(hidden)]
    pub type UpdateOptions = crate::UpdateOptions;
    /// Deprecated: [`crate::UpdateError`].
    #[deprecated(note = "use `mongo_schema::validate::UpdateError`")]
    #[doc(hidden)]
    pub type UpdateError = crate::UpdateError;
    /// Deprecated: [`crate::Finding`].
    #[deprecated(note = "use `mongo_schema::validate::Finding`")]
    #[doc(hidden)]
    pub type Finding = crate::Finding;
    /// Deprecated: [`crate::FindingKind`].
    #[deprecated(note = "use `mongo_schema::validate::FindingKind`")]
    #[doc(hidden)]
    pub type FindingKind = crate::FindingKind;

    /// Deprecated: [`crate::filter_matches`].
    #[deprecated(note = "use `mongo_schema::validate::filter_matches`")]
    #[doc(hidden)]
    pub fn filter_matches(document: &Document, filter: &Document) -> Result<bool, crate::UpdateError> {
        crate::filter_matches(document, filter)
    }
    /// Deprecated: [`crate::lint_update`].
    #[deprecated(note = "use `mongo_schema::validate::lint_update`")]
    #[doc(hidden)]
    pub fn lint_update(schema: &Document, update: &Document) -> Vec<crate::Finding> {
        crate::lint_update(schema, update)
    }
    /// Deprecated: [`crate::lint_upsert`].
    #[deprecated(note = "use `mongo_schema::validate::lint_upsert`")]
    #[doc(hidden)]
    pub fn lint_upsert(schema: &Document, filter: &Document, update: &Document) -> Vec<crate::Finding> {
        crate::lint_upsert(schema, filter, update)
    }
}
