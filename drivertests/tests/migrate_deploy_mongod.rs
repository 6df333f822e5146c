//! Migrations under the ordinary events of a deploy, on the single-node replica set
//! (`MONGODB_URI_REPLSET`) and the `--auth` deployment (`scripts/with-mongod.sh`):
//!
//! - `schema apply` killed (`SIGKILL`) inside its first step and at every step boundary,
//!   then run again, leaves every step run exactly once (counted by the steps themselves);
//! - a first step refused (a readWrite user cannot `collMod`) resumes under an admin;
//! - four CLI appliers and two `Migrator`s started together all succeed, and a counting
//!   data step ran once;
//! - the CLI and `Migrator` with their defaults keep one record, and records kept elsewhere
//!   are named instead of applied again;
//! - `schema resolve` gets a stuck migration moving.
//!
//! Without the variables each test says it was skipped and passes.

#![forbid(unsafe_code)]

use mongo_schema::bson::{doc, Bson, Document};
use mongo_schema::cli::run;
use mongo_schema::migrate::driver::MongoServer;
use mongo_schema::migrate::server::Server;
use mongo_schema::migrate::{new_data_migration, pending, Migrator, Naming};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Set in a child process: the `schema` arguments, one a line.
const CHILD_ARGS: &str = "MONGO_SCHEMA_DEPLOY_CHILD_ARGS";

/// Not a test: the `schema` process the tests start, kill and start together.
#[test]
#[ignore = "the child process of the deploy tests, which run it"]
fn child_schema_process() {
    let args = std::env::var(CHILD_ARGS).expect("run by a deploy test");
    let argv: Vec<&str> = std::iter::once("schema").chain(args.lines()).collect();
    let code = run(&[], argv, &mut std::io::stdout(), &mut std::io::stderr());
    std::process::exit(code);
}

/// A `schema` child process with `args`, its output kept.
fn spawn(args: &[&str]) -> Child {
    Command::new(std::env::current_exe().unwrap())
        .arg(mongo_schema_test_support::test_name(module_path!(), "child_schema_process"))
        .args(["--exact", "--ignored", "--nocapture", "--test-threads", "1"])
        .env(CHILD_ARGS, args.join("\n"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// The child's exit code and its output.
fn finish(child: Child) -> (i32, String) {
    let output = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&output.stdout).into_owned() + &String::from_utf8_lossy(&output.stderr);
    (output.status.code().unwrap_or(-1), text)
}

/// `schema ARGS` in this process: exit code and output.
fn schema(args: &[&str]) -> (i32, String) {
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = run(&[], std::iter::once("schema").chain(args.iter().copied()), &mut out, &mut err);
    (code, String::from_utf8(out).unwrap() + &String::from_utf8(err).unwrap())
}

fn uri(test: &str, var: &str) -> Option<String> {
    let found = std::env::var(var).ok();
    if found.is_none() {
        eprintln!("skipped (no {var}): {test}");
    }
    found
}

/// One database for a test's collections and another for its records, emptied first.
struct Scene {
    uri: String,
    db: String,
    state_db: String,
}

impl Scene {
    fn new(uri: String, tag: &str) -> Self {
        let scene = Scene { uri, db: format!("db_deploy_{tag}"), state_db: format!("db_deploy_{tag}_state") };
        for db in [&scene.db, &scene.state_db] {
            scene.server().run_command(db, doc! { "dropDatabase": 1 }).expect("dropDatabase");
        }
        scene
    }

    fn server(&self) -> MongoServer {
        MongoServer::connect(&self.uri).expect("connect")
    }

    fn run(&self, db: &str, command: Document) -> Document {
        let reply = self.server().run_command(db, command).expect("command");
        assert!(!reply.contains_key("writeErrors"), "{reply}");
        reply
    }

    fn find(&self, db: &str, collection: &str, filter: Document) -> Vec<Document> {
        let reply = self.run(db, doc! { "find": collection, "filter": filter, "batchSize": 100_000 });
        let batch = reply.get_document("cursor").unwrap().get_array("firstBatch").unwrap();
        batch.iter().map(|d| d.as_document().unwrap().clone()).collect()
    }

    /// The record of `migration` in the state database.
    fn record(&self, migration: &str) -> Option<Document> {
        self.find(&self.state_db, "t_schema_migration", doc! { "migration": migration }).into_iter().next()
    }

    /// How many times each counting step ran: `t_count` holds one document per step.
    fn counts(&self) -> Vec<(String, i64)> {
        let mut counts: Vec<(String, i64)> = self
            .find(&self.db, "t_count", doc! { "_id": { "$ne": "sleeper" } })
            .iter()
            .map(|d| (d.get_str("_id").unwrap().to_owned(), d.get_i64("n").or(d.get_i32("n").map(i64::from)).unwrap()))
            .collect();
        counts.sort();
        counts
    }

    /// `--uri`, `--dir` and `--state-db`, and a 2-second lease, so that a killed applier's
    /// lease expires quickly.
    fn target<'a>(&'a self, dir: &'a Path) -> [&'a str; 8] {
        ["--uri", &self.uri, "--dir", dir.to_str().unwrap(), "--state-db", &self.state_db, "--lock-lease", "2"]
    }

    /// A data migration step counting its runs: `$inc` of `t_count.{id}`.
    fn count_step(&self, id: &str) -> serde_json::Value {
        serde_json::json!({ "db": self.db, "command": {
            "update": "t_count",
            "updates": [{ "q": { "_id": id }, "u": { "$inc": { "n": 1 } }, "upsert": true }]
        }})
    }

    /// A step that only takes `ms` (a server-side `sleep` over the one `sleeper` document)
    /// and changes nothing: killing the applier in it is killing it between the steps around it.
    fn sleep_step(&self, ms: u32) -> serde_json::Value {
        serde_json::json!({ "db": self.db, "command": {
            "find": "t_count",
            "filter": { "_id": "sleeper", "$where": format!("sleep({ms}) || true") }
        }})
    }
}

/// A data migration named `name` with `up` steps in `dir`; its migration name.
fn data_migration(dir: &Path, name: &str, up: Vec<serde_json::Value>) -> String {
    let path = new_data_migration(dir, name, Naming::Sequence).unwrap();
    let mut value: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    value["up"] = serde_json::Value::Array(up);
    std::fs::write(&path, serde_json::to_string_pretty(&value).unwrap()).unwrap();
    path.file_stem().unwrap().to_str().unwrap().to_owned()
}

fn names(dir: &Path) -> Vec<String> {
    pending(dir).unwrap().iter().map(|p| p.file_stem().unwrap().to_str().unwrap().to_owned()).collect()
}

/// Waits until `ready` holds (the child still running), then kills the child.
fn kill_when(mut child: Child, what: &str, ready: impl Fn() -> bool) {
    let start = Instant::now();
    while !ready() {
        if let Some(status) = child.try_wait().unwrap() {
            let (_, out) = finish(child);
            panic!("the applier ended ({status}) before {what}: {out}");
        }
        assert!(start.elapsed() < Duration::from_secs(60), "never reached: {what}");
        std::thread::sleep(Duration::from_millis(10));
    }
    child.kill().unwrap();
    child.wait().unwrap();
}

#[test]
fn an_applier_killed_in_its_first_step_and_at_every_boundary_resumes_and_runs_each_step_once() {
    let test = "an_applier_killed_in_its_first_step_and_at_every_boundary_resumes_and_runs_each_step_once";
    let Some(uri) = uri(test, "MONGODB_URI_REPLSET") else { return };
    let scene = Scene::new(uri, "kill");
    scene.run(&scene.db, doc! { "insert": "t_count", "documents": [{ "_id": "sleeper" }] });
    let dir = tempfile::tempdir().unwrap();
    // two migrations: steps that count themselves, between steps that only take time
    let first = data_migration(
        dir.path(),
        "count a",
        vec![scene.sleep_step(1500), scene.count_step("a1"), scene.sleep_step(1500), scene.count_step("a2")],
    );
    let second = data_migration(
        dir.path(),
        "count b",
        vec![scene.sleep_step(1500), scene.count_step("b1"), scene.sleep_step(1500), scene.count_step("b2")],
    );
    let mut args = vec!["apply"];
    args.extend(scene.target(dir.path()));
    let done = |name: &str| scene.record(name).and_then(|r| r.get_i64("done").ok());

    // killed inside the first step: the record exists with nothing done
    kill_when(spawn(&args), "the first step", || done(&first) == Some(0));
    let (code, out) =
        schema(&["status", "--uri", &scene.uri, "--dir", dir.path().to_str().unwrap(), "--state-db", &scene.state_db]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains(&format!("partial  {first}  0 of 4 steps (a run stopped; `schema apply` resumes it at step 1")),
        "{out}"
    );
    // killed at each boundary between counting steps (in the sleeping steps): inside the
    // first migration, between the two migrations, inside the second
    kill_when(spawn(&args), "the boundary after a1", || done(&first) == Some(2));
    kill_when(spawn(&args), "the boundary between the migrations", || done(&second) == Some(0));
    kill_when(spawn(&args), "the boundary after b1", || done(&second) == Some(2));
    let (code, out) = finish(spawn(&args));
    assert_eq!(code, 0, "{out}");
    assert!(out.contains(&format!("applied {second} (resumed after step 2")), "{out}");
    let expected: Vec<(String, i64)> = ["a1", "a2", "b1", "b2"].iter().map(|s| ((*s).to_owned(), 1)).collect();
    assert_eq!(scene.counts(), expected, "every counting step ran once");
    for name in [&first, &second] {
        let record = scene.record(name).unwrap();
        assert!(record.get_datetime("appliedAt").is_ok(), "{record}");
    }
    // a killed applier's lease was taken over; the last one released its own
    assert!(scene.find(&scene.state_db, "t_schema_migration", doc! { "_id": "lock" }).is_empty());
}

#[test]
fn appliers_started_together_take_turns_and_a_counting_step_runs_once() {
    let test = "appliers_started_together_take_turns_and_a_counting_step_runs_once";
    let Some(uri) = uri(test, "MONGODB_URI_REPLSET") else { return };
    let scene = Scene::new(uri, "together");
    scene.run(&scene.db, doc! { "insert": "t_count", "documents": [{ "_id": "sleeper" }] });
    let dir = tempfile::tempdir().unwrap();
    let name = data_migration(
        dir.path(),
        "count once",
        vec![scene.count_step("once"), scene.sleep_step(1000), scene.count_step("twice")],
    );
    let mut args = vec!["apply"];
    args.extend(scene.target(dir.path()));
    let children: Vec<Child> = (0..4).map(|_| spawn(&args)).collect();
    // two application instances with their own client, started with the CLI appliers
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let migrators: Vec<_> = (0..2)
        .map(|_| {
            let (uri, state_db, db, dir) =
                (scene.uri.clone(), scene.state_db.clone(), scene.db.clone(), dir.path().to_owned());
            runtime.spawn(async move {
                let client = mongodb::Client::with_uri_str(&uri).await.unwrap();
                Migrator::from_dir(&dir).unwrap().state_db(state_db).run(&client.database(&db)).await
            })
        })
        .collect();
    let mut applied = 0;
    for child in children {
        let (code, out) = finish(child);
        assert_eq!(code, 0, "{out}");
        applied += out.lines().filter(|l| *l == format!("applied {name}")).count();
    }
    for migrator in migrators {
        let outcomes = runtime.block_on(migrator).unwrap().expect("the Migrator succeeds");
        applied += outcomes.iter().filter(|o| matches!(o, mongo_schema::migrate::apply::Outcome::Applied(_))).count();
    }
    assert_eq!(applied, 1, "one applier ran the migration; the five others found it applied");
    assert_eq!(scene.counts(), [("once".to_owned(), 1), ("twice".to_owned(), 1)]);
}

#[test]
fn a_refused_first_step_resumes_under_a_user_who_may_run_it() {
    let test = "a_refused_first_step_resumes_under_a_user_who_may_run_it";
    let (Some(app), Some(admin)) = (uri(test, "MONGODB_URI_AUTH"), uri(test, "MONGODB_URI_AUTH_ROOT")) else { return };
    let _turn = crate::DB_APP.lock().unwrap_or_else(|e| e.into_inner());
    // the app user may write db_app only: the collection and the records live there
    let server = &mut MongoServer::connect(&admin).unwrap();
    for collection in ["t_refused", "t_schema_migration"] {
        let _ = server.run_command("db_app", doc! { "drop": collection });
    }
    server.run_command("db_app", doc! { "create": "t_refused" }).unwrap();
    let dir = tempfile::tempdir().unwrap();
    // installing a validator on an existing collection is collMod: dbAdmin's, not readWrite's
    let step = serde_json::json!({ "db": "db_app", "command": {
        "collMod": "t_refused", "validator": { "$jsonSchema": { "bsonType": "object", "required": ["name"] } }
    }});
    let name = data_migration(dir.path(), "validate refused", vec![step]);
    let target = |uri: &'static str| -> Vec<String> {
        let uri = std::env::var(uri).unwrap();
        ["--uri", &uri, "--dir", dir.path().to_str().unwrap(), "--state-db", "db_app"].map(str::to_owned).to_vec()
    };
    let with = |command: &str, uri| {
        let args: Vec<String> = std::iter::once(command.to_owned()).chain(target(uri)).collect();
        schema(&args.iter().map(String::as_str).collect::<Vec<_>>())
    };
    let (code, out) = with("apply", "MONGODB_URI_AUTH");
    assert_eq!(code, 2, "Unauthorized is an error of the deployment: {out}");
    assert!(out.contains("not authorized") && out.contains("(code 13)"), "{out}");
    let (_, out) = with("status", "MONGODB_URI_AUTH");
    assert!(out.contains(&format!("partial  {name}  0 of 1 steps")), "{out}");
    let (code, out) = with("apply", "MONGODB_URI_AUTH_ROOT");
    assert_eq!(code, 0, "{out}");
    assert!(out.contains(&format!("applied {name}")), "{out}");
    let (_, out) = with("status", "MONGODB_URI_AUTH");
    assert!(out.ends_with("1 applied, 0 pending, 0 partial, 0 contract pending\n"), "{out}");
    let _ = server.run_command("db_app", doc! { "drop": "t_refused" });
    let _ = server.run_command("db_app", doc! { "drop": "t_schema_migration" });
    drop(app);
}

#[test]
fn a_stuck_migration_is_resolved_by_skipping_its_step_or_forgetting_it() {
    let test = "a_stuck_migration_is_resolved_by_skipping_its_step_or_forgetting_it";
    let Some(uri) = uri(test, "MONGODB_URI_REPLSET") else { return };
    let scene = Scene::new(uri, "resolve");
    let dir = tempfile::tempdir().unwrap();
    // a step that cannot succeed here: `$jsonSchema` refuses the keyword
    let broken = serde_json::json!({ "db": scene.db, "command": {
        "create": "t_broken", "validator": { "$jsonSchema": { "format": "email" } }
    }});
    let name = data_migration(dir.path(), "stuck", vec![broken, scene.count_step("after")]);
    let mut args = vec!["apply"];
    args.extend(scene.target(dir.path()));
    let (code, out) = schema(&args);
    assert_eq!(code, 1, "a refused step is a finding: {out}");
    let status_args =
        ["status", "--uri", &scene.uri, "--dir", dir.path().to_str().unwrap(), "--state-db", &scene.state_db];
    let (_, out) = schema(&status_args);
    assert!(out.contains(&format!("`schema resolve {name} --skip-step`")), "{out}");
    let mut json_args = status_args.to_vec();
    json_args.extend(["--format", "json"]);
    let (code, out) = schema(&json_args);
    assert_eq!(code, 0, "{out}");
    let report: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(report["stateDb"], scene.state_db.as_str());
    assert_eq!(report["migrations"][0]["state"], "partial", "{report}");
    assert_eq!(report["migrations"][0]["done"], 0, "{report}");
    assert_eq!(report["migrations"][0]["resolve"], format!("schema resolve {name} --skip-step"), "{report}");
    let mut resolve = vec!["resolve", &name, "--skip-step"];
    resolve.extend(scene.target(dir.path()));
    let (code, out) = schema(&resolve);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("step 1 of 2 (create db_deploy_resolve.t_broken) recorded as done without running it"),
        "{out}"
    );
    let mut json_apply = args.clone();
    json_apply.extend(["--format", "json"]);
    let (code, out) = schema(&json_apply);
    assert_eq!(code, 0, "{out}");
    let report: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(report["migrations"][0], serde_json::json!({ "name": name, "outcome": "resumed", "afterStep": 1 }));
    assert_eq!((report["applied"].as_u64(), report["alreadyApplied"].as_u64()), (Some(1), Some(0)));
    assert_eq!(scene.counts(), [("after".to_owned(), 1)]);
    let record = scene.record(&name).unwrap();
    assert_eq!(record.get_array("skipped").unwrap(), &vec![Bson::Int64(0)]);
    // an applied migration is not resolved
    let (code, out) = schema(&resolve);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("applied: nothing to resolve"), "{out}");
    // --forget: the record goes, and apply runs it from step 1
    scene.run(&scene.state_db, doc! { "update": "t_schema_migration", "updates": [{ "q": { "migration": &name }, "u": { "$set": { "done": 1_i64 }, "$unset": { "appliedAt": "" } } }] });
    let mut forget = vec!["resolve", &name, "--forget"];
    forget.extend(scene.target(dir.path()));
    let (code, out) = schema(&forget);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("runs it again from step 1"), "{out}");
    assert!(scene.record(&name).is_none());
}

#[test]
fn the_cli_and_migrator_keep_one_record_and_name_records_kept_elsewhere() {
    let test = "the_cli_and_migrator_keep_one_record_and_name_records_kept_elsewhere";
    let Some(uri) = uri(test, "MONGODB_URI_REPLSET") else { return };
    let scene = Scene::new(uri, "one_record");
    let dir = tempfile::tempdir().unwrap();
    let name = data_migration(dir.path(), "count one", vec![scene.count_step("one")]);
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let client = runtime.block_on(mongodb::Client::with_uri_str(&scene.uri)).unwrap();
    let db = client.database(&scene.db);
    // the records an earlier version's Migrator kept in the application's database
    let kept_in_app_db = ["apply", "--uri", &scene.uri, "--dir", dir.path().to_str().unwrap(), "--state-db", &scene.db];
    let (code, out) = schema(&kept_in_app_db);
    assert_eq!(code, 0, "{out}");
    let err = runtime.block_on(Migrator::from_dir(dir.path()).unwrap().run(&db)).unwrap_err();
    let message = format!("{err}: {}", std::error::Error::source(&err).unwrap());
    assert!(
        message.contains(&format!("db_schema.t_schema_migration records none of these migrations, but {}.t_schema_migration records 1 of them", scene.db)),
        "{message}"
    );
    assert_eq!(scene.counts(), [("one".to_owned(), 1)], "nothing ran again");

    // with their defaults, both read and write db_schema
    let _ = scene.server().run_command(
        "db_schema",
        doc! { "delete": "t_schema_migration", "deletes": [{ "q": { "migration": &name }, "limit": 0 }] },
    );
    let _ = scene.server().run_command(&scene.db, doc! { "drop": "t_schema_migration" });
    let outcomes = runtime.block_on(Migrator::from_dir(dir.path()).unwrap().run(&db)).unwrap();
    assert_eq!(outcomes, [mongo_schema::migrate::apply::Outcome::Applied(name.clone())]);
    let (code, out) = schema(&["status", "--uri", &scene.uri, "--dir", dir.path().to_str().unwrap()]);
    assert_eq!(code, 0, "{out}");
    assert!(out.starts_with(&format!("applied  {name}")), "{out}");
    assert_eq!(scene.counts(), [("one".to_owned(), 2)], "once in each of the two record databases");
    let _ = scene.server().run_command(
        "db_schema",
        doc! { "delete": "t_schema_migration", "deletes": [{ "q": { "migration": &name }, "limit": 0 }] },
    );
    assert_eq!(names(dir.path()), [name]);
}

use mongo_schema_test_support::migrate_models;

/// Needs no server: nothing listens on port 1.
#[test]
fn every_command_that_talks_to_a_deployment_exits_2_when_it_cannot_reach_it() {
    let dir = tempfile::tempdir().unwrap();
    let name =
        data_migration(dir.path(), "unreachable", vec![serde_json::json!({ "db": "db_x", "command": { "ping": 1 } })]);
    let uri = "mongodb://127.0.0.1:1/?serverSelectionTimeoutMS=200&connectTimeoutMS=200";
    let dir = dir.path().to_str().unwrap();
    let target = ["--uri", uri, "--dir", dir];
    let models = migrate_models::v1();
    let commands = [
        &["apply"][..],
        &["apply", "--dry-run"],
        &["migrate", "--check"],
        &["status"],
        &["revert"],
        &["resolve", &name, "--forget"],
        &["drift"],
        &["review"],
        &["check"],
    ];
    for command in commands {
        // the commands without migration files take the URI alone
        let with_dir = !matches!(command[0], "drift" | "review" | "check");
        let args: Vec<&str> = std::iter::once("schema")
            .chain(command.iter().copied())
            .chain(target.iter().copied().take(if with_dir { 4 } else { 2 }))
            .collect();
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let code = run(&models, args, &mut out, &mut err);
        let text = String::from_utf8(out).unwrap() + &String::from_utf8(err).unwrap();
        assert_eq!(code, 2, "`schema {}`: {text}", command.join(" "));
    }
}

/// A plan's seat limit, stored as `maxSeats` and renamed `seatLimit`.
mod plans {
    pub mod before {
        use mongo_schema::bson::oid::ObjectId;
        use mongo_schema::MongoSchema;
        use serde::{Deserialize, Serialize};

        #[derive(Serialize, Deserialize, MongoSchema)]
        #[serde(rename_all = "camelCase")]
        #[mongo(db = "db_deploy_rename", collection = "t_plan", field_case = "camelCase")]
        pub struct Plan {
            #[serde(rename = "_id")]
            pub id: ObjectId,
            #[mongo(max_length = 40)]
            pub plan_name: String,
            #[mongo(minimum = 1)]
            pub max_seats: i32,
        }
    }

    pub mod renamed {
        use mongo_schema::bson::oid::ObjectId;
        use mongo_schema::MongoSchema;
        use serde::{Deserialize, Serialize};

        #[derive(Serialize, Deserialize, MongoSchema)]
        #[serde(rename_all = "camelCase", deny_unknown_fields)]
        #[mongo(db = "db_deploy_rename", collection = "t_plan", field_case = "camelCase")]
        pub struct Plan {
            #[serde(rename = "_id")]
            pub id: ObjectId,
            #[mongo(max_length = 40)]
            pub plan_name: String,
            #[serde(alias = "maxSeats")]
            #[mongo(minimum = 1, renamed_from = "maxSeats")]
            pub seat_limit: i32,
        }
    }

    /// The attribute removed once every deployment is migrated.
    pub mod later {
        use mongo_schema::bson::oid::ObjectId;
        use mongo_schema::MongoSchema;
        use serde::{Deserialize, Serialize};

        #[derive(Serialize, Deserialize, MongoSchema)]
        #[serde(rename_all = "camelCase", deny_unknown_fields)]
        #[mongo(db = "db_deploy_rename", collection = "t_plan", field_case = "camelCase")]
        pub struct Plan {
            #[serde(rename = "_id")]
            pub id: ObjectId,
            #[mongo(max_length = 40)]
            pub plan_name: String,
            #[mongo(minimum = 1)]
            pub seat_limit: i32,
        }
    }
}

#[test]
fn a_renamed_required_field_moves_under_a_strict_validator_and_back() {
    use mongo_schema::migrate::{migrate, MigrateOptions, Model};
    let test = "a_renamed_required_field_moves_under_a_strict_validator_and_back";
    let Some(uri) = uri(test, "MONGODB_URI_REPLSET") else { return };
    let scene = Scene { uri, db: "db_deploy_rename".to_owned(), state_db: "db_deploy_rename_state".to_owned() };
    for db in [&scene.db, &scene.state_db] {
        scene.run(db, doc! { "dropDatabase": 1 });
    }
    let dir = tempfile::tempdir().unwrap();
    let numbered = MigrateOptions { naming: Naming::Sequence, direct: true, ..MigrateOptions::default() };
    migrate(dir.path(), &[Model::of::<plans::before::Plan>("Plan")], &numbered).unwrap().unwrap();
    let mut args = vec!["apply"];
    args.extend(scene.target(dir.path()));
    let (code, out) = schema(&args);
    assert_eq!(code, 0, "{out}");
    let plans: Vec<Document> = (0..1000)
        .map(|i| doc! { "_id": mongo_schema::bson::oid::ObjectId::new(), "planName": format!("plan {i}"), "maxSeats": 1 + i % 50 })
        .collect();
    scene.run(&scene.db, doc! { "insert": "t_plan", "documents": plans });

    use mongo_schema::MongoCollection;
    assert_eq!(<plans::renamed::Plan as MongoCollection>::RENAMES, [("seatLimit", "maxSeats")]);
    let rolling = MigrateOptions { direct: false, ..numbered.clone() };
    let written = migrate(dir.path(), &[Model::of::<plans::renamed::Plan>("Plan")], &rolling).unwrap().unwrap();
    let steps: Vec<(String, &str)> = written
        .migration
        .up
        .iter()
        .map(|s| (s.command.iter().next().map(|(k, _)| k.clone()).unwrap(), s.phase.as_str()))
        .collect();
    assert_eq!(
        steps,
        [("collMod".into(), "expand"), ("update".into(), "contract"), ("collMod".into(), "contract")],
        "accept both; then move the values and enforce"
    );
    assert!(
        !written.migration.notes.iter().any(|n| n.contains("looks like a rename")),
        "a declared rename is carried out, not guessed at: {:?}",
        written.migration.notes
    );
    let (code, out) = schema(&args);
    assert_eq!(code, 0, "{out}");
    // the previous release writes the old key, this one the new: both accepted, nothing moved
    let insert =
        |d: Document| scene.server().run_command(&scene.db, doc! { "insert": "t_plan", "documents": [d] }).unwrap();
    let old_writer = insert(doc! { "planName": "old", "maxSeats": 3 });
    let new_writer = insert(doc! { "planName": "new", "seatLimit": 4 });
    assert!(
        !old_writer.contains_key("writeErrors") && !new_writer.contains_key("writeErrors"),
        "{old_writer} {new_writer}"
    );
    assert_eq!(scene.find(&scene.db, "t_plan", doc! { "maxSeats": { "$exists": true } }).len(), 1001);
    let mut contract = args.clone();
    contract.push("--contract");
    let (code, out) = schema(&contract);
    assert_eq!(code, 0, "{out}");
    let stored = scene.find(&scene.db, "t_plan", doc! {});
    assert_eq!(stored.len(), 1002);
    assert!(stored.iter().all(|p| p.contains_key("seatLimit") && !p.contains_key("maxSeats")), "{:?}", stored[0]);
    assert_eq!(stored[7].get_i32("seatLimit").unwrap(), 8, "the values moved with their documents");
    assert_eq!(stored[1000].get_i32("seatLimit").unwrap(), 3, "what the previous release wrote during the expand too");
    // the strict validator now requires the new key and refuses the old one
    let old = insert(doc! { "planName": "x", "maxSeats": 2 });
    assert_eq!(old.get_array("writeErrors").unwrap()[0].as_document().unwrap().get_i32("code").unwrap(), 121);

    // the attribute removed later: nothing to migrate
    assert!(migrate(dir.path(), &[Model::of::<plans::later::Plan>("Plan")], &numbered).unwrap().is_none());

    // revert: the values move back under the same sequence, backwards
    let mut revert = vec!["revert"];
    revert.extend(scene.target(dir.path()));
    let (code, out) = schema(&revert);
    assert_eq!(code, 0, "{out}");
    let stored = scene.find(&scene.db, "t_plan", doc! {});
    assert!(stored.iter().all(|p| p.contains_key("maxSeats") && !p.contains_key("seatLimit")), "{:?}", stored[0]);
    let (code, out) = schema(&contract);
    assert_eq!(code, 0, "{out}");
    assert!(scene.find(&scene.db, "t_plan", doc! { "seatLimit": { "$exists": true } }).len() == 1002);
}

/// The `mongo_schema::migrate` events of this process, as `LEVEL field=value ...` lines.
static EVENTS: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());

/// A subscriber of the test's own: `Migrator` runs its steps on tokio's blocking pool, so
/// the subscriber is the process's (set once).
struct Collect;

impl tracing::Subscriber for Collect {
    fn enabled(&self, _: &tracing::Metadata<'_>) -> bool {
        true
    }
    fn new_span(&self, _: &tracing::span::Attributes<'_>) -> tracing::span::Id {
        tracing::span::Id::from_u64(1)
    }
    fn record(&self, _: &tracing::span::Id, _: &tracing::span::Record<'_>) {}
    fn record_follows_from(&self, _: &tracing::span::Id, _: &tracing::span::Id) {}
    fn event(&self, event: &tracing::Event<'_>) {
        struct Fields<'a>(&'a mut String);
        impl tracing::field::Visit for Fields<'_> {
            fn record_debug(&mut self, field: &tracing::field::Field, value: &dyn std::fmt::Debug) {
                self.0.push_str(&format!(" {}={value:?}", field.name()));
            }
        }
        if event.metadata().target() == "mongo_schema::migrate" {
            let mut line = event.metadata().level().to_string();
            event.record(&mut Fields(&mut line));
            EVENTS.lock().unwrap().push(line);
        }
    }
    fn enter(&self, _: &tracing::span::Id) {}
    fn exit(&self, _: &tracing::span::Id) {}
}

#[test]
fn migrator_reports_its_lock_wait_steps_and_failure_through_tracing() {
    let test = "migrator_reports_its_lock_wait_steps_and_failure_through_tracing";
    // the tracing subscriber is the process's: alone in one, no other test's events are caught
    if !mongo_schema_test_support::alone_in_process(module_path!(), test) {
        return;
    }
    let Some(uri) = uri(test, "MONGODB_URI_REPLSET") else { return };
    let _ = tracing::subscriber::set_global_default(Collect);
    let scene = Scene::new(uri, "traced");
    scene.run(&scene.db, doc! { "insert": "t_count", "documents": [{ "_id": "sleeper" }] });
    let dir = tempfile::tempdir().unwrap();
    let counted = data_migration(dir.path(), "count", vec![scene.count_step("traced"), scene.sleep_step(200)]);
    // a collMod of a collection that does not exist: the server refuses it
    let refused = data_migration(
        dir.path(),
        "refused",
        vec![serde_json::json!({ "db": scene.db, "command": { "collMod": "t_missing", "validator": {} } })],
    );
    // a dead instance's lease, 2 s left: this one waits, then takes it over
    let expires =
        mongo_schema::bson::DateTime::from_millis(mongo_schema::bson::DateTime::now().timestamp_millis() + 2000);
    scene.run(
        &scene.state_db,
        doc! { "insert": "t_schema_migration", "documents": [{ "_id": "lock", "owner": "ghost-host:4242:dead", "expiresAt": expires, "renewedAt": expires }] },
    );
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let (uri, state_db, db) = (scene.uri.clone(), scene.state_db.clone(), scene.db.clone());
    let err = runtime
        .block_on(async move {
            let client = mongodb::Client::with_uri_str(&uri).await.unwrap();
            Migrator::from_dir(dir.path()).unwrap().state_db(state_db).run(&client.database(&db)).await
        })
        .unwrap_err();
    // the context in Display; the migration, the step and the server's words down source()
    assert_eq!(err.to_string(), "cannot apply the migrations");
    let mut text = err.to_string();
    let mut cause = std::error::Error::source(&err);
    while let Some(e) = cause {
        text = format!("{text}: {e}");
        cause = e.source();
    }
    let said =
        format!("cannot apply the migrations: migration {refused}: step 1 of 1 (collMod db_deploy_traced.t_missing)");
    assert!(text.starts_with(&said), "{text}");
    assert!(text.contains("(code 26)"), "the server's refusal: {text}");
    let events = EVENTS.lock().unwrap().clone();
    let find = |what: &str| events.iter().filter(|e| e.contains(what)).cloned().collect::<Vec<_>>();
    let waiting = find("waiting for the migration lock");
    assert!(waiting.len() == 1 && waiting[0].contains("ghost-host:4242:dead"), "{events:#?}");
    let taken = find("took the migration lock");
    let waited: u64 = taken[0].split("waited_ms=").nth(1).unwrap().split_whitespace().next().unwrap().parse().unwrap();
    assert!(waited >= 1000, "taken over once the dead lease expired: {taken:?}");
    let find_here = |what: &str| find(what).into_iter().filter(|e| e.contains("db_deploy_traced")).collect::<Vec<_>>();
    assert_eq!(find_here("migration step started").len(), 3, "{events:#?}");
    let done = find_here("migration step done");
    assert_eq!(done.len(), 2, "the refused step never ends: {events:#?}");
    assert!(done[1].contains(&format!("{counted}: step 2 of 2")) && done[1].contains("duration_ms="), "{done:?}");
    let failed = find_here("migrations failed");
    assert!(failed.len() == 1 && failed[0].starts_with("ERROR") && failed[0].contains(&said), "{events:#?}");
    assert!(failed[0].contains("(code 26)"), "the log line says the whole chain: {failed:?}");
}

/// Tickets: a release renames `assigneeName` to `assignee` and lowers `title` to 80 characters.
mod tickets {
    pub mod before {
        use mongo_schema::bson::oid::ObjectId;
        use mongo_schema::MongoSchema;
        use serde::{Deserialize, Serialize};

        #[derive(Serialize, Deserialize, MongoSchema)]
        #[serde(rename_all = "camelCase", deny_unknown_fields)]
        #[mongo(db = "db_deploy_ticket", collection = "t_ticket", field_case = "camelCase")]
        pub struct Ticket {
            #[serde(rename = "_id")]
            pub id: ObjectId,
            #[mongo(max_length = 200)]
            pub title: String,
            #[mongo(max_length = 40)]
            pub assignee_name: String,
            pub status: String,
        }
    }

    pub mod after {
        use mongo_schema::bson::oid::ObjectId;
        use mongo_schema::MongoSchema;
        use serde::{Deserialize, Serialize};

        #[derive(Serialize, Deserialize, MongoSchema)]
        #[serde(rename_all = "camelCase", deny_unknown_fields)]
        #[mongo(db = "db_deploy_ticket", collection = "t_ticket", field_case = "camelCase")]
        pub struct Ticket {
            #[serde(rename = "_id")]
            pub id: ObjectId,
            #[mongo(max_length = 80)]
            pub title: String,
            #[serde(alias = "assigneeName")]
            #[mongo(max_length = 40, renamed_from = "assigneeName")]
            pub assignee: String,
            pub status: String,
        }
    }
}

#[test]
fn a_contract_stopped_at_its_gate_leaves_every_document_admitted_by_the_validator_in_force() {
    use mongo_schema::bson::oid::ObjectId;
    use mongo_schema::migrate::{migrate, MigrateOptions, Model};
    let test = "a_contract_stopped_at_its_gate_leaves_every_document_admitted_by_the_validator_in_force";
    let Some(uri) = uri(test, "MONGODB_URI_REPLSET") else { return };
    let scene = Scene::new(uri, "ticket");
    let dir = tempfile::tempdir().unwrap();
    let numbered = MigrateOptions { naming: Naming::Sequence, ..MigrateOptions::default() };
    migrate(dir.path(), &[Model::of::<tickets::before::Ticket>("Ticket")], &numbered).unwrap().unwrap();
    let mut args = vec!["apply"];
    args.extend(scene.target(dir.path()));
    let mut contract = args.clone();
    contract.push("--contract");
    let (code, out) = schema(&args);
    assert_eq!(code, 0, "{out}");
    // one ticket fails the next model for another reason than the rename: its title
    let long = "t".repeat(100);
    let long_id = ObjectId::new();
    let mut stored: Vec<Document> = (0..50)
        .map(|i| doc! { "_id": ObjectId::new(), "title": format!("ticket {i}"), "assigneeName": "ann", "status": "open" })
        .collect();
    stored.push(doc! { "_id": long_id, "title": &long, "assigneeName": "bob", "status": "open" });
    scene.run(&scene.db, doc! { "insert": "t_ticket", "documents": stored });

    migrate(dir.path(), &[Model::of::<tickets::after::Ticket>("Ticket")], &numbered).unwrap().unwrap();
    let (code, out) = schema(&args);
    assert_eq!(code, 0, "the expand: {out}");
    let (code, out) = schema(&contract);
    assert_eq!(code, 1, "the gate stops: {out}");
    assert!(
        out.contains("would fail that validator once moved") && out.contains("1 of 51 documents"),
        "counted before moving: {out}"
    );
    assert_eq!(
        scene.find(&scene.db, "t_ticket", doc! { "assignee": { "$exists": true } }).len(),
        0,
        "nothing moved while the gate stops"
    );

    // the running release's updates of that ticket are accepted by the validator in force
    let update = |u: Document| {
        let command = doc! { "update": "t_ticket", "updates": [{ "q": { "_id": long_id }, "u": u }] };
        scene.server().run_command(&scene.db, command).unwrap()
    };
    let reply = update(doc! { "$set": { "status": "in progress" } });
    assert!(!reply.contains_key("writeErrors") && reply.get_i32("nModified").ok() == Some(1), "{reply}");

    // what the moves would have left (the key moved, the title still long) is what the expand
    // validator refuses: the document kept above is not
    let moved = doc! { "_id": ObjectId::new(), "title": &long, "assignee": "bob", "status": "open" };
    let reply = scene.server().run_command(&scene.db, doc! { "insert": "t_ticket", "documents": [moved] }).unwrap();
    assert_eq!(
        reply.get_array("writeErrors").ok().and_then(|e| e[0].as_document()?.get_i32("code").ok()),
        Some(121),
        "{reply}"
    );

    // a person fixes the title; the contract resumes at the moves and completes
    let reply = update(doc! { "$set": { "title": "shortened" } });
    assert!(!reply.contains_key("writeErrors"), "{reply}");
    let (code, out) = schema(&contract);
    assert_eq!(code, 0, "{out}");
    let all = scene.find(&scene.db, "t_ticket", doc! {});
    assert_eq!(all.len(), 51);
    assert!(all.iter().all(|t| t.contains_key("assignee") && !t.contains_key("assigneeName")), "{:?}", all[50]);
    let reply = update(doc! { "$set": { "status": "done" } });
    assert!(!reply.contains_key("writeErrors"), "{reply}");
    let mut status = vec!["status"];
    status.extend(scene.target(dir.path()));
    let (code, out) = schema(&status);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("2 applied, 0 pending, 0 partial, 0 contract pending"), "{out}");
}

#[test]
fn migrator_says_which_step_waits_for_which_contract() {
    use mongo_schema::bson::oid::ObjectId;
    use mongo_schema::migrate::apply::Outcome;
    use mongo_schema::migrate::{migrate, MigrateOptions, Model};
    let test = "migrator_says_which_step_waits_for_which_contract";
    // the tracing subscriber is the process's: alone in one, no other test's events are caught
    if !mongo_schema_test_support::alone_in_process(module_path!(), test) {
        return;
    }
    let Some(uri) = uri(test, "MONGODB_URI_REPLSET") else { return };
    let _ = tracing::subscriber::set_global_default(Collect);
    let scene = Scene::new(uri, "held");
    let model = |mut m: Model| {
        m.db = scene.db.clone();
        vec![m]
    };
    // tickets stored before any model: the first migration adopts them, its contract waits
    let tickets: Vec<Document> = (0..10)
        .map(|i| doc! { "_id": ObjectId::new(), "title": format!("ticket {i}"), "assigneeName": "ann", "status": "open" })
        .collect();
    scene.run(&scene.db, doc! { "insert": "t_ticket", "documents": tickets });
    let dir = tempfile::tempdir().unwrap();
    let numbered = MigrateOptions { naming: Naming::Sequence, ..MigrateOptions::default() };
    let adopted = migrate(dir.path(), &model(Model::of::<tickets::before::Ticket>("Ticket")), &numbered)
        .unwrap()
        .unwrap()
        .migration
        .name;
    let tightened = migrate(dir.path(), &model(Model::of::<tickets::after::Ticket>("Ticket")), &numbered)
        .unwrap()
        .unwrap()
        .migration
        .name;
    let step = serde_json::json!({ "db": scene.db, "command": {
        "update": "t_ticket", "updates": [{ "q": { "status": "open" }, "u": { "$set": { "status": "new" } }, "multi": true }]
    }});
    let converted = data_migration(dir.path(), "convert", vec![step]);

    let runtime = tokio::runtime::Runtime::new().unwrap();
    let (uri, state_db, db) = (scene.uri.clone(), scene.state_db.clone(), scene.db.clone());
    let outcomes = runtime
        .block_on(async move {
            let client = mongodb::Client::with_uri_str(&uri).await.unwrap();
            Migrator::from_dir(dir.path()).unwrap().state_db(state_db).run(&client.database(&db)).await
        })
        .unwrap();
    let ns = "db_deploy_held.t_ticket".to_owned();
    let held =
        |name: &str| Outcome::Held { name: name.to_owned(), done: 0, behind: adopted.clone(), namespace: ns.clone() };
    assert_eq!(outcomes[1..], [held(&tightened), held(&converted)]);
    assert!(matches!(&outcomes[0], Outcome::ContractPending { name, .. } if *name == adopted), "{outcomes:?}");
    assert_eq!(scene.find(&scene.db, "t_ticket", doc! { "status": "new" }).len(), 0, "the data step waited");
    let events = EVENTS.lock().unwrap().clone();
    let waits: Vec<&String> =
        events.iter().filter(|e| e.contains("pending contract") && e.contains(&format!("namespace={ns}"))).collect();
    assert_eq!(waits.len(), 2, "{events:#?}");
    for (wait, (name, after)) in waits.iter().zip([(&tightened, String::new()), (&converted, tightened.clone())]) {
        assert!(
            wait.starts_with("WARN")
                && wait.contains(&format!("migration={name}"))
                && wait.contains(&format!("contract={adopted}"))
                && wait.contains(&format!("after={after:?}")),
            "{wait}"
        );
    }
}
