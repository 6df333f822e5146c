//! The brownfield path end to end, on mongod, with the models `schema infer` drafted
//! (src/drafted.rs) from the legacy database: `schema migrate` adopts the collections,
//! `schema apply` installs their validators under `warn` (the legacy writer keeps
//! writing), the contract's gate refuses while documents fail, a data-fix migration written
//! as a person writes one converts them, and `schema apply --contract` enforces. After it
//! the old shapes are refused, `check --uri` finds nothing, `status` and `drift` are clean.

use mongo_schema_test_support::legacy_db;

// the drafted models register themselves; the linker keeps them only when the crate is named
use downstream_infer as _;
use mongo_schema::bson::{doc, Bson, Document};
use std::path::Path;

fn schema(args: &[&str]) -> (i32, String, String) {
    let models = mongo_schema::migrate::registered_models();
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code =
        mongo_schema::cli::run(&models, std::iter::once("schema").chain(args.iter().copied()), &mut out, &mut err);
    (code, String::from_utf8(out).unwrap(), String::from_utf8(err).unwrap())
}

/// The one data-fix migration in `dir`, its `up` filled with `steps`.
fn fill(dir: &Path, steps: serde_json::Value) {
    let file = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.to_string_lossy().ends_with("_fix_legacy.json"))
        .unwrap();
    let mut migration: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    migration["up"] = steps;
    std::fs::write(&file, serde_json::to_string_pretty(&migration).unwrap()).unwrap();
}

#[test]
fn from_infer_to_enforced_validators() {
    let Ok(uri) = std::env::var("MONGODB_URI") else {
        eprintln!("skipped (no MONGODB_URI): from_infer_to_enforced_validators");
        return;
    };
    let client = mongodb::sync::Client::with_uri_str(&uri).unwrap();
    let state_db = "db_infer_brownfield_state";
    let dbs = ["db_legacy", "db_fleet", "db_edge", state_db];
    for db in dbs {
        client.database(db).drop().run().unwrap();
    }
    let legacy = legacy_db::legacy(37);
    let db = client.database("db_legacy");
    let orders = db.collection::<Document>("t_order");
    orders.insert_many(&legacy.orders).run().unwrap();
    db.collection::<Document>("customers").insert_many(&legacy.customers).run().unwrap();
    let dir = tempfile_dir();
    let dir_s = dir.to_str().unwrap();
    let target = ["--uri", &uri, "--dir", dir_s, "--state-db", state_db];

    // 1. the first migration of the drafted models adopts what exists
    let (code, out, err) = schema(&["migrate", "--dir", dir_s]);
    assert_eq!(code, 0, "{out}{err}");
    let (code, out, err) = schema(&[&["apply"][..], &target].concat());
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("db_legacy.t_order existed: adopted under validationAction warn"), "{out}");
    // the planted documents fail, but those whose only anomaly is the old key `shipTo`,
    // which the adopting validator still accepts
    let dirty = legacy.dirty.iter().filter(|d| **d).count();
    let failing: usize = out
        .split(" of 400 documents fail")
        .next()
        .and_then(|before| before.rsplit(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{out}"));
    assert!(failing > 0 && failing <= dirty, "{failing} of {dirty}: {out}");

    // 2. the legacy writer keeps writing its shapes: nothing is refused under warn
    let mut old_shape = legacy.orders[0].clone();
    old_shape.insert("_id", mongo_schema::bson::oid::ObjectId::new());
    old_shape.insert("quantity", 2.0);
    old_shape.insert("createTime", "2024-05-01T10:00:00Z");
    orders.insert_one(&old_shape).run().unwrap();

    // 3. the contract's gate refuses to enforce while documents fail
    let (code, out, err) = schema(&[&["apply"][..], &target, &["--contract"]].concat());
    assert_eq!(code, 1, "{out}{err}");
    assert!(err.contains("schema check --uri"), "{err}");

    // 4. the data fix, as a person writes it from `check --uri`'s report: one pipeline
    //    update taking every order to the drafted shape (the renamed key moves in the contract)
    let (code, out, err) = schema(&["new-data", "fix_legacy", "--contract", "--dir", dir_s]);
    assert_eq!(code, 0, "{out}{err}");
    let convert = serde_json::json!({
        "quantity": { "$toInt": "$quantity" },
        "totalAmount": { "$toDecimal": "$totalAmount" },
        "createTime": { "$toDate": "$createTime" },
        "customerId": { "$toObjectId": "$customerId" },
        "items": { "$slice": ["$items", 20] },
    });
    fill(
        &dir,
        serde_json::json!([{ "db": "db_legacy", "command": {
        "update": "t_order",
        "updates": [{ "q": {}, "u": [{ "$set": convert }], "multi": true }],
        "bypassDocumentValidation": true,
    } }]),
    );
    let (code, out, err) = schema(&[&["apply"][..], &target, &["--contract"]].concat());
    assert_eq!(code, 0, "{out}{err}");

    // 5. enforced: the old shape is refused, every document fits, nothing drifts
    let mut again = old_shape.clone();
    again.insert("_id", mongo_schema::bson::oid::ObjectId::new());
    let refused = orders.insert_one(&again).run().unwrap_err();
    assert!(
        refused.to_string().contains("121") || refused.to_string().contains("Document failed validation"),
        "{refused}"
    );
    let (code, out, err) = schema(&["check", "--uri", &uri, "--collection", "db_legacy.t_order", "--format", "json"]);
    assert_eq!(code, 0, "{out}{err}");
    let report: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(report["collections"][0]["failed"], 0, "{report:#}");
    assert_eq!(orders.count_documents(doc! { "shipTo": { "$exists": true } }).run().unwrap(), 0);
    assert_eq!(orders.count_documents(doc! { "quantity": { "$type": "double" } }).run().unwrap(), 0);
    let (code, out, err) = schema(&[&["status"][..], &target].concat());
    assert_eq!(code, 0, "{out}{err}");
    let (code, out, err) = schema(&["drift", "--uri", &uri]);
    assert_eq!(code, 0, "{out}{err}");
    let validator = db.run_command(doc! { "listCollections": 1, "filter": { "name": "t_order" } }).run().unwrap();
    let options = validator.get_document("cursor").unwrap().get_array("firstBatch").unwrap()[0]
        .as_document()
        .unwrap()
        .get_document("options")
        .unwrap()
        .clone();
    assert_eq!(options.get("validationAction"), Some(&Bson::String("error".into())), "{options}");

    for db in dbs {
        client.database(db).drop().run().unwrap();
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

fn tempfile_dir() -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("downstream-infer-brownfield-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
