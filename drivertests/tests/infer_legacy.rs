//! `schema infer` over a legacy database made by a seeded generator: mixed int32 / int64 /
//! double, string dates beside BSON dates, a renamed key, enum-like strings, a map keyed by
//! ObjectIds, optional and null fields, nested arrays, binary UUIDs, and a clean collection.
//! The generator knows the anomalies it planted; the report must count exactly those.
//! The drafted file is `downstream/infer/src/drafted.rs` (built by scripts/test.sh):
//! `UPDATE_INFER=1` rewrites it.
#![forbid(unsafe_code)]

use mongo_schema_test_support::legacy_db;

use legacy_db::{legacy, write_dump, ORDERS};
use mongo_schema::bson::doc;
use mongo_schema::bson::Document;
use mongo_schema::cli::run;
use std::collections::BTreeMap;
use std::path::Path;

fn schema(args: &[&str]) -> (i32, String, String) {
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = run(&[], std::iter::once("schema").chain(args.iter().copied()), &mut out, &mut err);
    (code, String::from_utf8(out).unwrap(), String::from_utf8(err).unwrap())
}

fn infer_files(db: &Path) -> (String, serde_json::Value) {
    let files = [db.join("customers.json"), db.join("t_order.json")];
    let report = db.join("report.json");
    let args: Vec<String> = ["infer".to_owned()]
        .into_iter()
        .chain(files.iter().map(|f| f.display().to_string()))
        .chain(["--format".into(), "json".into(), "--report".into(), report.display().to_string()])
        .collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (code, out, err) = schema(&args);
    assert_eq!(code, 0, "{err}");
    let report = serde_json::from_str(&std::fs::read_to_string(report).unwrap()).unwrap();
    (out, report)
}

/// `path → documents` of a collection's anomalies in a JSON report.
fn anomalies(report: &serde_json::Value, namespace: &str) -> BTreeMap<String, u64> {
    let collection = report["collections"].as_array().unwrap().iter().find(|c| c["namespace"] == namespace).unwrap();
    let mut found = BTreeMap::new();
    for a in collection["anomalies"].as_array().unwrap() {
        *found.entry(a["path"].as_str().unwrap().to_owned()).or_default() += a["documents"].as_u64().unwrap();
    }
    found
}

fn bson_bytes(docs: &[mongo_schema::bson::Document]) -> Vec<u8> {
    let mut out = Vec::new();
    for d in docs {
        d.to_writer(&mut out).unwrap();
    }
    out
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    encoder.write_all(bytes).unwrap();
    encoder.finish().unwrap()
}

/// A `mongodump --archive` of the two collections, their segments interleaved.
fn legacy_archive(orders: &[mongo_schema::bson::Document], customers: &[mongo_schema::bson::Document]) -> Vec<u8> {
    use mongo_schema::bson::doc;
    let header = |c: &str, eof: bool| doc! { "db": "db_legacy", "collection": c, "EOF": eof, "CRC": 0_i64 };
    let metadata = |c: &str| doc! { "db": "db_legacy", "collection": c, "metadata": "{\"indexes\":[]}", "size": 0 };
    let prelude =
        doc! { "concurrent_collections": 4, "version": "0.1", "server_version": "6.0.5", "tool_version": "100.7.0" };
    let end = [0xffu8; 4].to_vec();
    let half = orders.len() / 2;
    [
        mongo_schema::dump::ARCHIVE_MAGIC.to_vec(),
        bson_bytes(&[prelude, metadata("customers"), metadata("t_order")]),
        end.clone(),
        bson_bytes(&[header("t_order", false)]),
        bson_bytes(&orders[..half]),
        end.clone(),
        bson_bytes(&[header("customers", false)]),
        bson_bytes(customers),
        end.clone(),
        bson_bytes(&[header("t_order", false)]),
        bson_bytes(&orders[half..]),
        end.clone(),
        bson_bytes(&[header("customers", true)]),
        end.clone(),
        bson_bytes(&[header("t_order", true)]),
        end,
    ]
    .concat()
}

/// The drafted file `path` (compiled by downstream/infer) is `source`, what infer drafts
/// from `data` now; `UPDATE_INFER=1` writes it.
fn assert_committed(path: &str, source: &str, data: &str) {
    if std::env::var_os("UPDATE_INFER").is_some() {
        std::fs::write(path, source).unwrap();
    }
    let committed = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        committed == source,
        "{path} is not what infer drafts from {data}: run `UPDATE_INFER=1 cargo test -p mongo-schema-driver-tests --test it infer_legacy::`"
    );
}

const DRAFTED: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../downstream/infer/src/drafted.rs");

#[test]
fn drafts_the_target_shapes_and_counts_the_planted_anomalies() {
    let dir = tempfile::tempdir().unwrap();
    let legacy_db::Legacy { orders, customers, planted, .. } = legacy(37);
    let db = write_dump(dir.path(), &orders, &customers);
    let (source, report) = infer_files(&db);

    // what the issue asks of each shape
    for expected in [
        "#[mongo(db = \"db_legacy\", collection = \"t_order\")]",
        "pub order_no: i64,",
        "pub quantity: i32,",
        "#[serde(rename_all = \"camelCase\")]\n#[mongo(db = \"db_legacy\", collection = \"t_order\")]\npub struct Order {",
        "#[serde(with = \"mongo_schema::serde_helpers::decimal128\")]\n    pub total_amount: rust_decimal::Decimal,",
        "pub create_time: mongo_schema::bson::DateTime,",
        "pub status: OrderStatus,",
        "pub customer_id: mongo_schema::bson::oid::ObjectId,",
        "#[mongo(renamed_from = \"shipTo\")]",
        "pub shipping_address: OrderShippingAddress,",
        "#[serde(skip_serializing_if = \"Option::is_none\")]\n    pub remark: Option<String>,",
        "pub coupon_code: Option<String>,",
        "#[serde(skip_serializing_if = \"Option::is_none\")]\n    #[mongo(nullable)]\n    pub gift_message: Option<String>,",
        "#[mongo(max_items = 20)]\n    pub items: Vec<OrderItems>,",
        "#[mongo(max_items = 2, items(max_items = 2))]\n    pub box_sizes: Vec<Vec<mongo_schema::bson::Bson>>,",
        "#[mongo(max_properties = 5)]\n    pub stock_by_warehouse: std::collections::BTreeMap<String, i32>,",
        "with = \"mongo_schema::serde_helpers::uuid_binary_option\", default)]\n    pub tracking_id: Option<uuid::Uuid>,",
        "#[mongo(db = \"db_legacy\", collection = \"customers\", allow(collection_name,",
        "/// 400 of 400: int32 67%, int64 34%.",
    ] {
        assert!(source.contains(expected), "missing {expected:?} in:\n{source}");
    }
    // the coupon code is only null, never missing: required and nullable
    assert!(!source.contains("skip_serializing_if = \"Option::is_none\")]\n    pub coupon_code"), "{source}");

    // exactly the planted anomalies, none on the clean collection
    let mut expected: BTreeMap<String, u64> = planted.iter().map(|(k, v)| ((*k).to_owned(), *v)).collect();
    expected.retain(|_, v| *v > 0);
    assert_eq!(anomalies(&report, "db_legacy.t_order"), expected);
    assert_eq!(anomalies(&report, "db_legacy.customers"), BTreeMap::new());
    let candidates = report["collections"][1]["candidates"].as_array().unwrap();
    assert!(candidates.iter().any(|c| c["kind"] == "rename" && c["path"] == "shippingAddress"), "{candidates:?}");
    assert!(candidates.iter().any(|c| c["kind"] == "map" && c["path"] == "stockByWarehouse"), "{candidates:?}");
    assert_eq!(report["collections"][1]["read"], ORDERS);

    // the same input, the same file, byte for byte
    let (again, _) = infer_files(&db);
    assert_eq!(source, again);

    // the same documents as a mongodump directory (.bson, one gzipped) and as an archive
    let dump = dir.path().join("dump");
    std::fs::create_dir_all(dump.join("db_legacy")).unwrap();
    std::fs::write(dump.join("db_legacy/t_order.bson"), bson_bytes(&orders)).unwrap();
    std::fs::write(dump.join("db_legacy/customers.bson.gz"), gzip(&bson_bytes(&customers))).unwrap();
    let (code, from_dir, err) = schema(&["infer", dump.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(from_dir, source);
    let archive = dir.path().join("legacy.archive");
    std::fs::write(&archive, legacy_archive(&orders, &customers)).unwrap();
    let (code, from_archive, err) = schema(&["infer", archive.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(from_archive, source);
    let (code, only_orders, err) = schema(&["infer", archive.to_str().unwrap(), "--collection", "t_order"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        only_orders.contains("pub struct Order {") && !only_orders.contains("pub struct Customers"),
        "{only_orders}"
    );

    // the drafted file the downstream crate compiles is this one
    assert_committed(DRAFTED, &source, "the generator");
}

#[test]
fn an_empty_collection_is_reported_and_a_bad_input_exits_2() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("db_shop");
    std::fs::create_dir_all(&db).unwrap();
    std::fs::write(db.join("t_empty.json"), "").unwrap();
    let file = db.join("t_empty.json");
    let (code, out, err) = schema(&["infer", file.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("pub struct Empty {"), "{out}");
    assert!(err.contains("db_shop.t_empty (0 documents read)"), "{err}");
    assert!(err.contains("the collection is empty"), "{err}");

    std::fs::write(db.join("t_bad.json"), "{\"a\": 1}\n{not json\n").unwrap();
    let (code, _, err) = schema(&["infer", db.join("t_bad.json").to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.starts_with("schema: ") && err.contains("t_bad.json"), "{err}");

    let (code, _, err) = schema(&["infer", file.to_str().unwrap(), "--all"]);
    assert_eq!(code, 2);
    assert!(err.contains("need --uri"), "{err}");
}

/// The live side: the generator's database on mongod, drafted with `--all`, gives the dump's
/// models; a `$sample` reads at most its size; nothing on the server changes.
#[test]
fn live_all_matches_the_dump_and_changes_nothing() {
    let Ok(uri) = std::env::var("MONGODB_URI") else {
        eprintln!("skipped (no MONGODB_URI): live_all_matches_the_dump_and_changes_nothing");
        return;
    };
    use mongodb::sync::Client;
    let client = Client::with_uri_str(&uri).unwrap();
    let db_name = "db_legacy";
    let db = client.database(db_name);
    db.drop().run().unwrap();
    let legacy_db::Legacy { orders, customers, planted, .. } = legacy(37);
    db.collection::<Document>("t_order").insert_many(orders.clone()).run().unwrap();
    db.collection::<Document>("customers").insert_many(customers.clone()).run().unwrap();
    let state = |db: &mongodb::sync::Database| {
        let mut all = Vec::new();
        for name in ["customers", "t_order"] {
            let c = db.collection::<Document>(name);
            let docs: Vec<Document> =
                c.find(doc! {}).sort(doc! { "_id": 1 }).run().unwrap().map(Result::unwrap).collect();
            let indexes: Vec<String> = c.list_index_names().run().unwrap();
            all.push((docs, indexes));
        }
        let names = db.list_collection_names().run().unwrap();
        (all, names)
    };
    let before = state(&db);

    let dir = tempfile::tempdir().unwrap();
    let dump = write_dump(dir.path(), &orders, &customers);
    let (from_dump, _) = infer_files(&dump);
    let report = dir.path().join("live.json");
    let (code, from_live, err) = schema(&[
        "infer",
        "--uri",
        &uri,
        "--db",
        db_name,
        "--all",
        "--format",
        "json",
        "--report",
        report.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    // the live header counts what the collection holds
    let from_live_models = from_live
        .replace(" of 400 documents read.", " documents read.")
        .replace(" of 50 documents read.", " documents read.");
    assert_eq!(from_live_models, from_dump);
    let report: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    let expected: BTreeMap<String, u64> = planted.iter().map(|(k, v)| ((*k).to_owned(), *v)).collect();
    assert_eq!(anomalies(&report, "db_legacy.t_order"), expected);
    assert_eq!(report["collections"][1]["total"], ORDERS);

    // a sample reads at most its size, and says of how many
    let (code, _, err) =
        schema(&["infer", "--uri", &uri, "--db", db_name, "--collection", "t_order", "--sample", "100"]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("db_legacy.t_order (100 of 400 documents read)"), "{err}");

    // indexes become attributes
    db.collection::<Document>("customers")
        .create_index(
            mongodb::IndexModel::builder()
                .keys(doc! { "email": 1 })
                .options(mongodb::options::IndexOptions::builder().unique(true).build())
                .build(),
        )
        .run()
        .unwrap();
    let (code, out, err) = schema(&["infer", "--uri", &uri, "--db", db_name, "--collection", "customers"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("index(keys(\"email\" = 1), unique, name = \"email_1\")"), "{out}");

    // errors: a database with no collection, a collection that is not there, no server
    let (code, _, err) = schema(&["infer", "--uri", &uri, "--db", "db_nothing_here_37"]);
    assert_eq!(code, 2);
    assert!(err.contains("database db_nothing_here_37 has no collection"), "{err}");
    let (code, _, err) = schema(&["infer", "--uri", &uri, "--db", db_name, "--collection", "t_missing"]);
    assert_eq!(code, 2);
    assert!(err.contains("no collection t_missing in db_legacy"), "{err}");
    let (code, _, err) =
        schema(&["infer", "--uri", "mongodb://127.0.0.1:1/?serverSelectionTimeoutMS=300", "--db", db_name]);
    assert_eq!(code, 2);
    assert!(err.contains("cannot list the collections of db_legacy") && err.contains("127.0.0.1:1"), "{err}");

    // read only: the documents, indexes and collections as they were (the one index added above aside)
    db.collection::<Document>("customers").drop_index("email_1").run().unwrap();
    assert_eq!(state(&db), before);
    db.drop().run().unwrap();
}

/// A user who may not read the database: exit 2, with the server's refusal.
#[test]
fn a_database_the_user_may_not_read_exits_2_with_the_cause() {
    let Ok(uri) = std::env::var("MONGODB_URI_AUTH_READ") else {
        eprintln!("skipped (no MONGODB_URI): a_database_the_user_may_not_read_exits_2_with_the_cause");
        return;
    };
    // `reader` has `read` on db_app only
    let (code, out, err) = schema(&["infer", "--uri", &uri, "--db", "db_secret_37"]);
    assert_eq!((code, out.as_str()), (2, ""), "{err}");
    assert!(err.contains("cannot list the collections of db_secret_37"), "{err}");
    assert!(err.to_lowercase().contains("not authorized") || err.contains("Unauthorized"), "{err}");
    // the password is never printed
    let password = uri.split_once("reader:").and_then(|(_, rest)| rest.split_once('@')).map(|(pw, _)| pw).unwrap();
    assert!(!password.is_empty() && !err.contains(password), "{err}");
}

const FLEET_DRAFTED: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../downstream/infer/src/fleet.rs");

/// The fleet's indexes, as `listIndexes` lists them (mongodump writes the same in each
/// collection's `.metadata.json`).
fn fleet_indexes(collection: &str) -> Vec<Document> {
    use mongo_schema::bson::doc;
    let id = doc! { "v": 2, "key": { "_id": 1 }, "name": "_id_" };
    match collection {
        "t_device" => vec![
            id,
            doc! { "v": 2, "key": { "serialNumber": 1 }, "name": "serialNumber_1", "unique": true },
            doc! { "v": 2, "key": { "retiredAt": 1 }, "name": "retiredAt_1", "partialFilterExpression": { "retiredAt": { "$exists": true } } },
        ],
        "t_event" => {
            vec![id, doc! { "v": 2, "key": { "deviceId": 1, "occurredAt": -1 }, "name": "deviceId_1_occurredAt_-1" }]
        }
        _ => {
            vec![id, doc! { "v": 2, "key": { "startedAt": 1 }, "name": "startedAt_1", "expireAfterSeconds": 2_592_000 }]
        }
    }
}

/// `schema infer` of the fleet's mongodump directory (`.bson` and `.metadata.json` files):
/// the models, and the JSON report.
fn infer_fleet_dump(dir: &Path) -> (String, serde_json::Value) {
    let fleet = legacy_db::fleet(38);
    let collections: Vec<(&str, Vec<Document>, Vec<Document>)> =
        fleet.collections.iter().map(|(name, docs)| (*name, docs.clone(), fleet_indexes(name))).collect();
    let dump = legacy_db::write_bson_dump(dir, "db_fleet", &collections);
    let report = dir.join("fleet-report.json");
    let (code, source, err) =
        schema(&["infer", dump.to_str().unwrap(), "--format", "json", "--report", report.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    (source, serde_json::from_str(&std::fs::read_to_string(report).unwrap()).unwrap())
}

#[test]
fn a_polymorphic_collection_becomes_a_tagged_enum_and_nested_renames_are_found() {
    let dir = tempfile::tempdir().unwrap();
    let fleet = legacy_db::fleet(38);
    let (source, report) = infer_fleet_dump(dir.path());
    for expected in [
        "#[serde(tag = \"type\")]\n#[mongo(db = \"db_fleet\", collection = \"t_event\", index(keys(\"deviceId\" = 1, \"occurredAt\" = -1), name = \"deviceId_1_occurredAt_-1\"))]\npub enum Event {",
        "    #[serde(rename = \"purchase\")]\n    Purchase {",
        "        #[serde(with = \"mongo_schema::serde_helpers::decimal128\")]\n        amount: rust_decimal::Decimal,",
        "        currency: EventPurchaseCurrency,",
        "    #[serde(rename = \"logout\")]\n    Logout {",
        "#[serde(rename_all = \"camelCase\")]\n#[mongo(db = \"db_fleet\", collection = \"t_device\"",
        "index(keys(\"serialNumber\" = 1), unique, name = \"serialNumber_1\")",
        "partial = r#\"{\"retiredAt\":{\"$exists\":true}}\"#",
        "index(keys(\"startedAt\" = 1), name = \"startedAt_1\", ttl = 2592000)",
        "    /// Renamed from `tempUnit`, which `alias` still reads: migrations rename root fields only, so a data migration (`schema new-data --contract`) moves these.\n    #[serde(alias = \"tempUnit\")]\n    pub temperature_unit: DeviceSettingsTemperatureUnit,",
        "    pub daily_usage: std::collections::BTreeMap<String, i32>,",
        "    pub readings: Vec<Vec<mongo_schema::bson::Bson>>,",
        "    pub trace_id: String,",
        "    pub device_id: uuid::Uuid,",
    ] {
        assert!(source.contains(expected), "missing {expected:?} in:\n{source}");
    }
    for (collection, _) in &fleet.collections {
        let namespace = format!("db_fleet.{collection}");
        let expected: BTreeMap<String, u64> = fleet
            .planted
            .iter()
            .filter(|((c, _), _)| c == collection)
            .map(|((_, path), n)| ((*path).to_owned(), *n))
            .collect();
        assert_eq!(anomalies(&report, &namespace), expected, "{namespace}");
    }
    let events =
        report["collections"].as_array().unwrap().iter().find(|c| c["namespace"] == "db_fleet.t_event").unwrap();
    assert!(
        events["candidates"].as_array().unwrap().iter().any(|c| c["kind"] == "discriminator" && c["path"] == "type"),
        "{events:#}"
    );
    // the same input, the same file
    let again = tempfile::tempdir().unwrap();
    assert_eq!(infer_fleet_dump(again.path()).0, source);

    assert_committed(FLEET_DRAFTED, &source, "the fleet");
}

/// The fleet on mongod, with its indexes: `--all` drafts the dump's models (its indexes
/// read by `listIndexes` as the dump's from `.metadata.json`), and afterwards every
/// collection's checksum (`dbHash`) and index is as it was.
#[test]
fn the_fleet_live_gives_the_dump_models_and_changes_no_checksum() {
    let Ok(uri) = std::env::var("MONGODB_URI") else {
        eprintln!("skipped (no MONGODB_URI): the_fleet_live_gives_the_dump_models_and_changes_no_checksum");
        return;
    };
    let client = mongodb::sync::Client::with_uri_str(&uri).unwrap();
    let db = client.database("db_fleet_infer");
    db.drop().run().unwrap();
    let fleet = legacy_db::fleet(38);
    for (name, docs) in &fleet.collections {
        db.collection::<Document>(name).insert_many(docs).run().unwrap();
        let indexes: Vec<Document> =
            fleet_indexes(name).into_iter().filter(|i| i.get_str("name").ok() != Some("_id_")).collect();
        db.run_command(doc! { "createIndexes": *name, "indexes": indexes }).run().unwrap();
    }
    let hashes = |db: &mongodb::sync::Database| {
        let hash = db.run_command(doc! { "dbHash": 1 }).run().unwrap();
        let indexes: Vec<Vec<Document>> = fleet
            .collections
            .iter()
            .map(|(name, _)| {
                let reply = db.run_command(doc! { "listIndexes": *name }).run().unwrap();
                let batch = reply.get_document("cursor").unwrap().get_array("firstBatch").unwrap();
                batch.iter().map(|i| i.as_document().unwrap().clone()).collect()
            })
            .collect();
        (hash.get_document("collections").unwrap().clone(), indexes)
    };
    let before = hashes(&db);

    let dir = tempfile::tempdir().unwrap();
    let (from_dump, _) = infer_fleet_dump(dir.path());
    let (code, from_live, err) = schema(&["infer", "--uri", &uri, "--db", "db_fleet_infer", "--all"]);
    assert_eq!(code, 0, "{err}");
    let mut from_live = from_live.replace("db_fleet_infer", "db_fleet");
    for (_, docs) in &fleet.collections {
        from_live = from_live.replace(&format!(" of {} documents read.", docs.len()), " documents read.");
    }
    assert_eq!(from_live, from_dump);
    assert!(err.contains("db_fleet_infer.t_event (600 of 600 documents read)"), "{err}");
    assert_eq!(hashes(&db), before, "infer changed a document or an index");
    db.drop().run().unwrap();
}

const EDGES_DRAFTED: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../downstream/infer/src/edges.rs");

/// Hostile keys, values and shapes (legacy_db::edges): the draft compiles unchanged in the
/// downstream crate (with -D warnings), every key a field cannot have is reported.
#[test]
fn hostile_keys_and_values_draft_a_file_that_compiles() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("db_edge");
    std::fs::create_dir_all(&db).unwrap();
    let mut files = Vec::new();
    for (name, docs) in legacy_db::edges() {
        let text: String = docs
            .iter()
            .map(|d| format!("{}\n", mongo_schema::bson::Bson::Document(d.clone()).into_canonical_extjson()))
            .collect();
        let file = db.join(format!("{name}.json"));
        std::fs::write(&file, text).unwrap();
        files.push(file.display().to_string());
    }
    let args: Vec<&str> = std::iter::once("infer").chain(files.iter().map(String::as_str)).collect();
    let (code, source, err) = schema(&args);
    assert_eq!(code, 0, "{err}");
    for expected in [
        "pub self_: i32,",
        "pub gen_: i32,",
        "pub yield_: i32,",
        "pub box_: i32,",
        "pub f_2fa: bool,",
        "#[serde(tag = \"kind\")]",
        // issue 47: a first letter that is not ASCII is kept, as ASCII
        "    #[serde(rename = \"Österreichische Bundesliga\")]\n    OsterreichischeBundesliga,",
        "    #[serde(rename = \"Ærøskøbing\")]\n    Aeroskobing,",
        "    #[serde(rename = \"Łódź\")]\n    Lodz,",
        "    #[serde(rename = \"東京\")]\n    U6771u4eac,",
        // issue 47: one repeated value is a String, not an enum of one variant
        "    /// Every string read is \"t\": a String, not an enum of one variant.\n    #[serde(rename = \"type\")]\n    pub type_: String,",
        "    #[serde(rename = \"naïve\")]\n    pub naive: String,",
    ] {
        assert!(source.contains(expected), "missing {expected:?} in:\n{source}");
    }
    assert!(!source.contains("pub struct Self ") && !source.contains("    Self,"), "{source}");
    // a line break in a key is escaped in the report and in the comments, never printed raw
    assert!(err.contains("    line\\nbreak: 40 of 40: int32"), "{err}");
    assert!(source.contains("#[serde(rename = \"line\\nbreak\")]"), "{source}");
    assert_committed(EDGES_DRAFTED, &source, "the edge cases");
}

/// The inference state of `documents`, as `schema infer` builds it from a dump.
fn infer_input(db: &str, collection: &str, g: &legacy_db::Generated) -> mongo_schema::infer::Input {
    let mut stats = mongo_schema::infer::Collection::default();
    for d in &g.documents {
        stats.observe(&mongo_schema::bson::RawDocumentBuf::try_from(d).unwrap()).unwrap();
    }
    mongo_schema::infer::Input {
        db: db.into(),
        collection: collection.into(),
        stats,
        total: None,
        indexes: g.indexes.clone(),
        validator: g.options.get_document("validator").ok().cloned(),
        validation_level: g.options.get_str("validationLevel").ok().map(str::to_owned),
        validation_action: g.options.get_str("validationAction").ok().map(str::to_owned),
    }
}

/// The collection `namespace` of a JSON report.
fn reported<'a>(report: &'a serde_json::Value, namespace: &str) -> &'a serde_json::Value {
    report["collections"].as_array().unwrap().iter().find(|c| c["namespace"] == namespace).unwrap()
}

/// The first string literal after `after` in `line`.
fn literal_after<'a>(line: &'a str, after: &str) -> Option<&'a str> {
    let at = line.find(after)? + after.len();
    line[at..].strip_prefix('"')?.split('"').next()
}

/// Per tag value, the keys of its variant, each with whether it is required.
type Variants = BTreeMap<String, BTreeMap<String, bool>>;

/// The internally tagged enum of a drafted file, read back from its text: its tag and, per
/// tag value, each key its variant writes with whether it is required (not an `Option`).
fn tagged_enum(source: &str) -> Option<(String, Variants)> {
    let start = source.find("#[serde(tag = ")?;
    let tag = literal_after(&source[start..], "#[serde(tag = ")?.to_owned();
    let body = &source[start..];
    let body = &body[..body.find("\n}\n")?];
    let mut variants = Variants::new();
    let (mut value, mut key) = (None::<String>, None::<String>);
    for line in body.lines() {
        if let Some(v) = line.strip_prefix("    #[serde(rename = ").and_then(|_| literal_after(line, "rename = ")) {
            value = Some(v.to_owned());
        } else if let Some(field) = line.strip_prefix("        ") {
            if field.starts_with("#[serde(") {
                key = literal_after(field, "rename = ").map(str::to_owned).or(key);
            } else if let Some((ident, ty)) = field.split_once(": ").filter(|_| !field.starts_with("//")) {
                let key = key.take().unwrap_or_else(|| ident.to_owned());
                let variant = variants.entry(value.clone().expect("a field in a variant")).or_default();
                variant.insert(key, !ty.starts_with("Option<"));
            }
        }
    }
    Some((tag, variants))
}

/// Issue 46: the direction of a rename, over every combination of the case of the level's
/// other keys, the case of the database's other collection, which side is more frequent and
/// what the deployment names, each with its own seed. The direction is decided by the
/// deployment (an index or the validator naming a key makes it the new one), then the case of
/// the level's other keys, then the database's, then frequency; the report says which.
#[test]
fn the_direction_of_a_rename_follows_the_deployment_then_the_case_then_frequency() {
    use legacy_db::{Deployed, RenameCase, Style};
    let mut seed = 100;
    let mut decided_by: BTreeMap<&str, u32> = BTreeMap::new();
    for new_camel in [true, false] {
        for others in [Style::Camel, Style::Snake, Style::Single] {
            for new_percent in [35, 60] {
                for deployed in [
                    Deployed::TtlOnNew,
                    Deployed::ValidatorOnNew,
                    Deployed::Unrelated,
                    Deployed::Both,
                    Deployed::Nothing,
                ] {
                    for (database, added) in [None, Some(Style::Camel), Some(Style::Snake), Some(Style::Single)]
                        .into_iter()
                        .flat_map(|d| [(d, false), (d, true)])
                    {
                        seed += 1;
                        let case = RenameCase { new_camel, others, new_percent, deployed, database, added };
                        let generated = legacy_db::renamed_events(&case, seed);
                        let mut inputs = vec![infer_input("db_events", "events", &generated)];
                        if let Some(style) = database {
                            let users = legacy_db::Generated {
                                documents: legacy_db::users(style, seed),
                                indexes: Vec::new(),
                                options: Document::new(),
                                planted: BTreeMap::new(),
                                dirty: Vec::new(),
                            };
                            inputs.push(infer_input("db_events", "users", &users));
                        }
                        // what decides, in order, and the side it makes the new one
                        // (an added key is in the new case: alone, it gives the level its case)
                        let level = match (others, added) {
                            (Style::Single, true) => Some(new_camel),
                            (Style::Single, false) => None,
                            (style, _) => Some(style == Style::Camel),
                        };
                        let (camel_new, why) = match (deployed, level, database) {
                            (Deployed::TtlOnNew | Deployed::ValidatorOnNew, _, _) => (new_camel, "the deployment"),
                            (_, Some(camel), _) => (camel, "the level's case"),
                            (_, _, Some(Style::Camel)) => (true, "the database's case"),
                            (_, _, Some(Style::Snake)) => (false, "the database's case"),
                            _ => (new_camel == (new_percent > 50), "frequency"),
                        };
                        *decided_by.entry(why).or_default() += 1;
                        let drafted = mongo_schema::infer::draft(&inputs);
                        let report = mongo_schema::infer::render_json(&drafted);
                        let source = &drafted.source;
                        let at = format!("{case:?} seed {seed}");
                        let events = reported(&report, "db_events.events");
                        let mut old_holders = BTreeMap::new();
                        for (camel, snake) in legacy_db::RENAMED {
                            let (new, old) = if camel_new { (camel, snake) } else { (snake, camel) };
                            assert!(
                                source.contains(&format!("#[mongo(renamed_from = \"{old}\")]")),
                                "{at}: {new} from {old}:\n{source}"
                            );
                            assert!(!source.contains(&format!("renamed_from = \"{new}\"")), "{at}:\n{source}");
                            let candidate = events["candidates"]
                                .as_array()
                                .unwrap()
                                .iter()
                                .find(|c| c["kind"] == "rename" && c["path"] == new)
                                .unwrap_or_else(|| panic!("{at}: no rename to {new}: {events:#}"));
                            let note = candidate["note"].as_str().unwrap();
                            assert!(note.contains(&format!("the new key decided by {why}")), "{at}: {note}");
                            let holders = generated.documents.iter().filter(|d| d.contains_key(old)).count() as u64;
                            old_holders.insert(old.to_owned(), holders);
                        }
                        // the documents refused are those holding the old keys, and only they
                        assert_eq!(anomalies(&report, "db_events.events"), old_holders, "{at}");
                        // the new date key is required: a TTL index on it is drafted
                        let date = if camel_new { "createTime" } else { "created_at" };
                        let ident = if camel_new { "create_time" } else { "created_at" };
                        assert!(
                            source.contains(&format!("pub {ident}: mongo_schema::bson::DateTime,")),
                            "{at}:\n{source}"
                        );
                        if matches!(deployed, Deployed::TtlOnNew | Deployed::Both) {
                            let ttl = format!(
                                "index(keys(\"{date}\" = 1), name = \"{date}_1\", ttl = {})",
                                legacy_db::EVENT_TTL
                            );
                            assert!(source.contains(&ttl), "{at}: no {ttl}:\n{source}");
                        }
                        // a random status is no tag
                        assert!(!source.contains("#[serde(tag"), "{at}:\n{source}");
                    }
                }
            }
        }
    }
    // every step decided some of the cases
    assert_eq!(decided_by.len(), 4, "{decided_by:?}");
}

/// Issue 46: the tag of a polymorphic collection, over 2 to 6 values, a key shared by none,
/// the first two, the last two or all of them, a value with no keys of its own, 2% of a
/// common key's values of another type, 1% of the documents with no tag or a null one, and a
/// decoy string key; the same keys following a hidden choice that the
/// tag knows nothing of are no discriminator. The drafted enum is read back: per value the
/// keys of its variant and which are required.
#[test]
fn the_tag_of_a_polymorphic_collection_is_drafted_whatever_keys_its_variants_share() {
    use legacy_db::TagCase;
    let mut seed = 500;
    let mut tagged_cases = 0;
    for variants in 2..=6 {
        // speedKmh in no value, the first two, the last two (with `bare_last`, the last
        // value's only key), every one
        let last_two = 0b11u8 << (variants - 2);
        for shared in [0, 0b11, last_two, (1u8 << variants) - 1] {
            for bare_last in [false, true] {
                for (tagged, untagged) in [(true, false), (true, true), (false, false)] {
                    seed += 1;
                    let case = TagCase { variants, shared, bare_last, tagged, untagged };
                    let generated = legacy_db::telemetry(&case, seed);
                    let drafted = mongo_schema::infer::draft(&[infer_input("db_fleet", "t_events", &generated)]);
                    let report = mongo_schema::infer::render_json(&drafted);
                    let source = &drafted.source;
                    let at = format!("{case:?} seed {seed}");
                    let expected = legacy_db::tag_expected(&case);
                    // keys in some values' documents and not in others: two values with any is a tag
                    let common: Vec<&str> = expected
                        .values()
                        .next()
                        .unwrap()
                        .keys()
                        .copied()
                        .filter(|k| expected.values().all(|v| v.contains_key(k)))
                        .collect();
                    let shaped = expected.values().filter(|v| v.keys().any(|k| !common.contains(k))).count();
                    if !tagged || shaped < 2 {
                        assert_eq!(tagged_enum(source), None, "{at}:\n{source}");
                        continue;
                    }
                    tagged_cases += 1;
                    let (tag, found) = tagged_enum(source).unwrap_or_else(|| panic!("{at}: no tagged enum:\n{source}"));
                    assert_eq!(tag, "type", "{at}");
                    let expected: Variants = expected
                        .iter()
                        .map(|(v, keys)| ((*v).to_owned(), keys.iter().map(|(k, r)| ((*k).to_owned(), *r)).collect()))
                        .collect();
                    assert_eq!(found, expected, "{at}:\n{source}");
                    // the only anomalies are the string `ts`s and the documents with no string
                    // tag, and no variant key is taken for a rename
                    let planted: BTreeMap<String, u64> = generated.planted.clone();
                    assert_eq!(anomalies(&report, "db_fleet.t_events"), planted, "{at}");
                    let collection = reported(&report, "db_fleet.t_events");
                    let candidates = collection["candidates"].as_array().unwrap();
                    assert!(!candidates.iter().any(|c| c["kind"] == "rename"), "{at}: {candidates:#?}");
                    assert!(candidates.iter().any(|c| c["kind"] == "discriminator" && c["path"] == "type"), "{at}");
                }
            }
        }
    }
    assert!(tagged_cases >= 20, "{tagged_cases}");
}

const EVENTS_DRAFTED: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../downstream/infer/src/events.rs");

/// The issue's two collections, generated: `user_events`, whose camelCase keys (60%, a TTL
/// index on `createTime`) replaced snake_case ones, among keys of one word, and `t_events`,
/// tagged by `type` (4 values, `speedKmh` shared by two, 2% of `ts` strings); with
/// `users`, camelCase. As a mongodump directory with its indexes.
fn events_db() -> Vec<(&'static str, legacy_db::Generated)> {
    use legacy_db::{Deployed, RenameCase, Style, TagCase};
    let renamed = RenameCase {
        new_camel: true,
        others: Style::Single,
        new_percent: 60,
        deployed: Deployed::TtlOnNew,
        database: Some(Style::Camel),
        added: false,
    };
    let tagged = TagCase { variants: 4, shared: 0b11, bare_last: false, tagged: true, untagged: true };
    let users = legacy_db::Generated {
        documents: legacy_db::users(Style::Camel, 46),
        indexes: Vec::new(),
        options: Document::new(),
        planted: BTreeMap::new(),
        dirty: vec![false; 40],
    };
    vec![
        ("t_events", legacy_db::telemetry(&tagged, 46)),
        ("user_events", legacy_db::renamed_events(&renamed, 46)),
        ("users", users),
    ]
}

fn infer_events_dump(dir: &Path) -> (String, serde_json::Value) {
    let collections: Vec<(&str, Vec<Document>, Vec<Document>)> =
        events_db().into_iter().map(|(name, g)| (name, g.documents, g.indexes)).collect();
    let dump = legacy_db::write_bson_dump(dir, "db_events", &collections);
    // user_events has a validator naming the new keys, logged, not enforced (mongodump's
    // metadata holds the collection's options)
    let metadata = dump.join("user_events.metadata.json");
    let mut json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&metadata).unwrap()).unwrap();
    json["options"] = serde_json::json!({
        "validator": { "$jsonSchema": { "required": ["eventType", "customerId", "createTime"] } },
        "validationLevel": "moderate",
        "validationAction": "warn",
    });
    std::fs::write(&metadata, json.to_string()).unwrap();
    let report = dir.join("events-report.json");
    let (code, source, err) =
        schema(&["infer", dump.to_str().unwrap(), "--format", "json", "--report", report.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    (source, serde_json::from_str(&std::fs::read_to_string(report).unwrap()).unwrap())
}

/// The issue's samples drafted through the command: the rename the right way round with
/// its TTL index, the tag with its shared key; committed as downstream/infer/src/events.rs.
#[test]
fn the_issue_samples_draft_the_rename_forward_and_the_tag() {
    let dir = tempfile::tempdir().unwrap();
    let (source, report) = infer_events_dump(dir.path());
    for expected in [
        "#[mongo(db = \"db_events\", collection = \"user_events\", index(keys(\"createTime\" = 1), name = \"createTime_1\", ttl = 7776000),",
        "    #[serde(alias = \"created_at\")]\n    #[mongo(renamed_from = \"created_at\")]\n    pub create_time: mongo_schema::bson::DateTime,",
        "#[serde(tag = \"type\")]\n#[mongo(db = \"db_events\", collection = \"t_events\"",
        "    #[serde(rename = \"overspeed\")]\n    Overspeed {",
    ] {
        assert!(source.contains(expected), "missing {expected:?} in:\n{source}");
    }
    let renamed = reported(&report, "db_events.user_events");
    let candidate = renamed["candidates"].as_array().unwrap().iter().find(|c| c["path"] == "createTime").unwrap();
    assert!(candidate["note"].as_str().unwrap().contains("the new key decided by the deployment (the validator names `eventType`, `customerId`, `createTime`; the index `createTime_1` names `createTime`)"), "{candidate}");
    // the existing validator, with its level and action: not enforced
    assert_eq!(
        renamed["validator"],
        serde_json::json!({
            "validator": { "$jsonSchema": { "required": ["eventType", "customerId", "createTime"] } },
            "validationLevel": "moderate",
            "validationAction": "warn",
            "defaulted": false,
            "enforced": false,
        })
    );
    assert!(renamed["notes"][0].as_str().unwrap().starts_with("the collection already has a validator (validationLevel moderate, validationAction warn: not enforced: a write that fails it is logged, not refused): "), "{renamed:#}");
    assert_eq!(reported(&report, "db_events.t_events")["validator"], serde_json::Value::Null);
    assert_committed(EVENTS_DRAFTED, &source, "the issue's samples");
}

// the drafted models of the issue's samples, compiled here too (downstream/infer builds them
// with -D warnings), so that mongod can be handed their validators
#[rustfmt::skip]
#[path = "../../downstream/infer/src/events.rs"]
mod events;

/// On mongod: each collection created with its drafted model's validator (strict, error)
/// admits every document of the current shapes and refuses exactly the anomalies the
/// generator planted (the old release's keys, the string `ts`s); `schema infer --uri` then
/// reports those validators enforced, and the same one under `moderate` / `warn` not.
#[test]
fn on_mongod_the_drafted_validators_admit_the_current_documents() {
    use mongo_schema::MongoSchema;
    let Ok(uri) = std::env::var("MONGODB_URI") else {
        eprintln!("skipped (no MONGODB_URI): on_mongod_the_drafted_validators_admit_the_current_documents");
        return;
    };
    let client = mongodb::sync::Client::with_uri_str(&uri).unwrap();
    let db = client.database("db_events_infer");
    db.drop().run().unwrap();
    for (name, generated) in events_db() {
        let validator = match name {
            "t_events" => events::Events::validator(),
            "user_events" => events::UserEvents::validator(),
            _ => events::Users::validator(),
        };
        db.run_command(
            doc! { "create": name, "validator": validator, "validationLevel": "strict", "validationAction": "error" },
        )
        .run()
        .unwrap();
        let collection = db.collection::<Document>(name);
        let mut refused = 0;
        for (document, dirty) in generated.documents.iter().zip(&generated.dirty) {
            match collection.insert_one(document).run() {
                Ok(_) => assert!(!dirty, "{name}: an anomaly admitted: {document}"),
                Err(e) => {
                    assert!(*dirty, "{name}: a document of the current shape refused: {e}: {document}");
                    assert!(e.to_string().contains("121") || e.to_string().contains("failed validation"), "{e}");
                    refused += 1;
                }
            }
        }
        let planted = generated.dirty.iter().filter(|d| **d).count();
        assert_eq!(
            (refused, collection.count_documents(doc! {}).run().unwrap() as usize),
            (planted, generated.documents.len() - planted),
            "{name}"
        );
        assert!(planted < generated.documents.len() / 2, "{name}");
    }
    // the report says whether a validator is enforced
    let (code, _, err) = schema(&["infer", "--uri", &uri, "--db", "db_events_infer", "--collection", "user_events"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("note: the collection already has a validator (validationLevel strict, validationAction error: enforced: a write that fails it is refused): {\"$jsonSchema\""),
        "{err}"
    );
    db.run_command(doc! { "collMod": "user_events", "validationLevel": "moderate", "validationAction": "warn" })
        .run()
        .unwrap();
    let (code, _, err) =
        schema(&["infer", "--uri", &uri, "--db", "db_events_infer", "--collection", "user_events", "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    let report: serde_json::Value = serde_json::from_str(&err).unwrap();
    let existing = &reported(&report, "db_events_infer.user_events")["validator"];
    assert_eq!(
        (&existing["validationLevel"], &existing["validationAction"], &existing["enforced"], &existing["defaulted"]),
        (
            &serde_json::json!("moderate"),
            &serde_json::json!("warn"),
            &serde_json::json!(false),
            &serde_json::json!(false)
        ),
        "{existing}"
    );
    assert!(
        existing["validator"]["$jsonSchema"]["required"].as_array().unwrap().iter().any(|k| k == "createTime"),
        "{existing}"
    );
    db.drop().run().unwrap();
}
