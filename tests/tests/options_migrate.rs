//! Migrations of collection options, golden (`snapshots/options_migrate__*.snap`, every
//! script `node --check`ed when node is there): a time-series collection with its index,
//! indexes with TTL / unique / partial, a capped collection, a sharded one; then a changed
//! index (drop-and-create of that index only), a new one, a removed one (kept), a new
//! expiry. Against a real mongod (`MONGODB_URI`), the IoT migration's JSON commands run
//! through `migrate::apply::apply` and install the time-series collection, the compound
//! index and the expiry; running them again is harmless.

#![forbid(unsafe_code)]

use mongo_schema::migrate::apply::apply;
use mongo_schema::migrate::drift::{drift, DriftStatus};
use mongo_schema::migrate::file::MigrationFile;
use mongo_schema::migrate::server::{CommandError, Server};
use mongo_schema::migrate::{migrate, MigrateOptions, Model, Naming, Written};
use mongo_schema_tests::bson::{doc, Document};
use std::path::{Path, PathBuf};

mod v1 {
    use mongo_schema::MongoSchema;
    use mongo_schema_tests::bson::{oid::ObjectId, DateTime};
    use serde::{Deserialize, Serialize};

    /// Readings of IoT devices.
    #[derive(Serialize, Deserialize, MongoSchema)]
    #[serde(rename_all = "camelCase")]
    #[mongo(
        db = "db_test_migrate_options",
        collection = "t_device_reading",
        timeseries(time_field = "timestamp", meta_field = "deviceId", granularity = "seconds", expire_after_seconds = 2592000),
        index(keys(deviceId = 1, timestamp = -1))
    )]
    pub struct DeviceReading {
        pub timestamp: DateTime,
        #[mongo(max_length = 64)]
        pub device_id: String,
        pub temperature: f64,
    }

    #[derive(Serialize, Deserialize, MongoSchema)]
    #[serde(rename_all = "camelCase")]
    #[mongo(
        db = "db_test_migrate_options",
        collection = "t_session",
        index(keys(token = 1), unique, name = "uk_token"),
        index(keys(expireTime = 1), ttl = 3600),
        index(keys(userId = 1), name = "ix_user")
    )]
    pub struct Session {
        #[serde(rename = "_id")]
        pub id: ObjectId,
        #[mongo(max_length = 64)]
        pub token: String,
        pub user_id: i64,
        pub expire_time: DateTime,
    }

    #[derive(Serialize, Deserialize, MongoSchema)]
    #[serde(rename_all = "camelCase")]
    #[mongo(db = "db_test_migrate_options", collection = "t_recent_event", capped(size = 1048576, max = 1000))]
    pub struct RecentEvent {
        #[mongo(max_length = 200)]
        pub message: String,
    }

    #[derive(Serialize, Deserialize, MongoSchema)]
    #[serde(rename_all = "camelCase")]
    #[mongo(db = "db_test_migrate_options", collection = "t_user_profile", shard_key(userId = "hashed"))]
    pub struct UserProfile {
        pub user_id: i64,
    }
}

mod v2 {
    use mongo_schema::MongoSchema;
    use mongo_schema_tests::bson::{oid::ObjectId, DateTime};
    use serde::{Deserialize, Serialize};

    /// Readings of IoT devices.
    #[derive(Serialize, Deserialize, MongoSchema)]
    #[serde(rename_all = "camelCase")]
    #[mongo(
        db = "db_test_migrate_options",
        collection = "t_device_reading",
        timeseries(time_field = "timestamp", meta_field = "deviceId", granularity = "seconds", expire_after_seconds = 604800),
        index(keys(deviceId = 1, timestamp = -1))
    )]
    pub struct DeviceReading {
        pub timestamp: DateTime,
        #[mongo(max_length = 64)]
        pub device_id: String,
        pub temperature: f64,
    }

    // `ix_user` now also sorts by expiry; `uk_token` unchanged; the TTL index is gone
    // from the code; `ix_expire_user` is new (a plain comment: a doc comment would change
    // the validator's description)
    #[derive(Serialize, Deserialize, MongoSchema)]
    #[serde(rename_all = "camelCase")]
    #[mongo(
        db = "db_test_migrate_options",
        collection = "t_session",
        index(keys(token = 1), unique, name = "uk_token"),
        index(keys(userId = 1, expireTime = -1), name = "ix_user"),
        index(keys(expireTime = -1, userId = 1), name = "ix_expire_user")
    )]
    pub struct Session {
        #[serde(rename = "_id")]
        pub id: ObjectId,
        #[mongo(max_length = 64)]
        pub token: String,
        pub user_id: i64,
        pub expire_time: DateTime,
    }
}

fn v1_models() -> Vec<Model> {
    vec![
        Model::of::<v1::DeviceReading>("app::DeviceReading"),
        Model::of::<v1::Session>("app::Session"),
        Model::of::<v1::RecentEvent>("app::RecentEvent"),
        Model::of::<v1::UserProfile>("app::UserProfile"),
    ]
}

fn v2_models() -> Vec<Model> {
    vec![
        Model::of::<v2::DeviceReading>("app::DeviceReading"),
        Model::of::<v2::Session>("app::Session"),
        Model::of::<v1::RecentEvent>("app::RecentEvent"),
        Model::of::<v1::UserProfile>("app::UserProfile"),
    ]
}

/// A fresh directory under the target's temp dir, removed first if a run left it.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mongo-schema-options-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

fn run(dir: &Path, models: &[Model]) -> Option<Written> {
    // `NNNN_` names: the snapshots do not change with the clock
    migrate(dir, models, &MigrateOptions { naming: Naming::Sequence, ..MigrateOptions::default() }).expect("migrate")
}

fn assert_golden(step: &str, written: &Written) {
    for path in &written.files {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(path).unwrap();
        if name.ends_with(".js") {
            node_check(path);
        }
        insta::assert_snapshot!(format!("{step}__{name}"), text);
    }
}

fn node_check(path: &Path) {
    match std::process::Command::new("node").arg("--check").arg(path).output() {
        Ok(out) => {
            assert!(out.status.success(), "node --check {}: {}", path.display(), String::from_utf8_lossy(&out.stderr))
        }
        Err(_) => eprintln!("skipped (no node on PATH): node --check {}", path.display()),
    }
}

#[test]
fn options_are_created_then_changed_index_by_index() {
    let dir = scratch("golden");
    let first = run(&dir, &v1_models()).expect("a first migration");
    assert_golden("1_create", &first);
    assert!(run(&dir, &v1_models()).is_none(), "unchanged options write no migration");
    let second = run(&dir, &v2_models()).expect("a second migration");
    assert_golden("2_change", &second);
    let commands: Vec<String> =
        second.migration.up.iter().map(|s| format!("{} {}", s.command.keys().next().unwrap(), s.collection)).collect();
    assert_eq!(
        commands,
        ["collMod t_device_reading", "createIndexes t_session", "dropIndexes t_session", "createIndexes t_session"]
    );
    assert!(
        second.migration.notes.iter().any(|n| n.contains("`expireTime_1` is no longer declared")),
        "removed indexes are kept: {:?}",
        second.migration.notes
    );
    assert!(run(&dir, &v2_models()).is_none());
    std::fs::remove_dir_all(&dir).ok();
}

/// The driver as `migrate::apply`'s server.
struct Driver(mongodb::sync::Client);

impl Server for Driver {
    fn run_command(&mut self, db: &str, command: Document) -> Result<Document, CommandError> {
        self.0.database(db).run_command(command).run().map_err(|e| match e.kind.as_ref() {
            mongodb::error::ErrorKind::Command(c) => CommandError::Refused { code: c.code, message: c.message.clone() },
            _ => CommandError::Driver(std::sync::Arc::new(e)),
        })
    }
}

#[test]
fn iot_migration_installs_the_timeseries_collection_index_and_expiry() {
    let Ok(uri) = std::env::var("MONGODB_URI") else {
        mongo_schema_tests::skipped(
            "options_migrate::iot_migration_installs_the_timeseries_collection_index_and_expiry",
        );
        return;
    };
    let client = mongodb::sync::Client::with_uri_str(uri).expect("client");
    let db = client.database("db_test_migrate_options");
    db.drop().run().expect("drop the test database");
    client.database("db_test_migrate_options_state").drop().run().expect("drop state");
    let dir = scratch("mongod");
    let models = [Model::of::<v1::DeviceReading>("app::DeviceReading"), Model::of::<v1::Session>("app::Session")];
    let first = run(&dir, &models).expect("migration");
    let second =
        run(&dir, &[Model::of::<v2::DeviceReading>("app::DeviceReading"), Model::of::<v2::Session>("app::Session")])
            .expect("migration");
    let json = |w: &Written| {
        MigrationFile::read(
            w.files
                .iter()
                .find(|p| p.extension().is_some_and(|e| e == "json") && !p.ends_with("snapshot.json"))
                .unwrap(),
        )
        .expect("read")
    };
    let mut server = Driver(client.clone());
    let again = |w: &Written, name: &str| MigrationFile { name: name.to_owned(), ..json(w) };
    apply(&mut server, &[json(&first)], "db_test_migrate_options_state").expect("the first migration applies");
    apply(&mut server, &[again(&first, "replay_0001")], "db_test_migrate_options_state")
        .expect("running it again is harmless");
    let info =
        db.run_command(doc! { "listCollections": 1, "filter": { "name": "t_device_reading" } }).run().expect("list");
    let options = info.get_document("cursor").unwrap().get_array("firstBatch").unwrap()[0]
        .as_document()
        .unwrap()
        .get_document("options")
        .unwrap()
        .clone();
    assert_eq!(options.get_document("timeseries").unwrap().get_str("timeField").ok(), Some("timestamp"));
    // a time-series collection has no validator: drift compares its options instead
    let status = |models: &[Model]| drift(&mut Driver(client.clone()), models).expect("drift")[0].1.clone();
    assert_eq!(status(&models), DriftStatus::InSync);
    let v2_reading = [Model::of::<v2::DeviceReading>("app::DeviceReading")];
    assert_eq!(
        status(&v2_reading),
        DriftStatus::Differs(vec!["expireAfterSeconds: deployed 2592000, code 604800".to_owned()])
    );
    assert!(index_names(&db, "t_device_reading").contains(&"deviceId_1_timestamp_-1".to_owned()));
    assert!(index_names(&db, "t_session").contains(&"expireTime_1".to_owned()));
    apply(&mut server, &[json(&second)], "db_test_migrate_options_state").expect("the second migration applies");
    assert_eq!(status(&v2_reading), DriftStatus::InSync, "the second migration changed the expiry");
    let names = index_names(&db, "t_session");
    assert!(names.contains(&"ix_expire_user".to_owned()) && names.contains(&"expireTime_1".to_owned()), "{names:?}");
    // the drop-and-create of `ix_user` runs again: the drop finds the new index, the create rebuilds it
    apply(&mut server, &[again(&second, "replay_0002")], "db_test_migrate_options_state")
        .expect("running it again is harmless");
    let list = db.run_command(doc! { "listIndexes": "t_session" }).run().expect("listIndexes");
    let batch = list.get_document("cursor").and_then(|c| c.get_array("firstBatch")).expect("cursor");
    let ix_user = batch
        .iter()
        .filter_map(|i| i.as_document())
        .find(|i| i.get_str("name").ok() == Some("ix_user"))
        .expect("ix_user");
    assert_eq!(
        ix_user.get_document("key").unwrap(),
        &doc! { "userId": 1, "expireTime": -1 },
        "ix_user has its new definition"
    );
    std::fs::remove_dir_all(&dir).ok();
}

fn index_names(db: &mongodb::sync::Database, name: &str) -> Vec<String> {
    let list = db.run_command(doc! { "listIndexes": name }).run().expect("listIndexes");
    let batch = list.get_document("cursor").and_then(|c| c.get_array("firstBatch")).expect("cursor");
    batch.iter().map(|i| i.as_document().unwrap().get_str("name").unwrap().to_owned()).collect()
}

fn mongosh() -> Option<PathBuf> {
    let cached = Path::new(env!("CARGO_MANIFEST_DIR")).join("../.cache/npm/node_modules/.bin/mongosh");
    let candidates = [std::env::var_os("MONGOSH").map(PathBuf::from), Some(cached)];
    candidates.into_iter().flatten().find(|p| p.is_file())
}

fn mongosh_run(mongosh: &Path, uri: &str, script: &Path) {
    let out = std::process::Command::new(mongosh).args(["--quiet", uri]).arg(script).output().expect("mongosh runs");
    assert!(
        out.status.success(),
        "mongosh {}: {}{}",
        script.display(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The mongosh scripts: up twice, a drop-and-create whose index is already gone (as after
/// a run interrupted between the two steps), and the down script.
#[test]
fn mongosh_runs_the_option_scripts_and_reruns_them() {
    let name = "options_migrate::mongosh_runs_the_option_scripts_and_reruns_them";
    let (Ok(uri), Some(mongosh)) = (std::env::var("MONGODB_URI"), mongosh()) else {
        mongo_schema_tests::skipped(name);
        return;
    };
    let client = mongodb::sync::Client::with_uri_str(&uri).expect("client");
    let db = client.database("db_test_migrate_options_sh");
    db.drop().run().expect("drop");
    let dir = scratch("mongosh");
    let rename = |m: Model| Model { db: "db_test_migrate_options_sh".into(), ..m };
    let first = run(
        &dir,
        &[
            rename(Model::of::<v1::DeviceReading>("app::DeviceReading")),
            rename(Model::of::<v1::Session>("app::Session")),
        ],
    )
    .unwrap();
    let second = run(
        &dir,
        &[
            rename(Model::of::<v2::DeviceReading>("app::DeviceReading")),
            rename(Model::of::<v2::Session>("app::Session")),
        ],
    )
    .unwrap();
    let (up1, up2, down2) = (&first.files[0], &second.files[0], &second.files[1]);
    assert!(
        up2.to_string_lossy().ends_with("alter_t_device_reading_and_1_more.js")
            && down2.to_string_lossy().ends_with(".down.js")
    );
    mongosh_run(&mongosh, &uri, up1);
    mongosh_run(&mongosh, &uri, up1);
    mongosh_run(&mongosh, &uri, up2);
    db.run_command(doc! { "dropIndexes": "t_session", "index": "ix_user" }).run().expect("drop ix_user by hand");
    mongosh_run(&mongosh, &uri, up2);
    assert!(index_names(&db, "t_session").contains(&"ix_user".to_owned()), "ix_user is back with its new definition");
    mongosh_run(&mongosh, &uri, down2);
    let names = index_names(&db, "t_session");
    assert!(!names.contains(&"ix_expire_user".to_owned()) && names.contains(&"ix_user".to_owned()), "{names:?}");
    let list = db.run_command(doc! { "listIndexes": "t_session" }).run().expect("listIndexes");
    let batch = list.get_document("cursor").and_then(|c| c.get_array("firstBatch")).expect("cursor");
    let ix_user = batch
        .iter()
        .filter_map(|i| i.as_document())
        .find(|i| i.get_str("name").ok() == Some("ix_user"))
        .expect("ix_user");
    assert_eq!(ix_user.get_document("key").unwrap(), &doc! { "userId": 1 }, "down restored the previous definition");
    std::fs::remove_dir_all(&dir).ok();
}
