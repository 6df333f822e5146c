//! The migrations committed beside the app are current: running `migrate` over them
//! would write nothing. A model change without its migration fails here.

#![forbid(unsafe_code)]

use mongo_schema::migrate::{registered_models, MigrateOptions, Snapshot, SNAPSHOT_FILE};
use mongo_schema_example_app as _;
use std::path::Path;

#[test]
fn committed_migrations_match_the_models() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("migrations").join(SNAPSHOT_FILE);
    let snapshot = Snapshot::from_json(&std::fs::read_to_string(path).unwrap()).unwrap();
    let models = registered_models();
    assert_eq!(models.len(), 3, "Customer, Order and OrderRefund register themselves");
    let next = snapshot.next_migration(&models, &MigrateOptions::default()).unwrap();
    let pending = next.map(|m| m.up_js()).unwrap_or_default();
    assert!(pending.is_empty(), "models changed without a migration; run\n  cargo run -p mongo-schema-example-app --bin schema -- migrate --dir examples/app/migrations\nto write:\n{pending}");
}

/// CI's guard for data steps: every data step of the embedded migrations (`migrations!`, as
/// the service applies them at start) rehearsed over documents of every shape the models
/// admit, under the validator in force when it runs: none would be refused, none is left
/// unjudged. (This app has no data migration yet: add one, and this test holds it to that.)
#[cfg(feature = "driver")]
#[test]
fn the_embedded_migrations_data_steps_pass_the_rehearsal() {
    use mongo_schema::simulate::{rehearse_release, Samples};
    let embedded = mongo_schema::migrations!("migrations");
    let rehearsal = rehearse_release(embedded.migrations(), &Samples::default());
    let found: Vec<String> = rehearsal.findings.iter().map(|f| f.render()).collect();
    assert!(found.is_empty(), "{}", found.join(""));
}

/// `schema queries` on the app: every query of `src/store.rs` with the index the planner
/// gives it, the deliberately unused and redundant indexes named, and exit 1 for the
/// redundant one (the only problem: every query is served, none is waived).
#[test]
fn schema_queries_lists_each_query_with_its_index() {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_schema"))
        .args(["queries", "--format", "json"])
        .env_remove("MONGODB_URI")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{text}{}", String::from_utf8_lossy(&output.stderr));
    let report: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(report["problems"], 1, "{text}");
    let mut found: Vec<(String, String, bool, bool)> = Vec::new();
    for model in report["models"].as_array().unwrap() {
        for q in model["queries"].as_array().unwrap() {
            found.push((
                q["name"].as_str().unwrap().to_owned(),
                q["index"]["name"].as_str().unwrap_or("none").to_owned(),
                q["sort_in_memory"].as_bool().unwrap(),
                q["covered"].as_bool().unwrap(),
            ));
            assert!(q["problems"].as_array().unwrap().is_empty(), "{q}");
        }
    }
    found.sort();
    let want = [
        ("awaiting", "status_1_payTime_1", false, false),
        ("customer_by_email", "email_1", false, false),
        ("order_status", "orderNo_1_status_1", false, true),
        ("paid_between", "status_1_payTime_1", false, false),
        ("recent_orders", "customerId_1_createTime_-1", false, false),
        ("refunds_of", "orderId_1_createTime_-1", false, false),
    ];
    let want: Vec<(String, String, bool, bool)> =
        want.iter().map(|(q, i, s, c)| ((*q).to_owned(), (*i).to_owned(), *s, *c)).collect();
    assert_eq!(found, want, "{text}");
    let order = report["models"].as_array().unwrap().iter().find(|m| m["collection"] == "t_order").unwrap();
    let unused: Vec<&str> =
        order["unused_indexes"].as_array().unwrap().iter().map(|i| i["name"].as_str().unwrap()).collect();
    assert_eq!(unused, ["customerId_1", "totalAmount_-1"], "{text}");
    let redundant = &order["redundant_indexes"].as_array().unwrap()[..];
    assert_eq!(redundant.len(), 1, "{text}");
    assert_eq!(redundant[0]["index"]["name"], "customerId_1");
    assert_eq!(redundant[0]["prefix_of"], "customerId_1_createTime_-1");
}
