//! Rolling deploys on the single-node replica set (`MONGODB_URI_REPLSET`), as they happen:
//! two instances of version N-1 write continuously in the old shape while four instances of
//! version N start together and run `Migrator` (one killed with `SIGKILL` while it holds the
//! migration lock, a replacement started). Then N-1 stops and the contract runs.
//!
//! Each scenario ends with every version-N instance started, every acknowledged write of
//! N-1 stored, none of them refused, every counting data step run exactly once, and after
//! the contract every document in the new shape, `status` and `drift` clean:
//!
//! - adopting a legacy collection no validator ever saw (a renamed field, a newly required
//!   one, a value over its new bound that only a person can fix: the enforcing step refuses
//!   while it is there and runs once it is fixed);
//! - a release of an enforced model that changes a type, narrows an enum, removes a field,
//!   lowers a nested bound and adds a unique index over planted duplicates.
//!
//! Without the variable each test says it was skipped and passes.

#![forbid(unsafe_code)]

use mongo_schema::bson::{doc, oid::ObjectId, Bson, Document};
use mongo_schema::cli::run;
use mongo_schema::migrate::driver::MongoServer;
use mongo_schema::migrate::lock::LockOptions;
use mongo_schema::migrate::server::Server;
use mongo_schema::migrate::{migrate, new_data_migration_in, MigrateOptions, Migrator, Model, Naming, Phase};
use std::collections::BTreeSet;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Version N of the adopted collection: `name` became `customerName`, `email` is new and
/// required, names are at most 40 characters.
mod adopted {
    use mongo_schema::bson::oid::ObjectId;
    use mongo_schema::MongoSchema;
    use serde::{Deserialize, Serialize};

    /// Customers, written for years without a validator.
    #[derive(Serialize, Deserialize, MongoSchema)]
    #[serde(rename_all = "camelCase")]
    #[mongo(db = "db_roll_adopt", collection = "t_customer")]
    pub struct Customer {
        #[serde(rename = "_id")]
        pub id: ObjectId,
        #[mongo(max_length = 40, renamed_from = "name")]
        #[serde(alias = "name")]
        pub customer_name: String,
        #[mongo(max_length = 80)]
        pub email: String,
        pub visits: i64,
    }
}

/// Orders, before and after a release.
mod orders {
    pub mod before {
        use mongo_schema::bson::oid::ObjectId;
        use mongo_schema::MongoSchema;
        use serde::{Deserialize, Serialize};

        #[derive(Serialize, Deserialize, MongoSchema)]
        #[serde(rename_all = "camelCase")]
        #[mongo(db = "db_roll_orders", collection = "t_order")]
        pub struct Order {
            #[serde(rename = "_id")]
            pub id: ObjectId,
            #[mongo(max_length = 40)]
            pub order_no: String,
            /// cents
            pub amount: i64,
            pub status: Status,
            pub note: String,
            #[mongo(max_items = 50)]
            pub items: Vec<Item>,
        }

        #[derive(Serialize, Deserialize, MongoSchema)]
        #[serde(rename_all = "lowercase")]
        pub enum Status {
            New,
            Paid,
            Legacy,
        }

        #[derive(Serialize, Deserialize, MongoSchema)]
        pub struct Item {
            #[mongo(max_length = 20)]
            pub sku: String,
        }
    }

    /// The release in between, whose contract (`note` at most 20 characters) was never run.
    pub mod previous {
        use mongo_schema::bson::oid::ObjectId;
        use mongo_schema::MongoSchema;
        use serde::{Deserialize, Serialize};

        pub use super::before::{Item, Status};

        #[derive(Serialize, Deserialize, MongoSchema)]
        #[serde(rename_all = "camelCase")]
        #[mongo(db = "db_roll_orders", collection = "t_order")]
        pub struct Order {
            #[serde(rename = "_id")]
            pub id: ObjectId,
            #[mongo(max_length = 40)]
            pub order_no: String,
            /// cents
            pub amount: i64,
            pub status: Status,
            #[mongo(max_length = 20)]
            pub note: String,
            #[mongo(max_items = 50)]
            pub items: Vec<Item>,
        }
    }

    pub mod after {
        use mongo_schema::bson::{oid::ObjectId, Decimal128};
        use mongo_schema::MongoSchema;
        use serde::{Deserialize, Serialize};

        #[derive(Serialize, Deserialize, MongoSchema)]
        #[serde(rename_all = "camelCase")]
        #[mongo(db = "db_roll_orders", collection = "t_order", index(keys(orderNo = 1), unique))]
        pub struct Order {
            #[serde(rename = "_id")]
            pub id: ObjectId,
            #[mongo(max_length = 40)]
            pub order_no: String,
            #[mongo(money)]
            pub amount: Decimal128,
            pub status: Status,
            #[mongo(max_items = 10)]
            pub items: Vec<Item>,
        }

        #[derive(Serialize, Deserialize, MongoSchema)]
        #[serde(rename_all = "lowercase")]
        pub enum Status {
            New,
            Paid,
        }

        #[derive(Serialize, Deserialize, MongoSchema)]
        pub struct Item {
            #[mongo(max_length = 8)]
            pub sku: String,
        }
    }
}

/// Set in a child process: `writer` or `migrator`, and what it needs, one `key=value` a line.
const CHILD: &str = "MONGO_SCHEMA_ROLLING_CHILD";

/// Not a test: the processes of the rolling deploys (an instance of N-1 writing, an
/// instance of N starting), which the tests start and kill.
#[test]
#[ignore = "a child process of the rolling deploy tests, which run it"]
fn child_process() {
    let spec = std::env::var(CHILD).expect("run by a rolling deploy test");
    let get = |key: &str| {
        spec.lines().find_map(|l| l.strip_prefix(&format!("{key}="))).unwrap_or_else(|| panic!("no {key}")).to_owned()
    };
    match get("role").as_str() {
        "writer" => writer(&get("uri"), &get("db"), &get("collection"), &get("kind"), &get("tag"), &get("stop")),
        "migrator" => migrator(&get("uri"), &get("db"), &get("dir"), &get("state")),
        other => panic!("no role {other}"),
    }
}

/// Version N-1 writing: one document at a time (`w: majority`), each acknowledged `_id` on
/// a line (`ok <hex>`), each refusal (`refused <code>`), until the `stop` file exists.
fn writer(uri: &str, db: &str, collection: &str, kind: &str, tag: &str, stop: &str) {
    let mut server = MongoServer::connect(uri).expect("connect");
    let mut i: i64 = 0;
    while !Path::new(stop).exists() {
        let id = ObjectId::new();
        let document = old_shape(kind, id, tag, i);
        let command = doc! { "insert": collection, "documents": [document], "writeConcern": { "w": "majority" } };
        match server.run_command(db, command) {
            Ok(reply) => match reply.get_array("writeErrors") {
                Ok(errors) => {
                    let code = errors[0].as_document().and_then(|e| e.get_i32("code").ok()).unwrap_or(-1);
                    println!("refused {code} {}", errors[0]);
                }
                Err(_) => println!("ok {}", id.to_hex()),
            },
            Err(e) => println!("error {e}"),
        }
        i += 1;
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// What version N-1 writes.
fn old_shape(kind: &str, id: ObjectId, tag: &str, i: i64) -> Document {
    match kind {
        "customer" => doc! { "_id": id, "name": format!("{tag}-{i}"), "visits": (i % 100) as i32 },
        "order" => doc! {
            "_id": id,
            "orderNo": format!("{tag}-{i}"),
            "amount": 100 + i,
            "status": if i % 5 == 0 { "legacy" } else { "paid" },
            "note": "gift wrap",
            "items": (0..if i % 7 == 0 { 12 } else { 2 }).map(|k| Bson::from(doc! { "sku": format!("sku-{k:04}-{tag}") })).collect::<Vec<_>>(),
        },
        other => panic!("no kind {other}"),
    }
}

/// Version N starting: `Migrator::run` with a 2-second lease; exit 0 once it returns.
fn migrator(uri: &str, db: &str, dir: &str, state: &str) {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let result = runtime.block_on(async {
        let client = mongodb::Client::with_uri_str(uri).await.unwrap();
        let lock = LockOptions { lease: Duration::from_secs(2), wait: Duration::from_secs(240) };
        Migrator::from_dir(dir).unwrap().state_db(state).lock(lock).run(&client.database(db)).await
    });
    match result {
        Ok(outcomes) => {
            println!("started {outcomes:?}");
            std::process::exit(0)
        }
        Err(e) => {
            println!("failed: {e}");
            std::process::exit(1)
        }
    }
}

fn spawn(spec: &[(&str, &str)]) -> Child {
    let text: Vec<String> = spec.iter().map(|(k, v)| format!("{k}={v}")).collect();
    Command::new(std::env::current_exe().unwrap())
        .arg(mongo_schema_test_support::test_name(module_path!(), "child_process"))
        .args(["--exact", "--ignored", "--nocapture", "--test-threads", "1"])
        .env(CHILD, text.join("\n"))
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap()
}

/// A writer's lines, read as they come.
struct Writer {
    child: Child,
    lines: Arc<Mutex<Vec<String>>>,
    reader: Option<std::thread::JoinHandle<()>>,
}

impl Writer {
    fn start(uri: &str, db: &str, collection: &str, kind: &str, tag: &str, stop: &Path) -> Writer {
        let mut child = spawn(&[
            ("role", "writer"),
            ("uri", uri),
            ("db", db),
            ("collection", collection),
            ("kind", kind),
            ("tag", tag),
            ("stop", stop.to_str().unwrap()),
        ]);
        let lines = Arc::new(Mutex::new(Vec::new()));
        let (out, into) = (child.stdout.take().unwrap(), lines.clone());
        let reader = std::thread::spawn(move || {
            for line in BufReader::new(out).lines().map_while(Result::ok) {
                into.lock().unwrap().push(line);
            }
        });
        Writer { child, lines, reader: Some(reader) }
    }

    fn acknowledged(&self) -> usize {
        self.lines.lock().unwrap().iter().filter(|l| l.starts_with("ok ")).count()
    }

    /// Waits for the writer (after the stop file) and gives its lines.
    fn finish(mut self) -> Vec<String> {
        assert!(self.child.wait().unwrap().success(), "a writer failed");
        self.reader.take().unwrap().join().unwrap();
        std::mem::take(&mut *self.lines.lock().unwrap())
    }
}

/// `schema ARGS` in this process, with `models` registered: exit code and output.
fn schema<S: AsRef<str>>(models: &[Model], args: &[S]) -> (i32, String) {
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let args = std::iter::once("schema").chain(args.iter().map(AsRef::as_ref));
    let code = run(models, args, &mut out, &mut err);
    (code, String::from_utf8(out).unwrap() + &String::from_utf8(err).unwrap())
}

/// One rolling deploy: what differs between the scenarios.
struct Scenario {
    test: &'static str,
    db: &'static str,
    collection: &'static str,
    /// What version N-1 writes (see [`old_shape`]).
    kind: &'static str,
    /// N-1's models, enforced before the deploy; none for a collection no model had.
    before: Vec<Model>,
    after: Vec<Model>,
    /// Documents stored before the deploy (inserted around any validator).
    legacy: Vec<Document>,
    /// Steps of a data migration of the expand, before the schema migration.
    expand_data: Vec<serde_json::Value>,
    /// Steps of a data migration of the contract: the fixes of what N-1 wrote.
    contract_data: Vec<serde_json::Value>,
    /// N-1's own migration, applied at its deploy without its contract, which is still
    /// pending when N deploys: N's migrations of the collection wait behind it. None: N-1's
    /// contract ran.
    previous: Vec<Model>,
    /// Steps of a data migration of the expand written after N's schema migration (counted as
    /// `after`): written against the validator N's expand installs.
    expand_data_after: Vec<serde_json::Value>,
    /// Documents the contract's gate must refuse (a person fixes them), and the fix.
    needs_a_person: Option<(u64, Document)>,
    /// Every stored document in the new shape: why not, for the first that is not.
    new_shape: fn(&Document) -> Result<(), String>,
}

fn uri(test: &str) -> Option<String> {
    let found = std::env::var("MONGODB_URI_REPLSET").ok();
    if found.is_none() {
        eprintln!("skipped (no MONGODB_URI_REPLSET): {test}");
    }
    found
}

/// A data migration of `phase` with `steps` in `dir`.
fn data_migration(dir: &Path, name: &str, phase: Phase, steps: Vec<serde_json::Value>) {
    let path = new_data_migration_in(dir, name, Naming::Sequence, phase).unwrap();
    let mut value: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    value["up"] = serde_json::Value::Array(steps);
    std::fs::write(&path, serde_json::to_string_pretty(&value).unwrap()).unwrap();
}

/// A step counting its runs: `$inc` of `t_count.{id}`.
fn count_step(db: &str, id: &str) -> serde_json::Value {
    serde_json::json!({ "db": db, "command": {
        "update": "t_count", "updates": [{ "q": { "_id": id }, "u": { "$inc": { "n": 1 } }, "upsert": true }]
    }})
}

/// A step that takes `ms` and changes nothing: the lock is held through it.
fn sleep_step(db: &str, ms: u32) -> serde_json::Value {
    serde_json::json!({ "db": db, "command": {
        "find": "t_count", "filter": { "_id": "sleeper", "$where": format!("sleep({ms}) || true") }
    }})
}

fn find_all(server: &mut MongoServer, db: &str, collection: &str, filter: Document) -> Vec<Document> {
    let reply = server.run_command(db, doc! { "find": collection, "filter": filter, "batchSize": 1_000_000 }).unwrap();
    let batch = reply.get_document("cursor").unwrap().get_array("firstBatch").unwrap();
    batch.iter().map(|d| d.as_document().unwrap().clone()).collect()
}

/// The migrations of `dir`, in the order they apply.
fn names(dir: &Path) -> Vec<String> {
    mongo_schema::migrate::pending(dir)
        .unwrap()
        .iter()
        .map(|p| p.file_stem().unwrap().to_str().unwrap().to_owned())
        .collect()
}

/// The pid in a lock owner (`host:pid:random`).
fn owner_pid(owner: &str) -> Option<u32> {
    owner.split(':').nth(1)?.parse().ok()
}

fn rolling(s: Scenario) {
    let Some(uri) = uri(s.test) else { return };
    let state = format!("{}_state", s.db);
    let server = &mut MongoServer::connect(&uri).unwrap();
    for db in [s.db, state.as_str()] {
        server.run_command(db, doc! { "dropDatabase": 1 }).unwrap();
    }
    let dir = tempfile::tempdir().unwrap();
    let dir_arg = dir.path().to_str().unwrap().to_owned();
    let numbered = MigrateOptions { naming: Naming::Sequence, ..MigrateOptions::default() };
    let target = ["--uri", &uri, "--dir", &dir_arg, "--state-db", &state];
    let with =
        |command: &[&'static str]| -> Vec<String> { command.iter().chain(&target).map(|s| (*s).to_owned()).collect() };

    // version N-1 as deployed: its models enforced (or no model at all), and the legacy data
    if !s.before.is_empty() {
        // its first migration, where its collections did not exist: nothing left pending
        migrate(dir.path(), &s.before, &numbered).unwrap().unwrap();
        let (code, out) = schema(&s.before, &with(&["apply"]));
        assert_eq!(code, 0, "{out}");
        let (code, out) = schema(&s.before, &with(&["status", "--format", "json"]));
        let status: serde_json::Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"));
        let states: Vec<&str> =
            status["migrations"].as_array().unwrap().iter().map(|m| m["state"].as_str().unwrap()).collect();
        assert_eq!((code, states), (0, vec!["applied"]), "{out}");
    }
    if !s.previous.is_empty() {
        migrate(dir.path(), &s.previous, &numbered).unwrap().unwrap();
        let (code, out) = schema(&s.previous, &with(&["apply"]));
        assert!(code == 0 && out.contains("its contract waits"), "{out}");
    }
    server.run_command(s.db, doc! { "insert": "t_count", "documents": [{ "_id": "sleeper" }] }).unwrap();
    let legacy = doc! { "insert": s.collection, "documents": s.legacy.clone(), "bypassDocumentValidation": true };
    server.run_command(s.db, legacy).unwrap();

    // version N's migrations: an expand data step that counts its runs and holds the lock a
    // while, the schema migration, and the contract's fixes of what N-1 writes
    let mut expand = vec![count_step(s.db, "expand"), sleep_step(s.db, 3000)];
    expand.extend(s.expand_data.clone());
    data_migration(dir.path(), "before release", Phase::Expand, expand);
    migrate(dir.path(), &s.after, &numbered).unwrap().unwrap();
    if !s.expand_data_after.is_empty() {
        let mut after = vec![count_step(s.db, "after")];
        after.extend(s.expand_data_after.clone());
        data_migration(dir.path(), "converted with the release", Phase::Expand, after);
    }
    let mut contract = vec![count_step(s.db, "contract")];
    contract.extend(s.contract_data.clone());
    data_migration(dir.path(), "after the old writers", Phase::Contract, contract);

    // two instances of N-1 writing; four of N started together
    let stop = dir.path().join("stop");
    let writers: Vec<Writer> =
        ["w1", "w2"].iter().map(|tag| Writer::start(&uri, s.db, s.collection, s.kind, tag, &stop)).collect();
    let start = Instant::now();
    while writers.iter().any(|w| w.acknowledged() < 20) {
        assert!(start.elapsed() < Duration::from_secs(30), "the writers do not write");
        std::thread::sleep(Duration::from_millis(20));
    }
    let spec = [("role", "migrator"), ("uri", &uri), ("db", s.db), ("dir", &dir_arg), ("state", &state)];
    let mut migrators: Vec<Child> = (0..4).map(|_| spawn(&spec)).collect();

    // the instance holding the lock, killed while the expand's slow step runs; a replacement
    let start = Instant::now();
    let holder = loop {
        assert!(start.elapsed() < Duration::from_secs(60), "no instance took the lock");
        let lock = find_all(server, &state, "t_schema_migration", doc! { "_id": "lock" });
        // the counting step done and recorded: the kill lands in the slow step after it (a
        // step killed half way runs again, so only an idempotent one may be)
        let record =
            find_all(server, &state, "t_schema_migration", doc! { "migration": { "$regex": "_before_release$" } });
        let counted = record.first().and_then(|r| r.get_i64("done").ok()).is_some_and(|done| done >= 1);
        let pid = lock.first().and_then(|l| owner_pid(l.get_str("owner").ok()?));
        if let (Some(pid), true) = (pid, counted) {
            if let Some(i) = migrators.iter().position(|m| m.id() == pid) {
                break i;
            }
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let mut killed = migrators.remove(holder);
    killed.kill().unwrap();
    killed.wait().unwrap();
    migrators.push(spawn(&spec));
    for child in migrators {
        let output = child.wait_with_output().unwrap();
        let text = String::from_utf8_lossy(&output.stdout);
        assert!(output.status.success() && text.contains("started"), "a version-N instance failed: {text}");
        if !s.previous.is_empty() {
            // N's migrations of the collection, its data step included, wait for N-1's contract
            assert!(text.contains(&format!("Held {{ name: {:?}", names(dir.path())[4])), "{text}");
        }
    }
    std::thread::sleep(Duration::from_millis(300));
    std::fs::write(&stop, "").unwrap();
    let lines: Vec<String> = writers.into_iter().flat_map(Writer::finish).collect();

    // N-1: nothing refused, nothing lost
    let refused: Vec<&String> = lines.iter().filter(|l| l.starts_with("refused ") || l.starts_with("error ")).collect();
    assert!(
        refused.is_empty(),
        "{} writes of N-1 refused or failed during the expand, the first: {:?}",
        refused.len(),
        &refused[..refused.len().min(2)]
    );
    let acknowledged: BTreeSet<String> =
        lines.iter().filter_map(|l| l.strip_prefix("ok ")).map(str::to_owned).collect();
    let stored: BTreeSet<String> = find_all(server, s.db, s.collection, doc! {})
        .iter()
        .filter_map(|d| d.get_object_id("_id").ok().map(|id| id.to_hex()))
        .collect();
    let lost: Vec<&String> = acknowledged.difference(&stored).collect();
    assert!(lost.is_empty(), "{} acknowledged writes lost: {lost:?}", lost.len());
    assert!(acknowledged.len() > 40, "the writers wrote through the deploy: {}", acknowledged.len());
    let (code, out) = schema(&s.after, &with(&["status"]));
    assert!(out.contains("contract pending"), "{code}: {out}");
    if !s.previous.is_empty() {
        let (_, out) = schema(&s.after, &with(&["status", "--format", "json"]));
        let status: serde_json::Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"));
        let held: Vec<(&str, &str, &str)> = status["migrations"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|m| m["state"] == "held")
            .map(|m| (m["name"].as_str().unwrap(), m["behind"].as_str().unwrap(), m["namespace"].as_str().unwrap()))
            .collect();
        let ns = format!("{}.{}", s.db, s.collection);
        let names = names(dir.path());
        // 1: N-2's, applied; 2: N-1's, its contract pending; 3: N's data step before its schema
        // migration (on the collection too: N-1's pending contract holds only validators); 4-5:
        // N's schema migration and its conversion (after its counting step) held; 6: the
        // contract's data, waiting for the contract at its counting step
        let expected: Vec<(&str, &str, &str)> =
            names[3..5].iter().map(|n| (n.as_str(), names[1].as_str(), ns.as_str())).collect();
        assert_eq!(held, expected, "{out}");
        let (code, out) = schema(&s.after, &with(&["apply", "--dry-run"]));
        let conversion = out.lines().skip_while(|l| !l.contains(&names[4])).nth(1).unwrap_or_default();
        assert!(
            code == 0 && conversion.contains(&format!("(waits for the contract of {} on {ns})", names[1])),
            "the dry run says which step waits: {out}"
        );
    }

    // N-1 gone: the contract
    let (code, out) = schema(&s.after, &with(&["apply", "--contract"]));
    if let Some((failing, fix)) = &s.needs_a_person {
        assert_eq!(code, 1, "the gate refuses while documents fail: {out}");
        assert!(out.contains(&format!("{failing} of ")) && out.contains("schema check --uri"), "{out}");
        let reply = server.run_command(s.db, fix.clone()).unwrap();
        assert!(reply.get_array("writeErrors").is_err(), "{reply}");
        let (code, out) = schema(&s.after, &with(&["apply", "--contract"]));
        assert_eq!(code, 0, "{out}");
    } else {
        assert_eq!(code, 0, "{out}");
    }

    // every document in the new shape; every data step ran once; status and drift clean
    let documents = find_all(server, s.db, s.collection, doc! {});
    assert_eq!(documents.len(), stored.len(), "no document lost by the contract");
    for d in &documents {
        (s.new_shape)(d).unwrap_or_else(|why| panic!("not in the new shape ({why}): {d}"));
    }
    let counts = find_all(server, s.db, "t_count", doc! { "_id": { "$ne": "sleeper" } });
    let mut ran: Vec<(String, i64)> = counts
        .iter()
        .map(|c| (c.get_str("_id").unwrap().to_owned(), c.get_i32("n").map(i64::from).or(c.get_i64("n")).unwrap()))
        .collect();
    ran.sort();
    let mut expected = vec![("contract".to_owned(), 1), ("expand".to_owned(), 1)];
    if !s.expand_data_after.is_empty() {
        expected.insert(0, ("after".to_owned(), 1));
    }
    assert_eq!(ran, expected, "each data step ran exactly once");
    let (code, out) = schema(&s.after, &with(&["status"]));
    assert_eq!(code, 0, "{out}");
    assert!(out.contains(" applied, 0 pending, 0 partial, 0 contract pending"), "{out}");
    let (code, out) = schema(&s.after, &["drift", "--uri", &uri]);
    assert_eq!(code, 0, "{out}");
}

#[test]
fn adopting_a_legacy_collection_while_the_legacy_application_writes() {
    let long = "x".repeat(60);
    let mut legacy = Vec::new();
    for i in 0..300 {
        legacy.push(match i % 3 {
            0 => doc! { "_id": ObjectId::new(), "name": format!("old {i}"), "visits": i },
            1 => doc! { "_id": ObjectId::new(), "customerName": format!("new {i}"), "email": format!("c{i}@example.com"), "visits": i64::from(i) },
            _ => doc! { "_id": ObjectId::new(), "name": format!("old {i}"), "email": format!("c{i}@example.com"), "visits": f64::from(i) },
        });
    }
    legacy.push(doc! { "_id": ObjectId::new(), "name": long.clone(), "email": "long@example.com", "visits": 1 });
    rolling(Scenario {
        test: "adopting_a_legacy_collection_while_the_legacy_application_writes",
        db: "db_roll_adopt",
        collection: "t_customer",
        kind: "customer",
        before: Vec::new(),
        after: vec![Model::of::<adopted::Customer>("adopted::Customer")],
        legacy,
        expand_data: Vec::new(),
        previous: Vec::new(),
        expand_data_after: Vec::new(),
        contract_data: vec![serde_json::json!({ "db": "db_roll_adopt", "command": {
            "update": "t_customer",
            "updates": [
                { "q": { "email": { "$exists": false } }, "u": { "$set": { "email": "unknown@example.invalid" } }, "multi": true },
                { "q": { "visits": { "$type": "double" } }, "u": [{ "$set": { "visits": { "$toLong": "$visits" } } }], "multi": true }
            ]
        }})],
        // the gate stops before the keys move (counted as after the moves): the too-long name
        // is still under its old key, where the person fixes it
        needs_a_person: Some((
            1,
            doc! {
                "update": "t_customer",
                "updates": [{ "q": { "name": long }, "u": { "$set": { "name": "shortened" } } }]
            },
        )),
        new_shape: |d| {
            let name = d.get_str("customerName").map_err(|_| "no customerName")?;
            (!d.contains_key("name")).then_some(()).ok_or("the old key is left")?;
            (name.chars().count() <= 40).then_some(()).ok_or("a name over 40")?;
            d.get_str("email").map_err(|_| "no email")?;
            matches!(d.get("visits"), Some(Bson::Int32(_) | Bson::Int64(_))).then_some(()).ok_or("visits")?;
            Ok(())
        },
    });
}

/// `orders::*` on database `db`.
fn order_model<T: mongo_schema::MongoCollection>(name: &str, db: &str) -> Model {
    let mut model = Model::of::<T>(name);
    model.db = db.to_owned();
    model
}

/// What N-1 writes in the old shapes, each document to the new shape in one update (it runs
/// under the expand's validator, which admits the old shape or the new, not a mix): cents to
/// Decimal128, `legacy` to `paid`, the removed `note` unset, at most 10 items, each `sku` cut
/// to its new 8 characters.
fn order_conversion(db: &str) -> serde_json::Value {
    serde_json::json!({ "db": db, "command": {
        "update": "t_order",
        "updates": [{
            "q": { "$or": [
                { "amount": { "$type": ["int", "long"] } }, { "status": "legacy" }, { "note": { "$exists": true } },
                { "items.10": { "$exists": true } }, { "items.sku": { "$regex": "^.{9}" } }
            ] },
            "u": [
                { "$set": {
                    "amount": { "$cond": [
                        { "$in": [{ "$type": "$amount" }, ["int", "long"]] },
                        { "$divide": [{ "$toDecimal": "$amount" }, { "$numberDecimal": "100" }] },
                        "$amount"
                    ] },
                    "status": { "$cond": [{ "$eq": ["$status", "legacy"] }, "paid", "$status"] },
                    "items": { "$map": {
                        "input": { "$slice": ["$items", 10] },
                        "in": { "$mergeObjects": ["$$this", { "sku": { "$substrCP": ["$$this.sku", 0, 8] } }] }
                    } }
                } },
                { "$unset": "note" }
            ],
            "multi": true
        }]
    }})
}

/// The orders release on `db`.
fn orders_release(test: &'static str, db: &'static str) -> Scenario {
    let legacy: Vec<Document> = (0..200)
        .map(|i| {
            let mut d = old_shape("order", ObjectId::new(), "legacy", i);
            if i < 2 {
                d.insert("orderNo", "DUPLICATE");
            }
            d
        })
        .collect();
    Scenario {
        test,
        db,
        collection: "t_order",
        kind: "order",
        before: vec![order_model::<orders::before::Order>("orders::before::Order", db)],
        after: vec![order_model::<orders::after::Order>("orders::after::Order", db)],
        legacy,
        // the duplicates the unique index would refuse, renumbered before it is built
        expand_data: vec![serde_json::json!({ "db": db, "command": {
            "update": "t_order",
            "updates": [{ "q": { "orderNo": "DUPLICATE", "amount": { "$ne": 100 } }, "u": [{ "$set": { "orderNo": { "$concat": ["DUPLICATE-", { "$toString": "$_id" }] } } }], "multi": true }]
        }})],
        contract_data: vec![order_conversion(db)],
        previous: Vec::new(),
        expand_data_after: Vec::new(),
        needs_a_person: None,
        new_shape: |d| {
            matches!(d.get("amount"), Some(Bson::Decimal128(_))).then_some(()).ok_or("amount")?;
            (d.get_str("status").map_err(|_| "status")? != "legacy").then_some(()).ok_or("legacy")?;
            (!d.contains_key("note")).then_some(()).ok_or("note")?;
            let items = d.get_array("items").map_err(|_| "items")?;
            (items.len() <= 10).then_some(()).ok_or("items")?;
            let sku = |i: &Bson| i.as_document().and_then(|i| i.get_str("sku").ok()).map_or(99, |s| s.chars().count());
            items.iter().all(|i| sku(i) <= 8).then_some(()).ok_or("sku")?;
            Ok(())
        },
    }
}

#[test]
fn a_release_changing_a_type_narrowing_an_enum_removing_a_field_and_adding_a_unique_index() {
    rolling(orders_release(
        "a_release_changing_a_type_narrowing_an_enum_removing_a_field_and_adding_a_unique_index",
        "db_roll_orders",
    ));
}

/// N-1's contract was never run when N deploys: N's schema migration of the collection is
/// held behind it, and so is N's conversion written after it (cents to Decimal128), which the
/// validator in force (N-1's expand, admitting N-2's and N-1's documents) would refuse. Every
/// instance of N starts; the contract runs N-1's contract, then N's expand, the conversion,
/// and N's gate.
#[test]
fn a_data_step_on_a_collection_held_behind_the_previous_releases_contract_waits_with_it() {
    let db = "db_roll_held";
    let mut release =
        orders_release("a_data_step_on_a_collection_held_behind_the_previous_releases_contract_waits_with_it", db);
    release.previous = vec![order_model::<orders::previous::Order>("orders::previous::Order", db)];
    release.expand_data_after = vec![order_conversion(db)];
    rolling(release);
}
