//! The official driver (sync API) behind [`Server`], and the `apply` and `drift`
//! commands of the `schema` CLI. Feature `driver`.

use super::apply::{apply, drift, CommandError, DriftStatus, MigrationFile, Outcome, Server, DEFAULT_STATE_DB};
use super::{pending, Model};
use crate::cli::Failure;
use bson::Document;
use clap::Subcommand;
use mongodb::error::ErrorKind;
use mongodb::sync::Client;
use std::io::Write;
use std::path::{Path, PathBuf};

/// A deployment reached through `mongodb::sync::Client`.
pub struct MongoServer {
    client: Client,
}

impl MongoServer {
    /// A client for `uri` (`mongodb://...`); the connection opens on the first command.
    pub fn connect(uri: &str) -> Result<Self, CommandError> {
        Client::with_uri_str(uri).map(|client| MongoServer { client }).map_err(command_error)
    }
}

impl Server for MongoServer {
    fn run_command(&mut self, db: &str, command: Document) -> Result<Document, CommandError> {
        self.client.database(db).run_command(command).run().map_err(command_error)
    }
}

/// The server's code and message when it refused the command; the driver's text otherwise.
fn command_error(e: mongodb::error::Error) -> CommandError {
    match e.kind.as_ref() {
        ErrorKind::Command(c) => CommandError { code: Some(c.code), message: c.message.clone() },
        _ => CommandError { code: None, message: e.to_string() },
    }
}

/// `apply` and `drift`: commands that talk to a deployment.
#[derive(Subcommand)]
pub enum ServerCommand {
    /// Run the directory's pending migrations in order, recording each in t_schema_migration.
    Apply {
        #[arg(long, env = "MONGODB_URI")]
        uri: String,
        #[arg(long, default_value = "migrations")]
        dir: PathBuf,
        /// The database holding t_schema_migration.
        #[arg(long, default_value = DEFAULT_STATE_DB)]
        state_db: String,
    },
    /// Compare each deployed validator (listCollections) with the code's.
    Drift {
        #[arg(long, env = "MONGODB_URI")]
        uri: String,
    },
}

impl ServerCommand {
    pub(crate) fn run(self, models: &[Model], out: &mut dyn Write) -> Result<i32, Failure> {
        match self {
            ServerCommand::Apply { uri, dir, state_db } => run_apply(&mut connect(&uri)?, &dir, &state_db, out),
            ServerCommand::Drift { uri } => run_drift(&mut connect(&uri)?, models, out),
        }
    }
}

fn connect(uri: &str) -> Result<MongoServer, Failure> {
    MongoServer::connect(uri).map_err(|e| Failure(2, format!("cannot connect: {e}")))
}

/// `schema apply` over any server: prints what ran; exit 1 at the first failure.
pub(crate) fn run_apply(
    server: &mut dyn Server,
    dir: &Path,
    state_db: &str,
    out: &mut dyn Write,
) -> Result<i32, Failure> {
    let files = pending(dir).map_err(|e| Failure(2, e.to_string()))?;
    let migrations =
        files.iter().map(|p| MigrationFile::read(p)).collect::<Result<Vec<_>, _>>().map_err(|e| Failure(2, e))?;
    let outcomes = apply(server, &migrations, state_db).map_err(|e| Failure(1, e.to_string()))?;
    for outcome in &outcomes {
        match outcome {
            Outcome::Applied(name) => writeln!(out, "applied {name}")?,
            Outcome::AlreadyApplied(name) => writeln!(out, "already applied {name}")?,
        }
    }
    let applied = outcomes.iter().filter(|o| matches!(o, Outcome::Applied(_))).count();
    writeln!(out, "{applied} applied, {} already applied", outcomes.len() - applied)?;
    Ok(0)
}

/// `schema drift` over any server: one line per collection; exit 1 when any differs.
pub(crate) fn run_drift(server: &mut dyn Server, models: &[Model], out: &mut dyn Write) -> Result<i32, Failure> {
    let report = drift(server, models).map_err(|e| Failure(2, e.to_string()))?;
    for (model, status) in &report {
        match status {
            DriftStatus::InSync => writeln!(out, "{}: in sync", model.namespace())?,
            DriftStatus::Missing => writeln!(out, "{}: missing (its migration is not applied)", model.namespace())?,
            DriftStatus::NoValidator => writeln!(out, "{}: deployed without a validator", model.namespace())?,
            DriftStatus::Differs(lines) => {
                writeln!(out, "{}: deployed validator differs from the code", model.namespace())?;
                lines.iter().try_for_each(|l| writeln!(out, "  - {l}"))?;
            }
        }
    }
    Ok(i32::from(report.iter().any(|(_, s)| *s != DriftStatus::InSync)))
}
