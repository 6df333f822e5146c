//! `schema check`: the models' validators dry-run over dumps and exports, on every core.
//!
//! Inputs are files of one collection (`--collection` names its model) or mongodump
//! directories (`dump/<db>/<collection>.bson[.gz]`, matched to the registered models by
//! name). `--jobs` threads take turns reading a batch of documents from the input
//! ([`DumpReader::fill`]: cut, not yet decoded) and decode and validate it while the others
//! read; the batch reports are merged in input order, so the report is the one a single
//! thread makes, byte for byte.

use super::fix::{suggest, Fix, BYPASS_NOTE};
use super::{chain, select, Exit};
use crate::bson::Document;
use crate::dump::{self, Batch, DumpError, DumpReader};
use crate::migrate::dry_run::DryRunReport;
use crate::migrate::Model;
use crate::Validator;
use clap::{Args, ValueEnum};
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::io::{self, BufRead, IsTerminal, Read, Write};
use std::num::NonZeroUsize;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Mutex};
use std::time::Instant;

/// Documents per batch handed to a validating thread (fewer when they are large).
const BATCH_DOCUMENTS: usize = 512;
/// Bytes per batch: bounds the memory of the queue, whatever the documents' size.
const BATCH_BYTES: usize = 1 << 20;

#[derive(Args)]
pub(crate) struct CheckArgs {
    /// The model's collection: `t_users` or `db_user_center.t_users`. Needed for files;
    /// with mongodump directories, checks only that collection.
    #[arg(long)]
    collection: Option<String>,
    /// Inputs, `-` for standard input: mongodump `.bson` or `--archive`, Extended JSON lines
    /// (canonical or relaxed) or `mongoexport --jsonArray`, each plain or gzip, told apart
    /// by content; or a mongodump output directory (`dump/` or `dump/<db>/`), whose
    /// `<db>/<collection>.bson[.gz]` files are checked against the models of those names.
    #[arg(required_unless_present = "uri", conflicts_with = "uri")]
    files: Vec<PathBuf>,
    /// Example `_id`s shown per failure group.
    #[arg(long, default_value_t = 3)]
    ids: usize,
    /// Threads validating documents (default: one per core); with 1, a single thread
    /// reads and validates.
    #[arg(long)]
    jobs: Option<NonZeroUsize>,
    #[arg(long, value_enum, default_value_t = CheckFormat::Text)]
    format: CheckFormat,
    /// Check the collections on this deployment instead of files (all registered models,
    /// or `--collection`'s): the server selects the documents the validator refuses, and
    /// only those travel. Never read from MONGODB_URI, so a file check never turns into a
    /// live one; the password is never printed.
    #[arg(long, hide_env_values = true)]
    uri: Option<String>,
    /// With `--uri`: check a random `$sample` of this many documents, not the whole collection.
    #[arg(long)]
    sample: Option<u64>,
    /// With `--uri`: fetch and explain at most this many failing documents (all are counted).
    #[arg(long)]
    limit: Option<u64>,
    /// With `--uri`: the members to read from; by default a secondary where there is one,
    /// so a dry run does not load the primary.
    #[arg(long, value_enum, default_value_t = ReadFrom::SecondaryPreferred)]
    read_preference: ReadFrom,
}

/// A read preference mode, as the connection string spells it.
#[derive(Clone, Copy, Debug, ValueEnum)]
#[value(rename_all = "camelCase")]
pub(crate) enum ReadFrom {
    Primary,
    PrimaryPreferred,
    Secondary,
    SecondaryPreferred,
    Nearest,
}

impl ReadFrom {
    /// The mode as `readPreference=` spells it.
    #[cfg(feature = "driver")]
    pub(crate) fn name(self) -> String {
        self.to_possible_value().map(|v| v.get_name().to_owned()).unwrap_or_default()
    }
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum CheckFormat {
    /// A table per collection, with a fix per failure group.
    Text,
    /// One JSON object: per collection its groups (path, keyword, Rust field, count,
    /// example `_id`s, fix) and the totals, for CI.
    Json,
}

/// One model and the inputs holding its documents.
struct Target {
    model: Model,
    inputs: Vec<PathBuf>,
}

/// What the inputs hold: the models to check, and what the dump directories say besides.
#[derive(Default)]
struct Plan {
    targets: Vec<Target>,
    /// Dumped collections no model is registered for: (namespace, file).
    unmodelled: Vec<(String, PathBuf)>,
    /// Models with no file in any dump directory (when a directory was given).
    undumped: Vec<String>,
}

/// A checked collection: its report, and the input that stopped it, if one did.
struct Checked<'a> {
    model: &'a Model,
    schema: Document,
    inputs: &'a [PathBuf],
    report: DryRunReport,
    stopped_in: Option<&'a Path>,
}

pub(crate) fn run(models: &[Model], args: CheckArgs, out: &mut dyn Write) -> Result<i32, Exit> {
    if let Some(uri) = &args.uri {
        return live(models, &args, uri, out);
    }
    if args.sample.is_some() || args.limit.is_some() {
        // clap's `requires` is not enforced beside arguments with defaults
        return Err(Exit(2, "--sample and --limit select on the server: they need --uri".to_owned()));
    }
    let plan = plan(models, &args)?;
    let jobs =
        args.jobs.map_or_else(|| std::thread::available_parallelism().map_or(1, NonZeroUsize::get), NonZeroUsize::get);
    let mut checked = Vec::new();
    let mut error = None;
    for target in &plan.targets {
        let schema = checked_schema(&target.model)?;
        let validator = validator(&target.model, &schema)?;
        let mut done = Checked {
            model: &target.model,
            schema,
            inputs: &target.inputs,
            report: DryRunReport::new(args.ids),
            stopped_in: None,
        };
        for path in &target.inputs {
            if let Err(message) = check_file(&validator, &target.model.namespace(), path, jobs, &mut done.report) {
                done.stopped_in = Some(path);
                error = Some(message);
                break;
            }
        }
        checked.push(done);
        if error.is_some() {
            break;
        }
    }
    // What was read before an error still counts; a report of nothing read says nothing.
    if error.is_some() && checked.last().is_some_and(|c| c.report.documents == 0) {
        checked.pop();
    }
    match args.format {
        CheckFormat::Text if error.is_some() && checked.is_empty() => {}
        CheckFormat::Text => write!(out, "{}", text(&checked, &plan))?,
        CheckFormat::Json => writeln!(out, "{}", json_report(&checked, &plan, error.as_deref()))?,
    }
    match error {
        Some(message) => Err(Exit(2, message)),
        None => Ok(i32::from(checked.iter().any(|c| c.report.failed > 0))),
    }
}

/// The driver's read preference for `--read-preference`.
#[cfg(feature = "driver")]
fn read_preference(from: ReadFrom) -> mongodb::options::ReadPreference {
    use mongodb::options::ReadPreference;
    match from {
        ReadFrom::Primary => ReadPreference::Primary,
        ReadFrom::PrimaryPreferred => ReadPreference::PrimaryPreferred { options: None },
        ReadFrom::Secondary => ReadPreference::Secondary { options: None },
        ReadFrom::SecondaryPreferred => ReadPreference::SecondaryPreferred { options: None },
        ReadFrom::Nearest => ReadPreference::Nearest { options: None },
    }
}

/// `check --uri`: each selected model's collection on the deployment (see
/// [`live_check`](crate::migrate::live_check::live_check)), printed as the dump check
/// prints, with what the server counted and how.
#[cfg(feature = "driver")]
fn live(models: &[Model], args: &CheckArgs, uri: &str, out: &mut dyn Write) -> Result<i32, Exit> {
    use crate::migrate::live_check::{live_check, LiveCheck};
    let selected = select(models, args.collection.as_deref())?;
    let options = LiveCheck { sample: args.sample, limit: args.limit, ids: args.ids };
    let server = &mut super::server::connect(uri)?.reading_from(read_preference(args.read_preference));
    let mut text_out = String::new();
    let mut json_collections = Vec::new();
    let mut failed = false;
    for model in &selected {
        let schema = checked_schema(model)?;
        let validator = validator(model, &schema)?;
        let found = live_check(server, &model.db, &model.collection, &schema, &validator, &options)
            .map_err(|e| Exit(2, format!("{}: {}", model.namespace(), chain(&e))))?;
        failed |= found.report.failed > 0;
        let from = args.read_preference.name();
        let scope = if found.sampled { "a random $sample" } else { "the collection's count" };
        let explained = found.explained;
        let mut notes = Vec::new();
        if found.report.documents == 0 {
            notes.push("the collection is empty or absent on this deployment: nothing was checked".to_owned());
        }
        if found.explained < found.report.failed || found.failed_at_least {
            notes.push(format!("the groups explain the first {explained} failing documents (--limit)"));
        }
        if !found.admitted_locally.is_empty() {
            let ids = found.admitted_locally.iter().take(args.ids.max(1)).cloned().collect::<Vec<_>>();
            notes.push(format!(
                "the server refuses {} documents the local validator admits (e.g. _id {}): a mongo-schema bug, please report it",
                found.admitted_locally.len(),
                ids.join(", ")
            ));
        }
        let checked = Checked { model, schema, inputs: &[], report: found.report, stopped_in: None };
        let plan = Plan::default();
        match args.format {
            CheckFormat::Text => {
                text_out.push_str(&format!(
                    "{}: checked on the server (read preference {from}, {scope})
",
                    model.namespace()
                ));
                let table = text(std::slice::from_ref(&checked), &plan);
                match found.failed_at_least {
                    // "N fail" would claim a total nobody counted
                    true => text_out.push_str(&table.replacen(" fail the validator", " or more fail the validator", 1)),
                    false => text_out.push_str(&table),
                }
                for note in &notes {
                    text_out.push_str(&format!("note: {note}\n"));
                }
            }
            CheckFormat::Json => {
                let mut collection = json_value(std::slice::from_ref(&checked), &plan, None)["collections"][0].take();
                collection["server"] = json!({
                    "readPreference": from,
                    "sampled": found.sampled,
                    "explained": explained,
                    "failedAtLeast": found.failed_at_least,
                    "admittedLocally": found.admitted_locally,
                    "notes": notes,
                });
                json_collections.push(collection);
            }
        }
    }
    match args.format {
        CheckFormat::Text => out.write_all(text_out.as_bytes())?,
        CheckFormat::Json => {
            let report = json!({ "collections": json_collections });
            writeln!(out, "{}", serde_json::to_string_pretty(&report).expect("a JSON value always serialises"))?
        }
    }
    Ok(i32::from(failed))
}

#[cfg(not(feature = "driver"))]
fn live(_: &[Model], _: &CheckArgs, _: &str, _: &mut dyn Write) -> Result<i32, Exit> {
    Err(Exit(
        2,
        "`check --uri` talks to a deployment: build the binary with mongo-schema's `driver` feature".to_owned(),
    ))
}

/// The models and their inputs: files go to `--collection`'s model, dump directories'
/// files to the models of their names.
fn plan(models: &[Model], args: &CheckArgs) -> Result<Plan, Exit> {
    let chosen = args.collection.as_deref().map(|name| select(models, Some(name))).transpose()?.map(|m| m[0].clone());
    let mut inputs: BTreeMap<String, Vec<PathBuf>> = BTreeMap::new();
    let mut plan = Plan::default();
    let mut any_dir = false;
    for path in &args.files {
        if path != Path::new("-") && path.is_dir() {
            any_dir = true;
            for (namespace, file) in dump_directory(path)? {
                match models.iter().find(|m| m.namespace() == namespace) {
                    Some(m) if chosen.as_ref().is_none_or(|c| c.namespace() == m.namespace()) => {
                        inputs.entry(namespace).or_default().push(file)
                    }
                    Some(_) => {}
                    None if chosen.is_none() => plan.unmodelled.push((namespace, file)),
                    None => {}
                }
            }
            continue;
        }
        let Some(model) = &chosen else {
            return Err(Exit(
                2,
                format!(
                    "{}: a file holds one collection: name its model with --collection (a mongodump directory needs none)",
                    path.display()
                ),
            ));
        };
        inputs.entry(model.namespace()).or_default().push(path.clone());
    }
    let expected: Vec<&Model> = match &chosen {
        Some(c) => models.iter().filter(|m| m.namespace() == c.namespace()).collect(),
        None => models.iter().collect(),
    };
    for model in expected {
        match inputs.remove(&model.namespace()) {
            Some(files) => plan.targets.push(Target { model: model.clone(), inputs: files }),
            None if any_dir => plan.undumped.push(model.namespace()),
            None => {}
        }
    }
    plan.targets.sort_by_key(|t| t.model.namespace());
    plan.undumped.sort();
    if plan.targets.is_empty() {
        let dumped: Vec<&str> = plan.unmodelled.iter().map(|(n, _)| n.as_str()).collect();
        let wanted = match &chosen {
            Some(c) => {
                format!("no file for {} (expected <dir>/{}/{}.bson or .bson.gz)", c.namespace(), c.db, c.collection)
            }
            None => format!(
                "no dumped collection has a registered model; dumped: {}; registered: {}",
                if dumped.is_empty() { "none".to_owned() } else { dumped.join(", ") },
                models.iter().map(Model::namespace).collect::<Vec<_>>().join(", ")
            ),
        };
        let dirs: Vec<String> = args.files.iter().map(|p| p.display().to_string()).collect();
        return Err(Exit(2, format!("{}: {wanted}", dirs.join(", "))));
    }
    Ok(plan)
}

/// The collections of a mongodump output directory: `DIR/<db>/<collection>.bson[.gz]`, or
/// `DIR/<collection>.bson[.gz]` when DIR is one database's directory (named for it), as
/// (`db.collection`, file), sorted. `.metadata.json` and other files are not documents,
/// and the server's `system.*` collections are left out.
fn dump_directory(dir: &Path) -> Result<Vec<(String, PathBuf)>, Exit> {
    let in_dir = |e: io::Error, at: &Path| Exit(2, format!("{}: {e}", at.display()));
    let mut own = collections_in(dir).map_err(|e| in_dir(e, dir))?;
    let mut found = Vec::new();
    if !own.is_empty() {
        let db = dir.canonicalize().ok().and_then(|d| d.file_name().map(|n| n.to_string_lossy().into_owned()));
        let db = db
            .ok_or_else(|| Exit(2, format!("{}: cannot tell the database from the directory's name", dir.display())))?;
        found.extend(own.drain(..).map(|(c, f)| (format!("{db}.{c}"), f)));
    } else {
        let mut dbs: Vec<PathBuf> = std::fs::read_dir(dir)
            .map_err(|e| in_dir(e, dir))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.is_dir())
            .collect();
        dbs.sort();
        for db_dir in dbs {
            let db = db_dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            for (c, f) in collections_in(&db_dir).map_err(|e| in_dir(e, &db_dir))? {
                found.push((format!("{db}.{c}"), f));
            }
        }
    }
    if found.is_empty() {
        return Err(Exit(
            2,
            format!(
                "{}: not a mongodump directory: no <db>/<collection>.bson or .bson.gz files in it or its subdirectories",
                dir.display()
            ),
        ));
    }
    let mut seen: BTreeMap<&str, &Path> = BTreeMap::new();
    for (namespace, file) in &found {
        if let Some(other) = seen.insert(namespace, file) {
            return Err(Exit(
                2,
                format!(
                    "{} and {} both dump {namespace}: keep one (checking both would count every document twice)",
                    other.display(),
                    file.display()
                ),
            ));
        }
    }
    Ok(found)
}

/// The `<collection>.bson` and `<collection>.bson.gz` files of one directory, sorted.
fn collections_in(dir: &Path) -> io::Result<Vec<(String, PathBuf)>> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        let Some(name) = path.file_name().and_then(|n| n.to_str()) else { continue };
        let collection = name.strip_suffix(".bson.gz").or_else(|| name.strip_suffix(".bson"));
        // `system.*` collections (users, roles, views) are the server's, never a model's
        if let Some(collection) = collection.filter(|c| !c.is_empty() && !c.starts_with("system.")) {
            if path.is_file() {
                found.push((collection.to_owned(), path.clone()));
            }
        }
    }
    found.sort();
    Ok(found)
}

/// What `check` holds documents to: the validator migrations install, or for a time-series
/// collection (which mongod lets have no validator, so this local check is the only one)
/// the type's own `$jsonSchema`, found by its registration.
fn checked_schema(model: &Model) -> Result<Document, Exit> {
    if let Ok(schema) = model.validator.get_document("$jsonSchema") {
        return Ok(schema.clone());
    }
    let registered = crate::registered().into_iter().find(|r| r.db == model.db && r.collection == model.collection);
    match registered {
        Some(r) if model.options.is_timeseries() => Ok((r.json_schema)()),
        _ => Err(Exit(
            2,
            format!("{}: the model has no `$jsonSchema` validator to check documents against", model.namespace()),
        )),
    }
}

/// The validator of `schema`, naming the Rust field behind each path when a registered
/// type has exactly this schema.
fn validator(model: &Model, schema: &Document) -> Result<Validator, Exit> {
    let registered = crate::registered()
        .into_iter()
        .find(|r| r.db == model.db && r.collection == model.collection && (r.json_schema)() == *schema);
    let compiled = match registered {
        Some(r) => Validator::annotated(schema, r.name, r.fields),
        None => Validator::new(schema),
    };
    compiled.map_err(|e| Exit(2, format!("{}: the validator does not compile: {e}", model.namespace())))
}

/// Checks one input (`-`: standard input) of any format [`dump::from_reader`] tells apart,
/// on `jobs` threads. From a `mongodump --archive`, only `namespace`'s documents are read.
fn check_file(
    validator: &Validator,
    namespace: &str,
    path: &Path,
    jobs: usize,
    report: &mut DryRunReport,
) -> Result<(), String> {
    let name = if path == Path::new("-") { "standard input".to_owned() } else { path.display().to_string() };
    let in_file = |e: &dyn std::error::Error| format!("{name}: {}", chain(e));
    let (input, len): (Box<dyn Read + Send>, Option<u64>) = if path == Path::new("-") {
        (Box::new(io::stdin()), None)
    } else {
        let file = std::fs::File::open(path).map_err(|e| in_file(&e))?;
        let len = file.metadata().map(|m| m.len()).ok();
        (Box::new(file), len)
    };
    let progress = Progress::new(namespace, len, report);
    let mut docs = dump::from_reader(progress.bar.wrap_read(input)).map_err(|e| in_file(&e))?.only_namespace(namespace);
    let result = match jobs {
        0 | 1 => sequential(&mut docs, validator, report, &progress),
        _ => parallel(&mut docs, validator, jobs, report, &progress),
    };
    progress.bar.finish_and_clear();
    result.map_err(|e| in_file(&e))?;
    if docs.documents() == 0 {
        return Err(format!(
            "{name}: empty: no documents (expected mongodump BSON or --archive, Extended JSON lines or a JSON array, plain or gzip)"
        ));
    }
    Ok(())
}

/// One thread reads, decodes and validates, a batch at a time.
fn sequential<R: BufRead>(
    docs: &mut DumpReader<R>,
    validator: &Validator,
    report: &mut DryRunReport,
    progress: &Progress,
) -> Result<(), DumpError> {
    let mut batch = Batch::new();
    loop {
        batch.clear();
        let read = docs.fill(&mut batch, BATCH_DOCUMENTS, BATCH_BYTES);
        // the batch's documents come before a read error, so does an error among them
        if let Some(e) = validate(&batch, validator, report, None) {
            return Err(e);
        }
        progress.show(report);
        read?;
        if batch.is_empty() {
            return Ok(());
        }
    }
}

/// Validates a batch's documents into `report`, in order, until one does not decode (its
/// error is returned) or `stop` is set.
fn validate(
    batch: &Batch,
    validator: &Validator,
    report: &mut DryRunReport,
    stop: Option<&AtomicBool>,
) -> Option<DumpError> {
    for i in 0..batch.len() {
        if stop.is_some_and(|stop| stop.load(Ordering::Relaxed)) {
            return None;
        }
        match batch.decode(i) {
            Ok(doc) => report.add(validator, &doc),
            Err(e) => return Some(e),
        }
    }
    None
}

/// A batch's report, and the error that ended it early (a document that does not decode).
type Done = (u64, DryRunReport, Option<DumpError>);

/// The input, shared by the threads that take turns reading it.
struct Shared<'a, R> {
    docs: &'a mut DumpReader<R>,
    /// The number of the next batch read.
    next: u64,
    /// Reading is over: the input ended, or failed with `error`.
    over: bool,
    error: Option<DumpError>,
}

/// `jobs` threads take turns reading a batch of documents (numbered in input order) and
/// validate it while the others read theirs, so each batch is checked where it was read,
/// still in that core's cache; one thread merges their reports in batch order. Memory:
/// one batch per thread.
fn parallel<R: BufRead + Send>(
    docs: &mut DumpReader<R>,
    validator: &Validator,
    jobs: usize,
    report: &mut DryRunReport,
    progress: &Progress,
) -> Result<(), DumpError> {
    let ids = report.ids_per_group();
    let stop = AtomicBool::new(false);
    let shared = Mutex::new(Shared { docs, next: 0, over: false, error: None });
    let (done, results) = mpsc::channel::<Done>();
    let failed = std::thread::scope(|scope| {
        for _ in 0..jobs {
            let (done, shared, stop) = (done.clone(), &shared, &stop);
            scope.spawn(move || {
                let mut batch = Batch::new();
                while !stop.load(Ordering::Relaxed) {
                    let Some(seq) = read_batch(shared, &mut batch) else { return };
                    let mut part = DryRunReport::new(ids);
                    let error = validate(&batch, validator, &mut part, Some(stop));
                    if done.send((seq, part, error)).is_err() {
                        return;
                    }
                }
            });
        }
        drop(done);
        let mut pending: BTreeMap<u64, (DryRunReport, Option<DumpError>)> = BTreeMap::new();
        let mut next = 0;
        let mut failed = None;
        for (seq, part, error) in results {
            pending.insert(seq, (part, error));
            while let Some((part, error)) = pending.remove(&next) {
                next += 1;
                if failed.is_some() {
                    continue;
                }
                report.merge(part);
                progress.show(report);
                if error.is_some() {
                    failed = error;
                    stop.store(true, Ordering::Relaxed);
                }
            }
        }
        failed
    });
    // the first error in input order: a batch's comes before any the reader met later
    let read_error = shared.into_inner().unwrap_or_else(|poisoned| poisoned.into_inner()).error;
    match failed.or(read_error) {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// Reads the next batch into `batch`; its number, or `None` when reading is over.
fn read_batch<R: BufRead>(shared: &Mutex<Shared<'_, R>>, batch: &mut Batch) -> Option<u64> {
    let mut shared = shared.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    if shared.over {
        return None;
    }
    batch.clear();
    if let Err(e) = shared.docs.fill(batch, BATCH_DOCUMENTS, BATCH_BYTES) {
        shared.over = true;
        shared.error = Some(e);
    }
    if batch.is_empty() {
        shared.over = true;
        return None;
    }
    shared.next += 1;
    Some(shared.next - 1)
}

/// Documents, bytes, rate and failures so far, on standard error when it is a terminal.
struct Progress {
    bar: ProgressBar,
    started: Instant,
    /// The report's counts when the input started (the report spans all inputs).
    before: u64,
    namespace: String,
}

impl Progress {
    fn new(namespace: &str, len: Option<u64>, report: &DryRunReport) -> Self {
        let bar = if !io::stderr().is_terminal() {
            ProgressBar::hidden()
        } else if let Some(len) = len {
            let style = ProgressStyle::with_template("{bar:30} {bytes}/{total_bytes} {bytes_per_sec} eta {eta}  {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_bar());
            ProgressBar::new(len).with_style(style)
        } else {
            let style = ProgressStyle::with_template("{spinner} {bytes} {bytes_per_sec}  {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_spinner());
            ProgressBar::new_spinner().with_style(style)
        };
        Progress { bar, started: Instant::now(), before: report.documents, namespace: namespace.to_owned() }
    }

    fn show(&self, report: &DryRunReport) {
        if self.bar.is_hidden() {
            return;
        }
        let documents = report.documents - self.before;
        let rate = documents as f64 / self.started.elapsed().as_secs_f64().max(1e-3);
        let namespace = &self.namespace;
        self.bar.set_message(format!("{namespace}: {documents} documents ({rate:.0}/s), {} failing", report.failed));
    }
}

/// The fix of every group of a report, most frequent first.
fn fixes(checked: &Checked<'_>) -> Vec<Fix> {
    let m = checked.model;
    checked
        .report
        .sorted_groups()
        .into_iter()
        .map(|((path, keyword), group)| suggest(&m.db, &m.collection, &checked.schema, path, keyword, group))
        .collect()
}

fn text(checked: &[Checked<'_>], plan: &Plan) -> String {
    let mut out = String::new();
    for c in checked {
        let table = c.report.render(&c.model.namespace());
        let mut lines = table.lines();
        out.extend(lines.next().map(|l| format!("{l}\n")));
        let fixes_here = fixes(c);
        if fixes_here.iter().any(|f| matches!(f, Fix::Update { .. })) {
            out.push_str(&format!("  note: {BYPASS_NOTE}\n"));
        }
        for (line, fix) in lines.zip(fixes_here) {
            out.push_str(line);
            out.push('\n');
            match fix {
                Fix::Update { mongosh, note } => {
                    out.push_str(&format!("              fix ({note}):\n                {mongosh}\n"))
                }
                Fix::Human(why) => out.push_str(&format!("              needs a person: {why}\n")),
            }
        }
        if let Some(path) = c.stopped_in {
            out.push_str(&format!("(incomplete: stopped at the error in {})\n", path.display()));
        }
    }
    for (namespace, file) in &plan.unmodelled {
        out.push_str(&format!("no model for the dumped collection {namespace} ({}): not checked\n", file.display()));
    }
    for namespace in &plan.undumped {
        out.push_str(&format!("no dump of the model's collection {namespace}: not checked\n"));
    }
    out
}

fn json_report(checked: &[Checked<'_>], plan: &Plan, error: Option<&str>) -> String {
    serde_json::to_string_pretty(&json_value(checked, plan, error)).expect("a JSON value always serialises")
}

fn json_value(checked: &[Checked<'_>], plan: &Plan, error: Option<&str>) -> Value {
    let collections: Vec<Value> = checked
        .iter()
        .map(|c| {
            let groups: Vec<Value> = c
                .report
                .sorted_groups()
                .into_iter()
                .zip(fixes(c))
                .map(|(((path, keyword), group), fix)| {
                    let ids: Vec<Value> =
                        group.ids.iter().map(|id| serde_json::from_str(id).unwrap_or_else(|_| json!(id))).collect();
                    let fix = match fix {
                        Fix::Update { mongosh, note } => json!({ "mongosh": mongosh, "note": note }),
                        Fix::Human(why) => json!({ "human": why }),
                    };
                    json!({
                        "path": path,
                        "keyword": keyword,
                        "field": group.field,
                        "documents": group.documents,
                        "ids": ids,
                        "fix": fix,
                    })
                })
                .collect();
            json!({
                "namespace": c.model.namespace(),
                "rustType": c.model.rust_type,
                "inputs": c.inputs.iter().map(|p| p.display().to_string()).collect::<Vec<_>>(),
                "documents": c.report.documents,
                "failed": c.report.failed,
                "groups": groups,
                "incomplete": c.stopped_in.map(|p| p.display().to_string()),
            })
        })
        .collect();
    let mut report = json!({
        "collections": collections,
        "unmodelled": plan.unmodelled.iter().map(|(n, f)| json!({ "namespace": n, "file": f.display().to_string() })).collect::<Vec<_>>(),
        "undumped": plan.undumped,
        "totals": {
            "collections": checked.len(),
            "documents": checked.iter().map(|c| c.report.documents).sum::<u64>(),
            "failed": checked.iter().map(|c| c.report.failed).sum::<u64>(),
        },
    });
    if let Some(error) = error {
        report["error"] = json!(error);
    }
    report
}
