//! `schema review` over a recording fake of the server: the paths no deployment here can
//! show. mongos is not available in this test environment, so the sharded cluster (mongos
//! counted from `config.mongos`, SRV, a load balancer, every mongos in the URI), public
//! addresses and the 5000-collection instance limit are answered by the fake, as are the
//! index counters summed over shards and the profiler mongos does not have, and a user
//! refused `$indexStats` and `{profile: -1}`; the review's commands are checked to be
//! reads with timeouts. A connection lost under some
//! commands (after `hello`) shows that the evidence names the driver's cause.

#![forbid(unsafe_code)]

use mongo_schema::bson::{doc, Bson, Document};
use mongo_schema::codes::{ServerCode, UNAUTHORIZED};
use mongo_schema::migrate::server::{CommandError, Server};
use mongo_schema::migrate::Model;
use mongo_schema::review::{review, Options, Report, ReviewError, Status};
use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

/// The fake's collection as a model declares it: two indexes, one the fake lists.
#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(
    db = "db_shop",
    collection = "t_order",
    index(keys("customerId" = 1), name = "customerId_1"),
    index(keys("orderNo" = 1), unique, name = "orderNo_1")
)]
struct FakeOrder {
    #[serde(rename = "_id")]
    id: i64,
    customer_id: i64,
    #[mongo(max_length = 32)]
    order_no: String,
}

/// Answers by command name; records every command.
struct Fake {
    hello: Document,
    /// `(database, collections)` listed.
    databases: Vec<(String, Vec<String>)>,
    mongos: Option<Vec<&'static str>>,
    /// serverStatus's current + available, or refused.
    connections: Option<(i32, i32)>,
    /// serverStatus's `connections.totalCreated` and `uptime` (seconds).
    created: (i64, i64),
    roles: Vec<(&'static str, &'static str)>,
    /// Whether a client without credentials is refused.
    auth: bool,
    /// `listIndexes`' answer, for every collection.
    indexes: Vec<Document>,
    /// `$indexStats`' rows (through mongos, one per index per shard), or refused.
    index_stats: Option<Vec<Document>>,
    /// `{profile: -1}`'s answer, or refused.
    profile: Option<Document>,
    /// `getCmdLineOpts`' `parsed`, or refused.
    cmdline: Option<Document>,
    /// Commands refused as Unauthorized, whatever the fields above say.
    refuse: &'static [&'static str],
    log: Vec<(String, Document)>,
}

impl Fake {
    fn mongos() -> Self {
        Fake {
            hello: doc! { "isWritablePrimary": true, "msg": "isdbgrid" },
            databases: vec![("db_shop".to_owned(), vec!["t_order".to_owned()])],
            mongos: Some(vec!["mongos-a:27017", "mongos-b:27017", "mongos-c:27017"]),
            connections: Some((10, 2990)),
            created: (500, 86_400),
            roles: vec![("readWrite", "db_shop")],
            auth: true,
            indexes: vec![
                doc! { "v": 2, "key": { "_id": 1 }, "name": "_id_" },
                doc! { "v": 2, "key": { "customerId": 1 }, "name": "customerId_1" },
                doc! { "v": 2, "key": { "status": 1 }, "name": "status_1" },
            ],
            // customerId_1 used on one shard of two; status_1 on neither
            index_stats: Some(vec![
                usage("customerId_1", doc! { "customerId": 1 }, "shard-a", 12),
                usage("customerId_1", doc! { "customerId": 1 }, "shard-b", 0),
                usage("status_1", doc! { "status": 1 }, "shard-a", 0),
                usage("status_1", doc! { "status": 1 }, "shard-b", 0),
                usage("_id_", doc! { "_id": 1 }, "shard-a", 0),
            ]),
            // what mongos answers: its own log's threshold
            profile: Some(doc! { "was": 0, "slowms": 100, "sampleRate": 1.0, "ok": 1 }),
            cmdline: None,
            refuse: &[],
            log: Vec::new(),
        }
    }

    /// A standalone mongod whose user may run neither `$indexStats` nor `{profile: -1}`.
    fn unprivileged() -> Self {
        Fake {
            hello: doc! { "isWritablePrimary": true },
            index_stats: None,
            profile: None,
            cmdline: None,
            ..Fake::mongos()
        }
    }
}

/// One `$indexStats` row as mongos gives it: the shard, its primary, the counter.
fn usage(name: &str, key: Document, shard: &str, ops: i64) -> Document {
    let since = mongo_schema::bson::DateTime::from_millis(1_765_000_000_000);
    doc! { "name": name, "key": key.clone(), "host": format!("{shard}-0.example.net:27018"), "shard": shard,
    "accesses": { "ops": ops, "since": since }, "spec": { "v": 2, "key": key, "name": name } }
}

/// An aggregation's first stage (`$sample`, `$indexStats`).
fn stage(command: &Document) -> String {
    let first = command.get_array("pipeline").ok().and_then(|p| p.first()).and_then(Bson::as_document);
    first.and_then(|s| s.keys().next().cloned()).unwrap_or_default()
}

fn refused(code: ServerCode) -> CommandError {
    CommandError::Refused { code: code.code, message: "not authorized".to_owned() }
}

fn cursor(batch: Vec<Document>) -> Document {
    doc! { "cursor": { "id": 0_i64, "firstBatch": batch }, "ok": 1 }
}

impl Server for Fake {
    fn run_command(&mut self, db: &str, command: Document) -> Result<Document, CommandError> {
        self.log.push((db.to_owned(), command.clone()));
        let name = command.keys().next().cloned().unwrap_or_default();
        if self.refuse.contains(&name.as_str()) {
            return Err(refused(UNAUTHORIZED));
        }
        match name.as_str() {
            "hello" => Ok(self.hello.clone()),
            "connectionStatus" => {
                let roles: Vec<Document> =
                    self.roles.iter().map(|(role, db)| doc! { "role": *role, "db": *db }).collect();
                Ok(
                    doc! { "authInfo": { "authenticatedUsers": [{ "user": "app", "db": "admin" }], "authenticatedUserRoles": roles } },
                )
            }
            "listDatabases" if command.get_bool("authorizedDatabases").is_err() && self.auth => {
                Err(refused(UNAUTHORIZED))
            }
            "listDatabases" => {
                let dbs: Vec<Document> = self.databases.iter().map(|(name, _)| doc! { "name": name }).collect();
                Ok(doc! { "databases": dbs })
            }
            "listCollections" => {
                let names =
                    self.databases.iter().find(|(name, _)| name == db).map(|(_, c)| c.clone()).unwrap_or_default();
                Ok(cursor(names.iter().map(|n| doc! { "name": n, "type": "collection", "options": {} }).collect()))
            }
            "aggregate" if stage(&command) == "$indexStats" => match &self.index_stats {
                Some(rows) => Ok(cursor(rows.clone())),
                None => Err(refused(UNAUTHORIZED)),
            },
            "aggregate" => Ok(cursor(vec![doc! { "sizes": [], "paths": [] }])),
            "listIndexes" => Ok(cursor(self.indexes.clone())),
            "profile" => self.profile.clone().ok_or_else(|| refused(UNAUTHORIZED)),
            "getCmdLineOpts" => match &self.cmdline {
                Some(parsed) => Ok(doc! { "parsed": parsed.clone(), "ok": 1 }),
                None => Err(refused(UNAUTHORIZED)),
            },
            // `schema queries --explain`: a deployment where no index answers anything
            "explain" => Ok(doc! {
                "queryPlanner": { "winningPlan": { "stage": "COLLSCAN", "direction": "forward" }, "rejectedPlans": [] },
                "ok": 1,
            }),
            "find" => match &self.mongos {
                Some(names) => Ok(cursor(names.iter().map(|n| doc! { "_id": *n }).collect())),
                None => Err(refused(UNAUTHORIZED)),
            },
            "serverStatus" => match self.connections {
                Some((current, available)) => Ok(doc! { "uptime": self.created.1 as f64,
                "connections": { "current": current, "available": available, "totalCreated": self.created.0 } }),
                None => Err(refused(UNAUTHORIZED)),
            },
            other => panic!("the review sent `{other}`, which it never should"),
        }
    }
}

fn run(fake: &mut Fake, uri: &str, tweak: impl FnOnce(&mut Options)) -> Report {
    let mut options = Options { uri: uri.to_owned(), ..Options::default() };
    tweak(&mut options);
    review(fake, None, &[], &options).expect("the review runs")
}

fn evidence(report: &Report, id: &str) -> String {
    report.item(id).unwrap().evidence.join("\n")
}

fn status(report: &Report, id: &str) -> Status {
    let item = report.item(id).unwrap();
    eprintln!("{id}: {:?} {:#?}", item.status, item.evidence);
    item.status
}

#[test]
fn srv_counts_a_pool_per_mongos_from_config_mongos() {
    let mut fake = Fake::mongos();
    let uri = "mongodb+srv://app:Str0ng-Passw0rd!@cluster.example.net/?authSource=admin&maxPoolSize=100";
    // 10 applications × 100 × 3 mongos = 3000 > 80% of 3000
    let report = run(&mut fake, uri, |o| o.apps = Some(10));
    assert_eq!(status(&report, "pool_size"), Status::Fail);
    let text = evidence(&report, "pool_size");
    assert!(
        text.contains(
            "M = 3 (config.mongos, pinged in the last 10 minutes: mongos-a:27017, mongos-b:27017, mongos-c:27017)"
        ),
        "{text}"
    );
    assert!(
        text.contains("3000 connections at most (10 applications × 100 × 3 mongos) against 80% of 3000 = 2400"),
        "{text}"
    );
    // 6 applications: 1800
    let report = run(&mut fake, uri, |o| {
        o.apps = Some(6);
        o.peak_qps = Some(1000.0);
        o.latency_ms = Some(20.0);
    });
    assert_eq!(status(&report, "pool_size"), Status::Pass);
    assert!(
        evidence(&report, "pool_size").contains("recommended maxPoolSize ≈ 10 (1000 QPS × 0.02 s × 1.5 ÷ 3 mongos)")
    );
    assert_eq!(status(&report, "uri_hosts"), Status::Pass);
    assert_eq!(status(&report, "tls"), Status::Pass, "SRV turns TLS on");
    assert_eq!(status(&report, "password_strength"), Status::Pass);
    assert_eq!(status(&report, "replica_set"), Status::Pass, "mongos: no replicaSet");
}

#[test]
fn srv_without_access_to_config_mongos_asks_for_the_count() {
    let mut fake = Fake { mongos: None, ..Fake::mongos() };
    let uri = "mongodb+srv://cluster.example.net/?maxPoolSize=100";
    let report = run(&mut fake, uri, |o| o.apps = Some(10));
    assert_eq!(status(&report, "pool_size"), Status::NotCheckable);
    assert!(evidence(&report, "pool_size").contains("pass --mongos M"));
    let report = run(&mut fake, uri, |o| {
        o.apps = Some(10);
        o.mongos = Some(2);
    });
    assert_eq!(status(&report, "pool_size"), Status::Pass, "10 × 100 × 2 = 2000 ≤ 2400");
}

#[test]
fn a_load_balancer_gets_one_pool_and_every_mongos_in_the_uri_one_each() {
    let mut fake = Fake::mongos();
    let report = run(&mut fake, "mongodb://10.0.0.40:27017/?maxPoolSize=200", |o| o.apps = Some(20));
    assert!(evidence(&report, "pool_size")
        .contains("4000 connections at most (20 applications × 200) against 80% of 3000 = 2400"));
    assert_eq!(status(&report, "pool_size"), Status::Fail);
    assert_eq!(status(&report, "uri_hosts"), Status::Warn, "one address in front of mongos: an LB, or a single point");
    let report = run(&mut fake, "mongodb://10.0.0.40:27017/?maxPoolSize=100&loadBalanced=true", |o| o.apps = Some(20));
    assert_eq!(status(&report, "pool_size"), Status::Pass);
    assert_eq!(status(&report, "uri_hosts"), Status::Pass, "declared a load balancer");
    let uri = "mongodb://10.0.0.100:27017,10.0.0.100:27018,10.0.0.100:27019/?maxPoolSize=50";
    let report = run(&mut fake, uri, |o| o.apps = Some(20));
    assert!(evidence(&report, "pool_size").contains("3000 connections at most (20 applications × 50 × 3 mongos)"));
    assert_eq!(status(&report, "uri_hosts"), Status::Pass);
}

#[test]
fn a_public_address_without_tls_fails_and_with_tls_passes() {
    let mut fake = Fake::mongos();
    let report = run(&mut fake, "mongodb://203.0.113.7:27017/", |_| {});
    assert_eq!(status(&report, "tls"), Status::Fail);
    assert!(evidence(&report, "tls").contains("TLS off toward 203.0.113.7:27017, a public address"));
    assert_eq!(status(&report, "network_exposure"), Status::Warn);
    let report = run(&mut fake, "mongodb://203.0.113.7:27017/?tls=true", |_| {});
    assert_eq!(status(&report, "tls"), Status::Pass);
}

#[test]
fn more_than_5000_collections_on_the_instance_fail() {
    let databases: Vec<(String, Vec<String>)> =
        (0..51).map(|d| (format!("db_part_{d:02}"), (0..100).map(|c| format!("t_item_{c:03}")).collect())).collect();
    let mut fake = Fake { databases, ..Fake::mongos() };
    let report =
        run(&mut fake, "mongodb://10.0.0.40:27017/", |o| o.collections = vec!["db_part_00.t_item_000".to_owned()]);
    assert_eq!(status(&report, "collection_count"), Status::Fail);
    assert!(evidence(&report, "collection_count")
        .contains("instance: 5100 business collections in 51 databases (limit 5000)"));
    // one sample, one $indexStats, one listIndexes: only the selected collection is read
    for (stage_or_command, n) in [("$sample", 1), ("$indexStats", 1), ("listIndexes", 1)] {
        let found =
            fake.log.iter().filter(|(_, c)| c.contains_key(stage_or_command) || stage(c) == stage_or_command).count();
        assert_eq!(found, n, "{stage_or_command}");
    }
}

#[test]
fn custom_and_any_database_roles() {
    let mut fake = Fake { roles: vec![("readWriteAnyDatabase", "admin")], ..Fake::mongos() };
    let report = run(&mut fake, "mongodb://10.0.0.40:27017/", |_| {});
    assert_eq!(status(&report, "least_privilege"), Status::Fail);
    let mut fake = Fake { roles: vec![("readWrite", "db_shop"), ("shopReporter", "db_shop")], ..Fake::mongos() };
    let report = run(&mut fake, "mongodb://10.0.0.40:27017/", |_| {});
    assert_eq!(status(&report, "least_privilege"), Status::Warn);
    let mut fake = Fake { roles: vec![("readWrite", "admin")], ..Fake::mongos() };
    let report = run(&mut fake, "mongodb://10.0.0.40:27017/", |_| {});
    assert_eq!(status(&report, "least_privilege"), Status::Fail);
}

#[test]
fn the_review_only_reads_and_every_aggregation_is_bounded() {
    let mut fake = Fake::mongos();
    let report = run(&mut fake, "mongodb://10.0.0.40:27017/", |o| o.sample = 250);
    assert!(!report.items.is_empty());
    for (_, command) in &fake.log {
        let name = command.keys().next().unwrap().as_str();
        assert!(
            [
                "hello",
                "connectionStatus",
                "listDatabases",
                "listCollections",
                "listIndexes",
                "aggregate",
                "find",
                "serverStatus",
                "profile",
                "getCmdLineOpts"
            ]
            .contains(&name),
            "{name}"
        );
        if name == "profile" {
            // -1 reads the level; any other value would set it
            assert_eq!(command.get_i32("profile").unwrap(), -1, "{command}");
            assert_eq!(command.len(), 1, "{command}");
        }
        if name == "aggregate" && stage(command) == "$indexStats" {
            assert_eq!(command.get_array("pipeline").unwrap().len(), 1, "{command}");
            assert_eq!(command.get_i64("maxTimeMS").unwrap(), 30_000);
        } else if name == "aggregate" {
            assert_eq!(command.get_i64("maxTimeMS").unwrap(), 30_000);
            let pipeline = command.get_array("pipeline").unwrap();
            assert_eq!(
                pipeline[0].as_document().unwrap().get_document("$sample").unwrap().get_i64("size").unwrap(),
                250
            );
            let text = Bson::Array(pipeline.clone()).into_relaxed_extjson().to_string();
            assert!(!text.contains("$out") && !text.contains("$merge"), "{text}");
        }
    }
}

#[test]
fn connection_churn_betrays_connecting_per_request() {
    // 360,000 connections in an hour: 100 a second
    let mut fake = Fake { created: (360_000, 3_600), ..Fake::mongos() };
    let report = run(&mut fake, "mongodb://10.0.0.40:27017/", |_| {});
    assert_eq!(status(&report, "connection_pool_reuse"), Status::Warn);
    assert!(evidence(&report, "connection_pool_reuse")
        .contains("360000 connections opened in 3600 s since start (100.00 per second)"));
    // a pooled day: 500 connections in a day
    let mut fake = Fake::mongos();
    let report = run(&mut fake, "mongodb://10.0.0.40:27017/", |_| {});
    assert_eq!(status(&report, "connection_pool_reuse"), Status::NotCheckable);
    assert!(evidence(&report, "connection_pool_reuse").contains("no sign of connecting per request"));
    // without serverStatus: the reason
    let mut fake = Fake { connections: None, ..Fake::mongos() };
    let report = run(&mut fake, "mongodb://10.0.0.40:27017/", |_| {});
    assert!(evidence(&report, "connection_pool_reuse").contains("this user may not run serverStatus"));
}

/// The fake with the connection lost under some commands: the driver's error, whose cause
/// (`connection reset by peer`) only its `source()` holds, as `MongoServer` reports it.
struct Severed {
    fake: Fake,
    cut: &'static [&'static str],
}

const RESET: &str = "connection reset by peer";

impl Server for Severed {
    fn run_command(&mut self, db: &str, command: Document) -> Result<Document, CommandError> {
        let name = command.keys().next().cloned().unwrap_or_default();
        if self.cut.contains(&name.as_str()) {
            let cause = std::io::Error::new(std::io::ErrorKind::ConnectionReset, RESET);
            return Err(CommandError::Driver(std::sync::Arc::new(cause)));
        }
        self.fake.run_command(db, command)
    }
}

#[test]
fn every_note_of_a_driver_failure_names_its_cause() {
    let driver_failed = format!("the driver failed: {RESET}");
    let uri = "mongodb+srv://cluster.example.net/db_shop?maxPoolSize=100";
    let cut = &["listDatabases", "listCollections", "serverStatus", "find"];
    let mut severed = Severed { fake: Fake::mongos(), cut };
    let options = Options { uri: uri.to_owned(), apps: Some(10), ..Options::default() };
    let report = review(&mut severed, None, &[], &options).expect("the review runs");
    for (id, note) in [
        ("auth", format!("the probe without credentials failed otherwise: {driver_failed}")),
        ("collection_count", format!("(listDatabases: {driver_failed})")),
        ("collection_count", format!("db_shop: not listed: {driver_failed}")),
        ("connection_pool_reuse", format!("serverStatus: {driver_failed}")),
        ("pool_size", format!("the mongos count: config.mongos: {driver_failed}; pass --mongos M")),
    ] {
        assert!(evidence(&report, id).contains(&note), "{id} does not say {note:?}: {}", evidence(&report, id));
    }
    // the sampling aggregation
    let mut severed = Severed { fake: Fake::mongos(), cut: &["aggregate", "profile"] };
    let report = review(&mut severed, None, &[], &options).expect("the review runs");
    let note = format!("db_shop.t_order: not sampled: {driver_failed}");
    assert!(evidence(&report, "document_size").contains(&note), "{}", evidence(&report, "document_size"));
    for (id, note) in [
        ("unused_indexes", format!("db_shop.t_order: $indexStats: {driver_failed}")),
        ("slow_query_log", format!("through mongos: profile: {driver_failed}")),
    ] {
        assert!(evidence(&report, id).contains(&note), "{id} does not say {note:?}: {}", evidence(&report, id));
    }
    // the indexes not listed, on a mongod
    let mut severed = Severed { fake: Fake::unprivileged(), cut: &["listIndexes", "profile"] };
    let report = review(&mut severed, None, &[], &options).expect("the review runs");
    let note = format!("db_shop: `{{profile: -1}}`: {driver_failed}");
    assert!(evidence(&report, "slow_query_log").contains(&note), "{}", evidence(&report, "slow_query_log"));
}

#[test]
fn a_review_that_cannot_run_keeps_the_drivers_cause_as_its_source() {
    let mut severed = Severed { fake: Fake::mongos(), cut: &["hello"] };
    let options = Options { uri: "mongodb://10.0.0.40:27017/".to_owned(), ..Options::default() };
    let error = review(&mut severed, None, &[], &options).expect_err("no hello, no review");
    let mut chain = vec![error.to_string()];
    let mut cause = std::error::Error::source(&error);
    while let Some(e) = cause {
        chain.push(e.to_string());
        cause = e.source();
    }
    assert_eq!(chain, ["`hello` failed", "the driver failed", RESET]);
}

#[test]
fn a_connection_string_that_does_not_parse_keeps_the_drivers_error_as_its_source() {
    let options = Options { uri: "mongodb://h:notaport/".to_owned(), ..Options::default() };
    let error = review(&mut Fake::mongos(), None, &[], &options).expect_err("no URI, no review");
    assert!(matches!(error, ReviewError::Uri(_)), "{error:?}");
    assert_eq!(error.to_string(), "the connection string does not parse");
    let cause = std::error::Error::source(&error).expect("the driver's error").to_string();
    assert!(cause.contains("port"), "{cause}");
}

#[test]
fn through_mongos_index_counters_are_summed_over_the_shards() {
    let mut fake = Fake::mongos();
    let report = run(&mut fake, "mongodb://10.0.0.40:27017/", |_| {});
    assert_eq!(status(&report, "unused_indexes"), Status::Warn);
    let text = evidence(&report, "unused_indexes");
    assert!(
        text.contains(
            "counters read on mongos, which gathers each shard's answer; they restart at zero when mongod restarts"
        ) && text.contains("through mongos each shard answers for its own primary"),
        "{text}"
    );
    // used on one shard: used; unused on both: named with both shards
    assert!(text.contains("db_shop.t_order: used (operations): customerId_1 12"), "{text}");
    assert!(
        text.contains("db_shop.t_order index `status_1` {\"status\":1}: 0 operations on shard shard-a (shard-a-0.example.net:27018), shard shard-b (shard-b-0.example.net:27018) since 2025-12-06T05:46:40Z ("),
        "{text}"
    );
    assert!(!text.contains("_id_"), "{text}");
    // on every shard: unused
    let mut fake = Fake {
        index_stats: Some(vec![
            usage("customerId_1", doc! { "customerId": 1 }, "shard-a", 0),
            usage("customerId_1", doc! { "customerId": 1 }, "shard-b", 0),
        ]),
        indexes: vec![doc! { "v": 2, "key": { "customerId": 1 }, "name": "customerId_1" }],
        ..Fake::mongos()
    };
    let report = run(&mut fake, "mongodb://10.0.0.40:27017/", |_| {});
    assert_eq!(status(&report, "unused_indexes"), Status::Warn);
    assert!(evidence(&report, "unused_indexes").contains("index `customerId_1`"));
    // used on both: pass
    let mut fake = Fake {
        index_stats: Some(vec![
            usage("customerId_1", doc! { "customerId": 1 }, "shard-a", 3),
            usage("customerId_1", doc! { "customerId": 1 }, "shard-b", 4),
        ]),
        ..Fake::mongos()
    };
    let report = run(&mut fake, "mongodb://10.0.0.40:27017/", |_| {});
    assert_eq!(status(&report, "unused_indexes"), Status::Pass);
    assert!(evidence(&report, "unused_indexes").contains("used (operations): customerId_1 7"));
}

#[test]
fn through_mongos_the_profiler_is_not_checkable_and_says_where_it_is() {
    let mut fake = Fake::mongos();
    let report = run(&mut fake, "mongodb://10.0.0.40:27017/", |_| {});
    assert_eq!(status(&report, "slow_query_log"), Status::NotCheckable);
    let text = evidence(&report, "slow_query_log");
    assert!(
        text.contains("through mongos: slowms 100 ms, sampleRate 1 are mongos's own, for its log; mongos has no profiler (no system.profile)")
            && text.contains("run `db.getProfilingStatus()` on each shard's primary (directConnection=true)"),
        "{text}"
    );
    // mongos has no configuration of the shards' profilers to read
    assert!(!fake.log.iter().any(|(_, c)| c.contains_key("getCmdLineOpts")));
    // a mongos that refuses the user
    let mut fake = Fake { profile: None, ..Fake::mongos() };
    let report = run(&mut fake, "mongodb://10.0.0.40:27017/", |_| {});
    assert_eq!(status(&report, "slow_query_log"), Status::NotCheckable);
    assert!(evidence(&report, "slow_query_log")
        .contains("through mongos: this user may not run profile (it needs the enableProfiler action"));
}

#[test]
fn a_user_refused_index_stats_and_the_profiler_gets_items_not_checkable_and_the_rest_of_the_review() {
    let mut fake = Fake::unprivileged();
    let report = run(&mut fake, "mongodb://10.0.0.40:27017/", |_| {});
    assert_eq!(status(&report, "unused_indexes"), Status::NotCheckable);
    assert_eq!(
        evidence(&report, "unused_indexes"),
        "db_shop.t_order: this user may not run $indexStats (it needs the indexStats action: role clusterMonitor, or a custom role granting it on the database)"
    );
    assert_eq!(status(&report, "slow_query_log"), Status::NotCheckable);
    let text = evidence(&report, "slow_query_log");
    assert!(text.contains("asked of the standalone mongod"), "{text}");
    assert!(text.contains("db_shop: this user may not run `{profile: -1}` (it needs the enableProfiler action on the database: role dbAdmin, or clusterMonitor)"), "{text}");
    assert!(
        text.contains("whether a level survives a restart is not readable: this user may not run getCmdLineOpts"),
        "{text}"
    );
    assert!(report.item("slow_query_log").unwrap().fix.is_empty(), "nothing to fix that was seen");
    // every other item is there: nothing failed the review
    assert_eq!(report.items.len(), 26);
    // a profiler set in the configuration at level 1
    let mut fake = Fake {
        profile: Some(doc! { "was": 1, "slowms": 200, "sampleRate": 0.5, "filter": { "op": "query" }, "ok": 1 }),
        cmdline: Some(doc! { "operationProfiling": { "mode": "slowOp", "slowOpThresholdMs": 200 } }),
        ..Fake::unprivileged()
    };
    let report = run(&mut fake, "mongodb://10.0.0.40:27017/", |_| {});
    assert_eq!(status(&report, "slow_query_log"), Status::Pass);
    let text = evidence(&report, "slow_query_log");
    for line in [
        "mongod's configuration: operationProfiling {\"mode\":\"slowOp\",\"slowOpThresholdMs\":200} (the level after a restart)",
        "db_shop: level 1, operations slower than 200 ms recorded in db_shop.system.profile (slowms 200 ms, sampleRate 0.5)",
        "db_shop: sampleRate 0.5: only that fraction of slow operations is recorded",
        "db_shop: filter {\"op\":\"query\"}: only operations it matches are recorded",
    ] {
        assert!(text.contains(line), "{line:?} not in\n{text}");
    }
}

#[test]
fn through_mongos_the_models_indexes_are_compared_with_what_listindexes_shows() {
    let models = [Model::of::<FakeOrder>("FakeOrder")];
    let options = Options { uri: "mongodb://10.0.0.40:27017/".to_owned(), ..Options::default() };
    let report = review(&mut Fake::mongos(), None, &models, &options).expect("the review runs");
    assert_eq!(status(&report, "missing_indexes"), Status::Fail);
    assert!(evidence(&report, "missing_indexes").contains(
        "db_shop.t_order index `orderNo_1` {\"key\":{\"orderNo\":1},\"unique\":true}: declared by FakeOrder, not on the deployment"
    ));
    assert!(evidence(&report, "missing_indexes").contains("db_shop.t_order: deployed as declared: customerId_1"));
    assert_eq!(status(&report, "undeclared_indexes"), Status::Warn);
    assert_eq!(
        evidence(&report, "undeclared_indexes"),
        "db_shop.t_order index `status_1` {\"key\":{\"status\":1}}: no index of FakeOrder has these keys and options"
    );
    // a user refused listIndexes: both items not checkable, the rest of the review runs
    let mut fake = Fake { refuse: &["listIndexes"], ..Fake::mongos() };
    let report = review(&mut fake, None, &models, &options).expect("the review runs");
    for id in ["missing_indexes", "undeclared_indexes"] {
        assert_eq!(status(&report, id), Status::NotCheckable);
        assert_eq!(
            evidence(&report, id),
            "db_shop.t_order: this user may not run listIndexes (it needs the listIndexes action: role read)"
        );
    }
    assert_eq!(report.items.len(), 26);
}

/// `schema queries --explain` where mongod's plans are not the verdicts': each difference is
/// listed with the query, and the explain sent is the query's, on its model's collection.
#[test]
fn the_explain_check_lists_where_the_deployment_plans_otherwise() {
    use mongo_schema::command::{Index, IndexKey, Registration};
    use mongo_schema::query::{Direction, Filter, Op, Pred, RegisteredQuery, Shape};

    const INDEXES: &[Index] = &[Index {
        name: "customerId_1_createTime_-1",
        keys: &[("customerId", IndexKey::Ascending), ("createTime", IndexKey::Descending)],
        unique: false,
        ttl: None,
        partial: None,
        sparse: false,
        hidden: false,
        collation: None,
        weights: &[],
        default_language: None,
        language_override: None,
        wildcard_projection: &[],
    }];
    /// The model's collection and fields (its indexes are `INDEXES`).
    #[derive(serde::Serialize, mongo_schema::MongoSchema)]
    #[serde(rename_all = "camelCase")]
    #[mongo(db = "db_shop", collection = "t_order")]
    struct Order {
        #[serde(rename = "_id")]
        id: i64,
        customer_id: String,
        create_time: mongo_schema::bson::DateTime,
        note: String,
    }
    fn model(_: &'static str) -> Registration {
        Registration { indexes: INDEXES, ..Registration::of::<Order>("Order") }
    }
    static INDEXED: Shape = Shape {
        filter: &[Filter::Pred(Pred { path: "customerId", op: Op::Eq })],
        sort: &[("createTime", Direction::Descending)],
        projection: &[],
        literals: &[],
        limit: Some(20),
        skip: None,
        name: Some("orders_of_customer"),
        allow: &[],
        module: "orders",
        file: "src/orders.rs",
        line: 7,
    };
    static SCAN: Shape =
        Shape { filter: &[Filter::Pred(Pred { path: "note", op: Op::Eq })], name: Some("by_note"), line: 9, ..INDEXED };
    let indexed = RegisteredQuery { rust_type: "Order", model, shape: INDEXED };
    let scan = RegisteredQuery { rust_type: "Order", model, shape: SCAN };
    let mut fake = Fake::mongos();
    let found = mongo_schema::queries::explain_check(&mut fake, &[&indexed, &scan]);
    // the collection scan was the verdict of `by_note`: only the indexed query differs
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!((found[0].query.as_str(), found[0].location.as_str()), ("orders_of_customer", "src/orders.rs:7"));
    assert_eq!(
        found[0].differences,
        ["mongod scans the collection (COLLSCAN) where the verdict names index customerId_1_createTime_-1"]
    );
    let (db, sent) = &fake.log[0];
    assert_eq!(db, "db_shop");
    assert_eq!(
        sent,
        &doc! {
            "explain": { "find": "t_order", "filter": { "customerId": "v1000" }, "sort": { "createTime": -1 }, "limit": 20_i64 },
            "verbosity": "queryPlanner",
        }
    );
}
