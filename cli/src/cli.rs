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

use clap::{Parser, Subcommand, ValueEnum};
use mongo_schema_core::command::ValidationLevel;
use mongo_schema_migrate::{self as migrate, MigrateOptions, Model};
use std::ffi::OsString;
use std::io::{self, Write};
use std::path::PathBuf;

mod check;
mod infer;
#[cfg(feature = "driver")]
mod json;
mod migrations;
mod print;
mod queries;
mod rehearse;
#[cfg(feature = "driver")]
mod review;
#[cfg(feature = "driver")]
mod server;
mod shared;

use migrations::{check_migrations, naming, write_migration, SampleArgs};
use print::{print, Format};
use shared::{chain, select, Exit, Output};

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
        /// Write nothing; exit 1 when the models changed without a migration, or when a
        /// pending data step's result would be refused by the validator in force when it runs
        /// (rehearsed over sample documents; for CI).
        #[arg(long)]
        check: bool,
        /// With --check: `json` prints what changed as one JSON document.
        #[arg(long, value_enum, default_value_t = Output::Text, requires = "check")]
        format: Output,
        /// With --check: documents to rehearse the data steps over too, besides those generated
        /// from the validators: mongodump directories, or files (what `schema check` reads).
        #[arg(long = "sample", value_name = "DUMP", requires = "check")]
        sample: Vec<PathBuf>,
        /// The collection a --sample file holds: `t_users` or `db_user_center.t_users`.
        #[arg(long, requires = "sample")]
        collection: Option<String>,
        /// With --check: the deployment whose records say which migrations are pending, and
        /// whose collections' `$sample`s the data steps are rehearsed over too (feature `driver`).
        #[arg(long, requires = "check", hide_env_values = true)]
        uri: Option<String>,
        /// Documents `$sample`d per collection with --uri.
        #[arg(long, default_value_t = 1000, requires = "uri")]
        sample_size: u32,
        /// With --uri: the database holding t_schema_migration (as `apply --state-db`).
        #[arg(long, default_value = migrate::record::DEFAULT_STATE_DB, requires = "uri")]
        state_db: String,
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
    /// List every registered `query!`: its shape, the index mongod gives it, in-memory
    /// sorts, covered queries, broadcasts; per model the unused and redundant indexes.
    /// `--uri URI --explain` compares each verdict with mongod's explain. Exit 1 on an
    /// unwaived problem or a difference.
    Queries(queries::QueriesArgs),
    #[cfg(feature = "driver")]
    #[command(flatten)]
    Server(server::ServerCommand),
    /// Run the standard's launch checklists (data modelling, connection and security) and
    /// the query performance checklist (indexes, slow queries) against a deployment; exit 1
    /// on any failed item. Reads only.
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
        !matches!(self, Command::NewData { .. } | Command::Infer(_) | Command::Queries(_))
    }
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
    crate::redact::redact(text)
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
        Command::Migrate {
            dir,
            direct,
            validation_level,
            max_collections,
            check,
            numbered,
            format,
            sample,
            collection,
            uri,
            sample_size,
            state_db,
        } => {
            let options = MigrateOptions {
                direct,
                level: validation_level.map(Into::into),
                max_collections: max_collections.into(),
                naming: naming(numbered),
            };
            match check {
                true => {
                    let samples = SampleArgs { inputs: sample, collection, uri, size: sample_size, state_db };
                    check_migrations(models, &dir, &options, format, &samples, out)
                }
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
        Command::Queries(args) => queries::run(args, out),
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

#[cfg(test)]
mod tests {
    use super::migrations::missing_rerun_line;
    use super::redact_credentials;
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
