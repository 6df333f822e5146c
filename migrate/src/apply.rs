//! `apply`, `revert`, `resolve` and `status` over a [`server::Server`]: under the lease
//! ([`lock`](super::lock)), the pending migrations run in order and are recorded (see
//! [`record`]), the last one is reverted, a stuck one is resolved. The port
//! ([`server`]), the file model ([`file`](mod@file)), the records ([`record`]) and drift
//! ([`drift`](super::drift)) live in their own modules; their names here are deprecated
//! (see the end of this module) and go in the next release.
//!
//! The layers point one way: `server` ← `file` ← `record` ← `lock` ← `apply`, and `server`
//! ← `drift`.

use super::file;
use super::lock::{Lease, LockError, LockOptions};
use super::order::{schedule, Planned, Progress, Wait, Waiting};
use super::record;
use super::server;
use mongo_schema_contract::codes::{
    ServerCode, AUTHENTICATION_FAILED, CANNOT_CONVERT_INDEX_TO_UNIQUE, HOST_NOT_FOUND, HOST_UNREACHABLE,
    INDEX_NOT_FOUND, NAMESPACE_EXISTS, NAMESPACE_NOT_FOUND, NETWORK_TIMEOUT, NOT_WRITABLE_PRIMARY,
    PRIMARY_STEPPED_DOWN, SHUTDOWN_IN_PROGRESS, SOCKET_EXCEPTION, UNAUTHORIZED,
};
use mongo_schema_core::bson::{doc, Bson};
use std::error::Error;
use std::fmt;

/// Why `apply` stopped: a migration that failed, or the records or the lock that could
/// not be used. `Display` says what and where; the server's or the driver's error is the
/// [`source`](std::error::Error::source).
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum ApplyError {
    /// A migration failed: a step the server refused or the gate stopped, its record not
    /// written, its file changed since it ran.
    Migration {
        /// The migration.
        migration: String,
        /// What failed: `step 2 of 3 (collMod db_shop.t_user)`, the recording of the migration.
        message: String,
        /// The server's or the driver's error, when a command failed.
        cause: Option<server::CommandError>,
    },
    /// The record collection could not be prepared or read.
    State {
        /// The database holding it (`--state-db`).
        state_db: String,
        /// The server's or the driver's error.
        cause: server::CommandError,
    },
    /// The records of these migrations are kept in another database than the one this run
    /// reads: running every migration again would fail on the newer state, or run a data step
    /// twice.
    StateElsewhere {
        /// The database this run reads, which records none of them.
        state_db: String,
        /// The database that records them.
        found_in: String,
        /// How many of the migrations it records.
        count: usize,
    },
    /// The migration lock could not be taken: another applier held it too long, or the
    /// server refused.
    Lock(LockError),
}

impl ApplyError {
    fn migration(migration: &str, message: String, cause: Option<server::CommandError>) -> Self {
        ApplyError::Migration { migration: migration.to_owned(), message, cause }
    }

    /// The server's or the driver's error, when a command failed.
    fn cause(&self) -> Option<&server::CommandError> {
        match self {
            ApplyError::Migration { cause, .. } => cause.as_ref(),
            ApplyError::State { cause, .. } | ApplyError::Lock(LockError::Server(cause)) => Some(cause),
            ApplyError::StateElsewhere { .. } | ApplyError::Lock(_) => None,
        }
    }

    /// The deployment failed rather than a migration: it could not be reached, refused the
    /// credentials or a privilege (Unauthorized), or the state collection or the lock could
    /// not be used. The CLI exits 2 on these, 1 on a migration that failed.
    pub fn is_deployment_error(&self) -> bool {
        !matches!(self, ApplyError::Migration { .. })
            || matches!(self.cause(), Some(server::CommandError::Driver(_)))
            || self.cause().is_some_and(|e| DEPLOYMENT_CODES.iter().any(|&c| e.is(c)))
    }
}

/// server::Server codes that say the deployment, not the migration, failed.
const DEPLOYMENT_CODES: [ServerCode; 9] = [
    HOST_UNREACHABLE,
    HOST_NOT_FOUND,
    UNAUTHORIZED,
    AUTHENTICATION_FAILED,
    NETWORK_TIMEOUT,
    SHUTDOWN_IN_PROGRESS,
    PRIMARY_STEPPED_DOWN,
    SOCKET_EXCEPTION,
    NOT_WRITABLE_PRIMARY,
];

impl fmt::Display for ApplyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const STATE: &str = record::STATE_COLLECTION;
        match self {
            ApplyError::Migration { migration, message, .. } => write!(f, "migration {migration}: {message}"),
            ApplyError::State { state_db, cause } => {
                write!(f, "cannot use the migration records {state_db}.{STATE}")?;
                if cause.is(UNAUTHORIZED) {
                    write!(
                        f,
                        " (this user cannot use {state_db}: give it readWrite there, or keep the records in a \
                         database it can write, the same for every applier: `--state-db NAME`, \
                         `Migrator::state_db(NAME)`)"
                    )?;
                }
                Ok(())
            }
            ApplyError::StateElsewhere { state_db, found_in: other, count } => write!(
                f,
                "{state_db}.{STATE} records none of these migrations, but {other}.{STATE} \
                 records {count} of them: the records are kept there, and running every migration again here \
                 would fail on the newer state or run a data step twice. Point this run at them (`--state-db \
                 {other}`, or `Migrator::state_db(\"{other}\")`), or move them: copy {other}.{STATE} \
                 into {state_db} (without its `_id: \"lock\"` document) and drop the old one"
            ),
            ApplyError::Lock(e) => e.fmt(f),
        }
    }
}

impl Error for ApplyError {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        match self {
            // the lock's own words are this error's; its cause is the server's
            ApplyError::Lock(e) => e.source(),
            _ => self.cause().map(|e| e as &(dyn Error + 'static)),
        }
    }
}

/// What `apply` did with one migration.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Outcome {
    /// Run and recorded now (the migration's name).
    Applied(String),
    /// Recorded by an earlier run, so skipped (the migration's name).
    AlreadyApplied(String),
    /// Started by an earlier run that stopped after `done` steps: finished now from the
    /// next step and recorded.
    Resumed {
        /// The migration's name.
        name: String,
        /// The steps the earlier run had completed.
        done: usize,
    },
    /// Run and recorded now, except its sharding steps: the deployment has no mongos (a
    /// replica set or a standalone), where `shardCollection` does not exist. They are
    /// recorded as deferred; an `apply` through mongos runs them.
    Deferred {
        /// The migration's name.
        name: String,
        /// The steps skipped (0-based).
        deferred: Vec<usize>,
    },
    /// Applied by an earlier run without mongos; its deferred sharding steps ran now,
    /// through mongos.
    RanDeferred {
        /// The migration's name.
        name: String,
        /// The steps run (0-based).
        steps: Vec<usize>,
    },
    /// Its expand steps ran (now or before); its contract steps wait for a run with
    /// [`ApplyOptions::contract`] (`schema apply --contract`), once the previous release no
    /// longer writes.
    ContractPending {
        /// The migration's name.
        name: String,
        /// The steps done (its expand steps).
        done: usize,
        /// All its steps.
        steps: usize,
    },
    /// Stopped before a step writing to a collection whose validator an earlier migration has
    /// not installed yet (its contract is pending): the validators of a collection are
    /// installed in the order of the files, and a step (a data step too) is written against
    /// the state the migrations before it leave, so this one waits for `apply --contract`,
    /// which runs the earlier contract first. See [`order`](super::order).
    Held {
        /// The migration's name.
        name: String,
        /// The steps done: step `done + 1` is the one that waits.
        done: usize,
        /// The earlier migration whose contract it waits for.
        behind: String,
        /// The collection (`db.collection`) both write to.
        namespace: String,
    },
}

/// Where and how [`apply_with`] keeps its records and takes its lock.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApplyOptions {
    /// The database of the record collection ([`record::DEFAULT_STATE_DB`] for the CLI and
    /// [`Migrator`](super::Migrator) alike).
    pub state_db: String,
    /// The lease taken before anything is read.
    pub lock: LockOptions,
    /// Databases where records of these migrations may have been kept before (the
    /// application's database, where `Migrator` once kept them; the models' databases):
    /// when `state_db` holds no record and one of these does, `apply` stops and names it
    /// instead of running every migration again.
    pub look_elsewhere: Vec<String>,
    /// Run the contract steps too ([`Phase::Contract`](crate::Phase::Contract)): the
    /// previous release no longer writes. Without it each migration stops at its first
    /// contract step (unless its expand created the collection), and later migrations'
    /// steps still run, except those held behind a pending contract. With it, every pending
    /// step runs in the order of the files, except the gated ones (`requireValid`) and the
    /// moves of renamed keys before them, which run last, one migration at a time, so that
    /// every data step of the contract (written before or after the migration whose
    /// validator it prepares) runs before any validator is enforced. The order is
    /// [`order::schedule`](super::order::schedule)'s.
    pub contract: bool,
    /// Run a gated step (`requireValid`) even while stored documents fail the validator it
    /// enforces: every later update of those documents is then refused.
    pub enforce_anyway: bool,
}

impl ApplyOptions {
    /// Records in `state_db`, the default lock, nowhere else to look, the expand phase only.
    pub fn new(state_db: impl Into<String>) -> Self {
        ApplyOptions {
            state_db: state_db.into(),
            lock: LockOptions::default(),
            look_elsewhere: Vec::new(),
            contract: false,
            enforce_anyway: false,
        }
    }
}

/// What [`apply_with`] reports while it works, for a person watching a deploy.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Event {
    /// Another applier holds the lock (its owner): this one waits.
    Waiting(String),
    /// A step starts: `step 2 of 3 (createIndexes db_shop.t_order index ix_a)` of a migration.
    Step {
        /// The migration.
        migration: String,
        /// Where the step stands and what it runs.
        step: String,
    },
    /// The step just started completed, after this long.
    StepDone(std::time::Duration),
    /// The lock was taken after waiting this long for another applier (which finished, or
    /// whose lease expired: a dead instance's is taken over).
    Locked(std::time::Duration),
    /// A new model's collection existed: its validator was installed under `warn` (adopted),
    /// and the server counts this many of its documents failing it.
    Adopted {
        /// `db.collection`.
        namespace: String,
        /// Documents failing the model's validator.
        failing: u64,
        /// Documents in the collection.
        total: u64,
    },
    /// A migration waits before a step writing to a collection whose validator an earlier
    /// migration's pending contract installs first.
    Held {
        /// The migration.
        migration: String,
        /// The step it stopped before (1-based) and what it runs.
        step: String,
        /// The earlier migration whose contract it waits for.
        behind: String,
        /// The collection (`db.collection`).
        namespace: String,
        /// The held migration it waits after, when it waits because that one writes to the
        /// collection first (and is itself held behind `behind`).
        after: Option<String>,
    },
    /// A migration's contract steps on collections its expand created in this run (they did
    /// not exist: no document, no other writer) run now, with its expand: from this step on.
    ContractWithExpand {
        /// The migration.
        migration: String,
        /// The first such step (1-based) and what it runs.
        step: String,
    },
    /// A migration's contract steps wait for `apply --contract`.
    ContractPending {
        /// The migration.
        migration: String,
        /// Its first contract step (1-based) and what it runs.
        step: String,
    },
}

/// Runs every migration of `files` (in order) not yet applied according to `state_db`'s
/// [`record::STATE_COLLECTION`], and records each: started before its first step, its progress
/// after each step, applied after the last. Stops at the first failure with the server's
/// message. Re-running is harmless: applied migrations are skipped, and one a run left
/// unfinished (a failure, a killed process) resumes at the step that did not complete.
///
/// Before running anything, every recorded migration's file is checked against the
/// checksum recorded with it: an applied file that changed is refused. `apply` is
/// [`apply_with`] with the default lock and no other database to look in.
pub fn apply(
    server: &mut dyn server::Server,
    files: &[file::MigrationFile],
    state_db: &str,
) -> Result<Vec<Outcome>, ApplyError> {
    apply_with(server, files, &ApplyOptions::new(state_db), &mut |_| {})
}

/// [`apply`], with the options and a report of each step. The lease
/// ([`lock`](super::lock)) is taken before the records are read and held to the end, so
/// appliers started together run each step once: the first runs the migrations, the others
/// wait and then find nothing left to do.
pub fn apply_with(
    server: &mut dyn server::Server,
    files: &[file::MigrationFile],
    options: &ApplyOptions,
    report: &mut dyn FnMut(Event),
) -> Result<Vec<Outcome>, ApplyError> {
    let started = std::time::Instant::now();
    let mut waited = false;
    let waiting = &mut |holder: &str| {
        waited = true;
        report(Event::Waiting(holder.to_owned()))
    };
    let Locked { server, lease } = Locked::take(server, options, waiting)?;
    if waited {
        report(Event::Locked(started.elapsed()));
    }
    let result = apply_locked(server, files, options, &lease, report);
    lease.release(server);
    result
}

/// The record collection prepared and the lease held: what every applier does first.
struct Locked<'s> {
    server: &'s mut dyn server::Server,
    lease: Lease,
}

impl<'s> Locked<'s> {
    fn take(
        server: &'s mut dyn server::Server,
        options: &ApplyOptions,
        waiting: &mut dyn FnMut(&str),
    ) -> Result<Locked<'s>, ApplyError> {
        let state_db = options.state_db.as_str();
        record::prepare(server, state_db).map_err(state_error(state_db))?;
        let lease = Lease::acquire(server, state_db, options.lock, waiting).map_err(ApplyError::Lock)?;
        Ok(Locked { server, lease })
    }

    /// Runs `work` under the lease, then gives the lease back.
    fn run<T>(self, work: impl FnOnce(&mut dyn server::Server) -> T) -> T {
        let Locked { server, lease } = self;
        let result = work(&mut *server);
        lease.release(server);
        result
    }
}

fn apply_locked(
    server: &mut dyn server::Server,
    files: &[file::MigrationFile],
    options: &ApplyOptions,
    lease: &Lease,
    report: &mut dyn FnMut(Event),
) -> Result<Vec<Outcome>, ApplyError> {
    let (todo, waiting) = runs(server, files, options)?;
    let mut deployment = Deployment::default();
    let mut run = Run { server, deployment: &mut deployment, lease, options, report: &mut *report };
    let mut outcomes: Vec<Option<Outcome>> = vec![None; files.len()];
    for (f, file) in files.iter().enumerate() {
        let Some((_, deferred)) = waiting.iter().find(|(w, _)| w.name == file.name) else { continue };
        let fail = |(message, cause)| ApplyError::migration(&file.name, message, cause);
        let steps = run.deferred(file, deferred).map_err(fail)?;
        outcomes[f] = Some(match steps.is_empty() {
            true => Outcome::AlreadyApplied(file.name.clone()),
            false => Outcome::RanDeferred { name: file.name.clone(), steps },
        });
    }
    let mut runs: Vec<Option<Running>> = files
        .iter()
        .map(|file| {
            let (_, done, recorded, created) = todo.iter().find(|t| t.0.name == file.name)?;
            Some(Running {
                started: *done,
                recorded: *recorded,
                deferred: Vec::new(),
                told: false,
                created: created.clone(),
            })
        })
        .collect();
    let mut progress: Vec<Progress> = files
        .iter()
        .zip(&runs)
        .map(|(file, r)| match r {
            Some(r) => Progress { applied: false, done: r.started, created: r.created.clone() },
            None => Progress { applied: true, done: file.up.len(), created: Vec::new() },
        })
        .collect();
    for (f, file) in files.iter().enumerate() {
        if let (Some(r), false) = (&mut runs[f], progress[f].done < file.up.len()) {
            // nothing left to run (no steps, or a run stopped after its last): mark it applied
            run.finish(file, r)?;
            progress[f].applied = true;
        }
    }
    loop {
        // the order is decided again after each step: a gate that stops, a create that finds
        // its collection, change what follows
        let plan = schedule(files, &progress, options.contract);
        let Some(&next) = plan.order.first() else {
            for w in &plan.waiting {
                outcomes[w.file] = Some(run.waits(files, w));
            }
            break;
        };
        let (file, r) = (&files[next.file], runs[next.file].as_mut().expect("a scheduled migration is pending"));
        run.step(file, next, r, &mut progress[next.file])?;
    }
    for (f, file) in files.iter().enumerate() {
        match (&runs[f], &outcomes[f]) {
            (Some(r), None) if progress[f].applied => outcomes[f] = Some(finished(file, r.started, r.deferred.clone())),
            (_, None) => outcomes[f] = Some(Outcome::AlreadyApplied(file.name.clone())),
            _ => {}
        }
    }
    Ok(outcomes.into_iter().map(|o| o.expect("every migration has an outcome")).collect())
}

/// A pending migration during a run.
struct Running {
    /// Its steps done when the run began.
    started: usize,
    /// Its record exists.
    recorded: bool,
    /// Its sharding steps deferred in this run.
    deferred: Vec<usize>,
    /// The report said its contract runs with its expand.
    told: bool,
    /// As recorded when the run began.
    created: Vec<usize>,
}

/// The outcome of a migration run to its end, which had `done` steps done before this run.
fn finished(file: &file::MigrationFile, done: usize, deferred: Vec<usize>) -> Outcome {
    match (done, deferred.is_empty()) {
        (_, false) => Outcome::Deferred { name: file.name.clone(), deferred },
        (0, true) => Outcome::Applied(file.name.clone()),
        (done, true) => Outcome::Resumed { name: file.name.clone(), done },
    }
}

/// What [`apply`] would run, read without writing anything: each migration not yet applied
/// with the number of its steps already done (0, or where an interrupted run stopped).
/// Fails as `apply` would on a changed file or an empty data migration.
pub fn to_apply<'a>(
    server: &mut dyn server::Server,
    files: &'a [file::MigrationFile],
    state_db: &str,
) -> Result<Vec<(&'a file::MigrationFile, usize)>, ApplyError> {
    to_apply_with(server, files, &ApplyOptions::new(state_db))
}

/// [`to_apply`] with the options (where else records may be).
pub fn to_apply_with<'a>(
    server: &mut dyn server::Server,
    files: &'a [file::MigrationFile],
    options: &ApplyOptions,
) -> Result<Vec<(&'a file::MigrationFile, usize)>, ApplyError> {
    runs(server, files, options).map(|(todo, _)| todo.into_iter().map(|(f, done, ..)| (f, done)).collect())
}

/// What a run with `options` would do from the records as they are, read without writing:
/// the [`schedule`] of `files` (each step assumed to succeed, no collection assumed created).
/// Fails as `apply` would on a changed file or an empty data migration.
pub fn schedule_with(
    server: &mut dyn server::Server,
    files: &[file::MigrationFile],
    options: &ApplyOptions,
) -> Result<super::order::Schedule, ApplyError> {
    let (todo, _) = runs(server, files, options)?;
    let progress: Vec<Progress> = files
        .iter()
        .map(|file| match todo.iter().find(|t| t.0.name == file.name) {
            Some((_, done, _, created)) => Progress { applied: false, done: *done, created: created.clone() },
            None => Progress { applied: true, done: file.up.len(), created: Vec::new() },
        })
        .collect();
    Ok(schedule(files, &progress, options.contract))
}

/// Migrations to run (with the steps already done, whether a record exists, and the steps
/// that created their collection), and applied ones whose sharding steps were deferred (with
/// those steps).
type Runs<'a> = (Vec<(&'a file::MigrationFile, usize, bool, Vec<usize>)>, Vec<(&'a file::MigrationFile, Vec<usize>)>);

fn runs<'a>(
    server: &mut dyn server::Server,
    files: &'a [file::MigrationFile],
    options: &ApplyOptions,
) -> Result<Runs<'a>, ApplyError> {
    let records = records(server, files, options)?;
    let mut todo = Vec::new();
    let mut waiting = Vec::new();
    for file in files {
        let refuse = |message: String| ApplyError::migration(&file.name, message, None);
        let record = records.iter().find(|r| r.migration == file.name);
        if let Some(record) = record {
            record::verify(record, file).map_err(refuse)?;
        }
        match record {
            Some(record) if record.is_applied() && !record.deferred.is_empty() => {
                waiting.push((file, record.deferred.clone()))
            }
            Some(record) if record.is_applied() => {}
            _ if file.kind == file::MigrationKind::Data && file.up.is_empty() => {
                return Err(refuse(
                    "a data migration without steps: write its commands in `up` (see its notes), or delete the file"
                        .to_owned(),
                ))
            }
            Some(record) => todo.push((file, record.done.min(file.up.len()), true, record.created.clone())),
            None => todo.push((file, 0, false, Vec::new())),
        }
    }
    Ok((todo, waiting))
}

/// The records of `options.state_db`; when it holds none of `files`' and a database of
/// `look_elsewhere` does, an error naming that database (running every migration again
/// would fail on the newer state, or run a data step twice).
fn records(
    server: &mut dyn server::Server,
    files: &[file::MigrationFile],
    options: &ApplyOptions,
) -> Result<Vec<record::Record>, ApplyError> {
    let state_db = options.state_db.as_str();
    let records = record::read_records(server, state_db).map_err(state_error(state_db))?;
    let ours =
        |records: &[record::Record]| records.iter().filter(|r| files.iter().any(|f| f.name == r.migration)).count();
    if ours(&records) > 0 {
        return Ok(records);
    }
    for other in options.look_elsewhere.iter().filter(|db| *db != state_db) {
        // a database this user cannot read holds no records of its
        let Ok(found) = record::read_records(server, other) else { continue };
        let count = ours(&found);
        if count > 0 {
            return Err(ApplyError::StateElsewhere { state_db: state_db.to_owned(), found_in: other.clone(), count });
        }
    }
    Ok(records)
}

/// What kind of deployment `apply` talks to, asked once (`hello`) and only when a step
/// needs to know.
#[derive(Default)]
struct Deployment {
    mongos: Option<bool>,
}

impl Deployment {
    /// mongos answers `hello` with `msg: "isdbgrid"`; a replica set member or a standalone
    /// mongod does not.
    fn is_mongos(&mut self, server: &mut dyn server::Server) -> Result<bool, server::CommandError> {
        if let Some(mongos) = self.mongos {
            return Ok(mongos);
        }
        let hello = server.run_command("admin", doc! { "hello": 1 })?;
        let mongos = hello.get_str("msg").is_ok_and(|msg| msg == "isdbgrid");
        self.mongos = Some(mongos);
        Ok(mongos)
    }
}

/// A step only a sharded cluster can run (through mongos): `shardCollection`.
pub fn needs_sharded_cluster(step: &file::FileStep) -> bool {
    step.command.contains_key("shardCollection")
}

/// Reverts the last applied (or partly applied) migration of `files`: runs its `down`
/// steps, then deletes its record, so `status` shows it pending and `apply` runs it again.
/// `Ok(None)` when no migration of `files` is recorded. Refuses a file that changed since
/// it was applied. Nothing is dropped but what the migration's down steps drop (the indexes
/// it created); collections and documents never are. Holds the lock as `apply` does.
pub fn revert(
    server: &mut dyn server::Server,
    files: &[file::MigrationFile],
    state_db: &str,
) -> Result<Option<String>, ApplyError> {
    revert_with(server, files, &ApplyOptions::new(state_db))
}

/// [`revert`] with the options.
pub fn revert_with(
    server: &mut dyn server::Server,
    files: &[file::MigrationFile],
    options: &ApplyOptions,
) -> Result<Option<String>, ApplyError> {
    Locked::take(server, options, &mut |_| {})?.run(|server| revert_locked(server, files, options))
}

fn revert_locked(
    server: &mut dyn server::Server,
    files: &[file::MigrationFile],
    options: &ApplyOptions,
) -> Result<Option<String>, ApplyError> {
    let state_db = options.state_db.as_str();
    let records = records(server, files, options)?;
    let Some((file, record)) =
        files.iter().rev().find_map(|f| records.iter().find(|r| r.migration == f.name).map(|r| (f, r)))
    else {
        return Ok(None);
    };
    let fail = |message: String, cause| ApplyError::migration(&file.name, message, cause);
    record::verify(record, file).map_err(|m| fail(m, None))?;
    for (i, step) in file.down.iter().enumerate() {
        let position = format!("down step {} of {} on {}", i + 1, file.down.len(), step.db);
        match run_step(server, step) {
            // the collection a partly applied migration never created: nothing to restore
            Err(e) if e.is(NAMESPACE_NOT_FOUND) && step.command.contains_key("collMod") => {}
            result => drop(result.map_err(|e| fail(position, Some(e)))?),
        }
    }
    record::delete(server, state_db, &file.name).map_err(|m| fail(format!("reverted, but {m}"), m.cause))?;
    Ok(Some(file.name.clone()))
}

/// How [`resolve`] gets a stuck migration moving.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Resolution {
    /// Record the next step of a partly applied migration as done without running it: it
    /// was done by hand, or it cannot apply here and is not needed. Recorded in the
    /// record's `skipped`.
    SkipStep,
    /// Delete the record of a partly applied migration without running anything: the next
    /// `apply` starts it again from its first step (whose steps are idempotent).
    Forget,
}

/// Resolves migration `name`, which a run left partly applied, as `resolution` says; what
/// was done, for a person. Holds the lock. Refuses a migration that is applied (use
/// [`revert`]) or not recorded.
pub fn resolve(
    server: &mut dyn server::Server,
    files: &[file::MigrationFile],
    options: &ApplyOptions,
    name: &str,
    resolution: Resolution,
) -> Result<String, ApplyError> {
    Locked::take(server, options, &mut |_| {})?.run(|server| resolve_locked(server, files, options, name, resolution))
}

fn resolve_locked(
    server: &mut dyn server::Server,
    files: &[file::MigrationFile],
    options: &ApplyOptions,
    name: &str,
    resolution: Resolution,
) -> Result<String, ApplyError> {
    let state_db = options.state_db.as_str();
    let refuse = |message: String| ApplyError::migration(name, message, None);
    let file = files.iter().find(|f| f.name == name).ok_or_else(|| refuse("no such migration file".to_owned()))?;
    let records = records(server, files, options)?;
    let record = records
        .iter()
        .find(|r| r.migration == name)
        .ok_or_else(|| refuse(format!("not recorded in {state_db}: `schema apply` runs it; nothing to resolve")))?;
    record::verify(record, file).map_err(refuse)?;
    if record.is_applied() {
        return Err(refuse("applied: nothing to resolve (`schema revert` undoes the last migration)".to_owned()));
    }
    match resolution {
        Resolution::SkipStep => {
            let done = record.done.min(file.up.len());
            let step = file.up.get(done).ok_or_else(|| refuse("every step ran".to_owned()))?;
            record::skip(server, state_db, name, done, done + 1 == file.up.len()).map_err(unrecorded(name))?;
            Ok(format!(
                "{name}: step {} of {} ({}) recorded as done without running it; `schema apply` goes on from step {}",
                done + 1,
                file.up.len(),
                describe(step),
                done + 2
            ))
        }
        Resolution::Forget => {
            record::delete(server, state_db, name).map_err(unrecorded(name))?;
            Ok(format!(
                "{name}: its record (after {} of {} steps) is deleted; `schema apply` runs it again from step 1",
                record.done,
                file.up.len()
            ))
        }
    }
}

/// Where each migration of `files` stands on the deployment, then the records whose file is
/// not in `files`: what `schema status` prints. Reads only.
pub fn status(
    server: &mut dyn server::Server,
    files: &[file::MigrationFile],
    state_db: &str,
) -> Result<Vec<record::Status>, ApplyError> {
    status_with(server, files, &ApplyOptions::new(state_db))
}

/// [`status`] with the options (where else records may be).
pub fn status_with(
    server: &mut dyn server::Server,
    files: &[file::MigrationFile],
    options: &ApplyOptions,
) -> Result<Vec<record::Status>, ApplyError> {
    let records = records(server, files, options)?;
    Ok(record::status_of(&records, files))
}

fn state_error(state_db: &str) -> impl Fn(server::CommandError) -> ApplyError + '_ {
    move |cause| ApplyError::State { state_db: state_db.to_owned(), cause }
}

/// A record of `name` that could not be written, as an [`ApplyError`] keeping the cause.
fn unrecorded(name: &str) -> impl Fn(record::WriteFailed) -> ApplyError + '_ {
    move |e| ApplyError::migration(name, e.message, e.cause)
}

/// One applier's run, under its lease.
struct Run<'r> {
    server: &'r mut dyn server::Server,
    deployment: &'r mut Deployment,
    lease: &'r Lease,
    options: &'r ApplyOptions,
    report: &'r mut dyn FnMut(Event),
}

impl Run<'_> {
    /// Runs step `next` of `file` and records it (the migration first when no earlier run
    /// recorded it); what failed, with the server's error. A contract step run with the
    /// expand (its collection created here) whose gate finds failing documents is not an
    /// error: `progress` no longer counts the collection created, so the contract waits.
    fn step(
        &mut self,
        file: &file::MigrationFile,
        next: Planned,
        running: &mut Running,
        progress: &mut Progress,
    ) -> Result<(), ApplyError> {
        let fail = |message: String, cause| ApplyError::migration(&file.name, message, cause);
        let (server, state_db) = (&mut *self.server, self.options.state_db.as_str());
        let (i, steps, step) = (next.step, file.up.len(), &file.up[next.step]);
        let position = || format!("step {} of {steps} ({})", i + 1, describe(step));
        if !running.recorded {
            record::start(server, state_db, file).map_err(|m| fail(format!("not started: {m}"), m.cause))?;
            running.recorded = true;
        }
        // a lease lost to another applier: stop before running anything more
        self.lease.renew(server).map_err(|e| {
            let cause = match &e {
                LockError::Server(c) => Some(c.clone()),
                _ => None,
            };
            fail(format!("{}: not run: {e}", position()), cause)
        })?;
        let here = !needs_sharded_cluster(step)
            || self
                .deployment
                .is_mongos(server)
                .map_err(|e| fail(format!("{} (asking the deployment `hello`)", position()), Some(e)))?;
        let mut created = None;
        if here {
            if !self.options.enforce_anyway {
                let gated = match super::order::moves_before_gate(file, i) {
                    // keys moved before a gate: counted as they will be after the moves first,
                    // so the gate never stops with moved documents the validator in force refuses
                    Some((at, moves)) => pre_gate(server, &file.up[at], &moves),
                    None if step.require_valid => gate(server, step),
                    None => Ok(()),
                };
                match gated {
                    Err((_, None)) if next.with_expand => {
                        // documents there after all: its contract waits, as any other
                        let touched = super::order::writes(step);
                        progress.created.retain(|&c| {
                            file.up[c]
                                .validated()
                                .is_none_or(|(d, n)| !touched.iter().any(|(td, tn)| td == d && tn == n))
                        });
                        return Ok(());
                    }
                    result => result.map_err(|(message, cause)| fail(format!("{}: {message}", position()), cause))?,
                }
            }
            if next.with_expand && !running.told {
                running.told = true;
                (self.report)(Event::ContractWithExpand { migration: file.name.clone(), step: position() });
            }
            (self.report)(Event::Step { migration: file.name.clone(), step: position() });
            let started = std::time::Instant::now();
            let adopted =
                run_step(server, step).map_err(|e| fail(format!("{}{}", position(), hint(step, &e)), Some(e)))?;
            (self.report)(Event::StepDone(started.elapsed()));
            if let Some(fallback) = adopted.then_some(step.if_namespace_exists.as_ref()).flatten() {
                adoption(server, step, fallback, &mut *self.report);
            }
            // the collection did not exist: nothing is stored there, nothing else writes there
            created = (!adopted && step.command.contains_key("create") && step.validated().is_some()).then_some(i);
        } else {
            record::defer(server, state_db, &file.name, i, true)
                .map_err(|m| fail(format!("{}: recording it as deferred failed: {m}", position()), m.cause))?;
            running.deferred.push(i);
        }
        let recorded = record::progress(server, state_db, &file.name, i + 1, i + 1 == steps, created);
        recorded.map_err(|m| fail(format!("step {} of {steps} ran, but recording it failed: {m}", i + 1), m.cause))?;
        progress.done = i + 1;
        progress.applied = i + 1 == steps;
        progress.created.extend(created);
        Ok(())
    }

    /// A migration with no step left to run, recorded as applied.
    fn finish(&mut self, file: &file::MigrationFile, running: &mut Running) -> Result<(), ApplyError> {
        let fail = |message: String, cause| ApplyError::migration(&file.name, message, cause);
        let (server, state_db) = (&mut *self.server, self.options.state_db.as_str());
        if !running.recorded {
            record::start(server, state_db, file).map_err(|m| fail(format!("not started: {m}"), m.cause))?;
            running.recorded = true;
        }
        let steps = file.up.len();
        record::progress(server, state_db, &file.name, steps, true, None)
            .map_err(|m| fail(format!("recording it as applied failed: {m}"), m.cause))
    }

    /// A migration left waiting: told to the report, and its outcome.
    fn waits(&mut self, files: &[file::MigrationFile], waiting: &Waiting) -> Outcome {
        let file = &files[waiting.file];
        let at = waiting.step;
        let step = format!("step {} of {} ({})", at + 1, file.up.len(), describe(&file.up[at]));
        match &waiting.wait {
            Wait::Behind { contract, namespace: (db, collection), via, .. } => {
                let (behind, namespace) = (files[*contract].name.clone(), format!("{db}.{collection}"));
                let after = via.map(|v| files[v].name.clone());
                (self.report)(Event::Held {
                    migration: file.name.clone(),
                    step,
                    behind: behind.clone(),
                    namespace: namespace.clone(),
                    after,
                });
                Outcome::Held { name: file.name.clone(), done: at, behind, namespace }
            }
            _ => {
                (self.report)(Event::ContractPending { migration: file.name.clone(), step });
                Outcome::ContractPending { name: file.name.clone(), done: at, steps: file.up.len() }
            }
        }
    }
}

/// The gate of `gated`, counted before the keys it follows are moved: the documents that
/// will fail its validator once `moves` are made.
fn pre_gate(
    server: &mut dyn server::Server,
    gated: &file::FileStep,
    moves: &[(String, String)],
) -> Result<(), (String, Option<server::CommandError>)> {
    let (collection, validator) =
        enforced(gated).ok_or_else(|| ("a gated step without a validator".to_owned(), None))?;
    let (failing, total, ids) = super::gate::failing_after_moves(server, &gated.db, collection, validator, moves)
        .map_err(|e| ("counting the documents that would fail the validator it enforces".to_owned(), Some(e)))?;
    if failing == 0 {
        return Ok(());
    }
    let ns = format!("{}.{collection}", gated.db);
    let moved: Vec<String> = moves.iter().map(|(to, from)| format!("`{from}` to `{to}`")).collect();
    let olds: Vec<String> = moves.iter().map(|(_, from)| format!("`{from}`")).collect();
    let ids: Vec<String> = ids.into_iter().map(|id| id.into_relaxed_extjson().to_string()).collect();
    Err((
        format!(
            "not run: it moves {} before enforcing the model's validator, and {failing} of {total} documents of {ns} \
             would fail that validator once moved (e.g. _id {}). Nothing was moved, so the validator in force still \
             admits them and the running release's writes to them are accepted. Fix them where they are (a document \
             the previous release wrote still holds {}; `schema check --uri \"$MONGODB_URI\" --collection {ns}` \
             explains each), then run `schema apply --contract` again, which resumes here. To move and enforce \
             anyway (every later update of those documents is then refused): `schema apply --contract \
             --enforce-anyway`",
            moved.join(", "),
            ids.join(", "),
            olds.join(", ")
        ),
        None,
    ))
}

impl Run<'_> {
    /// The deferred sharding steps of an applied migration, run when the deployment is a
    /// sharded cluster; none (and nothing sent but `hello`) elsewhere.
    fn deferred(
        &mut self,
        file: &file::MigrationFile,
        deferred: &[usize],
    ) -> Result<Vec<usize>, (String, Option<server::CommandError>)> {
        let (server, state_db) = (&mut *self.server, self.options.state_db.as_str());
        let mongos =
            self.deployment.is_mongos(server).map_err(|e| ("asking the deployment `hello`".to_owned(), Some(e)))?;
        if !mongos {
            return Ok(Vec::new());
        }
        let mut ran = Vec::new();
        for &i in deferred {
            let Some(step) = file.up.get(i) else { continue };
            let position = format!("deferred step {} of {} ({})", i + 1, file.up.len(), describe(step));
            run_step(server, step).map_err(|e| (format!("{position}{}", hint(step, &e)), Some(e)))?;
            record::defer(server, state_db, &file.name, i, false)
                .map_err(|m| (format!("{position} ran, but recording it failed: {m}"), m.cause))?;
            ran.push(i);
        }
        Ok(ran)
    }
}

/// The gate before a step that enforces a validator: the server counts the stored documents
/// failing it; any, and the step does not run.
fn gate(server: &mut dyn server::Server, step: &file::FileStep) -> Result<(), (String, Option<server::CommandError>)> {
    let (collection, validator) =
        enforced(step).ok_or_else(|| ("a gated step without a validator".to_owned(), None))?;
    let (failing, total) = super::gate::failing(server, &step.db, collection, validator)
        .map_err(|e| ("counting the documents that fail the validator it enforces".to_owned(), Some(e)))?;
    if failing == 0 {
        return Ok(());
    }
    let ns = format!("{}.{collection}", step.db);
    Err((
        format!(
            "not run: it enforces the model's validator, and {failing} of {total} documents of {ns} fail it. `schema \
             check --uri \"$MONGODB_URI\" --collection {ns}` lists them with a fix for each; fix them (a data \
             migration), then run `schema apply --contract` again, which resumes here. To enforce anyway (every later \
             update of those documents is then refused): `schema apply --contract --enforce-anyway`"
        ),
        None,
    ))
}

/// The collection and the validator a `collMod` step installs.
fn enforced(step: &file::FileStep) -> Option<(&str, &mongo_schema_core::bson::Document)> {
    Some((step.command.get_str("collMod").ok()?, step.command.get_document("validator").ok()?))
}

/// After a new model's collection was found to exist: how many of its documents fail the
/// validator just installed under `warn`, told to the report; a failed count is not an error
/// (the migration did what it does).
fn adoption(
    server: &mut dyn server::Server,
    step: &file::FileStep,
    fallback: &mongo_schema_core::bson::Document,
    report: &mut dyn FnMut(Event),
) {
    let (Ok(collection), Ok(validator)) = (fallback.get_str("collMod"), fallback.get_document("validator")) else {
        return;
    };
    if validator.is_empty() {
        return;
    }
    if let Ok((failing, total)) = super::gate::failing(server, &step.db, collection, validator) {
        report(Event::Adopted { namespace: format!("{}.{collection}", step.db), failing, total });
    }
}

/// `collMod db_app.t_session index ix_email`: what a step runs on what.
fn describe(step: &file::FileStep) -> String {
    let Some((verb, target)) = step.command.iter().next() else { return format!("an empty command on {}", step.db) };
    let target = match target.as_str() {
        Some(collection) if verb != "shardCollection" => format!("{}.{collection}", step.db),
        Some(namespace) => namespace.to_owned(),
        None => step.db.clone(),
    };
    let index = match step.command.get("index") {
        Some(Bson::String(name)) => format!(" index {name}"),
        Some(Bson::Document(spec)) => spec.get_str("name").map(|n| format!(" index {n}")).unwrap_or_default(),
        Some(Bson::Array(names)) => format!(" indexes {}", Bson::Array(names.clone())),
        _ => String::new(),
    };
    format!("{verb} {target}{index}")
}

/// What to do about a refused step, where the cause is a usual one: a missing role, or
/// duplicates that keep an index from becoming unique.
fn hint(step: &file::FileStep, e: &server::CommandError) -> String {
    let unauthorized = e.is(UNAUTHORIZED);
    match () {
        _ if e.is(CANNOT_CONVERT_INDEX_TO_UNIQUE) => " (documents share a key of this index: find them with an \
             aggregation grouping on the index's keys, remove or change the duplicates, then run apply again, \
             which resumes here; meanwhile the index refuses new duplicates: prepareUnique)"
            .to_owned(),
        _ if unauthorized && (step.command.contains_key("collMod") || step.if_namespace_exists.is_some()) => format!(
            " (installing a validator on an existing collection runs collMod, which needs the dbAdmin \
             role, or a role with the collMod action, on {}: readWrite is not enough)",
            step.db
        ),
        _ if unauthorized && needs_sharded_cluster(step) => " (shardCollection needs the clusterManager role, \
             or enableSharding on the database: an application's readWrite user cannot shard)"
            .to_owned(),
        _ => String::new(),
    }
}

/// Runs a step; whether it ran its `ifNamespaceExists` fallback (the collection existed).
fn run_step(server: &mut dyn server::Server, step: &file::FileStep) -> Result<bool, server::CommandError> {
    let mut fell_back = false;
    let reply = match (server.run_command(&step.db, step.command.clone()), &step.if_namespace_exists) {
        (Err(e), Some(fallback)) if e.is(NAMESPACE_EXISTS) => {
            fell_back = true;
            server.run_command(&step.db, fallback.clone())
        }
        // an index already dropped: re-running a drop-and-create is harmless
        (Err(e), _) if e.is(INDEX_NOT_FOUND) && step.command.contains_key("dropIndexes") => return Ok(false),
        (result, _) => result,
    }?;
    // a data step's insert, update or delete reports failed writes in an `ok: 1` reply
    match record::write_error(&reply) {
        Some(e) => Err(e),
        None => Ok(fell_back),
    }
}

// The names this module re-exported before the port, the file model, the records and drift
// had their own modules: deprecated for one release, then removed. `#[deprecated]` has no
// effect on a `pub use`, so each is an alias or a wrapper that warns where it is used.

/// Deprecated: the port is [`server::Server`]. A trait has no alias, so this path is a plain
/// re-export (no warning where it is used); it goes in the next release with the others.
#[doc(hidden)]
pub use super::server::Server;
/// Deprecated: moved to [`server::CommandError`].
#[deprecated(note = "use `mongo_schema::migrate::server::CommandError`")]
pub type CommandError = server::CommandError;
/// Deprecated: moved to [`file::MigrationFile`].
#[deprecated(note = "use `mongo_schema::migrate::file::MigrationFile`")]
pub type MigrationFile = file::MigrationFile;
/// Deprecated: moved to [`file::FileStep`].
#[deprecated(note = "use `mongo_schema::migrate::file::FileStep`")]
pub type FileStep = file::FileStep;
/// Deprecated: moved to [`file::MigrationKind`].
#[deprecated(note = "use `mongo_schema::migrate::file::MigrationKind`")]
pub type MigrationKind = file::MigrationKind;
/// Deprecated: moved to [`file::MigrationFileError`].
#[deprecated(note = "use `mongo_schema::migrate::file::MigrationFileError`")]
pub type MigrationFileError = file::MigrationFileError;
/// Deprecated: moved to [`drift::DriftStatus`](super::drift::DriftStatus).
#[deprecated(note = "use `mongo_schema::migrate::drift::DriftStatus`")]
pub type DriftStatus = super::drift::DriftStatus;
/// Deprecated: moved to [`record::DEFAULT_STATE_DB`].
#[deprecated(note = "use `mongo_schema::migrate::record::DEFAULT_STATE_DB`")]
pub const DEFAULT_STATE_DB: &str = record::DEFAULT_STATE_DB;
/// Deprecated: moved to [`record::STATE_COLLECTION`].
#[deprecated(note = "use `mongo_schema::migrate::record::STATE_COLLECTION`")]
pub const STATE_COLLECTION: &str = record::STATE_COLLECTION;

/// Deprecated: moved to [`drift::drift`](super::drift::drift).
#[deprecated(note = "use `mongo_schema::migrate::drift::drift`")]
pub fn drift(
    server: &mut dyn server::Server,
    models: &[mongo_schema_core::model::Model],
) -> Result<Vec<(mongo_schema_core::model::Model, super::drift::DriftStatus)>, server::CommandError> {
    super::drift::drift(server, models)
}
