//! `apply` and `drift` against a recording fake server: the order of commands, the
//! idempotent fallback, skipping applied migrations, and every failure path.

#![forbid(unsafe_code)]
// The `migrate` module comes with the `cli` feature (writing migrations) or `migrate` (applying them).
#![cfg(any(feature = "cli", feature = "migrate"))]

use mongo_schema_test_support::migrate_models;

use migrate_models::{apply_all, v1, v3};
use mongo_schema::bson::{doc, Bson, Document};
use mongo_schema::codes::{ServerCode, BAD_VALUE, DUPLICATE_KEY, NAMESPACE_EXISTS, UNAUTHORIZED};
use mongo_schema::migrate::apply::{apply, apply_with, ApplyError, ApplyOptions, Event, Outcome};
use mongo_schema::migrate::drift::{drift, DriftStatus};
use mongo_schema::migrate::file::MigrationFile;
use mongo_schema::migrate::lock::granting_reply;
use mongo_schema::migrate::server::{CommandError, Server};
use mongo_schema::migrate::{migrate, pending, MigrateOptions, Naming};

/// Records every command; answers from a script keyed by the command's name and
/// collection, `{ok: 1}` otherwise.
#[derive(Default)]
struct Fake {
    calls: Vec<(String, Document)>,
    applied: Vec<&'static str>,
    fail: Vec<(&'static str, &'static str, ServerCode, &'static str)>,
    collections: Vec<(&'static str, Document)>,
    /// What `count` answers for the documents failing a validator (`query` given), and an
    /// `aggregate` counting them after the moves.
    failing: i64,
    /// Records of migrations started with this many steps done (done = all: applied).
    applied_partly: Vec<(&'static str, i64)>,
}

/// The error and its causes on one line, as the `schema` CLI prints them.
fn chain(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut cause = error.source();
    while let Some(e) = cause {
        text = format!("{text}: {e}");
        cause = e.source();
    }
    text
}

impl Server for Fake {
    fn run_command(&mut self, db: &str, command: Document) -> Result<Document, CommandError> {
        self.calls.push((db.to_owned(), command.clone()));
        if let Some(granted) = granting_reply(&command) {
            return Ok(granted);
        }
        let (name, target) =
            command.iter().next().map(|(k, v)| (k.clone(), v.as_str().unwrap_or_default().to_owned())).unwrap();
        if let Some((_, _, code, message)) = self.fail.iter().find(|(n, t, _, _)| *n == name && *t == target) {
            return Err(CommandError::Refused { code: code.code, message: (*message).to_owned() });
        }
        Ok(match name.as_str() {
            "find" => {
                // records as versions before checksums wrote them
                let records: Vec<Document> = self
                    .applied
                    .iter()
                    .map(|m| doc! { "migration": *m, "steps": 1, "appliedAt": mongo_schema::bson::DateTime::now() })
                    .chain(
                        self.applied_partly.iter().map(|(m, done)| doc! { "migration": *m, "steps": 9, "done": *done }),
                    )
                    .collect();
                doc! { "cursor": { "id": 0_i64, "firstBatch": records }, "ok": 1 }
            }
            "listCollections" => self.list(&command),
            "count" if command.contains_key("query") => doc! { "n": self.failing, "ok": 1 },
            "count" => doc! { "n": 100_i64, "ok": 1 },
            "aggregate" => {
                let last = command.get_array("pipeline").unwrap().last().unwrap().as_document().unwrap().clone();
                let found = match last.contains_key("$count") {
                    true => doc! { "n": self.failing as i32 },
                    false => doc! { "_id": 7 },
                };
                let batch: Vec<Document> = (self.failing > 0).then_some(found).into_iter().collect();
                doc! { "cursor": { "id": 0_i64, "firstBatch": batch }, "ok": 1 }
            }
            "listIndexes" => {
                doc! { "cursor": { "id": 0_i64, "firstBatch": [{ "v": 2, "key": { "_id": 1 }, "name": "_id_" }] }, "ok": 1 }
            }
            _ => doc! { "ok": 1 },
        })
    }
}

impl Fake {
    fn list(&self, command: &Document) -> Document {
        let name = command.get_document("filter").unwrap().get_str("name").unwrap();
        let batch: Vec<Bson> = self
            .collections
            .iter()
            .filter(|(n, _)| *n == name)
            .map(|(n, o)| doc! { "name": *n, "options": o.clone() }.into())
            .collect();
        doc! { "cursor": { "firstBatch": batch }, "ok": 1 }
    }

    /// `name collection` of each command; the lease's (`_id: "lock"`) as `lease` (take or
    /// renew) and `release`.
    fn commands(&self) -> Vec<String> {
        self.calls
            .iter()
            .map(|(_, c)| {
                let statement = ["updates", "deletes"]
                    .iter()
                    .find_map(|k| c.get_array(k).ok())
                    .and_then(|s| s[0].as_document().and_then(|s| s.get_document("q").ok()).cloned());
                if granting_reply(c).is_some() {
                    return "lease".to_owned();
                }
                match statement.as_ref().and_then(|q| q.get_str("_id").ok()) {
                    Some("lock") => "release".to_owned(),
                    _ => c.iter().next().map(|(k, v)| format!("{k} {}", v.as_str().unwrap_or("1"))).unwrap(),
                }
            })
            .collect()
    }
}

/// Two migrations: create both collections, then the staged tightening of t_user.
fn migrations() -> Vec<MigrationFile> {
    let dir = tempfile::tempdir().unwrap();
    let numbered = MigrateOptions { naming: Naming::Sequence, ..MigrateOptions::default() };
    migrate(dir.path(), &v1(), &numbered).unwrap();
    migrate(dir.path(), &v3(), &numbered).unwrap();
    pending(dir.path()).unwrap().iter().map(|p| MigrationFile::read(p).unwrap()).collect()
}

#[test]
fn applies_in_order_and_records_each() {
    let mut fake = Fake::default();
    let outcomes = apply_all(&mut fake, &migrations(), "db_schema").unwrap();
    assert_eq!(
        outcomes,
        [Outcome::Applied("0001_create_t_order_and_1_more".into()), Outcome::Applied("0002_tighten_t_user".into())]
    );
    assert_eq!(
        fake.commands(),
        [
            "createIndexes t_schema_migration",
            "lease",
            "find t_schema_migration",
            "insert t_schema_migration",
            "lease",
            "create t_order",
            "update t_schema_migration",
            "lease",
            "create t_user",
            "update t_schema_migration",
            // the contract: each enforcing collMod after the server counted no failing
            // document, each collection's validators in the order of the files
            "lease",
            "count t_order",
            "count t_order",
            "collMod t_order",
            "update t_schema_migration",
            "lease",
            "count t_user",
            "count t_user",
            "collMod t_user",
            "update t_schema_migration",
            "insert t_schema_migration",
            "lease",
            "collMod t_user",
            "update t_schema_migration",
            "lease",
            "count t_user",
            "count t_user",
            "collMod t_user",
            "update t_schema_migration",
            "release",
        ]
    );
    let record = fake.calls[3].1.get_array("documents").unwrap()[0].as_document().unwrap().clone();
    assert_eq!(record.get_str("migration").unwrap(), "0001_create_t_order_and_1_more");
    assert!(record.get_object_id("_id").is_ok(), "the standard: ObjectId _id");
}

#[test]
fn a_first_migration_that_created_its_collections_runs_its_contract_with_its_expand() {
    let mut fake = Fake::default();
    let outcomes = apply(&mut fake, &migrations(), "db_schema").unwrap();
    assert_eq!(
        outcomes,
        [
            Outcome::Applied("0001_create_t_order_and_1_more".into()),
            Outcome::ContractPending { name: "0002_tighten_t_user".into(), done: 1, steps: 2 },
        ],
        "both collections created: nothing to wait for; the next release's own contract waits"
    );
    assert_eq!(
        &fake.commands()[3..16],
        [
            "insert t_schema_migration",
            "lease",
            "create t_order",
            "update t_schema_migration",
            "lease",
            "create t_user",
            "update t_schema_migration",
            "lease",
            "count t_order",
            "count t_order",
            "collMod t_order",
            "update t_schema_migration",
            "lease",
        ]
    );
    let created: Vec<Document> = fake
        .calls
        .iter()
        .filter_map(|(_, c)| {
            c.get_array("updates").ok()?[0]
                .as_document()?
                .get_document("u")
                .ok()?
                .get_document("$addToSet")
                .ok()
                .cloned()
        })
        .collect();
    assert_eq!(created, [doc! { "created": 0_i64 }, doc! { "created": 1_i64 }], "each create recorded as a creation");
}

/// t_user existed (adopted): 0001's contract on it waits, and so does everything later on it.
fn with_t_user_existing() -> Fake {
    Fake {
        fail: vec![("create", "t_user", NAMESPACE_EXISTS, "Collection already exists. NS: db_shop.t_user")],
        ..Fake::default()
    }
}

/// A data migration of `phase` with one step on `collection`.
fn data(name: &str, phase: &str, collection: &str) -> MigrationFile {
    let text = serde_json::json!({
        "migration": name, "kind": "data", "phase": phase,
        "up": [{ "db": "db_shop", "command": { "update": collection, "updates": [{ "q": {}, "u": { "$set": { "n": 1 } }, "multi": true }] } }],
    });
    MigrationFile::parse(&text.to_string()).unwrap()
}

#[test]
fn a_data_step_after_a_held_migration_waits_behind_the_same_contract_and_is_reported() {
    let mut files = migrations();
    files.push(data("0003_convert_t_user", "expand", "t_user"));
    files.push(data("0004_touch_t_order", "expand", "t_order"));
    let mut fake = with_t_user_existing();
    let mut events = Vec::new();
    let outcomes = apply_with(&mut fake, &files, &ApplyOptions::new("db_schema"), &mut |e| events.push(e)).unwrap();
    let behind = "0001_create_t_order_and_1_more".to_owned();
    assert_eq!(
        outcomes,
        [
            Outcome::ContractPending { name: behind.clone(), done: 3, steps: 4 },
            Outcome::Held {
                name: "0002_tighten_t_user".into(),
                done: 0,
                behind: behind.clone(),
                namespace: "db_shop.t_user".into()
            },
            Outcome::Held {
                name: "0003_convert_t_user".into(),
                done: 0,
                behind: behind.clone(),
                namespace: "db_shop.t_user".into()
            },
            Outcome::Applied("0004_touch_t_order".into()),
        ]
    );
    let user_writes: Vec<String> =
        fake.commands().into_iter().filter(|c| c.ends_with(" t_user") && !c.starts_with("count")).collect();
    assert_eq!(user_writes, ["create t_user", "collMod t_user"], "only 0001's expand touched t_user");
    let held: Vec<&Event> = events.iter().filter(|e| matches!(e, Event::Held { .. })).collect();
    assert_eq!(
        held[1],
        &Event::Held {
            migration: "0003_convert_t_user".into(),
            step: "step 1 of 1 (update db_shop.t_user)".into(),
            behind: behind.clone(),
            namespace: "db_shop.t_user".into(),
            after: Some("0002_tighten_t_user".into()),
        }
    );

    // the contract: 0001's gate, then 0002's expand, the data step, 0002's gate
    let mut fake = with_t_user_existing();
    fake.applied_partly = vec![("0001_create_t_order_and_1_more", 3), ("0004_touch_t_order", 1)];
    let contract = ApplyOptions { contract: true, ..ApplyOptions::new("db_schema") };
    apply_with(&mut fake, &files, &contract, &mut |_| {}).unwrap();
    let user: Vec<String> = fake.commands().into_iter().filter(|c| c.ends_with(" t_user")).collect();
    assert_eq!(
        user,
        [
            "count t_user",
            "count t_user",
            "collMod t_user",
            "collMod t_user",
            "update t_user",
            "count t_user",
            "count t_user",
            "collMod t_user"
        ],
    );

    // a failure path: the earlier gate stops; the data step written after it is not run
    let mut fake = with_t_user_existing();
    fake.applied_partly = vec![("0001_create_t_order_and_1_more", 3), ("0004_touch_t_order", 1)];
    fake.failing = 2;
    let err = apply_with(&mut fake, &files, &contract, &mut |_| {}).unwrap_err();
    assert!(
        chain(&err)
            .starts_with("migration 0001_create_t_order_and_1_more: step 4 of 4 (collMod db_shop.t_user): not run"),
        "{err}"
    );
    assert!(!fake.commands().contains(&"update t_user".to_owned()), "the data step did not run: {:?}", fake.commands());
}

/// The steps `apply` runs over `fake` (`(migration, step)`, 1-based), and its outcomes.
fn ran(fake: &mut Fake, files: &[MigrationFile], contract: bool) -> (Vec<(String, usize)>, Vec<Outcome>) {
    let options = ApplyOptions { contract, ..ApplyOptions::new("db_schema") };
    let mut ran: Vec<(String, usize)> = Vec::new();
    let mut report = |event: Event| {
        if let Event::Step { migration, step } = event {
            let number = step.trim_start_matches("step ").split(' ').next().unwrap().parse().unwrap();
            ran.push((migration, number));
        }
    };
    let outcomes = apply_with(fake, files, &options, &mut report).unwrap();
    (ran, outcomes)
}

#[cfg(feature = "cli")]
#[test]
fn the_rehearsal_of_a_deploy_runs_the_steps_apply_runs_in_the_same_order() {
    use mongo_schema::migrate::order::Progress;
    use mongo_schema::simulate::{rehearse, Samples};
    let files = migrations();
    let leak = |name: String| -> &'static str { Box::leak(name.into_boxed_str()) };
    // a fresh deployment, then one where t_user exists (its create adopts it, with documents)
    let mut orders = Vec::new();
    for existing in [false, true] {
        let fresh = || if existing { with_t_user_existing() } else { Fake::default() };
        // the run with the release, then `apply --contract` from the records it left
        let (release, outcomes) = ran(&mut fresh(), &files, false);
        let mut second = fresh();
        for outcome in outcomes {
            match outcome {
                Outcome::Applied(name) => second.applied.push(leak(name)),
                Outcome::ContractPending { name, done, .. } | Outcome::Held { name, done, .. } => {
                    second.applied_partly.push((leak(name), done as i64))
                }
                other => panic!("{other:?}"),
            }
        }
        let with_contract = ran(&mut second, &files, true).0;
        let order: Vec<(String, usize, bool)> = release
            .into_iter()
            .map(|(m, s)| (m, s, false))
            .chain(with_contract.into_iter().map(|(m, s)| (m, s, true)))
            .collect();
        let mut samples = Samples::default();
        if existing {
            samples.add("db_shop.t_user", doc! { "_id": 1, "name": "stored" }, "stored");
        }
        let rehearsed = rehearse(&files, &vec![Progress::default(); files.len()], &samples);
        let steps: Vec<_> = rehearsed.steps.iter().map(|r| (r.migration.clone(), r.step, r.contract)).collect();
        assert_eq!(steps, order, "t_user existing: {existing}");
        orders.push(order);
    }
    // created, 0001's contract (step 4, on t_user) runs with its expand; adopted, it waits
    // for `apply --contract`
    let contract =
        |order: &[(String, usize, bool)]| order.iter().find(|(m, s, _)| m.starts_with("0001") && *s == 4).unwrap().2;
    assert!(!contract(&orders[0]) && contract(&orders[1]), "{orders:?}");
}

#[test]
fn the_enforcing_step_refuses_while_stored_documents_fail_it() {
    let mut fake = Fake { failing: 3, applied: vec!["0001_create_t_order_and_1_more"], ..Fake::default() };
    let err = apply_all(&mut fake, &migrations(), "db_schema").unwrap_err();
    assert!(!err.is_deployment_error(), "a finding (exit 1), not a deployment error");
    let ApplyError::Migration { migration, message, .. } = &err else { panic!("{err:?}") };
    assert_eq!(migration, "0002_tighten_t_user");
    assert!(
        message.starts_with(
            "step 2 of 2 (collMod db_shop.t_user): not run: it enforces the model's validator, and 3 of 100 documents \
             of db_shop.t_user fail it. `schema check --uri \"$MONGODB_URI\" --collection db_shop.t_user` lists them"
        ),
        "{err}"
    );
    let commands = fake.commands();
    assert_eq!(commands[commands.len() - 3..], ["count t_user", "count t_user", "release"]);
    let validators = fake.calls.iter().filter(|(_, c)| c.contains_key("collMod")).count();
    assert_eq!(validators, 1, "the expand ran, the enforcing collMod did not");

    let mut fake = Fake { failing: 3, applied: vec!["0001_create_t_order_and_1_more"], ..Fake::default() };
    let anyway = ApplyOptions { contract: true, enforce_anyway: true, ..ApplyOptions::new("db_schema") };
    mongo_schema::migrate::apply::apply_with(&mut fake, &migrations(), &anyway, &mut |_| {}).unwrap();
    let counts = fake.calls.iter().filter(|(_, c)| c.contains_key("count")).count();
    assert_eq!(counts, 0, "--enforce-anyway counts nothing");
}

#[test]
fn existing_collections_fall_back_to_coll_mod() {
    let mut fake = Fake {
        fail: vec![("create", "t_user", NAMESPACE_EXISTS, "Collection already exists. NS: db_shop.t_user")],
        ..Fake::default()
    };
    apply_all(&mut fake, &migrations()[..1], "db_schema").unwrap();
    assert_eq!(
        &fake.commands()[3..],
        [
            "insert t_schema_migration",
            "lease",
            "create t_order",
            "update t_schema_migration",
            "lease",
            "create t_user",
            "collMod t_user",
            // adopted: how many documents fail the validator installed under warn
            "count t_user",
            "count t_user",
            "update t_schema_migration",
            "lease",
            "count t_order",
            "count t_order",
            "collMod t_order",
            "update t_schema_migration",
            "lease",
            "count t_user",
            "count t_user",
            "collMod t_user",
            "update t_schema_migration",
            "release"
        ]
    );
    let fallback = fake.calls.iter().find(|(_, c)| c.get_str("collMod").ok() == Some("t_user")).unwrap();
    assert_eq!(
        (fallback.1.get_str("validationAction").unwrap(), fallback.1.get_str("validationLevel").unwrap()),
        ("warn", "moderate"),
        "an existing collection is adopted without refusing its writers"
    );
}

#[test]
fn applied_migrations_are_skipped() {
    let mut fake = Fake { applied: vec!["0001_create_t_order_and_1_more"], ..Fake::default() };
    let outcomes = apply_all(&mut fake, &migrations(), "db_schema").unwrap();
    assert_eq!(outcomes[0], Outcome::AlreadyApplied("0001_create_t_order_and_1_more".into()));
    assert_eq!(
        &fake.commands()[3..],
        [
            "insert t_schema_migration",
            "lease",
            "collMod t_user",
            "update t_schema_migration",
            "lease",
            "count t_user",
            "count t_user",
            "collMod t_user",
            "update t_schema_migration",
            "release"
        ]
    );
}

#[test]
fn the_first_failure_stops_with_the_servers_message_and_is_not_recorded_as_applied() {
    let fail = vec![("collMod", "t_user", BAD_VALUE, "$jsonSchema keyword 'maxLength' must be a non-negative integer")];
    let mut fake = Fake { fail, applied: vec!["0001_create_t_order_and_1_more"], ..Fake::default() };
    let err = apply_all(&mut fake, &migrations(), "db_schema").unwrap_err();
    assert_eq!(chain(&err), "migration 0002_tighten_t_user: step 1 of 2 (collMod db_shop.t_user): $jsonSchema keyword 'maxLength' must be a non-negative integer (code 2)");
    let commands = fake.commands();
    assert_eq!(
        commands[commands.len() - 2..],
        ["collMod t_user", "release"],
        "nothing runs or is recorded after the failure"
    );
}

#[test]
fn other_errors_on_create_are_not_swallowed_by_the_fallback() {
    let mut fake =
        Fake { fail: vec![("create", "t_order", UNAUTHORIZED, "not authorized on db_shop")], ..Fake::default() };
    let err = apply_all(&mut fake, &migrations(), "db_schema").unwrap_err();
    assert!(chain(&err).ends_with("not authorized on db_shop (code 13)"), "{err}");
    assert_eq!(fake.commands()[fake.commands().len() - 2..], ["create t_order", "release"]);
}

#[test]
fn an_unreadable_state_collection_stops_before_any_migration() {
    let mut fake =
        Fake { fail: vec![("find", "t_schema_migration", UNAUTHORIZED, "not authorized")], ..Fake::default() };
    let err = apply_all(&mut fake, &migrations(), "db_ops").unwrap_err();
    assert!(matches!(&err, ApplyError::State { state_db, cause } if state_db == "db_ops" && cause.is(UNAUTHORIZED)));
    assert_eq!(
        chain(&err),
        "cannot use the migration records db_ops.t_schema_migration (this user cannot use db_ops: give it readWrite there, or keep \
         the records in a database it can write, the same for every applier: `--state-db NAME`, \
         `Migrator::state_db(NAME)`): not authorized (code 13)"
    );
    assert!(err.is_deployment_error(), "the CLI exits 2 on it");
    assert_eq!(fake.commands(), ["createIndexes t_schema_migration", "lease", "find t_schema_migration", "release"]);
}

#[test]
fn a_failed_record_is_reported() {
    struct WriteError(Fake);
    impl Server for WriteError {
        fn run_command(&mut self, db: &str, command: Document) -> Result<Document, CommandError> {
            let insert = command.contains_key("insert");
            let reply = self.0.run_command(db, command)?;
            Ok(if insert {
                doc! { "ok": 1, "n": 0, "writeErrors": [{ "index": 0, "code": DUPLICATE_KEY.code, "errmsg": "E11000 duplicate key" }] }
            } else {
                reply
            })
        }
    }
    let err = apply_all(&mut WriteError(Fake::default()), &migrations()[..1], "db_schema").unwrap_err();
    let ApplyError::Migration { message, cause: Some(cause), .. } = &err else { panic!("{err:?}") };
    assert!(message.starts_with("not started: another run recorded it first"), "{err}");
    assert!(cause.is(DUPLICATE_KEY), "the write error, typed: {cause:?}");
    assert!(chain(&err).ends_with("write failed: E11000 duplicate key (code 11000)"), "{}", chain(&err));
    assert!(!err.is_deployment_error());
}

#[test]
fn drift_normalises_numbers_and_defaults() {
    let models = v3();
    let user = &models[1];
    let mut deployed = user.validator.clone();
    let props = deployed.get_document_mut("$jsonSchema").unwrap().get_document_mut("properties").unwrap();
    props.get_document_mut("userName").unwrap().insert("maxLength", 80.0);
    let mut fake = Fake { collections: vec![("t_user", doc! { "validator": deployed })], ..Fake::default() };
    let report = drift(&mut fake, &models).unwrap();
    assert_eq!(report[0].1, DriftStatus::Missing);
    assert_eq!(
        report[1].1,
        DriftStatus::InSync,
        "80.0 from mongosh equals the code's 80; level and action default to strict/error"
    );
}

#[test]
fn drift_reports_an_older_validator_and_its_options() {
    let old = v1()[1].validator.clone();
    let collections = vec![("t_user", doc! { "validator": old, "validationAction": "warn" }), ("t_order", doc! {})];
    let mut fake = Fake { collections, ..Fake::default() };
    let report = drift(&mut fake, &v3()).unwrap();
    assert_eq!(report[0].1, DriftStatus::NoValidator);
    let DriftStatus::Differs(lines) = &report[1].1 else { panic!("{:?}", report[1].1) };
    assert_eq!(lines[0], "validationAction: deployed warn, code error");
    assert!(lines.contains(&"the code is stricter: email: newly required".to_owned()), "{lines:?}");
    assert!(lines.contains(&"the deployment is stricter: userName: maxLength 80 -> 50".to_owned()), "{lines:?}");
}

/// [`Fake`], listing `indexes` (as mongod lists them) for every collection.
struct Indexed(Fake, Vec<Document>);

impl Server for Indexed {
    fn run_command(&mut self, db: &str, command: Document) -> Result<Document, CommandError> {
        match command.contains_key("listIndexes") {
            true => Ok(doc! { "cursor": { "id": 0_i64, "firstBatch": self.1.clone() }, "ok": 1 }),
            false => self.0.run_command(db, command),
        }
    }
}

/// `t_user` of [`v3`] with `validator` (a `$jsonSchema`) and `indexes`, deployed with
/// `deployed` (a `$jsonSchema`) and `listed` (what `listIndexes` answers).
fn drift_of_user(
    validator: Document,
    indexes: Vec<Document>,
    deployed: Document,
    listed: Vec<Document>,
) -> DriftStatus {
    let mut model = v3()[1].clone();
    model.validator = doc! { "$jsonSchema": validator };
    model.options.indexes = indexes;
    let fake =
        Fake { collections: vec![("t_user", doc! { "validator": { "$jsonSchema": deployed } })], ..Fake::default() };
    drift(&mut Indexed(fake, listed), &[model]).unwrap().remove(0).1
}

/// Declared index specifications of every kind, and what mongod 6.0 lists for them.
fn index_kinds() -> (Vec<Document>, Vec<Document>) {
    let declared = vec![
        doc! { "key": { "a": 1, "subject": "text", "body": "text" }, "name": "ix_text", "weights": { "subject": 10 } },
        doc! { "key": { "loc": "2dsphere" }, "name": "ix_sphere" },
        doc! { "key": { "pos": "2d" }, "name": "ix_flat" },
        doc! { "key": { "h": "hashed" }, "name": "ix_hashed" },
        doc! { "key": { "$**": 1 }, "name": "ix_wildcard", "wildcardProjection": { "a": 1, "b.c": 1 } },
        doc! { "key": { "name": 1 }, "name": "ix_collation", "collation": { "locale": "fr", "strength": 2 } },
        doc! { "key": { "email": 1 }, "name": "ix_partial", "unique": true, "sparse": false,
        "partialFilterExpression": { "email": { "$exists": true } } },
        doc! { "key": { "createdAt": 1 }, "name": "ix_ttl", "expireAfterSeconds": 3600_i64 },
        doc! { "key": { "old": 1 }, "name": "ix_hidden", "hidden": true },
        doc! { "key": { "code": 1, "at": -1 }, "name": "ix_unique", "unique": true },
    ];
    let listed = vec![
        doc! { "v": 2, "key": { "_id": 1 }, "name": "_id_" },
        doc! { "v": 2, "key": { "a": 1, "_fts": "text", "_ftsx": 1 }, "name": "ix_text", "weights": { "body": 1, "subject": 10 },
        "default_language": "english", "language_override": "language", "textIndexVersion": 3 },
        doc! { "v": 2, "key": { "loc": "2dsphere" }, "name": "ix_sphere", "2dsphereIndexVersion": 3 },
        doc! { "v": 2, "key": { "pos": "2d" }, "name": "ix_flat" },
        doc! { "v": 2, "key": { "h": "hashed" }, "name": "ix_hashed" },
        doc! { "v": 2, "key": { "$**": 1 }, "name": "ix_wildcard", "wildcardProjection": { "a": true, "b.c": 1.0 } },
        doc! { "v": 2, "key": { "name": 1 }, "name": "ix_collation", "collation": { "locale": "fr", "caseLevel": false,
        "caseFirst": "off", "strength": 2, "numericOrdering": false, "alternate": "non-ignorable",
        "maxVariable": "punct", "normalization": false, "backwards": false, "version": "57.1" } },
        doc! { "v": 2, "key": { "email": 1 }, "name": "ix_partial", "unique": true,
        "partialFilterExpression": { "email": { "$exists": true } } },
        doc! { "v": 2, "key": { "createdAt": 1 }, "name": "ix_ttl", "expireAfterSeconds": 3600 },
        doc! { "v": 2, "key": { "old": 1 }, "name": "ix_hidden", "hidden": true },
        doc! { "v": 2, "key": { "code": 1, "at": -1 }, "name": "ix_unique", "unique": true },
    ];
    (declared, listed)
}

#[test]
fn drift_compares_indexes_as_mongod_lists_them() {
    let schema = || doc! { "bsonType": "object" };
    let (declared, listed) = index_kinds();
    assert_eq!(drift_of_user(schema(), declared.clone(), schema(), listed.clone()), DriftStatus::InSync);

    // each a genuine difference: another weight, collation strength, key order, language,
    // expiry and projection, a version the code names, an index made by hand
    let mut changed = listed.clone();
    let set = |changed: &mut Vec<Document>, name: &str, key: &str, value: Bson| {
        changed.iter_mut().find(|i| i.get_str("name").ok() == Some(name)).unwrap().insert(key, value);
    };
    set(&mut changed, "ix_text", "weights", doc! { "body": 1, "subject": 5 }.into());
    set(&mut changed, "ix_text", "default_language", "french".into());
    set(&mut changed, "ix_collation", "collation", doc! { "locale": "fr", "strength": 3, "caseLevel": true }.into());
    set(&mut changed, "ix_unique", "key", doc! { "at": -1, "code": 1 }.into());
    set(&mut changed, "ix_ttl", "expireAfterSeconds", 60.into());
    set(&mut changed, "ix_wildcard", "wildcardProjection", doc! { "a": 1, "b.c": 0 }.into());
    changed.push(doc! { "v": 2, "key": { "x": "2d" }, "name": "ix_by_hand", "bits": 20 });
    let mut versioned = declared.clone();
    versioned[1].insert("2dsphereIndexVersion", 2);
    let DriftStatus::Differs(lines) = drift_of_user(schema(), versioned, schema(), changed) else { panic!() };
    let ends: Vec<&str> = lines.iter().map(|l| l.rsplit_once(" (").map_or(l.as_str(), |(_, end)| end)).collect();
    assert_eq!(
        ends,
        [
            "differs: weights.subject, default_language)",
            "differs: 2dsphereIndexVersion)",
            "differs: wildcardProjection.b.c)",
            "differs: collation.strength)",
            "differs: expireAfterSeconds)",
            "differs: key)",
            "migrations keep removed indexes: drop it by hand once no query needs it)",
        ],
        "{lines:#?}"
    );
    assert_eq!(
        lines[3],
        r#"index `ix_collation`: deployed { "key": { "name": 1 }, "collation": { "locale": "fr", "strength": 3 } }, code { "key": { "name": 1 }, "collation": { "locale": "fr", "strength": 2 } } (differs: collation.strength)"#
    );
    assert!(
        lines[6].starts_with(r#"index `ix_by_hand`: deployed { "key": { "x": "2d" }, "bits": 20 }, not declared"#),
        "{lines:#?}"
    );

    // declared but not deployed; a text index on another field
    let mut other = declared.clone();
    other[0] = doc! { "key": { "a": 1, "title": "text" }, "name": "ix_text" };
    let DriftStatus::Differs(lines) = drift_of_user(schema(), other, schema(), listed[..2].to_vec()) else { panic!() };
    assert!(lines[0].ends_with("(differs: weights.body, weights.subject, weights.title)"), "{lines:#?}");
    assert!(
        lines[1].starts_with(r#"index `ix_sphere`: not deployed (code { "key": { "loc": "2dsphere" } })"#),
        "{lines:#?}"
    );
    assert_eq!(lines.len(), 10, "{lines:#?}");
}

/// A polymorphic root: one branch per variant, each fixing `type`.
fn payment(card_number: Document, cash_currency: Document) -> Document {
    let variant = |tag: &str, properties: Document| {
        let mut all = doc! { "type": { "enum": [tag] } };
        all.extend(properties);
        doc! { "bsonType": "object", "required": ["type"], "properties": all }
    };
    doc! {
        "bsonType": "object",
        "required": ["type"],
        "properties": { "type": { "enum": ["cash", "card", "transfer"] } },
        "oneOf": [
            variant("cash", doc! { "currency": cash_currency, "amount": { "bsonType": "decimal" } }),
            variant("card", doc! { "number": card_number, "holder": { "bsonType": "string", "maxLength": 80 } }),
            variant("transfer", doc! { "iban": { "bsonType": "string", "pattern": "^[A-Z]{2}[0-9]{2}" } }),
        ],
    }
}

#[test]
fn drift_names_the_branch_of_a_polymorphic_root() {
    let code = payment(
        doc! { "bsonType": "string", "maxLength": 16, "pattern": "^[0-9]+$" },
        doc! { "bsonType": "string", "enum": ["EUR", "USD"] },
    );
    let deployed = payment(
        doc! { "bsonType": "string", "maxLength": 19, "pattern": "^[0-9 ]+$" },
        doc! { "bsonType": "string", "enum": ["EUR"] },
    );
    let DriftStatus::Differs(lines) = drift_of_user(code.clone(), vec![], deployed, vec![]) else { panic!() };
    assert_eq!(
        lines,
        [
            r#"the code is stricter: oneOf[1](type="card").number: maxLength 19 -> 16"#,
            r#"the code and the deployment differ: oneOf[1](type="card").number: pattern changed from "^[0-9 ]+$" to "^[0-9]+$""#,
            r#"the deployment is stricter: oneOf[0](type="cash").currency: enum no longer accepts ["USD"]"#,
        ]
    );

    // a variant the deployment lacks, found by its tag although the others moved up
    let mut older = code.clone();
    older.get_array_mut("oneOf").unwrap().remove(0);
    older.insert("properties", doc! { "type": { "enum": ["card", "transfer"] } });
    let DriftStatus::Differs(lines) = drift_of_user(code, vec![], older, vec![]) else { panic!() };
    assert_eq!(
        lines,
        [
            r#"the deployment is stricter: type: enum no longer accepts ["cash"]"#,
            r#"the deployment is stricter: oneOf[0](type="cash"): branch removed (the documents only it accepted are refused)"#,
        ]
    );
}

/// A contract that moves `assigneeName` to `assignee`, then enforces a validator, gated.
fn moving_contract() -> Vec<MigrationFile> {
    let text = serde_json::json!({
        "migration": "0001_alter_t_ticket",
        "up": [
            { "db": "db_shop", "command": { "collMod": "t_ticket", "validator": { "$jsonSchema": { "bsonType": "object" } } } },
            { "db": "db_shop", "phase": "contract", "command": { "update": "t_ticket", "updates": [
                { "q": { "assigneeName": { "$exists": true }, "assignee": { "$exists": false } },
                  "u": [{ "$set": { "assignee": "$assigneeName" } }, { "$unset": "assigneeName" }], "multi": true },
                { "q": { "assigneeName": { "$exists": true } }, "u": { "$unset": { "assigneeName": "" } }, "multi": true }
            ], "bypassDocumentValidation": true } },
            { "db": "db_shop", "phase": "contract", "requireValid": true, "command": { "collMod": "t_ticket",
                "validator": { "$jsonSchema": { "required": ["assignee"], "properties": { "title": { "maxLength": 80 } } } } } }
        ],
    });
    vec![MigrationFile::parse(&text.to_string()).unwrap()]
}

#[test]
fn a_contract_counts_its_gate_as_after_the_moves_before_moving_anything() {
    let contract = ApplyOptions { contract: true, ..ApplyOptions::new("db_schema") };
    let mut fake = Fake { failing: 1, applied_partly: vec![("0001_alter_t_ticket", 1)], ..Fake::default() };
    let err = apply_with(&mut fake, &moving_contract(), &contract, &mut |_| {}).unwrap_err();
    assert!(!err.is_deployment_error());
    assert!(
        chain(&err).starts_with(
            "migration 0001_alter_t_ticket: step 2 of 3 (update db_shop.t_ticket): not run: it moves `assigneeName` to \
             `assignee` before enforcing the model's validator, and 1 of 100 documents of db_shop.t_ticket would fail \
             that validator once moved (e.g. _id 7). Nothing was moved"
        ),
        "{err}"
    );
    let commands = fake.commands();
    assert_eq!(
        commands[commands.len() - 4..],
        ["aggregate t_ticket", "aggregate t_ticket", "count t_ticket", "release"],
        "counted, the first ids found, nothing moved"
    );
    let (_, aggregate) = fake.calls.iter().find(|(_, c)| c.contains_key("aggregate")).unwrap();
    let stages: Vec<String> = aggregate
        .get_array("pipeline")
        .unwrap()
        .iter()
        .map(|s| s.as_document().unwrap().keys().next().unwrap().clone())
        .collect();
    assert_eq!(stages, ["$set", "$unset", "$match", "$count"], "{aggregate}");

    // none would fail: a contract data step written after it first (the moves wait for the
    // gate), then the moves, the gate counted again, the validator
    let mut files = moving_contract();
    files.push(data("0002_fix_tickets", "contract", "t_ticket"));
    let mut fake = Fake { applied_partly: vec![("0001_alter_t_ticket", 1)], ..Fake::default() };
    apply_with(&mut fake, &files, &contract, &mut |_| {}).unwrap();
    let ticket: Vec<(String, bool)> = fake
        .calls
        .iter()
        .filter(|(_, c)| c.iter().next().and_then(|(_, v)| v.as_str()) == Some("t_ticket"))
        .map(|(_, c)| (c.keys().next().unwrap().clone(), c.contains_key("bypassDocumentValidation")))
        .collect();
    let expected = [
        ("update", false),
        ("aggregate", false),
        ("count", false),
        ("update", true),
        ("count", false),
        ("count", false),
        ("collMod", false),
    ];
    assert_eq!(ticket, expected.map(|(c, b)| (c.to_owned(), b)));
}
