//! A declared shard key on deployments without mongos, the usual state before a cluster is
//! sharded: on the standalone mongod, the single-node replica set and the `--auth` mongod
//! (an application user with readWrite only), `apply` and the generated mongosh script skip
//! `shardCollection` as pending instead of stopping half way, every later step runs, and
//! the record says what waits. No mongos exists here: the sharded branch runs against the
//! same mongod behind a wrapper that answers `hello` as mongos does (`msg: "isdbgrid"`) and
//! records `shardCollection`, so the deferred step is shown to run once, then never again.

#![forbid(unsafe_code)]

use mongo_schema::migrate::apply::{apply, status, Outcome};
use mongo_schema::migrate::file::MigrationFile;
use mongo_schema::migrate::record::State;
use mongo_schema::migrate::server::{CommandError, Server};
use mongo_schema::migrate::{migrate, MigrateOptions, Model, Naming, Written};
use mongo_schema_tests::bson::{doc, Document};
use std::path::{Path, PathBuf};

mod models {
    use mongo_schema::MongoSchema;
    use mongo_schema_tests::bson::{oid::ObjectId, DateTime};
    use serde::{Deserialize, Serialize};

    #[derive(Serialize, Deserialize, MongoSchema)]
    #[serde(rename_all = "camelCase")]
    #[mongo(db = "db_app", collection = "t_shard_profile", shard_key(userId = "hashed"))]
    pub struct Profile {
        pub user_id: i64,
    }

    #[derive(Serialize, Deserialize, MongoSchema)]
    #[serde(rename_all = "camelCase")]
    #[mongo(db = "db_app", collection = "t_shard_visit", index(keys(visitedAt = -1)))]
    pub struct Visit {
        #[serde(rename = "_id")]
        pub id: ObjectId,
        pub visited_at: DateTime,
    }
}

const STATE_DB: &str = "db_app";

fn models() -> Vec<Model> {
    vec![Model::of::<models::Profile>("app::Profile"), Model::of::<models::Visit>("app::Visit")]
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mongo-schema-shard-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

fn written(dir: &Path) -> Written {
    // enforced at once: this is about the shard step, not the phases of a rolling deploy
    let options = MigrateOptions { naming: Naming::Sequence, direct: true, ..MigrateOptions::default() };
    migrate(dir, &models(), &options).expect("migrate").expect("a first migration")
}

fn file(written: &Written, extension: &str) -> PathBuf {
    let found = written.files.iter().find(|p| {
        p.to_string_lossy().ends_with(extension)
            && !p.ends_with("snapshot.json")
            && !p.to_string_lossy().contains(".down.")
    });
    found.expect("the migration's file").clone()
}

/// The driver as `apply`'s server.
struct Driver(mongodb::sync::Client);

impl Server for Driver {
    fn run_command(&mut self, db: &str, command: Document) -> Result<Document, CommandError> {
        self.0.database(db).run_command(command).run().map_err(|e| match e.kind.as_ref() {
            mongodb::error::ErrorKind::Command(c) => CommandError::Refused { code: c.code, message: c.message.clone() },
            _ => CommandError::Driver(std::sync::Arc::new(e)),
        })
    }
}

/// The mongod behind a mongos's answers: `hello` says `isdbgrid`, `shardCollection` is
/// recorded and acknowledged; everything else reaches the real server.
struct AsMongos {
    inner: Driver,
    sharded: Vec<Document>,
}

impl Server for AsMongos {
    fn run_command(&mut self, db: &str, command: Document) -> Result<Document, CommandError> {
        if command.contains_key("hello") {
            return Ok(doc! { "isWritablePrimary": true, "msg": "isdbgrid", "ok": 1 });
        }
        if command.contains_key("shardCollection") {
            assert_eq!(db, "admin", "shardCollection runs against admin");
            self.sharded.push(command);
            return Ok(doc! { "collectionsharded": "db_app.t_shard_profile", "ok": 1 });
        }
        self.inner.run_command(db, command)
    }
}

fn collections(client: &mongodb::sync::Client) -> Vec<String> {
    let mut names = client.database("db_app").list_collection_names().run().expect("listCollections");
    // this test's own: other tests use db_app on the same servers
    names.retain(|n| n.starts_with("t_shard_") || n == "t_schema_migration");
    names.sort();
    names
}

fn deferred_of(server: &mut dyn Server, files: &[MigrationFile]) -> Vec<usize> {
    let lines = status(server, files, STATE_DB).expect("status");
    match &lines[0].state {
        Some(State::Applied { deferred, .. }) => deferred.clone(),
        other => panic!("not applied: {other:?}"),
    }
}

/// `apply` on a deployment without mongos, then through "mongos".
fn apply_defers_then_runs_the_shard_step(uri: &str, label: &str) {
    let client = mongodb::sync::Client::with_uri_str(uri).expect("client");
    let db = client.database("db_app");
    for name in ["t_shard_profile", "t_shard_visit", "t_schema_migration"] {
        db.collection::<Document>(name).drop().run().expect("drop a test collection");
    }
    let dir = scratch(label);
    let json = MigrationFile::read(&file(&written(&dir), ".json")).expect("read the migration");
    let shard_at = json.up.iter().position(|s| s.command.contains_key("shardCollection")).expect("a shard step");
    assert!(shard_at + 1 < json.up.len(), "steps follow the shard step: {:?}", json.up);
    let files = [json];

    let mut server = Driver(client.clone());
    let outcomes = apply(&mut server, &files, STATE_DB).unwrap_or_else(|e| panic!("{label}: apply: {e:?}"));
    assert_eq!(outcomes, [Outcome::Deferred { name: files[0].name.clone(), deferred: vec![shard_at] }], "{label}");
    assert_eq!(collections(&client), ["t_schema_migration", "t_shard_profile", "t_shard_visit"], "{label}");
    assert_eq!(deferred_of(&mut server, &files), [shard_at], "{label}: the record says what waits");
    // again without mongos: nothing to do, nothing fails
    let again = apply(&mut server, &files, STATE_DB).expect("apply again");
    assert_eq!(again, [Outcome::AlreadyApplied(files[0].name.clone())], "{label}");

    // through mongos: the deferred step runs, once
    let mut mongos = AsMongos { inner: Driver(client.clone()), sharded: Vec::new() };
    let ran = apply(&mut mongos, &files, STATE_DB).expect("apply through mongos");
    assert_eq!(ran, [Outcome::RanDeferred { name: files[0].name.clone(), steps: vec![shard_at] }], "{label}");
    assert_eq!(
        mongos.sharded,
        [doc! { "shardCollection": "db_app.t_shard_profile", "key": { "userId": "hashed" } }],
        "{label}"
    );
    assert!(deferred_of(&mut mongos, &files).is_empty(), "{label}: nothing waits any more");
    let last = apply(&mut mongos, &files, STATE_DB).expect("apply once more");
    assert_eq!(last, [Outcome::AlreadyApplied(files[0].name.clone())], "{label}");
    assert_eq!(mongos.sharded.len(), 1, "{label}: the shard step ran once");
    std::fs::remove_dir_all(&dir).ok();
}

/// The generated mongosh script on a deployment without mongos: exit 0, the shard step
/// reported pending, every collection created.
fn mongosh_skips_the_shard_step(uri: &str, label: &str) {
    let mongosh = Path::new(env!("CARGO_MANIFEST_DIR")).join("../.cache/npm/node_modules/.bin/mongosh");
    if !mongosh.exists() {
        mongo_schema_tests::skipped(&format!("shard_migrate::mongosh ({label}): no mongosh in .cache"));
        return;
    }
    let client = mongodb::sync::Client::with_uri_str(uri).expect("client");
    let db = client.database("db_app");
    for name in ["t_shard_profile", "t_shard_visit"] {
        db.collection::<Document>(name).drop().run().expect("drop a test collection");
    }
    let dir = scratch(&format!("{label}-sh"));
    let script = file(&written(&dir), ".js");
    // twice, but once as the readWrite user: re-running installs the validator with collMod,
    // which needs dbAdmin (`apply` says so; the script stops at the server's refusal)
    let runs = if label == "MONGODB_URI_AUTH" { 1 } else { 2 };
    for _ in 0..runs {
        let out = std::process::Command::new(&mongosh).args(["--quiet", uri]).arg(&script).output().expect("mongosh");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{label}: mongosh failed: {stdout}{}", String::from_utf8_lossy(&out.stderr));
        assert!(
            stdout.contains("pending: shardCollection db_app.t_shard_profile needs a sharded cluster"),
            "{label}: {stdout}"
        );
    }
    let names = collections(&client);
    assert!(names.contains(&"t_shard_profile".into()) && names.contains(&"t_shard_visit".into()), "{label}: {names:?}");
    std::fs::remove_dir_all(&dir).ok();
}

fn on(variable: &str, test: fn(&str, &str)) {
    match std::env::var(variable) {
        Ok(uri) => {
            let _turn = crate::support::DB_APP.lock().unwrap_or_else(|e| e.into_inner());
            test(&uri, variable)
        }
        Err(_) => mongo_schema_tests::skipped(&format!("shard_migrate ({variable} unset)")),
    }
}

#[test]
fn a_standalone_defers_the_shard_step() {
    on("MONGODB_URI", apply_defers_then_runs_the_shard_step);
    on("MONGODB_URI", mongosh_skips_the_shard_step);
}

#[test]
fn a_replica_set_defers_the_shard_step() {
    on("MONGODB_URI_REPLSET", apply_defers_then_runs_the_shard_step);
    on("MONGODB_URI_REPLSET", mongosh_skips_the_shard_step);
}

#[test]
fn a_read_write_user_defers_the_shard_step() {
    on("MONGODB_URI_AUTH", apply_defers_then_runs_the_shard_step);
    on("MONGODB_URI_AUTH", mongosh_skips_the_shard_step);
}
