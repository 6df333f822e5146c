//! The migration workflow against real deployments (`scripts/with-mongod.sh`): the
//! standalone mongod (`MONGODB_URI`), the single-node replica set (`MONGODB_URI_REPLSET`)
//! and `--auth` as a user with `readWrite` on `db_app` only (`MONGODB_URI_AUTH`, records
//! kept in `db_app`). `status`, `apply --dry-run` (nothing written), `apply`, a changed
//! file refused, `revert`, a data migration backfilling a field before it becomes required,
//! a run killed half way and resumed, and `Migrator` at application start. Each deployment
//! whose variable is unset is skipped with a message.

#![forbid(unsafe_code)]

use mongo_schema_test_support::migrate_models;

use migrate_models::{v1, v3};
use mongo_schema::bson::{doc, oid::ObjectId, Bson, Document};
use mongo_schema::cli::run;
use mongo_schema::migrate::apply::Outcome;
use mongo_schema::migrate::driver::MongoServer;
use mongo_schema::migrate::server::{CommandError, Server};
use mongo_schema::migrate::{
    migrate, new_data_migration, pending, MigrateOptions, Migrator, MigratorError, Model, Naming,
};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use crate::DB_APP;

/// One deployment, with the databases a test uses on it.
struct Deployment {
    label: &'static str,
    uri: String,
    /// Where the test's collections are.
    db: String,
    /// The collections' names: `t_<tag>_user`, `t_<tag>_order`.
    tag: &'static str,
}

impl Deployment {
    fn user(&self) -> String {
        format!("t_{}_user", self.tag)
    }

    fn server(&self) -> MongoServer {
        MongoServer::connect(&self.uri).expect("connect")
    }

    /// v1 or v3 of the models, moved to this deployment's database and collections.
    fn models(&self, models: Vec<Model>) -> Vec<Model> {
        models
            .into_iter()
            .map(|mut m| {
                m.db = self.db.clone();
                m.collection = format!("t_{}_{}", self.tag, m.collection.trim_start_matches("t_"));
                m
            })
            .collect()
    }

    /// A clean slate (test set-up; migrations never drop): the test's collections and the
    /// records, which live in the same database.
    fn reset(&self) {
        let mut server = self.server();
        for collection in [self.user(), format!("t_{}_order", self.tag), "t_schema_migration".to_owned()] {
            match server.run_command(&self.db, doc! { "drop": collection }) {
                Err(e) if e.is(mongo_schema::codes::NAMESPACE_NOT_FOUND) => {}
                result => drop(result.expect("drop")),
            }
        }
    }

    /// `schema ARGS --uri .. --dir .. --state-db ..`: exit code and stdout.
    fn schema(&self, dir: &Path, args: &[&str]) -> (i32, String) {
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let target = ["--uri", &self.uri, "--dir", dir.to_str().unwrap(), "--state-db", &self.db];
        let argv = std::iter::once("schema").chain(args.iter().copied()).chain(target);
        let code = run(&[], argv, &mut out, &mut err);
        let (out, err) = (String::from_utf8(out).unwrap(), String::from_utf8(err).unwrap());
        assert!(!err.contains(&self.uri) || !self.uri.contains('@'), "a password was printed: {err}");
        (code, out + &err)
    }

    fn run(&self, command: Document) -> Document {
        let reply = self.server().run_command(&self.db, command).expect("command");
        assert!(!reply.contains_key("writeErrors"), "{reply}");
        reply
    }

    fn insert_user(&self, name: &str, email: Option<&str>) -> Result<(), CommandError> {
        let mut user = doc! { "_id": ObjectId::new(), "userName": name, "status": "active" };
        if let Some(email) = email {
            user.insert("email", email);
        }
        let reply = self.server().run_command(&self.db, doc! { "insert": self.user(), "documents": [user] })?;
        match reply.get_array("writeErrors") {
            Ok(errors) => {
                let error = errors[0].as_document().unwrap();
                let (code, message) = (error.get_i32("code").unwrap(), error.get_str("errmsg").unwrap().to_owned());
                Err(CommandError::Write { code, message })
            }
            Err(_) => Ok(()),
        }
    }

    /// Every document of `collection` in `_id` order.
    fn documents(&self, collection: &str) -> Vec<Document> {
        let reply = self.run(doc! { "find": collection, "sort": { "_id": 1 }, "batchSize": 1000 });
        let batch = reply.get_document("cursor").unwrap().get_array("firstBatch").unwrap();
        batch.iter().map(|d| d.as_document().unwrap().clone()).collect()
    }

    /// `listCollections` of the test's database: names, options (validators), ids.
    fn collections(&self) -> Vec<Document> {
        let reply = self.run(doc! { "listCollections": 1 });
        let mut batch: Vec<Document> = reply
            .get_document("cursor")
            .unwrap()
            .get_array("firstBatch")
            .unwrap()
            .iter()
            .map(|d| d.as_document().unwrap().clone())
            .collect();
        batch.sort_by(|a, b| a.get_str("name").unwrap().cmp(b.get_str("name").unwrap()));
        batch
    }

    /// The records (not the appliers' lease, `_id: "lock"`).
    fn records(&self) -> Vec<Document> {
        self.documents("t_schema_migration").into_iter().filter(|r| r.contains_key("migration")).collect()
    }
}

const AUTH: &str = "auth (readWrite on db_app)";

/// The deployments the test command started; `tag` keeps each test's collections apart.
/// The `--auth` one when `auth`: its user cannot run `collMod` (dbAdmin's), so a test of
/// validators changed on existing collections leaves it out.
fn deployments(test: &str, tag: &'static str, auth: bool) -> Vec<Deployment> {
    let mut found = Vec::new();
    for (label, var, db) in [
        ("standalone", "MONGODB_URI", format!("db_wf_{tag}")),
        ("replica set", "MONGODB_URI_REPLSET", format!("db_wf_{tag}")),
        (AUTH, "MONGODB_URI_AUTH", "db_app".to_owned()),
    ] {
        if label == AUTH && !auth {
            continue;
        }
        match std::env::var(var) {
            Ok(uri) => found.push(Deployment { label, uri, db, tag }),
            Err(_) => eprintln!("skipped (no {var}): {test} on the {label} deployment"),
        }
    }
    if found.is_empty() {
        eprintln!("skipped (no MONGODB_URI): {test}");
    }
    found
}

/// The backfill a newly required `email` needs, as a data migration's step.
fn backfill(dep: &Deployment) -> String {
    serde_json::json!({ "db": dep.db, "command": {
        "update": dep.user(),
        "updates": [{ "q": { "email": { "$exists": false } }, "u": { "$set": { "email": "unknown@example.invalid" } }, "multi": true }]
    }})
    .to_string()
}

/// Fills the data migration at `path` with `up` steps.
fn fill(path: &Path, up: &[String]) {
    let mut value: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    value["up"] = serde_json::Value::Array(up.iter().map(|s| serde_json::from_str(s).unwrap()).collect());
    std::fs::write(path, serde_json::to_string_pretty(&value).unwrap()).unwrap();
}

/// Migrations enforced at once (`--direct`): these tests are about records, resumption and
/// privileges, not the phases of a rolling deploy.
fn direct() -> MigrateOptions {
    MigrateOptions { direct: true, ..MigrateOptions::default() }
}

/// v1, a data migration with `data` steps, then v3 (`email` required, enforced at once;
/// not for a user who cannot run collMod): the names of the files.
fn write_migrations(dep: &Deployment, dir: &Path, data: &[String]) -> Vec<String> {
    migrate(dir, &dep.models(v1()), &direct()).unwrap().unwrap();
    write_data_and_tighten(dep, dir, data)
}

fn write_data_and_tighten(dep: &Deployment, dir: &Path, data: &[String]) -> Vec<String> {
    fill(&new_data_migration(dir, "backfill email", Naming::Timestamp).unwrap(), data);
    if dep.label != AUTH {
        migrate(dir, &dep.models(v3()), &direct()).unwrap().unwrap();
    }
    names(dir)
}

fn names(dir: &Path) -> Vec<String> {
    pending(dir).unwrap().iter().map(|p| p.file_stem().unwrap().to_str().unwrap().to_owned()).collect()
}

#[test]
fn status_dry_run_apply_refuse_changed_revert() {
    let _turn = DB_APP.lock().unwrap_or_else(|e| e.into_inner());
    for dep in deployments("status_dry_run_apply_refuse_changed_revert", "wf", false) {
        let label = dep.label;
        dep.reset();
        let dir = tempfile::tempdir().unwrap();
        let names = write_migrations(&dep, dir.path(), &[backfill(&dep)]);
        // documents written before the migrations, one without the email v3 requires
        dep.run(doc! { "create": dep.user() });
        dep.insert_user("ann", Some("ann@example.com")).unwrap();
        dep.insert_user("bob", None).unwrap();

        let (code, out) = dep.schema(dir.path(), &["status"]);
        assert_eq!(code, 0, "{label}: {out}");
        let pending: Vec<String> = names.iter().map(|n| format!("pending  {n}")).collect();
        assert_eq!(out.lines().take(3).collect::<Vec<_>>(), pending, "{label}");
        assert!(out.ends_with("0 applied, 3 pending, 0 partial, 0 contract pending\n"), "{label}: {out}");

        // dry run: every step listed, and the deployment exactly as it was
        let (collections, users) = (dep.collections(), dep.documents(&dep.user()));
        let (code, out) = dep.schema(dir.path(), &["apply", "--dry-run"]);
        assert_eq!(code, 0, "{label}: {out}");
        assert!(
            out.contains(&format!("would apply {} (2 steps):\n  1. {}: create t_wf_order", names[0], dep.db)),
            "{label}: {out}"
        );
        assert!(
            out.contains(&format!("would apply {} (1 steps):\n  1. {}: update t_wf_user", names[1], dep.db)),
            "{label}: {out}"
        );
        // then the backfill rehearsed under the validator in force when it runs (v1's, `email` optional)
        let rehearsed = "data steps: 1 statement(s) rehearsed over sample documents under the validator in force \
                         when each runs: none would be refused\n";
        assert!(
            out.ends_with(&format!("3 to apply, 0 already applied; nothing was written\n{rehearsed}")),
            "{label}: {out}"
        );
        assert_eq!(dep.collections(), collections, "{label}: dry run changed a collection (or created the records)");
        assert_eq!(dep.documents(&dep.user()), users, "{label}: dry run changed a document");
        assert!(!collections.iter().any(|c| c.get_str("name").unwrap() == "t_schema_migration"));

        let (code, out) = dep.schema(dir.path(), &["apply"]);
        assert_eq!((code, out.ends_with("3 applied, 0 already applied\n")), (0, true), "{label}: {out}");
        let bob = dep.documents(&dep.user()).into_iter().find(|u| u.get_str("userName").unwrap() == "bob").unwrap();
        assert_eq!(bob.get_str("email").unwrap(), "unknown@example.invalid", "{label}: backfilled before enforcing");
        assert!(dep.insert_user("cid", None).is_err(), "{label}: email is now required");
        let records = dep.records();
        assert_eq!(records.len(), 3, "{label}");
        assert!(records.iter().all(|r| r.get_str("checksum").unwrap().starts_with("sha256:")), "{label}");
        let (code, out) = dep.schema(dir.path(), &["status"]);
        assert_eq!(code, 0, "{label}: {out}");
        assert!(out.ends_with("3 applied, 0 pending, 0 partial, 0 contract pending\n"), "{label}: {out}");
        assert!(out.lines().take(3).all(|l| l.starts_with("applied  ")), "{label}: {out}");

        // the applied data migration edited: refused, nothing runs
        let data = dir.path().join(format!("{}.json", names[1]));
        let original = std::fs::read_to_string(&data).unwrap();
        fill(&data, &[backfill(&dep).replace("unknown@", "nobody@")]);
        let (code, out) = dep.schema(dir.path(), &["apply"]);
        assert_eq!(code, 1, "{label}: {out}");
        assert!(
            out.contains(&format!("migration {}: was applied from a file with checksum", names[1])),
            "{label}: {out}"
        );
        assert!(out.contains("What changed: step 1 differs. Restore the file from version control"), "{label}: {out}");
        let (code, out) = dep.schema(dir.path(), &["status"]);
        assert_eq!(code, 1, "{label}: {out}");
        assert!(out.contains(&format!("CHANGED  {}: was applied", names[1])), "{label}: {out}");
        std::fs::write(&data, original).unwrap();

        // revert the last: its record goes, the previous validator is back, data stays
        let (code, out) = dep.schema(dir.path(), &["revert"]);
        assert_eq!(code, 0, "{label}: {out}");
        assert!(out.starts_with(&format!("reverted {}:", names[2])), "{label}: {out}");
        assert_eq!(dep.records().len(), 2, "{label}");
        dep.insert_user("cid", None).expect("v1's validator does not require email");
        let (_, out) = dep.schema(dir.path(), &["status"]);
        assert!(out.contains(&format!("pending  {}", names[2])), "{label}: {out}");
        // cid has no email: v3 enforced at once now fails on it, and says so; backfill by hand
        dep.run(doc! { "update": dep.user(), "updates": [{ "q": { "userName": "cid" }, "u": { "$set": { "email": "cid@example.com" } } }] });
        let (code, out) = dep.schema(dir.path(), &["apply"]);
        assert_eq!((code, out.ends_with("1 applied, 2 already applied\n")), (0, true), "{label}: {out}");
        // nothing dropped: both collections and every document are there
        let names_now: Vec<String> = dep.collections().iter().map(|c| c.get_str("name").unwrap().to_owned()).collect();
        assert!(names_now.contains(&dep.user()) && names_now.contains(&"t_wf_order".to_owned()), "{label}");
        assert_eq!(dep.documents(&dep.user()).len(), 3, "{label}");
        dep.reset();
    }
}

/// Set by [`an_interrupted_run_resumes`] in the child it kills: the `schema` arguments, one a line.
const CHILD_ARGS: &str = "MONGO_SCHEMA_WORKFLOW_CHILD_ARGS";

/// Not a test: the child process `an_interrupted_run_resumes` starts and kills.
#[test]
#[ignore = "the child process of an_interrupted_run_resumes, which runs it"]
fn child_schema_process() {
    let args = std::env::var(CHILD_ARGS).expect("run by an_interrupted_run_resumes");
    let argv: Vec<&str> = std::iter::once("schema").chain(args.lines()).collect();
    let code = run(&[], argv, &mut std::io::stdout(), &mut std::io::stderr());
    std::process::exit(code);
}

#[test]
fn an_interrupted_run_resumes() {
    let _turn = DB_APP.lock().unwrap_or_else(|e| e.into_inner());
    for dep in deployments("an_interrupted_run_resumes", "kill", true) {
        let label = dep.label;
        dep.reset();
        let dir = tempfile::tempdir().unwrap();
        migrate(dir.path(), &dep.models(v1()), &direct()).unwrap().unwrap();
        let (code, out) = dep.schema(dir.path(), &["apply"]);
        assert_eq!(code, 0, "{label}: {out}");
        for name in ["ann", "bob", "cid"] {
            dep.insert_user(name, Some(&format!("{name}@example.com"))).unwrap();
        }
        let set = |field: &str, filter: Bson| {
            serde_json::json!({ "db": dep.db, "command": {
                "update": dep.user(),
                "updates": [{ "q": Bson::Document(doc! { "$where": filter }).into_relaxed_extjson(), "u": { "$set": { field: true } }, "multi": true }]
            }})
            .to_string()
        };
        // step 2 takes a second per document (server-side `sleep`): the process is killed in it
        let steps =
            [set("step1", "true".into()), set("step2", "sleep(1000) || true".into()), set("step3", "true".into())];
        let names = write_data_and_tighten(&dep, dir.path(), &steps);

        // a short lease: the killed child's expires before the next apply waits long
        let args = [
            "apply",
            "--uri",
            &dep.uri,
            "--dir",
            dir.path().to_str().unwrap(),
            "--state-db",
            &dep.db,
            "--lock-lease",
            "2",
        ];
        let mut child = Command::new(std::env::current_exe().unwrap())
            .arg(mongo_schema_test_support::test_name(module_path!(), "child_schema_process"))
            .args(["--exact", "--ignored", "--nocapture", "--test-threads", "1"])
            .env(CHILD_ARGS, args.join("\n"))
            .stdout(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let data_done = |dep: &Deployment| {
            let record = dep.records().into_iter().find(|r| r.get_str("migration").unwrap() == names[1]);
            record.map(|r| r.get_i64("done").unwrap())
        };
        let start = Instant::now();
        while data_done(&dep) != Some(1) {
            assert!(child.try_wait().unwrap().is_none(), "{label}: the child ended before step 2");
            assert!(start.elapsed() < Duration::from_secs(60), "{label}: step 1 never completed");
            std::thread::sleep(Duration::from_millis(20));
        }
        child.kill().unwrap();
        child.wait().unwrap();

        let (code, out) = dep.schema(dir.path(), &["status"]);
        assert_eq!(code, 0, "{label}: {out}");
        assert!(out.contains(&format!("applied  {}", names[0])), "{label}: {out}");
        assert!(out.contains(&format!("partial  {}  1 of 3 steps", names[1])), "{label}: {out}");
        if let Some(tighten) = names.get(2) {
            assert!(out.contains(&format!("pending  {tighten}")), "{label}: {out}");
        }
        let (code, out) = dep.schema(dir.path(), &["apply", "--lock-lease", "2"]);
        assert_eq!(code, 0, "{label}: {out}");
        assert!(out.contains(&format!("applied {} (resumed after step 1", names[1])), "{label}: {out}");
        assert!(out.ends_with(&format!("{} applied, 1 already applied\n", names.len() - 1)), "{label}: {out}");
        let users = dep.documents(&dep.user());
        assert_eq!(users.len(), 3, "{label}: documents are never dropped");
        for user in &users {
            for step in ["step1", "step2", "step3"] {
                assert_eq!(user.get_bool(step).ok(), Some(true), "{label}: {step} on {user}");
            }
        }
        let (_, out) = dep.schema(dir.path(), &["status"]);
        assert!(
            out.ends_with(&format!("{} applied, 0 pending, 0 partial, 0 contract pending\n", names.len())),
            "{label}: {out}"
        );
        dep.reset();
    }
}

#[test]
fn migrator_applies_at_application_start_with_the_apps_database() {
    let _turn = DB_APP.lock().unwrap_or_else(|e| e.into_inner());
    for dep in deployments("migrator_applies_at_application_start_with_the_apps_database", "app", true) {
        let label = dep.label;
        dep.reset();
        let dir = tempfile::tempdir().unwrap();
        let names = write_migrations(&dep, dir.path(), &[backfill(&dep)]);
        let runtime = tokio::runtime::Runtime::new().unwrap();
        let outcomes = runtime.block_on(async {
            let client = mongodb::Client::with_uri_str(&dep.uri).await.unwrap();
            let db = client.database(&dep.db);
            // the records in the application's database, where the CLI below is pointed too
            let first = Migrator::from_dir(dir.path()).unwrap().state_db(&dep.db).run(&db).await.unwrap();
            // the same files compiled in (as include_str! gives them): recognised as applied
            let texts: Vec<(String, String)> = pending(dir.path())
                .unwrap()
                .iter()
                .map(|p| (p.file_stem().unwrap().to_str().unwrap().to_owned(), std::fs::read_to_string(p).unwrap()))
                .collect();
            let sources: Vec<(&str, &str)> = texts.iter().map(|(n, t)| (n.as_str(), t.as_str())).collect();
            let second = Migrator::from_sources(&sources).unwrap().state_db(&dep.db).run(&db).await.unwrap();
            (first, second)
        });
        let applied: Vec<Outcome> = names.iter().cloned().map(Outcome::Applied).collect();
        let already: Vec<Outcome> = names.iter().cloned().map(Outcome::AlreadyApplied).collect();
        assert_eq!(outcomes, (applied, already), "{label}");
        // the CLI reads the same records
        let (code, out) = dep.schema(dir.path(), &["status"]);
        assert_eq!(code, 0, "{label}: {out}");
        assert!(
            out.ends_with(&format!("{} applied, 0 pending, 0 partial, 0 contract pending\n", names.len())),
            "{label}: {out}"
        );
        dep.reset();
    }
}

#[test]
fn migrator_refuses_a_missing_directory() {
    let err = Migrator::from_dir(PathBuf::from("no/such/migrations")).unwrap_err();
    assert!(matches!(&err, MigratorError::Empty { dir: Some(dir) } if dir == Path::new("no/such/migrations")));
    assert_eq!(err.to_string(), "no migrations in no/such/migrations: pass the directory `schema migrate --dir` wrote");
    let err = Migrator::from_sources(&[]).unwrap_err();
    assert!(matches!(err, MigratorError::Empty { dir: None }), "{err:?}");
}

#[test]
fn a_read_write_user_keeps_records_and_runs_data_migrations_in_its_database() {
    let _turn = DB_APP.lock().unwrap_or_else(|e| e.into_inner());
    let Ok(uri) = std::env::var("MONGODB_URI_AUTH") else {
        eprintln!(
            "skipped (no MONGODB_URI_AUTH): a_read_write_user_keeps_records_and_runs_data_migrations_in_its_database"
        );
        return;
    };
    let dep = Deployment { label: AUTH, uri, db: "db_app".to_owned(), tag: "rw" };
    dep.reset();
    let dir = tempfile::tempdir().unwrap();
    migrate(dir.path(), &dep.models(v1()), &direct()).unwrap().unwrap();
    let (code, out) = dep.schema(dir.path(), &["apply", "--dry-run"]);
    assert_eq!(code, 0, "{out}");
    // other tests keep collections in db_app too: only this test's and the records count
    let written = |name: &str| name.starts_with(&format!("t_{}_", dep.tag)) || name == "t_schema_migration";
    assert!(dep.collections().iter().all(|c| !written(c.get_str("name").unwrap())), "dry run wrote");
    let (code, out) = dep.schema(dir.path(), &["apply"]);
    assert_eq!(code, 0, "createCollection with its validator is within readWrite: {out}");
    dep.insert_user("bob", None).unwrap();
    let names = write_data_and_tighten(&dep, dir.path(), &[backfill(&dep)]);
    let (code, out) = dep.schema(dir.path(), &["apply"]);
    assert_eq!((code, out.ends_with("1 applied, 1 already applied\n")), (0, true), "{out}");
    assert_eq!(dep.documents(&dep.user())[0].get_str("email").unwrap(), "unknown@example.invalid");
    let (code, out) = dep.schema(dir.path(), &["revert"]);
    assert!(code == 0 && out.starts_with(&format!("reverted {}", names[1])), "{out}");
    assert_eq!(dep.records().len(), 1);
    // changing a validator needs collMod, which readWrite lacks: said, and recorded as not done
    migrate(dir.path(), &dep.models(v3()), &direct()).unwrap().unwrap();
    let (code, out) = dep.schema(dir.path(), &["apply"]);
    assert_eq!(code, 2, "an authorization failure is an error, not a finding: {out}");
    assert!(out.contains("collMod, which needs the dbAdmin role, or a role with the collMod action, on db_app: readWrite is not enough)"), "{out}");
    let (code, out) = dep.schema(dir.path(), &["status"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.ends_with("2 applied, 0 pending, 1 partial, 0 contract pending\n"), "{out}");
    assert!(!out.contains("mongodb://app:"), "{out}");
    dep.reset();
}

use mongo_schema_test_support::rehearsal;

use mongo_schema::simulate::{rehearse_release, Samples, Trace};
use mongo_schema::Validator;
use rehearsal::{Conversions, COLLECTION, DB};

/// Where the rehearsed statements are replayed, beside the deployment's own database; each
/// test its own, as the tests run at once.
const REPLAY: &str = "db_rehearse_replay";
const REPLAY_LEVELS: &str = "db_rehearse_replay_levels";

/// Each rehearsed statement run again on mongod: the collection created with the validator,
/// level and action the rehearsal says are in force, the documents it met stored as they
/// were (bypassing validation), then the statement sent once per document (its filter
/// narrowed to the document's `_id`). The `_id`s whose write mongod refuses, as text.
fn refused_on_mongod(
    server: &mut MongoServer,
    replay: &str,
    files: &[mongo_schema::migrate::file::MigrationFile],
    trace: &Trace,
) -> Vec<String> {
    drop(server.run_command(replay, doc! { "drop": COLLECTION }));
    let in_force = trace.in_force.as_ref().expect("a validator in force");
    server
        .run_command(
            replay,
            doc! {
                "create": COLLECTION, "validator": in_force.validator.clone(),
                "validationLevel": &in_force.level, "validationAction": &in_force.action,
            },
        )
        .expect("create");
    if !trace.met.is_empty() {
        let stored = doc! { "insert": COLLECTION, "documents": trace.met.clone(), "bypassDocumentValidation": true };
        let reply = server.run_command(replay, stored).expect("insert");
        assert!(!reply.contains_key("writeErrors"), "{reply}");
    }
    let file = files.iter().find(|f| f.name == trace.migration).unwrap();
    let command = &file.up[trace.step - 1].command;
    let statement = command.get_array("updates").unwrap()[trace.statement.unwrap() - 1].as_document().unwrap();
    let mut refused = Vec::new();
    for document in &trace.met {
        let id = document.get("_id").unwrap().clone();
        let mut one = statement.clone();
        one.insert("q", doc! { "$and": [statement.get_document("q").unwrap().clone(), { "_id": id.clone() }] });
        one.insert("multi", false);
        let reply = server.run_command(replay, doc! { "update": COLLECTION, "updates": [one] }).expect("update");
        if reply.contains_key("writeErrors") {
            refused.push(id.to_string());
        }
    }
    refused
}

/// `schema ARGS` over the release's models: exit code, stdout and stderr.
fn schema_cli(args: &[&str]) -> (i32, String) {
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code =
        run(&rehearsal::after_models(), std::iter::once("schema").chain(args.iter().copied()), &mut out, &mut err);
    (code, String::from_utf8(out).unwrap() + &String::from_utf8(err).unwrap())
}

#[test]
fn the_rehearsal_agrees_with_mongod_and_the_conversions_it_passes_deploy() {
    let Ok(uri) = std::env::var("MONGODB_URI") else {
        eprintln!("skipped (no MONGODB_URI): the_rehearsal_agrees_with_mongod_and_the_conversions_it_passes_deploy");
        return;
    };
    let server = &mut MongoServer::connect(&uri).expect("connect");
    let previous = Validator::for_type::<rehearsal::before::Order>().unwrap();
    let current = Validator::for_type::<rehearsal::after::Order>().unwrap();
    for conversions in [Conversions::PerField, Conversions::PerShape, Conversions::LongOnly] {
        drop(server.run_command(DB, doc! { "dropDatabase": 1 }));
        let dir = tempfile::tempdir().unwrap();
        let at = dir.path().to_str().unwrap();
        let target = ["--uri", uri.as_str(), "--dir", at, "--state-db", DB];
        let cli = |args: &[&str]| schema_cli(&[args, &target[..]].concat());

        // the previous release, deployed with its contract
        rehearsal::write_previous(dir.path());
        let (code, out) = cli(&["apply", "--contract"]);
        assert_eq!(code, 0, "{out}");

        // the release: rehearsed without a deployment, the verdicts replayed on mongod
        let files = rehearsal::write_release(dir.path(), conversions);
        let mut samples = Samples::default();
        // a legacy document no model admits, as a dump would hold it
        let legacy = doc! { "_id": ObjectId::parse_str("6b0a3635d1e70f13d020c921").unwrap(), "orderNo": "A-1", "amount": 1999_i64, "status": "refunded", "note": "", "discount": 0 };
        samples.add(&format!("{DB}.{COLLECTION}"), legacy.clone(), "a dump");
        let rehearsed = rehearse_release(&files, &samples);
        assert!(!rehearsed.traces.is_empty());
        for trace in &rehearsed.traces {
            let mut expected: Vec<String> = trace.refused.iter().map(Bson::to_string).collect();
            let mut found = refused_on_mongod(server, REPLAY, &files, trace);
            expected.sort();
            found.sort();
            assert_eq!(found, expected, "{conversions:?}: step {} refused on mongod and in the rehearsal", trace.step);
        }
        let refused_steps: Vec<usize> = rehearsed.refused().map(|f| f.step).collect();
        let legacy_id = legacy.get("_id").unwrap().to_string();
        match conversions {
            Conversions::PerField => assert_eq!(refused_steps, [1, 3]),
            // only the legacy document, which no model admits
            _ => assert!(rehearsed.traces.iter().all(|t| t.refused.iter().all(|id| id.to_string() == legacy_id))),
        }

        // the deploy: the previous release's documents stored, then `migrate --check` on the
        // deployment (its records, its `$sample`), `apply`, `apply --contract`
        let old: Vec<Document> = rehearsed.traces[0].met.iter().filter(|d| previous.is_valid(d)).cloned().collect();
        let reply = server.run_command(DB, doc! { "insert": COLLECTION, "documents": old.clone() }).expect("insert");
        assert!(!reply.contains_key("writeErrors"), "the previous model's validator admits them: {reply}");
        let (code, out) = schema_cli(&["migrate", "--check", "--dir", at, "--uri", &uri, "--state-db", DB]);
        let data = &files.last().unwrap().name;
        match conversions {
            Conversions::PerField => {
                assert_eq!(code, 1, "{out}");
                assert!(
                    out.contains(&format!("REFUSED  {data} step 1 (update {DB}.{COLLECTION}, statement 1)")),
                    "{out}"
                );
                assert!(out.contains("shape ($sample of db_rehearse.t_order, "), "{out}");
            }
            _ => assert_eq!(code, 0, "{out}"),
        }
        // with the int cents left out, the check says how many stored documents the gate
        // will find: mongod's count, below
        let gate = format!("GATE  {} step 2 (collMod {DB}.{COLLECTION}): ", files[1].name);
        let gated: Option<usize> = out.split(&gate).nth(1).map(|rest| rest.split(' ').next().unwrap().parse().unwrap());
        assert_eq!(gated.is_some(), conversions == Conversions::LongOnly, "{out}");
        // `apply --dry-run` rehearses the same steps, over the same deployment
        let (code, out) = cli(&["apply", "--dry-run", "--contract", "--format", "json"]);
        let report: serde_json::Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"));
        let dry: Vec<u64> = report["dataSteps"]["findings"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| f["verdict"] == "refused")
            .map(|f| f["step"].as_u64().unwrap())
            .collect();
        match conversions {
            Conversions::PerField => assert_eq!((code, dry), (1, vec![1, 3]), "{out}"),
            _ => assert_eq!((code, dry), (0, vec![]), "{out}"),
        }
        assert_eq!(report["toApply"], 2, "{out}");
        let (code, out) = cli(&["apply"]);
        assert_eq!(code, 0, "{out}");
        let (code, out) = cli(&["apply", "--contract"]);
        match conversions {
            Conversions::PerField => {
                // the first step the check reported is the one mongod refuses
                assert_eq!(code, 1, "{out}");
                assert!(out.contains(&format!("migration {data}: step 1 of 4 (update {DB}.{COLLECTION})")), "{out}");
                assert!(out.contains("Document failed validation"), "{out}");
            }
            Conversions::LongOnly => {
                assert_eq!(code, 1, "{out}");
                let stopped = format!(
                    "step 2 of 2 (collMod {DB}.{COLLECTION}): not run: it enforces the model's validator, and {} of {} \
                     documents of {DB}.{COLLECTION} fail it",
                    gated.unwrap(),
                    old.len()
                );
                assert!(out.contains(&stopped), "{stopped}: {out}");
            }
            _ => {
                assert_eq!(code, 0, "{out}");
                let reply = server.run_command(DB, doc! { "find": COLLECTION, "batchSize": 1000 }).unwrap();
                let stored = reply.get_document("cursor").unwrap().get_array("firstBatch").unwrap().clone();
                assert_eq!(stored.len(), old.len());
                assert!(
                    stored.iter().all(|d| current.is_valid(d.as_document().unwrap())),
                    "every document in the new shape"
                );
            }
        }
    }
    drop(server.run_command(DB, doc! { "dropDatabase": 1 }));
    drop(server.run_command(REPLAY, doc! { "dropDatabase": 1 }));
}

#[test]
fn the_rehearsal_judges_each_validation_level_and_action_as_mongod_does() {
    use mongo_schema::migrate::file::{FileStep, MigrationFile, MigrationKind};
    use mongo_schema::migrate::order::Progress;
    use mongo_schema::migrate::Phase;
    let Ok(uri) = std::env::var("MONGODB_URI") else {
        eprintln!("skipped (no MONGODB_URI): the_rehearsal_judges_each_validation_level_and_action_as_mongod_does");
        return;
    };
    let server = &mut MongoServer::connect(&uri).expect("connect");
    let step = |command: Document| FileStep {
        db: DB.into(),
        command,
        if_namespace_exists: None,
        phase: Phase::Expand,
        require_valid: false,
    };
    let file = |name: &str, kind, up: Vec<Document>| MigrationFile {
        name: name.into(),
        kind,
        up: up.into_iter().map(step).collect(),
        down: Vec::new(),
        checksum: String::new(),
    };
    let schema =
        doc! { "bsonType": "object", "required": ["n"], "properties": { "n": { "bsonType": "int", "maximum": 10 } } };
    // stored before the validator: one already over the bound, one under it
    let mut samples = Samples::default();
    for document in [doc! { "_id": "over", "n": 50 }, doc! { "_id": "under", "n": 9 }, doc! { "_id": "low", "n": 1 }] {
        samples.add(&format!("{DB}.{COLLECTION}"), document, "stored");
    }
    let raise = doc! { "update": COLLECTION, "updates": [{ "q": {}, "u": { "$inc": { "n": 5 } }, "multi": true }] };
    let mut verdicts = Vec::new();
    for (level, action) in [("strict", "error"), ("moderate", "error"), ("strict", "warn"), ("off", "error")] {
        let create = doc! {
            "create": COLLECTION, "validator": { "$jsonSchema": schema.clone() },
            "validationLevel": level, "validationAction": action,
        };
        let files = [
            file("0001_create", MigrationKind::Schema, vec![create]),
            file("0002_raise", MigrationKind::Data, vec![raise.clone()]),
        ];
        // the create applied before, its collection holding the stored documents
        let applied = Progress { applied: true, done: 1, created: Vec::new() };
        let rehearsed = mongo_schema::simulate::rehearse(&files, &[applied, Progress::default()], &samples);
        let trace = rehearsed.traces.iter().find(|t| t.migration == "0002_raise").unwrap();
        let mut expected: Vec<String> = trace.refused.iter().map(Bson::to_string).collect();
        let mut found = refused_on_mongod(server, REPLAY_LEVELS, &files, trace);
        expected.sort();
        found.sort();
        assert_eq!(found, expected, "{level} {action}: refused on mongod and in the rehearsal");
        verdicts.push(found.len());
    }
    // strict refuses `over` and `under` (and the generated shapes at the bound), moderate spares
    // `over`, warn and off refuse nothing
    assert!(verdicts[0] > verdicts[1] && verdicts[1] > 0 && verdicts[2] == 0 && verdicts[3] == 0, "{verdicts:?}");
    drop(server.run_command(REPLAY_LEVELS, doc! { "dropDatabase": 1 }));
}
