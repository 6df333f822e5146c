//! The index and collection options against mongod 6.0.5 (`MONGODB_URI`,
//! `MONGODB_URI_REPLSET`, set by `scripts/with-mongod.sh`):
//!
//! - every declaration the derive refuses (`uitests/ui/{index_key,ttl_index,
//!   collection_options}/`) is refused by mongod too, with the code the message names;
//! - every option of `support/index_models.rs` is installed by a migration, works, and
//!   `drift` finds the deployment in sync right after, on a standalone and a replica set.
//!
//! Without `MONGODB_URI` each test says it was skipped and passes.

#![forbid(unsafe_code)]

use mongo_schema::migrate::apply::{apply_with, ApplyOptions};
use mongo_schema::migrate::drift::{drift, DriftStatus};
use mongo_schema::migrate::file::MigrationFile;
use mongo_schema::migrate::server::{CommandError, Server};
use mongo_schema::migrate::{migrate, MigrateOptions, Model, Naming};
use mongo_schema_tests::bson::{doc, oid::ObjectId, DateTime, Document};
use mongodb::sync::{Client, Database};
use std::collections::BTreeMap;

use crate::support;
use support::code;

use crate::support::index_models;
use index_models::{Account, Click, GeoPoint, Note};

fn database(test: &str, name: &str) -> Option<Database> {
    let client = support::client(test)?;
    let db = client.database(name);
    db.drop().run().expect("drop the test database");
    Some(db)
}

/// `command` run on `db`: its error code, or `None` when mongod accepted it.
fn refused(db: &Database, command: Document) -> Option<i32> {
    match db.run_command(command.clone()).run() {
        Ok(_) => None,
        Err(error) => Some(code(&error).unwrap_or_else(|| panic!("a command error for {command}: {error}"))),
    }
}

fn create_indexes(collection: &str, specs: Vec<Document>) -> Document {
    doc! { "createIndexes": collection, "indexes": specs }
}

/// Each declaration the derive refuses, as the command mongod would get, and the code
/// mongod 6.0.5 answers (the UI case that refuses it at compile time in brackets).
#[test]
fn mongod_refuses_what_the_derive_refuses() {
    let Some(db) = database("mongod_refuses_what_the_derive_refuses", "db_test_index_refusals") else { return };
    let ix = |key: Document, options: Document| {
        let mut spec = doc! { "key": key, "name": "ix" };
        spec.extend(options);
        create_indexes("t_plain", vec![spec])
    };
    let cases: Vec<(&str, Document, i32)> = vec![
        // index_key
        (
            "partial_exists_false",
            ix(doc! { "u": 1 }, doc! { "partialFilterExpression": { "readAt": { "$exists": false } } }),
            67,
        ),
        ("partial_ne", ix(doc! { "u": 1 }, doc! { "partialFilterExpression": { "status": { "$ne": "closed" } } }), 67),
        ("partial_regex", ix(doc! { "u": 1 }, doc! { "partialFilterExpression": { "name": { "$regex": "^a" } } }), 67),
        (
            "partial_expr",
            ix(doc! { "u": 1 }, doc! { "partialFilterExpression": { "$expr": { "$gt": ["$u", 0] } } }),
            224,
        ),
        (
            "partial_near",
            ix(doc! { "u": 1 }, doc! { "partialFilterExpression": { "pin": { "$near": [0, 0] } } }),
            5626500,
        ),
        ("wildcard_inner", ix(doc! { "attributes.$**.size": 1 }, doc! {}), 67),
        // ttl_index
        ("ttl_index/id", ix(doc! { "_id": 1 }, doc! { "expireAfterSeconds": 3600 }), 197),
        ("ttl_index/wildcard", ix(doc! { "$**": 1 }, doc! { "expireAfterSeconds": 3600 }), 67),
        ("ttl_index/compound", ix(doc! { "a": 1, "b": 1 }, doc! { "expireAfterSeconds": 3600 }), 67),
        // collection_options
        (
            "sparse_partial",
            ix(doc! { "name": 1 }, doc! { "sparse": true, "partialFilterExpression": { "name": { "$exists": true } } }),
            67,
        ),
        ("hidden_id", ix(doc! { "_id": 1 }, doc! { "hidden": true }), 197),
        ("collation_text", ix(doc! { "name": "text" }, doc! { "collation": { "locale": "en", "strength": 2 } }), 67),
        ("collation_2d", ix(doc! { "pin": "2d" }, doc! { "collation": { "locale": "en" } }), 67),
        ("wildcard_unique", ix(doc! { "$**": 1 }, doc! { "unique": true }), 67),
        ("wildcard_compound", ix(doc! { "$**": 1, "name": 1 }, doc! {}), 67),
        ("wildcard_sparse", ix(doc! { "$**": 1 }, doc! { "sparse": true }), 67),
        ("wildcard_descending", ix(doc! { "$**": -1 }, doc! {}), 67),
        ("wildcard_projection_path", ix(doc! { "attributes.$**": 1 }, doc! { "wildcardProjection": { "size": 1 } }), 9),
        (
            "wildcard_projection_mixed",
            ix(doc! { "$**": 1 }, doc! { "wildcardProjection": { "name": 1, "summary": 0 } }),
            31254,
        ),
        ("two_plugins", ix(doc! { "name": "text", "home": "2dsphere" }, doc! {}), 67),
        ("two_hashed", ix(doc! { "name": "hashed", "code": "hashed" }, doc! {}), 31303),
        ("geo_2d_not_first", ix(doc! { "name": 1, "pin": "2d" }, doc! {}), 16801),
        ("two_2d", ix(doc! { "pin": "2d", "spot": "2d" }, doc! {}), 16800),
        ("weights_not_text", ix(doc! { "name": 1 }, doc! { "weights": { "name": 5 } }), 67),
        ("weight_out_of_range", ix(doc! { "name": "text" }, doc! { "weights": { "name": 100000 } }), 67),
        ("text_language", ix(doc! { "name": "text" }, doc! { "default_language": "klingon" }), 67),
        ("language_override_path", ix(doc! { "name": "text" }, doc! { "language_override": "meta.lang" }), 67),
        ("collation_strength", ix(doc! { "name": 1 }, doc! { "collation": { "locale": "en", "strength": 6 } }), 51024),
        ("collation_locale", doc! { "create": "t_english", "collation": { "locale": "English" } }, 2),
        ("unique_hashed", ix(doc! { "name": "hashed" }, doc! { "unique": true }), 16764),
        (
            "clustered_capped",
            doc! { "create": "t_clustered_capped", "clusteredIndex": { "key": { "_id": 1 }, "unique": true }, "capped": true, "size": 1048576 },
            6127800,
        ),
        (
            "clustered_timeseries",
            doc! { "create": "t_clustered_ts", "clusteredIndex": { "key": { "_id": 1 }, "unique": true }, "timeseries": { "timeField": "readAt" } },
            72,
        ),
    ];
    db.run_command(doc! { "create": "t_plain" }).run().expect("create");
    let first = create_indexes("t_named", vec![doc! { "key": { "a": 1 }, "name": "ix_a" }]);
    assert_eq!(refused(&db, first), None);
    // index_name/duplicate and index_name/same_keys
    let same_name = create_indexes("t_named", vec![doc! { "key": { "b": 1 }, "name": "ix_a" }]);
    assert_eq!(refused(&db, same_name), Some(86));
    let same_keys = create_indexes("t_named", vec![doc! { "key": { "a": 1 }, "name": "ix_other" }]);
    assert_eq!(refused(&db, same_keys), Some(85));
    let other_collation =
        create_indexes("t_named", vec![doc! { "key": { "a": 1 }, "name": "ix_fr", "collation": { "locale": "fr" } }]);
    assert_eq!(refused(&db, other_collation), None, "the same keys under another collation are another index");
    let mut wrong = Vec::new();
    for (case, command, expected) in cases {
        let answer = refused(&db, command);
        if answer != Some(expected) {
            wrong.push(format!("{case}: expected code {expected}, mongod answered {answer:?}"));
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}

/// `ttl_index/capped`: a TTL index on a capped collection (67).
#[test]
fn mongod_refuses_a_ttl_index_on_a_capped_collection() {
    let Some(db) = database("mongod_refuses_a_ttl_index_on_a_capped_collection", "db_test_index_ttl_capped") else {
        return;
    };
    db.run_command(doc! { "create": "t_place", "capped": true, "size": 1048576 }).run().expect("capped");
    let ttl = create_indexes(
        "t_place",
        vec![doc! { "key": { "readAt": 1 }, "name": "readAt_1", "expireAfterSeconds": 3600 }],
    );
    assert_eq!(refused(&db, ttl), Some(67));
}

/// `collection_options/two_text`: a second text index (85), whatever its fields.
#[test]
fn mongod_refuses_a_second_text_index() {
    let Some(db) = database("mongod_refuses_a_second_text_index", "db_test_index_two_text") else { return };
    let first = create_indexes("t_place", vec![doc! { "key": { "name": "text" }, "name": "name_text" }]);
    assert_eq!(refused(&db, first), None);
    let second = create_indexes("t_place", vec![doc! { "key": { "summary": "text" }, "name": "summary_text" }]);
    assert_eq!(refused(&db, second), Some(85));
}

/// `index_key/geo_string`: a 2dsphere index on a string is created, then every insert
/// holding a string there is refused (16755), as is building it over such a document.
/// `index_key/geo_2d_number`: mongod takes a number under a 2d key but never finds it.
#[test]
fn mongod_refuses_strings_under_a_2dsphere_key() {
    let Some(db) = database("mongod_refuses_strings_under_a_2dsphere_key", "db_test_index_geo") else { return };
    let index = create_indexes("t_place", vec![doc! { "key": { "address": "2dsphere" }, "name": "address_2dsphere" }]);
    assert_eq!(refused(&db, index), None);
    let places = db.collection::<Document>("t_place");
    let error = places.insert_one(doc! { "address": "1 rue de Rivoli" }).run().expect_err("refused");
    assert_eq!(code(&error), Some(16755), "{error}");
    db.collection::<Document>("t_before").insert_one(doc! { "address": "Lyon" }).run().expect("insert");
    let build = create_indexes("t_before", vec![doc! { "key": { "address": "2dsphere" }, "name": "address_2dsphere" }]);
    assert_eq!(refused(&db, build), Some(16755));
    let flat = create_indexes("t_floor", vec![doc! { "key": { "floor": "2d" }, "name": "floor_2d" }]);
    assert_eq!(refused(&db, flat), None);
    let floors = db.collection::<Document>("t_floor");
    floors.insert_one(doc! { "floor": 3 }).run().expect("mongod takes a number under a 2d key");
    let near = floors.find(doc! { "floor": { "$geoWithin": { "$center": [[0, 0], 1000] } } }).run().expect("find");
    assert_eq!(near.count(), 0, "and never finds it");
}

/// `collection_options/too_many_indexes`: 63 indexes besides `_id`, and mongod refuses the
/// 64th (67).
#[test]
fn mongod_refuses_a_sixty_fifth_index() {
    let Some(db) = database("mongod_refuses_a_sixty_fifth_index", "db_test_index_count") else { return };
    let specs: Vec<Document> =
        (0..63).map(|i| doc! { "key": { format!("f{i}"): 1 }, "name": format!("f{i}_1") }).collect();
    assert_eq!(refused(&db, create_indexes("t_place", specs)), None);
    let one_more = create_indexes("t_place", vec![doc! { "key": { "f63": 1 }, "name": "f63_1" }]);
    assert_eq!(refused(&db, one_more), Some(67));
}

/// The driver as `migrate::apply`'s server.
struct Driver(Client);

impl Server for Driver {
    fn run_command(&mut self, db: &str, command: Document) -> Result<Document, CommandError> {
        self.0.database(db).run_command(command).run().map_err(|e| match e.kind.as_ref() {
            mongodb::error::ErrorKind::Command(c) => CommandError::Refused { code: c.code, message: c.message.clone() },
            _ => CommandError::Driver(std::sync::Arc::new(e)),
        })
    }
}

fn models() -> Vec<Model> {
    vec![
        Model::of::<Account>("index_models::Account"),
        Model::of::<Note>("index_models::Note"),
        Model::of::<Click>("index_models::Click"),
    ]
}

/// Migrates, applies (twice: harmless), then checks drift and what each option does.
fn round_trip(uri: &str, deployment: &str) {
    let client = Client::with_uri_str(uri).expect("client");
    let db = client.database("db_test_index_options");
    db.drop().run().expect("drop");
    let state = "db_test_index_options_state";
    client.database(state).drop().run().expect("drop state");
    let dir = std::env::temp_dir().join(format!("mongo-schema-index-options-{deployment}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let written = migrate(&dir, &models(), &MigrateOptions { naming: Naming::Sequence, ..MigrateOptions::default() })
        .expect("migrate")
        .expect("a migration");
    let file = written
        .files
        .iter()
        .find(|p| p.extension().is_some_and(|e| e == "json") && !p.ends_with("snapshot.json"))
        .expect("the migration's JSON");
    let migration = MigrationFile::read(file).expect("read");
    let mut server = Driver(client.clone());
    // the whole migration, its contract too (the collections were created enforced; applied
    // again, they exist: adopted under warn, then enforced by the contract)
    let whole = ApplyOptions { contract: true, ..ApplyOptions::new(state) };
    apply_with(&mut server, std::slice::from_ref(&migration), &whole, &mut |_| {}).expect("the migration applies");
    let again = MigrationFile { name: "replay_0001".to_owned(), ..migration };
    apply_with(&mut server, &[again], &whole, &mut |_| {}).expect("applying it again is harmless");
    for (model, status) in drift(&mut server, &models()).expect("drift") {
        assert_eq!(status, DriftStatus::InSync, "{deployment}: {} right after the migration", model.namespace());
    }

    // what the options do
    let accounts = db.collection::<Account>("t_account");
    let account = |email: &str, nickname: Option<&str>| Account {
        id: ObjectId::new(),
        email: email.to_owned(),
        nickname: nickname.map(str::to_owned),
        last_login: DateTime::now(),
        title: "Gardener".into(),
        bio: "Je cultive des tomates anciennes".into(),
        lang: "french".into(),
        home: GeoPoint { kind: "Point".into(), coordinates: vec![2.35, 48.85] },
        pin: vec![10.0, 20.0],
        attributes: BTreeMap::from([("color".to_owned(), "red".to_owned())]),
        region: "eu".into(),
        level: "gold".into(),
        score: 3,
    };
    accounts.insert_one(account("Ann@Example.com", None)).run().expect("insert");
    let error = accounts.insert_one(account("ann@example.COM", Some("a"))).run().expect_err("case-insensitive unique");
    assert_eq!(code(&error), Some(11000), "{deployment}: {error}");
    let raw = db.collection::<Document>("t_account");
    let found = raw.find(doc! { "$text": { "$search": "tomate" } }).run().expect("text search").count();
    assert_eq!(found, 1, "{deployment}: French stemming finds `tomates`");
    let near = doc! { "home": { "$near": { "$geometry": { "type": "Point", "coordinates": [2.35, 48.85] }, "$maxDistance": 1000 } } };
    assert_eq!(raw.find(near).run().expect("$near").count(), 1, "{deployment}: 2dsphere");
    let hidden = db.run_command(doc! { "listIndexes": "t_account" }).run().expect("listIndexes");
    let batch = hidden.get_document("cursor").unwrap().get_array("firstBatch").unwrap();
    let spec = |name: &str| {
        batch.iter().filter_map(|i| i.as_document()).find(|i| i.get_str("name").ok() == Some(name)).cloned()
    };
    assert_eq!(spec("lastLogin_-1").and_then(|s| s.get_bool("hidden").ok()), Some(true), "{deployment}: hidden");
    assert_eq!(spec("nickname_1").and_then(|s| s.get_bool("sparse").ok()), Some(true), "{deployment}: sparse");
    assert!(spec("wc_all").is_some() && spec("attributes.$**_1").is_some(), "{deployment}: wildcard indexes");

    let notes = db.collection::<Document>("t_note");
    notes.insert_one(doc! { "title": "Été", "body": "x", "code": "A" }).run().expect("insert");
    assert_eq!(notes.find(doc! { "title": "ete" }).run().expect("find").count(), 1, "{deployment}: strength 1");
    notes.insert_one(doc! { "title": "b", "body": "y", "code": "a" }).run().expect("`code` compares by bytes");

    let info = db.run_command(doc! { "listCollections": 1, "filter": { "name": "t_click" } }).run().expect("list");
    let options = info.get_document("cursor").unwrap().get_array("firstBatch").unwrap()[0]
        .as_document()
        .unwrap()
        .get_document("options")
        .unwrap()
        .clone();
    assert!(options.contains_key("clusteredIndex"), "{deployment}: clustered: {options}");
    let clicks = db.collection::<Click>("t_click");
    clicks.insert_one(Click { id: DateTime::now(), page: "/".into() }).run().expect("insert");

    // a change is seen
    db.run_command(doc! { "collMod": "t_account", "index": { "name": "lastLogin_-1", "hidden": false } })
        .run()
        .expect("unhide");
    let status = drift(&mut server, &models()[..1]).expect("drift")[0].1.clone();
    assert!(
        matches!(&status, DriftStatus::Differs(lines) if lines.iter().any(|l| l.contains("lastLogin_-1") && l.contains("hidden"))),
        "{deployment}: {status:?}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn migrations_install_every_option_in_sync_on_a_standalone() {
    let Ok(uri) = std::env::var("MONGODB_URI") else {
        mongo_schema_tests::skipped("index_options_mongod::migrations_install_every_option_in_sync_on_a_standalone");
        return;
    };
    round_trip(&uri, "standalone");
}

#[test]
fn migrations_install_every_option_in_sync_on_a_replica_set() {
    let Ok(uri) = std::env::var("MONGODB_URI_REPLSET") else {
        mongo_schema_tests::skipped("index_options_mongod::migrations_install_every_option_in_sync_on_a_replica_set");
        return;
    };
    round_trip(&uri, "replset");
}
