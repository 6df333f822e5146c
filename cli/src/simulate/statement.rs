//! One data step run over the sample documents of its collection, as mongod runs it: each
//! statement's filter, its update (operators or a pipeline) applied by the local update
//! applier, and the result judged by the validator in force at its level and action.

use super::finding::{Origin, Refusal};
use mongo_schema_core::bson::{doc, Bson, Document};
use mongo_schema_core::view::SchemaView;
use mongo_schema_validate::{filter_matches, UpdateError, UpdateOptions, Validator};

/// A sample document of a collection, with where it came from.
#[derive(Debug, Clone, PartialEq)]
pub struct Sample {
    /// The document as it stands at this point of the deploy.
    pub document: Document,
    /// Where it came from.
    pub origin: Origin,
}

/// The validator in force on a collection, as mongod applies it to a write.
pub(super) struct Judge<'v> {
    /// The validator's `$jsonSchema`, compiled, with the schema (for its branches); `None`:
    /// no validator.
    pub validator: Option<(&'v Validator, &'v Document)>,
    /// `validationLevel`.
    pub level: &'v str,
    /// `validationAction`.
    pub action: &'v str,
    /// The command passes `bypassDocumentValidation: true`.
    pub bypass: bool,
    /// Labels of the root's branches (`previous model`, `new model`), when it has them.
    pub branches: &'v [String],
}

impl Judge<'_> {
    /// The failing paths when mongod refuses to write `after` over `before` (`None`: an
    /// insert), or `None` when it writes it.
    fn refuses(&self, before: Option<&Document>, after: &Document) -> Option<Vec<String>> {
        let (validator, schema) = self.validator?;
        if self.bypass || self.action != "error" || self.level == "off" {
            return None;
        }
        // `moderate`: an update of a document that already fails is not validated
        if self.level == "moderate" && before.is_some_and(|b| !validator.is_valid(b)) {
            return None;
        }
        let failure = validator.validate(after).err()?;
        let mut paths = Vec::new();
        let branches = SchemaView::new(schema).branches();
        if branches.len() > 1 {
            for (i, branch) in branches.iter().enumerate() {
                let Ok(one) = Validator::new(branch.document()) else { continue };
                let label = self.branches.get(i).cloned().unwrap_or_else(|| format!("branch {}", i + 1));
                if let Err(e) = one.validate(after) {
                    paths.extend(violations(&e).into_iter().map(|v| format!("{v} ({label})")));
                }
            }
        }
        if paths.is_empty() {
            paths = violations(&failure);
        }
        Some(paths)
    }
}

impl Judge<'_> {
    /// The samples failing the validator a gated step enforces, one entry a shape.
    pub(super) fn failing(&self, pool: &[Sample]) -> Vec<Refusal> {
        let mut refusals = Refusals::default();
        for sample in pool {
            if let Some(paths) = self.refuses(None, &sample.document) {
                refusals.add(sample, None, paths, "fails the validator the step enforces".to_owned(), false);
            }
        }
        refusals.0
    }
}

fn violations(error: &mongo_schema_validate::ValidationError) -> Vec<String> {
    match error {
        mongo_schema_validate::ValidationError::Invalid(failure) => failure
            .violations()
            .iter()
            .map(|v| match v.path.as_str() {
                "" => format!("(the document): {}", v.keyword),
                path => format!("{path}: {}", v.keyword),
            })
            .collect(),
        other => vec![other.to_string()],
    }
}

/// What a statement did: the refusals (documents of the same failing paths counted under
/// the first), or why it cannot be simulated.
pub(super) type Ran = Result<Vec<Refusal>, String>;

/// The refusals collected for one statement, one entry a set of failing paths.
#[derive(Default)]
struct Refusals(Vec<Refusal>);

impl Refusals {
    fn add(&mut self, before: &Sample, after: Option<Document>, paths: Vec<String>, reason: String, later: bool) {
        let id = before.document.get("_id").cloned().unwrap_or(Bson::Null);
        if let Some(shape) = self.0.iter_mut().find(|r| r.paths == paths) {
            shape.documents += 1;
            shape.ids.push(id);
            return;
        }
        self.0.push(Refusal {
            before: before.document.clone(),
            after,
            paths,
            reason,
            origin: before.origin.clone(),
            documents: 1,
            ids: vec![id],
            admitted_later: later,
        });
    }
}

/// One `update` statement (`{q, u, multi, upsert, arrayFilters}`) over `pool`; `last`:
/// the collection's last validator, asked whether a refused result is the new shape.
pub(super) fn update(statement: &Document, pool: &mut Vec<Sample>, judge: &Judge<'_>, last: Option<&Validator>) -> Ran {
    for unmodelled in ["collation", "c"] {
        if statement.contains_key(unmodelled) {
            return Err(format!("the statement's `{unmodelled}` is not modelled by the local update applier"));
        }
    }
    let filter = statement.get_document("q").cloned().unwrap_or_default();
    let array_filters = match statement.get_array("arrayFilters") {
        Ok(list) => list.iter().filter_map(Bson::as_document).cloned().collect(),
        Err(_) => Vec::new(),
    };
    let options = UpdateOptions { filter, array_filters };
    let update = Update::of(statement.get("u"))?;
    let multi = statement.get_bool("multi").unwrap_or(false);
    let upsert = statement.get_bool("upsert").unwrap_or(false);
    run_update(&update, &options, multi, upsert, pool, judge, last)
}

/// `findAndModify` (`{query, update, upsert, remove}`): the first matching document, as
/// the pool orders them.
pub(super) fn find_and_modify(
    command: &Document,
    pool: &mut Vec<Sample>,
    judge: &Judge<'_>,
    last: Option<&Validator>,
) -> Ran {
    for unmodelled in ["collation", "let", "arrayFilters"] {
        if command.contains_key(unmodelled) {
            return Err(format!("findAndModify's `{unmodelled}` is not modelled by the local update applier"));
        }
    }
    let filter = command.get_document("query").cloned().unwrap_or_default();
    if command.get_bool("remove").unwrap_or(false) {
        return delete(&doc! { "q": filter, "limit": 1 }, pool);
    }
    let options = UpdateOptions { filter, array_filters: Vec::new() };
    let update = Update::of(command.get("update"))?;
    let upsert = command.get_bool("upsert").unwrap_or(false);
    run_update(&update, &options, false, upsert, pool, judge, last)
}

/// An update document or a pipeline.
enum Update {
    Operators(Document),
    Pipeline(Vec<Document>),
}

impl Update {
    fn of(value: Option<&Bson>) -> Result<Update, String> {
        match value {
            Some(Bson::Document(d)) => Ok(Update::Operators(d.clone())),
            Some(Bson::Array(stages)) => {
                let stages: Option<Vec<Document>> = stages.iter().map(|s| s.as_document().cloned()).collect();
                stages.map(Update::Pipeline).ok_or_else(|| "a pipeline stage that is not a document".to_owned())
            }
            _ => Err("no update document (`u`)".to_owned()),
        }
    }

    /// The update applied to `current` with no validator: the document written.
    fn apply(&self, current: &Document, options: &UpdateOptions) -> Result<Document, UpdateError> {
        let anything = Validator::new(&Document::new()).expect("the empty schema compiles");
        match self {
            Update::Operators(u) => anything.check_update_with(current, u, options),
            Update::Pipeline(p) => anything.check_pipeline_update_with(current, p, options),
        }
    }

    fn upsert(&self, options: &UpdateOptions) -> Result<Document, UpdateError> {
        let anything = Validator::new(&Document::new()).expect("the empty schema compiles");
        match self {
            Update::Operators(u) => anything.check_upsert(u, options),
            Update::Pipeline(p) => anything.check_pipeline_upsert(p, options),
        }
    }
}

fn run_update(
    update: &Update,
    options: &UpdateOptions,
    multi: bool,
    upsert: bool,
    pool: &mut Vec<Sample>,
    judge: &Judge<'_>,
    last: Option<&Validator>,
) -> Ran {
    let mut refusals = Refusals::default();
    let mut matched = false;
    for sample in pool.iter_mut() {
        let after = match update.apply(&sample.document, options) {
            Err(UpdateError::NotMatched) => continue,
            Err(UpdateError::Unsupported(what)) => return Err(not_modelled(&what)),
            Err(refused @ UpdateError::Refused { .. }) => {
                refusals.add(sample, None, vec![refused.to_string()], refused.to_string(), false);
                matched = true;
                if multi {
                    continue;
                } else {
                    break;
                }
            }
            Err(e) => return Err(e.to_string()),
            Ok(after) => after,
        };
        matched = true;
        if after != sample.document {
            match judge.refuses(Some(&sample.document), &after) {
                Some(paths) => {
                    let later = last.is_some_and(|v| v.is_valid(&after));
                    let reason = "the updated document fails validation (121)".to_owned();
                    refusals.add(sample, Some(after), paths, reason, later);
                }
                None => sample.document = after,
            }
        }
        if !multi {
            break;
        }
    }
    if upsert && !matched {
        let inserted = match update.upsert(options) {
            Err(UpdateError::Unsupported(what)) => return Err(not_modelled(&what)),
            Err(e) => return Err(e.to_string()),
            Ok(inserted) => inserted,
        };
        let written = Sample { document: inserted, origin: Origin::Written };
        match judge.refuses(None, &written.document) {
            Some(paths) => {
                let later = last.is_some_and(|v| v.is_valid(&written.document));
                let reason = "the upserted document fails validation (121)".to_owned();
                let after = Some(written.document.clone());
                refusals.add(&written, after, paths, reason, later)
            }
            None => pool.push(written),
        }
    }
    Ok(refusals.0)
}

fn not_modelled(what: &str) -> String {
    format!("the local update applier does not model {what}")
}

/// One `delete` statement (`{q, limit}`): the matching documents leave the pool.
pub(super) fn delete(statement: &Document, pool: &mut Vec<Sample>) -> Ran {
    let filter = statement.get_document("q").cloned().unwrap_or_default();
    let one = matches!(statement.get("limit"), Some(Bson::Int32(1) | Bson::Int64(1)));
    let mut hits = Vec::with_capacity(pool.len());
    for sample in pool.iter() {
        let hit = !(one && hits.contains(&true))
            && filter_matches(&sample.document, &filter).map_err(|e| match e {
                UpdateError::Unsupported(what) => not_modelled(&what),
                other => other.to_string(),
            })?;
        hits.push(hit);
    }
    let mut hit = hits.into_iter();
    pool.retain(|_| !hit.next().unwrap_or(false));
    Ok(Vec::new())
}

/// One inserted document: validated as mongod validates every insert.
pub(super) fn insert(document: &Document, pool: &mut Vec<Sample>, judge: &Judge<'_>, last: Option<&Validator>) -> Ran {
    let written = Sample { document: document.clone(), origin: Origin::Written };
    let mut refusals = Refusals::default();
    match judge.refuses(None, document) {
        Some(paths) => {
            let later = last.is_some_and(|v| v.is_valid(document));
            let reason = "the inserted document fails validation (121)".to_owned();
            refusals.add(&written, Some(document.clone()), paths, reason, later);
        }
        None => pool.push(written),
    }
    Ok(refusals.0)
}
