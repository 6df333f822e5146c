//! The update checker behind [`Validator::check_update`]: parse an update as mongod does,
//! apply it (one path tree, mongod's order, no-op detection), and the static lint. What it
//! decides, and how the differential tests hold it to mongod, is documented on the public
//! page `validate::update` (`validate/src/update.md`); the items are re-exported at the crate
//! root.

// No function here over 100 lines (of code: blank and comment lines do not count), so each
// step of mongod's update reads on one screen; `scripts/lint.sh` runs clippy with warnings
// denied.
#![warn(clippy::too_many_lines)]

mod apply;
mod arith;
mod error;
mod expr;
mod format;
mod lint;
mod matcher;
mod ops;
mod order;
mod path;
mod pipeline;
mod tree;

use std::cell::{Cell, RefCell};
use std::collections::HashMap;

use mongo_schema_core::bson::Document;

pub use error::UpdateError;
pub use lint::{lint_update, lint_upsert, Finding, FindingKind};

use super::report::ValidationError;
use super::Validator;

/// Whether `document` matches `filter` as mongod's query does, for the query operators the
/// update checker models (others are [`UpdateError::Unsupported`], as in the updates): the
/// documents an update or a delete with that filter touches.
pub fn filter_matches(document: &Document, filter: &Document) -> Result<bool, UpdateError> {
    matcher::matches(document, filter).map(|(matched, _)| matched)
}

/// How an update is sent, beyond the update document itself.
#[derive(Clone, Debug, Default)]
pub struct UpdateOptions {
    /// The filter the update is sent with: it decides the array position `$` stands for,
    /// and, for an upsert, the fields the new document starts from.
    pub filter: Document,
    /// The `arrayFilters` option: one document per `$[<id>]` identifier.
    pub array_filters: Vec<Document>,
}

impl Validator {
    /// Applies `update` to `current` as mongod 6.0 would (an `updateOne` or `findAndModify`
    /// whose filter matched `current`), then validates the result: the updated document, or
    /// the error mongod would answer. For positional `$` or `arrayFilters`, use
    /// [`Validator::check_update_with`].
    pub fn check_update(&self, current: &Document, update: &Document) -> Result<Document, UpdateError> {
        self.check_update_with(current, update, &UpdateOptions::default())
    }

    /// [`Validator::check_update`] with the update's filter and `arrayFilters`.
    pub fn check_update_with(
        &self,
        current: &Document,
        update: &Document,
        options: &UpdateOptions,
    ) -> Result<Document, UpdateError> {
        // mongod parses the update before it looks for a document to apply it to.
        let parsed = Parsed::new(update, options)?;
        let (matched, matched_at) = matcher::matches(current, &options.filter)?;
        if !matched {
            return Err(UpdateError::NotMatched);
        }
        let (updated, modified) = parsed.apply(current, matched_at, false)?;
        if !modified {
            // mongod writes nothing, so validates nothing.
            return Ok(updated);
        }
        self.checked(updated)
    }

    /// An upsert that matched nothing: the document mongod inserts (the equality fields of
    /// [`UpdateOptions::filter`] in path order, then the update applied with `$setOnInsert`;
    /// `_id` first, a new ObjectId when neither gives one), validated.
    pub fn check_upsert(&self, update: &Document, options: &UpdateOptions) -> Result<Document, UpdateError> {
        let parsed = Parsed::new(update, options)?;
        let start = apply::upsert_base(&options.filter)?;
        let (updated, _) = parsed.apply(&start, None, true)?;
        self.checked(updated)
    }

    /// Applies a pipeline update (`u: [stages]`) to `current` as mongod 6.0 would, then
    /// validates the result. Modelled: the stages `$set`/`$addFields`, `$unset`, `$project`
    /// (top-level inclusion, exclusion and computed fields), `$replaceRoot`/`$replaceWith`,
    /// and the expressions field paths, `$$NOW`, `$$ROOT`, `$$CURRENT`, `$$REMOVE`,
    /// `$literal`, `$concat`, `$add`, `$subtract`, `$multiply`, `$ifNull`, `$cond`,
    /// `$mergeObjects`, `$toDate`, `$toString`, `$toInt`, `$toLong`, `$toDouble`, `$toDecimal`,
    /// `$convert`, `$eq`, `$ne`, `$gt`, `$gte`, `$lt`, `$lte`, `$and`, `$or`, `$not`, `$type`,
    /// `$isNumber`, `$trunc`, `$size`, `$arrayElemAt`, `$concatArrays`, `$map` and `$filter`;
    /// anything else is [`UpdateError::Unsupported`]. A pipeline whose output is the stored
    /// document byte for byte writes (and validates) nothing, as in mongod.
    ///
    /// ```
    /// use mongo_schema::bson::doc;
    /// use mongo_schema::Validator;
    ///
    /// let schema = doc! { "bsonType": "object", "properties": { "n": { "bsonType": "int", "maximum": 10 } } };
    /// let validator = Validator::new(&schema)?;
    /// let current = doc! { "_id": 1, "n": 9, "s": "a" };
    /// let pipeline = [doc! { "$set": { "n": { "$add": ["$n", 1] }, "t": { "$concat": ["$s", "b"] } } }];
    /// let updated = validator.check_pipeline_update(&current, &pipeline)?;
    /// assert_eq!(updated, doc! { "_id": 1, "n": 10, "s": "a", "t": "ab" });
    ///
    /// let err = validator.check_pipeline_update(&current, &[doc! { "$set": { "n": { "$add": ["$n", 2] } } }]).unwrap_err();
    /// assert_eq!(err.code(), Some(121));
    /// let err = validator.check_pipeline_update(&current, &[doc! { "$set": { "t": { "$concat": ["$n"] } } }]).unwrap_err();
    /// assert_eq!(err.to_string(), "mongod refuses this update (16702 Location16702): $concat only supports strings, not int");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn check_pipeline_update(&self, current: &Document, pipeline: &[Document]) -> Result<Document, UpdateError> {
        self.check_pipeline_update_with(current, pipeline, &UpdateOptions::default())
    }

    /// [`Validator::check_pipeline_update`] with the update's filter (`arrayFilters` are not
    /// allowed with a pipeline; they are reported as unsupported).
    pub fn check_pipeline_update_with(
        &self,
        current: &Document,
        pipeline: &[Document],
        options: &UpdateOptions,
    ) -> Result<Document, UpdateError> {
        let parsed = pipeline_parse(pipeline, options)?;
        let (matched, _) = matcher::matches(current, &options.filter)?;
        if !matched {
            return Err(UpdateError::NotMatched);
        }
        let out = parsed.run(current, now_millis())?;
        let (updated, modified) = pipeline::finish(current, out, false)?;
        if !modified {
            return Ok(updated);
        }
        self.checked(updated)
    }

    /// A pipeline upsert that matched nothing: the pipeline applied to the equality fields of
    /// [`UpdateOptions::filter`] (as in [`Validator::check_upsert`]), `_id` first, validated.
    pub fn check_pipeline_upsert(
        &self,
        pipeline: &[Document],
        options: &UpdateOptions,
    ) -> Result<Document, UpdateError> {
        let parsed = pipeline_parse(pipeline, options)?;
        let start = apply::upsert_base(&options.filter)?;
        let out = parsed.run(&start, now_millis())?;
        let (inserted, _) = pipeline::finish(&start, out, true)?;
        self.checked(inserted)
    }

    fn checked(&self, document: Document) -> Result<Document, UpdateError> {
        match self.validate(&document) {
            Ok(()) => Ok(document),
            Err(ValidationError::Invalid(failure)) => {
                Err(UpdateError::Invalid { document: Box::new(document), failure })
            }
            Err(ValidationError::Malformed(m)) => Err(UpdateError::Unsupported(m.0)),
        }
    }
}

fn pipeline_parse(pipeline: &[Document], options: &UpdateOptions) -> Result<pipeline::Pipeline, UpdateError> {
    if !options.array_filters.is_empty() {
        return Err(UpdateError::Unsupported("arrayFilters with a pipeline update".to_owned()));
    }
    pipeline::Pipeline::parse(pipeline)
}

/// An update document read as mongod reads it before looking at any document.
enum Parsed<'u> {
    Replacement(&'u Document),
    Operators { tree: tree::Node, filters: HashMap<String, Document> },
}

impl<'u> Parsed<'u> {
    fn new(update: &'u Document, options: &UpdateOptions) -> Result<Parsed<'u>, UpdateError> {
        if update.keys().next().is_none_or(|k| !k.starts_with('$')) {
            return Ok(Parsed::Replacement(update));
        }
        let filters = apply::array_filters(&options.array_filters)?;
        let tree = tree::parse(update, &filters)?;
        apply::all_filters_used(&filters, update)?;
        Ok(Parsed::Operators { tree, filters })
    }

    /// The update applied to `current` (`inserting` for an upsert's insert), and whether it
    /// changed anything.
    fn apply(
        &self,
        current: &Document,
        matched: Option<usize>,
        inserting: bool,
    ) -> Result<(Document, bool), UpdateError> {
        let (mut doc, modified) = match self {
            Parsed::Replacement(replacement) => {
                let doc = apply::replace(current, replacement)?;
                let modified = !order::bytes_equal(&doc, current);
                (doc, modified)
            }
            Parsed::Operators { tree, filters } => {
                let mut ctx = ops::Apply {
                    matched,
                    filters: filters.clone(),
                    inserting,
                    id: current.get("_id").cloned(),
                    now_millis: now_millis(),
                    renamed: HashMap::new(),
                    id_renamed: Vec::new(),
                    modified: Cell::new(false),
                    at: RefCell::new((String::new(), String::new())),
                };
                (apply::run(current, tree, &mut ctx)?, ctx.modified.get())
            }
        };
        apply::finish(current, &mut doc, inserting)?;
        Ok((doc, modified))
    }
}

fn now_millis() -> i64 {
    let since = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
    i64::try_from(since.as_millis()).unwrap_or(i64::MAX)
}
