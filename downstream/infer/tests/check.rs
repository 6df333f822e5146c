//! The drafted models held to the data they were drafted from: `schema check` with them
//! refuses exactly the documents the generator planted anomalies in (per path, the
//! planted counts), nothing of the clean collection, and every other document reads into
//! the models and writes back unchanged.

mod common;
use mongo_schema_test_support::legacy_db;

use downstream_infer::drafted::{Customers, Order};
use mongo_schema::bson::{from_document, to_document, Document};
use std::collections::BTreeMap;

fn check(namespace: &str, file: &std::path::Path) -> serde_json::Value {
    let models = mongo_schema::migrate::registered_models();
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let args = ["schema", "check", "--collection", namespace, file.to_str().unwrap(), "--format", "json"];
    let code = mongo_schema::cli::run(&models, args, &mut out, &mut err);
    assert!(code <= 1, "{}", String::from_utf8_lossy(&err));
    serde_json::from_slice(&out).unwrap()
}

#[test]
fn check_refuses_exactly_the_planted_anomalies() {
    let legacy = legacy_db::legacy(37);
    let dir = std::env::temp_dir().join(format!("downstream-infer-check-{}", std::process::id()));
    let db = legacy_db::write_dump(&dir, &legacy.orders, &legacy.customers);

    let orders = check("db_legacy.t_order", &db.join("t_order.json"));
    let collection = &orders["collections"][0];
    assert_eq!(collection["documents"], legacy_db::ORDERS);
    let dirty = legacy.dirty.iter().filter(|d| **d).count() as u64;
    assert_eq!(collection["failed"], dirty, "{collection:#}");
    let mut by_path: BTreeMap<String, u64> = BTreeMap::new();
    for group in collection["groups"].as_array().unwrap() {
        *by_path.entry(group["path"].as_str().unwrap().to_owned()).or_default() += group["documents"].as_u64().unwrap();
    }
    // the old key's documents miss the new one
    let mut expected: BTreeMap<String, u64> = BTreeMap::new();
    for (path, n) in &legacy.planted {
        let path = if *path == "shipTo" { "shippingAddress" } else { path };
        expected.insert(path.to_owned(), *n);
    }
    assert_eq!(by_path, expected, "{collection:#}");

    let customers = check("db_legacy.customers", &db.join("customers.json"));
    assert_eq!(customers["collections"][0]["documents"], legacy_db::CUSTOMERS);
    assert_eq!(customers["collections"][0]["failed"], 0);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_models_round_trip_every_clean_document() {
    let legacy = legacy_db::legacy(37);
    let clean = legacy.orders.iter().zip(&legacy.dirty).filter(|(_, dirty)| !**dirty).map(|(doc, _)| doc);
    let read = common::local_round_trip::<Order>(clean, "t_order");
    assert!(read > 100, "{read} clean orders");
    // the clean collection writes back exactly, byte type for byte type
    for doc in &legacy.customers {
        let customer: Customers = from_document(doc.clone()).unwrap();
        assert_eq!(&to_document(&customer).unwrap(), doc);
    }
}

/// The same on a deployment: `schema check --uri` (the server selects the failing
/// documents) with the drafted models counts exactly the planted anomalies.
#[test]
fn check_uri_on_mongod_refuses_exactly_the_planted_anomalies() {
    let Ok(uri) = std::env::var("MONGODB_URI") else {
        eprintln!("skipped (no MONGODB_URI): check_uri_on_mongod_refuses_exactly_the_planted_anomalies");
        return;
    };
    let legacy = legacy_db::legacy(37);
    let client = mongodb::sync::Client::with_uri_str(&uri).unwrap();
    let db = client.database("db_legacy");
    db.drop().run().unwrap();
    db.collection::<Document>("t_order").insert_many(&legacy.orders).run().unwrap();
    db.collection::<Document>("customers").insert_many(&legacy.customers).run().unwrap();

    let models = mongo_schema::migrate::registered_models();
    let check = |namespace: &str| {
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let args = ["schema", "check", "--uri", &uri, "--collection", namespace, "--format", "json"];
        let code = mongo_schema::cli::run(&models, args, &mut out, &mut err);
        assert!(code <= 1, "{}", String::from_utf8_lossy(&err));
        serde_json::from_slice::<serde_json::Value>(&out).unwrap()
    };
    let orders = check("db_legacy.t_order");
    let collection = &orders["collections"][0];
    let dirty = legacy.dirty.iter().filter(|d| **d).count() as u64;
    assert_eq!(collection["failed"], dirty, "{collection:#}");
    let mut by_path: BTreeMap<String, u64> = BTreeMap::new();
    for group in collection["groups"].as_array().unwrap() {
        *by_path.entry(group["path"].as_str().unwrap().to_owned()).or_default() += group["documents"].as_u64().unwrap();
    }
    let expected: BTreeMap<String, u64> = legacy
        .planted
        .iter()
        .map(|(path, n)| ((if *path == "shipTo" { "shippingAddress" } else { path }).to_owned(), *n))
        .collect();
    assert_eq!(by_path, expected, "{collection:#}");
    assert_eq!(check("db_legacy.customers")["collections"][0]["failed"], 0);
    // every clean document reads through the driver into the models and writes back unchanged
    let read = common::round_trip::<Order>(&db, "t_order", &legacy.dirty, &legacy.orders)
        + common::round_trip::<Customers>(&db, "customers", &vec![false; legacy.customers.len()], &legacy.customers);
    assert_eq!(read, legacy.dirty.iter().filter(|d| !**d).count() + legacy.customers.len());
    db.drop().run().unwrap();
}
