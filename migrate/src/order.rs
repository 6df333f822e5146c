//! In what order a run takes the pending steps, and which steps wait for what: the one
//! decision [`apply`](super::apply) acts on, `status` reports, and a simulation of the
//! pending steps can replay (each step under the validator in force at that point).
//!
//! A step is written against the state the steps before it leave. So:
//!
//! - the validators of a collection are installed in the order of the files: a step that
//!   installs one waits while an earlier migration's validator for that collection has not
//!   been installed (its contract pending, or, with the contract, its gate not run yet);
//! - a migration stopped that way is **held**, and every later step that writes to a
//!   collection its remaining steps write to waits with it (data steps included: an
//!   `update`, `delete`, `insert`, `findAndModify`, `bulkWrite`, an `aggregate` or
//!   `mapReduce` into it, any other command naming it): it would run under a validator it
//!   was not written for;
//! - without the contract, a migration stops at its first contract step, unless that step
//!   only touches collections its own expand created (the create succeeded: no document, no
//!   other writer), which have nothing to wait for;
//! - with the contract, every step runs in file order except the gated ones (`requireValid`)
//!   and the moves of renamed keys before them, which wait until every other step that can
//!   run has: one at a time, in file order, then again every step it frees. So the
//!   conversions of a contract's data migrations run before the validator that needs them,
//!   wherever their file sits, and the moves only once the gate, counted as after them, finds
//!   no failing document: a gate that stops leaves nothing moved, every document admitted by
//!   the validator in force.

use super::file::{FileStep, MigrationFile};
use super::step::Phase;
use mongo_schema_core::bson::{Bson, Document};

/// A collection: `(db, collection)`.
pub type Namespace = (String, String);

/// Where one migration file stands when a run begins, as its record says.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Progress {
    /// Every step ran: nothing of it is scheduled.
    pub applied: bool,
    /// The steps done: the first `done` of `up`.
    pub done: usize,
    /// Steps (0-based) whose `createCollection` created its collection: it did not exist, so
    /// it holds no document and nothing else writes there. The contract steps touching only
    /// such collections run with the expand.
    pub created: Vec<usize>,
}

/// One step to run: `up[step]` of `files[file]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Planned {
    /// Index in the files.
    pub file: usize,
    /// Index in the file's `up`.
    pub step: usize,
    /// A contract step run without the contract: its collections were created by this
    /// migration's expand.
    pub with_expand: bool,
}

/// Why a migration stops before one of its steps.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Wait {
    /// A contract step: it waits for `apply --contract` (`Migrator::contract(true)`).
    Contract,
    /// A step writing to `namespace` waits behind the pending contract of an earlier
    /// migration (`contract`, stopped before its step `contract_step`), which installs that
    /// collection's validator first. `via`: the held migration between them, when the step
    /// waits because an earlier held migration writes there first.
    Behind {
        /// Index of the migration whose contract is pending.
        contract: usize,
        /// The step (0-based) it stopped before.
        contract_step: usize,
        /// The collection both write to.
        namespace: Namespace,
        /// The held migration this one waits after, when it is not `contract` itself.
        via: Option<usize>,
    },
    /// With the contract: a gated step, run once every other step that can run has.
    Gate,
}

/// One migration stopped before step `step`: why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Waiting {
    /// Index in the files.
    pub file: usize,
    /// The step (0-based) it stops before.
    pub step: usize,
    /// Why.
    pub wait: Wait,
}

/// What a run does, assuming every step succeeds: the steps in the order they run, then the
/// migrations left waiting.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Schedule {
    /// The steps, in the order they run.
    pub order: Vec<Planned>,
    /// The migrations stopped before a step, in file order.
    pub waiting: Vec<Waiting>,
}

/// The order of a run over `files` (in the order they apply) from `progress` (one per
/// file), with the contract or without: which steps run, in what order, and which wait for
/// what. Every step is assumed to succeed; a gate that stops, or a create that finds its
/// collection, changes what follows, so an applier calls it again after each step.
pub fn schedule(files: &[MigrationFile], progress: &[Progress], contract: bool) -> Schedule {
    let mut at: Vec<usize> =
        files.iter().zip(progress).map(|(f, p)| if p.applied { f.up.len() } else { p.done.min(f.up.len()) }).collect();
    let mut order = Vec::new();
    loop {
        let stops = pass(files, progress, contract, &mut at, &mut order);
        let gate = stops.iter().find(|w| w.wait == Wait::Gate);
        match gate {
            // one gate, then every step it frees
            Some(&Waiting { file, step, .. }) if contract => {
                order.push(Planned { file, step, with_expand: false });
                at[file] = step + 1;
            }
            _ => return Schedule { order, waiting: stops },
        }
    }
}

/// One pass in file order: each migration's steps from `at` on, as far as they can go.
fn pass(
    files: &[MigrationFile],
    progress: &[Progress],
    contract: bool,
    at: &mut [usize],
    order: &mut Vec<Planned>,
) -> Vec<Waiting> {
    // a collection whose next validator an earlier migration installs: later validators wait
    let mut validators: Vec<(Namespace, Root)> = Vec::new();
    // a collection a held migration writes to: every later write waits
    let mut held: Vec<(Namespace, Root)> = Vec::new();
    let mut stops = Vec::new();
    for (f, file) in files.iter().enumerate() {
        let Some(p) = progress.get(f).filter(|p| !p.applied) else { continue };
        let mut stop = None;
        for i in at[f]..file.up.len() {
            let step = &file.up[i];
            let behind =
                held.iter().find(|(ns, _)| names(step, ns)).map(|(ns, root)| (ns.clone(), *root)).or_else(|| {
                    let (db, collection) = step.validated()?;
                    validators.iter().find(|((d, c), _)| d == db && c == collection).map(|(ns, r)| (ns.clone(), *r))
                });
            let early = step.phase == Phase::Contract && created_here(file, p, i);
            stop = match behind {
                Some((namespace, root)) => Some(Stop::Held(namespace, root)),
                None if contract && (step.require_valid || moves_before_gate(file, i).is_some()) => Some(Stop::Gate),
                None if !contract && step.phase == Phase::Contract && !early => Some(Stop::Contract),
                None => None,
            };
            if stop.is_some() {
                at[f] = i;
                break;
            }
            order.push(Planned { file: f, step: i, with_expand: early && !contract });
            at[f] = i + 1;
        }
        let Some(stop) = stop else { continue };
        let i = at[f];
        let rest = &file.up[i..];
        let wait = match &stop {
            Stop::Held(namespace, root) => {
                let via = (root.via != f).then_some(root.via).filter(|v| *v != root.file);
                Wait::Behind { contract: root.file, contract_step: root.step, namespace: namespace.clone(), via }
            }
            Stop::Gate => Wait::Gate,
            Stop::Contract => Wait::Contract,
        };
        match stop {
            Stop::Held(_, root) => {
                // everything it still writes waits with it, behind the same contract
                let root = Root { via: f, ..root };
                for ns in rest.iter().flat_map(writes) {
                    if !held.iter().any(|(n, _)| *n == ns) {
                        held.push((ns, root));
                    }
                }
            }
            Stop::Gate | Stop::Contract => {
                let root = Root { file: f, step: i, via: f };
                for (db, collection) in rest.iter().filter_map(FileStep::validated) {
                    let ns = (db.to_owned(), collection.to_owned());
                    if !validators.iter().any(|(n, _)| *n == ns) {
                        validators.push((ns, root));
                    }
                }
            }
        }
        stops.push(Waiting { file: f, step: i, wait });
    }
    stops
}

/// The contract a held step waits for, and the held migration it waits after.
#[derive(Debug, Clone, Copy)]
struct Root {
    file: usize,
    step: usize,
    via: usize,
}

enum Stop {
    Held(Namespace, Root),
    Gate,
    Contract,
}

/// When step `i` of `file` is a move of renamed keys (an `update` bypassing validation, as
/// `migrate` writes it) followed, in the same migration, by the gated step enforcing that
/// collection's validator: that step, and every move from `i` to it. `None` when any step
/// between writing to the collection is not such a move.
pub fn moves_before_gate(file: &MigrationFile, i: usize) -> Option<(usize, Vec<(String, String)>)> {
    let step = &file.up[i];
    let target = (step.db.as_str(), step.command.get_str("update").ok()?);
    let mut moves = super::gate::moves(step)?;
    for (j, later) in file.up.iter().enumerate().skip(i + 1) {
        if later.require_valid && later.validated() == Some(target) {
            return Some((j, moves));
        }
        if names(later, &(target.0.to_owned(), target.1.to_owned())) {
            moves.extend(super::gate::moves(later)?);
        }
    }
    None
}

/// Step `i` of `file` touches only collections that an earlier step of the same migration
/// created (its `createCollection` succeeded).
fn created_here(file: &MigrationFile, progress: &Progress, i: usize) -> bool {
    let created: Vec<Namespace> = progress
        .created
        .iter()
        .filter(|&&c| c < i)
        .filter_map(|&c| file.up.get(c)?.validated())
        .map(|(d, c)| (d.to_owned(), c.to_owned()))
        .collect();
    let touched = writes(&file.up[i]);
    !touched.is_empty() && touched.iter().all(|ns| created.contains(ns)) && !unknown(&file.up[i])
}

/// Commands that only read.
const READS: [&str; 14] = [
    "find",
    "count",
    "distinct",
    "listCollections",
    "listIndexes",
    "hello",
    "isMaster",
    "ping",
    "dbStats",
    "collStats",
    "explain",
    "buildInfo",
    "serverStatus",
    "getMore",
];

/// Commands whose first value is the collection they write to.
const WRITES_NAMED: [&str; 13] = [
    "create",
    "collMod",
    "createIndexes",
    "dropIndexes",
    "drop",
    "update",
    "delete",
    "insert",
    "findAndModify",
    "findandmodify",
    "compact",
    "convertToCapped",
    "shardCollection",
];

/// A command this module does not know: it may write to any collection it names.
fn unknown(step: &FileStep) -> bool {
    let verb = step.command.keys().next().map(String::as_str).unwrap_or_default();
    !READS.contains(&verb)
        && !WRITES_NAMED.contains(&verb)
        && !["aggregate", "mapReduce", "bulkWrite", "renameCollection"].contains(&verb)
}

/// The collections `step` writes to: the collection of a write command, the target of an
/// `aggregate`'s `$out` or `$merge` and of a `mapReduce`'s `out`, each namespace of a
/// `bulkWrite`, both sides of a `renameCollection`; for a command not known here, the
/// collection its first value names. None for a read.
pub fn writes(step: &FileStep) -> Vec<Namespace> {
    let Some((verb, first)) = step.command.iter().next() else { return Vec::new() };
    let db = step.db.as_str();
    let here = |c: &str| (db.to_owned(), c.to_owned());
    let dotted = |ns: &str| ns.split_once('.').map(|(d, c)| (d.to_owned(), c.to_owned()));
    match verb.as_str() {
        v if READS.contains(&v) => Vec::new(),
        "shardCollection" => first.as_str().and_then(dotted).into_iter().collect(),
        "aggregate" => {
            let last = step.command.get_array("pipeline").ok().and_then(|p| p.last()).and_then(Bson::as_document);
            let target = |spec: Option<&Bson>, db_key: &str, coll_key: &str| match spec {
                Some(Bson::String(c)) => Some(here(c)),
                Some(Bson::Document(d)) => {
                    let c = d.get_str(coll_key).ok()?;
                    Some((d.get_str(db_key).unwrap_or(db).to_owned(), c.to_owned()))
                }
                _ => None,
            };
            let out = last.and_then(|s| target(s.get("$out"), "db", "coll"));
            let merge =
                last.and_then(|s| s.get_document("$merge").ok()).and_then(|m| target(m.get("into"), "db", "coll"));
            let merge_short = last.and_then(|s| s.get_str("$merge").ok()).map(here);
            out.or(merge).or(merge_short).into_iter().collect()
        }
        "mapReduce" => match step.command.get("out") {
            Some(Bson::String(c)) => vec![here(c)],
            Some(Bson::Document(out)) => ["replace", "merge", "reduce"]
                .iter()
                .find_map(|k| out.get_str(k).ok())
                .map(|c| (out.get_str("db").unwrap_or(db).to_owned(), c.to_owned()))
                .into_iter()
                .collect(),
            _ => Vec::new(),
        },
        "bulkWrite" => step
            .command
            .get_array("nsInfo")
            .map(|infos| infos.iter().filter_map(|i| i.as_document()?.get_str("ns").ok()).filter_map(dotted).collect())
            .unwrap_or_default(),
        "renameCollection" => {
            let to = step.command.get_str("to").ok().and_then(dotted);
            first.as_str().and_then(dotted).into_iter().chain(to).collect()
        }
        _ => first.as_str().map(here).into_iter().collect(),
    }
}

/// `step` writes to `ns`, or, a command not known here, names it anywhere (as the
/// collection on the step's database, or as `db.collection`).
pub fn names(step: &FileStep, ns: &Namespace) -> bool {
    if writes(step).contains(ns) {
        return true;
    }
    if !unknown(step) {
        return false;
    }
    let dotted = format!("{}.{}", ns.0, ns.1);
    let local = step.db == ns.0;
    mentions(&step.command, &|s| s == dotted || (local && s == ns.1))
}

fn mentions(doc: &Document, hit: &dyn Fn(&str) -> bool) -> bool {
    doc.iter().any(|(_, v)| mentioned(v, hit))
}

fn mentioned(value: &Bson, hit: &dyn Fn(&str) -> bool) -> bool {
    match value {
        Bson::String(s) => hit(s),
        Bson::Document(d) => mentions(d, hit),
        Bson::Array(a) => a.iter().any(|v| mentioned(v, hit)),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mongo_schema_core::bson::doc;

    fn step(db: &str, command: Document, phase: Phase, gated: bool) -> FileStep {
        FileStep { db: db.to_owned(), command, if_namespace_exists: None, phase, require_valid: gated }
    }

    fn file(name: &str, up: Vec<FileStep>) -> MigrationFile {
        MigrationFile {
            name: name.to_owned(),
            kind: super::super::file::MigrationKind::Schema,
            up,
            down: Vec::new(),
            checksum: String::new(),
        }
    }

    fn validator(c: &str, phase: Phase, gated: bool) -> FileStep {
        step("db", doc! { "collMod": c, "validator": { "$jsonSchema": {} } }, phase, gated)
    }

    fn update(c: &str, phase: Phase) -> FileStep {
        step("db", doc! { "update": c, "updates": [] }, phase, false)
    }

    fn ns(c: &str) -> Namespace {
        ("db".to_owned(), c.to_owned())
    }

    /// N-1's adoption with its contract pending; N's tightening; N's data step: each collection
    /// named as it would be.
    fn release() -> Vec<MigrationFile> {
        vec![
            file("1", vec![validator("t_a", Phase::Expand, false), validator("t_a", Phase::Contract, true)]),
            file(
                "2",
                vec![
                    validator("t_a", Phase::Expand, false),
                    update("t_a", Phase::Contract),
                    validator("t_a", Phase::Contract, true),
                ],
            ),
            file("3", vec![update("t_b", Phase::Expand), update("t_a", Phase::Expand)]),
            file("4", vec![update("t_a", Phase::Contract)]),
        ]
    }

    fn planned(s: &Schedule) -> Vec<(usize, usize)> {
        s.order.iter().map(|p| (p.file, p.step)).collect()
    }

    #[test]
    fn a_data_step_after_a_held_validator_waits_behind_the_same_contract() {
        let files = release();
        let s = schedule(&files, &vec![Progress::default(); 4], false);
        assert_eq!(planned(&s), [(0, 0), (2, 0)], "t_b's write runs; nothing else on t_a");
        let behind = |via| Wait::Behind { contract: 0, contract_step: 1, namespace: ns("t_a"), via };
        assert_eq!(
            s.waiting,
            [
                Waiting { file: 0, step: 1, wait: Wait::Contract },
                Waiting { file: 1, step: 0, wait: behind(None) },
                Waiting { file: 2, step: 1, wait: behind(Some(1)) },
                Waiting { file: 3, step: 0, wait: behind(Some(1)) },
            ]
        );
    }

    #[test]
    fn with_the_contract_the_earlier_gate_runs_before_the_data_steps_that_depend_on_it() {
        let files = release();
        let s = schedule(&files, &vec![Progress::default(); 4], true);
        // 1's gate first; then 2's expand, the data steps before 2's gate, 2's gate last
        assert_eq!(planned(&s), [(0, 0), (2, 0), (0, 1), (1, 0), (1, 1), (2, 1), (3, 0), (1, 2)]);
        assert!(s.waiting.is_empty());
    }

    #[test]
    fn a_contract_on_a_collection_its_expand_created_runs_with_the_expand() {
        let create = step("db", doc! { "create": "t_a", "validator": { "$jsonSchema": {} } }, Phase::Expand, false);
        let files = vec![
            file("1", vec![create, update("t_a", Phase::Contract), validator("t_a", Phase::Contract, true)]),
            file("2", vec![validator("t_a", Phase::Expand, false)]),
        ];
        let created = Progress { done: 1, created: vec![0], ..Progress::default() };
        let s = schedule(&files, &[created, Progress::default()], false);
        assert_eq!(planned(&s), [(0, 1), (0, 2), (1, 0)]);
        assert!(s.order[..2].iter().all(|p| p.with_expand));
        assert!(s.waiting.is_empty());
        // found existing (adopted): its contract waits, and the next validator behind it
        let s = schedule(&files, &[Progress { done: 1, ..Progress::default() }, Progress::default()], false);
        assert_eq!(planned(&s), []);
        assert_eq!(s.waiting.len(), 2);
    }

    #[test]
    fn the_collections_a_command_writes_to() {
        let s = |c: Document| writes(&step("db", c, Phase::Expand, false));
        let pipeline = |last: Document| doc! { "aggregate": "t_src", "pipeline": [{ "$match": {} }, last] };
        assert_eq!(s(pipeline(doc! { "$out": "t_x" })), [ns("t_x")]);
        assert_eq!(
            s(pipeline(doc! { "$merge": { "into": { "db": "other", "coll": "t_y" } } })),
            [("other".to_owned(), "t_y".to_owned())]
        );
        assert_eq!(s(pipeline(doc! { "$merge": "t_z" })), [ns("t_z")]);
        assert_eq!(s(pipeline(doc! { "$group": { "_id": 1 } })), []);
        assert_eq!(
            s(doc! { "bulkWrite": 1, "ops": [], "nsInfo": [{ "ns": "db.t_a" }, { "ns": "x.t_b" }] }),
            [ns("t_a"), ("x".to_owned(), "t_b".to_owned())]
        );
        assert_eq!(s(doc! { "findAndModify": "t_a", "query": {} }), [ns("t_a")]);
        assert_eq!(s(doc! { "find": "t_a" }), []);
        let unknown = step("db", doc! { "applyOps": [{ "ns": "db.t_a", "op": "u" }] }, Phase::Expand, false);
        assert!(names(&unknown, &ns("t_a")) && !names(&unknown, &ns("t_b")), "an unknown command naming it");
    }
}
