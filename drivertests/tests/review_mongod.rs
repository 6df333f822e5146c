//! `schema review` against real deployments (`scripts/with-mongod.sh`): every checklist
//! item a deployment can show, with a collection or a connection string that passes it
//! and one that fails it. The standalone mongod (`MONGODB_URI`) carries the data items;
//! `--auth` (`MONGODB_URI_AUTH`: `app`, readWrite on `db_app`; `MONGODB_URI_AUTH_ROOT`:
//! `admin`, root) the authentication and privilege items; the single-node replica set
//! (`MONGODB_URI_REPLSET`) the `replicaSet` item and which node the index counters and the
//! profiler were read on; `MONGODB_URI_AUTH_READ` (`reader`, read on `db_app`) the items a
//! user without `indexStats` and `enableProfiler` cannot check. A test whose variable is unset is
//! skipped with a message. What no deployment here can show (mongos, SRV, a public
//! address) is in `review_fake.rs`.

#![forbid(unsafe_code)]

use mongo_schema::bson::{doc, Bson, Document};
use mongo_schema::migrate::driver::MongoServer;
use mongo_schema::migrate::server::Server;
use mongo_schema::migrate::Model;
use mongo_schema::review::{review_uri, Item, Options, Report, Status};
use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

/// The model the index items compare with: six indexes, unique, with a collation, TTL
/// (63 years: the seeded orders stay), partial.
#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(
    db = "db_review",
    collection = "t_review_order",
    index(keys("customerId" = 1), name = "customerId_1"),
    index(keys("orderNo" = 1), unique, name = "orderNo_1"),
    index(keys("status" = 1, "createTime" = -1), name = "status_1_createTime_-1"),
    index(keys("customerName" = 1), collation(locale = "fr", strength = 2), name = "customerName_fr"),
    index(keys("createTime" = 1), ttl = 2000000000, name = "createTime_ttl"),
    index(keys("status" = 1), partial = r#"{"status": "paid"}"#, name = "status_paid")
)]
struct ReviewOrder {
    #[serde(rename = "_id")]
    id: i64,
    customer_id: i64,
    #[mongo(max_length = 32)]
    order_no: String,
    #[mongo(max_length = 16)]
    status: String,
    create_time: mongo_schema::bson::DateTime,
    #[mongo(max_length = 50)]
    customer_name: String,
}

/// The model the data items compare with.
#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(db = "db_review", collection = "t_review_user")]
struct ReviewUser {
    #[serde(rename = "_id")]
    id: i64,
    #[mongo(max_length = 50)]
    user_name: String,
    age: i32,
    #[mongo(max_items = 3)]
    tags: Vec<String>,
}

const DB: &str = "db_review";

fn uri(var: &str, test: &str) -> Option<String> {
    let found = std::env::var(var).ok();
    if found.is_none() {
        eprintln!("skipped (no {var}): {test}");
    }
    found
}

/// A collection of `DB` replaced by `docs` (no validator).
fn seed(uri: &str, collection: &str, docs: Vec<Document>) {
    let mut server = MongoServer::connect(uri).expect("connect");
    match server.run_command(DB, doc! { "drop": collection }) {
        Err(e) if e.is(mongo_schema::codes::NAMESPACE_NOT_FOUND) => {}
        result => drop(result.expect("drop")),
    }
    server.run_command(DB, doc! { "create": collection }).expect("create");
    if !docs.is_empty() {
        server.run_command(DB, doc! { "insert": collection, "documents": docs }).expect("insert");
    }
}

/// The model, moved to `collection`.
fn model(collection: &str) -> Model {
    let mut model = Model::of::<ReviewUser>("ReviewUser");
    model.collection = collection.to_owned();
    model
}

fn review(uri: &str, models: &[Model], collections: &[&str], tweak: impl FnOnce(&mut Options)) -> Report {
    let mut options = Options {
        uri: uri.to_owned(),
        collections: collections.iter().map(|c| format!("{DB}.{c}")).collect(),
        ..Options::default()
    };
    tweak(&mut options);
    review_uri(models, &options).expect("the review runs")
}

fn item<'a>(report: &'a Report, id: &str) -> &'a Item {
    report.item(id).unwrap_or_else(|| panic!("no item {id}"))
}

/// The item's status, its evidence shown on failure.
fn status(report: &Report, id: &str) -> Status {
    let item = item(report, id);
    eprintln!("{id}: {:?} {:#?}", item.status, item.evidence);
    item.status
}

fn evidence(report: &Report, id: &str) -> String {
    item(report, id).evidence.join("\n")
}

fn user(id: i64, name: &str, age: Bson, tags: usize) -> Document {
    let tags: Vec<String> = (0..tags).map(|i| format!("tag{i}")).collect();
    doc! { "_id": id, "userName": name, "age": age, "tags": tags }
}

#[test]
fn naming_passes_spelled_out_names_and_fails_abbreviations_and_bad_collection_names() {
    let Some(uri) = uri("MONGODB_URI", "naming") else { return };
    seed(&uri, "t_review_names_ok", vec![doc! { "_id": 1, "userName": "a", "createTime": 1 }]);
    seed(&uri, "ReviewNames", vec![doc! { "_id": 1, "UN": "a", "create_time": 1 }]);
    let report = review(&uri, &[], &["t_review_names_ok"], |_| {});
    assert_eq!(status(&report, "naming"), Status::Pass);
    let report = review(&uri, &[], &["ReviewNames"], |_| {});
    assert_eq!(status(&report, "naming"), Status::Fail);
    let text = evidence(&report, "naming");
    assert!(text.contains("db_review.ReviewNames: collection_name") && text.contains("`UN`: field_name"), "{text}");
    assert!(!text.contains("create_time"), "snake_case is a style of its own: {text}");
}

#[test]
fn fields_missing_from_the_model_are_named() {
    let Some(uri) = uri("MONGODB_URI", "fields_missing_from_the_model_are_named") else { return };
    let c = "t_review_extra";
    seed(&uri, c, vec![doc! { "_id": 1_i64, "userName": "ann", "age": 3, "tags": [], "nickName": "an" }]);
    let report = review(&uri, &[model(c)], &[c], |_| {});
    assert_eq!(status(&report, "naming"), Status::Warn);
    assert!(evidence(&report, "naming").contains("`nickName`: in 1 sampled document but not in the model"));
}

#[test]
fn document_size_warns_over_100_kb_and_fails_over_1_mb() {
    let Some(uri) = uri("MONGODB_URI", "document_size") else { return };
    let doc_of = |id: i32, bytes: usize| doc! { "_id": id, "body": "x".repeat(bytes) };
    seed(&uri, "t_review_small", (0..20).map(|i| doc_of(i, 200)).collect());
    seed(&uri, "t_review_large", vec![doc_of(1, 200), doc_of(2, 150 * 1024)]);
    seed(&uri, "t_review_huge", vec![doc_of(1, 200), doc_of(2, 1200 * 1024)]);
    let report = review(&uri, &[], &["t_review_small"], |_| {});
    assert_eq!(status(&report, "document_size"), Status::Pass);
    assert!(
        evidence(&report, "document_size").contains("t_review_small: 20 sampled, p50 2"),
        "{}",
        evidence(&report, "document_size")
    );
    let report = review(&uri, &[], &["t_review_large"], |_| {});
    assert_eq!(status(&report, "document_size"), Status::Warn);
    let report = review(&uri, &[], &["t_review_huge"], |_| {});
    assert_eq!(status(&report, "document_size"), Status::Fail);
    assert!(
        evidence(&report, "document_size").contains("max 1.2 MiB (_id 2;"),
        "{}",
        evidence(&report, "document_size")
    );
}

#[test]
fn nesting_depth_counts_the_document_and_not_arrays() {
    let Some(uri) = uri("MONGODB_URI", "nesting_depth") else { return };
    // 5 levels: the document, customer, contact, and through an array, items' detail, note
    let five = doc! { "_id": 1, "customer": { "contact": { "phone": { "mobile": { "number": "1" } } } },
    "items": [{ "detail": { "note": "x" } }] };
    let six = doc! { "_id": 2, "level1": { "level2": { "level3": { "level4": { "level5": { "data": 1 } } } } } };
    seed(&uri, "t_review_depth_ok", vec![five]);
    seed(&uri, "t_review_depth_deep", vec![six]);
    let report = review(&uri, &[], &["t_review_depth_ok"], |_| {});
    assert_eq!(status(&report, "nesting_depth"), Status::Pass);
    assert!(evidence(&report, "nesting_depth").contains("deepest 5 levels at `customer.contact.phone.mobile"));
    let report = review(&uri, &[], &["t_review_depth_deep"], |_| {});
    assert_eq!(status(&report, "nesting_depth"), Status::Fail);
    assert!(evidence(&report, "nesting_depth").contains("deepest 6 levels at `level1.level2.level3.level4.level5"));
    // a crate's lower limit
    let report = review(&uri, &[], &["t_review_depth_ok"], |o| o.max_depth = 4);
    assert_eq!(status(&report, "nesting_depth"), Status::Fail);
}

#[test]
fn arrays_fail_over_1000_items_and_over_the_models_max_items() {
    let Some(uri) = uri("MONGODB_URI", "arrays") else { return };
    seed(&uri, "t_review_arrays_ok", vec![user(1, "ann", Bson::Int32(3), 3)]);
    seed(&uri, "t_review_arrays_long", vec![doc! { "_id": 1, "logins": (0..1001).collect::<Vec<i32>>() }]);
    seed(&uri, "t_review_arrays_model", vec![user(1, "ann", Bson::Int32(3), 4)]);
    let report = review(&uri, &[model("t_review_arrays_ok")], &["t_review_arrays_ok"], |_| {});
    assert_eq!(status(&report, "arrays"), Status::Pass);
    assert!(evidence(&report, "arrays").contains("`tags`: 3 items (_id 1) longest, max_items 3"));
    let report = review(&uri, &[], &["t_review_arrays_long"], |_| {});
    assert_eq!(status(&report, "arrays"), Status::Fail);
    assert!(evidence(&report, "arrays").contains("`logins`: 1001 items (_id 1), more than 1000"));
    let report = review(&uri, &[model("t_review_arrays_model")], &["t_review_arrays_model"], |_| {});
    assert_eq!(status(&report, "arrays"), Status::Fail);
    assert!(evidence(&report, "arrays").contains("more than the model's max_items 3"));
}

#[test]
fn type_drift_fails_mixed_types_and_types_the_model_refuses() {
    let Some(uri) = uri("MONGODB_URI", "type_drift") else { return };
    seed(&uri, "t_review_types_ok", vec![user(1, "ann", Bson::Int32(30), 0), user(2, "bob", Bson::Int32(40), 1)]);
    // Specification 9's story: `age` as a number and as a string
    seed(&uri, "t_review_types_age", vec![doc! { "_id": 1, "age": 30 }, doc! { "_id": 2, "age": "30" }]);
    seed(
        &uri,
        "t_review_types_model",
        vec![user(1, "ann", Bson::Int32(30), 0), user(2, "bob", Bson::String("40".into()), 0)],
    );
    seed(&uri, "t_review_types_money", vec![doc! { "_id": 1, "totalAmount": 9.99, "createTime": "2024-03-15" }]);
    let report = review(&uri, &[model("t_review_types_ok")], &["t_review_types_ok"], |_| {});
    assert_eq!(status(&report, "type_drift"), Status::Pass);
    let report = review(&uri, &[], &["t_review_types_age"], |_| {});
    assert_eq!(status(&report, "type_drift"), Status::Fail);
    assert!(evidence(&report, "type_drift").contains("`age`: 2 types: int in 1 sampled document (e.g. _id 1); string"));
    let report = review(&uri, &[model("t_review_types_model")], &["t_review_types_model"], |_| {});
    assert_eq!(status(&report, "type_drift"), Status::Fail);
    assert!(evidence(&report, "type_drift")
        .contains("`age`: string in 1 sampled document (e.g. _id 2) where the model allows int, long"));
    let report = review(&uri, &[], &["t_review_types_money"], |_| {});
    let text = evidence(&report, "type_drift");
    assert!(
        text.contains("`totalAmount`: money stored as double")
            && text.contains("`createTime`: a date stored as string"),
        "{text}"
    );
}

/// `collection` created with the model's validator, `level` and `action` as given.
fn install(uri: &str, collection: &str, level: &str) {
    seed(uri, collection, vec![]);
    let model = model(collection);
    let command = doc! { "collMod": collection, "validator": model.validator, "validationLevel": level, "validationAction": "error" };
    MongoServer::connect(uri).unwrap().run_command(DB, command).expect("collMod");
}

#[test]
fn validators_must_be_installed_with_the_models_level_and_action() {
    let Some(uri) = uri("MONGODB_URI", "validators") else { return };
    install(&uri, "t_review_valid", "strict");
    install(&uri, "t_review_moderate", "moderate");
    seed(&uri, "t_review_bare", vec![]);
    let report = review(&uri, &[model("t_review_valid")], &["t_review_valid"], |_| {});
    assert_eq!(status(&report, "validators"), Status::Pass);
    assert!(evidence(&report, "validators").contains("db_review.t_review_valid: $jsonSchema validator, strict, error"));
    let report = review(&uri, &[model("t_review_moderate")], &["t_review_moderate"], |_| {});
    assert_eq!(status(&report, "validators"), Status::Fail);
    assert!(evidence(&report, "validators")
        .contains("validationLevel moderate, validationAction error; the model declares strict, error"));
    let report = review(&uri, &[model("t_review_bare")], &["t_review_bare"], |_| {});
    assert_eq!(status(&report, "validators"), Status::Fail);
    let report = review(&uri, &[model("t_review_never_created")], &["t_review_never_created"], |_| {});
    assert!(evidence(&report, "validators").contains("t_review_never_created: missing"));
    // a validator changed by hand (the level and action as declared): the schema is compared too
    install(&uri, "t_review_edited", "strict");
    let mut edited = model("t_review_edited").validator;
    let schema = edited.get_document_mut("$jsonSchema").unwrap();
    schema.get_document_mut("properties").unwrap().get_document_mut("userName").unwrap().insert("maxLength", 80);
    let command = doc! { "collMod": "t_review_edited", "validator": edited };
    MongoServer::connect(&uri).unwrap().run_command(DB, command).expect("collMod");
    let report = review(&uri, &[model("t_review_edited")], &["t_review_edited"], |_| {});
    assert_eq!(status(&report, "validators"), Status::Fail);
    let text = evidence(&report, "validators");
    assert!(text.contains("t_review_edited: the installed $jsonSchema is not the model's"), "{text}");
    assert!(text.contains("the code is stricter: userName: maxLength 80 -> 50"), "{text}");
    // a collection no model describes is listed
    let report = review(&uri, &[], &["t_review_bare"], |_| {});
    assert_eq!(status(&report, "validators"), Status::Warn);
    assert!(evidence(&report, "validators").contains("t_review_bare: not registered by any model"));
}

#[test]
fn collection_count_fails_over_100_in_a_database() {
    let Some(uri) = uri("MONGODB_URI", "collection_count") else { return };
    let mut server = MongoServer::connect(&uri).unwrap();
    server.run_command("db_review_many", doc! { "dropDatabase": 1 }).unwrap();
    server.run_command("db_review_few", doc! { "dropDatabase": 1 }).unwrap();
    for i in 0..101 {
        server.run_command("db_review_many", doc! { "create": format!("t_split_{i:03}") }).unwrap();
    }
    server.run_command("db_review_few", doc! { "create": "t_one" }).unwrap();
    let options =
        |c: &str| Options { uri: uri.clone(), collections: vec![c.to_owned()], sample: 1, ..Options::default() };
    let report = review_uri(&[], &options("db_review_many.t_split_000")).unwrap();
    assert_eq!(status(&report, "collection_count"), Status::Fail);
    assert!(evidence(&report, "collection_count").contains("db_review_many: 101 collections (limit 100)"));
    let few =
        report.item("collection_count").unwrap().evidence.iter().find(|l| l.starts_with("db_review_few:")).cloned();
    assert_eq!(few.as_deref(), Some("db_review_few: 1 collection (limit 100)"));
    server.run_command("db_review_many", doc! { "dropDatabase": 1 }).unwrap();
    let report = review_uri(&[], &options("db_review_few.t_one")).unwrap();
    assert!(!evidence(&report, "collection_count").contains("db_review_many"));
}

#[test]
fn a_standalone_without_auth_fails_availability_authentication_and_privileges() {
    let Some(uri) = uri("MONGODB_URI", "standalone") else { return };
    let report = review(&uri, &[], &["t_review_none"], |_| {});
    assert_eq!(status(&report, "auth"), Status::Fail);
    assert_eq!(status(&report, "least_privilege"), Status::Fail);
    assert_eq!(status(&report, "uri_hosts"), Status::Fail);
    assert_eq!(status(&report, "auth_source"), Status::Fail);
    assert_eq!(status(&report, "tls"), Status::Pass, "127.0.0.1 is private");
    assert_eq!(status(&report, "network_exposure"), Status::Pass);
    assert_eq!(status(&report, "security_group"), Status::NotCheckable);
    assert!(report.failed());
}

#[test]
fn the_application_user_passes_authentication_and_least_privilege_and_root_fails_it() {
    let Some(app) = uri("MONGODB_URI_AUTH", "auth app") else { return };
    let report = review(&app, &[], &["t_review_none"], |_| {});
    assert_eq!(status(&report, "auth"), Status::Pass);
    assert_eq!(status(&report, "least_privilege"), Status::Pass);
    assert!(evidence(&report, "least_privilege").contains("readWrite@db_app"));
    assert_eq!(status(&report, "auth_source"), Status::Pass);
    // `mongo-schema-test`: no uppercase letter, no digit; never printed
    assert_eq!(status(&report, "password_strength"), Status::Fail);
    let json = report.to_json().to_string();
    assert!(!json.contains("mongo-schema-test"), "{json}");
    // readWrite may not run serverStatus: the limit is asked for
    let report = review(&format!("{app}&maxPoolSize=10"), &[], &["t_review_none"], |o| o.apps = Some(4));
    assert_eq!(status(&report, "pool_size"), Status::NotCheckable);
    assert!(evidence(&report, "pool_size").contains("pass --connection-limit N"));

    let Some(root) = uri("MONGODB_URI_AUTH_ROOT", "auth root") else { return };
    let report = review(&root, &[], &["t_review_none"], |_| {});
    assert_eq!(status(&report, "auth"), Status::Pass);
    assert_eq!(status(&report, "least_privilege"), Status::Fail);
    assert!(evidence(&report, "least_privilege").contains("root@admin: an administrative role"));
    assert!(!report.render_text().contains("mongo-schema-test"));

    // a user whose password meets the standard's rule (set-up as root)
    let strong = "Str0ng-Passw0rd!";
    let create =
        doc! { "createUser": "review_strong", "pwd": strong, "roles": [{ "role": "readWrite", "db": "db_app" }] };
    match MongoServer::connect(&root).unwrap().run_command("admin", create) {
        Err(e) if e.code() == Some(51003) => {} // created by an earlier run
        result => drop(result.expect("createUser")),
    }
    let strong_uri = app.replacen("app:mongo-schema-test@", &format!("review_strong:{strong}@"), 1);
    let report = review(&strong_uri, &[], &["t_review_none"], |_| {});
    assert_eq!(status(&report, "password_strength"), Status::Pass);
    assert_eq!(status(&report, "least_privilege"), Status::Pass);
    let text = report.render_text() + &report.to_json().to_string();
    assert!(text.contains("user `review_strong`: password present (not shown)") && !text.contains(strong), "{text}");
}

#[test]
fn the_replica_set_needs_its_name_in_the_uri() {
    let Some(with) = uri("MONGODB_URI_REPLSET", "replica_set") else { return };
    let report = review(&with, &[], &["t_review_none"], |_| {});
    assert_eq!(status(&report, "replica_set"), Status::Pass);
    assert!(evidence(&report, "replica_set").contains("replicaSet=rs0, the set's name"));
    // one member listed for a set of one: still a single point
    assert_eq!(status(&report, "uri_hosts"), Status::Fail);
    // two seeds (the one member by address and by name): no single address to lose
    let port = with.split(':').nth(2).and_then(|p| p.split('/').next()).unwrap();
    let seeds = format!("mongodb://127.0.0.1:{port},localhost:{port}/?replicaSet=rs0");
    let report = review(&seeds, &[], &["t_review_none"], |_| {});
    assert_eq!(status(&report, "uri_hosts"), Status::Pass);
    assert!(evidence(&report, "uri_hosts").contains(&format!("2 hosts: 127.0.0.1:{port}, localhost:{port}")));
    let without = with.split('?').next().unwrap().to_owned();
    let report = review(&without, &[], &["t_review_none"], |_| {});
    assert_eq!(status(&report, "replica_set"), Status::Fail);
    assert!(evidence(&report, "replica_set")
        .contains("no replicaSet in the URI, though the deployment is replica set `rs0`"));
}

#[test]
fn uri_options_retries_write_concern_and_read_preference() {
    let Some(base) = uri("MONGODB_URI", "uri options") else { return };
    let with = |query: &str| format!("{}?{query}", base.trim_end_matches('/').to_owned() + "/");
    let report = review(
        &with("retryWrites=true&retryReads=true&w=majority&readPreference=primary"),
        &[],
        &["t_review_none"],
        |_| {},
    );
    assert_eq!(status(&report, "retries"), Status::Pass);
    assert_eq!(status(&report, "write_concern"), Status::Pass);
    assert_eq!(status(&report, "read_preference"), Status::Pass);
    let report = review(&with("retryWrites=false&w=1&readPreference=secondary"), &[], &["t_review_none"], |_| {});
    assert_eq!(status(&report, "retries"), Status::Fail);
    assert_eq!(status(&report, "write_concern"), Status::Fail);
    assert_eq!(status(&report, "read_preference"), Status::Warn, "a recommendation: never a failure");
}

#[test]
fn the_pool_total_is_held_to_80_percent_of_the_servers_limit() {
    let Some(base) = uri("MONGODB_URI", "pool") else { return };
    let uri = format!("{}?maxPoolSize=50", base.trim_end_matches('/').to_owned() + "/");
    // serverStatus gives the limit: 4 × 50 is far below it
    let report = review(&uri, &[], &["t_review_none"], |o| o.apps = Some(4));
    assert_eq!(status(&report, "pool_size"), Status::Pass);
    assert!(evidence(&report, "pool_size").contains("200 connections at most (4 applications × 50) against 80% of"));
    // the standard's example: a 3000-connection instance
    let report = review(&uri, &[], &["t_review_none"], |o| {
        o.apps = Some(60);
        o.connection_limit = Some(3000);
        o.peak_qps = Some(1000.0);
        o.latency_ms = Some(20.0);
    });
    assert_eq!(status(&report, "pool_size"), Status::Fail);
    let text = evidence(&report, "pool_size");
    assert!(text.contains("3000 connections at most (60 applications × 50) against 80% of 3000 = 2400"), "{text}");
    assert!(text.contains("recommended maxPoolSize ≈ 30 (1000 QPS × 0.02 s × 1.5)"), "{text}");
}

#[test]
fn the_source_scan_finds_passwords_in_connection_strings() {
    let Some(uri) = uri("MONGODB_URI", "source scan") else { return };
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("src")).unwrap();
    std::fs::write(dir.path().join("src/db.rs"), "let uri = std::env::var(\"MONGODB_URI\")?;\n").unwrap();
    let report = review(&uri, &[], &["t_review_none"], |o| o.source = Some(dir.path().to_owned()));
    assert_eq!(status(&report, "hardcoded_credentials"), Status::Pass);
    std::fs::write(dir.path().join("app.toml"), "[db]\nurl = \"mongodb://app:Real-Pw-123@10.0.0.1:27017/db_app\"\n")
        .unwrap();
    let report = review(&uri, &[], &["t_review_none"], |o| o.source = Some(dir.path().to_owned()));
    assert_eq!(status(&report, "hardcoded_credentials"), Status::Fail);
    let text = evidence(&report, "hardcoded_credentials");
    assert!(text.contains("app.toml:2: mongodb://app:****@10.0.0.1:27017") && !text.contains("Real-Pw"), "{text}");
}

#[test]
fn the_command_prints_a_table_or_json_and_exits_1_on_a_failure() {
    let Some(uri) = uri("MONGODB_URI", "the command") else { return };
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let args = ["schema", "review", "--uri", &uri, "--collections", "db_review.t_review_none", "--format", "json"];
    let code = mongo_schema::cli::run(&[], args, &mut out, &mut err);
    assert_eq!(code, 1, "{}", String::from_utf8_lossy(&err));
    let json: serde_json::Value = serde_json::from_slice(&out).unwrap();
    let auth = json["items"].as_array().unwrap().iter().find(|i| i["id"] == "auth").unwrap();
    assert_eq!(auth["status"], "fail");
    assert_eq!(json["items"].as_array().unwrap().len(), 26);
    let lists: std::collections::BTreeSet<&str> =
        json["items"].as_array().unwrap().iter().map(|i| i["list"].as_str().unwrap()).collect();
    assert_eq!(lists, ["connection", "data", "queries"].into());
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = mongo_schema::cli::run(
        &[],
        ["schema", "review", "--uri", &uri, "--collections", "t_review_none"],
        &mut out,
        &mut err,
    );
    assert_eq!(code, 1);
    let text = String::from_utf8(out).unwrap();
    assert!(
        text.contains("[fail]")
            && text.contains("Spec 5: authentication enabled (auth)")
            && text.contains("fix: start mongod with `--auth`"),
        "{text}"
    );
}

#[test]
fn data_written_as_field_names_never_hides_a_long_array_or_a_deep_path() {
    let Some(uri) = uri("MONGODB_URI", "data written as field names") else { return };
    // 6000 keys (more paths than a sample keeps), beside a long array and a deep path
    let scores: Document = (0..6000).map(|i| (format!("user{i:05}"), Bson::Int32(i))).collect();
    let deep = doc! { "a1": { "a2": { "a3": { "a4": { "a5": { "a6": 1 } } } } } };
    seed(
        &uri,
        "t_review_flood",
        vec![doc! { "_id": 1, "scores": scores, "zLog": (0..1500).collect::<Vec<i32>>(), "zDeep": deep }],
    );
    let report = review(&uri, &[], &["t_review_flood"], |_| {});
    assert_eq!(status(&report, "arrays"), Status::Fail);
    assert!(evidence(&report, "arrays").contains("`zLog`: 1500 items (_id 1), more than 1000"));
    assert_eq!(status(&report, "nesting_depth"), Status::Fail);
    assert!(evidence(&report, "nesting_depth").contains("deepest 7 levels at `zDeep.a1.a2.a3.a4.a5.a6`"));
    assert!(evidence(&report, "naming").contains("more than 5000 distinct field paths"));
    assert_eq!(status(&report, "type_drift"), Status::Warn);
}

/// `ReviewOrder`'s model, moved to `db` and `collection`.
fn order_model(db: &str, collection: &str) -> Model {
    let mut model = Model::of::<ReviewOrder>("ReviewOrder");
    model.db = db.to_owned();
    model.collection = collection.to_owned();
    model
}

/// `collection` of `db` replaced by a few orders, with `indexes` (as createIndexes takes them).
fn seed_orders(uri: &str, db: &str, collection: &str, indexes: Vec<Document>) {
    let mut server = MongoServer::connect(uri).expect("connect");
    match server.run_command(db, doc! { "drop": collection }) {
        Err(e) if e.is(mongo_schema::codes::NAMESPACE_NOT_FOUND) => {}
        result => drop(result.expect("drop")),
    }
    let orders: Vec<Document> = (0..20_i64)
        .map(|i| doc! { "_id": i, "customerId": i % 4, "orderNo": format!("NO-{i:04}"), "status": "paid",
        "createTime": mongo_schema::bson::DateTime::from_millis(1_700_000_000_000 + i), "customerName": "Zoé", "note": "x" })
        .collect();
    server.run_command(db, doc! { "insert": collection, "documents": orders }).expect("insert");
    if !indexes.is_empty() {
        server.run_command(db, doc! { "createIndexes": collection, "indexes": indexes }).expect("createIndexes");
    }
}

/// The model's own index specification named `name`.
fn declared(name: &str) -> Document {
    let model = order_model(DB, "t");
    model.options.indexes.iter().find(|i| i.get_str("name").is_ok_and(|n| n == name)).cloned().expect(name)
}

/// Runs every `` `db.getSiblingDB("db").runCommand({...})` `` a fix names, in order, as a
/// user pasting them would.
fn run_fix(uri: &str, fix: &str) {
    let mut server = MongoServer::connect(uri).unwrap();
    let mut ran = 0;
    for command in fix.split('`').filter(|s| s.starts_with("db.getSiblingDB(")) {
        let (db, rest) = command["db.getSiblingDB(".len()..].split_once(").runCommand(").unwrap();
        let db: String = serde_json::from_str(db).unwrap();
        let json: serde_json::Value = serde_json::from_str(rest.strip_suffix(')').unwrap()).unwrap();
        let Bson::Document(command) = Bson::try_from(json).unwrap() else { panic!("{command}") };
        server.run_command(&db, command).unwrap();
        ran += 1;
    }
    assert!(ran > 0, "no command in {fix}");
}

/// Runs `filter` on `collection` (so the index it selects counts an operation).
fn query(uri: &str, db: &str, collection: &str, filter: Document) {
    let reply =
        MongoServer::connect(uri).unwrap().run_command(db, doc! { "find": collection, "filter": filter }).unwrap();
    assert!(!reply.get_document("cursor").unwrap().get_array("firstBatch").unwrap().is_empty(), "{reply}");
}

#[test]
fn unused_indexes_are_read_from_index_stats_and_a_query_makes_one_used() {
    let Some(uri) = uri("MONGODB_URI", "unused_indexes") else { return };
    let c = "t_review_usage";
    seed_orders(&uri, DB, c, vec![declared("customerId_1"), doc! { "key": { "note": 1 }, "name": "note_1" }]);
    let report = review(&uri, &[order_model(DB, c)], &[c], |_| {});
    assert_eq!(status(&report, "unused_indexes"), Status::Warn);
    let text = evidence(&report, "unused_indexes");
    assert!(
        text.contains("counters read on the standalone mongod; they restart at zero when mongod restarts"),
        "{text}"
    );
    assert!(text.contains(&format!("{DB}.{c} index `customerId_1` {{\"customerId\":1}}: 0 operations on ")), "{text}");
    assert!(text.contains(" ago: a short window, a weekly or monthly query may not have run yet)"), "{text}");
    assert!(text.contains(&format!("{DB}.{c} index `note_1` {{\"note\":1}}: 0 operations")), "{text}");
    let fix = &item(&report, "unused_indexes").fix;
    let hide = format!("db.getSiblingDB(\"{DB}\").runCommand({{\"collMod\":\"{c}\",\"index\":{{\"name\":\"note_1\",\"hidden\":true}}}})");
    assert!(fix.contains(&hide), "{fix}");
    // a query on customerId uses its index: only note_1 stays unused
    query(&uri, DB, c, doc! { "customerId": 1 });
    let report = review(&uri, &[order_model(DB, c)], &[c], |_| {});
    assert_eq!(status(&report, "unused_indexes"), Status::Warn);
    let text = evidence(&report, "unused_indexes");
    assert!(text.contains(&format!("{DB}.{c}: used (operations): customerId_1 1")), "{text}");
    assert!(!text.contains("`customerId_1`"), "{text}");
    assert!(text.contains("index `note_1`"), "{text}");
    // and one on note: every index used
    query(&uri, DB, c, doc! { "note": "x" });
    let report = review(&uri, &[order_model(DB, c)], &[c], |_| {});
    assert_eq!(status(&report, "unused_indexes"), Status::Pass);
    assert!(evidence(&report, "unused_indexes").contains("used (operations): customerId_1 1, note_1 1"));
    // a hidden index: the planner never uses it, however the queries ask
    let hidden = doc! { "key": { "status": 1 }, "name": "status_1", "hidden": true };
    MongoServer::connect(&uri).unwrap().run_command(DB, doc! { "createIndexes": c, "indexes": [hidden] }).unwrap();
    query(&uri, DB, c, doc! { "status": "paid" });
    let report = review(&uri, &[order_model(DB, c)], &[c], |_| {});
    assert_eq!(status(&report, "unused_indexes"), Status::Warn);
    let text = evidence(&report, "unused_indexes");
    assert!(
        text.contains("index `status_1` {\"status\":1}: 0 operations")
            && text.contains("; hidden: the planner never uses it, drop it once nothing slowed down"),
        "{text}"
    );
    assert!(!item(&report, "unused_indexes").fix.contains("status_1"), "already hidden");
    // a unique index no query used still enforces uniqueness: kept, not flagged
    let u = "t_review_usage_unique";
    seed_orders(&uri, DB, u, vec![declared("orderNo_1")]);
    let report = review(&uri, &[order_model(DB, u)], &[u], |_| {});
    assert_eq!(status(&report, "unused_indexes"), Status::Pass);
    assert!(evidence(&report, "unused_indexes").contains("unique: it enforces uniqueness on every write, keep it"));
}

#[test]
fn declared_indexes_are_compared_with_the_deployed_ones_by_keys_and_options() {
    let Some(uri) = uri("MONGODB_URI", "missing_indexes and undeclared_indexes") else { return };
    // every declared index as declared: both items pass
    let ok = "t_review_indexes_ok";
    let all: Vec<Document> = order_model(DB, ok).options.indexes;
    seed_orders(&uri, DB, ok, all);
    let report = review(&uri, &[order_model(DB, ok)], &[ok], |_| {});
    assert_eq!(status(&report, "missing_indexes"), Status::Pass);
    assert!(evidence(&report, "missing_indexes").contains(&format!(
        "{DB}.{ok}: deployed as declared: customerId_1, orderNo_1, status_1_createTime_-1, customerName_fr, createTime_ttl, status_paid"
    )));
    assert_eq!(status(&report, "undeclared_indexes"), Status::Pass);
    assert!(evidence(&report, "undeclared_indexes")
        .contains(&format!("{DB}.{ok}: its 6 indexes besides _id declared by ReviewOrder")));

    // customerId_1 under another name; orderNo_1 without `unique`; the collation's strength
    // other; status_1_createTime_-1 missing; note_1 undeclared
    let bad = "t_review_indexes_bad";
    seed_orders(
        &uri,
        DB,
        bad,
        vec![
            doc! { "key": { "customerId": 1 }, "name": "by_customer" },
            doc! { "key": { "orderNo": 1 }, "name": "orderNo_1" },
            doc! { "key": { "customerName": 1 }, "name": "customerName_fr", "collation": { "locale": "fr", "strength": 1 } },
            doc! { "key": { "note": 1 }, "name": "note_1", "sparse": true },
            doc! { "key": { "createTime": 1 }, "name": "createTime_ttl", "expireAfterSeconds": 1_900_000_000 },
            doc! { "key": { "status": 1 }, "name": "status_paid", "partialFilterExpression": { "status": "open" } },
        ],
    );
    let report = review(&uri, &[order_model(DB, bad)], &[bad], |_| {});
    assert_eq!(status(&report, "missing_indexes"), Status::Fail);
    let text = evidence(&report, "missing_indexes");
    let ns = format!("{DB}.{bad}");
    for line in [
        format!("{ns} index `customerId_1`: deployed with its keys and options as `by_customer`; the migration's createIndexes under the declared name fails (IndexOptionsConflict)"),
        format!("{ns} index `orderNo_1`: deployed as `orderNo_1` {{\"key\":{{\"orderNo\":1}}}}, declared {{\"key\":{{\"orderNo\":1}},\"unique\":true}} (differs: unique)"),
        format!("{ns} index `customerName_fr`: deployed as `customerName_fr`"),
        format!("{ns} index `status_1_createTime_-1` {{\"key\":{{\"status\":1,\"createTime\":-1}}}}: declared by ReviewOrder, not on the deployment"),
    ] {
        assert!(text.contains(&line), "missing {line:?} in\n{text}");
    }
    assert!(text.contains("(differs: collation.strength)"), "{text}");
    assert!(text.contains("index `createTime_ttl`: deployed as `createTime_ttl` {\"key\":{\"createTime\":1},\"expireAfterSeconds\":1900000000}, declared {\"key\":{\"createTime\":1},\"expireAfterSeconds\":2000000000} (differs: expireAfterSeconds)"), "{text}");
    assert!(text.contains("index `status_paid`: deployed as `status_paid` {\"key\":{\"status\":1},\"partialFilterExpression\":{\"status\":\"open\"}}, declared {\"key\":{\"status\":1},\"partialFilterExpression\":{\"status\":\"paid\"}} (differs: partialFilterExpression)"), "{text}");
    let fix = &item(&report, "missing_indexes").fix;
    assert!(fix.contains(&format!("db.getSiblingDB(\"{DB}\").runCommand({{\"createIndexes\":\"{bad}\",\"indexes\":[{{\"key\":{{\"status\":1,\"createTime\":-1}},\"name\":\"status_1_createTime_-1\"}}]}})")), "{fix}");
    assert!(
        fix.contains(&format!("runCommand({{\"dropIndexes\":\"{bad}\",\"index\":\"orderNo_1\"}})` then `")),
        "{fix}"
    );
    assert!(fix.contains("name `by_customer` in ReviewOrder's index"), "{fix}");
    // a TTL changes in place
    assert!(fix.contains(&format!("runCommand({{\"collMod\":\"{bad}\",\"index\":{{\"name\":\"createTime_ttl\",\"expireAfterSeconds\":2000000000}}}})")), "{fix}");
    assert_eq!(status(&report, "undeclared_indexes"), Status::Warn);
    let text = evidence(&report, "undeclared_indexes");
    assert!(text.contains(&format!("{ns} index `note_1` {{\"key\":{{\"note\":1}},\"sparse\":true}}: no index of ReviewOrder has these keys and options")), "{text}");
    assert!(!text.contains("by_customer"), "matched by keys and options, not by name: {text}");
    let hide = &item(&report, "undeclared_indexes").fix;
    assert!(
        hide.contains(&format!(
            "runCommand({{\"collMod\":\"{bad}\",\"index\":{{\"name\":\"note_1\",\"hidden\":true}}}})"
        )),
        "{hide}"
    );

    // the fix is right: its commands, run as printed, leave only the name to change in the model
    run_fix(&uri, fix);
    let report = review(&uri, &[order_model(DB, bad)], &[bad], |_| {});
    assert_eq!(status(&report, "missing_indexes"), Status::Warn);
    assert_eq!(item(&report, "missing_indexes").evidence.len(), 2, "the name, and the rest as declared");
    // and the index under the declared name passes
    let mut server = MongoServer::connect(&uri).unwrap();
    server.run_command(DB, doc! { "dropIndexes": bad, "index": "by_customer" }).unwrap();
    server.run_command(DB, doc! { "createIndexes": bad, "indexes": [declared("customerId_1")] }).unwrap();
    let report = review(&uri, &[order_model(DB, bad)], &[bad], |_| {});
    assert_eq!(status(&report, "missing_indexes"), Status::Pass);

    // the model's collection not created: its indexes are missing with it
    let report = review(&uri, &[order_model(DB, "t_review_indexes_never")], &["t_review_indexes_never"], |_| {});
    assert_eq!(status(&report, "missing_indexes"), Status::Fail);
    assert!(evidence(&report, "missing_indexes")
        .contains("t_review_indexes_never: the collection does not exist, nor its 6 declared indexes"));
    // no model: nothing to compare
    let report = review(&uri, &[], &[ok], |_| {});
    assert_eq!(status(&report, "undeclared_indexes"), Status::NotCheckable);
}

/// Sets the profiler of `db` (level, slowms) on the deployment `uri`.
fn profile(uri: &str, db: &str, level: i32, slowms: i32) {
    let command = doc! { "profile": level, "slowms": slowms };
    MongoServer::connect(uri).unwrap().run_command(db, command).expect("profile");
}

#[test]
fn slow_queries_are_recorded_when_the_profiler_is_at_level_1() {
    let Some(uri) = uri("MONGODB_URI", "slow_query_log") else { return };
    let db = "db_review_profile";
    seed_orders(&uri, db, "t_review_profiled", vec![]);
    let options = |uri: &str| Options {
        uri: uri.to_owned(),
        collections: vec![format!("{db}.t_review_profiled")],
        sample: 10,
        ..Options::default()
    };
    profile(&uri, db, 0, 100);
    let report = review_uri(&[], &options(&uri)).unwrap();
    assert_eq!(status(&report, "slow_query_log"), Status::Warn);
    let text = evidence(&report, "slow_query_log");
    assert!(text.contains("asked of the standalone mongod; the level is per database and per node"), "{text}");
    assert!(
        text.contains(&format!(
            "{db}: level 0, the profiler is off: operations slower than 100 ms reach only mongod's log"
        )),
        "{text}"
    );
    assert!(
        text.contains("mongod's configuration sets no operationProfiling: after a restart the level is 0 (off)"),
        "{text}"
    );
    let fix = &item(&report, "slow_query_log").fix;
    assert!(fix.contains(&format!("`db.getSiblingDB(\"{db}\").setProfilingLevel(1, {{slowms: 100}})`")), "{fix}");
    // the fix, as the fix says
    profile(&uri, db, 1, 100);
    let report = review_uri(&[], &options(&uri)).unwrap();
    assert_eq!(status(&report, "slow_query_log"), Status::Pass);
    assert!(evidence(&report, "slow_query_log")
        .contains(&format!("{db}: level 1, operations slower than 100 ms recorded in {db}.system.profile")));
    // a threshold of 5 s hides most slow queries; level 2 costs every query
    profile(&uri, db, 1, 5000);
    let report = review_uri(&[], &options(&uri)).unwrap();
    assert_eq!(status(&report, "slow_query_log"), Status::Warn);
    assert!(evidence(&report, "slow_query_log")
        .contains(&format!("{db}: slowms 5000 ms: a query under 5 s is never recorded")));
    profile(&uri, db, 2, 100);
    let report = review_uri(&[], &options(&uri)).unwrap();
    assert_eq!(status(&report, "slow_query_log"), Status::Warn);
    assert!(evidence(&report, "slow_query_log").contains(&format!("{db}: level 2, every operation profiled")));
    profile(&uri, db, 0, 100);
}

#[test]
fn on_a_replica_set_the_counters_and_the_profiler_name_the_node_read() {
    let Some(uri) = uri("MONGODB_URI_REPLSET", "index counters on a replica set") else { return };
    let c = "t_review_rs_usage";
    seed_orders(&uri, DB, c, vec![declared("customerId_1")]);
    let report = review(&uri, &[order_model(DB, c)], &[c], |_| {});
    let hello = MongoServer::connect(&uri).unwrap().run_command("admin", doc! { "hello": 1 }).unwrap();
    let me = hello.get_str("me").unwrap().to_owned();
    let node = format!("{me}, the primary of replica set `rs0`");
    let text = evidence(&report, "unused_indexes");
    assert!(
        text.contains(&format!("counters read on {node}")) && text.contains("each member counts only what it served"),
        "{text}"
    );
    assert!(evidence(&report, "slow_query_log").contains(&format!("asked of {node}")));
}

#[test]
fn a_user_without_index_stats_or_profiler_privileges_gets_not_checkable_items() {
    let (Some(reader), Some(root)) =
        (uri("MONGODB_URI_AUTH_READ", "privileges"), uri("MONGODB_URI_AUTH_ROOT", "privileges"))
    else {
        return;
    };
    let c = "t_review_read";
    seed_orders(&root, "db_app", c, vec![declared("customerId_1"), doc! { "key": { "note": 1 }, "name": "note_1" }]);
    let models = [order_model("db_app", c)];
    let options = |uri: &str| Options {
        uri: uri.to_owned(),
        collections: vec![format!("db_app.{c}")],
        sample: 10,
        ..Options::default()
    };
    // `read` on db_app: listIndexes yes, $indexStats and {profile: -1} no
    let report = review_uri(&models, &options(&reader)).expect("the review runs");
    assert_eq!(status(&report, "unused_indexes"), Status::NotCheckable);
    assert!(!evidence(&report, "unused_indexes").contains("counters read on"), "none was read");
    assert!(evidence(&report, "unused_indexes").contains(&format!(
        "db_app.{c}: this user may not run $indexStats (it needs the indexStats action: role clusterMonitor"
    )));
    assert_eq!(status(&report, "slow_query_log"), Status::NotCheckable);
    let text = evidence(&report, "slow_query_log");
    assert!(text.contains("db_app: this user may not run `{profile: -1}` (it needs the enableProfiler action on the database: role dbAdmin, or clusterMonitor)"), "{text}");
    assert!(
        text.contains("whether a level survives a restart is not readable: this user may not run getCmdLineOpts"),
        "{text}"
    );
    // what listIndexes shows is still compared
    assert_eq!(status(&report, "undeclared_indexes"), Status::Warn);
    assert_eq!(status(&report, "missing_indexes"), Status::Fail);
    // root reads it all
    let report = review_uri(&models, &options(&root)).expect("the review runs");
    assert_eq!(status(&report, "unused_indexes"), Status::Warn);
    assert!(evidence(&report, "unused_indexes").contains("index `note_1`"));
    assert_eq!(status(&report, "slow_query_log"), Status::Warn, "level 0 by default");
}
