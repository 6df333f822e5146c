//! Index changes on a live collection, against mongod (standalone and replica set): a TTL
//! change is one `collMod`; an index that becomes unique is converted in place
//! (`prepareUnique`, then `unique`), refused while duplicates exist and never dropped; an
//! index whose keys changed is built under an interim name before the old one is dropped,
//! so its uniqueness holds throughout; only a change mongod cannot hold side by side is a
//! plain drop-and-create, said as such. `revert` restores every previous definition.

#![forbid(unsafe_code)]
// clippy's duplicated_attributes reads a second `unique` (or `deviceId = 1`) inside one
// `#[mongo(...)]` as a repeated attribute; the indexes here are distinct
#![allow(clippy::duplicated_attributes)]

use mongo_schema::migrate::apply::{apply, revert};
use mongo_schema::migrate::drift::{drift, DriftStatus};
use mongo_schema::migrate::file::MigrationFile;
use mongo_schema::migrate::server::{CommandError, Server};
use mongo_schema::migrate::{migrate, MigrateOptions, Model, Naming, Written};
use mongo_schema_tests::bson::{doc, Bson, Document};
use std::path::{Path, PathBuf};

mod v1 {
    use mongo_schema::MongoSchema;
    use mongo_schema_tests::bson::{oid::ObjectId, DateTime};
    use serde::{Deserialize, Serialize};

    #[derive(Serialize, Deserialize, MongoSchema)]
    #[serde(rename_all = "camelCase")]
    #[mongo(
        db = "db_app",
        collection = "t_ix_session",
        index(keys(expireTime = 1), ttl = 3600, name = "ix_expire"),
        index(keys(email = 1), name = "ix_email"),
        index(keys(userId = 1), unique, name = "ix_user"),
        index(keys(deviceId = 1), name = "ix_device", partial = r#"{"deviceId": {"$exists": true}}"#)
    )]
    pub struct Session {
        #[serde(rename = "_id")]
        pub id: ObjectId,
        pub user_id: i64,
        #[mongo(max_length = 254)]
        pub email: String,
        #[mongo(max_length = 64)]
        pub device_id: String,
        pub expire_time: DateTime,
    }
}

mod v2 {
    use mongo_schema::MongoSchema;
    use mongo_schema_tests::bson::{oid::ObjectId, DateTime};
    use serde::{Deserialize, Serialize};

    #[derive(Serialize, Deserialize, MongoSchema)]
    #[serde(rename_all = "camelCase")]
    #[mongo(
        db = "db_app",
        collection = "t_ix_session",
        index(keys(expireTime = 1), ttl = 60, name = "ix_expire"),
        index(keys(email = 1), unique, name = "ix_email"),
        index(keys(userId = 1, deviceId = 1), unique, name = "ix_user"),
        index(keys(deviceId = 1), name = "ix_device", partial = r#"{"deviceId": {"$type": "string"}}"#)
    )]
    pub struct Session {
        #[serde(rename = "_id")]
        pub id: ObjectId,
        pub user_id: i64,
        #[mongo(max_length = 254)]
        pub email: String,
        #[mongo(max_length = 64)]
        pub device_id: String,
        pub expire_time: DateTime,
    }
}

struct Driver(mongodb::sync::Client);

impl Server for Driver {
    fn run_command(&mut self, db: &str, command: Document) -> Result<Document, CommandError> {
        self.0.database(db).run_command(command).run().map_err(|e| match e.kind.as_ref() {
            mongodb::error::ErrorKind::Command(c) => CommandError::Refused { code: c.code, message: c.message.clone() },
            _ => CommandError::Driver(std::sync::Arc::new(e)),
        })
    }
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mongo-schema-ixchange-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

fn generate(dir: &Path, model: Model) -> Written {
    let options = MigrateOptions { naming: Naming::Sequence, ..MigrateOptions::default() };
    migrate(dir, &[model], &options).expect("migrate").expect("a migration")
}

fn json(written: &Written) -> MigrationFile {
    let path = written
        .files
        .iter()
        .find(|p| p.extension().is_some_and(|e| e == "json") && !p.ends_with("snapshot.json"))
        .expect("the JSON command file");
    MigrationFile::read(path).expect("read")
}

/// Each index by name, without its version field.
fn indexes(client: &mongodb::sync::Client) -> Vec<(String, Document)> {
    let list = client.database("db_app").run_command(doc! { "listIndexes": "t_ix_session" }).run().expect("list");
    let batch = list.get_document("cursor").and_then(|c| c.get_array("firstBatch")).expect("cursor").clone();
    let mut all: Vec<(String, Document)> = batch
        .into_iter()
        .filter_map(|b| match b {
            Bson::Document(mut d) => {
                d.remove("v");
                Some((d.get_str("name").unwrap().to_owned(), d))
            }
            _ => None,
        })
        .collect();
    all.sort_by(|a, b| a.0.cmp(&b.0));
    all
}

fn index<'a>(all: &'a [(String, Document)], name: &str) -> &'a Document {
    &all.iter().find(|(n, _)| n == name).unwrap_or_else(|| panic!("no index {name}: {all:?}")).1
}

fn session(n: i64, email: &str) -> Document {
    doc! {
        "_id": mongo_schema_tests::bson::oid::ObjectId::new(), "userId": n, "email": email,
        "deviceId": format!("d{n}"), "expireTime": mongo_schema_tests::bson::DateTime::now(),
    }
}

fn indexes_change_keeping_their_guarantees(uri: &str, label: &str) {
    let client = mongodb::sync::Client::with_uri_str(uri).expect("client");
    let db = client.database("db_app");
    for name in ["t_ix_session", "t_schema_migration"] {
        db.collection::<Document>(name).drop().run().expect("drop a test collection");
    }
    let dir = scratch(label);
    let first = json(&generate(&dir, Model::of::<v1::Session>("app::Session")));
    let second = json(&generate(&dir, Model::of::<v2::Session>("app::Session")));
    let verbs: Vec<String> = second
        .up
        .iter()
        .map(|s| {
            let (verb, _) = s.command.iter().next().unwrap();
            let index = s.command.get("index").map(|i| format!(" {i}")).unwrap_or_default();
            format!("{verb}{index}")
        })
        .collect();
    // nothing is dropped before its replacement exists, except where mongod cannot hold both
    assert_eq!(
        verbs,
        [
            r#"collMod { "name": "ix_expire", "expireAfterSeconds": 60 }"#,
            r#"collMod { "name": "ix_email", "prepareUnique": true }"#,
            r#"collMod { "name": "ix_email", "unique": true }"#,
            "createIndexes",
            r#"dropIndexes "ix_user""#,
            "createIndexes",
            r#"dropIndexes "ix_user__mongo_schema_interim""#,
            r#"dropIndexes "ix_device""#,
            "createIndexes",
        ],
        "{label}"
    );
    let mut server = Driver(client.clone());
    apply(&mut server, std::slice::from_ref(&first), "db_app").expect("the first migration");
    let sessions = db.collection::<Document>("t_ix_session");
    sessions.insert_many([session(1, "a@example.com"), session(2, "a@example.com")]).run().expect("seed");

    // duplicate emails: the unique conversion is refused, and the index is still there
    let files = [first.clone(), second.clone()];
    let refused = apply(&mut server, &files, "db_app").expect_err("duplicates refuse the unique conversion");
    assert!(format!("{refused:?}").contains("ix_email"), "{label}: {refused:?}");
    let during = indexes(&client);
    assert!(!index(&during, "ix_email").contains_key("unique"), "{label}: still the old index: {during:?}");
    assert_eq!(index(&during, "ix_email").get_bool("prepareUnique").ok(), Some(true), "{label}");
    let duplicate = sessions.insert_one(session(3, "a@example.com")).run();
    assert!(duplicate.is_err(), "{label}: prepareUnique refuses new duplicates while old ones are cleaned");

    sessions.delete_one(doc! { "userId": 2 }).run().expect("clean the duplicate");
    apply(&mut server, &files, "db_app").expect("the second migration resumes and completes");
    let after = indexes(&client);
    assert_eq!(index(&after, "ix_expire").get_i32("expireAfterSeconds").ok(), Some(60), "{label}");
    assert_eq!(index(&after, "ix_email").get_bool("unique").ok(), Some(true), "{label}");
    assert_eq!(index(&after, "ix_user").get_document("key").unwrap(), &doc! { "userId": 1, "deviceId": 1 }, "{label}");
    assert_eq!(index(&after, "ix_user").get_bool("unique").ok(), Some(true), "{label}");
    assert_eq!(
        index(&after, "ix_device").get_document("partialFilterExpression").unwrap(),
        &doc! { "deviceId": { "$type": "string" } },
        "{label}"
    );
    assert!(!after.iter().any(|(n, _)| n.contains("interim")), "{label}: the interim index is gone: {after:?}");

    // drift sees indexes: in sync with the code that installed them, and every difference
    // against the previous code or after a hand-made change
    let status = |server: &mut Driver, m: Model| drift(server, &[m]).expect("drift").remove(0).1;
    assert_eq!(status(&mut server, Model::of::<v2::Session>("app::Session")), DriftStatus::InSync, "{label}");
    match status(&mut server, Model::of::<v1::Session>("app::Session")) {
        DriftStatus::Differs(lines) => {
            for name in ["ix_expire", "ix_email", "ix_user", "ix_device"] {
                assert!(
                    lines.iter().any(|l| l.starts_with(&format!("index `{name}`: deployed"))),
                    "{label}: {lines:?}"
                );
            }
        }
        other => panic!("{label}: {other:?}"),
    }
    db.run_command(doc! { "dropIndexes": "t_ix_session", "index": "ix_email" }).run().expect("drop by hand");
    db.run_command(
        doc! { "createIndexes": "t_ix_session", "indexes": [{ "key": { "email": -1 }, "name": "ix_by_hand" }] },
    )
    .run()
    .expect("an index made by hand");
    match status(&mut server, Model::of::<v2::Session>("app::Session")) {
        DriftStatus::Differs(lines) => {
            assert!(lines[0].starts_with("index `ix_email`: not deployed"), "{label}: {lines:?}");
            assert!(lines[1].starts_with("index `ix_by_hand`: deployed {"), "{label}: {lines:?}");
            assert_eq!(lines.len(), 2, "{label}: {lines:?}");
        }
        other => panic!("{label}: {other:?}"),
    }
    db.run_command(doc! { "dropIndexes": "t_ix_session", "index": "ix_by_hand" }).run().expect("drop by hand");
    db.run_command(doc! { "createIndexes": "t_ix_session", "indexes": [{ "key": { "email": 1 }, "name": "ix_email", "unique": true }] })
        .run()
        .expect("restore ix_email");

    // revert: every previous definition back
    revert(&mut server, &files, "db_app").expect("revert the second migration");
    let back = indexes(&client);
    assert_eq!(index(&back, "ix_expire").get_i32("expireAfterSeconds").ok(), Some(3600), "{label}");
    assert!(!index(&back, "ix_email").get_bool("unique").unwrap_or(false), "{label}: {back:?}");
    assert_eq!(index(&back, "ix_user").get_document("key").unwrap(), &doc! { "userId": 1 }, "{label}");
    assert!(!back.iter().any(|(n, _)| n.contains("interim")), "{label}: {back:?}");
    std::fs::remove_dir_all(&dir).ok();
}

fn on(variable: &str) {
    match std::env::var(variable) {
        Ok(uri) => {
            let _turn = crate::support::DB_APP.lock().unwrap_or_else(|e| e.into_inner());
            indexes_change_keeping_their_guarantees(&uri, variable)
        }
        Err(_) => mongo_schema_tests::skipped(&format!("index_change_mongod ({variable} unset)")),
    }
}

#[test]
fn indexes_change_keeping_their_guarantees_on_a_standalone() {
    on("MONGODB_URI");
}

#[test]
fn indexes_change_keeping_their_guarantees_on_a_replica_set() {
    on("MONGODB_URI_REPLSET");
}

mod capped {
    use mongo_schema::MongoSchema;
    use serde::{Deserialize, Serialize};

    #[derive(Serialize, Deserialize, MongoSchema)]
    #[mongo(db = "db_app", collection = "t_ix_recent", capped(size = 1000, max = 10))]
    pub struct Recent {
        #[mongo(max_length = 200)]
        pub message: String,
    }

    #[derive(Serialize, Deserialize, MongoSchema)]
    #[mongo(db = "db_app", collection = "t_ix_recent", capped(size = 1000, max = 20))]
    pub struct MoreRecent {
        #[mongo(max_length = 200)]
        pub message: String,
    }
}

#[test]
fn drift_compares_capped_options() {
    let Ok(uri) = std::env::var("MONGODB_URI") else {
        mongo_schema_tests::skipped("index_change_mongod::drift_compares_capped_options");
        return;
    };
    let client = mongodb::sync::Client::with_uri_str(&uri).expect("client");
    client.database("db_app").collection::<Document>("t_ix_recent").drop().run().expect("drop");
    client.database("db_app_capped_state").drop().run().expect("drop state");
    let dir = scratch("capped");
    let migration = json(&generate(&dir, Model::of::<capped::Recent>("app::Recent")));
    let mut server = Driver(client.clone());
    apply(&mut server, &[migration], "db_app_capped_state").expect("apply");
    let status = |m: Model| drift(&mut Driver(client.clone()), &[m]).expect("drift").remove(0).1;
    // mongod rounds the size up to 1024 bytes: still in sync
    assert_eq!(status(Model::of::<capped::Recent>("app::Recent")), DriftStatus::InSync);
    assert_eq!(
        status(Model::of::<capped::MoreRecent>("app::MoreRecent")),
        DriftStatus::Differs(vec!["max: deployed 10, code 20".to_owned()])
    );
    std::fs::remove_dir_all(&dir).ok();
}
