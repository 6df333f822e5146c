//! `Validator::check_update` against a real mongod: generated documents and updates (every
//! operator `check_update` models, their modifiers, positional `$`, `$[]`, `$[<id>]` with
//! `arrayFilters`, upserts, replacement documents, and updates mongod refuses) are applied by
//! mongod (the `update` command, on a collection whose validator is `schema()`; the starting
//! document inserted past the validator) and locally. Both must end with the same document,
//! byte for byte (field order and BSON types), or the same error: the same code, the same
//! message word for word, and for 121 the same `errInfo`. Needs `MONGODB_URI` (see `scripts/with-mongod.sh`); without it the test says it
//! was skipped and passes.
//!
//! The run is deterministic: a fixed seed by default, every feature the cases miss is drawn
//! for until one is applied, and cases are drawn while too few are stored, fail validation or
//! are refused, so the coverage and mix assertions hold on every run. `UPDATE_CASES=N` sets
//! the number of cases (default 600, a few seconds), `UPDATE_SEED=N` replays a run (a failure
//! prints its seed) and `UPDATE_SEED=random` draws a new one (printed in the summary line).

#![forbid(unsafe_code)]
// Under bson 3 only, as `validator_errinfo.rs`: the driver must speak the same major.
#![cfg(feature = "bson-3")]

use mongo_schema_test_support::updates;
use updates::{bytes, decimal, draw, json, mix_short, schema, seed};

use std::io::Write;

use mongo_schema::bson::{doc, Bson, DateTime, Document, Timestamp};
use mongo_schema::validate::{UpdateError, UpdateOptions};
use mongo_schema::Validator;
use mongodb::error::ErrorKind;
use mongodb::sync::{Client, Database};
use proptest::prelude::*;

/// One collection per test process, so two runs against one server never meet.
fn collection_name() -> String {
    format!("updates_{}", std::process::id())
}

fn database(test: &str) -> Option<Database> {
    let Ok(uri) = std::env::var("MONGODB_URI") else {
        let _ = writeln!(std::io::stderr(), "skipped (no MONGODB_URI): {test}");
        return None;
    };
    let client = Client::with_uri_str(uri).expect("MONGODB_URI must be a valid connection string");
    Some(client.database("mongo_schema_update_mongod"))
}

// ---- generated cases ----

fn number() -> BoxedStrategy<Bson> {
    prop_oneof![
        prop::sample::select(vec![0, 1, 2, -1, 7, 100, i32::MAX, i32::MIN, 70000]).prop_map(Bson::Int32),
        prop::sample::select(vec![0, 3, -2, i64::MAX, i64::MIN, 5_000_000_000]).prop_map(Bson::Int64),
        prop::sample::select(vec![0.0, -0.0, 1.5, 2.0, -2.5, 0.1, 1e308]).prop_map(Bson::Double),
        prop::sample::select(vec!["1.5", "2", "-0", "10", "0.1"]).prop_map(decimal),
    ]
    .boxed()
}

fn scalar() -> BoxedStrategy<Bson> {
    prop_oneof![
        4 => number(),
        2 => prop::sample::select(vec!["x", "ab", "hello", "", "k"]).prop_map(|s| Bson::String(s.into())),
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
        1 => prop::collection::vec(prop::collection::vec(scalar(), 0..3).prop_map(Bson::Array), 1..3).prop_map(Bson::Array),
        2 => prop::collection::vec(prop_oneof![3 => scalar(), 1 => small_doc()], 0..5).prop_map(Bson::Array),
        2 => small_doc(),
    ]
    .boxed()
}

const NAMES: &[&str] = &["a", "n", "s", "arr", "d", "z"];

/// A starting document: `_id` first, then the schema's fields (often of their type) and
/// some others.
fn start() -> BoxedStrategy<Document> {
    let typed = (
        prop::option::of(number()),
        prop::option::of(prop::sample::select(vec!["x", "ab", "hello"])),
        prop::option::of(prop::collection::vec(prop_oneof![3 => scalar(), 2 => small_doc()], 0..5)),
        prop::option::of(prop::option::of(number())),
    );
    (typed, prop::collection::vec((prop::sample::select(NAMES), value()), 0..3))
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

fn path() -> BoxedStrategy<String> {
    let common = vec!["a", "n", "s", "arr", "d", "z", "d.x", "d.y", "arr.0", "arr.1", "arr.4"];
    let arrays =
        vec!["arr.$[]", "arr.$[e]", "arr.$", "arr.$[].k", "arr.$[e].k", "arr.$.k", "arr.0.k", "arr.$[].y", "arr.$[].0"];
    let odd = vec!["_id", "d.x.q", "n.x", "arr.k", "y.z", "10", "9"];
    prop_oneof![
        8 => prop::sample::select(common),
        3 => prop::sample::select(arrays),
        1 => prop::sample::select(odd),
    ]
    .prop_map(str::to_owned)
    .boxed()
}

/// A path for `operator`: the array operators mostly on the array.
fn path_for(operator: &'static str) -> BoxedStrategy<String> {
    match operator {
        "$push" | "$addToSet" | "$pop" | "$pull" | "$pullAll" => {
            prop_oneof![3 => Just("arr".to_owned()), 1 => path()].boxed()
        }
        _ => path(),
    }
}

fn operand(operator: &'static str) -> BoxedStrategy<Bson> {
    match operator {
        "$inc" | "$mul" => prop_oneof![6 => number(), 1 => Just(Bson::String("x".into()))].boxed(),
        "$unset" => Just(Bson::String(String::new())).boxed(),
        "$currentDate" => prop::sample::select(vec![
            Bson::Boolean(true),
            Bson::Document(doc! { "$type": "date" }),
            Bson::Document(doc! { "$type": "timestamp" }),
            Bson::Int32(5),
        ])
        .boxed(),
        "$rename" => prop::sample::select(vec!["a", "b", "z", "d.w", "y.z", "arr.0", "n", "a.b", "arr"])
            .prop_map(|s| Bson::String(s.into()))
            .boxed(),
        "$push" => prop_oneof![
            2 => value(),
            3 => (
                prop::collection::vec(value(), 0..4),
                prop::option::of(-4i32..5),
                prop::option::of(prop::sample::select(vec![
                    Bson::Int32(1),
                    Bson::Int32(-1),
                    Bson::Document(doc! { "k": 1 }),
                    Bson::Document(doc! { "k": -1, "x": 1 }),
                    Bson::Int32(2),
                ])),
                prop::option::of(-3i32..4),
            )
                .prop_map(|(each, slice, sort, position)| {
                    let mut d = doc! { "$each": each };
                    if let Some(n) = slice {
                        d.insert("$slice", n);
                    }
                    if let Some(s) = sort {
                        d.insert("$sort", s);
                    }
                    if let Some(p) = position {
                        d.insert("$position", p);
                    }
                    Bson::Document(d)
                }),
        ]
        .boxed(),
        "$addToSet" => prop_oneof![
            2 => value(),
            2 => prop::collection::vec(value(), 0..4).prop_map(|each| Bson::Document(doc! { "$each": each })),
        ]
        .boxed(),
        "$pop" => {
            prop::sample::select(vec![Bson::Int32(1), Bson::Int32(-1), Bson::Double(-1.0), Bson::Int32(2)]).boxed()
        }
        "$pull" => prop_oneof![
            2 => scalar(),
            2 => prop::sample::select(vec![
                Bson::Document(doc! { "$gte": 2 }),
                Bson::Document(doc! { "$in": ["x", 1, null] }),
                Bson::Document(doc! { "$nin": ["x", 1] }),
                Bson::Document(doc! { "$ne": null }),
                Bson::Document(doc! { "$not": { "$lt": 2 } }),
                Bson::Document(doc! { "$size": 0 }),
                Bson::Document(doc! { "$elemMatch": { "$gt": 0 } }),
                Bson::Document(doc! { "k": 1 }),
                Bson::Document(doc! { "k": { "$exists": true } }),
                Bson::Document(doc! { "k": null }),
                Bson::Document(doc! { "$or": [{ "k": 1 }, { "x": "hello" }] }),
                Bson::Document(doc! { "$type": "number" }),
                Bson::Document(doc! { "$type": ["string", "object"] }),
                Bson::Document(doc! { "k": { "$type": 16 } }),
                Bson::Document(doc! { "k": { "$lte": "x" }, "y": { "$exists": false } }),
                Bson::Document(doc! {}),
                Bson::Array(vec![Bson::Int32(1), Bson::String("x".into())]),
            ]),
        ]
        .boxed(),
        "$pullAll" => prop_oneof![
            4 => prop::collection::vec(scalar(), 0..3).prop_map(Bson::Array),
            1 => Just(Bson::Int32(1)),
        ]
        .boxed(),
        _ => value(),
    }
}

const OPERATORS: &[&str] = &[
    "$set",
    "$unset",
    "$inc",
    "$mul",
    "$min",
    "$max",
    "$rename",
    "$setOnInsert",
    "$currentDate",
    "$push",
    "$addToSet",
    "$pop",
    "$pull",
    "$pullAll",
];

fn operator_fields() -> BoxedStrategy<(String, Bson)> {
    prop::sample::select(OPERATORS)
        .prop_flat_map(|op| {
            let fields = prop_oneof![3 => Just(1usize), 1 => Just(2usize)]
                .prop_flat_map(move |n| prop::collection::vec((path_for(op), operand(op)), n));
            fields.prop_map(move |fields| {
                let body: Document = fields.into_iter().collect();
                (op.to_owned(), Bson::Document(body))
            })
        })
        .boxed()
}

/// An update document: usually 1–3 operators; sometimes a replacement, an empty update or
/// an unknown operator.
fn update() -> BoxedStrategy<Document> {
    prop_oneof![
        20 => operator_fields().prop_map(|op| std::iter::once(op).collect::<Document>()),
        6 => prop::collection::vec(operator_fields(), 2..4).prop_map(|ops| ops.into_iter().collect::<Document>()),
        1 => small_doc().prop_map(|d| d.as_document().cloned().unwrap_or_default()),
        1 => Just(doc! { "$foo": { "a": 1 } }),
        1 => Just(doc! { "$set": 1 }),
    ]
    .boxed()
}

#[derive(Clone, Debug)]
struct Case {
    start: Document,
    update: Document,
    filter: Document,
    array_filters: Vec<Document>,
    upsert: bool,
}

fn case() -> BoxedStrategy<Case> {
    let filter_extra = prop::option::weighted(
        0.3,
        prop::sample::select(vec![
            doc! { "$or": [{ "arr": 1 }, { "arr.k": { "$gt": 0 } }] },
            doc! { "$or": [{ "arr": { "$gte": 1 } }] },
            doc! { "$and": [{ "a": 1 }, { "s": "x" }] },
            doc! { "arr": { "$in": [1, "x", null] } },
            doc! { "arr": { "$elemMatch": { "$gte": 1 } } },
            doc! { "arr.0": { "$exists": true } },
            doc! { "arr": { "$type": "object" } },
            doc! { "arr.k": { "$type": "number" } },
            doc! { "n": { "$eq": 3 }, "d.x": { "$eq": 7 } },
            doc! { "arr": 1 },
            doc! { "arr": "x" },
            doc! { "arr": { "$gte": 2 } },
            doc! { "arr.k": 1 },
            doc! { "arr": { "$elemMatch": { "k": { "$exists": true } } } },
            doc! { "n": { "$exists": true } },
            doc! { "a": 1, "d.x": 2 },
        ]),
    );
    let array_filter = prop::option::weighted(
        0.9,
        prop::sample::select(vec![
            doc! { "e": { "$gte": 2 } },
            doc! { "e.k": 1 },
            doc! { "e": "x" },
            doc! { "e": { "$in": [1, "ab"] } },
        ]),
    );
    let flags = (prop::bool::weighted(0.15), prop::bool::weighted(0.8), prop::bool::weighted(0.05));
    (start(), update(), filter_extra, array_filter, flags)
        .prop_map(|(mut start, update, extra, array_filter, (upsert, extra_positional, unused_filter))| {
            let mut filter = doc! { "_id": if upsert { 2 } else { 1 } };
            if let Some(extra) = extra {
                filter.extend(extra);
            }
            // Mostly the filter the update needs; sometimes one it does not use (refused).
            let uses_filter = format!("{update:?}").contains("$[e]");
            let array_filters = match array_filter {
                Some(f) if uses_filter || unused_filter => vec![f],
                _ => Vec::new(),
            };
            // Mostly a filter that gives `$` a position when the update uses it.
            let positional = format!("{update:?}").contains("arr.$\"") || format!("{update:?}").contains("arr.$.");
            if positional && !filter.keys().any(|k| k.starts_with("arr")) && extra_positional {
                filter.insert("arr", doc! { "$exists": true });
                if !matches!(start.get("arr"), Some(Bson::Array(items)) if !items.is_empty()) {
                    start.insert("arr", vec![Bson::Int32(1), Bson::Document(doc! { "k": 1 })]);
                }
            }
            Case { start, update, filter, array_filters, upsert }
        })
        .boxed()
}

// ---- the two sides ----

/// What happened to the document.
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
    let mut statement = doc! { "q": case.filter.clone(), "u": case.update.clone(), "upsert": case.upsert };
    if !case.array_filters.is_empty() {
        statement.insert("arrayFilters", case.array_filters.clone());
    }
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
    let id = case.filter.get("_id").cloned().expect("filters name _id");
    Outcome::Stored(collection.find_one(doc! { "_id": id }).run().expect("find").expect("the updated document"))
}

/// `None` when `check_update` does not model the case.
fn local(validator: &Validator, case: &Case) -> Option<Outcome> {
    let options = UpdateOptions { filter: case.filter.clone(), array_filters: case.array_filters.clone() };
    let result = if case.upsert {
        validator.check_upsert(&case.update, &options)
    } else {
        validator.check_update_with(&case.start, &case.update, &options)
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

/// Dates and timestamps from `$currentDate` (at or after `since`) set to zero, so both sides'
/// clocks compare equal.
fn settle(value: &mut Bson, since: i64) {
    match value {
        Bson::DateTime(d) if d.timestamp_millis() >= since => *value = Bson::DateTime(DateTime::from_millis(0)),
        Bson::Timestamp(t) if i64::from(t.time) * 1000 >= since - 1000 => {
            *value = Bson::Timestamp(Timestamp { time: 0, increment: 0 })
        }
        Bson::Document(d) => d.iter_mut().for_each(|(_, v)| settle(v, since)),
        Bson::Array(items) => items.iter_mut().for_each(|v| settle(v, since)),
        _ => {}
    }
}

fn same(server: &Outcome, local: &Outcome, since: i64) -> bool {
    match (server, local) {
        (Outcome::Stored(s), Outcome::Stored(l)) => {
            let (mut s, mut l) = (Bson::Document(s.clone()), Bson::Document(l.clone()));
            settle(&mut s, since);
            settle(&mut l, since);
            s.as_document().map(bytes) == l.as_document().map(bytes)
        }
        (Outcome::NotMatched, Outcome::NotMatched) => true,
        (Outcome::Error(a, x, _), Outcome::Error(b, y, _)) => {
            let settled = |info: &Option<Document>| {
                info.as_ref().map(|i| {
                    let mut v = Bson::Document(i.clone());
                    settle(&mut v, since);
                    bytes(v.as_document().expect("a document"))
                })
            };
            a == b && (*a != 121 || settled(x) == settled(y))
        }
        _ => false,
    }
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

/// What a run must have applied at least once: every operator, its modifiers, the array
/// paths, upserts and replacements.
const FEATURES: &[&str] = &[
    "$set",
    "$unset",
    "$inc",
    "$mul",
    "$min",
    "$max",
    "$rename",
    "$setOnInsert",
    "$currentDate",
    "$push",
    "$addToSet",
    "$pop",
    "$pull",
    "$pullAll",
    "$each",
    "$slice",
    "$sort",
    "$position",
    "$",
    "$[]",
    "$[e]",
    "upsert",
    "replacement",
];

/// The features of `FEATURES` a case uses.
fn features(case: &Case) -> Vec<&'static str> {
    let text = format!("{:?}", case.update);
    let mut out: Vec<&'static str> =
        FEATURES.iter().copied().filter(|f| f.len() > 3 && text.contains(&format!("\"{f}\""))).collect();
    if text.contains(".$\"") || text.contains(".$.") {
        out.push("$");
    }
    for f in ["$[]", "$[e]"] {
        if text.contains(f) {
            out.push(f);
        }
    }
    if case.upsert {
        out.push("upsert");
    }
    if case.update.keys().next().is_none_or(|k| !k.starts_with('$')) {
        out.push("replacement");
    }
    out
}

/// How many draws a feature the main cases missed may take to be applied once: the cases are
/// drawn from the same strategy, kept only when they use the feature, until mongod applies
/// one (stores it or refuses it with 121).
const TOP_UP_DRAWS: usize = 2_000;

/// What comparing one case found.
#[derive(Default)]
struct Tally {
    wrong: Vec<String>,
    worded: Vec<String>,
    unmodelled: usize,
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
        // Messages must read as mongod's, word for word (but for the clock `$currentDate` reads).
        if let (Outcome::Error(a, _, m), Outcome::Error(b, _, n)) = (&server, &local) {
            if a == b && m != n && !case.update.contains_key("$currentDate") {
                self.worded.push(format!(
                    "{a} {} on {}\n  mongod {m}\n  local  {n}",
                    json(Bson::Document(case.update.clone())),
                    json(Bson::Document(case.start.clone()))
                ));
            }
        }
        if !same(&server, &local, since) {
            self.wrong.push(format!(
                "case {i}\n  start   {}\n  update  {}\n  filter  {}  arrayFilters {:?}  upsert {}\n  mongod  {}\n  local   {}",
                json(Bson::Document(case.start.clone())),
                json(Bson::Document(case.update.clone())),
                json(Bson::Document(case.filter.clone())),
                case.array_filters,
                case.upsert,
                show(&server),
                show(&local)
            ));
        }
        applied
    }
}

#[test]
fn updates_apply_as_mongod_applies_them() {
    let Some(db) = database("updates_apply_as_mongod_applies_them") else { return };
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
    let Tally { wrong, worded, unmodelled, errors, stored, codes, applied } = tally;
    let _ = writeln!(
        std::io::stderr(),
        "update_mongod: {cases} cases and {top_up} drawn for coverage (UPDATE_SEED={seed}): {stored} stored, {errors} refused (by code: {codes:?}), {unmodelled} not modelled, {} different, {} worded differently",
        wrong.len(),
        worded.len()
    );
    assert!(
        worded.is_empty(),
        "{} of {cases} errors are worded unlike mongod's (UPDATE_SEED={seed} replays them):\n{}",
        worded.len(),
        worded.join("\n")
    );
    assert!(
        wrong.is_empty(),
        "{} of {cases} updates differ from mongod (UPDATE_SEED={seed} replays them):\n{}",
        wrong.len(),
        wrong.join("\n")
    );
    let (total, validation) = (cases + top_up, codes.get(&121).copied().unwrap_or(0));
    assert!(
        !mix_short(cases, total, stored, validation, errors - validation, unmodelled),
        "too few of one kind in {total} cases ({TOP_UP_DRAWS} drawn for the mix at most): {stored} stored, {validation} failing validation, {errors} refused in all, {unmodelled} not modelled"
    );
    let missing: Vec<&&str> = FEATURES.iter().filter(|f| !applied.contains(**f)).collect();
    assert!(
        missing.is_empty(),
        "no case applied (stored or failing validation) {missing:?} in {TOP_UP_DRAWS} draws each (UPDATE_SEED={seed})"
    );
}
