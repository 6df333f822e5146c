//! The deploy rehearsed before it happens: every pending data step run over sample
//! documents, in the order `apply` runs them, each under the validator in force at that
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
//! use mongo_schema_migrate::apply::MigrationFile;
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

pub use deploy::Trace;
pub use finding::{Finding, InForce, Origin, Refusal, Verdict};
pub use statement::Sample;

use crate::bson::Document;
use crate::migrate::apply::{MigrationFile, MigrationKind};
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

/// Rehearses the deploy of `pending` (each migration of `files` not yet applied, with its
/// steps already done, as [`to_apply`](crate::migrate::apply::to_apply) reads them): the
/// validators the other steps installed are in force, the `samples` stored.
pub fn rehearse(files: &[MigrationFile], pending: &[(&MigrationFile, usize)], samples: &Samples) -> Rehearsal {
    let mut deploy = deploy::Deploy::new(files, pending, &samples.by_namespace);
    deploy.run(pending);
    Rehearsal { findings: deploy.findings, traces: deploy.traces }
}

/// The migrations of the last release, when no deployment says which are pending: every
/// file after the last schema migration but one (what `schema migrate` wrote before the
/// release's own), the release's data migrations written before its schema migration (as
/// the documented workflow does) and after it included. The earlier ones count as applied,
/// contracts included: each release's contract runs before the next release deploys. With
/// fewer than two schema migrations, every file.
pub fn last_release(files: &[MigrationFile]) -> Vec<(&MigrationFile, usize)> {
    let schema: Vec<usize> =
        files.iter().enumerate().filter(|(_, f)| f.kind == MigrationKind::Schema).map(|(i, _)| i).collect();
    let first = match schema.len() {
        0 | 1 => 0,
        n => schema[n - 2] + 1,
    };
    files[first..].iter().map(|f| (f, 0)).collect()
}

/// Rehearses [`last_release`] of `files`: what `schema migrate --check` does without a
/// deployment.
pub fn rehearse_release(files: &[MigrationFile], samples: &Samples) -> Rehearsal {
    rehearse(files, &last_release(files), samples)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bson::{doc, Bson};
    use crate::migrate::apply::FileStep;
    use crate::migrate::Phase;

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
        rehearse(&files, &[(&files[1], 0)], &samples)
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
        let rehearsal = rehearse(&files, &[(&files[1], 0)], &samples);
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
        let rehearsal = rehearse(&files, &[(&files[1], 0)], &Samples::default());
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
}
