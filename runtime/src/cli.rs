//! The `schema` command over every model registered in a crate. A user's
//! `src/bin/schema.rs` is one line:
//!
//! ```text
//! fn main() {
//!     mongo_schema::cli::main()
//! }
//! ```
//!
//! `print`, `migrate` (`--check`), `new-data` and `check` need the `cli` feature; `apply`
//! (`--dry-run`), `status`, `revert`, `drift` and `review` the `driver` feature. Exit codes:
//! 0 done, 1 a finding (failing documents, drift, a rule, a failed migration, a changed
//! migration file, models changed without a migration under `--check`, a failed review
//! item), 2 a usage, file or connection error.

use crate::migrate::{self, MigrateError, MigrateOptions, Model};
use crate::render::{js_line_comment, mongosh_create_collection, mongosh_run_command};
use crate::ValidationLevel;
use clap::{Parser, Subcommand, ValueEnum};
use serde_json::json;
use std::ffi::OsString;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

mod check;
mod infer;
#[cfg(feature = "driver")]
mod review;
#[cfg(feature = "driver")]
mod server;
mod shared;

use shared::{chain, chain_then, select, Exit, Output};

/// The fix of a damaged snapshot.
const RESTORE: &str = "restore it from version control";

#[derive(Parser)]
#[command(
    name = "schema",
    version,
    about = "MongoDB validators, migrations and data checks for the models of this crate"
)]
struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Print each model's validator and the commands that install it.
    Print {
        /// Only this collection: `t_users` or `db_user_center.t_users`.
        #[arg(long)]
        collection: Option<String>,
        #[arg(long, value_enum, default_value_t = Format::Js)]
        format: Format,
    },
    /// Compare the models with the directory's snapshot and write the next migration.
    Migrate {
        #[arg(long, default_value = "migrations")]
        dir: PathBuf,
        /// One phase, enforced at once: no expand validator admitting the previous release's
        /// documents, no adoption under `warn` (for a deployment nothing else writes to).
        #[arg(long)]
        direct: bool,
        /// validationLevel for the collections this migration touches (`moderate` for legacy data).
        #[arg(long, value_enum)]
        validation_level: Option<Level>,
        /// collection_count: the most collections one database may hold (at most 100).
        #[arg(long, default_value_t = migrate::DEFAULT_MAX_COLLECTIONS as u16, value_parser = clap::value_parser!(u16).range(1..=migrate::DEFAULT_MAX_COLLECTIONS as i64))]
        max_collections: u16,
        /// Write nothing; exit 1 when the models changed without a migration (for CI).
        #[arg(long)]
        check: bool,
        /// With --check: `json` prints what changed as one JSON document.
        #[arg(long, value_enum, default_value_t = Output::Text, requires = "check")]
        format: Output,
        /// Name the migration `NNNN_` (one past the highest) instead of a UTC timestamp.
        #[arg(long)]
        numbered: bool,
    },
    /// Write an empty data migration (a backfill, a `$rename`) to fill with commands; it
    /// runs after the migrations written so far, in the same sequence.
    NewData {
        /// What it does, for the file name: `backfill_email`.
        name: String,
        #[arg(long, default_value = "migrations")]
        dir: PathBuf,
        /// Name the migration `NNNN_` (one past the highest) instead of a UTC timestamp.
        #[arg(long)]
        numbered: bool,
        /// A step of the contract: it waits for `schema apply --contract`, once no instance of
        /// the previous release writes (a conversion of what that release still writes).
        #[arg(long)]
        contract: bool,
    },
    /// Dry-run the models' validators over mongodump directories, BSON or archives,
    /// Extended JSON lines or JSON arrays, on every core.
    Check(check::CheckArgs),
    /// Draft models from the documents of dumps or of a deployment (`--uri`, read only):
    /// one Rust file of models that follow the modelling rules, and a report of what each
    /// collection holds and which documents the drafted models refuse.
    Infer(infer::InferArgs),
    #[cfg(feature = "driver")]
    #[command(flatten)]
    Server(server::ServerCommand),
    /// Run the standard's launch checklists (data modelling, connection and security)
    /// against a deployment; exit 1 on any failed item. Reads only.
    #[cfg(feature = "driver")]
    Review(review::ReviewArgs),
    /// The commands that talk to a deployment, in a binary built without them: each says
    /// which feature brings it instead of "unrecognized subcommand".
    #[cfg(not(feature = "driver"))]
    #[command(external_subcommand)]
    Missing(Vec<String>),
}

/// The subcommands the `driver` feature adds.
#[cfg(not(feature = "driver"))]
const DRIVER_COMMANDS: [&str; 6] = ["apply", "status", "revert", "resolve", "drift", "review"];

impl Command {
    /// `new-data`, `apply`, `status` and `revert` handle migration files and need no model;
    /// every other command reads them.
    fn needs_models(&self) -> bool {
        #[cfg(feature = "driver")]
        if let Command::Server(server) = self {
            return server.needs_models();
        }
        #[cfg(not(feature = "driver"))]
        if let Command::Missing(_) = self {
            return false;
        }
        #[cfg(feature = "driver")]
        if let Command::Review(_) = self {
            // a deployment without models can still be reviewed: the data items then
            // judge what they find
            return false;
        }
        !matches!(self, Command::NewData { .. } | Command::Infer(_))
    }
}

fn naming(numbered: bool) -> migrate::Naming {
    if numbered {
        migrate::Naming::Sequence
    } else {
        migrate::Naming::Timestamp
    }
}

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    /// mongosh: `createCollection`, and the `collMod` for an existing collection.
    Js,
    /// A JSON array of `{db, collection, rustType, createCollection, collMod}` (relaxed Extended JSON).
    Json,
}

#[derive(Clone, Copy, ValueEnum)]
enum Level {
    Strict,
    Moderate,
    Off,
}

impl From<Level> for ValidationLevel {
    fn from(level: Level) -> Self {
        match level {
            Level::Strict => ValidationLevel::Strict,
            Level::Moderate => ValidationLevel::Moderate,
            Level::Off => ValidationLevel::Off,
        }
    }
}

/// Runs the command line of this process over the models registered in the binary and
/// exits with its code.
pub fn main() -> ! {
    let models = migrate::registered_models();
    // Standard error stays unlocked: `check`'s progress bar draws on it from whichever
    // thread is reading, and a lock held here would stop that thread for good.
    let code = run(&models, std::env::args_os(), &mut io::stdout().lock(), &mut io::stderr());
    let _ = io::stdout().flush();
    std::process::exit(code)
}

/// Runs one command line (`args[0]` is the program name) over `models`; the exit code.
pub fn run<I, T>(models: &[Model], args: I, out: &mut dyn Write, err: &mut dyn Write) -> i32
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let args = match Args::try_parse_from(args) {
        Ok(args) => args,
        Err(e) => return clap_exit(e, out, err),
    };
    match dispatch(models, args.command, out, err) {
        Ok(code) => code,
        Err(Exit(code, message)) => {
            // a driver error may quote the connection string it was given
            let _ = writeln!(err, "schema: {}", redact_credentials(&message));
            code
        }
    }
}

fn clap_exit(e: clap::Error, out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    // a usage error may quote `--uri`'s value
    let text = redact_credentials(&e.render().to_string());
    let _ = if e.use_stderr() { err.write_all(text.as_bytes()) } else { out.write_all(text.as_bytes()) };
    e.exit_code()
}

/// Every `mongodb://` or `mongodb+srv://` connection string in `text` with its password
/// replaced by `****` (the user name stays: it helps to see who failed to log in).
fn redact_credentials(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) =
        ["mongodb://", "mongodb+srv://"].iter().filter_map(|s| rest.find(s).map(|i| i + s.len())).min()
    {
        let (head, tail) = rest.split_at(start);
        out.push_str(head);
        // the authority ends at the path, the options, or whatever ends the URI in prose
        let end = tail
            .find(|c: char| c == '/' || c == '?' || c.is_whitespace() || c == '"' || c == '\'')
            .unwrap_or(tail.len());
        match tail[..end].rfind('@').and_then(|at| tail[..at].find(':').map(|colon| (colon, at))) {
            Some((colon, at)) => {
                out.push_str(&tail[..=colon]);
                out.push_str("****");
                rest = &tail[at..];
            }
            None => rest = tail,
        }
    }
    out.push_str(rest);
    out
}

fn dispatch(models: &[Model], command: Command, out: &mut dyn Write, err: &mut dyn Write) -> Result<i32, Exit> {
    if models.is_empty() && command.needs_models() {
        // without this, `print` prints nothing and `migrate` would write a migration that
        // drops every model from the snapshot
        return Err(Exit(
            2,
            "no collection root is registered in this binary: the linker keeps only the crates a binary names, so add \
             `use your_models_crate as _;` to src/bin/schema.rs (a root is a type deriving MongoSchema with \
             `#[mongo(db = \"...\", collection = \"...\")]`)"
                .to_owned(),
        ));
    }
    match command {
        Command::Print { collection, format } => print(&select(models, collection.as_deref())?, format, out),
        Command::Migrate { dir, direct, validation_level, max_collections, check, numbered, format } => {
            let options = MigrateOptions {
                direct,
                level: validation_level.map(Into::into),
                max_collections: max_collections.into(),
                naming: naming(numbered),
            };
            match check {
                true => check_migrations(models, &dir, &options, format, out),
                false => write_migration(models, &dir, &options, out),
            }
        }
        Command::NewData { name, dir, numbered, contract } => {
            let phase = if contract { migrate::Phase::Contract } else { migrate::Phase::Expand };
            let path =
                migrate::new_data_migration_in(&dir, &name, naming(numbered), phase).map_err(|e| Exit(2, chain(&e)))?;
            writeln!(out, "wrote data migration {}: fill its `up` with the commands to run", path.display())?;
            Ok(0)
        }
        Command::Check(args) => check::run(models, args, out),
        Command::Infer(args) => infer::run(args, out, err),
        #[cfg(not(feature = "driver"))]
        Command::Missing(args) => {
            let name = args.first().map(String::as_str).unwrap_or_default();
            match DRIVER_COMMANDS.contains(&name) {
                true => Err(Exit(
                    2,
                    format!(
                        "`schema {name}` talks to a deployment, which this binary was built without: turn on \
                         mongo-schema's `driver` feature (`mongo-schema = {{ version = \"0.1\", features = \
                         [\"driver\"] }}`), then build the binary again"
                    ),
                )),
                false => Err(Exit(2, format!("unrecognized subcommand '{name}'; `schema --help` lists the commands"))),
            }
        }
        #[cfg(feature = "driver")]
        Command::Server(command) => command.run(models, out),
        #[cfg(feature = "driver")]
        Command::Review(args) => args.run(models, out),
    }
}

fn print(models: &[Model], format: Format, out: &mut dyn Write) -> Result<i32, Exit> {
    let text = match format {
        Format::Js => models.iter().map(print_js).collect::<Vec<_>>().join("\n"),
        Format::Json => print_json(models),
    };
    writeln!(out, "{text}")?;
    Ok(0)
}

fn print_js(model: &Model) -> String {
    // time-series and capped options included; a time-series collection has no validator
    let (create, coll_mod) = crate::migrate::create_commands(model);
    [
        js_line_comment(&format!(
            "{} ({}): create the collection with its validator",
            model.namespace(),
            model.rust_type
        )),
        js_line_comment(&size_note(model)),
        mongosh_create_collection(&model.db, &create),
        js_line_comment("or, when the collection exists, install the validator:"),
        mongosh_run_command(&model.db, &coll_mod),
    ]
    .into_iter()
    .chain(
        option_commands(model)
            .into_iter()
            .flat_map(|(db, comment, command)| [js_line_comment(&comment), mongosh_run_command(&db, &command)]),
    )
    .collect::<Vec<_>>()
    .join("\n")
        + "\n"
}

/// What else a migration installs for `model`: its indexes, and its shard key (through
/// mongos); as (database, comment, command).
fn option_commands(model: &Model) -> Vec<(String, String, crate::bson::Document)> {
    let mut commands = Vec::new();
    if !model.options.indexes.is_empty() {
        let command =
            crate::bson::doc! { "createIndexes": &model.collection, "indexes": model.options.indexes.clone() };
        commands.push((model.db.clone(), "its indexes:".to_owned(), command));
    }
    if !model.options.shard_key.is_empty() {
        let command =
            crate::bson::doc! { "shardCollection": model.namespace(), "key": model.options.shard_key.clone() };
        let comment = "its shard key (through mongos, on a sharded cluster):".to_owned();
        commands.push(("admin".to_owned(), comment, command));
    }
    commands
}

fn print_json(models: &[Model]) -> String {
    let items: Vec<serde_json::Value> = models.iter().map(|m| {
        let (create, coll_mod) = crate::migrate::create_commands(m);
        let relaxed = |d: crate::bson::Document| crate::bson::Bson::Document(d).into_relaxed_extjson();
        let size = match worst_case_size(m) {
            Some(bytes) => json!({ "worstCaseBytes": bytes }),
            None => json!({ "unboundedBy": unbounded_by(m).map(|(path, why)| format!("{path}: {why}")) }),
        };
        let mut item = json!({ "db": m.db, "collection": m.collection, "rustType": m.rust_type, "documentSize": size, "createCollection": relaxed(create), "collMod": relaxed(coll_mod) });
        for (_, _, command) in option_commands(m) {
            let key = command.keys().next().cloned().unwrap_or_default();
            item[key] = relaxed(command);
        }
        item
    }).collect();
    serde_json::to_string_pretty(&items).expect("a JSON value always serialises")
}

/// A root's worst-case encoded size (`MongoCollection::MAX_DOCUMENT_SIZE`); `None` when
/// unbounded.
fn worst_case_size(model: &Model) -> Option<u64> {
    model.max_document_size
}

/// `print`'s line on a root's size: its worst case, or what leaves it unbounded.
fn size_note(model: &Model) -> String {
    match (worst_case_size(model), unbounded_by(model)) {
        (Some(bytes), _) => format!("worst-case document size: {bytes} bytes"),
        (None, Some((path, why))) => format!("document size unbounded: `{path}` is {why}"),
        (None, None) => "document size unbounded".to_owned(),
    }
}

/// The first field of an unbounded root whose schema sets no bound: a string with
/// neither `maxLength`, `enum` nor a fixed-width `pattern`, an array without `maxItems`,
/// a map, or a document whose fields are not declared, in the root's fields or any branch
/// of a polymorphic root. When none is (the bound is the Rust type's, which the schema does
/// not say), the first field of a kind whose size only the type bounds: binary data, or a
/// value of any BSON type.
fn unbounded_by(model: &Model) -> Option<(String, &'static str)> {
    use crate::view::{SchemaView, Unbounds};
    let schema = SchemaView::of_validator(&model.validator)?;
    let (path, why) = schema.unbounded(Unbounds::ByKeywords).or_else(|| schema.unbounded(Unbounds::AlsoByTypes))?;
    Some((path, why.text()))
}

/// `migrate --check`: exit 1, naming what changed, when `migrate` would write a migration.
fn check_migrations(
    models: &[Model],
    dir: &Path,
    options: &MigrateOptions,
    format: Output,
    out: &mut dyn Write,
) -> Result<i32, Exit> {
    let path = dir.join(migrate::SNAPSHOT_FILE);
    let snapshot = match std::fs::read_to_string(&path) {
        Ok(text) => migrate::Snapshot::from_json(&text)
            .map_err(|e| Exit(2, format!("{}: {}", path.display(), chain_then(&e, RESTORE))))?,
        // no snapshot: every model is new (a wrong --dir shows up here too)
        Err(e) if e.kind() == io::ErrorKind::NotFound => migrate::Snapshot::default(),
        Err(e) => return Err(Exit(2, format!("{}: {e}", path.display()))),
    };
    let next = match snapshot.next_migration(models, options) {
        Ok(next) => next,
        Err(MigrateError::CollectionCount(message)) => return Err(Exit(1, message)),
        Err(e) => return Err(Exit(2, chain(&e))),
    };
    if format == Output::Json {
        let report = match &next {
            None => json!({ "current": true }),
            Some(migration) => json!({
                "current": false,
                "steps": migration.up.iter().map(|s| json!({
                    "db": s.db, "collection": s.collection, "comments": s.comments,
                    "phase": s.phase.as_str(), "requireValid": s.require_valid,
                })).collect::<Vec<_>>(),
                "removed": migration.removed.iter().map(|e| e.model.namespace()).collect::<Vec<_>>(),
                "notes": migration.notes,
            }),
        };
        writeln!(out, "{report}")?;
        return Ok(i32::from(next.is_some()));
    }
    let Some(migration) = next else {
        writeln!(out, "migrations are current: the models match {}", path.display())?;
        return Ok(0);
    };
    writeln!(out, "the models changed without a migration; `schema migrate --dir {}` would write:", dir.display())?;
    let mut contract = false;
    for step in &migration.up {
        if step.phase == migrate::Phase::Contract && !contract {
            contract = true;
            writeln!(out, "  then, in its contract (`schema apply --contract`, once the previous release is gone):")?;
        }
        for comment in &step.comments {
            writeln!(out, "  {comment}")?;
        }
    }
    for removed in &migration.removed {
        writeln!(out, "  {}: removed from the code", removed.model.namespace())?;
    }
    Ok(1)
}

fn write_migration(models: &[Model], dir: &Path, options: &MigrateOptions, out: &mut dyn Write) -> Result<i32, Exit> {
    let written = match migrate::migrate(dir, models, options) {
        Ok(written) => written,
        Err(MigrateError::CollectionCount(message)) => return Err(Exit(1, message)),
        Err(e @ MigrateError::Snapshot { .. }) => return Err(Exit(2, chain_then(&e, RESTORE))),
        Err(e) => return Err(Exit(2, chain(&e))),
    };
    let Some(written) = written else {
        writeln!(out, "no changes: the models match {}", dir.join(migrate::SNAPSHOT_FILE).display())?;
        return Ok(0);
    };
    writeln!(out, "wrote migration {}:", written.migration.name)?;
    for file in &written.files {
        writeln!(out, "  {}", file.display())?;
    }
    for note in &written.migration.notes {
        writeln!(out, "note: {note}")?;
    }
    if let Some(line) = missing_rerun_line(Path::new("."), dir) {
        writeln!(
            out,
            "note: this crate embeds its migrations with `migrations!`, which rebuilds when a file changes but not \
             when one is added: add `{line}` to its build script (build.rs, in `fn main`) so that cargo rebuilds it \
             now; until then `cargo build` keeps the old set"
        )?;
    }
    Ok(0)
}

/// The build-script line a crate at `root` that embeds migrations with `migrations!` lacks
/// for `dir` (added files rebuild it only with it), or `None`: no such crate here, or the
/// line is there.
fn missing_rerun_line(root: &Path, dir: &Path) -> Option<String> {
    if !root.join("Cargo.toml").is_file() || !embeds_migrations(&root.join("src")) {
        return None;
    }
    let dir = dir.strip_prefix(".").unwrap_or(dir).to_string_lossy().trim_end_matches('/').to_owned();
    let watched = std::fs::read_to_string(root.join("build.rs"))
        .is_ok_and(|script| script.contains(&format!("rerun-if-changed={dir}")));
    (!watched).then(|| format!("println!(\"cargo:rerun-if-changed={dir}\");"))
}

/// Some `.rs` file under `dir` calls `migrations!`.
fn embeds_migrations(dir: &Path) -> bool {
    let Ok(entries) = std::fs::read_dir(dir) else { return false };
    entries.flatten().any(|entry| {
        let path = entry.path();
        if path.is_dir() {
            embeds_migrations(&path)
        } else {
            path.extension().is_some_and(|e| e == "rs")
                && std::fs::read_to_string(&path).is_ok_and(|text| text.contains("migrations!("))
        }
    })
}

#[cfg(test)]
mod tests {
    use super::{missing_rerun_line, redact_credentials};
    use std::path::Path;

    /// A `cli`-only binary asked for a command of the `driver` feature says so.
    #[cfg(not(feature = "driver"))]
    #[test]
    fn a_command_of_a_feature_that_is_off_names_the_feature() {
        for command in super::DRIVER_COMMANDS {
            let (mut out, mut err) = (Vec::new(), Vec::new());
            let code = super::run(&[], ["schema", command, "--uri", "mongodb://h"], &mut out, &mut err);
            let err = String::from_utf8(err).unwrap();
            assert_eq!(code, 2, "{err}");
            assert!(err.contains(&format!("`schema {command}` talks to a deployment")), "{err}");
            assert!(err.contains("`driver` feature"), "{err}");
        }
        let (mut out, mut err) = (Vec::new(), Vec::new());
        assert_eq!(super::run(&[], ["schema", "aply"], &mut out, &mut err), 2);
        assert!(String::from_utf8(err).unwrap().contains("unrecognized subcommand 'aply'"));
    }

    #[test]
    fn a_crate_that_embeds_migrations_is_told_the_build_script_line_it_lacks() {
        let root = tempfile::tempdir().unwrap();
        let dir = Path::new("migrations");
        assert_eq!(missing_rerun_line(root.path(), dir), None, "not a crate");
        std::fs::write(root.path().join("Cargo.toml"), "[package]\n").unwrap();
        std::fs::create_dir_all(root.path().join("src/app")).unwrap();
        std::fs::write(root.path().join("src/lib.rs"), "pub mod app;\n").unwrap();
        assert_eq!(missing_rerun_line(root.path(), dir), None, "no migrations! call");
        let start = "pub async fn start(db: &mongodb::Database) { mongo_schema::migrations!(\"migrations\").run(db).await.unwrap(); }";
        std::fs::write(root.path().join("src/app/start.rs"), start).unwrap();
        let line = "println!(\"cargo:rerun-if-changed=migrations\");";
        assert_eq!(missing_rerun_line(root.path(), dir).as_deref(), Some(line));
        assert_eq!(missing_rerun_line(root.path(), Path::new("./migrations/")).as_deref(), Some(line));
        std::fs::write(root.path().join("build.rs"), format!("fn main() {{ {line} }}")).unwrap();
        assert_eq!(missing_rerun_line(root.path(), dir), None, "the line is there");
    }

    #[test]
    fn passwords_in_connection_strings_are_never_printed() {
        for (text, redacted) in [
            (
                "mongodb://app:s3cret@db1:27017,db2/?authSource=admin",
                "mongodb://app:****@db1:27017,db2/?authSource=admin",
            ),
            (
                "cannot connect to mongodb+srv://app:p%40ss@cluster.example.net",
                "cannot connect to mongodb+srv://app:****@cluster.example.net",
            ),
            ("\"mongodb://a:b@h\" and mongodb://c:d@h/x", "\"mongodb://a:****@h\" and mongodb://c:****@h/x"),
            (
                "a password with @ and : in it: mongodb://u:p:q@r@h/db",
                "a password with @ and : in it: mongodb://u:****@h/db",
            ),
        ] {
            assert_eq!(redact_credentials(text), redacted, "{text}");
        }
        for unchanged in ["mongodb://db1:27017/", "mongodb://user@db1/", "no uri here", "mongodb://", "mongodb://u:p"] {
            assert_eq!(redact_credentials(unchanged), unchanged);
        }
    }
}
