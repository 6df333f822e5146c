//! The query performance checklist, as far as a deployment shows it: indexes no query used
//! since the counters started (`$indexStats`), indexes no model declares and the models'
//! indexes missing or different (`listIndexes` against each model's `INDEXES`, by key
//! pattern and options), and whether slow queries are recorded (`{profile: -1}`).
//!
//! `$indexStats` and the profiler are per node: the evidence names the node that answered.

use super::connection::Topology;
use super::data::{model_selected, number, Collection};
use super::report::{Item, List, Options, Status};
use mongo_schema_contract::codes::{NAMESPACE_NOT_FOUND, UNAUTHORIZED};
use mongo_schema_core::bson::{doc, Bson, DateTime, Document};
use mongo_schema_migrate::drift::{match_indexes, IndexMatch};
use mongo_schema_migrate::server::{chain, CommandError, Server};
use mongo_schema_migrate::Model;
use std::collections::{BTreeMap, BTreeSet};

const QUERIES: List = List::Queries;

/// A counting window shorter than this may not have seen every query the business runs
/// (a weekly report, a month-end job).
const SHORT_WINDOW_MS: i64 = 7 * 24 * 3600 * 1000;
/// A `slowms` above this leaves most slow queries unrecorded.
const SLOWMS_CEILING: i64 = 1000;

/// One collection the checklist looks at: a business collection the data items sampled, or
/// a selected model's collection (which may not exist).
struct Target<'a> {
    db: String,
    name: String,
    model: Option<&'a Model>,
    /// Listed by `listCollections` (it exists and was sampled).
    listed: bool,
    /// `listIndexes`, or why not.
    indexes: Result<Vec<Document>, CommandError>,
}

impl Target<'_> {
    fn namespace(&self) -> String {
        format!("{}.{}", self.db, self.name)
    }

    /// The collection does not exist (`listIndexes`: NamespaceNotFound).
    fn absent(&self) -> bool {
        self.indexes.as_ref().is_err_and(|e| e.is(NAMESPACE_NOT_FOUND))
    }
}

pub(super) fn review_queries(
    server: &mut dyn Server,
    hello: &Document,
    topology: &Topology,
    reviewed: &[Collection],
    models: &[Model],
    options: &Options,
) -> Vec<Item> {
    let targets = targets(server, reviewed, models, options);
    let node = node(hello, topology);
    vec![
        unused_item(server, &targets, &node, topology, options),
        undeclared_item(&targets, models),
        missing_item(&targets),
        profiler_item(server, &targets, &node, topology),
    ]
}

fn targets<'a>(
    server: &mut dyn Server,
    reviewed: &[Collection],
    models: &'a [Model],
    options: &Options,
) -> Vec<Target<'a>> {
    let mut names: BTreeMap<(String, String), bool> =
        reviewed.iter().map(|c| ((c.db.clone(), c.name.clone()), true)).collect();
    for model in models.iter().filter(|m| model_selected(m, &options.collections)) {
        names.entry((model.db.clone(), model.collection.clone())).or_insert(false);
    }
    names
        .into_iter()
        .map(|((db, name), listed)| {
            let model = models.iter().find(|m| m.db == db && m.collection == name);
            let indexes = list_indexes(server, &db, &name);
            Target { db, name, model, listed, indexes }
        })
        .collect()
}

fn list_indexes(server: &mut dyn Server, db: &str, collection: &str) -> Result<Vec<Document>, CommandError> {
    let reply = server.run_command(db, doc! { "listIndexes": collection, "cursor": { "batchSize": 100_000 } })?;
    let batch = reply
        .get_document("cursor")
        .and_then(|c| c.get_array("firstBatch"))
        .map_err(|_| CommandError::reply("listIndexes", "a cursor with a first batch", &reply))?;
    Ok(batch.iter().filter_map(Bson::as_document).cloned().collect())
}

/// The node that answers the review's commands (they go to the primary), in words.
fn node(hello: &Document, topology: &Topology) -> String {
    let me = hello.get_str("me").ok();
    match topology {
        Topology::Mongos => "mongos, which gathers each shard's answer".to_owned(),
        Topology::ReplicaSet { name, .. } => {
            let role = match hello.get_bool("isWritablePrimary").or_else(|_| hello.get_bool("ismaster")) {
                Ok(true) => "the primary",
                _ if hello.get_bool("secondary").is_ok_and(|s| s) => "a secondary",
                _ => "a member",
            };
            format!("{}, {role} of replica set `{name}`", me.unwrap_or("the member the driver selected"))
        }
        Topology::Standalone => "the standalone mongod".to_owned(),
    }
}

/// An index's counters on one node (one shard through mongos).
struct Usage {
    name: String,
    key: Document,
    spec: Document,
    ops: i64,
    since: Option<DateTime>,
    /// `host`, and `shard` through mongos.
    place: String,
}

fn index_stats(server: &mut dyn Server, target: &Target<'_>, options: &Options) -> Result<Vec<Usage>, CommandError> {
    let command = doc! {
        "aggregate": &target.name,
        "pipeline": [{ "$indexStats": {} }],
        "cursor": { "batchSize": 100_000 },
        "maxTimeMS": i64::from(options.max_time_ms),
    };
    let reply = server.run_command(&target.db, command)?;
    let batch = reply
        .get_document("cursor")
        .and_then(|c| c.get_array("firstBatch"))
        .map_err(|_| CommandError::reply("aggregate", "a cursor with a first batch", &reply))?;
    Ok(batch
        .iter()
        .filter_map(Bson::as_document)
        .map(|row| {
            let accesses = row.get_document("accesses").cloned().unwrap_or_default();
            let host = row.get_str("host").unwrap_or("?");
            Usage {
                name: row.get_str("name").unwrap_or_default().to_owned(),
                key: row.get_document("key").cloned().unwrap_or_default(),
                spec: row.get_document("spec").cloned().unwrap_or_default(),
                ops: number(accesses.get("ops")).unwrap_or(0),
                since: accesses.get_datetime("since").ok().copied(),
                place: match row.get_str("shard") {
                    Ok(shard) => format!("shard {shard} ({host})"),
                    Err(_) => host.to_owned(),
                },
            }
        })
        .collect())
}

/// A date as RFC 3339 (`2026-12-07T17:14:02.888Z`).
fn when(date: DateTime) -> String {
    date.try_to_rfc3339_string().unwrap_or_else(|_| format!("{} ms after the epoch", date.timestamp_millis()))
}

/// A duration in words: `3 d 4 h`, `2 h 5 min`, `40 s`.
pub(super) fn span(ms: i64) -> String {
    let s = ms.max(0) / 1000;
    match s {
        0..60 => format!("{s} s"),
        60..3600 => format!("{} min", s / 60),
        3600..86_400 => format!("{} h {} min", s / 3600, s % 3600 / 60),
        _ => format!("{} d {} h", s / 86_400, s % 86_400 / 3600),
    }
}

fn shown(document: &Document) -> String {
    Bson::Document(document.clone()).into_relaxed_extjson().to_string()
}

/// `truthy` as mongod reads an index option (`unique: 1`).
fn flag(spec: &Document, key: &str) -> bool {
    match spec.get(key) {
        Some(Bson::Boolean(b)) => *b,
        Some(other) => number(Some(other)).is_some_and(|n| n != 0),
        None => false,
    }
}

/// Why a command that needs a privilege the user lacks cannot run, or the command's error.
fn refusal(error: &CommandError, command: &str, needs: &str) -> String {
    match error.is(UNAUTHORIZED) {
        true => format!("this user may not run {command} (it needs {needs})"),
        false => format!("{command}: {}", chain(error)),
    }
}

/// Namespaces that could not be checked, grouped by the reason (one line per reason, so a
/// user without the privilege gets one line, not one per collection).
fn note_refusals(item: &mut Item, refused: BTreeMap<String, Vec<String>>) {
    for (why, namespaces) in refused {
        item.note(Status::NotCheckable, format!("{}: {why}", namespaces.join(", ")));
    }
}

// Over-indexing: every index costs every write and memory; one no query uses is pure cost.
// `$indexStats` counts the operations that used each index since the node started (or the
// index was built), on that node only.
fn unused_item(
    server: &mut dyn Server,
    targets: &[Target<'_>],
    node: &str,
    topology: &Topology,
    options: &Options,
) -> Item {
    let title = "indexes no query used since the counters started ($indexStats)";
    let mut item = Item::new(QUERIES, "unused_indexes", title);
    let per_node = match topology {
        Topology::Mongos => "through mongos each shard answers for its own primary; secondaries count their own",
        Topology::ReplicaSet { .. } => {
            "each member counts only what it served: a secondary that serves reads (readPreference secondary*) has counters of its own, read them there with directConnection=true"
        }
        Topology::Standalone => "one node counts everything",
    };
    let header = format!(
        "counters read on {node}; they restart at zero when mongod restarts or the index is rebuilt, and are per node: {per_node}"
    );
    let now = DateTime::now().timestamp_millis();
    let mut refused: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut hide = Vec::new();
    for target in targets.iter().filter(|t| t.listed && !t.absent()) {
        let ns = target.namespace();
        let usages = match index_stats(server, target, options) {
            Ok(usages) => usages,
            Err(e) => {
                let why = refusal(
                    &e,
                    "$indexStats",
                    "the indexStats action: role clusterMonitor, or a custom role granting it on the database",
                );
                refused.entry(why).or_default().push(ns);
                continue;
            }
        };
        if item.evidence.is_empty() {
            item.evidence.push(header.clone());
        }
        // `$indexStats` names each index's options in `spec` since 4.2; `listIndexes` before
        let listed: &[Document] = target.indexes.as_deref().unwrap_or_default();
        let usages: Vec<Usage> = usages
            .into_iter()
            .map(|mut u| {
                if u.spec.is_empty() {
                    u.spec = listed.iter().find(|i| name_of(i) == u.name).cloned().unwrap_or_default();
                }
                u
            })
            .collect();
        let mut by_name: BTreeMap<&str, Vec<&Usage>> = BTreeMap::new();
        for usage in usages.iter().filter(|u| u.name != "_id_") {
            by_name.entry(usage.name.as_str()).or_default().push(usage);
        }
        let mut used = Vec::new();
        for (name, nodes) in &by_name {
            let ops: i64 = nodes.iter().map(|u| u.ops).sum();
            if ops > 0 {
                used.push(format!("{name} {ops}"));
                continue;
            }
            let first = nodes[0];
            // the shortest window any node counted over
            let since = nodes.iter().filter_map(|u| u.since).max_by_key(|d| d.timestamp_millis());
            let places: Vec<&str> = nodes.iter().map(|u| u.place.as_str()).collect();
            let mut line = format!("{ns} index `{name}` {}: 0 operations on {}", shown(&first.key), places.join(", "));
            if let Some(since) = since {
                let window = now - since.timestamp_millis();
                line.push_str(&format!(" since {} ({} ago", when(since), span(window)));
                if window < SHORT_WINDOW_MS {
                    line.push_str(": a short window, a weekly or monthly query may not have run yet");
                }
                line.push(')');
            }
            let shard_key =
                target.model.is_some_and(|m| !m.options.shard_key.is_empty() && m.options.shard_key == first.key);
            if flag(&first.spec, "unique") {
                item.note(Status::Pass, format!("{line}; unique: it enforces uniqueness on every write, keep it"));
            } else if first.spec.contains_key("expireAfterSeconds") {
                item.note(Status::Pass, format!("{line}; TTL: it expires documents, keep it"));
            } else if shard_key {
                item.note(Status::Pass, format!("{line}; the shard key's index, keep it"));
            } else if flag(&first.spec, "hidden") {
                item.note(
                    Status::Warn,
                    format!("{line}; hidden: the planner never uses it, drop it once nothing slowed down"),
                );
            } else {
                item.note(Status::Warn, line);
                let index = doc! { "name": *name, "hidden": true };
                hide.push(command_text(&target.db, &doc! { "collMod": &target.name, "index": index }));
            }
        }
        match (by_name.is_empty(), used.is_empty()) {
            (true, _) => item.note(Status::Pass, format!("{ns}: only the _id index")),
            (false, false) => item.note(Status::Pass, format!("{ns}: used (operations): {}", used.join(", "))),
            (false, true) => {}
        }
    }
    note_refusals(&mut item, refused);
    let hide = match hide.is_empty() {
        true => String::new(),
        false => format!(": {}", hide.join("; ")),
    };
    item.fix(format!("an index no query uses only costs writes and memory: confirm over a full business cycle and on every member that serves reads, then hide it{hide}; watch the slow queries, then drop it (`dropIndexes`) and its `index(...)` from the model (unhide it with `hidden: false` if a query slowed down); a query that should use it and does not: check it with `explain`"))
}

/// `db.getSiblingDB("db").runCommand({...})`, for a fix.
fn command_text(db: &str, command: &Document) -> String {
    format!("`db.getSiblingDB({}).runCommand({})`", Bson::String(db.to_owned()).into_relaxed_extjson(), shown(command))
}

fn name_of(spec: &Document) -> &str {
    spec.get_str("name").unwrap_or("?")
}

// Over-indexing's other face: an index on the deployment that no model declares was made by
// hand (or its declaration was removed, and migrations never drop indexes).
fn undeclared_item(targets: &[Target<'_>], models: &[Model]) -> Item {
    let title = "indexes on the deployment no model declares (keys and options compared, not names)";
    let mut item = Item::new(QUERIES, "undeclared_indexes", title);
    if models.is_empty() {
        item.note(Status::NotCheckable, "no model is registered in this binary: no declared index to compare with");
        return item;
    }
    let mut refused: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut hide = Vec::new();
    for target in targets.iter().filter(|t| !t.absent()) {
        let ns = target.namespace();
        let indexes = match &target.indexes {
            Ok(indexes) => indexes,
            Err(e) => {
                refused.entry(refusal(e, "listIndexes", "the listIndexes action: role read")).or_default().push(ns);
                continue;
            }
        };
        let Some(model) = target.model else {
            let n = indexes.iter().filter(|i| name_of(i) != "_id_").count();
            if n > 0 {
                item.evidence.push(format!(
                    "{ns}: no model describes this collection (`validators` lists it): its {n} index{} not compared",
                    if n == 1 { " is" } else { "es are" }
                ));
            }
            continue;
        };
        let mut undeclared = 0;
        for found in match_indexes(&model.options.indexes, indexes) {
            if let IndexMatch::Undeclared { deployed, shown: options } = found {
                undeclared += 1;
                let index = doc! { "name": name_of(&deployed), "hidden": true };
                hide.push(command_text(&target.db, &doc! { "collMod": &target.name, "index": index }));
                item.note(
                    Status::Warn,
                    format!(
                        "{ns} index `{}` {}: no index of {} has these keys and options",
                        name_of(&deployed),
                        shown(&options),
                        model.rust_type
                    ),
                );
            }
        }
        let n = indexes.iter().filter(|i| name_of(i) != "_id_").count();
        if undeclared == 0 && n == 0 {
            item.note(Status::Pass, format!("{ns}: only the _id index"));
        } else if undeclared == 0 {
            item.note(
                Status::Pass,
                format!(
                    "{ns}: its {n} index{} besides _id declared by {}",
                    if n == 1 { "" } else { "es" },
                    model.rust_type
                ),
            );
        }
    }
    note_refusals(&mut item, refused);
    item.fix(format!("a query that needs it: declare it on the model (`#[mongo(index(keys(...), ...))]`; `unused_indexes` says whether any query used it); otherwise hide it ({}), watch the slow queries, then drop it (`dropIndexes`): migrations never drop an index the code does not declare", hide.join("; ")))
}

// "Create indexes for query fields": an index declared on the model and absent (or built
// with other options) leaves the queries it was declared for scanning the collection, or a
// uniqueness unenforced.
fn missing_item(targets: &[Target<'_>]) -> Item {
    let title = "the models' indexes deployed as declared (keys, unique, partial, sparse, collation, TTL, hidden)";
    let mut item = Item::new(QUERIES, "missing_indexes", title);
    let mut fixes = Vec::new();
    let mut refused: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut modelled = 0;
    for target in targets {
        let Some(model) = target.model else { continue };
        modelled += 1;
        let ns = target.namespace();
        let declared = model.options.indexes.len();
        let indexes = match &target.indexes {
            Ok(indexes) => indexes,
            Err(_) if target.absent() => {
                if declared > 0 {
                    item.note(
                        Status::Fail,
                        format!(
                            "{ns}: the collection does not exist, nor its {declared} declared index{}",
                            if declared == 1 { "" } else { "es" }
                        ),
                    );
                    fixes.push(format!("`schema apply` creates {ns} and its indexes"));
                }
                continue;
            }
            Err(e) => {
                refused.entry(refusal(e, "listIndexes", "the listIndexes action: role read")).or_default().push(ns);
                continue;
            }
        };
        let mut as_declared = Vec::new();
        for found in match_indexes(&model.options.indexes, indexes) {
            match found {
                IndexMatch::Same { declared, deployed } if declared == deployed => as_declared.push(declared),
                IndexMatch::Same { declared, deployed } => {
                    item.note(Status::Warn, format!("{ns} index `{declared}`: deployed with its keys and options as `{deployed}`; the migration's createIndexes under the declared name fails (IndexOptionsConflict)"));
                    fixes.push(format!("name `{deployed}` in {}'s index (`name = \"{deployed}\"`)", model.rust_type));
                }
                IndexMatch::Missing { declared } => {
                    let mut keys_and_options = declared.clone();
                    keys_and_options.remove("name");
                    item.note(
                        Status::Fail,
                        format!(
                            "{ns} index `{}` {}: declared by {}, not on the deployment",
                            name_of(&declared),
                            shown(&keys_and_options),
                            model.rust_type
                        ),
                    );
                    fixes
                        .push(command_text(&target.db, &doc! { "createIndexes": &target.name, "indexes": [declared] }));
                }
                IndexMatch::Differs { declared, deployed, differences, declared_shown, deployed_shown } => {
                    item.note(
                        Status::Fail,
                        format!(
                            "{ns} index `{}`: deployed as `{}` {}, declared {} (differs: {})",
                            name_of(&declared),
                            name_of(&deployed),
                            shown(&deployed_shown),
                            shown(&declared_shown),
                            differences.join(", ")
                        ),
                    );
                    fixes.push(differs_fix(&target.db, &target.name, &declared, &deployed, &differences));
                }
                IndexMatch::Undeclared { .. } => {}
            }
        }
        if !as_declared.is_empty() {
            item.note(Status::Pass, format!("{ns}: deployed as declared: {}", as_declared.join(", ")));
        } else if declared == 0 {
            item.note(Status::Pass, format!("{ns}: {} declares no index besides _id", model.rust_type));
        }
    }
    if modelled == 0 {
        item.note(Status::NotCheckable, "no registered model's collection is selected: no declared index to look for");
    }
    note_refusals(&mut item, refused);
    let fix = format!(
        "run the migration that declares them (`schema apply`; `schema drift` lists each difference), or by hand: {}",
        fixes.join("; ")
    );
    item.fix(fix)
}

/// What makes a deployed index the declared one: `collMod` when only `hidden` or a TTL's
/// seconds differ (mongod changes those in place), else drop and create.
fn differs_fix(db: &str, collection: &str, declared: &Document, deployed: &Document, differences: &[String]) -> String {
    // collMod changes a TTL's seconds, never makes an index a TTL index or stops it being one
    let ttl_both = declared.contains_key("expireAfterSeconds") && deployed.contains_key("expireAfterSeconds");
    let in_place = differences.iter().all(|d| d == "hidden" || (d == "expireAfterSeconds" && ttl_both))
        && name_of(declared) == name_of(deployed);
    if in_place {
        let mut index = doc! { "name": name_of(declared) };
        for option in differences {
            match option.as_str() {
                "hidden" => index.insert("hidden", flag(declared, "hidden")),
                _ => index
                    .insert("expireAfterSeconds", declared.get("expireAfterSeconds").cloned().unwrap_or(Bson::Null)),
            };
        }
        return command_text(db, &doc! { "collMod": collection, "index": index });
    }
    format!(
        "{} then {}",
        command_text(db, &doc! { "dropIndexes": collection, "index": name_of(deployed) }),
        command_text(db, &doc! { "createIndexes": collection, "indexes": [declared.clone()] })
    )
}

/// `operationProfiling` as mongod was started with it, when the user may read it.
fn profiling_config(server: &mut dyn Server) -> Result<Option<Document>, String> {
    let reply = server
        .run_command("admin", doc! { "getCmdLineOpts": 1 })
        .map_err(|e| refusal(&e, "getCmdLineOpts", "role clusterMonitor"))?;
    Ok(reply.get_document("parsed").ok().and_then(|p| p.get_document("operationProfiling").ok()).cloned())
}

// "Monitor slow queries: enable profiling." Level 1 records operations slower than `slowms`
// in the database's `system.profile`; level 0 leaves only mongod's log; level 2 records
// every operation, a cost on each.
fn profiler_item(server: &mut dyn Server, targets: &[Target<'_>], node: &str, topology: &Topology) -> Item {
    let title = "slow queries recorded (the profiler's level and slowms)";
    let mut item = Item::new(QUERIES, "slow_query_log", title);
    let databases: BTreeSet<&str> = targets.iter().map(|t| t.db.as_str()).collect();
    let Some(first) = databases.first().copied() else {
        item.note(Status::NotCheckable, "no business database was reviewed");
        return item;
    };
    if *topology == Topology::Mongos {
        // mongos has no collections to profile into: `profile` there sets the threshold of
        // its own log, and the shards' levels are not visible through it
        match server.run_command(first, doc! { "profile": -1 }) {
            Ok(reply) => item.note(Status::NotCheckable, format!(
                "through mongos: slowms {} ms, sampleRate {} are mongos's own, for its log; mongos has no profiler (no system.profile), and each shard's members profile their databases, per node, which a connection through mongos cannot read: run `db.getProfilingStatus()` on each shard's primary (directConnection=true), or review each shard's replica set with `schema review --uri`",
                number(reply.get("slowms")).map_or("?".to_owned(), |n| n.to_string()),
                reply.get("sampleRate").map_or("?".to_owned(), Bson::to_string)
            )),
            Err(e) => item.note(Status::NotCheckable, format!("through mongos: {}", refusal(&e, "profile", "the enableProfiler action: role dbAdmin, or clusterMonitor"))),
        }
        return item;
    }
    item.evidence.push(format!(
        "asked of {node}; the level is per database and per node (never replicated), and one set at run time reverts at restart"
    ));
    match profiling_config(server) {
        Ok(Some(config)) => item
            .evidence
            .push(format!("mongod's configuration: operationProfiling {} (the level after a restart)", shown(&config))),
        Ok(None) => item
            .evidence
            .push("mongod's configuration sets no operationProfiling: after a restart the level is 0 (off)".to_owned()),
        Err(why) => item.evidence.push(format!("whether a level survives a restart is not readable: {why}")),
    }
    let mut refused: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut off = Vec::new();
    for db in &databases {
        let reply = match server.run_command(db, doc! { "profile": -1 }) {
            Ok(reply) => reply,
            Err(e) => {
                let why = refusal(
                    &e,
                    "`{profile: -1}`",
                    "the enableProfiler action on the database: role dbAdmin, or clusterMonitor",
                );
                refused.entry(why).or_default().push((*db).to_owned());
                continue;
            }
        };
        let level = number(reply.get("was")).unwrap_or(0);
        let slowms = number(reply.get("slowms")).unwrap_or(100);
        let rate = match reply.get("sampleRate") {
            Some(Bson::Double(r)) => *r,
            other => number(other).map_or(1.0, |n| n as f64),
        };
        let settings = format!("slowms {slowms} ms, sampleRate {rate}");
        match level {
            1 => item.note(
                Status::Pass,
                format!(
                    "{db}: level 1, operations slower than {slowms} ms recorded in {db}.system.profile ({settings})"
                ),
            ),
            2 => {
                item.note(
                    Status::Warn,
                    format!("{db}: level 2, every operation profiled: a cost on every query ({settings})"),
                );
                off.push(*db);
            }
            _ => {
                item.note(Status::Warn, format!("{db}: level 0, the profiler is off: operations slower than {slowms} ms reach only mongod's log ({settings})"));
                off.push(*db);
            }
        }
        if slowms > SLOWMS_CEILING {
            item.note(
                Status::Warn,
                format!("{db}: slowms {slowms} ms: a query under {} s is never recorded", slowms as f64 / 1000.0),
            );
        }
        if rate < 1.0 {
            item.evidence.push(format!("{db}: sampleRate {rate}: only that fraction of slow operations is recorded"));
        }
        if let Ok(filter) = reply.get_document("filter") {
            item.evidence.push(format!("{db}: filter {}: only operations it matches are recorded", shown(filter)));
        }
    }
    note_refusals(&mut item, refused);
    let set: Vec<String> =
        off.iter().map(|db| format!("`db.getSiblingDB(\"{db}\").setProfilingLevel(1, {{slowms: 100}})`")).collect();
    let set = if set.is_empty() { "`db.setProfilingLevel(1, {slowms: 100})`".to_owned() } else { set.join(", ") };
    item.fix(format!("{set} on every data-bearing member (the level is per node), and `operationProfiling: {{mode: slowOp, slowOpThresholdMs: 100}}` in each member's configuration (or `--profile 1 --slowms 100`) so it survives a restart; read them with `db.system.profile.find().sort({{ts: -1}})`"))
}

#[cfg(test)]
mod tests {
    use super::span;

    #[test]
    fn spans_read_as_words() {
        assert_eq!(span(40_000), "40 s");
        assert_eq!(span(125_000), "2 min");
        assert_eq!(span((2 * 3600 + 5 * 60) * 1000), "2 h 5 min");
        assert_eq!(span((3 * 86_400 + 4 * 3600) * 1000), "3 d 4 h");
        assert_eq!(span(-5), "0 s");
    }
}
