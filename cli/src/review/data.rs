//! The data-modelling checklist, measured on the live data: one bounded `$sample` per
//! collection, flattened into (path, BSON type) rows by the server, so no document
//! leaves the deployment; listings for validators and counts.

use super::report::{Item, List, Options, Status};
use mongo_schema_contract::naming;
use mongo_schema_core::bson::{doc, Bson, Document};
use mongo_schema_core::view::{expand_aliases, Reach, SchemaView, Step};
use mongo_schema_migrate::server::{chain, CommandError, Server};
use mongo_schema_migrate::Model;
use std::collections::{BTreeMap, BTreeSet};

/// The standard's recommended document size (Specification 5).
pub const RECOMMENDED_DOCUMENT_BYTES: i64 = 100 * 1024;
/// The checklist's line for core documents.
pub const CHECKLIST_DOCUMENT_BYTES: i64 = 1024 * 1024;
/// MongoDB's hard limit.
pub const MAX_DOCUMENT_BYTES: i64 = mongo_schema_contract::size::MAX_DOCUMENT_SIZE as i64;
/// The standard's array bound (Specification 8).
pub const MAX_ARRAY_ITEMS: i64 = mongo_schema_contract::rules::DEFAULT_MAX_ITEMS as i64;
/// Collections per database (checklist 7).
pub const MAX_COLLECTIONS_PER_DB: usize = mongo_schema_contract::rules::MAX_COLLECTIONS_PER_DB;
/// Collections per instance (Specification 12).
pub const MAX_COLLECTIONS_PER_INSTANCE: usize = 5000;
/// Expansion rounds of the sampling pipeline: objects and arrays nested deeper than this
/// are reported as "at least".
const EXPANSION_ROUNDS: usize = 16;
/// Distinct (path, type) rows kept per collection: a collection keyed by data (a map
/// written as fields) would otherwise produce a row per key.
const MAX_PATH_ROWS: i32 = 5000;

/// A collection as `listCollections` shows it.
#[derive(Debug, Clone)]
pub(super) struct Collection {
    pub(super) db: String,
    pub(super) name: String,
    kind: String,
    options: Document,
}

impl Collection {
    pub(super) fn namespace(&self) -> String {
        format!("{}.{}", self.db, self.name)
    }
}

/// What the server reported for one (path, type) in a sample.
#[derive(Debug, Clone)]
struct PathRow {
    path: String,
    key: Option<String>,
    bson_type: String,
    docs: i64,
    example: Bson,
    longest: Option<(i64, Bson)>,
    deepest: (i64, Bson),
}

/// One collection's sample.
#[derive(Debug, Clone, Default)]
struct Sample {
    sizes: Vec<i64>,
    largest: Option<(i64, Bson)>,
    /// Documents nested deeper than the pipeline expands.
    deeper: i64,
    rows: Vec<PathRow>,
    truncated: bool,
}

/// The deployment's business databases and collections, and the samples.
struct Survey {
    /// Every database listed (system ones included) with its collections, or why not.
    databases: BTreeMap<String, Result<Vec<Collection>, String>>,
    /// How the list of databases was found.
    database_source: String,
    samples: Vec<(Collection, Result<Sample, String>)>,
}

/// The data items, and the business collections they looked at (the ones sampled: selected,
/// not views, not `system.*`, not the migration records).
pub(super) fn review_data(
    server: &mut dyn Server,
    models: &[Model],
    options: &Options,
) -> (Vec<Item>, Vec<Collection>) {
    let survey = survey(server, models, options);
    let reviewed = survey.samples.iter().map(|(c, _)| c.clone()).collect();
    let items = vec![
        naming_item(&survey, models, &options.collections),
        size_item(&survey),
        depth_item(&survey, options.max_depth),
        array_item(&survey, models),
        type_item(&survey, models),
        validator_item(&survey, models, options),
        count_item(&survey),
    ];
    (items, reviewed)
}

fn is_system_db(db: &str) -> bool {
    naming::SYSTEM_DATABASES.contains(&db)
}

fn survey(server: &mut dyn Server, models: &[Model], options: &Options) -> Survey {
    let (names, database_source) = list_databases(server, models, options);
    let mut databases = BTreeMap::new();
    for db in names {
        databases.insert(db.clone(), list_collections(server, &db).map_err(|e| chain(&e)));
    }
    let mut samples = Vec::new();
    for collection in databases.values().flatten().flatten() {
        if is_system_db(&collection.db) || !selected(collection, &options.collections) {
            continue;
        }
        // views hold no documents; `system.*` and the migration records are not business data
        let tool = collection.name == mongo_schema_migrate::record::STATE_COLLECTION;
        if collection.kind == "view" || collection.name.starts_with("system.") || tool {
            continue;
        }
        let sample = sample(server, collection, options).map_err(|e| chain(&e));
        samples.push((collection.clone(), sample));
    }
    Survey { databases, database_source, samples }
}

/// Whether `--collections` selects `model`'s collection.
pub(super) fn model_selected(model: &Model, only: &[String]) -> bool {
    only.is_empty() || only.iter().any(|o| *o == model.collection || *o == model.namespace())
}

fn selected(collection: &Collection, only: &[String]) -> bool {
    only.is_empty() || only.iter().any(|o| *o == collection.name || *o == collection.namespace())
}

/// The databases to review: all the user may list, else the URI's and the models'.
fn list_databases(server: &mut dyn Server, models: &[Model], options: &Options) -> (Vec<String>, String) {
    let command = doc! { "listDatabases": 1, "nameOnly": true, "authorizedDatabases": true };
    match server.run_command("admin", command) {
        Ok(reply) => {
            let names = reply
                .get_array("databases")
                .map(|dbs| {
                    dbs.iter().filter_map(|d| d.as_document()?.get_str("name").ok().map(str::to_owned)).collect()
                })
                .unwrap_or_default();
            (names, "listDatabases (the databases this user may see)".to_owned())
        }
        Err(e) => {
            let mut names: BTreeSet<String> = models.iter().map(|m| m.db.clone()).collect();
            names.extend(options.collections.iter().filter_map(|c| c.split_once('.').map(|(db, _)| db.to_owned())));
            if let Some(db) = default_database(&options.uri) {
                names.insert(db);
            }
            (names.into_iter().collect(), format!("the models' and the URI's databases (listDatabases: {})", chain(&e)))
        }
    }
}

fn default_database(uri: &str) -> Option<String> {
    mongodb::options::ConnectionString::parse(uri).ok()?.default_database
}

fn list_collections(server: &mut dyn Server, db: &str) -> Result<Vec<Collection>, CommandError> {
    let command = doc! { "listCollections": 1, "authorizedCollections": true, "cursor": { "batchSize": 100_000 } };
    let reply = server.run_command(db, command)?;
    let batch = reply
        .get_document("cursor")
        .and_then(|c| c.get_array("firstBatch"))
        .map_err(|_| CommandError::reply("listCollections", "a cursor with a first batch", &reply))?;
    let mut collections: Vec<Collection> = batch
        .iter()
        .filter_map(Bson::as_document)
        .filter_map(|c| {
            Some(Collection {
                db: db.to_owned(),
                name: c.get_str("name").ok()?.to_owned(),
                kind: c.get_str("type").unwrap_or("collection").to_owned(),
                options: c.get_document("options").cloned().unwrap_or_default(),
            })
        })
        .collect();
    // listCollections has no order: the report's lines follow the names
    collections.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(collections)
}

/// The sampling pipeline: `$sample`, then each document's fields expanded level by level
/// into `{p: path, k: key, t: $type, n: array length, d: nesting level}` nodes (array
/// elements are `path.[]` and add no level), then grouped by (path, type).
pub(super) fn sample_pipeline(size: u32) -> Vec<Document> {
    let node = |path: Bson, key: Bson, value: &str, level: Bson| {
        let is_object = doc! { "$cond": [{ "$eq": [{ "$type": value }, "object"] }, 1, 0] };
        doc! { "p": path, "k": key, "v": value, "d": { "$add": [level, is_object] } }
    };
    let root = node(Bson::String("$$kv.k".into()), Bson::String("$$kv.k".into()), "$$kv.v", Bson::Int32(1));
    let field_of = |parent: &str| {
        node(
            Bson::Document(doc! { "$concat": [format!("{parent}.p"), ".", "$$kv.k"] }),
            Bson::String("$$kv.k".into()),
            "$$kv.v",
            Bson::String(format!("{parent}.d")),
        )
    };
    let element_of = |parent: &str| {
        node(
            Bson::Document(doc! { "$concat": [format!("{parent}.p"), ".[]"] }),
            Bson::Null,
            "$$e",
            Bson::String(format!("{parent}.d")),
        )
    };
    let children = doc! { "$switch": { "branches": [
        { "case": { "$eq": [{ "$type": "$$this.v" }, "object"] },
          "then": { "$map": { "input": { "$objectToArray": "$$this.v" }, "as": "kv", "in": field_of("$$this") } } },
        { "case": { "$eq": [{ "$type": "$$this.v" }, "array"] },
          "then": { "$map": { "input": "$$this.v", "as": "e", "in": element_of("$$this") } } },
    ], "default": [] } };
    let summary = doc! { "p": "$$n.p", "k": "$$n.k", "d": "$$n.d", "t": { "$type": "$$n.v" },
    "n": { "$cond": [{ "$isArray": "$$n.v" }, { "$size": "$$n.v" }, Bson::Null] } };
    let mut pipeline = vec![
        doc! { "$sample": { "size": i64::from(size) } },
        doc! { "$project": { "_id": 1, "s": { "$bsonSize": "$$ROOT" }, "nodes": [],
        "frontier": { "$map": { "input": { "$objectToArray": "$$ROOT" }, "as": "kv", "in": root } } } },
    ];
    for _ in 0..EXPANSION_ROUNDS {
        pipeline.push(doc! { "$set": {
            "nodes": { "$concatArrays": ["$nodes", { "$map": { "input": "$frontier", "as": "n", "in": summary.clone() } }] },
            "frontier": { "$reduce": { "input": "$frontier", "initialValue": [],
                "in": { "$concatArrays": ["$$value", children.clone()] } } },
        } });
    }
    pipeline.push(doc! { "$facet": {
        "sizes": [{ "$group": { "_id": Bson::Null, "sizes": { "$push": "$s" },
            "largest": { "$max": { "s": "$s", "i": "$_id" } },
            "deeper": { "$sum": { "$cond": [{ "$gt": [{ "$size": "$frontier" }, 0] }, 1, 0] } } } }],
        "paths": [
            { "$unwind": "$nodes" },
            { "$group": { "_id": { "i": "$_id", "p": "$nodes.p", "t": "$nodes.t" }, "k": { "$first": "$nodes.k" },
                "n": { "$max": "$nodes.n" }, "d": { "$max": "$nodes.d" } } },
            { "$group": { "_id": { "p": "$_id.p", "t": "$_id.t" }, "k": { "$first": "$k" }, "docs": { "$sum": 1 },
                "example": { "$first": "$_id.i" },
                "longest": { "$max": { "n": "$n", "i": "$_id.i" } },
                "deepest": { "$max": { "d": "$d", "i": "$_id.i" } } } },
            // when a collection has more paths than are kept (data written as field
            // names), arrays and the deepest paths are kept first: items 3 and 4 need them
            { "$set": { "rank": { "$cond": [{ "$eq": ["$_id.t", "array"] }, 0, 1] } } },
            { "$sort": { "rank": 1, "deepest.d": -1, "_id.p": 1, "_id.t": 1 } },
            { "$limit": MAX_PATH_ROWS + 1 },
        ],
    } });
    pipeline
}

fn sample(server: &mut dyn Server, collection: &Collection, options: &Options) -> Result<Sample, CommandError> {
    let command = doc! {
        "aggregate": &collection.name,
        "pipeline": sample_pipeline(options.sample),
        "cursor": {},
        "maxTimeMS": i64::from(options.max_time_ms),
    };
    let reply = server.run_command(&collection.db, command)?;
    let facet = reply
        .get_document("cursor")
        .and_then(|c| c.get_array("firstBatch"))
        .ok()
        .and_then(|b| b.first())
        .and_then(Bson::as_document)
        .ok_or_else(|| CommandError::reply("aggregate", "a result in its first batch", &reply))?;
    Ok(read_sample(facet))
}

/// A count or size mongod may answer as int32, int64 or double.
pub(super) fn number(value: Option<&Bson>) -> Option<i64> {
    match value? {
        Bson::Int32(n) => Some(i64::from(*n)),
        Bson::Int64(n) => Some(*n),
        Bson::Double(n) => Some(*n as i64),
        _ => None,
    }
}

/// `{n: 12, i: _id}` as (12, _id); `None` when `n` is null.
fn pair(value: Option<&Bson>, key: &str) -> Option<(i64, Bson)> {
    let d = value?.as_document()?;
    Some((number(d.get(key))?, d.get("i").cloned().unwrap_or(Bson::Null)))
}

fn read_sample(facet: &Document) -> Sample {
    let mut sample = Sample::default();
    let first = |key: &str| facet.get_array(key).ok().and_then(|a| a.first()).and_then(Bson::as_document).cloned();
    if let Some(sizes) = first("sizes") {
        sample.sizes =
            sizes.get_array("sizes").map(|a| a.iter().filter_map(|s| number(Some(s))).collect()).unwrap_or_default();
        sample.sizes.sort_unstable();
        sample.largest = pair(sizes.get("largest"), "s");
        sample.deeper = number(sizes.get("deeper")).unwrap_or(0);
    }
    let rows = facet.get_array("paths").map(|a| a.iter().filter_map(Bson::as_document).collect::<Vec<_>>());
    for row in rows.unwrap_or_default() {
        let Ok(id) = row.get_document("_id") else { continue };
        sample.rows.push(PathRow {
            path: id.get_str("p").unwrap_or_default().to_owned(),
            key: row.get_str("k").ok().map(str::to_owned),
            bson_type: id.get_str("t").unwrap_or_default().to_owned(),
            docs: number(row.get("docs")).unwrap_or(0),
            example: row.get("example").cloned().unwrap_or(Bson::Null),
            longest: pair(row.get("longest"), "n"),
            deepest: pair(row.get("deepest"), "d").unwrap_or((1, Bson::Null)),
        });
    }
    sample.truncated = sample.rows.len() > MAX_PATH_ROWS as usize;
    sample.rows.truncate(MAX_PATH_ROWS as usize);
    sample.rows.sort_by(|a, b| (&a.path, &a.bson_type).cmp(&(&b.path, &b.bson_type)));
    sample
}

/// An `_id` as evidence: an ObjectId's hex, a string quoted, anything else as relaxed
/// Extended JSON.
fn show_id(id: &Bson) -> String {
    match id {
        Bson::ObjectId(oid) => oid.to_hex(),
        Bson::String(s) => format!("{s:?}"),
        other => other.clone().into_relaxed_extjson().to_string(),
    }
}

fn model_of<'a>(models: &'a [Model], collection: &Collection) -> Option<&'a Model> {
    models.iter().find(|m| m.db == collection.db && m.collection == collection.name)
}

/// The schema of a model's root (`$jsonSchema`), or the type's own for a time-series
/// collection, which carries no validator.
fn root_schema(model: &Model) -> Option<Document> {
    if let Some(schema) = SchemaView::of_validator(&model.validator) {
        return Some(schema.document().clone());
    }
    mongo_schema_core::command::registered()
        .into_iter()
        .find(|r| r.db == model.db && r.collection == model.collection)
        .map(|r| (r.json_schema)())
}

/// What a schema says about a path of the data (`tags.[]` for the items of `tags`): every
/// subschema there, through every branch.
fn schema_at<'a>(root: &'a Document, path: &str) -> Reach<'a> {
    let steps = path.split('.').map(|s| if s == "[]" { Step::Element } else { Step::Field(s) });
    SchemaView::new(root).reach(steps)
}

/// The BSON types a schema allows (`None`: any).
fn allowed_types(schemas: &[SchemaView<'_>]) -> Option<BTreeSet<String>> {
    let mut allowed = BTreeSet::new();
    for schema in schemas.iter().flat_map(SchemaView::with_branches) {
        let named = schema.bson_type().unwrap_or_default();
        allowed.extend(expand_aliases(named).into_iter().map(str::to_owned));
        if let Some(values) = schema.enum_values() {
            allowed.extend(values.iter().map(|v| bson_type_name(v).to_owned()));
        }
    }
    // a schema that names no type (in any branch) allows every type
    let open = schemas
        .iter()
        .flat_map(SchemaView::with_branches)
        .any(|s| !s.has("bsonType") && !s.has("enum") && !s.has("anyOf") && !s.has("oneOf"));
    (!open && !allowed.is_empty()).then_some(allowed)
}

fn bson_type_name(value: &Bson) -> &'static str {
    match value {
        Bson::String(_) => "string",
        Bson::Int32(_) => "int",
        Bson::Int64(_) => "long",
        Bson::Double(_) => "double",
        Bson::Boolean(_) => "bool",
        Bson::Null => "null",
        Bson::Document(_) => "object",
        Bson::Array(_) => "array",
        Bson::ObjectId(_) => "objectId",
        Bson::DateTime(_) => "date",
        Bson::Decimal128(_) => "decimal",
        _ => "other",
    }
}

/// Percentile `p` (0-100) of sorted values, nearest rank.
fn percentile(sorted: &[i64], p: usize) -> i64 {
    if sorted.is_empty() {
        return 0;
    }
    let rank = (p * sorted.len()).div_ceil(100).max(1);
    sorted[rank - 1]
}

/// `1 sampled document`, `3 sampled documents`.
fn documents(n: i64) -> String {
    format!("{n} sampled document{}", if n == 1 { "" } else { "s" })
}

fn kib(bytes: i64) -> String {
    match bytes {
        b if b >= 1024 * 1024 => format!("{:.1} MiB", b as f64 / (1024.0 * 1024.0)),
        b if b >= 1024 => format!("{:.1} KiB", b as f64 / 1024.0),
        b => format!("{b} B"),
    }
}

/// Each sampled collection's sample, or a "not sampled" line on `item`.
fn sampled<'a>(survey: &'a Survey, item: &mut Item) -> Vec<(&'a Collection, &'a Sample)> {
    let mut ok = Vec::new();
    for (collection, sample) in &survey.samples {
        match sample {
            Ok(sample) => ok.push((collection, sample)),
            Err(e) => item.note(Status::NotCheckable, format!("{}: not sampled: {e}", collection.namespace())),
        }
    }
    if survey.samples.is_empty() {
        item.note(Status::NotCheckable, "no collection to sample (none selected, or none this user may read)");
    }
    ok
}

// 1. Names of databases, collections and the fields found in the data follow the naming
// rules: mixed styles cost teams hours of empty query results.
fn naming_item(survey: &Survey, models: &[Model], only: &[String]) -> Item {
    let mut item = Item::new(List::Data, "naming", "1. naming of databases, collections and fields");
    let names = namespace_names(survey, only, &mut item);
    let fields = field_names(survey, models, &mut item);
    if item.status == Status::Pass {
        let line = format!("{names} database and collection names and {fields} field paths follow the rules");
        item.note(Status::Pass, line);
    }
    item.fix("rename to `db_` + snake case for databases, `t_` + module_entity for collections, one of camelCase or snake_case for fields, spelled out; move business data out of system databases; fields the model lacks are either old data to migrate (`schema new-data`) or fields to add to the model")
}

/// The databases and collections (those `only` selects) against the naming rules, and
/// business collections in `admin`; how many names were checked.
fn namespace_names(survey: &Survey, only: &[String], item: &mut Item) -> usize {
    let mut names = 0;
    for (db, collections) in &survey.databases {
        let in_scope = |c: &&Collection| !c.name.starts_with("system.") && selected(c, only);
        if !only.is_empty() && !collections.iter().flatten().any(|c| in_scope(&c)) {
            continue;
        }
        if db == "admin" {
            // business data never lives in a system database
            for c in collections.iter().flatten().filter(in_scope) {
                let message = naming::check_system_db(db).err().map(|e| e.to_string()).unwrap_or_default();
                item.note(Status::Fail, format!("{}: {message}", c.namespace()));
            }
        }
        if is_system_db(db) {
            continue;
        }
        names += 1;
        if let Err(e) = naming::check_db_name(db) {
            item.note(Status::Fail, format!("database {db}: {e}"));
        }
        for c in collections.iter().flatten().filter(in_scope) {
            names += 1;
            if let Err(e) = naming::check_collection_name(&c.name) {
                item.note(Status::Fail, format!("{}: {e}", c.namespace()));
            }
        }
    }
    names
}

/// The field names found in the samples (not a map's keys, which are data) against the
/// naming rules, and the fields a model does not declare; how many paths were checked.
fn field_names(survey: &Survey, models: &[Model], item: &mut Item) -> usize {
    let mut fields = 0;
    for (collection, sample) in sampled(survey, item) {
        let ns = collection.namespace();
        let schema = model_of(models, collection).and_then(root_schema);
        let mut seen = BTreeSet::new();
        for row in &sample.rows {
            let Some(key) = &row.key else { continue };
            let at = schema.as_ref().map(|s| schema_at(s, &row.path)).unwrap_or_default();
            if at.in_map || !seen.insert(row.path.clone()) {
                continue;
            }
            fields += 1;
            if let Err(e) = naming::check_field_name(key) {
                // the rule's fix is this item's fix: the first clause says what is wrong
                let what = e.message.split("; ").next().unwrap_or_default();
                item.note(Status::Fail, format!("{ns} `{}`: {}: {what}", row.path, e.rule));
            }
            // mongod gives every document an `_id`, declared or not
            if at.undeclared && row.path != "_id" {
                let (docs, id) = (documents(row.docs), show_id(&row.example));
                item.note(Status::Warn, format!("{ns} `{}`: in {docs} but not in the model (e.g. _id {id})", row.path));
            }
        }
        if sample.truncated {
            item.note(Status::Warn, format!("{ns}: more than {MAX_PATH_ROWS} distinct field paths in the sample (data written as field names?); the names of arrays and the deepest paths were checked, the rest not"));
        }
    }
    fields
}

// 2. Documents stay within 100 KB (recommended), 1 MB (the checklist's line for core
// documents) and far from the 16 MiB limit that blocks writes.
fn size_item(survey: &Survey) -> Item {
    let mut item =
        Item::new(List::Data, "document_size", "2. document size (100 KB recommended, 1 MB line, 16 MiB limit)");
    for (collection, sample) in sampled(survey, &mut item) {
        let Some((largest, id)) = &sample.largest else {
            item.note(Status::Pass, format!("{}: empty", collection.namespace()));
            continue;
        };
        let s = &sample.sizes;
        let status = match *largest {
            b if b > CHECKLIST_DOCUMENT_BYTES => Status::Fail,
            b if b > RECOMMENDED_DOCUMENT_BYTES => Status::Warn,
            _ => Status::Pass,
        };
        let line = format!(
            "{}: {} sampled, p50 {}, p95 {}, p99 {}, max {} (_id {}; {:.2}% of 16 MiB)",
            collection.namespace(),
            s.len(),
            kib(percentile(s, 50)),
            kib(percentile(s, 95)),
            kib(percentile(s, 99)),
            kib(*largest),
            show_id(id),
            *largest as f64 * 100.0 / MAX_DOCUMENT_BYTES as f64
        );
        item.note(status, line);
    }
    item.fix("split what grows into documents of its own (one per post, per reading bucket), move files to GridFS or object storage with a URL, compress large text; bound strings and arrays in the model (`max_length`, `max_items`)")
}

// 3. Documents nest at most the limit's levels (the document itself is one; arrays add
// none): deep `$set` paths are written wrong and deep fields cannot be indexed.
fn depth_item(survey: &Survey, limit: u32) -> Item {
    let title = "3. nesting depth (at most 5 levels; the document counts as one)";
    let mut item = Item::new(List::Data, "nesting_depth", title);
    for (collection, sample) in sampled(survey, &mut item) {
        let Some(deepest) = sample.rows.iter().max_by_key(|r| r.deepest.0) else { continue };
        let (depth, id) = &deepest.deepest;
        let status = if *depth > i64::from(limit) || sample.deeper > 0 { Status::Fail } else { Status::Pass };
        let at_least = if sample.deeper > 0 { "at least " } else { "" };
        let line = format!(
            "{}: deepest {at_least}{depth} levels at `{}` (_id {}), limit {limit}",
            collection.namespace(),
            deepest.path,
            show_id(id)
        );
        item.note(status, line);
    }
    item.fix("flatten: move deep parts up to top-level fields, or into a collection of their own referenced by id")
}

// 4. No array grows without bound: 1000 items at most (the standard), and no more than
// the model's `max_items`.
fn array_item(survey: &Survey, models: &[Model]) -> Item {
    let mut item = Item::new(List::Data, "arrays", "4. array length (at most 1000, and the model's max_items)");
    for (collection, sample) in sampled(survey, &mut item) {
        let schema = model_of(models, collection).and_then(root_schema);
        let mut longest_line: Option<(i64, String)> = None;
        for row in sample.rows.iter().filter(|r| r.bson_type == "array") {
            let Some((len, id)) = &row.longest else { continue };
            let declared = schema
                .as_ref()
                .and_then(|s| schema_at(s, &row.path).schemas.iter().filter_map(SchemaView::max_items).max())
                .map(|max| i64::try_from(max).unwrap_or(i64::MAX));
            let items = if *len == 1 { "item" } else { "items" };
            let where_ = format!("{} `{}`: {len} {items} (_id {})", collection.namespace(), row.path, show_id(id));
            if *len > MAX_ARRAY_ITEMS {
                item.note(Status::Fail, format!("{where_}, more than {MAX_ARRAY_ITEMS}"));
            } else if let Some(max) = declared.filter(|max| len > max) {
                item.note(Status::Fail, format!("{where_}, more than the model's max_items {max}"));
            } else if longest_line.as_ref().is_none_or(|(l, _)| len > l) {
                let bound =
                    declared.map(|m| format!("max_items {m}")).unwrap_or_else(|| format!("limit {MAX_ARRAY_ITEMS}"));
                longest_line = Some((*len, format!("{where_} longest, {bound}")));
            }
        }
        let has_arrays = sample.rows.iter().any(|r| r.bson_type == "array");
        match longest_line {
            Some((_, line)) => item.note(Status::Pass, line),
            None if !has_arrays => {
                item.note(Status::Pass, format!("{}: no arrays in the sample", collection.namespace()))
            }
            None => {}
        }
    }
    item.fix("keep the last N with `$push` + `$each` + `$slice: -N`, move the items to a collection of their own (one document per item, or a bucket per period), or a time-series collection; declare the bound with `#[mongo(max_items = N)]`")
}

// 5. One BSON type per field, the one the model declares: a field holding numbers and
// strings (the standard's `age`) breaks parsing and queries; dates are dates, money
// Decimal128.
fn type_item(survey: &Survey, models: &[Model]) -> Item {
    let mut item =
        Item::new(List::Data, "type_drift", "5. data types (one type per field; dates as date, money as decimal)");
    for (collection, sample) in sampled(survey, &mut item) {
        let ns = collection.namespace();
        let schema = model_of(models, collection).and_then(root_schema);
        let mut by_path: BTreeMap<&str, Vec<&PathRow>> = BTreeMap::new();
        for row in &sample.rows {
            by_path.entry(&row.path).or_default().push(row);
        }
        let mut findings = Vec::new();
        for (path, rows) in &by_path {
            let allowed = schema.as_ref().and_then(|s| allowed_types(&schema_at(s, path).schemas));
            findings.extend(path_types(path, rows, allowed.as_ref()));
        }
        for (status, line) in &findings {
            item.note(*status, format!("{ns} {line}"));
        }
        if sample.truncated {
            item.note(Status::Warn, format!("{ns}: more than {MAX_PATH_ROWS} distinct field paths in the sample; only arrays and the deepest were kept, the rest unchecked"));
        }
        match (sample.rows.is_empty(), findings.is_empty()) {
            (true, _) => item.note(Status::Pass, format!("{ns}: empty")),
            (false, true) if !sample.truncated => {
                item.note(Status::Pass, format!("{ns}: {} field paths, one type each", by_path.len()))
            }
            (false, true) => {}
            (false, false) => {}
        }
    }
    item.fix("convert the stray values with an update pipeline (`$convert`, `$toDate`, `$toDecimal`) in a data migration (`schema new-data`), then install the validator so the database refuses them")
}

/// What one path's types break: types its model refuses; without a model, more than one
/// type (int and long together only warn), money in doubles and dates in strings.
fn path_types(path: &str, rows: &[&PathRow], allowed: Option<&BTreeSet<String>>) -> Vec<(Status, String)> {
    let found = |r: &PathRow| format!("{} in {} (e.g. _id {})", r.bson_type, documents(r.docs), show_id(&r.example));
    if let Some(allowed) = allowed {
        let names: Vec<&str> = allowed.iter().map(String::as_str).collect();
        return rows
            .iter()
            .filter(|r| !allowed.contains(&r.bson_type))
            .map(|r| (Status::Fail, format!("`{path}`: {} where the model allows {}", found(r), names.join(", "))))
            .collect();
    }
    let mut findings = Vec::new();
    let types: Vec<&PathRow> = rows.iter().copied().filter(|r| r.bson_type != "null").collect();
    if types.len() > 1 {
        let integers = types.iter().all(|r| r.bson_type == "int" || r.bson_type == "long");
        let list: Vec<String> = types.iter().map(|r| found(r)).collect();
        let status = if integers { Status::Warn } else { Status::Fail };
        findings.push((status, format!("`{path}`: {} types: {}", types.len(), list.join("; "))));
    }
    let key = rows.first().and_then(|r| r.key.as_deref()).unwrap_or_default();
    for row in rows {
        if naming::is_money_name(key) && row.bson_type == "double" {
            findings.push((Status::Fail, format!("`{path}`: money stored as double, {}", found(row))));
        }
        if naming::is_date_name(key) && row.bson_type == "string" {
            findings.push((Status::Fail, format!("`{path}`: a date stored as string, {}", found(row))));
        }
    }
    findings
}

// 6. Every registered collection has its validator, with the level and action its model
// declares; collections no model describes are listed.
fn validator_item(survey: &Survey, models: &[Model], options: &Options) -> Item {
    let mut item = Item::new(List::Data, "validators", "6. schema validation installed as the models declare");
    let deployed: BTreeMap<String, &Collection> =
        survey.databases.values().flatten().flatten().map(|c| (c.namespace(), c)).collect();
    for model in models {
        if !model_selected(model, &options.collections) {
            continue;
        }
        let ns = model.namespace();
        match survey.databases.get(&model.db) {
            None => {
                let line = format!("{ns}: its database is not on the deployment (or not visible to this user)");
                item.note(Status::Fail, line);
                continue;
            }
            Some(Err(e)) => {
                item.note(Status::NotCheckable, format!("{ns}: its database's collections could not be listed: {e}"));
                continue;
            }
            Some(Ok(_)) => {}
        }
        let Some(collection) = deployed.get(&ns) else {
            item.note(Status::Fail, format!("{ns}: missing: the collection does not exist"));
            continue;
        };
        if model.options.is_timeseries() {
            item.note(
                Status::Pass,
                format!("{ns}: time-series (mongod takes no validator there; `schema check` validates before writing)"),
            );
            continue;
        }
        let validator = collection.options.get_document("validator").ok().filter(|v| !v.is_empty());
        let level = collection.options.get_str("validationLevel").unwrap_or("strict");
        let action = collection.options.get_str("validationAction").unwrap_or("error");
        let (want_level, want_action) = (model.level.as_str(), model.action.as_str());
        match validator {
            None => item.note(Status::Fail, format!("{ns}: no validator")),
            Some(_) if level != want_level || action != want_action => item.note(
                Status::Fail,
                format!("{ns}: validationLevel {level}, validationAction {action}; the model declares {want_level}, {want_action}"),
            ),
            Some(v) if !v.contains_key("$jsonSchema") => {
                item.note(Status::Warn, format!("{ns}: a validator without $jsonSchema ({level}, {action})"))
            }
            Some(v) => match mongo_schema_migrate::drift::validator_differences(model, v, &collection.options)[..] {
                [] => item.note(Status::Pass, format!("{ns}: $jsonSchema validator, {level}, {action}")),
                ref lines => item.note(
                    Status::Fail,
                    format!(
                        "{ns}: the installed $jsonSchema is not the model's (changed by hand, or a migration not \
                         applied; `schema drift` lists it all): {}{}",
                        lines[..lines.len().min(3)].join("; "),
                        if lines.len() > 3 { format!("; and {} more", lines.len() - 3) } else { String::new() }
                    ),
                ),
            },
        }
    }
    for (ns, collection) in &deployed {
        let system = is_system_db(&collection.db) || collection.name.starts_with("system.");
        if system || model_of(models, collection).is_some() || !selected(collection, &options.collections) {
            continue;
        }
        if collection.name == mongo_schema_migrate::record::STATE_COLLECTION {
            item.evidence.push(format!("{ns}: the migration records `schema apply` keeps"));
            continue;
        }
        let has_validator = collection.options.get_document("validator").is_ok_and(|v| !v.is_empty());
        let what = if has_validator { "has a validator" } else { "no validator" };
        item.note(
            Status::Warn,
            format!("{ns}: not registered by any model of this binary ({what}, {})", collection.kind),
        );
    }
    if models.is_empty() {
        item.note(Status::Warn, "no model is registered in this binary: only the deployed validators were listed");
    }
    item.fix("`schema apply` installs each model's validator, level and action (`schema drift` shows what differs); register a model for every business collection, or drop the collections nothing uses")
}

// 7. At most 100 collections per database and 5000 per instance: each collection's
// metadata costs memory, file handles, startup and backup time.
fn count_item(survey: &Survey) -> Item {
    let mut item =
        Item::new(List::Data, "collection_count", "7. collections per database (≤ 100) and per instance (≤ 5000)");
    let mut total = 0;
    let mut counted = 0;
    for (db, collections) in &survey.databases {
        if is_system_db(db) {
            continue;
        }
        match collections {
            Ok(list) => {
                let n = list.iter().filter(|c| c.kind != "view" && !c.name.starts_with("system.")).count();
                total += n;
                counted += 1;
                let status = if n > MAX_COLLECTIONS_PER_DB { Status::Fail } else { Status::Pass };
                item.note(
                    status,
                    format!("{db}: {n} collection{} (limit {MAX_COLLECTIONS_PER_DB})", if n == 1 { "" } else { "s" }),
                );
            }
            Err(e) => item.note(Status::NotCheckable, format!("{db}: not listed: {e}")),
        }
    }
    let status = if total > MAX_COLLECTIONS_PER_INSTANCE { Status::Fail } else { Status::Pass };
    item.note(
        status,
        format!(
            "instance: {total} business collections in {counted} databases (limit {MAX_COLLECTIONS_PER_INSTANCE}); databases from {}",
            survey.database_source
        ),
    );
    item.fix("merge collections split by key (one per device, per tenant) into one collection with the key as a field and an index on it, or a time-series collection; move databases to another instance")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_use_the_nearest_rank() {
        let sizes: Vec<i64> = (1..=100).collect();
        assert_eq!([percentile(&sizes, 50), percentile(&sizes, 95), percentile(&sizes, 99)], [50, 95, 99]);
        assert_eq!(percentile(&[7], 99), 7);
        assert_eq!(percentile(&[], 50), 0);
    }

    #[test]
    fn schema_paths_follow_properties_items_maps_and_branches() {
        let schema = doc! { "bsonType": "object", "properties": {
            "age": { "bsonType": "int" },
            "tags": { "bsonType": "array", "maxItems": 5, "items": { "bsonType": "string" } },
            "scores": { "bsonType": "object", "additionalProperties": { "bsonType": "number" } },
            "contact": { "anyOf": [{ "bsonType": "null" }, { "bsonType": "object", "properties": { "phone": { "bsonType": "string" } } }] },
            "status": { "enum": ["paid", "open"] },
        } };
        let types =
            |path: &str| allowed_types(&schema_at(&schema, path).schemas).map(|t| t.into_iter().collect::<Vec<_>>());
        assert_eq!(types("age"), Some(vec!["int".to_owned()]));
        assert_eq!(types("tags.[]"), Some(vec!["string".to_owned()]));
        assert_eq!(types("scores.math").map(|t| t.len()), Some(4));
        assert!(schema_at(&schema, "scores.math").in_map);
        assert_eq!(types("contact"), Some(vec!["null".to_owned(), "object".to_owned()]));
        assert_eq!(types("contact.phone"), Some(vec!["string".to_owned()]));
        assert_eq!(types("status"), Some(vec!["string".to_owned()]));
        assert!(schema_at(&schema, "nickname").undeclared);
        assert!(!schema_at(&schema, "age").undeclared);
        assert_eq!(types("nickname"), None);
        let max = schema_at(&schema, "tags").schemas.iter().filter_map(|s| number(s.get("maxItems"))).max();
        assert_eq!(max, Some(5));
    }
}
