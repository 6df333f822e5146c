//! `schema check`: the models' validators dry-run over dumps and exports, on every core, or
//! on a deployment (`--uri`). The work is [`crate::check`]'s; here are its arguments, its
//! progress bar and its two reports (text and JSON).

use super::shared::{chain, select, Exit};
use crate::check::{self, suggest, CheckError, DryRunReport, Fix, Plan, BYPASS_NOTE};
use clap::{Args, ValueEnum};
use indicatif::{ProgressBar, ProgressStyle};
use mongo_schema_core::bson::Document;
use mongo_schema_migrate::Model;
use mongo_schema_validate::Validator;
use serde::Serialize;
use std::io::{self, IsTerminal, Read, Write};
use std::num::NonZeroUsize;
use std::path::{Path, PathBuf};
use std::time::Instant;

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
    let chosen = args.collection.as_deref().map(|name| select(models, Some(name))).transpose()?;
    let chosen = chosen.map(|m| m[0].namespace());
    let known: Vec<String> = models.iter().map(Model::namespace).collect();
    let plan = check::plan(&known, chosen.as_deref(), &args.files).map_err(|e| Exit(2, chain(&e)))?;
    let jobs =
        args.jobs.map_or_else(|| std::thread::available_parallelism().map_or(1, NonZeroUsize::get), NonZeroUsize::get);
    let mut checked = Vec::new();
    let mut error = None;
    for target in &plan.targets {
        let model =
            models.iter().find(|m| m.namespace() == target.namespace).expect("a planned namespace is a model's");
        let schema = checked_schema(model)?;
        let validator = validator(model, &schema)?;
        let mut done =
            Checked { model, schema, inputs: &target.inputs, report: DryRunReport::new(args.ids), stopped_in: None };
        for path in &target.inputs {
            let progress = &mut Bar::default();
            if let Err(e) = check::check_input(&validator, &target.namespace, path, jobs, &mut done.report, progress) {
                done.stopped_in = Some(path);
                error = Some(chain(&e));
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
        CheckFormat::Json => writeln!(out, "{}", pretty(&Report::new(&checked, &plan, error.as_deref())))?,
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
/// [`live_check`](mongo_schema_migrate::live_check::live_check)), printed as the dump check
/// prints, with what the server counted and how.
#[cfg(feature = "driver")]
fn live(models: &[Model], args: &CheckArgs, uri: &str, out: &mut dyn Write) -> Result<i32, Exit> {
    use crate::check::{live_check, LiveCheck};
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
                let server = ServerJson {
                    read_preference: from,
                    sampled: found.sampled,
                    explained,
                    failed_at_least: found.failed_at_least,
                    admitted_locally: found.admitted_locally,
                    notes,
                };
                json_collections.push(CollectionJson { server: Some(server), ..CollectionJson::new(&checked) });
            }
        }
    }
    match args.format {
        CheckFormat::Text => out.write_all(text_out.as_bytes())?,
        CheckFormat::Json => writeln!(out, "{}", pretty(&LiveReport { collections: json_collections }))?,
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

/// The model's schema and validator, as [`check`] finds them.
fn checked_schema(model: &Model) -> Result<Document, Exit> {
    let timeseries = model.options.is_timeseries();
    check::schema_to_check(&model.db, &model.collection, &model.validator, timeseries).map_err(|e| Exit(2, chain(&e)))
}

fn validator(model: &Model, schema: &Document) -> Result<Validator, Exit> {
    check::validator_for(&model.db, &model.collection, schema).map_err(|e: CheckError| Exit(2, chain(&e)))
}

/// Documents, bytes, rate and failures so far, on standard error when it is a terminal.
#[derive(Default)]
struct Bar {
    shown: Option<Shown>,
}

/// The bar of the input being read.
struct Shown {
    bar: ProgressBar,
    started: Instant,
    /// The report's counts when the input started (the report spans all inputs).
    before: u64,
    namespace: String,
}

impl check::Progress for Bar {
    fn start(
        &mut self,
        namespace: &str,
        len: Option<u64>,
        report: &DryRunReport,
        input: Box<dyn Read + Send>,
    ) -> Box<dyn Read + Send> {
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
        let input = Box::new(bar.wrap_read(input));
        self.shown =
            Some(Shown { bar, started: Instant::now(), before: report.documents, namespace: namespace.to_owned() });
        input
    }

    fn batch(&mut self, report: &DryRunReport) {
        let Some(shown) = self.shown.as_ref().filter(|s| !s.bar.is_hidden()) else { return };
        let documents = report.documents - shown.before;
        let rate = documents as f64 / shown.started.elapsed().as_secs_f64().max(1e-3);
        let namespace = &shown.namespace;
        shown.bar.set_message(format!("{namespace}: {documents} documents ({rate:.0}/s), {} failing", report.failed));
    }

    fn finish(&mut self) {
        if let Some(shown) = self.shown.take() {
            shown.bar.finish_and_clear();
        }
    }
}

/// The fix of every group of a report, most frequent first.
fn fixes(checked: &Checked<'_>) -> Vec<Fix> {
    let m = checked.model;
    checked
        .report
        .sorted_groups()
        .into_iter()
        .map(|((path, keyword), group)| {
            suggest(&m.db, &m.collection, &checked.schema, &m.renames, path, keyword, group)
        })
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

/// `check --format json`, as docs/MIGRATIONS.md documents it: one object for CI.
#[derive(Serialize)]
struct Report<'a> {
    collections: Vec<CollectionJson>,
    unmodelled: Vec<Unmodelled<'a>>,
    undumped: &'a [String],
    totals: Totals,
    /// What stopped the check, with its causes; absent when nothing did.
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<&'a str>,
}

/// `check --uri --format json`: the collections, each with what the server did.
#[cfg(feature = "driver")]
#[derive(Serialize)]
struct LiveReport {
    collections: Vec<CollectionJson>,
}

/// One checked collection.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct CollectionJson {
    namespace: String,
    rust_type: String,
    inputs: Vec<String>,
    documents: u64,
    failed: u64,
    groups: Vec<GroupJson>,
    /// The input that stopped the check of this collection.
    incomplete: Option<String>,
    /// `check --uri` only.
    #[serde(skip_serializing_if = "Option::is_none")]
    server: Option<ServerJson>,
}

/// Documents failing one keyword at one path, and their fix.
#[derive(Serialize)]
struct GroupJson {
    path: String,
    keyword: String,
    field: Option<String>,
    documents: u64,
    /// Relaxed Extended JSON values (`{"$oid": ...}`), or the text when an `_id` is missing.
    ids: Vec<serde_json::Value>,
    fix: FixJson,
}

/// A group's fix: `{mongosh, note}`, or `{human}` when a person must decide.
#[derive(Serialize)]
#[serde(untagged)]
enum FixJson {
    Update { mongosh: String, note: String },
    Human { human: String },
}

/// What the server counted and selected, under `check --uri`.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ServerJson {
    read_preference: String,
    sampled: bool,
    explained: u64,
    failed_at_least: bool,
    admitted_locally: Vec<String>,
    notes: Vec<String>,
}

/// A dumped collection no model declares.
#[derive(Serialize)]
struct Unmodelled<'a> {
    namespace: &'a str,
    file: String,
}

#[derive(Serialize)]
struct Totals {
    collections: usize,
    documents: u64,
    failed: u64,
}

impl<'a> Report<'a> {
    fn new(checked: &[Checked<'_>], plan: &'a Plan, error: Option<&'a str>) -> Self {
        Report {
            collections: checked.iter().map(CollectionJson::new).collect(),
            unmodelled: plan
                .unmodelled
                .iter()
                .map(|(namespace, file)| Unmodelled { namespace, file: file.display().to_string() })
                .collect(),
            undumped: &plan.undumped,
            totals: Totals {
                collections: checked.len(),
                documents: checked.iter().map(|c| c.report.documents).sum(),
                failed: checked.iter().map(|c| c.report.failed).sum(),
            },
            error,
        }
    }
}

impl CollectionJson {
    fn new(c: &Checked<'_>) -> Self {
        let groups =
            c.report.sorted_groups().into_iter().zip(fixes(c)).map(|(((path, keyword), group), fix)| GroupJson {
                path: path.clone(),
                keyword: keyword.clone(),
                field: group.field.clone(),
                documents: group.documents,
                ids: group
                    .ids
                    .iter()
                    .map(|id| serde_json::from_str(id).unwrap_or_else(|_| id.as_str().into()))
                    .collect(),
                fix: match fix {
                    Fix::Update { mongosh, note } => FixJson::Update { mongosh, note },
                    Fix::Human(human) => FixJson::Human { human },
                },
            });
        CollectionJson {
            namespace: c.model.namespace(),
            rust_type: c.model.rust_type.clone(),
            inputs: c.inputs.iter().map(|p| p.display().to_string()).collect(),
            documents: c.report.documents,
            failed: c.report.failed,
            groups: groups.collect(),
            incomplete: c.stopped_in.map(|p| p.display().to_string()),
            server: None,
        }
    }
}

/// Indented JSON, as every `--format json` prints it.
fn pretty(value: &impl Serialize) -> String {
    serde_json::to_string_pretty(value).expect("the report types serialise to JSON")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `check --uri --format json` adds `server` to each collection, its keys in camelCase
    /// as the rest of the report (drivertests/tests/check_live_mongod.rs reads it on mongod).
    #[test]
    fn the_live_report_names_what_the_server_did_in_camel_case() {
        let server = ServerJson {
            read_preference: "secondaryPreferred".to_owned(),
            sampled: true,
            explained: 5,
            failed_at_least: true,
            admitted_locally: vec![r#"{"$oid":"000000000000000000000001"}"#.to_owned()],
            notes: vec!["the groups explain the first 5 failing documents (--limit)".to_owned()],
        };
        let keys: Vec<String> = match serde_json::to_value(&server).unwrap() {
            serde_json::Value::Object(map) => map.keys().cloned().collect(),
            other => panic!("not an object: {other}"),
        };
        assert_eq!(keys, ["readPreference", "sampled", "explained", "failedAtLeast", "admittedLocally", "notes"]);
    }

    /// A fix is `{mongosh, note}` or `{human}`, never tagged with the variant's name.
    #[test]
    fn fixes_are_untagged_objects() {
        let update = FixJson::Update { mongosh: "db.x".to_owned(), note: "n".to_owned() };
        assert_eq!(serde_json::to_string(&update).unwrap(), r#"{"mongosh":"db.x","note":"n"}"#);
        let human = FixJson::Human { human: "why".to_owned() };
        assert_eq!(serde_json::to_string(&human).unwrap(), r#"{"human":"why"}"#);
    }
}
