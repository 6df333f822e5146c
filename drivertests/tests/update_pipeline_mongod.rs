//! `Validator::check_pipeline_update` against a real mongod: generated documents and pipeline
//! updates (every stage and expression `check_pipeline_update` models, nested, with values of
//! every kind, and pipelines mongod refuses) are applied by mongod (the `update` command with
//! `u: [stages]`, on a collection whose validator is `schema()`; the starting document inserted
//! past the validator) and locally. Both must end with the same document, byte for byte (field
//! order and BSON types), or the same error: the same code, the same message word for word, and
//! for 121 the same `errInfo`. Needs `MONGODB_URI` (see `scripts/with-mongod.sh`); without it the
//! test says it was skipped and passes.
//!
//! The run is deterministic: a fixed seed by default, every feature the cases miss is drawn
//! for until one is applied, and cases are drawn while too few are stored, fail validation or
//! are refused, so the coverage and mix assertions hold on every run. `UPDATE_CASES=N` sets
//! the number of cases (default 600), `UPDATE_SEED=N` replays a run (a failure prints its seed)
//! and `UPDATE_SEED=random` draws a new one (printed in the summary line).

#![forbid(unsafe_code)]
// Under bson 3 only, as `update_mongod.rs`: the driver must speak the same major.
#![cfg(feature = "bson-3")]

use mongo_schema_test_support::updates;
use updates::{bytes, decimal, draw, json, mix_short, schema, seed};

use std::io::Write;

use mongo_schema::bson::{doc, Bson, DateTime, Document};
use mongo_schema::validate::{UpdateError, UpdateOptions};
use mongo_schema::Validator;
use mongodb::error::ErrorKind;
use mongodb::sync::{Client, Database};
use proptest::prelude::*;

/// One collection per test process, so two runs against one server never meet.
fn collection_name() -> String {
    format!("pipeline_updates_{}", std::process::id())
}

fn database(test: &str) -> Option<Database> {
    let Ok(uri) = std::env::var("MONGODB_URI") else {
        let _ = writeln!(std::io::stderr(), "skipped (no MONGODB_URI): {test}");
        return None;
    };
    let client = Client::with_uri_str(uri).expect("MONGODB_URI must be a valid connection string");
    Some(client.database("mongo_schema_update_pipeline_mongod"))
}

// ---- generated cases ----

fn number() -> BoxedStrategy<Bson> {
    prop_oneof![
        4 => prop::sample::select(vec![0, 1, 2, -1, 7, 100, i32::MAX, i32::MIN, 70000]).prop_map(Bson::Int32),
        2 => prop::sample::select(vec![0, 3, -2, i64::MAX, i64::MIN, 5_000_000_000]).prop_map(Bson::Int64),
        2 => prop::sample::select(vec![0.0, -0.0, 1.5, 2.0, -2.5, 0.1, 1e308, 2.7]).prop_map(Bson::Double),
        1 => prop::sample::select(vec!["1.5", "2", "-0", "10", "0.1"]).prop_map(decimal),
    ]
    .boxed()
}

fn string() -> BoxedStrategy<Bson> {
    prop::sample::select(vec!["x", "ab", "hello", "", "k", "12", "-3", "1.5", "abc"])
        .prop_map(|s| Bson::String(s.into()))
        .boxed()
}

fn scalar() -> BoxedStrategy<Bson> {
    prop_oneof![
        4 => number(),
        2 => string(),
        1 => any::<bool>().prop_map(Bson::Boolean),
        1 => Just(Bson::Null),
        1 => Just(Bson::DateTime(DateTime::from_millis(5))),
    ]
    .boxed()
}

fn small_doc() -> BoxedStrategy<Bson> {
    prop::collection::vec((prop::sample::select(vec!["k", "x", "y"]), scalar()), 0..3)
        .prop_map(|fields| Bson::Document(fields.into_iter().map(|(k, v)| (k.to_owned(), v)).collect()))
        .boxed()
}

fn value() -> BoxedStrategy<Bson> {
    prop_oneof![
        5 => scalar(),
        2 => prop::collection::vec(prop_oneof![3 => scalar(), 1 => small_doc()], 0..5).prop_map(Bson::Array),
        2 => small_doc(),
    ]
    .boxed()
}

/// A starting document: `_id` first, then the schema's fields (often of their type) and
/// some others.
fn start() -> BoxedStrategy<Document> {
    let typed = (
        prop::option::of(number()),
        prop::option::of(prop::sample::select(vec!["x", "ab", "hello", "12"])),
        prop::option::of(prop::collection::vec(prop_oneof![3 => scalar(), 2 => small_doc()], 0..5)),
        prop::option::of(prop::option::of(number())),
    );
    (typed, prop::collection::vec((prop::sample::select(vec!["a", "z", "s", "n"]), value()), 0..3))
        .prop_map(|((n, s, arr, d), fields)| {
            let mut doc = doc! { "_id": 1 };
            if let Some(n) = n {
                doc.insert("n", n);
            }
            if let Some(arr) = arr {
                doc.insert("arr", arr);
            }
            if let Some(s) = s {
                doc.insert("s", s);
            }
            if let Some(x) = d {
                doc.insert("d", x.map(|x| doc! { "x": x }).unwrap_or_default());
            }
            for (k, v) in fields {
                doc.insert(k, v);
            }
            doc
        })
        .boxed()
}

const PATHS: &[&str] = &["$n", "$s", "$arr", "$d", "$d.x", "$a", "$z", "$arr.k", "$a.k"];

/// An expression without operators: a field path, a variable or a constant.
fn leaf() -> BoxedStrategy<Bson> {
    prop_oneof![
        6 => prop::sample::select(PATHS).prop_map(|p| Bson::String(p.into())),
        4 => scalar(),
        1 => prop::sample::select(vec!["$$ROOT", "$$CURRENT.n", "$$CURRENT", "$$REMOVE", "$$ROOT.d.x"])
            .prop_map(|p| Bson::String(p.into())),
        1 => prop_oneof![Just(Bson::String("$n".into())), scalar()].prop_map(|v| Bson::Document(doc! { "$literal": v })),
    ]
    .boxed()
}

fn op1(name: &'static str, arg: Bson) -> Bson {
    let mut d = Document::new();
    d.insert(name, arg);
    Bson::Document(d)
}

const TARGETS: &[&str] = &["int", "long", "double", "decimal", "string", "date", "bool"];

/// An expression of at most `depth` levels of operators.
fn expr(depth: u32) -> BoxedStrategy<Bson> {
    if depth == 0 {
        return leaf();
    }
    let sub = expr(depth - 1);
    let two = (sub.clone(), sub.clone());
    let many = prop::collection::vec(sub.clone(), 0..4);
    let variadic =
        prop::sample::select(vec!["$add", "$multiply", "$concat", "$and", "$or", "$concatArrays", "$mergeObjects"]);
    let binary = prop::sample::select(vec!["$subtract", "$eq", "$ne", "$gt", "$gte", "$lt", "$lte", "$arrayElemAt"]);
    let unary = prop::sample::select(vec![
        "$toDate",
        "$toString",
        "$toInt",
        "$toLong",
        "$toDouble",
        "$toDecimal",
        "$not",
        "$type",
        "$isNumber",
        "$trunc",
        "$size",
    ]);
    prop_oneof![
        3 => leaf(),
        4 => (variadic, many).prop_map(|(op, args)| op1(op, Bson::Array(args))),
        4 => (binary, two.clone()).prop_map(|(op, (a, b))| op1(op, Bson::Array(vec![a, b]))),
        4 => (unary, sub.clone(), any::<bool>())
            .prop_map(|(op, a, wrap)| op1(op, if wrap { Bson::Array(vec![a]) } else { a })),
        2 => (sub.clone(), prop::collection::vec(sub.clone(), 1..3))
            .prop_map(|(a, rest)| op1("$ifNull", Bson::Array(std::iter::once(a).chain(rest).collect()))),
        2 => (sub.clone(), two, any::<bool>()).prop_map(|(c, (t, e), object)| if object {
            op1("$cond", Bson::Document(doc! { "if": c, "then": t, "else": e }))
        } else {
            op1("$cond", Bson::Array(vec![c, t, e]))
        }),
        2 => (
            sub.clone(),
            prop::sample::select(TARGETS),
            prop::option::of(sub.clone()),
            prop::option::of(sub.clone()),
        )
            .prop_map(|(input, to, on_error, on_null)| {
                let mut d = doc! { "input": input, "to": to };
                if let Some(e) = on_error {
                    d.insert("onError", e);
                }
                if let Some(n) = on_null {
                    d.insert("onNull", n);
                }
                op1("$convert", Bson::Document(d))
            }),
        1 => (prop::sample::select(vec!["$arr", "$a", "$arr.k", "$n"]), prop::sample::select(vec![
            op1("$add", Bson::Array(vec!["$$this".into(), 1.into()])),
            op1("$type", "$$this".into()),
            op1("$concat", Bson::Array(vec!["$$this".into(), "!".into()])),
            op1("$ifNull", Bson::Array(vec!["$$this.k".into(), "none".into()])),
        ]))
            .prop_map(|(input, body)| op1("$map", Bson::Document(doc! { "input": input, "in": body }))),
        1 => (prop::sample::select(vec!["$arr", "$a", "$n"]), prop::sample::select(vec![
            op1("$isNumber", "$$item".into()),
            op1("$gte", Bson::Array(vec!["$$item".into(), 2.into()])),
            op1("$eq", Bson::Array(vec![op1("$type", "$$item".into()), "object".into()])),
        ]))
            .prop_map(|(input, cond)| op1("$filter", Bson::Document(doc! { "input": input, "as": "item", "cond": cond }))),
        1 => prop::collection::vec((prop::sample::select(vec!["x", "k", "n"]), sub), 1..3)
            .prop_map(|fields| Bson::Document(fields.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())),
    ]
    .boxed()
}

const SET_PATHS: &[&str] = &["n", "s", "arr", "d", "d.x", "z", "a", "arr.k"];

/// A `$set` value: an expression, sometimes `$$NOW` or a nested field spec.
fn set_value() -> BoxedStrategy<Bson> {
    prop_oneof![
        8 => expr(2),
        1 => (expr(1), prop::sample::select(vec!["x", "k"])).prop_map(|(e, k)| {
            let mut d = Document::new();
            d.insert(k, e);
            Bson::Document(d)
        }),
    ]
    .boxed()
}

fn stage() -> BoxedStrategy<Document> {
    // `$$NOW` only into `t`, which no expression reads (but `$$ROOT`): its value is the clock's.
    let set_fields =
        (prop::collection::btree_map(prop::sample::select(SET_PATHS), set_value(), 1..4), prop::bool::weighted(0.15))
            .prop_map(|(m, now)| {
                let mut seen: Vec<&str> = Vec::new();
                let mut d = Document::new();
                if now {
                    d.insert("t", "$$NOW");
                    seen.push("t");
                }
                for (k, v) in m {
                    // No path that runs through another (mongod's wording for those is not modelled).
                    if seen.iter().any(|s| k.starts_with(&format!("{s}.")) || s.starts_with(&format!("{k}."))) {
                        continue;
                    }
                    seen.push(k);
                    d.insert(k, v);
                }
                Bson::Document(d)
            });
    let unset_paths = prop::sample::subsequence(vec!["a", "z", "d.x", "arr.k", "s", "_id"], 1..3);
    let root = prop_oneof![
        3 => expr(2),
        2 => (prop::collection::vec((prop::sample::select(vec!["n", "s", "x"]), expr(1)), 1..3))
            .prop_map(|fields| Bson::Document(fields.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())),
        2 => small_doc().prop_map(|d| op1("$mergeObjects", Bson::Array(vec!["$$ROOT".into(), d]))),
        1 => prop::sample::select(vec!["$d", "$a", "$$ROOT"]).prop_map(|p| Bson::String(p.into())),
    ];
    let project = prop_oneof![
        Just(doc! { "n": 1, "s": 1 }),
        Just(doc! { "_id": 0 }),
        Just(doc! { "a": 0, "z": 0 }),
        Just(doc! { "arr": 1, "_id": 0 }),
        Just(doc! { "n": 1, "s": 0 }),
        expr(1).prop_map(|e| doc! { "n": 1, "t": e }),
    ];
    prop_oneof![
        6 => (prop::sample::select(vec!["$set", "$addFields"]), set_fields).prop_map(|(name, spec)| {
            let mut d = Document::new();
            d.insert(name, spec);
            d
        }),
        2 => (unset_paths, any::<bool>()).prop_map(|(paths, single)| {
            if single {
                doc! { "$unset": paths[0] }
            } else {
                doc! { "$unset": paths }
            }
        }),
        1 => project.prop_map(|p| doc! { "$project": p }),
        1 => root.clone().prop_map(|r| doc! { "$replaceWith": r }),
        1 => root.prop_map(|r| doc! { "$replaceRoot": { "newRoot": r } }),
        1 => prop::sample::select(vec![
            doc! { "$match": { "n": 1 } },
            doc! { "$set": 1 },
            doc! { "$unset": 1 },
            doc! { "$set": { "x": { "$foo": 1 } } },
            doc! { "$set": { "x": { "$subtract": [1] } } },
            doc! { "$set": { "x": {} } },
            doc! { "$set": { "$x": 1 } },
            doc! { "$set": { "x": "$$undefinedVar" } },
            doc! { "$replaceRoot": { "newRoot": "$$ROOT", "x": 1 } },
            doc! { "$set": { "n": 1 }, "$unset": "s" },
        ]),
    ]
    .boxed()
}

#[derive(Clone, Debug)]
struct Case {
    start: Document,
    pipeline: Vec<Document>,
    upsert: bool,
}

impl Case {
    fn filter(&self) -> Document {
        doc! { "_id": if self.upsert { 2 } else { 1 } }
    }
}

fn case() -> BoxedStrategy<Case> {
    (start(), prop::collection::vec(stage(), 1..4), prop::bool::weighted(0.1))
        .prop_map(|(start, pipeline, upsert)| Case { start, pipeline, upsert })
        .boxed()
}

// ---- the two sides ----

#[derive(Debug, PartialEq)]
enum Outcome {
    Stored(Document),
    NotMatched,
    /// mongod's code, its `errInfo` (121) and its message.
    Error(i32, Option<Document>, String),
}

fn server(db: &Database, case: &Case) -> Outcome {
    let name = collection_name();
    let collection = db.collection::<Document>(&name);
    collection.delete_many(doc! {}).run().expect("delete");
    db.run_command(doc! { "insert": &name, "documents": [case.start.clone()], "bypassDocumentValidation": true })
        .run()
        .expect("insert the starting document");
    let statement = doc! { "q": case.filter(), "u": case.pipeline.clone(), "upsert": case.upsert };
    let reply = match db.run_command(doc! { "update": &name, "updates": [statement] }).run() {
        Ok(reply) => reply,
        Err(e) => match e.kind.as_ref() {
            ErrorKind::Command(c) => return Outcome::Error(c.code, None, c.message.clone()),
            other => panic!("unexpected error {other:?}"),
        },
    };
    if let Ok(errors) = reply.get_array("writeErrors") {
        let error = errors[0].as_document().expect("a write error");
        return Outcome::Error(
            error.get_i32("code").expect("code"),
            error.get_document("errInfo").ok().cloned(),
            error.get_str("errmsg").unwrap_or_default().to_owned(),
        );
    }
    if reply.get_i32("n").ok() == Some(0) {
        return Outcome::NotMatched;
    }
    Outcome::Stored(collection.find_one(case.filter()).run().expect("find").expect("the updated document"))
}

/// `None` when `check_pipeline_update` does not model the case.
fn local(validator: &Validator, case: &Case) -> Option<Outcome> {
    let options = UpdateOptions { filter: case.filter(), ..UpdateOptions::default() };
    let result = if case.upsert {
        validator.check_pipeline_upsert(&case.pipeline, &options)
    } else {
        validator.check_pipeline_update_with(&case.start, &case.pipeline, &options)
    };
    Some(match result {
        Ok(d) => Outcome::Stored(d),
        Err(UpdateError::NotMatched) => Outcome::NotMatched,
        Err(UpdateError::Unsupported(_)) => return None,
        Err(e @ UpdateError::Invalid { .. }) => {
            Outcome::Error(121, Some(e.failure().expect("invalid").err_info()), "Document failed validation".to_owned())
        }
        Err(UpdateError::Refused { code, message, .. }) => Outcome::Error(code, None, message),
        Err(other) => panic!("an update error this test does not know: {other:?}"),
    })
}

/// Dates from `$$NOW` (at or after `since`) set to zero, so both sides' clocks compare equal.
fn settle(value: &mut Bson, since: i64) {
    match value {
        Bson::DateTime(d) if d.timestamp_millis() >= since => *value = Bson::DateTime(DateTime::from_millis(0)),
        Bson::Document(d) => d.iter_mut().for_each(|(_, v)| settle(v, since)),
        Bson::Array(items) => items.iter_mut().for_each(|v| settle(v, since)),
        _ => {}
    }
}

fn same(server: &Outcome, local: &Outcome, since: i64) -> bool {
    let settled = |d: &Document| {
        let mut v = Bson::Document(d.clone());
        settle(&mut v, since);
        bytes(v.as_document().expect("a document"))
    };
    match (server, local) {
        (Outcome::Stored(s), Outcome::Stored(l)) => settled(s) == settled(l),
        (Outcome::NotMatched, Outcome::NotMatched) => true,
        (Outcome::Error(a, x, _), Outcome::Error(b, y, _)) => {
            a == b && (*a != 121 || x.as_ref().map(settled) == y.as_ref().map(settled))
        }
        _ => false,
    }
}

fn pipeline_json(case: &Case) -> String {
    json(Bson::Array(case.pipeline.iter().cloned().map(Bson::Document).collect()))
}

fn show(outcome: &Outcome) -> String {
    match outcome {
        Outcome::Stored(d) => json(Bson::Document(d.clone())),
        Outcome::NotMatched => "no document matched".to_owned(),
        Outcome::Error(code, info, message) => format!(
            "error {code} {message}{}",
            info.as_ref().map(|i| format!(" {}", json(Bson::Document(i.clone())))).unwrap_or_default()
        ),
    }
}

/// What a run must have applied at least once: every stage, expression and variable modelled.
const FEATURES: &[&str] = &[
    "$set",
    "$addFields",
    "$unset",
    "$project",
    "$replaceRoot",
    "$replaceWith",
    "$literal",
    "$concat",
    "$add",
    "$subtract",
    "$multiply",
    "$ifNull",
    "$cond",
    "$cond{}",
    "$mergeObjects",
    "$toDate",
    "$toString",
    "$toInt",
    "$toLong",
    "$toDouble",
    "$toDecimal",
    "$convert",
    "onError",
    "onNull",
    "$eq",
    "$ne",
    "$gt",
    "$gte",
    "$lt",
    "$lte",
    "$and",
    "$or",
    "$not",
    "$type",
    "$isNumber",
    "$trunc",
    "$size",
    "$arrayElemAt",
    "$concatArrays",
    "$map",
    "$filter",
    "$$NOW",
    "$$ROOT",
    "$$CURRENT",
    "$$REMOVE",
    "$a.b",
    "upsert",
];

/// The features of `FEATURES` a case uses.
fn features(case: &Case) -> Vec<&'static str> {
    let text = pipeline_json(case);
    let mut out: Vec<&'static str> = FEATURES
        .iter()
        .copied()
        .filter(|f| {
            if f.starts_with("$$") {
                text.contains(&format!("\"{f}"))
            } else {
                text.contains(&format!("\"{f}\":"))
            }
        })
        .collect();
    if text.contains("\"$cond\":{\"if\"") {
        out.push("$cond{}");
    }
    if ["\"$d.x\"", "\"$arr.k\"", "\"$a.k\""].iter().any(|p| text.contains(p)) {
        out.push("$a.b");
    }
    if case.upsert {
        out.push("upsert");
    }
    out
}

/// How many draws a feature the main cases missed may take to be applied once.
const TOP_UP_DRAWS: usize = 5_000;

#[derive(Default)]
struct Tally {
    wrong: Vec<String>,
    worded: Vec<String>,
    unmodelled: usize,
    unmodelled_why: std::collections::BTreeMap<String, usize>,
    errors: usize,
    stored: usize,
    codes: std::collections::BTreeMap<i32, usize>,
    applied: std::collections::BTreeSet<&'static str>,
}

impl Tally {
    /// Whether the outcomes so far, `run` cases of the `cases` asked for, fall short of the mix.
    fn short(&self, cases: usize, run: usize) -> bool {
        let validation = self.codes.get(&121).copied().unwrap_or(0);
        mix_short(cases, run, self.stored, validation, self.errors - validation, self.unmodelled)
    }

    /// Runs `case` on both sides and records what it found; `true` when mongod applied it.
    fn run(&mut self, db: &Database, validator: &Validator, i: usize, case: &Case, since: i64) -> bool {
        let server = server(db, case);
        let Some(local) = local(validator, case) else {
            self.unmodelled += 1;
            let options = UpdateOptions { filter: case.filter(), ..UpdateOptions::default() };
            if let Err(UpdateError::Unsupported(why)) =
                validator.check_pipeline_update_with(&case.start, &case.pipeline, &options)
            {
                *self.unmodelled_why.entry(why).or_default() += 1;
            }
            return false;
        };
        let applied = matches!(server, Outcome::Stored(_) | Outcome::Error(121, ..));
        if applied {
            self.applied.extend(features(case));
        }
        match &server {
            Outcome::Stored(_) => self.stored += 1,
            Outcome::Error(code, _, _) => {
                self.errors += 1;
                *self.codes.entry(*code).or_default() += 1;
            }
            Outcome::NotMatched => {}
        }
        // Messages must read as mongod's, word for word (but for the clock `$$NOW` reads).
        if let (Outcome::Error(a, _, m), Outcome::Error(b, _, n)) = (&server, &local) {
            if a == b && m != n && !pipeline_json(case).contains("$$NOW") {
                self.worded.push(format!(
                    "{a} {} on {}\n  mongod {m}\n  local  {n}",
                    pipeline_json(case),
                    json(Bson::Document(case.start.clone()))
                ));
            }
        }
        if !same(&server, &local, since) {
            self.wrong.push(format!(
                "case {i}\n  start    {}\n  pipeline {}\n  upsert {}\n  mongod   {}\n  local    {}",
                json(Bson::Document(case.start.clone())),
                pipeline_json(case),
                case.upsert,
                show(&server),
                show(&local)
            ));
        }
        applied
    }
}

#[test]
fn pipeline_updates_apply_as_mongod_applies_them() {
    let Some(db) = database("pipeline_updates_apply_as_mongod_applies_them") else { return };
    let name = collection_name();
    let _ = db.collection::<Document>(&name).drop().run();
    db.run_command(doc! { "create": &name, "validator": { "$jsonSchema": schema() } }).run().expect("create");
    let validator = Validator::new(&schema()).expect("the schema compiles");

    let cases: usize = std::env::var("UPDATE_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(600);
    let seed = seed();
    let since = DateTime::now().timestamp_millis() - 1000;
    let mut tally = Tally::default();
    // coverage by construction: every feature the cases missed is drawn for until mongod
    // applies one, then cases are drawn while the mix of outcomes falls short, so the
    // assertions below never depend on the seed's luck or on how many cases were asked for
    let top_up = draw(
        seed,
        case(),
        cases,
        FEATURES,
        TOP_UP_DRAWS,
        &mut tally,
        features,
        |tally, feature| tally.applied.contains(feature),
        |tally, run| tally.short(cases, run),
        |tally, i, case| {
            tally.run(&db, &validator, i, case, since);
        },
    );
    let _ = db.collection::<Document>(&name).drop().run();
    let Tally { wrong, worded, unmodelled, unmodelled_why, errors, stored, codes, applied } = tally;
    let total = cases + top_up;
    let _ = writeln!(
        std::io::stderr(),
        "update_pipeline_mongod: {cases} cases and {top_up} drawn for coverage (UPDATE_SEED={seed}): {stored} stored, {errors} refused (by code: {codes:?}), {unmodelled} not modelled ({unmodelled_why:?}), {} different, {} worded differently",
        wrong.len(),
        worded.len()
    );
    assert!(
        worded.is_empty(),
        "{} of {total} errors are worded unlike mongod's (UPDATE_SEED={seed} replays them):\n{}",
        worded.len(),
        worded.join("\n")
    );
    assert!(
        wrong.is_empty(),
        "{} of {total} pipeline updates differ from mongod (UPDATE_SEED={seed} replays them):\n{}",
        wrong.len(),
        wrong.join("\n")
    );
    let validation = codes.get(&121).copied().unwrap_or(0);
    assert!(
        !mix_short(cases, total, stored, validation, errors - validation, unmodelled),
        "too few of one kind in {total} cases ({TOP_UP_DRAWS} drawn for the mix at most): {stored} stored, {validation} failing validation, {errors} refused in all, {unmodelled} not modelled ({unmodelled_why:?})"
    );
    let missing: Vec<&&str> = FEATURES.iter().filter(|f| !applied.contains(**f)).collect();
    assert!(
        missing.is_empty(),
        "no case applied (stored or failing validation) {missing:?} in {TOP_UP_DRAWS} draws each (UPDATE_SEED={seed})"
    );
}
