//! The migration workflow over a stateful fake server (no mongod needed): timestamped
//! names beside numbered ones, data migrations in the sequence, checksums, resumption of a
//! run that stopped half way, revert, `apply --dry-run` reading only, `migrate --check`.
//! The same flows run against real deployments in `migrate_workflow_mongod.rs`.

#![forbid(unsafe_code)]
#![cfg(feature = "cli")]

use mongo_schema_test_support::migrate_models;

use migrate_models::{apply_all, v1, v3};
use mongo_schema::bson::{doc, Bson, Document};
use mongo_schema::cli::run;
use mongo_schema::codes::BAD_VALUE;
use mongo_schema::migrate::apply::{revert, status, to_apply, Outcome};
use mongo_schema::migrate::file::{MigrationFile, MigrationKind};
use mongo_schema::migrate::lock::granting_reply;
use mongo_schema::migrate::record::State;
use mongo_schema::migrate::server::{CommandError, Server};
use mongo_schema::migrate::{migrate, new_data_migration, pending, version_of, MigrateOptions, Model, Naming};
use std::path::Path;

/// Keeps t_schema_migration's documents as mongod would (insert, `$set` update, delete,
/// find), granting every lease (`_id: "lock"`: one applier); answers every other command
/// `{ok: 1}` and logs it.
#[derive(Default)]
struct Fake {
    records: Vec<Document>,
    log: Vec<String>,
    /// Fail the n-th command that is not on the record collection (1-based).
    fail_at: Option<usize>,
    others: usize,
}

impl Server for Fake {
    fn run_command(&mut self, _db: &str, command: Document) -> Result<Document, CommandError> {
        let (name, target) =
            command.iter().next().map(|(k, v)| (k.clone(), v.as_str().unwrap_or_default().to_owned())).unwrap();
        let lease = ["updates", "deletes"]
            .iter()
            .find_map(|k| command.get_array(k).ok())
            .and_then(|s| s[0].as_document()?.get_document("q").ok()?.get_str("_id").ok())
            == Some("lock");
        if let Some(granted) = granting_reply(&command) {
            self.log.push("lease t_schema_migration".to_owned());
            return Ok(granted);
        }
        self.log.push(match (lease, name.as_str()) {
            (true, "update") => "lease t_schema_migration".to_owned(),
            (true, _) => "release t_schema_migration".to_owned(),
            _ => format!("{name} {target}"),
        });
        if name == "count" {
            return Ok(doc! { "n": 0, "ok": 1 });
        }
        if target != "t_schema_migration" {
            self.others += 1;
            if self.fail_at == Some(self.others) {
                return Err(CommandError::Refused { code: BAD_VALUE.code, message: "refused for the test".into() });
            }
            return Ok(doc! { "ok": 1 });
        }
        match name.as_str() {
            "find" => {
                let batch: Vec<Bson> = self.records.iter().cloned().map(Bson::Document).collect();
                return Ok(doc! { "cursor": { "id": 0_i64, "firstBatch": batch }, "ok": 1 });
            }
            "insert" => {
                let docs = command.get_array("documents").unwrap();
                self.records.extend(docs.iter().map(|d| d.as_document().unwrap().clone()));
            }
            "update" => {
                let update = command.get_array("updates").unwrap()[0].as_document().unwrap();
                let Ok(name) = update.get_document("q").unwrap().get_str("migration").map(str::to_owned) else {
                    return Ok(doc! { "ok": 1 }); // the lease
                };
                let set = update.get_document("u").unwrap().get_document("$set").unwrap().clone();
                let record = self.records.iter_mut().find(|r| r.get_str("migration").unwrap() == name).unwrap();
                record.extend(set);
            }
            "delete" => {
                let delete = command.get_array("deletes").unwrap()[0].as_document().unwrap();
                let Ok(name) = delete.get_document("q").unwrap().get_str("migration").map(str::to_owned) else {
                    return Ok(doc! { "ok": 1 }); // the lease
                };
                self.records.retain(|r| r.get_str("migration").unwrap() != name);
            }
            _ => {}
        }
        Ok(doc! { "ok": 1 })
    }
}

fn files(dir: &Path) -> Vec<MigrationFile> {
    pending(dir).unwrap().iter().map(|p| MigrationFile::read(p).unwrap()).collect()
}

fn schema(models: &[Model], args: &[&str]) -> (i32, String, String) {
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = run(models, std::iter::once("schema").chain(args.iter().copied()), &mut out, &mut err);
    (code, String::from_utf8(out).unwrap(), String::from_utf8(err).unwrap())
}

/// The backfill a newly required `email` needs, as a data migration's step.
const BACKFILL: &str = r#"{"db": "db_shop", "command": {"update": "t_user", "updates": [{"q": {"email": {"$exists": false}}, "u": {"$set": {"email": "unknown@example.invalid"}}, "multi": true}]}}"#;

/// Fills the data migration at `path` with `up` steps.
fn fill(path: &Path, up: &[&str]) {
    let mut value: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    value["up"] = serde_json::Value::Array(up.iter().map(|s| serde_json::from_str(s).unwrap()).collect());
    std::fs::write(path, serde_json::to_string_pretty(&value).unwrap()).unwrap();
}

/// v1, a backfill, then v3 (which requires `email`), as `schema` writes them by default.
fn three_migrations(dir: &Path) -> Vec<MigrationFile> {
    migrate(dir, &v1(), &MigrateOptions::default()).unwrap().unwrap();
    let data = new_data_migration(dir, "backfill email", Naming::Timestamp).unwrap();
    fill(&data, &[BACKFILL]);
    migrate(dir, &v3(), &MigrateOptions { direct: true, ..MigrateOptions::default() }).unwrap().unwrap();
    files(dir)
}

#[test]
fn new_migrations_are_timestamped_and_apply_after_numbered_ones() {
    let dir = tempfile::tempdir().unwrap();
    // a directory written before timestamps: 0001, 0002
    let numbered = MigrateOptions { naming: Naming::Sequence, ..MigrateOptions::default() };
    migrate(dir.path(), &v1(), &numbered).unwrap().unwrap();
    let data = new_data_migration(dir.path(), "backfill email", Naming::Sequence).unwrap();
    assert_eq!(data.file_name().unwrap(), "0002_backfill_email.json");
    fill(&data, &[BACKFILL]);
    // then this version's default: a UTC timestamp, above every existing version
    let written = migrate(dir.path(), &v3(), &MigrateOptions::default()).unwrap().unwrap();
    let (version, rest) = version_of(&written.migration.name).unwrap();
    assert_eq!(rest, "tighten_t_user");
    assert_eq!(written.migration.name.split('_').next().unwrap().len(), 14, "{}", written.migration.name);
    assert!(version > 20200101000000, "{version}");
    let later = new_data_migration(dir.path(), "clean up", Naming::Timestamp).unwrap();
    let names: Vec<String> = files(dir.path()).into_iter().map(|f| f.name).collect();
    assert_eq!(names[..2], ["0001_create_t_order_and_1_more", "0002_backfill_email"]);
    assert_eq!(names[2], written.migration.name);
    assert_eq!(
        later.file_stem().unwrap().to_str().unwrap(),
        names[3],
        "a second written in the same second still sorts last"
    );
    assert!(version_of(&names[3]).unwrap().0 > version);
}

#[test]
fn data_migrations_run_in_sequence_and_are_recorded() {
    let dir = tempfile::tempdir().unwrap();
    let migrations = three_migrations(dir.path());
    assert_eq!(
        migrations.iter().map(|m| m.kind).collect::<Vec<_>>(),
        [MigrationKind::Schema, MigrationKind::Data, MigrationKind::Schema]
    );
    let mut fake = Fake::default();
    let outcomes = apply_all(&mut fake, &migrations, "db_schema").unwrap();
    assert!(outcomes.iter().all(|o| matches!(o, Outcome::Applied(_))), "{outcomes:?}");
    let others: Vec<&String> = fake.log.iter().filter(|l| !l.ends_with("t_schema_migration")).collect();
    assert_eq!(
        others,
        [
            "create t_order",
            "create t_user",
            "update t_user",
            // the first migration's contract, gated steps last, each counted then enforced;
            // the third migration's t_user validator after the first's (files' order)
            "count t_order",
            "count t_order",
            "collMod t_order",
            "count t_user",
            "count t_user",
            "collMod t_user",
            "collMod t_user"
        ],
        "the backfill before the tightening"
    );
    assert_eq!(fake.records.len(), 3);
    for (record, file) in fake.records.iter().zip(&migrations) {
        assert_eq!(record.get_str("migration").unwrap(), file.name);
        assert_eq!(record.get_str("checksum").unwrap(), file.checksum);
        assert!(record.get_datetime("appliedAt").is_ok());
    }
}

#[test]
fn an_empty_data_migration_is_refused_before_anything_runs() {
    let dir = tempfile::tempdir().unwrap();
    migrate(dir.path(), &v1(), &MigrateOptions::default()).unwrap().unwrap();
    new_data_migration(dir.path(), "backfill", Naming::Timestamp).unwrap();
    let mut fake = Fake::default();
    let err = apply_all(&mut fake, &files(dir.path()), "db_schema").unwrap_err();
    assert!(
        err.to_string().ends_with(
            "a data migration without steps: write its commands in `up` (see its notes), or delete the file"
        ),
        "{err}"
    );
    assert!(fake.records.is_empty() && fake.others == 0, "{:?}", fake.log);
}

#[test]
fn a_changed_applied_file_is_refused_saying_what_changed() {
    let dir = tempfile::tempdir().unwrap();
    let migrations = three_migrations(dir.path());
    let mut fake = Fake::default();
    apply_all(&mut fake, &migrations, "db_schema").unwrap();
    let data = pending(dir.path()).unwrap()[1].clone();
    fill(&data, &[&BACKFILL.replace("unknown@", "nobody@")]);
    let edited = files(dir.path());
    let before = fake.log.len();
    let err = apply_all(&mut fake, &edited, "db_schema").unwrap_err().to_string();
    assert!(
        err.starts_with(&format!("migration {}: was applied from a file with checksum sha256:", edited[1].name)),
        "{err}"
    );
    assert!(err.contains("What changed: step 1 differs."), "{err}");
    assert!(err.contains("Restore the file from version control"), "{err}");
    assert_eq!(
        fake.log[before..],
        [
            "createIndexes t_schema_migration",
            "lease t_schema_migration",
            "find t_schema_migration",
            "release t_schema_migration"
        ],
        "nothing ran"
    );
    let lines = status(&mut fake, &edited, "db_schema").unwrap();
    assert!(matches!(&lines[1].state, Some(State::Changed(m)) if *m == err[err.find(": ").unwrap() + 2..]));
    // the last migration is unchanged and reverts; the changed one does not
    assert_eq!(revert(&mut fake, &edited, "db_schema").unwrap().as_deref(), Some(edited[2].name.as_str()));
    let err = revert(&mut fake, &edited, "db_schema").unwrap_err().to_string();
    assert!(err.contains("What changed: step 1 differs."), "revert refuses the changed file too: {err}");
    // reformatting alone is still a change, reported as such
    fill(&data, &[BACKFILL]);
    let text = std::fs::read_to_string(&data).unwrap();
    assert_eq!(files(dir.path())[1].checksum, migrations[1].checksum, "restored");
    std::fs::write(&data, text.replace("\n", "\n ")).unwrap();
    let err = apply_all(&mut fake, &files(dir.path()), "db_schema").unwrap_err().to_string();
    assert!(err.contains("What changed: only text around the commands"), "{err}");
}

#[test]
fn a_run_stopped_half_way_resumes_at_the_step_that_did_not_complete() {
    let dir = tempfile::tempdir().unwrap();
    let migrations = three_migrations(dir.path());
    // the second command of the first migration (create t_user) fails
    let mut fake = Fake { fail_at: Some(2), ..Fake::default() };
    let err = apply_all(&mut fake, &migrations, "db_schema").unwrap_err();
    assert!(err.to_string().ends_with("step 2 of 4 (create db_shop.t_user)"), "{err}");
    let lines = status(&mut fake, &migrations, "db_schema").unwrap();
    assert_eq!(lines[0].state, Some(State::Partial { done: 1, steps: 4 }));
    assert_eq!(lines[1].state, Some(State::Pending));
    let todo: Vec<(String, usize)> =
        to_apply(&mut fake, &migrations, "db_schema").unwrap().into_iter().map(|(f, d)| (f.name.clone(), d)).collect();
    assert_eq!(todo[0], (migrations[0].name.clone(), 1));
    fake.fail_at = None;
    fake.log.clear();
    let outcomes = apply_all(&mut fake, &migrations, "db_schema").unwrap();
    assert_eq!(outcomes[0], Outcome::Resumed { name: migrations[0].name.clone(), done: 1 });
    let others: Vec<&String> = fake.log.iter().filter(|l| !l.ends_with("t_schema_migration")).collect();
    assert_eq!(
        others,
        [
            "create t_user",
            "update t_user",
            "count t_order",
            "count t_order",
            "collMod t_order",
            "count t_user",
            "count t_user",
            "collMod t_user",
            "collMod t_user"
        ],
        "create t_order is not run again"
    );
    let lines = status(&mut fake, &migrations, "db_schema").unwrap();
    assert!(lines.iter().all(|l| matches!(l.state, Some(State::Applied { verified: true, .. }))), "{lines:?}");
}

#[test]
fn dry_run_reads_only() {
    let dir = tempfile::tempdir().unwrap();
    let migrations = three_migrations(dir.path());
    let mut fake = Fake::default();
    let todo = to_apply(&mut fake, &migrations, "db_schema").unwrap();
    assert_eq!(todo.len(), 3);
    assert_eq!(fake.log, ["find t_schema_migration"], "no index, no record, no step");
}

#[test]
fn revert_runs_the_last_down_steps_and_deletes_its_record() {
    let dir = tempfile::tempdir().unwrap();
    let migrations = three_migrations(dir.path());
    let mut fake = Fake::default();
    apply_all(&mut fake, &migrations, "db_schema").unwrap();
    fake.log.clear();
    assert_eq!(revert(&mut fake, &migrations, "db_schema").unwrap().as_deref(), Some(migrations[2].name.as_str()));
    assert_eq!(
        fake.log,
        [
            "createIndexes t_schema_migration",
            "lease t_schema_migration",
            "find t_schema_migration",
            "collMod t_user",
            "delete t_schema_migration",
            "release t_schema_migration"
        ]
    );
    let lines = status(&mut fake, &migrations, "db_schema").unwrap();
    assert_eq!(lines[2].state, Some(State::Pending));
    // the data migration's `down` is empty: reverting it only deletes its record
    fake.log.clear();
    assert_eq!(revert(&mut fake, &migrations, "db_schema").unwrap().as_deref(), Some(migrations[1].name.as_str()));
    assert_eq!(
        fake.log,
        [
            "createIndexes t_schema_migration",
            "lease t_schema_migration",
            "find t_schema_migration",
            "delete t_schema_migration",
            "release t_schema_migration"
        ]
    );
    revert(&mut fake, &migrations, "db_schema").unwrap();
    assert_eq!(revert(&mut fake, &migrations, "db_schema").unwrap(), None, "nothing left to revert");
    assert!(fake.records.is_empty());
    // and everything applies again
    let outcomes = apply_all(&mut fake, &migrations, "db_schema").unwrap();
    assert!(outcomes.iter().all(|o| matches!(o, Outcome::Applied(_))));
}

#[test]
fn a_file_named_differently_from_its_migration_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = new_data_migration(dir.path(), "backfill", Naming::Sequence).unwrap();
    let copy = dir.path().join("0002_copied.json");
    std::fs::copy(&path, &copy).unwrap();
    let err = MigrationFile::read(&copy).unwrap_err();
    let mut text = err.to_string();
    let mut cause = std::error::Error::source(&err);
    while let Some(e) = cause {
        text = format!("{text}: {e}");
        cause = e.source();
    }
    assert!(text.ends_with("names the migration \"0001_backfill\", but the file is 0002_copied.json: a migration is recorded by its name, so rename one to match the other"), "{text}");
}

#[test]
fn migrate_check_exits_1_when_the_models_changed_without_a_migration() {
    let dir = tempfile::tempdir().unwrap();
    let dir_arg = dir.path().to_str().unwrap();
    let (code, out, _) = schema(&v1(), &["migrate", "--dir", dir_arg, "--check"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.starts_with("the models changed without a migration;"), "{out}");
    assert!(out.contains("db_shop.t_user (app::User): new collection"), "{out}");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0, "--check writes nothing");
    assert_eq!(schema(&v1(), &["migrate", "--dir", dir_arg]).0, 0);
    let (code, out, _) = schema(&v1(), &["migrate", "--dir", dir_arg, "--check"]);
    assert_eq!((code, out.starts_with("migrations are current")), (0, true), "{out}");
    let (code, out, _) = schema(&v3(), &["migrate", "--dir", dir_arg, "--check"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("db_shop.t_user (app::User) [validator]: tightened: first a validator that admits"), "{out}");
    assert!(out.contains("- email: newly required"), "{out}");
    let contract = out.find("then, in its contract").expect("the contract announced");
    assert!(out[contract..].contains("enforce the model's validator"), "the enforcing step after it: {out}");
    let (_, json, _) = schema(&v3(), &["migrate", "--dir", dir_arg, "--check", "--format", "json"]);
    let value: serde_json::Value = serde_json::from_str(&json).unwrap();
    let phases: Vec<(&str, bool)> = value["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["phase"].as_str().unwrap(), s["requireValid"].as_bool().unwrap()))
        .collect();
    assert_eq!(phases, [("expand", false), ("contract", true)], "{json}");
    // the whole document, as docs/MIGRATIONS.md describes it (pretty for the reader; printed compact)
    insta::assert_snapshot!("migrate_check_json", serde_json::to_string_pretty(&value).unwrap());
}

#[test]
fn new_data_writes_a_documented_template_and_needs_no_model() {
    let dir = tempfile::tempdir().unwrap();
    let (code, out, err) = schema(&[], &["new-data", "backfill email", "--dir", dir.path().to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("wrote data migration "), "{out}");
    let file = &files(dir.path())[0];
    assert!(file.name.ends_with("_backfill_email"), "{}", file.name);
    assert_eq!((file.kind, file.up.len(), file.down.len()), (MigrationKind::Data, 0, 0));
}

#[test]
fn a_failed_write_in_a_data_step_stops_apply() {
    struct WriteErrors(Fake);
    impl Server for WriteErrors {
        fn run_command(&mut self, db: &str, command: Document) -> Result<Document, CommandError> {
            let update = command.get_str("update").is_ok_and(|t| t == "t_user");
            let reply = self.0.run_command(db, command)?;
            Ok(match update {
                true => {
                    doc! { "ok": 1, "n": 0, "writeErrors": [{ "index": 0, "code": 121, "errmsg": "Document failed validation" }] }
                }
                false => reply,
            })
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let migrations = three_migrations(dir.path());
    let mut server = WriteErrors(Fake::default());
    let err = apply_all(&mut server, &migrations, "db_schema").unwrap_err();
    let mut text = err.to_string();
    if let Some(cause) = std::error::Error::source(&err) {
        text = format!("{text}: {cause}");
    }
    assert_eq!(
        text,
        format!(
            "migration {}: step 1 of 1 (update db_shop.t_user): write failed: Document failed validation (code 121)",
            migrations[1].name
        )
    );
    let backfill = server.0.log.iter().position(|l| l == "update t_user").unwrap();
    assert!(
        !server.0.log[backfill..].contains(&"collMod t_user".to_owned()),
        "the tightening does not run after a failed backfill"
    );
}

use mongo_schema_test_support::rehearsal;

use mongo_schema::simulate::{rehearse_release, Samples, Verdict};
use mongo_schema::Validator;
use rehearsal::Conversions;

/// The data migration's name (the last file).
fn data_name(files: &[MigrationFile]) -> &str {
    &files.last().unwrap().name
}

#[test]
fn one_update_per_field_is_refused_before_the_deploy_and_one_update_per_shape_passes() {
    let dir = tempfile::tempdir().unwrap();
    let files = rehearsal::write(dir.path(), Conversions::PerField);
    let rehearsed = rehearse_release(&files, &Samples::default());
    let previous = Validator::for_type::<rehearsal::before::Order>().unwrap();
    let refused: Vec<_> = rehearsed.refused().map(|f| (f.migration.as_str(), f.step, f.statement)).collect();
    // the type change leaves `amount` new and `note` old; the removal leaves `note` gone and
    // `amount` old: neither model admits them. The enum narrowing and the lowered bound keep
    // the previous model's shape, which the expand validator still admits.
    let name = data_name(&files);
    assert_eq!(refused, [(name, 1, Some(1)), (name, 3, Some(1))], "{:#?}", rehearsed.findings);
    for finding in rehearsed.refused() {
        let Verdict::Refused { in_force, shapes } = &finding.verdict else { unreachable!() };
        assert_eq!(in_force.name, format!("the expand validator of {} step 1", files[1].name));
        assert_eq!((in_force.level.as_str(), in_force.action.as_str()), ("strict", "error"));
        // every document the previous release writes, and only those, is refused
        let sampled_old = rehearsed.traces.iter().find(|t| t.step == finding.step).unwrap();
        let old: Vec<_> = sampled_old.met.iter().filter(|d| previous.is_valid(d)).collect();
        assert_eq!(shapes.iter().map(|s| s.documents).sum::<usize>(), old.len());
        assert!(shapes.iter().all(|s| previous.is_valid(&s.before)));
        assert!(finding.advice().contains("one update per document shape"), "{}", finding.advice());
    }
    let paths = |step: usize| -> Vec<String> {
        let finding = rehearsed.refused().find(|f| f.step == step).unwrap();
        let Verdict::Refused { shapes, .. } = &finding.verdict else { unreachable!() };
        shapes.iter().flat_map(|s| s.paths.clone()).collect()
    };
    for path in
        ["amount: bsonType (previous model)", "note: additionalProperties (new model)", "status: enum (new model)"]
    {
        assert!(paths(1).contains(&path.to_owned()), "{path}: {:?}", paths(1));
    }
    for path in ["note: required (previous model)", "amount: bsonType (new model)", "discount: maximum (new model)"] {
        assert!(paths(3).contains(&path.to_owned()), "{path}: {:?}", paths(3));
    }

    let dir = tempfile::tempdir().unwrap();
    let files = rehearsal::write(dir.path(), Conversions::PerShape);
    let rehearsed = rehearse_release(&files, &Samples::default());
    assert!(rehearsed.findings.is_empty(), "{:#?}", rehearsed.findings);
    let trace = &rehearsed.traces[0];
    assert!(trace.met.iter().filter(|d| previous.is_valid(d)).count() >= 10, "the previous model's shapes were met");
}

#[test]
fn a_step_the_rehearsal_cannot_judge_says_so_and_never_passes() {
    let dir = tempfile::tempdir().unwrap();
    let files = rehearsal::write(dir.path(), Conversions::Unjudged);
    let rehearsed = rehearse_release(&files, &Samples::default());
    assert_eq!(rehearsed.refused().count(), 0);
    let why: Vec<(usize, String)> = rehearsed
        .not_simulated()
        .map(|f| match &f.verdict {
            Verdict::NotSimulated(why) => (f.step, why.clone()),
            _ => unreachable!(),
        })
        .collect();
    assert_eq!(why.len(), 2, "{why:?}");
    assert_eq!(why[0].0, 1);
    assert!(why[0].1.contains("$toUpper"), "{}", why[0].1);
    assert_eq!(why[1].0, 2);
    assert!(why[1].1.contains("$merge"), "{}", why[1].1);
}

#[test]
fn migrate_check_reports_the_refused_step_with_its_paths_in_text_and_json() {
    let models = rehearsal::after_models();
    let dir = tempfile::tempdir().unwrap();
    let files = rehearsal::write(dir.path(), Conversions::PerField);
    let at = dir.path().to_str().unwrap();
    let (code, out, _) = schema(&models, &["migrate", "--check", "--dir", at]);
    assert_eq!(code, 1, "{out}");
    assert!(out.starts_with("migrations are current"), "{out}");
    let step =
        |n: usize| format!("REFUSED  {} step {n} (update db_rehearse.t_order, statement 1): ", data_name(&files));
    assert!(out.contains(&step(1)) && out.contains(&step(3)) && !out.contains(&step(2)), "{out}");
    assert!(
        out.contains("fails at amount: bsonType (previous model), note: additionalProperties (new model)"),
        "{out}"
    );
    assert!(out.contains("what to do: the update leaves documents halfway"), "{out}");
    assert!(out.contains("4 statement(s) rehearsed"), "{out}");

    let (code, out, _) = schema(&models, &["migrate", "--check", "--dir", at, "--format", "json"]);
    assert_eq!(code, 1, "{out}");
    let report: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(report["current"], true);
    let data = &report["dataSteps"];
    assert_eq!((data["statements"].as_u64(), data["refused"].as_u64()), (Some(4), Some(2)), "{data}");
    let first = &data["findings"][0];
    assert_eq!((first["step"].as_u64(), first["verdict"].as_str()), (Some(1), Some("refused")), "{first}");
    assert_eq!(first["validator"]["name"], format!("the expand validator of {} step 1", files[1].name));
    let paths = first["shapes"][0]["paths"].as_array().unwrap();
    assert!(paths.iter().any(|p| p == "amount: bsonType (previous model)"), "{first}");

    let dir = tempfile::tempdir().unwrap();
    rehearsal::write(dir.path(), Conversions::PerShape);
    let at = dir.path().to_str().unwrap();
    let (code, out, _) = schema(&models, &["migrate", "--check", "--dir", at]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("1 statement(s) rehearsed over sample documents under the validator in force when each runs: none would be refused"), "{out}");

    let dir = tempfile::tempdir().unwrap();
    rehearsal::write(dir.path(), Conversions::Unjudged);
    let at = dir.path().to_str().unwrap();
    let (code, out, _) = schema(&models, &["migrate", "--check", "--dir", at]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("0 would be refused, 2 not simulated"), "{out}");
    assert!(out.contains("NOT SIMULATED  ") && out.contains("$toUpper"), "{out}");
}

#[test]
fn migrate_check_rehearses_the_documents_of_a_dump_too() {
    let models = rehearsal::after_models();
    let dir = tempfile::tempdir().unwrap();
    let files = rehearsal::write(dir.path(), Conversions::PerShape);
    // a document written before the validator existed: its status no model admits
    let legacy = dir.path().join("legacy.json");
    let line = r#"{"_id": {"$oid": "6b0a3635d1e70f13d020c921"}, "orderNo": "A-1", "amount": {"$numberLong": "1999"}, "status": "refunded", "note": "", "discount": 0}"#;
    std::fs::write(&legacy, format!("{line}\n")).unwrap();
    let (at, sample) = (dir.path().to_str().unwrap(), legacy.to_str().unwrap());
    let (code, out, _) =
        schema(&models, &["migrate", "--check", "--dir", at, "--sample", sample, "--collection", "t_order"]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains(&format!(
            "REFUSED  {} step 1 (update db_rehearse.t_order, statement 1): 1 sample document(s)",
            data_name(&files)
        )),
        "{out}"
    );
    assert!(out.contains(&format!("shape (from {sample}, 1 document(s)): fails at amount: bsonType (previous model), status: enum (previous model), note: required (previous model), status: enum (new model)")), "{out}");

    // the same document in a mongodump directory (`dump/<db>/<collection>.bson`): no --collection
    let dump = dir.path().join("dump");
    std::fs::create_dir_all(dump.join("db_rehearse")).unwrap();
    let legacy: mongo_schema::bson::Document = serde_json::from_str::<serde_json::Value>(line)
        .map(|v| mongo_schema::bson::Bson::try_from(v).unwrap().as_document().unwrap().clone())
        .unwrap();
    let mut bytes = Vec::new();
    legacy.to_writer(&mut bytes).unwrap();
    let file = dump.join("db_rehearse").join("t_order.bson");
    std::fs::write(&file, bytes).unwrap();
    let (code, out, _) = schema(&models, &["migrate", "--check", "--dir", at, "--sample", dump.to_str().unwrap()]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains(&format!("shape (from {}, 1 document(s))", file.display())), "{out}");
}

#[test]
fn a_conversion_that_misses_a_shape_is_told_to_stop_at_the_gate() {
    let dir = tempfile::tempdir().unwrap();
    let files = rehearsal::write(dir.path(), Conversions::LongOnly);
    let rehearsed = rehearse_release(&files, &Samples::default());
    assert_eq!(rehearsed.refused().count(), 0, "{:#?}", rehearsed.findings);
    let gates: Vec<_> = rehearsed.gates().collect();
    assert_eq!(gates.len(), 1, "{:#?}", rehearsed.findings);
    assert_eq!((gates[0].migration.as_str(), gates[0].step), (files[1].name.as_str(), 2));
    let Verdict::GateStops { shapes, .. } = &gates[0].verdict else { unreachable!() };
    // exactly the previous model's documents whose cents are an int
    assert!(shapes.iter().all(|s| matches!(s.before.get("amount"), Some(mongo_schema::bson::Bson::Int32(_)))));
    assert!(shapes.iter().all(|s| s.paths.contains(&"amount: bsonType".to_owned())), "{shapes:#?}");
    let models = rehearsal::after_models();
    let (code, out, _) = schema(&models, &["migrate", "--check", "--dir", dir.path().to_str().unwrap()]);
    assert_eq!(code, 0, "the gate stops the contract by design, nothing is refused: {out}");
    assert!(out.contains(&format!("GATE  {} step 2 (collMod db_rehearse.t_order): ", files[1].name)), "{out}");
}
