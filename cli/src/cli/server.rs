//! `schema apply`, `status`, `revert` and `drift`: the subcommands that talk to a deployment, through
//! [`MongoServer`] (feature `driver`), printed for people, with exit codes.

use super::json::{compact, shown_time, ApplyReport, DriftReport, DryRunReport, StatusReport};
use super::rehearse;
use super::shared::{chain, Exit, Output};
use clap::{Args, Subcommand};
use mongo_schema_core::bson::Bson;
use mongo_schema_migrate::apply::{
    apply_with, resolve, revert_with, schedule_with, status_with, to_apply_with, ApplyError, ApplyOptions, Event,
    Outcome, Resolution,
};
use mongo_schema_migrate::drift::{drift, DriftStatus};
use mongo_schema_migrate::driver::MongoServer;
use mongo_schema_migrate::file::MigrationFile;
use mongo_schema_migrate::gate::{enforced_failing, validated_namespaces};
use mongo_schema_migrate::lock::LockOptions;
use mongo_schema_migrate::order::Wait;
use mongo_schema_migrate::record::State;
use mongo_schema_migrate::record::DEFAULT_STATE_DB;
use mongo_schema_migrate::server::Server;
use mongo_schema_migrate::{pending, Model, Phase};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The deployment and the migrations: what `apply`, `status` and `revert` share.
#[derive(Args)]
pub(crate) struct Target {
    /// The deployment; its password is never printed (not even by `--help`).
    #[arg(long, env = "MONGODB_URI", hide_env_values = true)]
    uri: String,
    #[arg(long, default_value = "migrations")]
    dir: PathBuf,
    /// The database holding t_schema_migration, the same for every applier (`Migrator` too);
    /// a user with readWrite on one database: that one.
    #[arg(long, default_value = DEFAULT_STATE_DB)]
    state_db: String,
    /// Seconds to wait while another applier holds the migration lock.
    #[arg(long, default_value_t = 600)]
    lock_wait: u64,
    /// Seconds the lock lasts unless renewed (it is renewed while this run works): how long a
    /// crashed applier blocks the others at most.
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..))]
    lock_lease: u64,
}

impl Target {
    /// Where records are kept, the lock, and where else they may be: the models' databases
    /// (where applications once kept them).
    fn options(&self, models: &[Model]) -> ApplyOptions {
        let mut elsewhere: Vec<String> = models.iter().map(|m| m.db.clone()).collect();
        elsewhere.sort();
        elsewhere.dedup();
        ApplyOptions {
            state_db: self.state_db.clone(),
            lock: LockOptions {
                lease: std::time::Duration::from_secs(self.lock_lease),
                wait: std::time::Duration::from_secs(self.lock_wait),
            },
            look_elsewhere: elsewhere,
            contract: false,
            enforce_anyway: false,
        }
    }
}

/// `apply`, `status`, `revert` and `drift`: commands that talk to a deployment.
#[derive(Subcommand)]
pub(crate) enum ServerCommand {
    /// Run the directory's pending migrations in order, recording each in t_schema_migration.
    Apply {
        #[command(flatten)]
        target: Target,
        /// Print what would run and write nothing.
        #[arg(long)]
        dry_run: bool,
        /// Run the contract steps too (keys moved to their new names, the models' validators
        /// enforced): only once no instance of the previous release writes.
        #[arg(long)]
        contract: bool,
        /// With --contract: enforce a validator even while stored documents fail it (every
        /// later update of those documents is then refused).
        #[arg(long, requires = "contract")]
        enforce_anyway: bool,
        /// `json`: what was done with each migration as one JSON document (no progress lines).
        #[arg(long, value_enum, default_value_t = Output::Text)]
        format: Output,
    },
    /// List the directory's migrations as applied, partly applied, pending or changed.
    Status {
        #[command(flatten)]
        target: Target,
        /// `json`: one JSON document.
        #[arg(long, value_enum, default_value_t = Output::Text)]
        format: Output,
    },
    /// Run the down steps of the last applied migration and delete its record.
    Revert {
        #[command(flatten)]
        target: Target,
    },
    /// Get a partly applied migration whose next step cannot succeed moving again.
    Resolve {
        /// The migration (its file name without `.json`).
        name: String,
        /// Record its next step as done without running it (done by hand, or not needed here).
        #[arg(long, conflicts_with = "forget", required_unless_present = "forget")]
        skip_step: bool,
        /// Delete its record without running anything: `apply` runs it again from step 1.
        #[arg(long)]
        forget: bool,
        #[command(flatten)]
        target: Target,
    },
    /// Compare each deployed validator (listCollections) with the code's.
    Drift {
        /// The deployment; its password is never printed (not even by `--help`).
        #[arg(long, env = "MONGODB_URI", hide_env_values = true)]
        uri: String,
        /// `json`: one JSON document.
        #[arg(long, value_enum, default_value_t = Output::Text)]
        format: Output,
    },
}

impl ServerCommand {
    pub(crate) fn needs_models(&self) -> bool {
        matches!(self, ServerCommand::Drift { .. })
    }

    pub(crate) fn run(self, models: &[Model], out: &mut dyn Write) -> Result<i32, Exit> {
        match self {
            ServerCommand::Apply { target, dry_run, contract, enforce_anyway, format } => {
                let files = read_dir(&target.dir)?;
                let server = &mut connect(&target.uri)?;
                let options = ApplyOptions { contract, enforce_anyway, ..target.options(models) };
                match dry_run {
                    true => run_dry_run(server, &files, &options, format, out),
                    false => run_apply(server, &files, &options, format, out),
                }
            }
            ServerCommand::Status { target, format } => {
                let files = read_dir(&target.dir)?;
                let options = target.options(models);
                run_status(&mut connect(&target.uri)?, &files, &target.dir, &options, format, out)
            }
            ServerCommand::Revert { target } => {
                let files = read_dir(&target.dir)?;
                run_revert(&mut connect(&target.uri)?, &files, &target.options(models), out)
            }
            ServerCommand::Resolve { name, skip_step, forget: _, target } => {
                let files = read_dir(&target.dir)?;
                let resolution = if skip_step { Resolution::SkipStep } else { Resolution::Forget };
                let server = &mut connect(&target.uri)?;
                let done = resolve(server, &files, &target.options(models), &name, resolution).map_err(failed)?;
                writeln!(out, "{done}")?;
                Ok(0)
            }
            ServerCommand::Drift { uri, format } => run_drift(&mut connect(&uri)?, models, format, out),
        }
    }
}

pub(crate) fn connect(uri: &str) -> Result<MongoServer, Exit> {
    MongoServer::connect(uri).map_err(|e| Exit(2, format!("cannot connect: {}", chain(&e))))
}

/// The migration files of `dir` in the order they apply; a missing directory is an error.
pub(crate) fn read_dir(dir: &Path) -> Result<Vec<MigrationFile>, Exit> {
    if !dir.is_dir() {
        // "0 applied" would read as success
        let message = format!(
            "no migrations directory at {}: pass the directory `schema migrate --dir` wrote (default `migrations`)",
            dir.display()
        );
        return Err(Exit(2, message));
    }
    let files = pending(dir).map_err(|e| Exit(2, chain(&e)))?;
    files.iter().map(|p| MigrationFile::read(p)).collect::<Result<Vec<_>, _>>().map_err(|e| Exit(2, chain(&e)))
}

/// A failed migration exits 1 (a finding); a deployment that could not be reached, refused
/// a privilege, or whose records or lock could not be used exits 2 (an error).
fn failed(e: ApplyError) -> Exit {
    Exit(if e.is_deployment_error() { 2 } else { 1 }, chain(&e))
}

/// `schema apply` over any server: prints each step as it starts and how long it took, then
/// what ran; exit 1 at the first failed migration, 2 when the deployment failed.
pub(crate) fn run_apply(
    server: &mut dyn Server,
    migrations: &[MigrationFile],
    options: &ApplyOptions,
    format: Output,
    out: &mut dyn Write,
) -> Result<i32, Exit> {
    if format == Output::Json {
        let outcomes = apply_with(server, migrations, options, &mut |_| {}).map_err(failed)?;
        writeln!(out, "{}", compact(&ApplyReport::new(&outcomes)))?;
        return Ok(0);
    }
    let mut report = |event: Event| {
        let _ = match event {
            Event::Waiting(holder) => {
                writeln!(out, "waiting for the migration lock, held by {holder} (another applier is running)")
            }
            Event::Step { migration, step } => writeln!(out, "running {migration}: {step} ..."),
            Event::StepDone(took) => writeln!(out, "  done in {:.1}s", took.as_secs_f64()),
            Event::Locked(waited) => writeln!(out, "took the migration lock after {:.1}s", waited.as_secs_f64()),
            Event::Adopted { namespace, failing, total } => writeln!(
                out,
                "  {namespace} existed: adopted under validationAction warn; {failing} of {total} documents fail \
                 the model's validator today{}",
                if failing > 0 {
                    format!(" (`schema check --uri \"$MONGODB_URI\" --collection {namespace}` lists them)")
                } else {
                    String::new()
                }
            ),
            Event::Held { migration, step, behind, namespace, after } => writeln!(
                out,
                "{migration}: {step} waits for the contract of {behind}, which installs {namespace}'s validator \
                 first{}: it was written against the state that contract leaves (`schema apply --contract` runs \
                 them in order, once no instance of the previous release writes)",
                after.map(|a| format!(" (after {a}, held behind it too)")).unwrap_or_default()
            ),
            Event::ContractWithExpand { migration, step } => writeln!(
                out,
                "{migration}: its contract ({step} on) runs now: this run created the collection, which holds no \
                 document and no other release writes to"
            ),
            Event::ContractPending { migration, step } => writeln!(
                out,
                "{migration}: the contract ({step} on) waits: run `schema apply --contract` once no instance of the \
                 previous release writes"
            ),
            // `Event` is `non_exhaustive`: an event this CLI predates is still said
            other => writeln!(out, "{other:?}"),
        };
        let _ = out.flush();
    };
    let outcomes = apply_with(server, migrations, options, &mut report).map_err(failed)?;
    let mut ran = 0;
    let mut waiting = 0;
    for outcome in &outcomes {
        match outcome {
            Outcome::Applied(name) => writeln!(out, "applied {name}")?,
            Outcome::AlreadyApplied(name) => writeln!(out, "already applied {name}")?,
            Outcome::Resumed { name, done } => {
                writeln!(out, "applied {name} (resumed after step {done}, where an earlier run stopped)")?
            }
            Outcome::Deferred { name, deferred } => writeln!(out, "applied {name}{}", deferred_note(deferred))?,
            Outcome::RanDeferred { name, steps } => {
                let steps: Vec<String> = steps.iter().map(|i| (i + 1).to_string()).collect();
                writeln!(
                    out,
                    "applied {name}: its sharding steps {} (deferred until now: no mongos before)",
                    steps.join(", ")
                )?
            }
            Outcome::ContractPending { name, done, steps } => {
                writeln!(out, "expanded {name} ({done} of {steps} steps; its contract waits for `--contract`)")?
            }
            Outcome::Held { name, done, behind, namespace } => writeln!(
                out,
                "waiting {name} ({done} steps done; step {} waits for the contract of {behind} on {namespace})",
                done + 1
            )?,
            // `Outcome` is `non_exhaustive`: a kind this CLI predates is still said
            other => writeln!(out, "{other:?}")?,
        }
        ran += usize::from(!matches!(outcome, Outcome::AlreadyApplied(_)));
        waiting += usize::from(matches!(outcome, Outcome::ContractPending { .. } | Outcome::Held { .. }));
    }
    let already = outcomes.iter().filter(|o| matches!(o, Outcome::AlreadyApplied(_))).count();
    match waiting {
        0 => writeln!(out, "{ran} applied, {already} already applied")?,
        n => writeln!(
            out,
            "{ran} applied, {already} already applied, {n} with a contract pending (`schema apply --contract`)"
        )?,
    }
    Ok(0)
}

/// `schema apply --dry-run`: each step that would run, read from the record collection
/// without writing (not even its index), then the pending data steps rehearsed over the
/// deployment's documents and the validators' shapes; exit 1 when one would be refused.
pub(crate) fn run_dry_run(
    server: &mut dyn Server,
    migrations: &[MigrationFile],
    options: &ApplyOptions,
    format: Output,
    out: &mut dyn Write,
) -> Result<i32, Exit> {
    let todo = to_apply_with(server, migrations, options).map_err(failed)?;
    let plan = schedule_with(server, migrations, options).map_err(failed)?;
    // the first step of each migration that waits behind an earlier contract, and which
    let held = |name: &str| {
        plan.waiting.iter().find_map(|w| match &w.wait {
            Wait::Behind { contract, namespace: (db, collection), .. } if migrations[w.file].name == name => {
                Some((w.step, format!("{} on {db}.{collection}", migrations[*contract].name)))
            }
            _ => None,
        })
    };
    let touched: Vec<MigrationFile> = todo.iter().map(|(f, _)| (*f).clone()).collect();
    let mut samples = crate::simulate::Samples::default();
    rehearse::from_server(server, &rehearse::namespaces(&touched), DRY_RUN_SAMPLE, &mut samples)?;
    let progress = rehearse::progress(server, &options.state_db, migrations)?;
    let rehearsal = crate::simulate::rehearse(migrations, &progress, &samples);
    let refused = rehearsal.refused().count();
    if format == Output::Json {
        writeln!(out, "{}", compact(&DryRunReport::new(&todo, migrations.len(), &rehearsal)))?;
        return Ok(i32::from(refused > 0));
    }
    for (file, done) in &todo {
        let steps = file.up.len();
        match done {
            0 => writeln!(out, "would apply {} ({steps} steps):", file.name)?,
            done => writeln!(out, "would resume {} at step {} of {steps}:", file.name, done + 1)?,
        }
        for (i, step) in file.up.iter().enumerate().skip(*done) {
            let (verb, target) = step.command.iter().next().map(|(k, v)| (k.as_str(), v)).unwrap_or(("?", &Bson::Null));
            let target = target.as_str().map(|t| format!(" {t}")).unwrap_or_default();
            let fallback = if step.if_namespace_exists.is_some() { " (collMod when it exists)" } else { "" };
            let phase = match (step.phase, options.contract) {
                (Phase::Contract, false) => " (contract: waits for --contract)",
                (Phase::Contract, true) => " (contract)",
                _ => "",
            };
            let gate = if step.require_valid { " (only when no stored document fails its validator)" } else { "" };
            let waits = match held(&file.name) {
                Some((at, contract)) if i >= at => format!(" (waits for the contract of {contract})"),
                _ => String::new(),
            };
            writeln!(out, "  {}. {}: {verb}{target}{fallback}{phase}{gate}{waits}", i + 1, step.db)?;
            writeln!(out, "     {}", Bson::Document(step.command.clone()).into_relaxed_extjson())?;
        }
    }
    writeln!(out, "{} to apply, {} already applied; nothing was written", todo.len(), migrations.len() - todo.len())?;
    rehearse::print(&rehearsal, out)?;
    Ok(i32::from(refused > 0))
}

/// Documents `apply --dry-run` `$sample`s from each collection the pending migrations touch.
const DRY_RUN_SAMPLE: u32 = 1000;

/// `schema status`: one line per migration; exit 1 when an applied file changed.
pub(crate) fn run_status(
    server: &mut dyn Server,
    migrations: &[MigrationFile],
    dir: &Path,
    options: &ApplyOptions,
    format: Output,
    out: &mut dyn Write,
) -> Result<i32, Exit> {
    let lines = status_with(server, migrations, options).map_err(|e| Exit(2, chain(&e)))?;
    let namespaces = validated_namespaces(migrations.iter().flat_map(|m| &m.up));
    let failing =
        enforced_failing(server, &namespaces).map_err(|e| Exit(2, format!("counting documents: {}", chain(&e))))?;
    let changed = lines.iter().any(|l| matches!(l.state, Some(State::Changed(_)))) || !failing.is_empty();
    if format == Output::Json {
        let report = StatusReport::new(&options.state_db, &lines, &failing, dir);
        writeln!(out, "{}", compact(&report))?;
        return Ok(i32::from(changed));
    }
    let mut changed = !failing.is_empty();
    for line in &lines {
        let name = &line.name;
        match &line.state {
            Some(State::Applied { at, verified, deferred }) => {
                let unverified = if *verified { "" } else { " (no checksum: recorded by an older version)" };
                writeln!(out, "applied  {name}  {}{unverified}{}", shown_time(at), deferred_note(deferred))?
            }
            Some(State::Partial { done, steps }) => writeln!(
                out,
                "partial  {name}  {done} of {steps} steps (a run stopped; `schema apply` resumes it at step {}; if \
                 that step cannot succeed, fix its cause, or `schema resolve {name} --skip-step` once it is done by \
                 hand, or `schema revert`)",
                done + 1
            )?,
            Some(State::Pending) => writeln!(out, "pending  {name}")?,
            Some(State::ContractPending { done, steps }) => writeln!(
                out,
                "contract pending  {name}  {done} of {steps} steps (its expand ran; `schema apply --contract` runs the \
                 rest once no instance of the previous release writes)"
            )?,
            Some(State::Held { done, steps, at, behind, namespace }) => writeln!(
                out,
                "held  {name}  {done} of {steps} steps (step {} waits for the contract of {behind} on {namespace}: it \
                 was written against the state that contract leaves; `schema apply --contract` runs them in order once \
                 no instance of the previous release writes)",
                at + 1
            )?,
            Some(State::Changed(message)) => {
                changed = true;
                writeln!(out, "CHANGED  {name}: {message}")?
            }
            Some(other) => writeln!(out, "{other:?}  {name}")?,
            None => writeln!(out, "missing  {name}: recorded, but no such file in {}", dir.display())?,
        }
    }
    for f in &failing {
        writeln!(
            out,
            "FAILING  {}: {} of {} documents fail its enforced validator (`schema check --uri \"$MONGODB_URI\" \
             --collection {}` lists them with fixes)",
            f.namespace, f.failing, f.total, f.namespace
        )?;
    }
    let count = |f: fn(&Option<State>) -> bool| lines.iter().filter(|l| f(&l.state)).count();
    writeln!(
        out,
        "{} applied, {} pending, {} partial, {} contract pending{}",
        count(|s| matches!(s, Some(State::Applied { .. }))),
        count(|s| matches!(s, Some(State::Pending))),
        count(|s| matches!(s, Some(State::Partial { .. }))),
        count(|s| matches!(s, Some(State::ContractPending { .. }))),
        match count(|s| matches!(s, Some(State::Held { .. }))) {
            0 => String::new(),
            n => format!(", {n} held behind a pending contract"),
        }
    )?;
    Ok(i32::from(changed))
}

/// ` (steps 3, 5 wait for a sharded cluster: ...)`, or nothing.
fn deferred_note(deferred: &[usize]) -> String {
    if deferred.is_empty() {
        return String::new();
    }
    let steps: Vec<String> = deferred.iter().map(|i| (i + 1).to_string()).collect();
    format!(
        " ({} {} {} for a sharded cluster: not run here, where there is no mongos; `schema apply` through mongos runs {})",
        if deferred.len() == 1 { "step" } else { "steps" },
        steps.join(", "),
        if deferred.len() == 1 { "waits" } else { "wait" },
        if deferred.len() == 1 { "it" } else { "them" },
    )
}

/// `schema revert`: the last applied migration's down steps, and its record deleted.
pub(crate) fn run_revert(
    server: &mut dyn Server,
    migrations: &[MigrationFile],
    options: &ApplyOptions,
    out: &mut dyn Write,
) -> Result<i32, Exit> {
    let state_db = &options.state_db;
    match revert_with(server, migrations, options).map_err(failed)? {
        Some(name) => writeln!(
            out,
            "reverted {name}: its down steps ran and its record is deleted; `schema apply` runs it again"
        )?,
        None => writeln!(out, "nothing to revert: no migration of the directory is recorded in {state_db}")?,
    }
    Ok(0)
}

/// `schema drift` over any server: one line per collection; exit 1 when any differs.
fn run_drift(server: &mut dyn Server, models: &[Model], format: Output, out: &mut dyn Write) -> Result<i32, Exit> {
    let report = drift(server, models).map_err(|e| Exit(2, chain(&e)))?;
    if format == Output::Json {
        let json = DriftReport::new(report.iter().map(|(m, s)| (m.namespace(), s)));
        writeln!(out, "{}", compact(&json))?;
        return Ok(i32::from(report.iter().any(|(_, s)| *s != DriftStatus::InSync)));
    }
    for (model, status) in &report {
        match status {
            DriftStatus::InSync => writeln!(out, "{}: in sync", model.namespace())?,
            DriftStatus::Missing => writeln!(out, "{}: missing (its migration is not applied)", model.namespace())?,
            DriftStatus::NoValidator => writeln!(out, "{}: deployed without a validator", model.namespace())?,
            DriftStatus::Differs(lines) => {
                writeln!(out, "{}: deployed collection differs from the code", model.namespace())?;
                lines.iter().try_for_each(|l| writeln!(out, "  - {l}"))?;
            }
            other => writeln!(out, "{}: {other:?}", model.namespace())?,
        }
    }
    Ok(i32::from(report.iter().any(|(_, s)| *s != DriftStatus::InSync)))
}

#[cfg(test)]
mod tests {
    //! The `--format json` shapes of apply, status and drift (docs/MIGRATIONS.md), held by
    //! committed snapshots: a report of every variant, serialized as the commands print it
    //! (pretty here, for the reader of the snapshot; the commands print it compact).
    use super::*;
    use mongo_schema_migrate::gate::Failing;
    use mongo_schema_migrate::record::Status;

    fn pretty(report: &impl serde::Serialize) -> String {
        serde_json::to_string_pretty(report).unwrap()
    }

    #[test]
    fn apply_json_of_every_outcome() {
        let outcomes = [
            Outcome::Applied("0001_init".into()),
            Outcome::AlreadyApplied("0000_seed".into()),
            Outcome::Resumed { name: "0002_orders".into(), done: 2 },
            Outcome::Deferred { name: "0003_shard".into(), deferred: vec![1, 3] },
            Outcome::RanDeferred { name: "0004_shard".into(), steps: vec![0] },
            Outcome::ContractPending { name: "0005_rename".into(), done: 2, steps: 4 },
            Outcome::Held {
                name: "0006_after".into(),
                done: 1,
                behind: "0005_rename".into(),
                namespace: "db_shop.t_order".into(),
            },
        ];
        insta::assert_snapshot!(pretty(&ApplyReport::new(&outcomes)));
        insta::assert_snapshot!("apply_json_of_nothing", pretty(&ApplyReport::new(&[])));
    }

    #[test]
    fn status_json_of_every_state() {
        let at = mongo_schema_core::bson::DateTime::from_millis(1_700_000_000_123);
        let line = |name: &str, state: Option<State>| Status { name: name.into(), state };
        let lines = [
            line("0001_init", Some(State::Applied { at, verified: true, deferred: vec![] })),
            line("0002_shard", Some(State::Applied { at, verified: false, deferred: vec![0, 2] })),
            line("0003_orders", Some(State::Partial { done: 1, steps: 3 })),
            line("0004_rename", Some(State::ContractPending { done: 2, steps: 4 })),
            line(
                "0005_after",
                Some(State::Held {
                    done: 0,
                    steps: 2,
                    at: 0,
                    behind: "0004_rename".into(),
                    namespace: "db_shop.t_order".into(),
                }),
            ),
            line("0006_edited", Some(State::Changed("its checksum differs from the record's".into()))),
            line("0007_next", Some(State::Pending)),
            line("0000_gone", None),
        ];
        let failing = [Failing { namespace: "db_shop.t_order".into(), failing: 3, total: 40 }];
        let json = StatusReport::new("db_schema", &lines, &failing, Path::new("migrations"));
        insta::assert_snapshot!(pretty(&json));
    }

    /// A dry run: a migration from its first step, one resumed at its second, and a
    /// rehearsal of each verdict (refused, not simulated, a gate that stops).
    #[test]
    fn dry_run_json_of_every_verdict() {
        use crate::simulate::{Finding, InForce, Origin, Refusal, Rehearsal, Verdict};
        let file = |name: &str| {
            MigrationFile::parse(&format!(
                r#"{{"migration": "{name}", "up": [
                    {{"db": "db_shop", "command": {{"create": "t_order"}}}},
                    {{"db": "db_shop", "phase": "contract", "requireValid": true,
                      "command": {{"collMod": "t_order", "validator": {{"$jsonSchema": {{"required": ["a"]}}}}}}}}
                ]}}"#
            ))
            .unwrap()
        };
        let (first, second) = (file("0001_init"), file("0002_tighten"));
        let in_force = InForce {
            name: "the expand validator of 0001_init (step 2)".into(),
            validator: mongo_schema_core::bson::doc! { "$jsonSchema": { "required": ["a"] } },
            level: "strict".into(),
            action: "error".into(),
        };
        let refusal = |after: Option<mongo_schema_core::bson::Document>| Refusal {
            before: mongo_schema_core::bson::doc! { "_id": 1, "b": 2 },
            after,
            paths: vec!["a: required".into()],
            reason: "the updated document fails validation (121)".into(),
            origin: Origin::Given("a $sample of db_shop.t_order".into()),
            documents: 3,
            ids: vec![mongo_schema_core::bson::Bson::Int32(1)],
            admitted_later: false,
        };
        let finding = |statement: Option<usize>, verdict: Verdict| Finding {
            migration: "0002_tighten".into(),
            step: 2,
            statement,
            command: "update db_shop.t_order".into(),
            phase: mongo_schema_migrate::Phase::Expand,
            verdict,
        };
        let rehearsal = Rehearsal {
            findings: vec![
                finding(
                    Some(1),
                    Verdict::Refused {
                        in_force: in_force.clone(),
                        shapes: vec![refusal(Some(mongo_schema_core::bson::doc! { "_id": 1, "b": 3 })), refusal(None)],
                    },
                ),
                finding(Some(2), Verdict::NotSimulated("the stage $lookup is not modelled".into())),
                finding(None, Verdict::GateStops { in_force, shapes: vec![refusal(None)] }),
            ],
            traces: Vec::new(),
            steps: Vec::new(),
        };
        let json = DryRunReport::new(&[(&first, 0), (&second, 1)], 3, &rehearsal);
        insta::assert_snapshot!(pretty(&json));
    }

    #[test]
    fn drift_json_of_every_status() {
        let report = [
            ("db_shop.t_order".to_owned(), DriftStatus::InSync),
            ("db_shop.t_user".to_owned(), DriftStatus::Missing),
            ("db_shop.t_item".to_owned(), DriftStatus::NoValidator),
            (
                "db_shop.t_cart".to_owned(),
                DriftStatus::Differs(vec![
                    "validationAction: deployed warn, code error".into(),
                    "index `a_1` missing".into(),
                ]),
            ),
        ];
        insta::assert_snapshot!(pretty(&DriftReport::new(report.iter().map(|(n, s)| (n.clone(), s)))));
    }
}
