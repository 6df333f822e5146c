//! The deploy rehearsed: the steps in the order `apply` runs them (the one
//! [`schedule`](mongo_schema_migrate::order::schedule), asked again after each step as `apply` asks
//! it), first the run with the release, then `apply --contract`; each collection's validator,
//! level and action as the steps install them; each data step run over the collection's
//! sample documents.

use super::finding::{Finding, InForce, Origin, Refusal, Verdict};
use super::shapes;
use super::statement::{self, Judge, Ran, Sample};
use mongo_schema_core::bson::{Bson, Document};
use mongo_schema_core::view::SchemaView;
use mongo_schema_migrate::file::{FileStep, MigrationFile, MigrationKind};
use mongo_schema_migrate::order::{schedule, writes, Planned, Progress};
use mongo_schema_migrate::Phase;
use mongo_schema_validate::Validator;
use std::collections::BTreeMap;

/// What one data statement met: for a replay on a server (the agreement tests do that).
#[derive(Debug, Clone, PartialEq)]
pub struct Trace {
    /// The migration.
    pub migration: String,
    /// The step, 1-based.
    pub step: usize,
    /// The statement, 1-based, when the command has a list of them.
    pub statement: Option<usize>,
    /// `db.collection`.
    pub namespace: String,
    /// The validator in force, `None` when the collection has none.
    pub in_force: Option<InForce>,
    /// The sample documents as the statement found them, in order.
    pub met: Vec<Document>,
    /// The `_id`s of those whose result the statement would have refused written.
    pub refused: Vec<Bson>,
    /// Why it was not simulated, when it was not.
    pub not_simulated: Option<String>,
}

/// One step rehearsed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rehearsed {
    /// The migration.
    pub migration: String,
    /// The step, 1-based.
    pub step: usize,
    /// Run by `apply --contract`, not by the run with the release.
    pub contract: bool,
}

/// One collection as the rehearsal sees it.
#[derive(Default)]
struct Collection {
    exists: bool,
    in_force: Option<InForce>,
    compiled: Option<(Validator, Document)>,
    /// Labels of the root branches of the validator in force.
    branches: Vec<String>,
    /// The validator can be judged locally (a `$jsonSchema` and nothing else).
    unjudged: Option<String>,
    samples: Vec<Sample>,
}

/// The rehearsal's state: every collection, the findings so far.
pub(super) struct Deploy {
    collections: BTreeMap<String, Collection>,
    /// Each collection's last validator in the files (its contract's), compiled.
    last: BTreeMap<String, Validator>,
    ids: u64,
    pub findings: Vec<Finding>,
    pub traces: Vec<Trace>,
    /// Each step run, in order.
    pub steps: Vec<Rehearsed>,
}

impl Deploy {
    /// The state the steps done of every migration left (`progress`, one per file; validators
    /// only: the data is the samples), with the given samples stored and the shapes of each
    /// validator in force.
    pub(super) fn new(files: &[MigrationFile], progress: &[Progress], given: &BTreeMap<String, Vec<Sample>>) -> Self {
        let mut deploy = Deploy {
            collections: BTreeMap::new(),
            last: BTreeMap::new(),
            ids: 0,
            findings: Vec::new(),
            traces: Vec::new(),
            steps: Vec::new(),
        };
        for file in files {
            for step in &file.up {
                if let (Some(ns), Some(validator)) = (namespace_validated(step), installed(step)) {
                    if let Ok(compiled) = jsonschema_only(validator).and_then(compile) {
                        deploy.last.insert(ns, compiled.0);
                    }
                }
            }
        }
        for (namespace, samples) in given {
            let collection = deploy.collections.entry(namespace.clone()).or_default();
            collection.exists = true;
            collection.samples.extend(samples.iter().cloned());
        }
        for (file, p) in files.iter().zip(progress) {
            let done = if p.applied { file.up.len() } else { p.done };
            for (i, step) in file.up.iter().enumerate().take(done) {
                deploy.schema_step(file, i, step, false);
            }
        }
        let namespaces: Vec<String> = deploy.collections.keys().cloned().collect();
        for namespace in namespaces {
            deploy.generate(&namespace);
        }
        deploy
    }

    /// The run with the release, then `apply --contract`, each as `apply` runs it: the next
    /// step is the first of [`schedule`]'s order, asked again after each step (every step
    /// assumed to succeed). A `create` that finds no collection marks it created, so the
    /// contract of a greenfield migration runs with its expand; a gate that finds failing
    /// samples there unmarks it, and that contract waits for `apply --contract`, as `apply`
    /// does. Each step run is added to `steps`.
    pub(super) fn run(&mut self, files: &[MigrationFile], progress: &mut [Progress]) {
        for contract in [false, true] {
            while let Some(&next) = schedule(files, progress, contract).order.first() {
                self.step(files, next, &mut progress[next.file], contract);
            }
        }
    }

    /// One step `apply` would run now, and what it leaves in `progress`.
    fn step(&mut self, files: &[MigrationFile], next: Planned, progress: &mut Progress, contract: bool) {
        let (file, i) = (&files[next.file], next.step);
        let step = &file.up[i];
        if next.with_expand && step.require_valid && !self.failing(step).is_empty() {
            // documents there after all: its contract waits, as any other
            let touched = writes(step);
            progress.created.retain(|&c| {
                file.up[c].validated().is_none_or(|(d, n)| !touched.iter().any(|(td, tn)| td == d && tn == n))
            });
            return;
        }
        if step.require_valid {
            self.gate(file, i, step);
        }
        let creates = step.command.contains_key("create")
            && namespace_validated(step).is_some_and(|ns| !self.collections.get(&ns).is_some_and(|c| c.exists));
        if !self.schema_step(file, i, step, true) {
            self.data_step(file, i, step);
        }
        self.steps.push(Rehearsed { migration: file.name.clone(), step: i + 1, contract });
        progress.done = i + 1;
        progress.applied = i + 1 == file.up.len();
        if creates {
            progress.created.push(i);
        }
    }

    /// A step that creates a collection or changes its validator, level or action: the
    /// state it leaves (and, `generate`, the shapes its new validator admits among the
    /// samples). Whether it was one.
    fn schema_step(&mut self, file: &MigrationFile, i: usize, step: &FileStep, generate: bool) -> bool {
        let Some((verb, Bson::String(name))) = step.command.iter().next() else { return false };
        if verb != "create" && verb != "collMod" {
            return false;
        }
        let namespace = format!("{}.{name}", step.db);
        let collection = self.collections.entry(namespace.clone()).or_default();
        let command = match (verb.as_str(), collection.exists, &step.if_namespace_exists) {
            ("create", true, Some(fallback)) => fallback,
            _ => &step.command,
        };
        let creates = command.contains_key("create");
        collection.exists = true;
        let validator_changed = command.contains_key("validator");
        let mut in_force = collection.in_force.take().unwrap_or(InForce {
            name: String::new(),
            validator: Document::new(),
            level: "strict".to_owned(),
            action: "error".to_owned(),
        });
        if creates {
            in_force.level = "strict".to_owned();
            in_force.action = "error".to_owned();
        }
        if let Ok(validator) = command.get_document("validator") {
            in_force.validator = validator.clone();
        }
        if let Ok(level) = command.get_str("validationLevel") {
            in_force.level = level.to_owned();
        }
        if let Ok(action) = command.get_str("validationAction") {
            in_force.action = action.to_owned();
        }
        let phase = if step.phase == Phase::Contract { "contract" } else { "expand" };
        let at = format!("{} step {}", file.name, i + 1);
        in_force.name = match (generate, creates, verb == "create") {
            (false, ..) => format!("the deployed validator (installed by {at})"),
            (true, true, _) => format!("the validator {at} creates the collection with"),
            (true, false, true) => format!("the validator {at} adopts the existing collection with"),
            (true, false, false) => format!("the {phase} validator of {at}"),
        };
        if validator_changed {
            let expand = step.phase == Phase::Expand && file.kind == MigrationKind::Schema;
            collection.branches = match SchemaView::of_validator(&in_force.validator).map(|s| s.branches().len()) {
                Some(2) if expand => vec!["previous model".to_owned(), "new model".to_owned()],
                _ => Vec::new(),
            };
            match jsonschema_only(&in_force.validator).and_then(compile) {
                Ok(compiled) => (collection.compiled, collection.unjudged) = (Some(compiled), None),
                Err(why) => (collection.compiled, collection.unjudged) = (None, Some(why)),
            }
        }
        let empty = in_force.validator.is_empty();
        collection.in_force = Some(in_force);
        if empty {
            (collection.compiled, collection.unjudged) = (None, None);
        }
        if generate && validator_changed {
            self.generate(&namespace);
        }
        true
    }

    /// The shapes the collection's validator in force admits, added to its samples (a
    /// shape already there is not added again).
    fn generate(&mut self, namespace: &str) {
        let Some(collection) = self.collections.get_mut(namespace) else { return };
        let Some(in_force) = &collection.in_force else { return };
        for document in shapes::documents(&in_force.validator, &mut self.ids) {
            if !collection.samples.iter().any(|s| shapes::same_but_id(&s.document, &document)) {
                let origin = Origin::Generated(in_force.name.clone());
                collection.samples.push(Sample { document, origin });
            }
        }
    }

    /// A gated step: the samples failing the validator it enforces, as the steps before left
    /// them; not told where a step of the collection was refused or not judged (its
    /// documents are not as the deploy would leave them).
    fn gate(&mut self, file: &MigrationFile, i: usize, step: &FileStep) {
        let (Some(namespace), Some(validator)) = (namespace_validated(step), installed(step)) else { return };
        let judged = |f: &Finding| f.command.ends_with(&format!(" {namespace}"));
        if self.findings.iter().any(judged) {
            return;
        }
        let shapes = self.failing(step);
        if shapes.is_empty() {
            return;
        }
        let in_force = InForce {
            name: format!("the validator {} step {}", file.name, i + 1),
            validator: validator.clone(),
            level: step.command.get_str("validationLevel").unwrap_or("strict").to_owned(),
            action: step.command.get_str("validationAction").unwrap_or("error").to_owned(),
        };
        self.findings.push(Finding {
            migration: file.name.clone(),
            step: i + 1,
            statement: None,
            command: format!("collMod {namespace}"),
            phase: step.phase,
            verdict: Verdict::GateStops { in_force, shapes },
        });
    }

    /// The sample shapes failing the validator a gated step enforces, as the collection's
    /// samples are now (none when that validator cannot be judged locally).
    fn failing(&self, step: &FileStep) -> Vec<Refusal> {
        let (Some(namespace), Some(validator)) = (namespace_validated(step), installed(step)) else {
            return Vec::new();
        };
        let Ok((compiled, schema)) = jsonschema_only(validator).and_then(compile) else { return Vec::new() };
        let Some(collection) = self.collections.get(&namespace) else { return Vec::new() };
        let judge = Judge {
            validator: Some((&compiled, &schema)),
            level: "strict",
            action: "error",
            bypass: false,
            branches: &[],
        };
        judge.failing(&collection.samples)
    }

    fn data_step(&mut self, file: &MigrationFile, i: usize, step: &FileStep) {
        let Some((verb, target)) = step.command.iter().next() else { return };
        let target = target.as_str().unwrap_or_default();
        let namespace = format!("{}.{target}", step.db);
        let command = format!("{verb} {namespace}");
        let finding = |statement: Option<usize>, verdict: Verdict| Finding {
            migration: file.name.clone(),
            step: i + 1,
            statement,
            command: command.clone(),
            phase: step.phase,
            verdict,
        };
        let statements = |key: &str| -> Vec<Document> {
            step.command
                .get_array(key)
                .map(|l| l.iter().filter_map(Bson::as_document).cloned().collect())
                .unwrap_or_default()
        };
        match verb.as_str() {
            "update" | "delete" | "insert" | "findAndModify" => {}
            "aggregate" => {
                let writes = step.command.get_array("pipeline").is_ok_and(|p| {
                    p.iter().filter_map(Bson::as_document).any(|s| s.contains_key("$merge") || s.contains_key("$out"))
                });
                if writes {
                    let why = "an aggregation that writes ($merge, $out): the rehearsal does not run aggregation \
                               pipelines, so what it writes is not judged";
                    self.findings.push(finding(None, Verdict::NotSimulated(why.to_owned())));
                }
                return;
            }
            "bulkWrite" | "mapReduce" | "applyOps" | "eval" | "$eval" | "doTxn" => {
                let why = format!("`{verb}` writes documents the rehearsal does not model: it is not judged");
                self.findings.push(finding(None, Verdict::NotSimulated(why)));
                return;
            }
            _ => return,
        }
        let collection = self.collections.entry(namespace.clone()).or_default();
        let last = self.last.get(&namespace);
        let bypass = step.command.get_bool("bypassDocumentValidation").unwrap_or(false);
        if let (Some(why), false) = (&collection.unjudged, bypass) {
            let why = format!("the validator in force cannot be judged locally: {why}");
            self.findings.push(finding(None, Verdict::NotSimulated(why)));
            return;
        }
        let in_force = collection.in_force.clone();
        let judge = Judge {
            validator: collection.compiled.as_ref().map(|(v, s)| (v, s)),
            level: in_force.as_ref().map_or("strict", |f| f.level.as_str()),
            action: in_force.as_ref().map_or("error", |f| f.action.as_str()),
            bypass,
            branches: &collection.branches,
        };
        let samples = &mut collection.samples;
        let runs: Vec<(Option<usize>, Vec<Document>, Ran)> = match verb.as_str() {
            "update" => statements("updates")
                .iter()
                .enumerate()
                .map(|(n, s)| {
                    let met = samples.iter().map(|s| s.document.clone()).collect();
                    (Some(n + 1), met, statement::update(s, samples, &judge, last))
                })
                .collect(),
            "delete" => statements("deletes")
                .iter()
                .enumerate()
                .map(|(n, s)| {
                    let met = samples.iter().map(|s| s.document.clone()).collect();
                    (Some(n + 1), met, statement::delete(s, samples))
                })
                .collect(),
            "insert" => statements("documents")
                .iter()
                .enumerate()
                .map(|(n, d)| {
                    let met = samples.iter().map(|s| s.document.clone()).collect();
                    (Some(n + 1), met, statement::insert(d, samples, &judge, last))
                })
                .collect(),
            _ => {
                let met = samples.iter().map(|s| s.document.clone()).collect();
                vec![(None, met, statement::find_and_modify(&step.command, samples, &judge, last))]
            }
        };
        for (statement, met, ran) in runs {
            let mut trace = Trace {
                migration: file.name.clone(),
                step: i + 1,
                statement,
                namespace: namespace.clone(),
                in_force: in_force.clone(),
                met,
                refused: Vec::new(),
                not_simulated: None,
            };
            match ran {
                Ok(shapes) if shapes.is_empty() => {}
                Ok(shapes) => {
                    trace.refused = shapes.iter().flat_map(|s| s.ids.iter().cloned()).collect();
                    let in_force = in_force.clone().expect("a refusal comes from a validator in force");
                    self.findings.push(finding(statement, Verdict::Refused { in_force, shapes }));
                }
                Err(why) => {
                    trace.not_simulated = Some(why.clone());
                    self.findings.push(finding(statement, Verdict::NotSimulated(why)));
                }
            }
            self.traces.push(trace);
        }
    }
}

/// `db.collection` of a step installing a validator.
fn namespace_validated(step: &FileStep) -> Option<String> {
    step.validated().map(|(db, collection)| format!("{db}.{collection}"))
}

fn installed(step: &FileStep) -> Option<&Document> {
    step.command.get_document("validator").ok()
}

/// The validator's `$jsonSchema`, when that is all it holds (an empty validator is none).
fn jsonschema_only(validator: &Document) -> Result<&Document, String> {
    match (validator.get_document("$jsonSchema"), validator.len()) {
        (Ok(schema), 1) => Ok(schema),
        _ => Err(format!(
            "it holds query operators besides `$jsonSchema` ({}), which the local validator does not run",
            validator.keys().cloned().collect::<Vec<_>>().join(", ")
        )),
    }
}

fn compile(schema: &Document) -> Result<(Validator, Document), String> {
    Validator::new(schema).map(|v| (v, schema.clone())).map_err(|e| format!("its $jsonSchema does not compile: {e}"))
}
