//! [`Migrator`]: the migrations applied at application start, with the application's own
//! `mongodb::Database` (feature `migrate`), as `schema apply` applies them.

use super::apply::{apply_with, status_with, ApplyError, ApplyOptions, Event, Outcome};
use super::directory::{pending, MigrateError};
use super::file::{MigrationFile, MigrationFileError};
use super::lock::LockOptions;
use super::record::Status;
use super::record::DEFAULT_STATE_DB;
use super::server::chain;
use super::server::{CommandError, Server};
use super::wire::{command_error, from_driver, to_driver};
use mongo_schema_core::bson::Document;
use std::error::Error;
use std::fmt;
use std::path::{Path, PathBuf};

/// The migrations of a directory, applied with an application's own database handle:
///
/// ```no_run
/// # async fn start(db: mongodb::Database) -> Result<(), Box<dyn std::error::Error>> {
/// // compiled into the binary (the directory relative to Cargo.toml) ...
/// mongo_schema::migrations!("../examples/app/migrations").run(&db).await?;
/// // ... or read at start-up (ship the directory with the binary)
/// mongo_schema::migrate::Migrator::from_dir("migrations")?.run(&db).await?;
/// # Ok(()) }
/// ```
///
/// `run` applies what `schema apply` would, in the same order, with the same records,
/// checksums, resumption and lock, so the two can be mixed: both keep their records in
/// [`DEFAULT_STATE_DB`] unless told otherwise (`--state-db`, [`Migrator::state_db`]; an
/// application user that can write only its own database names that one in both). Several
/// instances starting together take turns on a lease: one runs the migrations, the others
/// wait for it and find nothing left (see [`Migrator::lock`]).
#[derive(Debug, Clone)]
pub struct Migrator {
    files: Vec<MigrationFile>,
    state_db: Option<String>,
    lock: LockOptions,
    contract: bool,
    enforce_anyway: bool,
    /// Embedded sources that did not parse: `run` and `status` report them.
    broken: Option<&'static [(&'static str, &'static str)]>,
}

/// Why [`Migrator`] could not read or apply the migrations. Its `Display` is the context;
/// the [`source`](std::error::Error::source) chain holds the cause.
#[derive(Debug)]
#[non_exhaustive]
pub enum MigratorError {
    /// The directory could not be listed.
    Dir(MigrateError),
    /// A migration file is not one.
    File(MigrationFileError),
    /// No migration was given: an empty migrator would report success. Far more often a
    /// wrong path than an application without migrations.
    Empty {
        /// The directory read ([`Migrator::from_dir`]); `None` for [`Migrator::from_sources`].
        dir: Option<PathBuf>,
    },
    /// A source of [`Migrator::from_sources`] holds a migration of another name.
    Misnamed {
        /// The source's name.
        source: String,
        /// The name of the migration it holds.
        migration: String,
    },
    /// A migration failed, or a file changed after it was applied.
    Apply(ApplyError),
    /// The blocking task running the migrations panicked or was cancelled.
    Task(tokio::task::JoinError),
}

impl fmt::Display for MigratorError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MigratorError::Dir(_) => f.write_str("cannot list the migrations directory"),
            MigratorError::File(_) => f.write_str("cannot read a migration"),
            MigratorError::Empty { dir: Some(dir) } => {
                write!(f, "no migrations in {}: pass the directory `schema migrate --dir` wrote", dir.display())
            }
            MigratorError::Empty { dir: None } => f.write_str("no migrations given"),
            MigratorError::Misnamed { source, migration } => {
                write!(f, "the source named {source:?} holds migration {migration:?}: give each file its own name")
            }
            MigratorError::Apply(_) => f.write_str("cannot apply the migrations"),
            MigratorError::Task(_) => f.write_str("the migration task failed"),
        }
    }
}

impl Error for MigratorError {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        match self {
            MigratorError::Dir(e) => Some(e),
            MigratorError::File(e) => Some(e),
            MigratorError::Apply(e) => Some(e),
            MigratorError::Task(e) => Some(e),
            MigratorError::Empty { .. } | MigratorError::Misnamed { .. } => None,
        }
    }
}

impl Migrator {
    /// The migrations of `dir` (generated and data migrations, in the order they apply).
    /// A missing or empty directory is an error: it is a wrong path far more often than
    /// an application without migrations.
    pub fn from_dir(dir: impl AsRef<Path>) -> Result<Self, MigratorError> {
        let dir = dir.as_ref();
        let paths = pending(dir).map_err(MigratorError::Dir)?;
        if paths.is_empty() {
            return Err(MigratorError::Empty { dir: Some(dir.to_owned()) });
        }
        let files = paths.iter().map(|p| MigrationFile::read(p)).collect::<Result<_, _>>();
        Ok(Migrator::of(files.map_err(MigratorError::File)?))
    }

    /// Migrations given as `(name, JSON text)`, e.g. each file `include_str!`ed into the
    /// binary; sorted into the order they apply (by version, then by name).
    pub fn from_sources(sources: &[(&str, &str)]) -> Result<Self, MigratorError> {
        if sources.is_empty() {
            return Err(MigratorError::Empty { dir: None });
        }
        let mut files = Vec::new();
        for (name, text) in sources {
            let file = MigrationFile::parse(text).map_err(|e| {
                MigratorError::File(MigrationFileError::InFile {
                    path: format!("{name}.json").into(),
                    source: Box::new(e),
                })
            })?;
            if file.name != *name {
                return Err(MigratorError::Misnamed { source: (*name).to_owned(), migration: file.name });
            }
            files.push(file);
        }
        let key = |f: &MigrationFile| (super::version_of(&f.name).map_or(0, |(v, _)| v), f.name.clone());
        files.sort_by_key(key);
        Ok(Migrator::of(files))
    }

    /// What `mongo_schema::migrations!` expands to: the files of a directory,
    /// embedded at compile time. A file that is not a migration is reported by
    /// [`run`](Migrator::run) and [`status`](Migrator::status).
    #[doc(hidden)]
    pub fn embedded(sources: &'static [(&'static str, &'static str)]) -> Self {
        Migrator::from_sources(sources)
            .unwrap_or_else(|_| Migrator { broken: Some(sources), ..Migrator::of(Vec::new()) })
    }

    fn of(files: Vec<MigrationFile>) -> Self {
        Migrator {
            files,
            state_db: None,
            lock: LockOptions::default(),
            contract: false,
            enforce_anyway: false,
            broken: None,
        }
    }

    /// How long the lease lasts without renewal (a crashed instance blocks the others this
    /// long at most) and how long to wait for another instance's; 30 s and 10 min by default.
    pub fn lock(mut self, lock: LockOptions) -> Self {
        self.lock = lock;
        self
    }

    /// Records the migrations in this database instead of [`DEFAULT_STATE_DB`] (the CLI's
    /// `--state-db`: give both the same).
    pub fn state_db(mut self, db: impl Into<String>) -> Self {
        self.state_db = Some(db.into());
        self
    }

    /// Runs the contract steps too (`schema apply --contract`): keys moved to their new names,
    /// the models' validators enforced. Only once no instance of the previous release writes:
    /// a job after the rollout. Without it, `run` runs every migration's expand steps and
    /// stops each at its contract, saying so in a `tracing` warning.
    pub fn contract(mut self, contract: bool) -> Self {
        self.contract = contract;
        self
    }

    /// With [`contract`](Migrator::contract): enforces a validator even while stored documents
    /// fail it (`--enforce-anyway`); otherwise such a step stops the run naming the count.
    pub fn enforce_anyway(mut self, enforce: bool) -> Self {
        self.enforce_anyway = enforce;
        self
    }

    /// The migrations, in the order they apply.
    pub fn migrations(&self) -> &[MigrationFile] {
        &self.files
    }

    /// Applies the pending migrations through `db`'s client (each step on its own
    /// database), recording them in [`DEFAULT_STATE_DB`] (or
    /// [`state_db`](Migrator::state_db)) under the lease; what was done with each. Records
    /// kept in `db` by an earlier version are found and named, never run again. Must be
    /// called within a tokio runtime (the driver's).
    pub async fn run(&self, db: &mongodb::Database) -> Result<Vec<Outcome>, MigratorError> {
        let (files, options) = self.prepared(db)?;
        self.blocking(db, move |server| {
            let mut step = String::new();
            let outcomes = apply_with(server, &files, &options, &mut |event| traced(event, &mut step))
                .map_err(MigratorError::Apply)?;
            outcomes.iter().for_each(traced_outcome);
            Ok(outcomes)
        })
        .await
        .inspect_err(|e| tracing::error!(target: TARGET, error = %chain(e), "migrations failed"))
    }

    /// Where each migration stands on the deployment (as `schema status` prints it); reads only.
    pub async fn status(&self, db: &mongodb::Database) -> Result<Vec<Status>, MigratorError> {
        let (files, options) = self.prepared(db)?;
        self.blocking(db, move |server| status_with(server, &files, &options).map_err(MigratorError::Apply)).await
    }

    /// The files and where to record them, or the error of an embedded file.
    fn prepared(&self, db: &mongodb::Database) -> Result<(Vec<MigrationFile>, ApplyOptions), MigratorError> {
        let files = match self.broken {
            // parsing them again gives the error they gave when embedded
            Some(sources) => Migrator::from_sources(sources)?.files,
            None => self.files.clone(),
        };
        let options = ApplyOptions {
            state_db: self.state_db.clone().unwrap_or_else(|| DEFAULT_STATE_DB.to_owned()),
            lock: self.lock,
            look_elsewhere: vec![db.name().to_owned()],
            contract: self.contract,
            enforce_anyway: self.enforce_anyway,
        };
        Ok((files, options))
    }

    /// Runs the synchronous migration logic on tokio's blocking pool, where it may wait on
    /// the driver's futures.
    async fn blocking<T: Send + 'static>(
        &self,
        db: &mongodb::Database,
        job: impl FnOnce(&mut dyn Server) -> Result<T, MigratorError> + Send + 'static,
    ) -> Result<T, MigratorError> {
        let mut server = AsyncServer { client: db.client().clone(), runtime: tokio::runtime::Handle::current() };
        tokio::task::spawn_blocking(move || job(&mut server)).await.map_err(MigratorError::Task)?
    }
}

/// The `tracing` target of the migrator's events.
const TARGET: &str = "mongo_schema::migrate";

/// One event of `apply` as a `tracing` event; `step` keeps the step running, for its end.
fn traced(event: Event, step: &mut String) {
    match event {
        Event::Waiting(holder) => {
            tracing::info!(target: TARGET, %holder, "waiting for the migration lock held by another instance")
        }
        Event::Locked(waited) => {
            tracing::info!(target: TARGET, waited_ms = waited.as_millis() as u64, "took the migration lock")
        }
        Event::Step { migration, step: what } => {
            tracing::info!(target: TARGET, %migration, step = %what, "migration step started");
            *step = format!("{migration}: {what}");
        }
        Event::StepDone(took) => {
            tracing::info!(target: TARGET, step = %step, duration_ms = took.as_millis() as u64, "migration step done")
        }
        Event::Adopted { namespace, failing, total } if failing > 0 => tracing::warn!(
            target: TARGET, %namespace, failing, total,
            "existing collection adopted under validationAction warn; documents fail the model's validator: \
             `schema check --uri` lists them"
        ),
        Event::Adopted { namespace, total, .. } => tracing::info!(
            target: TARGET, %namespace, total, "existing collection adopted; every document passes the model's validator"
        ),
        Event::Held { migration, step, behind, namespace, after } => tracing::warn!(
            target: TARGET, %migration, %step, contract = %behind, %namespace, after = after.as_deref().unwrap_or(""),
            "migration step waits for an earlier migration's pending contract, which installs this collection's \
             validator first (the step was written against the state it leaves); run `schema apply --contract` (or \
             Migrator::contract(true)) once no instance of the previous release writes: it runs them in order"
        ),
        Event::ContractWithExpand { migration, step } => tracing::info!(
            target: TARGET, %migration, %step,
            "contract steps run with the expand: this run created their collection (no document, no other writer)"
        ),
        Event::ContractPending { migration, step } => tracing::warn!(
            target: TARGET, %migration, %step,
            "contract pending: run `schema apply --contract` (or Migrator::contract(true)) once no instance of the \
             previous release writes"
        ),
    }
}

fn traced_outcome(outcome: &Outcome) {
    match outcome {
        Outcome::AlreadyApplied(_) => {}
        other => tracing::info!(target: TARGET, outcome = ?other, "migration"),
    }
}

/// The user's async client behind [`Server`], driven from a blocking-pool thread.
struct AsyncServer {
    client: mongodb::Client,
    runtime: tokio::runtime::Handle,
}

impl Server for AsyncServer {
    /// As bytes both ways: the driver's bson major and ours may differ (see `wire.rs`).
    fn run_command(&mut self, db: &str, command: Document) -> Result<Document, CommandError> {
        let command = to_driver(&command)?;
        let database = self.client.database(db);
        let reply = self.runtime.block_on(async { database.run_raw_command(command).await }).map_err(command_error)?;
        from_driver(&reply)
    }

    /// The same client on the same runtime, for the migration lease's heartbeat.
    fn handle(&self) -> Option<Box<dyn Server + Send>> {
        Some(Box::new(AsyncServer { client: self.client.clone(), runtime: self.runtime.clone() }))
    }
}
