//! The `--format json` reports of `apply` (and `--dry-run`), `status` and `drift` (their shapes are
//! docs/MIGRATIONS.md's): types deriving `Serialize`, built from what the commands learned.
//! A variant of the migrate crate's `non_exhaustive` enums this CLI predates is written as
//! `"other"` (the state, outcome or drift status), never as Rust's debug text.

use super::rehearse::DataSteps;
use crate::simulate::Rehearsal;
use mongo_schema_core::bson::{Bson, DateTime};
use mongo_schema_migrate::apply::Outcome;
use mongo_schema_migrate::drift::DriftStatus;
use mongo_schema_migrate::file::MigrationFile;
use mongo_schema_migrate::gate::Failing;
use mongo_schema_migrate::record::{State, Status};
use serde::Serialize;
use std::path::Path;

/// A report as one line of JSON, as the commands print it.
pub(crate) fn compact(report: &impl Serialize) -> String {
    serde_json::to_string(report).expect("the reports have string keys only")
}

/// `schema apply --format json`: what was done with each migration, and the counts.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ApplyReport {
    migrations: Vec<Applied>,
    /// Migrations run now (all but those already applied).
    applied: usize,
    already_applied: usize,
    /// Migrations whose contract waits (`contractPending` and `held`).
    contract_pending: usize,
}

/// One migration of [`ApplyReport`]: its name, then its outcome and what the outcome carries.
#[derive(Debug, Serialize)]
struct Applied {
    /// `None` only for an outcome this CLI predates.
    #[serde(skip_serializing_if = "Option::is_none")]
    name: Option<String>,
    #[serde(flatten)]
    outcome: AppliedOutcome,
}

#[derive(Debug, Serialize)]
#[serde(tag = "outcome", rename_all = "camelCase", rename_all_fields = "camelCase")]
enum AppliedOutcome {
    /// Run now; `deferredSteps` (1-based) when its sharding steps wait for mongos.
    Applied {
        #[serde(skip_serializing_if = "Option::is_none")]
        deferred_steps: Option<Vec<usize>>,
    },
    AlreadyApplied,
    Resumed {
        after_step: usize,
    },
    RanDeferred {
        /// 1-based.
        steps: Vec<usize>,
    },
    ContractPending {
        done: usize,
        steps: usize,
    },
    Held {
        done: usize,
        /// The step that waits (1-based).
        step: usize,
        behind: String,
        namespace: String,
    },
    /// An outcome this CLI predates.
    Other,
}

/// 0-based step positions as the reports show them (1-based).
fn counted(steps: &[usize]) -> Vec<usize> {
    steps.iter().map(|i| i + 1).collect()
}

impl ApplyReport {
    pub(crate) fn new(outcomes: &[Outcome]) -> ApplyReport {
        let count = |f: fn(&Outcome) -> bool| outcomes.iter().filter(|o| f(o)).count();
        let already = count(|o| matches!(o, Outcome::AlreadyApplied(_)));
        ApplyReport {
            migrations: outcomes.iter().map(Applied::new).collect(),
            applied: outcomes.len() - already,
            already_applied: already,
            contract_pending: count(|o| matches!(o, Outcome::ContractPending { .. } | Outcome::Held { .. })),
        }
    }
}

impl Applied {
    fn new(outcome: &Outcome) -> Applied {
        let (name, outcome) = match outcome {
            Outcome::Applied(name) => (name, AppliedOutcome::Applied { deferred_steps: None }),
            Outcome::AlreadyApplied(name) => (name, AppliedOutcome::AlreadyApplied),
            Outcome::Resumed { name, done } => (name, AppliedOutcome::Resumed { after_step: *done }),
            Outcome::Deferred { name, deferred } => {
                (name, AppliedOutcome::Applied { deferred_steps: Some(counted(deferred)) })
            }
            Outcome::RanDeferred { name, steps } => (name, AppliedOutcome::RanDeferred { steps: counted(steps) }),
            Outcome::ContractPending { name, done, steps } => {
                (name, AppliedOutcome::ContractPending { done: *done, steps: *steps })
            }
            Outcome::Held { name, done, behind, namespace } => (
                name,
                AppliedOutcome::Held {
                    done: *done,
                    step: done + 1,
                    behind: behind.clone(),
                    namespace: namespace.clone(),
                },
            ),
            _ => return Applied { name: None, outcome: AppliedOutcome::Other },
        };
        Applied { name: Some(name.clone()), outcome }
    }
}

/// `schema apply --dry-run --format json`: each migration to apply from the step it is at,
/// the counts, and the rehearsal of the pending data steps.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct DryRunReport<'a> {
    migrations: Vec<ToApply>,
    to_apply: usize,
    already_applied: usize,
    data_steps: DataSteps<'a>,
}

/// A migration `apply` would run, `from` its first step not done (1-based).
#[derive(Serialize)]
struct ToApply {
    name: String,
    from: usize,
    steps: Vec<StepToRun>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct StepToRun {
    /// 1-based.
    step: usize,
    db: String,
    phase: &'static str,
    require_valid: bool,
    /// The command, as relaxed Extended JSON.
    command: serde_json::Value,
}

impl DryRunReport<'_> {
    /// The report of `todo` (each file with its steps done) among `files` migrations, and of
    /// `rehearsal`.
    pub(crate) fn new<'a>(
        todo: &[(&MigrationFile, usize)],
        files: usize,
        rehearsal: &'a Rehearsal,
    ) -> DryRunReport<'a> {
        let migrations = todo
            .iter()
            .map(|(file, done)| ToApply {
                name: file.name.clone(),
                from: done + 1,
                steps: file
                    .up
                    .iter()
                    .enumerate()
                    .skip(*done)
                    .map(|(i, step)| StepToRun {
                        step: i + 1,
                        db: step.db.clone(),
                        phase: step.phase.as_str(),
                        require_valid: step.require_valid,
                        command: Bson::Document(step.command.clone()).into_relaxed_extjson(),
                    })
                    .collect(),
            })
            .collect();
        DryRunReport {
            migrations,
            to_apply: todo.len(),
            already_applied: files - todo.len(),
            data_steps: DataSteps::new(rehearsal),
        }
    }
}

/// `schema status --format json`: where each migration stands, and the collections whose
/// enforced validator stored documents fail.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct StatusReport {
    state_db: String,
    migrations: Vec<Standing>,
    failing_enforced: Vec<FailingEnforced>,
}

/// One migration of [`StatusReport`]: its name, then its state and what the state carries.
#[derive(Debug, Serialize)]
struct Standing {
    name: String,
    #[serde(flatten)]
    state: StandingState,
}

/// What to run for a migration whose contract waits.
const RUN_CONTRACT: &str = "schema apply --contract";

#[derive(Debug, Serialize)]
#[serde(tag = "state", rename_all = "camelCase", rename_all_fields = "camelCase")]
enum StandingState {
    Applied {
        /// When its last step completed (relaxed Extended JSON's date text).
        applied_at: String,
        verified: bool,
        /// 1-based.
        deferred_steps: Vec<usize>,
    },
    Partial {
        done: usize,
        steps: usize,
        /// The command that resumes it, and the one that skips the step that cannot succeed.
        resume: String,
        resolve: String,
    },
    Pending,
    ContractPending {
        done: usize,
        steps: usize,
        run: &'static str,
    },
    Held {
        done: usize,
        steps: usize,
        /// The step that waits (1-based).
        step: usize,
        behind: String,
        namespace: String,
        run: &'static str,
    },
    Changed {
        message: String,
    },
    /// Recorded, but no file of the directory has its name.
    Missing {
        message: String,
    },
    /// A state this CLI predates.
    Other,
}

#[derive(Debug, Serialize)]
struct FailingEnforced {
    namespace: String,
    failing: u64,
    /// The documents the collection holds.
    documents: u64,
}

impl StatusReport {
    /// The report of `lines` (files read from `dir`) and `failing`, records kept in `state_db`.
    pub(crate) fn new(state_db: &str, lines: &[Status], failing: &[Failing], dir: &Path) -> StatusReport {
        StatusReport {
            state_db: state_db.to_owned(),
            migrations: lines
                .iter()
                .map(|line| Standing { name: line.name.clone(), state: standing(line, dir) })
                .collect(),
            failing_enforced: failing
                .iter()
                .map(|f| FailingEnforced { namespace: f.namespace.clone(), failing: f.failing, documents: f.total })
                .collect(),
        }
    }
}

fn standing(line: &Status, dir: &Path) -> StandingState {
    match &line.state {
        Some(State::Applied { at, verified, deferred }) => StandingState::Applied {
            applied_at: shown_time(at),
            verified: *verified,
            deferred_steps: counted(deferred),
        },
        Some(State::Partial { done, steps }) => StandingState::Partial {
            done: *done,
            steps: *steps,
            resume: format!("schema apply (at step {})", done + 1),
            resolve: format!("schema resolve {} --skip-step", line.name),
        },
        Some(State::Pending) => StandingState::Pending,
        Some(State::ContractPending { done, steps }) => {
            StandingState::ContractPending { done: *done, steps: *steps, run: RUN_CONTRACT }
        }
        Some(State::Held { done, steps, at, behind, namespace }) => StandingState::Held {
            done: *done,
            steps: *steps,
            step: at + 1,
            behind: behind.clone(),
            namespace: namespace.clone(),
            run: RUN_CONTRACT,
        },
        Some(State::Changed(message)) => StandingState::Changed { message: message.clone() },
        Some(_) => StandingState::Other,
        None => StandingState::Missing { message: format!("recorded, but no such file in {}", dir.display()) },
    }
}

/// A time as relaxed Extended JSON writes it (`2023-11-14T22:13:20.123Z`).
pub(crate) fn shown_time(at: &DateTime) -> String {
    Bson::DateTime(*at).into_relaxed_extjson()["$date"].as_str().map_or_else(|| at.to_string(), str::to_owned)
}

/// `schema drift --format json`: each model's collection against the code.
#[derive(Debug, Serialize)]
pub(crate) struct DriftReport {
    collections: Vec<Drifted>,
}

#[derive(Debug, Serialize)]
struct Drifted {
    namespace: String,
    state: DriftState,
    /// One line per difference (`differs` only; empty otherwise).
    differences: Vec<String>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
enum DriftState {
    InSync,
    Missing,
    NoValidator,
    Differs,
    /// A status this CLI predates.
    Other,
}

impl DriftReport {
    /// The report of each collection (`db.collection`) and its status.
    pub(crate) fn new<'a>(report: impl IntoIterator<Item = (String, &'a DriftStatus)>) -> DriftReport {
        let collections = report
            .into_iter()
            .map(|(namespace, status)| {
                let (state, differences) = match status {
                    DriftStatus::InSync => (DriftState::InSync, Vec::new()),
                    DriftStatus::Missing => (DriftState::Missing, Vec::new()),
                    DriftStatus::NoValidator => (DriftState::NoValidator, Vec::new()),
                    DriftStatus::Differs(lines) => (DriftState::Differs, lines.clone()),
                    _ => (DriftState::Other, Vec::new()),
                };
                Drifted { namespace, state, differences }
            })
            .collect();
        DriftReport { collections }
    }
}
