//! [`Migrator`]: the migrations applied at application start, with the application's own
//! `mongodb::Database` (feature `driver`), as `schema apply` applies them.

use super::apply::{apply, status, ApplyError, CommandError, MigrationFile, MigrationFileError, Outcome, Server};
use super::record::Status;
use super::{pending, MigrateError};
use crate::bson::Document;
use mongodb::error::ErrorKind;
use std::error::Error;
use std::fmt;
use std::path::Path;
use std::sync::Arc;

/// The migrations of a directory, applied with an application's own database handle:
///
/// ```no_run
/// # async fn start(db: mongodb::Database) -> Result<(), Box<dyn std::error::Error>> {
/// use mongo_schema::migrate::Migrator;
///
/// // read at start-up (ship the directory with the binary) ...
/// Migrator::from_dir("migrations")?.run(&db).await?;
/// // ... or compiled into the binary: include_str!("../migrations/<name>.json") per file
/// # const CREATE_T_USER: &str = "";
/// let migrator = Migrator::from_sources(&[("20261123224048_create_t_user", CREATE_T_USER)])?;
/// migrator.run(&db).await?;
/// # Ok(()) }
/// ```
///
/// `run` applies what `schema apply` would, in the same order, with the same records,
/// checksums and resumption, so the two can be mixed. The record collection is in the
/// database handed to `run` (an application's user can usually write only there); give
/// `schema apply` the same `--state-db`, or name another with [`Migrator::state_db`].
#[derive(Debug, Clone)]
pub struct Migrator {
    files: Vec<MigrationFile>,
    state_db: Option<String>,
}

/// Why [`Migrator`] could not read or apply the migrations. Its `Display` is the context;
/// the [`source`](std::error::Error::source) chain holds the cause.
#[derive(Debug)]
pub enum MigratorError {
    /// The directory could not be listed.
    Dir(MigrateError),
    /// A migration file is not one.
    File(MigrationFileError),
    /// No migration directory or source was given: an empty migrator would report success.
    Empty(String),
    /// A migration failed, or a file changed after it was applied.
    Apply(ApplyError),
    /// The blocking task running the migrations panicked or was cancelled.
    Task(String),
}

impl fmt::Display for MigratorError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MigratorError::Dir(_) => f.write_str("cannot list the migrations directory"),
            MigratorError::File(_) => f.write_str("cannot read a migration"),
            MigratorError::Empty(message) | MigratorError::Task(message) => f.write_str(message),
            MigratorError::Apply(_) => f.write_str("cannot apply the migrations"),
        }
    }
}

impl Error for MigratorError {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        match self {
            MigratorError::Dir(e) => Some(e),
            MigratorError::File(e) => Some(e),
            MigratorError::Apply(e) => Some(e),
            MigratorError::Empty(_) | MigratorError::Task(_) => None,
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
            return Err(MigratorError::Empty(format!(
                "no migrations in {}: pass the directory `schema migrate --dir` wrote",
                dir.display()
            )));
        }
        let files = paths.iter().map(|p| MigrationFile::read(p)).collect::<Result<_, _>>();
        Ok(Migrator { files: files.map_err(MigratorError::File)?, state_db: None })
    }

    /// Migrations given as `(name, JSON text)`, e.g. each file `include_str!`ed into the
    /// binary; sorted into the order they apply (by version, then by name).
    pub fn from_sources(sources: &[(&str, &str)]) -> Result<Self, MigratorError> {
        if sources.is_empty() {
            return Err(MigratorError::Empty("no migrations given".to_owned()));
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
                return Err(MigratorError::Empty(format!(
                    "the source named {name:?} holds migration {:?}: give each file its own name",
                    file.name
                )));
            }
            files.push(file);
        }
        let key = |f: &MigrationFile| (super::version_of(&f.name).map_or(0, |(v, _)| v), f.name.clone());
        files.sort_by_key(key);
        Ok(Migrator { files, state_db: None })
    }

    /// Records the migrations in this database instead of the one handed to `run`.
    pub fn state_db(mut self, db: impl Into<String>) -> Self {
        self.state_db = Some(db.into());
        self
    }

    /// The migrations, in the order they apply.
    pub fn migrations(&self) -> &[MigrationFile] {
        &self.files
    }

    /// Applies the pending migrations through `db`'s client (each step on its own
    /// database), recording them in `db` (or [`state_db`](Migrator::state_db)); what was
    /// done with each. Must be called within a tokio runtime (the driver's).
    pub async fn run(&self, db: &mongodb::Database) -> Result<Vec<Outcome>, MigratorError> {
        let state_db = self.state_db.clone().unwrap_or_else(|| db.name().to_owned());
        let files = self.files.clone();
        self.blocking(db, move |server| apply(server, &files, &state_db).map_err(MigratorError::Apply)).await
    }

    /// Where each migration stands on the deployment (as `schema status` prints it); reads only.
    pub async fn status(&self, db: &mongodb::Database) -> Result<Vec<Status>, MigratorError> {
        let state_db = self.state_db.clone().unwrap_or_else(|| db.name().to_owned());
        let files = self.files.clone();
        self.blocking(db, move |server| status(server, &files, &state_db).map_err(MigratorError::Apply)).await
    }

    /// Runs the synchronous migration logic on tokio's blocking pool, where it may wait on
    /// the driver's futures.
    async fn blocking<T: Send + 'static>(
        &self,
        db: &mongodb::Database,
        job: impl FnOnce(&mut dyn Server) -> Result<T, MigratorError> + Send + 'static,
    ) -> Result<T, MigratorError> {
        let mut server = AsyncServer { client: db.client().clone(), runtime: tokio::runtime::Handle::current() };
        tokio::task::spawn_blocking(move || job(&mut server))
            .await
            .map_err(|e| MigratorError::Task(format!("the migration task failed: {e}")))?
    }
}

/// The user's async client behind [`Server`], driven from a blocking-pool thread.
struct AsyncServer {
    client: mongodb::Client,
    runtime: tokio::runtime::Handle,
}

impl Server for AsyncServer {
    /// As bytes both ways: the driver's bson major and ours may differ (see `driver.rs`).
    fn run_command(&mut self, db: &str, command: Document) -> Result<Document, CommandError> {
        let mut bytes = Vec::new();
        command.to_writer(&mut bytes).map_err(|e| CommandError::Driver(Arc::new(e)))?;
        let command =
            mongodb::bson::RawDocumentBuf::from_bytes(bytes).map_err(|e| CommandError::Driver(Arc::new(e)))?;
        let database = self.client.database(db);
        let reply = self.runtime.block_on(async { database.run_raw_command(command).await }).map_err(|e| {
            match e.kind.as_ref() {
                ErrorKind::Command(c) => CommandError::Refused { code: c.code, message: c.message.clone() },
                _ => CommandError::Driver(Arc::new(e)),
            }
        })?;
        let mut bytes = Vec::new();
        reply.to_writer(&mut bytes).map_err(|e| CommandError::Reply(e.to_string()))?;
        Document::from_reader(&mut &bytes[..]).map_err(|e| CommandError::Reply(e.to_string()))
    }
}
