//! The fleet's drafted models (src/fleet.rs) held to the data they were drafted from: a
//! polymorphic collection drafted as an internally tagged enum, a renamed key below the
//! root, a map keyed by dates, UUIDs binary and string. `schema check` (a mongodump
//! directory, and `--uri` on mongod) refuses exactly the documents the generator planted
//! anomalies in, per path; every other document reads through the driver into the models
//! and writes back unchanged.

use mongo_schema_test_support::legacy_db;

use downstream_infer::fleet::{Device, Event, Session};
mod common;

use common::round_trip;
use mongo_schema::bson::Document;
use std::collections::BTreeMap;

/// `path → documents` the generator planted in `collection`, as `schema check` names the
/// paths (an old key's documents miss the new key).
fn planted(fleet: &legacy_db::Fleet, collection: &str) -> BTreeMap<String, u64> {
    let mut out = BTreeMap::new();
    for ((c, path), n) in &fleet.planted {
        if *c == collection {
            let path = fleet.renamed.get(path).unwrap_or(path);
            *out.entry((*path).to_owned()).or_default() += n;
        }
    }
    out
}

/// `schema check` with the drafted models: the collection's failed count and `path →
/// documents`.
fn check(args: &[&str]) -> (u64, BTreeMap<String, u64>) {
    let models = mongo_schema::migrate::registered_models();
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let args = ["schema", "check"].into_iter().chain(args.iter().copied()).chain(["--format", "json"]);
    let code = mongo_schema::cli::run(&models, args, &mut out, &mut err);
    assert!(code <= 1, "{}", String::from_utf8_lossy(&err));
    let report: serde_json::Value = serde_json::from_slice(&out).unwrap();
    let collection = &report["collections"][0];
    let mut by_path = BTreeMap::new();
    for group in collection["groups"].as_array().unwrap() {
        *by_path.entry(group["path"].as_str().unwrap().to_owned()).or_default() += group["documents"].as_u64().unwrap();
    }
    (collection["failed"].as_u64().unwrap(), by_path)
}

#[test]
fn check_of_the_dump_refuses_exactly_the_planted_anomalies() {
    let fleet = legacy_db::fleet(38);
    let dir = std::env::temp_dir().join(format!("downstream-infer-fleet-{}", std::process::id()));
    let collections: Vec<(&str, Vec<Document>, Vec<Document>)> =
        fleet.collections.iter().map(|(name, docs)| (*name, docs.clone(), Vec::new())).collect();
    let dump = legacy_db::write_bson_dump(&dir, "db_fleet", &collections);
    for (name, _) in &fleet.collections {
        let file = dump.join(format!("{name}.bson"));
        let namespace = format!("db_fleet.{name}");
        let (failed, by_path) = check(&["--collection", &namespace, file.to_str().unwrap()]);
        let dirty = fleet.dirty[name].iter().filter(|d| **d).count() as u64;
        assert_eq!((failed, &by_path), (dirty, &planted(&fleet, name)), "{namespace}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// On mongod: `schema check --uri` counts exactly the planted anomalies, and every clean
/// document round-trips through the driver.
#[test]
fn on_mongod_check_uri_counts_the_planted_anomalies_and_clean_documents_round_trip() {
    let Ok(uri) = std::env::var("MONGODB_URI") else {
        eprintln!(
            "skipped (no MONGODB_URI): on_mongod_check_uri_counts_the_planted_anomalies_and_clean_documents_round_trip"
        );
        return;
    };
    let fleet = legacy_db::fleet(38);
    let client = mongodb::sync::Client::with_uri_str(&uri).unwrap();
    let db = client.database("db_fleet");
    db.drop().run().unwrap();
    for (name, docs) in &fleet.collections {
        db.collection::<Document>(name).insert_many(docs).run().unwrap();
    }
    for (name, _) in &fleet.collections {
        let namespace = format!("db_fleet.{name}");
        let (failed, by_path) = check(&["--uri", &uri, "--collection", &namespace]);
        let dirty = fleet.dirty[name].iter().filter(|d| **d).count() as u64;
        assert_eq!((failed, &by_path), (dirty, &planted(&fleet, name)), "{namespace}");
    }
    let docs = |name: &str| &fleet.collections.iter().find(|(n, _)| *n == name).unwrap().1;
    let mut read = 0;
    read += round_trip::<Device>(&db, "t_device", &fleet.dirty["t_device"], docs("t_device"));
    read += round_trip::<Event>(&db, "t_event", &fleet.dirty["t_event"], docs("t_event"));
    read += round_trip::<Session>(&db, "t_session", &fleet.dirty["t_session"], docs("t_session"));
    let clean = fleet.dirty.values().flatten().filter(|d| !**d).count();
    assert_eq!(read, clean);
    db.drop().run().unwrap();
}
