//! The deploy rehearsed before it happens: every pending data step run over sample
//! documents, in the order `apply` runs them (the migrations crate's one
//! [`schedule`](mongo_schema_migrate::order::schedule), asked again after each step as `apply`
//! does: a held data step after the contract it waits for), each under the validator in force at that
//! point (the expand validator for the steps that run with the release, the same or the
//! contract's for those of `apply --contract`), and every step whose result mongod would
//! refuse reported before the deploy, with the validator it meets, each document shape and
//! the paths that fail. `schema migrate --check` and `schema apply --dry-run` run it.
//!
//! The samples are generated from the validators (every shape the deployed validator and
//! each pending one admit: the previous model's and the new model's, each optional field
//! present and absent, each `enum` value, each bound's extremes), plus the documents the
//! caller gives (a dump, a deployment's `$sample`). A step the local update applier cannot
//! judge (a pipeline stage or an operator it does not model, an aggregation writing with
//! `$merge`, a validator with query operators) is reported as not simulated, never as
//! passing.
//!
//! It lives in this crate because it needs both the migrations (`mongo-schema-migrate`: the
//! files, `apply`'s order) and the local validator (`mongo-schema-validate`), and the
//! migrations crate never depends on the validator (an application applying its migrations
//! at start-up compiles no PCRE2).
//!
//! ```no_run
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! use mongo_schema_cli::simulate::{rehearse_release, Samples};
//! use mongo_schema_migrate::file::MigrationFile;
//!
//! // or `mongo_schema::migrations!("migrations").migrations()`
//! let paths = mongo_schema_migrate::pending("migrations".as_ref())?;
//! let files = paths.iter().map(|p| MigrationFile::read(p)).collect::<Result<Vec<_>, _>>()?;
//! let rehearsal = rehearse_release(&files, &Samples::default());
//! for finding in &rehearsal.findings {
//!     eprint!("{}", finding.render());
//! }
//! assert!(rehearsal.refused().next().is_none(), "a data step would be refused");
//! # Ok(()) }
//! ```

mod deploy;
mod finding;
mod shapes;
mod statement;

pub use deploy::{Rehearsed, Trace};
pub use finding::{Finding, InForce, Origin, Refusal, Verdict};
pub use statement::Sample;

use mongo_schema_core::bson::Document;
use mongo_schema_migrate::file::{MigrationFile, MigrationKind};
use mongo_schema_migrate::order::Progress;
use std::collections::BTreeMap;

/// Documents the caller gives, by collection (`db.collection`): a dump's, a deployment's
/// `$sample`. They are in the collection before the first pending step.
#[derive(Debug, Clone, Default)]
pub struct Samples {
    by_namespace: BTreeMap<String, Vec<Sample>>,
}

impl Samples {
    /// One document of `namespace`; `origin` says where it came from (`dump/db/t.bson`).
    pub fn add(&mut self, namespace: &str, document: Document, origin: &str) {
        let sample = Sample { document, origin: Origin::Given(origin.to_owned()) };
        self.by_namespace.entry(namespace.to_owned()).or_default().push(sample);
    }

    /// How many documents were given for `namespace`.
    pub fn count(&self, namespace: &str) -> usize {
        self.by_namespace.get(namespace).map_or(0, Vec::len)
    }
}

/// What the rehearsal found.
#[derive(Debug, Clone, Default)]
pub struct Rehearsal {
    /// The data steps that would be refused or could not be judged, in the order they run.
    pub findings: Vec<Finding>,
    /// Every data statement run, with the documents it met and those it refused.
    pub traces: Vec<Trace>,
    /// Every step rehearsed, in the order `apply` runs them: the run with the release, then
    /// `apply --contract`.
    pub steps: Vec<Rehearsed>,
}

impl Rehearsal {
    /// The findings whose step would be refused.
    pub fn refused(&self) -> impl Iterator<Item = &Finding> {
        self.findings.iter().filter(|f| f.is_refused())
    }

    /// The findings whose step could not be judged.
    pub fn not_simulated(&self) -> impl Iterator<Item = &Finding> {
        self.findings.iter().filter(|f| f.is_not_simulated())
    }

    /// The gated steps sample documents would stop (`apply --contract` stops there, by
    /// design; nothing is refused).
    pub fn gates(&self) -> impl Iterator<Item = &Finding> {
        self.findings.iter().filter(|f| matches!(f.verdict, Verdict::GateStops { .. }))
    }
}

/// Rehearses the deploy of `files` from `progress` (one per file, where its record says it
/// stands: [`progress_of`](mongo_schema_migrate::record::progress_of)): the validators the steps
/// done installed are in force, the `samples` stored; then the run with the release and
/// `apply --contract`, step by step as `apply` runs them.
pub fn rehearse(files: &[MigrationFile], progress: &[Progress], samples: &Samples) -> Rehearsal {
    // a file without one is pending from its first step
    let mut progress: Vec<Progress> = (0..files.len()).map(|f| progress.get(f).cloned().unwrap_or_default()).collect();
    let mut deploy = deploy::Deploy::new(files, &progress, &samples.by_namespace);
    deploy.run(files, &mut progress);
    Rehearsal { findings: deploy.findings, traces: deploy.traces, steps: deploy.steps }
}

/// Where each of `files` stands when the last release deploys, when no deployment says: the
/// files after the last schema migration but one (what `schema migrate` wrote before the
/// release's own), the release's data migrations written before its schema migration (as
/// the documented workflow does) and after it included, are pending; the earlier ones are
/// applied, contracts included: each release's contract runs before the next release
/// deploys. With fewer than two schema migrations, every file is pending: a fresh deploy,
/// where a `create` finds no collection, so a greenfield migration's contract runs with its
/// expand.
pub fn last_release(files: &[MigrationFile]) -> Vec<Progress> {
    let schema: Vec<usize> =
        files.iter().enumerate().filter(|(_, f)| f.kind == MigrationKind::Schema).map(|(i, _)| i).collect();
    let first = match schema.len() {
        0 | 1 => 0,
        n => schema[n - 2] + 1,
    };
    files
        .iter()
        .enumerate()
        .map(|(i, f)| match i < first {
            true => Progress { applied: true, done: f.up.len(), created: Vec::new() },
            false => Progress::default(),
        })
        .collect()
}

/// Rehearses [`last_release`] of `files`: what `schema migrate --check` does without a
/// deployment.
pub fn rehearse_release(files: &[MigrationFile], samples: &Samples) -> Rehearsal {
    rehearse(files, &last_release(files), samples)
}

#[cfg(test)]
mod tests {
    use super::*;
    use mongo_schema_core::bson::{doc, Bson};
    use mongo_schema_migrate::file::FileStep;
    use mongo_schema_migrate::Phase;

    const NS: &str = "db_t.t_item";

    fn step(command: Document) -> FileStep {
        FileStep { db: "db_t".into(), command, if_namespace_exists: None, phase: Phase::Expand, require_valid: false }
    }

    fn file(name: &str, kind: MigrationKind, up: Vec<Document>) -> MigrationFile {
        MigrationFile {
            name: name.into(),
            kind,
            up: up.into_iter().map(step).collect(),
            down: Vec::new(),
            checksum: String::new(),
        }
    }

    /// A collection created with `n` at most 10 (at `level` and `action`), then one data step.
    fn rehearsed(level: &str, action: &str, data: Document, given: &[Document]) -> Rehearsal {
        let schema = doc! { "bsonType": "object", "required": ["n"], "properties": { "n": { "bsonType": "int", "maximum": 10 } } };
        let create = doc! {
            "create": "t_item", "validator": { "$jsonSchema": schema }, "validationLevel": level, "validationAction": action,
        };
        let files = [
            file("0001_create", MigrationKind::Schema, vec![create]),
            file("0002_data", MigrationKind::Data, vec![data]),
        ];
        let mut samples = Samples::default();
        for document in given {
            samples.add(NS, document.clone(), "given");
        }
        rehearse(&files, &previous_applied(&files), &samples)
    }

    /// The first file applied, the others pending.
    fn previous_applied(files: &[MigrationFile]) -> Vec<Progress> {
        let first = Progress { applied: true, done: files[0].up.len(), created: Vec::new() };
        std::iter::once(first).chain(files[1..].iter().map(|_| Progress::default())).collect()
    }

    fn refused_ids(rehearsal: &Rehearsal) -> Vec<Bson> {
        rehearsal.traces.iter().flat_map(|t| t.refused.clone()).collect()
    }

    fn raise(q: Document) -> Document {
        doc! { "update": "t_item", "updates": [{ "q": q, "u": { "$inc": { "n": 5 } }, "multi": true }] }
    }

    #[test]
    fn the_level_and_action_in_force_decide_as_mongod_does() {
        let given = [doc! { "_id": "over", "n": 50 }, doc! { "_id": "under", "n": 9 }];
        // strict: both results are over 10
        let strict = rehearsed("strict", "error", raise(doc! {}), &given);
        let mut ids: Vec<String> = refused_ids(&strict).iter().map(Bson::to_string).collect();
        ids.sort();
        assert!(ids.contains(&"\"over\"".to_owned()) && ids.contains(&"\"under\"".to_owned()), "{ids:?}");
        // moderate: a document that already fails is not validated on update
        let moderate = rehearsed("moderate", "error", raise(doc! { "_id": { "$in": ["over", "under"] } }), &given);
        assert_eq!(refused_ids(&moderate), [Bson::String("under".into())]);
        // warn and bypass refuse nothing
        assert!(rehearsed("strict", "warn", raise(doc! {}), &given).findings.is_empty());
        let mut bypass = raise(doc! {});
        bypass.insert("bypassDocumentValidation", true);
        assert!(rehearsed("strict", "error", bypass, &given).findings.is_empty());
    }

    #[test]
    fn inserts_and_upserts_are_validated_and_deletes_leave_the_samples() {
        let insert = doc! { "insert": "t_item", "documents": [{ "_id": "big", "n": 11 }, { "_id": "ok", "n": 1 }] };
        assert_eq!(refused_ids(&rehearsed("moderate", "error", insert, &[])), [Bson::String("big".into())]);
        let upsert = doc! { "update": "t_item", "updates": [{ "q": { "_id": "new" }, "u": { "$set": { "n": 20 } }, "upsert": true }] };
        assert_eq!(refused_ids(&rehearsed("strict", "error", upsert, &[])), [Bson::String("new".into())]);
        // a deleted document is not met by the steps after the delete
        let given = [doc! { "_id": "a", "n": 9 }, doc! { "_id": "b", "n": 8 }];
        let delete = doc! { "delete": "t_item", "deletes": [{ "q": { "_id": "a" }, "limit": 0 }] };
        let create =
            doc! { "create": "t_item", "validator": { "$jsonSchema": { "properties": { "n": { "maximum": 10 } } } } };
        let files = [
            file("0001_create", MigrationKind::Schema, vec![create]),
            file("0002_data", MigrationKind::Data, vec![delete, raise(doc! { "_id": { "$in": ["a", "b"] } })]),
        ];
        let mut samples = Samples::default();
        given.iter().for_each(|d| samples.add(NS, d.clone(), "given"));
        let rehearsal = rehearse(&files, &previous_applied(&files), &samples);
        assert_eq!(refused_ids(&rehearsal), [Bson::String("b".into())]);
    }

    #[test]
    fn a_validator_with_query_operators_or_an_unmodelled_update_is_not_simulated() {
        let files = [
            file(
                "0001_create",
                MigrationKind::Schema,
                vec![doc! { "create": "t_item", "validator": { "n": { "$lt": 10 } } }],
            ),
            file("0002_data", MigrationKind::Data, vec![raise(doc! {})]),
        ];
        let rehearsal = rehearse(&files, &previous_applied(&files), &Samples::default());
        assert_eq!(rehearsal.not_simulated().count(), 1, "{:#?}", rehearsal.findings);
        assert!(
            matches!(&rehearsal.findings[0].verdict, Verdict::NotSimulated(why) if why.contains("query operators"))
        );
        let regex =
            doc! { "update": "t_item", "updates": [{ "q": { "s": { "$regex": "^a" } }, "u": { "$set": { "n": 1 } } }] };
        let rehearsal = rehearsed("strict", "error", regex, &[doc! { "_id": 1, "n": 1, "s": "abc" }]);
        assert_eq!(
            (rehearsal.refused().count(), rehearsal.not_simulated().count()),
            (0, 1),
            "{:#?}",
            rehearsal.findings
        );
    }

    /// A validator of `t_item` admitting `n` up to `max`.
    fn at_most(max: i32) -> Document {
        doc! { "$jsonSchema": { "bsonType": "object", "required": ["n"], "properties": { "n": { "bsonType": "int", "maximum": max } } } }
    }

    /// A contract step enforcing `validator` once no stored document fails it.
    fn gated(validator: Document) -> FileStep {
        FileStep {
            phase: Phase::Contract,
            require_valid: true,
            ..step(doc! { "collMod": "t_item", "validator": validator, "validationLevel": "strict" })
        }
    }

    fn raise_by_50() -> Document {
        let raise = doc! { "q": { "n": { "$lte": 10 } }, "u": { "$inc": { "n": 50 } }, "multi": true };
        doc! { "update": "t_item", "updates": [raise] }
    }

    fn names(rehearsal: &Rehearsal) -> Vec<(&str, usize)> {
        rehearsal.steps.iter().map(|r| (r.migration.as_str(), r.step)).collect()
    }

    #[test]
    fn a_data_step_held_behind_a_pending_contract_is_rehearsed_after_it_under_the_next_validator() {
        let create = doc! { "create": "t_item", "validator": at_most(10) };
        let mut tighten =
            file("0002_tighten", MigrationKind::Schema, vec![doc! { "collMod": "t_item", "validator": at_most(10) }]);
        tighten.up.push(gated(at_most(10)));
        let files = [
            file("0001_create", MigrationKind::Schema, vec![create]),
            tighten,
            // the next release widens the bound and raises each `n` up to 10 by 50
            file("0003_widen", MigrationKind::Schema, vec![doc! { "collMod": "t_item", "validator": at_most(100) }]),
            file("0004_raise", MigrationKind::Data, vec![raise_by_50()]),
        ];
        let mut samples = Samples::default();
        samples.add(NS, doc! { "_id": "a", "n": 9 }, "given");
        let rehearsal = rehearse(&files, &previous_applied(&files), &samples);
        // 0003 installs t_item's validator after 0002's pending contract: held, and 0004, which
        // writes there after it, with it; both run once `apply --contract` enforced 0002's
        assert_eq!(names(&rehearsal), [("0002_tighten", 1), ("0002_tighten", 2), ("0003_widen", 1), ("0004_raise", 1)]);
        assert!(rehearsal.findings.is_empty(), "under 0003's bound nothing is refused: {:#?}", rehearsal.findings);
        let trace = rehearsal.traces.iter().find(|t| t.migration == "0004_raise").unwrap();
        assert_eq!(trace.in_force.as_ref().unwrap().name, "the expand validator of 0003_widen step 1");
        assert!(trace.met.iter().any(|d| d.get("_id") == Some(&Bson::String("a".into()))));
    }

    #[test]
    fn a_greenfield_contract_is_rehearsed_with_its_expand_unless_the_collection_exists_or_its_gate_stops() {
        let release = |created_with: Document, enforced: Document| {
            let mut create = step(doc! { "create": "t_item", "validator": created_with.clone() });
            create.if_namespace_exists = Some(doc! { "collMod": "t_item", "validator": created_with });
            let mut first = file("0001_create", MigrationKind::Schema, Vec::new());
            first.up = vec![create, gated(enforced)];
            let insert = doc! { "insert": "t_item", "documents": [{ "_id": "big", "n": 50 }] };
            [first, file("0002_seed", MigrationKind::Data, vec![insert])]
        };
        // created by the release: its contract runs with its expand, before the data migration,
        // whose insert meets the enforced validator
        let files = release(at_most(10), at_most(10));
        let fresh = rehearse_release(&files, &Samples::default());
        assert_eq!(names(&fresh), [("0001_create", 1), ("0001_create", 2), ("0002_seed", 1)]);
        let in_force = |r: &Rehearsal| r.traces[0].in_force.as_ref().unwrap().name.clone();
        assert_eq!(in_force(&fresh), "the contract validator of 0001_create step 2");
        assert_eq!(refused_ids(&fresh), [Bson::String("big".into())]);
        // the collection already there (documents given): the create adopts it, its contract
        // waits for `apply --contract`, after the data migration
        let mut samples = Samples::default();
        samples.add(NS, doc! { "_id": "a", "n": 1 }, "given");
        let adopted = rehearse_release(&files, &samples);
        assert_eq!(names(&adopted), [("0001_create", 1), ("0002_seed", 1), ("0001_create", 2)]);
        assert!(in_force(&adopted).contains("adopts the existing collection"), "{}", in_force(&adopted));
        // created, but samples there fail the enforced validator: as `apply`, whose gate finds
        // documents, the contract waits, and `apply --contract`'s gate stops on them
        let files = release(at_most(100), at_most(10));
        let stopped = rehearse_release(&files, &Samples::default());
        assert_eq!(names(&stopped), [("0001_create", 1), ("0002_seed", 1), ("0001_create", 2)]);
        assert_eq!(stopped.gates().count(), 1, "{:#?}", stopped.findings);
    }
}
