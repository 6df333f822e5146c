//! `schema apply` and `schema drift`: the subcommands that talk to a deployment, through
//! [`MongoServer`] (feature `driver`), printed for people, with exit codes.

use super::{chain, Exit};
use crate::migrate::apply::{apply, drift, DriftStatus, MigrationFile, Outcome, Server, DEFAULT_STATE_DB};
use crate::migrate::driver::MongoServer;
use crate::migrate::{pending, Model};
use clap::Subcommand;
use std::io::Write;
use std::path::{Path, PathBuf};

/// `apply` and `drift`: commands that talk to a deployment.
#[derive(Subcommand)]
pub(crate) enum ServerCommand {
    /// Run the directory's pending migrations in order, recording each in t_schema_migration.
    Apply {
        /// The deployment; its password is never printed (not even by `--help`).
        #[arg(long, env = "MONGODB_URI", hide_env_values = true)]
        uri: String,
        #[arg(long, default_value = "migrations")]
        dir: PathBuf,
        /// The database holding t_schema_migration.
        #[arg(long, default_value = DEFAULT_STATE_DB)]
        state_db: String,
    },
    /// Compare each deployed validator (listCollections) with the code's.
    Drift {
        /// The deployment; its password is never printed (not even by `--help`).
        #[arg(long, env = "MONGODB_URI", hide_env_values = true)]
        uri: String,
    },
}

impl ServerCommand {
    pub(crate) fn is_apply(&self) -> bool {
        matches!(self, ServerCommand::Apply { .. })
    }

    pub(crate) fn run(self, models: &[Model], out: &mut dyn Write) -> Result<i32, Exit> {
        match self {
            ServerCommand::Apply { uri, dir, state_db } => run_apply(&mut connect(&uri)?, &dir, &state_db, out),
            ServerCommand::Drift { uri } => run_drift(&mut connect(&uri)?, models, out),
        }
    }
}

fn connect(uri: &str) -> Result<MongoServer, Exit> {
    MongoServer::connect(uri).map_err(|e| Exit(2, format!("cannot connect: {}", chain(&e))))
}

/// `schema apply` over any server: prints what ran; exit 1 at the first failure.
fn run_apply(server: &mut dyn Server, dir: &Path, state_db: &str, out: &mut dyn Write) -> Result<i32, Exit> {
    if !dir.is_dir() {
        // "0 applied" would read as success
        let message = format!(
            "no migrations directory at {}: pass the directory `schema migrate --dir` wrote (default `migrations`)",
            dir.display()
        );
        return Err(Exit(2, message));
    }
    let files = pending(dir).map_err(|e| Exit(2, chain(&e)))?;
    let migrations =
        files.iter().map(|p| MigrationFile::read(p)).collect::<Result<Vec<_>, _>>().map_err(|e| Exit(2, chain(&e)))?;
    let outcomes = apply(server, &migrations, state_db).map_err(|e| Exit(1, chain(&e)))?;
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
fn run_drift(server: &mut dyn Server, models: &[Model], out: &mut dyn Write) -> Result<i32, Exit> {
    let report = drift(server, models).map_err(|e| Exit(2, chain(&e)))?;
    for (model, status) in &report {
        match status {
            DriftStatus::InSync => writeln!(out, "{}: in sync", model.namespace())?,
            DriftStatus::Missing => writeln!(out, "{}: missing (its migration is not applied)", model.namespace())?,
            DriftStatus::NoValidator => writeln!(out, "{}: deployed without a validator", model.namespace())?,
            DriftStatus::Differs(lines) => {
                writeln!(out, "{}: deployed collection differs from the code", model.namespace())?;
                lines.iter().try_for_each(|l| writeln!(out, "  - {l}"))?;
            }
        }
    }
    Ok(i32::from(report.iter().any(|(_, s)| *s != DriftStatus::InSync)))
}
