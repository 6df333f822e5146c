//! `schema check`: the models' validators dry-run over dumps and exports, on every core, or
//! on a deployment (`--uri`). The work is [`crate::check`]'s; here are its arguments, its
//! progress bar and its two reports (text and JSON).

use super::shared::{chain, select, Exit};
use crate::bson::Document;
use crate::check::{self, suggest, CheckError, DryRunReport, Fix, Plan, BYPASS_NOTE};
use crate::migrate::Model;
use crate::Validator;
use clap::{Args, ValueEnum};
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::{json, Value};
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
