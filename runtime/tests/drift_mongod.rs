//! `drift` of indexes against the real mongod `scripts/with-mongod.sh` starts
//! (`MONGODB_URI`, and the replica set of `MONGODB_URI_REPLSET`): every index kind is
//! created with its declared specification, listed back as mongod stores it (text keys as
//! `_fts`/`_ftsx` with weights, version fields added, collations filled in), and drift of
//! a model declaring them is in sync; an option changed on the server is reported. Without
//! `MONGODB_URI` each test says it was skipped and passes.
#![forbid(unsafe_code)]
#![cfg(feature = "driver")]

use mongo_schema::bson::{doc, Bson, Document};
use mongo_schema::command::{ValidationAction, ValidationLevel};
use mongo_schema::migrate::drift::{drift, DriftStatus};
use mongo_schema::migrate::driver::MongoServer;
use mongo_schema::migrate::server::Server;
use mongo_schema::migrate::{Model, Options};

/// The deployments the tests run on: the standalone mongod, then the replica set.
fn servers(test: &str) -> Vec<(&'static str, MongoServer)> {
    let found: Vec<_> = ["MONGODB_URI", "MONGODB_URI_REPLSET"]
        .into_iter()
        .filter_map(|var| std::env::var(var).ok().map(|uri| (var, MongoServer::connect(&uri).expect("connect"))))
        .collect();
    if found.is_empty() {
        eprintln!("skipped (no MONGODB_URI): {test}");
    }
    found
}

const VALIDATOR: fn() -> Document = || doc! { "$jsonSchema": { "bsonType": "object" } };

fn model(db: &str, collection: &str, indexes: Vec<Document>) -> Model {
    Model {
        db: db.to_owned(),
        collection: collection.to_owned(),
        rust_type: format!("tests::{collection}"),
        validator: VALIDATOR(),
        level: ValidationLevel::Strict,
        action: ValidationAction::Error,
        options: Options { indexes, ..Options::default() },
        renames: Vec::new(),
        max_document_size: None,
    }
}

/// One index kind per index, as a model declares them (`createIndexes` specifications).
fn kinds() -> Vec<Document> {
    vec![
        doc! { "key": { "subject": "text" }, "name": "ix_text" },
        doc! { "key": { "loc": "2dsphere" }, "name": "ix_sphere" },
        doc! { "key": { "pos": "2d" }, "name": "ix_flat" },
        doc! { "key": { "pos2": "2d" }, "name": "ix_flat_bits", "bits": 20, "min": -500, "max": 500 },
        doc! { "key": { "h": "hashed" }, "name": "ix_hashed" },
        doc! { "key": { "$**": 1 }, "name": "ix_wildcard", "wildcardProjection": { "a": 1, "b.c": 1 } },
        doc! { "key": { "tags.$**": 1 }, "name": "ix_wildcard_path" },
        doc! { "key": { "name": 1 }, "name": "ix_collation", "collation": { "locale": "fr", "strength": 2 } },
        doc! { "key": { "title": 1 }, "name": "ix_collation_da", "collation": { "locale": "da" } },
        doc! { "key": { "email": 1 }, "name": "ix_partial", "unique": true,
        "partialFilterExpression": { "email": { "$exists": true }, "age": { "$gt": 17 } } },
        doc! { "key": { "createdAt": 1 }, "name": "ix_ttl", "expireAfterSeconds": 3600_i64 },
        doc! { "key": { "nick": 1 }, "name": "ix_sparse", "sparse": true },
        doc! { "key": { "old": 1 }, "name": "ix_hidden", "hidden": true },
        doc! { "key": { "code": 1, "at": -1 }, "name": "ix_unique", "unique": true },
    ]
}

/// A compound text index with every text option named.
fn compound_text() -> Vec<Document> {
    vec![doc! {
        "key": { "a": 1, "subject": "text", "body": "text", "z": -1 },
        "name": "ix_text",
        "weights": { "subject": 10 },
        "default_language": "french",
        "language_override": "lang",
    }]
}

/// A wildcard text index, with its defaults written out.
fn wildcard_text() -> Vec<Document> {
    vec![doc! {
        "key": { "$**": "text" },
        "name": "ix_text",
        "weights": { "title": 5, "$**": 1 },
        "default_language": "english",
        "language_override": "language",
    }]
}

/// A fresh collection holding `indexes`, created as a migration creates them.
fn create(server: &mut MongoServer, db: &str, collection: &str, indexes: &[Document]) {
    server.run_command(db, doc! { "drop": collection }).ok();
    server.run_command(db, doc! { "create": collection, "validator": VALIDATOR() }).expect("create");
    server.run_command(db, doc! { "createIndexes": collection, "indexes": indexes.to_vec() }).expect("createIndexes");
}

fn listed(server: &mut MongoServer, db: &str, collection: &str) -> Vec<Document> {
    let reply = server.run_command(db, doc! { "listIndexes": collection }).expect("listIndexes");
    let batch = reply.get_document("cursor").unwrap().get_array("firstBatch").unwrap();
    batch.iter().filter_map(Bson::as_document).cloned().collect()
}

fn index<'a>(list: &'a [Document], name: &str) -> &'a Document {
    list.iter().find(|i| i.get_str("name").ok() == Some(name)).unwrap_or_else(|| panic!("{name} in {list:?}"))
}

fn status(server: &mut MongoServer, model: &Model) -> DriftStatus {
    drift(server, std::slice::from_ref(model)).expect("drift").remove(0).1
}

fn replace(server: &mut MongoServer, db: &str, collection: &str, spec: Document) {
    let name = spec.get_str("name").unwrap().to_owned();
    server.run_command(db, doc! { "dropIndexes": collection, "index": name }).expect("dropIndexes");
    server.run_command(db, doc! { "createIndexes": collection, "indexes": [spec] }).expect("createIndexes");
}

#[test]
fn mongod_lists_indexes_in_its_own_form() {
    for (label, mut server) in servers("mongod_lists_indexes_in_its_own_form") {
        let db = "db_drift_listed";
        create(&mut server, db, "t_kinds", &kinds());
        create(&mut server, db, "t_compound_text", &compound_text());
        let list = listed(&mut server, db, "t_kinds");
        for i in &list {
            eprintln!("{label}: {i}");
        }
        let text = index(&list, "ix_text");
        assert_eq!(text.get_document("key").unwrap(), &doc! { "_fts": "text", "_ftsx": 1 }, "{label}");
        assert_eq!(text.get_document("weights").unwrap(), &doc! { "subject": 1 }, "{label}");
        assert_eq!(text.get_str("default_language").ok(), Some("english"), "{label}");
        assert_eq!(text.get_str("language_override").ok(), Some("language"), "{label}");
        assert!(text.get("textIndexVersion").is_some(), "{label}: {text}");
        assert!(index(&list, "ix_sphere").get("2dsphereIndexVersion").is_some(), "{label}");
        let collation = index(&list, "ix_collation").get_document("collation").unwrap();
        assert_eq!(collation.get_str("locale").ok(), Some("fr"), "{label}");
        for filled in ["caseLevel", "caseFirst", "numericOrdering", "alternate", "maxVariable", "normalization"] {
            assert!(collation.contains_key(filled), "{label}: mongod fills in {filled}: {collation}");
        }
        // `da` sorts upper case first: mongod's defaults depend on the locale
        let danish = index(&list, "ix_collation_da").get_document("collation").unwrap();
        assert_eq!(danish.get_str("caseFirst").ok(), Some("upper"), "{label}: {danish}");
        let compound = listed(&mut server, db, "t_compound_text");
        let text = index(&compound, "ix_text");
        for i in &compound {
            eprintln!("{label}: {i}");
        }
        assert_eq!(
            text.get_document("key").unwrap().keys().collect::<Vec<_>>(),
            ["a", "_fts", "_ftsx", "z"],
            "{label}: {text}"
        );
        assert_eq!(text.get_document("weights").unwrap(), &doc! { "body": 1, "subject": 10 }, "{label}");
        create(&mut server, db, "t_wildcard_text", &wildcard_text());
        let wildcard = listed(&mut server, db, "t_wildcard_text");
        eprintln!("{label}: {}", index(&wildcard, "ix_text"));
        assert_eq!(
            index(&wildcard, "ix_text").get_document("weights").unwrap(),
            &doc! { "$**": 1, "title": 5 },
            "{label}"
        );
        server.run_command(db, doc! { "dropDatabase": 1 }).unwrap();
    }
}

#[test]
fn every_index_kind_is_in_sync_after_its_creation() {
    for (label, mut server) in servers("every_index_kind_is_in_sync_after_its_creation") {
        let db = "db_drift_kinds";
        for (collection, indexes) in
            [("t_kinds", kinds()), ("t_compound_text", compound_text()), ("t_wildcard_text", wildcard_text())]
        {
            create(&mut server, db, collection, &indexes);
            assert_eq!(
                status(&mut server, &model(db, collection, indexes)),
                DriftStatus::InSync,
                "{label}: {collection}"
            );
        }
        server.run_command(db, doc! { "dropDatabase": 1 }).unwrap();
    }
}

#[test]
fn an_option_changed_on_the_server_is_reported() {
    for (label, mut server) in servers("an_option_changed_on_the_server_is_reported") {
        let db = "db_drift_changed";
        create(&mut server, db, "t_kinds", &kinds());
        create(&mut server, db, "t_compound_text", &compound_text());
        let kinds_model = model(db, "t_kinds", kinds());
        let text_model = model(db, "t_compound_text", compound_text());

        // another weight
        let mut heavier = compound_text().remove(0);
        heavier.insert("weights", doc! { "subject": 5 });
        replace(&mut server, db, "t_compound_text", heavier);
        let DriftStatus::Differs(lines) = status(&mut server, &text_model) else { panic!("{label}: in sync") };
        assert_eq!(lines.len(), 1, "{label}: {lines:?}");
        assert!(lines[0].starts_with("index `ix_text`: deployed {"), "{label}: {lines:?}");
        assert!(lines[0].ends_with("(differs: weights.subject)"), "{label}: {lines:?}");

        // another collation strength, and a TTL made longer
        let mut collation = kinds().into_iter().find(|i| i.get_str("name").ok() == Some("ix_collation")).unwrap();
        collation.insert("collation", doc! { "locale": "fr", "strength": 3 });
        replace(&mut server, db, "t_kinds", collation);
        server
            .run_command(db, doc! { "collMod": "t_kinds", "index": { "name": "ix_ttl", "expireAfterSeconds": 7200 } })
            .expect("collMod");
        let DriftStatus::Differs(lines) = status(&mut server, &kinds_model) else { panic!("{label}: in sync") };
        assert_eq!(lines.len(), 2, "{label}: {lines:?}");
        assert!(lines[0].starts_with("index `ix_collation`: deployed {"), "{label}: {lines:?}");
        assert!(lines[0].ends_with("(differs: collation.strength)"), "{label}: {lines:?}");
        assert!(lines[1].ends_with("(differs: expireAfterSeconds)"), "{label}: {lines:?}");

        // a text index on another field, a wildcard projection and a hashed key on another path
        create(&mut server, db, "t_kinds", &kinds());
        let mut changed = kinds();
        changed[0].insert("key", doc! { "body": "text" });
        changed[5].insert("wildcardProjection", doc! { "a": 1 });
        changed[4].insert("key", doc! { "h2": "hashed" });
        let DriftStatus::Differs(lines) = status(&mut server, &model(db, "t_kinds", changed)) else {
            panic!("{label}: in sync")
        };
        assert_eq!(lines.len(), 3, "{label}: {lines:?}");
        assert!(lines[0].ends_with("(differs: weights.body, weights.subject)"), "{label}: {lines:?}");
        assert!(lines[1].ends_with("(differs: key)"), "{label}: {lines:?}");
        assert!(lines[2].ends_with("(differs: wildcardProjection.b.c)"), "{label}: {lines:?}");
        server.run_command(db, doc! { "dropDatabase": 1 }).unwrap();
    }
}
