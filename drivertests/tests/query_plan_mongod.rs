//! The query planner (`mongo_schema::query::plan`) against mongod 6.0's own: for the rules
//! table of docs/QUERIES.md (one named case a row) and for generated models, indexes and
//! query shapes (seeded), each verdict is compared with mongod's `explain` (queryPlanner) of
//! the same query on a collection holding the same indexes: the winning plan's index (or
//! COLLSCAN), its SORT stage, its FETCH (or covered projection), its OR; and the indexes of
//! every plan mongod considered must be the verdict's candidates. Where mongod picks between
//! two candidates on equal footing (on an empty collection every plan ties on
//! productivity), either is accepted and the count is printed. Needs `MONGODB_URI` (see
//! `scripts/with-mongod.sh`); without it each test says it was skipped and passes.

#![forbid(unsafe_code)]

use std::collections::BTreeMap;

use mongo_schema::bson::{doc, oid::ObjectId, DateTime, Document};
use mongo_schema::command::{Collation, Index, IndexKey, Registration};
use mongo_schema::migrate::driver::MongoServer;
use mongo_schema::migrate::server::Server;
use mongo_schema::query::explain::{self, Observed};
use mongo_schema::query::plan::{plan, IndexRef, Unindexed, Verdict};
use mongo_schema::query::{Direction, Filter, Op, Pred, Shape};
use mongo_schema::MongoSchema;
use mongo_schema_test_support::XorShiftStar;
use serde::Serialize;

#[derive(Serialize, MongoSchema)]
struct Line {
    sku: String,
    count: i32,
}

#[derive(Serialize, MongoSchema)]
struct Addr {
    city: String,
    zip: i32,
}

#[derive(Serialize, MongoSchema)]
struct Attrs {
    color: String,
    size: i32,
}

#[derive(Serialize, MongoSchema)]
struct Point {
    r#type: String,
    #[mongo(max_items = 2)]
    coordinates: Vec<f64>,
}

/// The model every generated case plans over; each case declares its own indexes.
#[derive(Serialize, MongoSchema)]
#[mongo(db = "db_qplan", collection = "t_qplan")]
struct Doc {
    #[serde(rename = "_id")]
    id: ObjectId,
    name: String,
    qty: i32,
    score: f64,
    seq: i64,
    at: DateTime,
    flag: bool,
    #[mongo(max_items = 5)]
    tags: Vec<String>,
    #[mongo(max_items = 5)]
    lines: Vec<Line>,
    addr: Addr,
    attrs: Attrs,
    loc: Point,
    pair: [f64; 2],
    body: String,
}

const DB: &str = "db_qplan_differential";

/// A document with every field, arrays of two: inserted then deleted, it leaves the
/// indexes on array paths multikey as the model says they are. It satisfies every partial
/// filter `gen_index` writes (`qty > 5`, `name` exists, `flag`), or a partial index would
/// stay non-multikey where the model's arrays (and a live collection's data) make it one.
fn sample() -> Document {
    doc! {
        "_id": ObjectId::from_bytes([1; 12]),
        "name": "n", "qty": 6, "score": 1.5, "seq": 1i64, "at": DateTime::from_millis(0), "flag": true,
        "tags": ["a", "b"],
        "lines": [{ "sku": "s", "count": 1 }, { "sku": "t", "count": 2 }],
        "addr": { "city": "c", "zip": 1 },
        "attrs": { "color": "red", "size": 1 },
        "loc": { "type": "Point", "coordinates": [0.0, 0.0] },
        "pair": [0.0, 0.0],
        "body": "some words",
    }
}

fn leak<T>(v: Vec<T>) -> &'static [T] {
    Box::leak(v.into_boxed_slice())
}

fn s(text: String) -> &'static str {
    Box::leak(text.into_boxed_str())
}

const EN2: Collation = Collation {
    locale: "en",
    strength: Some(2),
    case_level: None,
    case_first: None,
    numeric_ordering: None,
    alternate: None,
    max_variable: None,
    normalization: None,
    backwards: None,
};

fn index(name: &str, keys: Vec<(&'static str, IndexKey)>) -> Index {
    Index {
        name: s(name.to_owned()),
        keys: leak(keys),
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
    }
}

fn model(indexes: Vec<Index>, collation: Option<Collation>) -> Registration {
    Registration { indexes: leak(indexes), collation, ..Registration::of::<Doc>("Doc") }
}

fn shape(filter: Vec<Filter>, sort: Vec<(&'static str, Direction)>) -> Shape {
    Shape {
        filter: leak(filter),
        sort: leak(sort),
        projection: &[],
        limit: None,
        skip: None,
        name: None,
        allow: &[],
        literals: &[],
        module: module_path!(),
        file: file!(),
        line: line!(),
    }
}

fn p(path: &'static str, op: Op) -> Filter {
    Filter::Pred(Pred { path, op })
}

// ---------------------------------------------------------------------------------------
// mongod

struct Mongod {
    server: MongoServer,
    db: String,
    next: usize,
}

impl Mongod {
    fn connect(test: &str) -> Option<Mongod> {
        let Ok(uri) = std::env::var("MONGODB_URI") else {
            eprintln!("skipped (no MONGODB_URI): {test}");
            return None;
        };
        let mut server = MongoServer::connect(&uri).expect("connect");
        let db = format!("{DB}_{}", test.len());
        let _ = server.run_command(&db, doc! { "dropDatabase": 1 });
        Some(Mongod { server, db, next: 0 })
    }

    /// A fresh collection with the model's collation and indexes (those mongod refuses are
    /// left out of the returned model, with the count), multikey where the model's arrays are.
    fn collection(&mut self, model: Registration) -> (String, Registration, usize) {
        self.next += 1;
        let name = format!("c{}", self.next);
        let mut create = doc! { "create": &name };
        if let Some(c) = &model.collation {
            create.insert("collation", c.document());
        }
        self.server.run_command(&self.db, create).expect("create");
        let mut kept = Vec::new();
        let mut refused = 0;
        for index in model.indexes {
            match self.server.run_command(&self.db, doc! { "createIndexes": &name, "indexes": [index.spec()] }) {
                Ok(_) => kept.push(*index),
                Err(_) => refused += 1,
            }
        }
        let model = Registration { indexes: leak(kept), ..model };
        let inserted = self
            .server
            .run_command(&self.db, doc! { "insert": &name, "documents": [sample()] })
            .expect("insert sample");
        assert!(!inserted.contains_key("writeErrors"), "the sample document is refused: {inserted}");
        self.server
            .run_command(&self.db, doc! { "delete": &name, "deletes": [{ "q": {}, "limit": 0 }] })
            .expect("delete sample");
        (name, model, refused)
    }

    fn explain(&mut self, shape: &Shape, model: &Registration, collection: &str) -> Result<Observed, String> {
        let command = explain::explain_command(shape, model, collection);
        match self.server.run_command(&self.db, command.clone()) {
            Ok(reply) => Observed::read(&reply).ok_or_else(|| format!("unreadable explain {reply}")),
            Err(e) => Err(format!("{e} (command {command})")),
        }
    }
}

/// Compares one verdict with mongod: the differences, empty when they agree; and whether
/// mongod chose another candidate than the verdict's on equal footing.
fn judge(mongod: &mut Mongod, shape: &Shape, model: &Registration, collection: &str) -> (Vec<String>, bool) {
    let verdict = plan(shape, model);
    match mongod.explain(shape, model, collection) {
        Ok(observed) => {
            let diffs = explain::differences(shape, model, &verdict, &observed, true);
            let other = match (verdict.index, observed.winning.indexes.first()) {
                (Some(r), Some(name)) if !verdict.or => r.index(model).name != name,
                _ => false,
            };
            (diffs, other)
        }
        // mongod refuses `$text` and `$near` without their index, as the verdict says
        Err(e) if matches!(verdict.unindexed, Some(Unindexed::NoTextIndex | Unindexed::NoGeoIndex)) => {
            let _ = e;
            (Vec::new(), false)
        }
        Err(e) => (vec![format!("mongod refused the query: {e}")], false),
    }
}

fn describe(shape: &Shape, model: &Registration, verdict: &Verdict) -> String {
    let indexes: Vec<String> = model.indexes.iter().map(|i| format!("{} {}", i.name, spec_text(i))).collect();
    format!(
        "filter {} sort {} projection {} limit {:?} collation {:?}\n  indexes: {}\n  verdict: {:?}",
        explain::filter(shape, model),
        explain::sort(shape),
        explain::projection(shape),
        shape.limit,
        model.collation.map(|c| c.locale),
        indexes.join("; "),
        verdict
    )
}

fn spec_text(index: &Index) -> String {
    let mut spec = index.spec();
    spec.remove("name");
    spec.to_string()
}

// ---------------------------------------------------------------------------------------
// The rules table: one case a row, its verdict asserted here and compared with mongod.

/// What a row says the planner decides.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Expect {
    /// This index, sort in memory?, covered?
    Index(&'static str, bool, bool),
    /// Walks the whole of this index for the sort.
    WholeIndex(&'static str),
    /// A collection scan.
    Collscan,
    /// Every `$or` branch indexed.
    Or,
    /// mongod refuses it (no text / geo index).
    Refused,
}

struct Row {
    name: &'static str,
    indexes: Vec<Index>,
    collation: Option<Collation>,
    shape: Shape,
    expect: Expect,
}

fn asc(path: &'static str) -> (&'static str, IndexKey) {
    (path, IndexKey::Ascending)
}
fn desc(path: &'static str) -> (&'static str, IndexKey) {
    (path, IndexKey::Descending)
}
const ASC: Direction = Direction::Ascending;
const DESC: Direction = Direction::Descending;

fn with(mut shape: Shape, f: impl FnOnce(&mut Shape)) -> Shape {
    f(&mut shape);
    shape
}

fn rows() -> Vec<Row> {
    let esr = || index("esr", vec![asc("name"), desc("at"), asc("qty")]);
    let in2 = Op::In { len: Some(2), null: false };
    vec![
        Row {
            name: "ESR: equality, sort, range",
            indexes: vec![esr()],
            collation: None,
            shape: shape(vec![p("name", Op::Eq), p("qty", Op::Gt)], vec![("at", DESC)]),
            expect: Expect::Index("esr", false, false),
        },
        Row {
            name: "range before the sort: SORT stage",
            indexes: vec![index("rs", vec![asc("name"), asc("qty"), desc("at")])],
            collation: None,
            shape: shape(vec![p("name", Op::Eq), p("qty", Op::Gt)], vec![("at", DESC)]),
            expect: Expect::Index("rs", true, false),
        },
        Row {
            name: "the reverse sort",
            indexes: vec![esr()],
            collation: None,
            shape: shape(vec![p("name", Op::Eq)], vec![("at", ASC), ("qty", DESC)]),
            expect: Expect::Index("esr", false, false),
        },
        Row {
            name: "a sort of mixed directions the index does not hold",
            indexes: vec![esr()],
            collation: None,
            shape: shape(vec![p("name", Op::Eq)], vec![("at", ASC), ("qty", ASC)]),
            expect: Expect::Index("esr", true, false),
        },
        Row {
            name: "$in with a sort: one scan per value, merged",
            indexes: vec![esr()],
            collation: None,
            shape: shape(vec![p("name", in2)], vec![("at", DESC)]),
            expect: Expect::Index("esr", false, false),
        },
        Row {
            name: "no predicate on the first key: the index is not a candidate",
            indexes: vec![esr()],
            collation: None,
            shape: shape(vec![p("qty", Op::Eq)], vec![]),
            expect: Expect::Collscan,
        },
        Row {
            name: "a sort an index provides while no index bounds the filter",
            indexes: vec![index("at", vec![desc("at")])],
            collation: None,
            shape: shape(vec![p("qty", Op::Eq)], vec![("at", DESC)]),
            expect: Expect::WholeIndex("at"),
        },
        Row {
            name: "multikey path: bounds, no covering, no sort",
            indexes: vec![index("tags", vec![asc("tags")])],
            collation: None,
            shape: with(shape(vec![p("tags", Op::Eq)], vec![("tags", ASC)]), |s| {
                s.projection = &[("tags", true), ("_id", false)]
            }),
            expect: Expect::Index("tags", true, false),
        },
        Row {
            name: "multikey: a key bound through the same array leaves the sort in memory",
            indexes: vec![index("ls", vec![asc("lines.sku"), desc("lines.count")])],
            collation: None,
            shape: shape(vec![p("lines.sku", Op::Eq)], vec![("lines.count", DESC)]),
            expect: Expect::Index("ls", true, false),
        },
        Row {
            name: "multikey: $exists: true bounds an array's key [MinKey, MaxKey]: it sorts",
            indexes: vec![index("nt", vec![asc("name"), asc("tags")])],
            collation: None,
            shape: shape(vec![p("name", Op::Eq), p("tags", Op::Exists(true))], vec![("tags", ASC)]),
            expect: Expect::Index("nt", false, false),
        },
        Row {
            name: "covered: filter and projection in the index, _id excluded",
            indexes: vec![index("nq", vec![asc("name"), asc("qty")])],
            collation: None,
            shape: with(shape(vec![p("name", Op::Eq)], vec![("qty", ASC)]), |s| {
                s.projection = &[("name", true), ("qty", true), ("_id", false)]
            }),
            expect: Expect::Index("nq", false, true),
        },
        Row {
            name: "multikey index: an inexact predicate ($type) on its scalar key is fetched, not covered",
            indexes: vec![index("nt", vec![asc("name"), asc("tags")])],
            collation: None,
            shape: with(shape(vec![p("name", Op::Type)], vec![]), |s| s.projection = &[("name", true), ("_id", false)]),
            expect: Expect::Index("nt", false, false),
        },
        Row {
            name: "multikey index: an exact predicate ($gt) on its scalar key is covered",
            indexes: vec![index("nt", vec![asc("name"), asc("tags")])],
            collation: None,
            shape: with(shape(vec![p("name", Op::Gt)], vec![]), |s| s.projection = &[("name", true), ("_id", false)]),
            expect: Expect::Index("nt", false, true),
        },
        Row {
            name: "$eq: null with $exists: false is one point [null, null]: the next key sorts",
            indexes: vec![index("zq", vec![asc("addr.zip"), asc("qty")])],
            collation: None,
            shape: shape(vec![p("addr.zip", Op::EqNull), p("addr.zip", Op::Exists(false))], vec![("qty", ASC)]),
            expect: Expect::Index("zq", false, false),
        },
        Row {
            name: "an array's key with a $in of one value and a $type: a plan with the point, the next key sorts",
            indexes: vec![index("ts", vec![asc("tags"), desc("score")])],
            collation: None,
            shape: shape(
                vec![p("tags", Op::Type), p("tags", Op::In { len: Some(1), null: false })],
                vec![("score", DESC)],
            ),
            expect: Expect::Index("ts", false, false),
        },
        Row {
            name: "not covered: _id returned",
            indexes: vec![index("nq", vec![asc("name"), asc("qty")])],
            collation: None,
            shape: with(shape(vec![p("name", Op::Eq)], vec![]), |s| s.projection = &[("qty", true)]),
            expect: Expect::Index("nq", false, false),
        },
        Row {
            name: "partial index: used when the filter implies its expression",
            indexes: vec![Index { partial: Some(r#"{"qty": {"$gt": 5}}"#), ..index("pq", vec![asc("name")]) }],
            collation: None,
            shape: shape(vec![p("name", Op::Eq), p("qty", Op::Gt)], vec![]),
            expect: Expect::Index("pq", false, false),
        },
        Row {
            name: "partial index: not used otherwise",
            indexes: vec![Index { partial: Some(r#"{"qty": {"$gt": 5}}"#), ..index("pq", vec![asc("name")]) }],
            collation: None,
            shape: shape(vec![p("name", Op::Eq)], vec![]),
            expect: Expect::Collscan,
        },
        Row {
            name: "sparse index: not for null",
            indexes: vec![Index { sparse: true, ..index("sn", vec![asc("name")]) }],
            collation: None,
            shape: shape(vec![p("name", Op::EqNull)], vec![]),
            expect: Expect::Collscan,
        },
        Row {
            name: "sparse index: for a value",
            indexes: vec![Index { sparse: true, ..index("sn", vec![asc("name")]) }],
            collation: None,
            shape: shape(vec![p("name", Op::Eq)], vec![]),
            expect: Expect::Index("sn", false, false),
        },
        Row {
            name: "collation: a string predicate needs the query's collation",
            indexes: vec![Index { collation: Some(EN2), ..index("ci", vec![asc("name")]) }],
            collation: None,
            shape: shape(vec![p("name", Op::Eq)], vec![]),
            expect: Expect::Collscan,
        },
        Row {
            name: "collation: the collection default is the query's",
            indexes: vec![index("ci", vec![asc("name")])],
            collation: Some(EN2),
            shape: shape(vec![p("name", Op::Eq)], vec![]),
            expect: Expect::Index("ci", false, false),
        },
        Row {
            name: "collation: a number predicate uses any",
            indexes: vec![Index { collation: Some(EN2), ..index("cq", vec![asc("qty")]) }],
            collation: None,
            shape: shape(vec![p("qty", Op::Eq)], vec![]),
            expect: Expect::Index("cq", false, false),
        },
        Row {
            name: "hashed key: equality",
            indexes: vec![index("h", vec![("name", IndexKey::Hashed)])],
            collation: None,
            shape: shape(vec![p("name", Op::Eq)], vec![]),
            expect: Expect::Index("h", false, false),
        },
        Row {
            name: "hashed key: not a range",
            indexes: vec![index("h", vec![("name", IndexKey::Hashed)])],
            collation: None,
            shape: shape(vec![p("name", Op::Gt)], vec![]),
            expect: Expect::Collscan,
        },
        Row {
            name: "$text needs a text index",
            indexes: vec![index("body_text", vec![("body", IndexKey::Text)])],
            collation: None,
            shape: shape(vec![Filter::Text], vec![]),
            expect: Expect::Index("body_text", false, false),
        },
        Row {
            name: "$text without a text index",
            indexes: vec![],
            collation: None,
            shape: shape(vec![Filter::Text], vec![]),
            expect: Expect::Refused,
        },
        Row {
            name: "$near needs a geo index",
            indexes: vec![index("loc", vec![("loc", IndexKey::Sphere2d)])],
            collation: None,
            shape: shape(vec![p("loc", Op::Near)], vec![]),
            expect: Expect::Index("loc", false, false),
        },
        Row {
            name: "$geoWithin without a geo index",
            indexes: vec![],
            collation: None,
            shape: shape(vec![p("loc", Op::GeoWithin)], vec![]),
            expect: Expect::Collscan,
        },
        Row {
            name: "wildcard index: a predicate on a path under it",
            indexes: vec![index("w", vec![asc("attrs.$**")])],
            collation: None,
            shape: shape(vec![p("attrs.color", Op::Eq)], vec![]),
            expect: Expect::Index("w", false, false),
        },
        Row {
            name: "hidden index: never",
            indexes: vec![Index { hidden: true, ..index("hid", vec![asc("name")]) }],
            collation: None,
            shape: shape(vec![p("name", Op::Eq)], vec![]),
            expect: Expect::Collscan,
        },
        Row {
            name: "$or: every branch indexed",
            indexes: vec![index("n", vec![asc("name")]), index("q", vec![asc("qty")])],
            collation: None,
            shape: shape(
                vec![Filter::Or(leak(vec![leak(vec![p("name", Op::Eq)]), leak(vec![p("qty", Op::Lt)])]))],
                vec![],
            ),
            expect: Expect::Or,
        },
        Row {
            name: "$or: a branch without an index",
            indexes: vec![index("n", vec![asc("name")])],
            collation: None,
            shape: shape(
                vec![Filter::Or(leak(vec![leak(vec![p("name", Op::Eq)]), leak(vec![p("qty", Op::Lt)])]))],
                vec![],
            ),
            expect: Expect::Collscan,
        },
        Row {
            name: "$or beside an indexed equality: mongod also plans the $or, pushing the equality into a branch",
            indexes: vec![index("nq", vec![asc("name"), asc("qty")]), index("s", vec![asc("seq")])],
            collation: None,
            shape: shape(
                vec![
                    p("name", Op::Eq),
                    Filter::Or(leak(vec![leak(vec![p("qty", Op::Eq)]), leak(vec![p("seq", Op::Eq)])])),
                ],
                vec![],
            ),
            expect: Expect::Index("nq", false, false),
        },
        Row {
            name: "$ne: bounds around one value (unselective)",
            indexes: vec![index("q", vec![asc("qty")])],
            collation: None,
            shape: shape(vec![p("qty", Op::Ne)], vec![]),
            expect: Expect::Index("q", false, false),
        },
        Row {
            name: "$nin on a multikey path: bounds around its values (unselective)",
            indexes: vec![index("tags", vec![asc("tags")])],
            collation: None,
            shape: shape(vec![p("tags", Op::Nin)], vec![]),
            expect: Expect::Index("tags", false, false),
        },
        Row {
            name: "$exists: false: bounds [null, null]",
            indexes: vec![index("q", vec![asc("qty")])],
            collation: None,
            shape: shape(vec![p("qty", Op::Exists(false))], vec![]),
            expect: Expect::Index("q", false, false),
        },
        Row {
            name: "$exists: false on a sparse index: no",
            indexes: vec![Index { sparse: true, ..index("q", vec![asc("qty")]) }],
            collation: None,
            shape: shape(vec![p("qty", Op::Exists(false))], vec![]),
            expect: Expect::Collscan,
        },
        Row {
            name: "$exists: true on a sparse index",
            indexes: vec![Index { sparse: true, ..index("q", vec![asc("qty")]) }],
            collation: None,
            shape: shape(vec![p("qty", Op::Exists(true))], vec![]),
            expect: Expect::Index("q", false, false),
        },
        Row {
            name: "anchored $regex: a prefix range",
            indexes: vec![index("n", vec![asc("name")])],
            collation: None,
            shape: shape(vec![p("name", Op::Regex { prefix: true })], vec![]),
            expect: Expect::Index("n", false, false),
        },
        Row {
            name: "unanchored $regex: every string scanned",
            indexes: vec![index("n", vec![asc("name")])],
            collation: None,
            shape: shape(vec![p("name", Op::Regex { prefix: false })], vec![]),
            expect: Expect::Index("n", false, false),
        },
        Row {
            name: "the _id index: {_id: value} is IDHACK",
            indexes: vec![],
            collation: None,
            shape: shape(vec![p("_id", Op::Eq)], vec![]),
            expect: Expect::Index("_id_", false, false),
        },
        Row {
            name: "the _id index: a range",
            indexes: vec![],
            collation: None,
            shape: shape(vec![p("_id", Op::Gt)], vec![("_id", DESC)]),
            expect: Expect::Index("_id_", false, false),
        },
        Row {
            name: "no filter, no sort: every document",
            indexes: vec![],
            collation: None,
            shape: shape(vec![], vec![]),
            expect: Expect::Collscan,
        },
    ]
}

fn expectation(model: &Registration, v: &Verdict) -> Expect {
    if matches!(v.unindexed, Some(Unindexed::NoTextIndex | Unindexed::NoGeoIndex)) {
        return Expect::Refused;
    }
    if v.or {
        return Expect::Or;
    }
    match v.index {
        None => Expect::Collscan,
        Some(r) if v.whole_index => Expect::WholeIndex(r.index(model).name),
        Some(r) => Expect::Index(r.index(model).name, v.sort_in_memory, v.covered()),
    }
}

#[test]
fn the_rules_table_rows_are_what_mongod_does() {
    let mut mongod = Mongod::connect("the_rules_table_rows_are_what_mongod_does");
    let mut failures = Vec::new();
    for row in rows() {
        let model = model(row.indexes, row.collation);
        let verdict = plan(&row.shape, &model);
        let got = expectation(&model, &verdict);
        if got != row.expect {
            failures.push(format!("{}: the planner says {got:?}, the row {:?}", row.name, row.expect));
        }
        let Some(mongod) = mongod.as_mut() else { continue };
        let (collection, kept, refused) = mongod.collection(model);
        assert_eq!(refused, 0, "{}: mongod refused an index", row.name);
        let (diffs, _) = judge(mongod, &row.shape, &kept, &collection);
        if !diffs.is_empty() {
            failures.push(format!("{}: {}\n  {}", row.name, diffs.join("; "), describe(&row.shape, &kept, &verdict)));
        }
    }
    assert!(failures.is_empty(), "{} rows disagree:\n{}", failures.len(), failures.join("\n"));
}

// ---------------------------------------------------------------------------------------
// Generated cases.

/// The test-support generator (xorshift64*), drawn as the cases want it.
struct Rng(XorShiftStar);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0.below(n as u64) as usize
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.0.below(100) < percent
    }
    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }
}

/// Paths and their kinds: (path, kind tag, multikey).
const PATHS: [(&str, char, bool); 11] = [
    ("name", 's', false),
    ("qty", 'i', false),
    ("score", 'i', false),
    ("seq", 'i', false),
    ("at", 'd', false),
    ("flag", 'b', false),
    ("addr.city", 's', false),
    ("addr.zip", 'i', false),
    ("tags", 's', true),
    ("lines.sku", 's', true),
    ("lines.count", 'i', true),
];

fn gen_index(rng: &mut Rng, n: usize) -> Index {
    let name = format!("i{n}");
    match rng.below(20) {
        // mongod refuses arrays in a hashed key: the model would not hold its documents
        0 => return index(&name, vec![(rng.pick(&PATHS[..8]).0, IndexKey::Hashed)]),
        1 => return index(&name, vec![asc(rng.pick(&["$**", "attrs.$**"]))]),
        2 => return index(&name, vec![("loc", IndexKey::Sphere2d)]),
        3 => return Index { collation: Some(Collation::SIMPLE), ..index(&name, vec![("pair", IndexKey::Geo2d)]) },
        4 => return Index { collation: Some(Collation::SIMPLE), ..index(&name, vec![("body", IndexKey::Text)]) },
        _ => {}
    }
    let len = 1 + rng.below(3);
    let mut keys: Vec<(&'static str, IndexKey)> = Vec::new();
    let mut multikey = false;
    while keys.len() < len {
        let (path, _, array) = rng.pick(&PATHS);
        if keys.iter().any(|(k, _)| *k == path) || (array && multikey) {
            continue;
        }
        multikey |= array;
        keys.push((path, if rng.chance(70) { IndexKey::Ascending } else { IndexKey::Descending }));
    }
    let mut out = index(&name, keys);
    match rng.below(12) {
        0 => out.sparse = true,
        1 | 5 => {
            out.partial =
                Some(rng.pick(&[r#"{"qty": {"$gt": 5}}"#, r#"{"name": {"$exists": true}}"#, r#"{"flag": true}"#]))
        }
        2 => out.hidden = true,
        3 => out.collation = Some(EN2),
        4 if rng.chance(50) => out.collation = Some(Collation::SIMPLE),
        _ => {}
    }
    out
}

fn gen_op(rng: &mut Rng, kind: char, multikey: bool) -> Op {
    let common = [
        Op::Eq,
        Op::Eq,
        Op::Eq,
        Op::EqNull,
        Op::Ne,
        Op::Gt,
        Op::Gte,
        Op::Lt,
        Op::Lte,
        Op::In { len: Some(2), null: false },
        Op::In { len: Some(1), null: false },
        Op::In { len: Some(3), null: true },
        Op::Nin,
        Op::Exists(true),
        Op::Exists(false),
        Op::Type,
        Op::Not(&Op::Gt),
    ];
    let extra: &[Op] = match (kind, multikey) {
        ('s', false) => {
            &[Op::Regex { prefix: true }, Op::Regex { prefix: false }, Op::Not(&Op::Regex { prefix: true })]
        }
        ('s', true) => &[Op::Regex { prefix: true }, Op::All, Op::Size, Op::ElemMatchValue(&[Op::Gt, Op::Lt])],
        ('i', true) => &[Op::All, Op::ElemMatchValue(&[Op::Gte])],
        ('i', false) => &[Op::Mod],
        ('b', _) => &[Op::Eq, Op::Ne],
        _ => &[],
    };
    // query! refuses a range on a boolean
    let ranges = |op: &Op| matches!(op, Op::Gt | Op::Gte | Op::Lt | Op::Lte | Op::Not(Op::Gt));
    let common: Vec<Op> = common.into_iter().filter(|op| kind != 'b' || !ranges(op)).collect();
    let i = rng.below(common.len() + extra.len());
    if i < common.len() {
        common[i]
    } else {
        extra[i - common.len()]
    }
}

fn gen_conj(rng: &mut Rng, max: usize) -> Vec<Filter> {
    let n = rng.below(max + 1);
    let mut out = Vec::new();
    for _ in 0..n {
        let (path, kind, multikey) = rng.pick(&PATHS);
        out.push(p(path, gen_op(rng, kind, multikey)));
    }
    out
}

fn gen_shape(rng: &mut Rng, indexes: &[Index]) -> Shape {
    let special = rng.below(30);
    let mut filter = match special {
        0 => vec![Filter::Text],
        1 => vec![p("loc", Op::Near)],
        2 => vec![p(rng.pick(&["loc", "pair"]), Op::GeoWithin)],
        3 => vec![p("_id", Op::Eq)],
        4 => vec![p("_id", rng.pick(&[Op::Gt, Op::Lt, Op::In { len: Some(2), null: false }]))],
        5 => vec![p(
            "lines",
            Op::ElemMatch(leak(vec![p("sku", Op::Eq), p("count", rng.pick(&[Op::Gt, Op::Eq, Op::Lt]))])),
        )],
        6 | 7 => {
            let branches = 2 + rng.below(2);
            let mut items = Vec::new();
            for _ in 0..branches {
                let mut b = gen_conj(rng, 2);
                if b.is_empty() {
                    b.push(p("qty", Op::Eq));
                }
                // mongod merges identical branches (the values here are one per kind)
                if !items.iter().any(|i: &&[Filter]| format!("{i:?}") == format!("{b:?}")) {
                    items.push(leak(b));
                }
            }
            vec![Filter::Or(leak(items))]
        }
        8 => vec![p("attrs.color", Op::Eq), p("attrs.size", rng.pick(&[Op::Gt, Op::Eq]))],
        9 => vec![Filter::Opaque("$expr")],
        // `$in` on an index's first key, sorted by its second: one scan per value, merged
        10 | 11 if indexes.iter().any(|i| i.keys.len() > 1) => {
            let compound: Vec<&Index> = indexes.iter().filter(|i| i.keys.len() > 1).collect();
            let idx = compound[rng.below(compound.len())];
            vec![p(idx.keys[0].0, Op::In { len: Some(2 + rng.below(3) as u32), null: false })]
        }
        _ => gen_conj(rng, 3),
    };
    // most filters name a key some index starts with, or the planner would mostly answer COLLSCAN
    if special >= 12 && rng.chance(60) && !indexes.is_empty() {
        let idx = &indexes[rng.below(indexes.len())];
        let (first, kind) = idx.keys[0];
        if let Some((path, k, multikey)) = PATHS.iter().find(|(p, _, _)| *p == first) {
            let op = if matches!(kind, IndexKey::Hashed) { Op::Eq } else { gen_op(rng, *k, *multikey) };
            filter.push(p(path, op));
        }
    }
    let mut sort = Vec::new();
    if rng.chance(45) || matches!(special, 10 | 11) {
        let from_index = !indexes.is_empty() && rng.chance(70);
        let keys: Vec<(&'static str, IndexKey)> = if matches!(special, 10 | 11) {
            let first = match filter.first() {
                Some(Filter::Pred(pred)) => pred.path,
                _ => "",
            };
            indexes
                .iter()
                .find(|i| i.keys.len() > 1 && i.keys[0].0 == first)
                .map_or(Vec::new(), |i| i.keys[1..].to_vec())
        } else if from_index {
            indexes[rng.below(indexes.len())].keys.to_vec()
        } else {
            vec![(rng.pick(&PATHS).0, IndexKey::Ascending), (rng.pick(&PATHS).0, IndexKey::Ascending)]
        };
        let n = 1 + rng.below(keys.len().clamp(1, 3));
        let flip = rng.chance(30);
        let skip_first = rng.chance(30) && keys.len() > 1;
        for (path, kind) in keys.iter().skip(usize::from(skip_first)).take(n) {
            if path.contains('$') || sort.iter().any(|(p, _)| p == path) {
                continue;
            }
            let dir = match (kind, flip ^ rng.chance(10)) {
                (IndexKey::Descending, false) | (IndexKey::Ascending, true) => DESC,
                _ => ASC,
            };
            sort.push((*path, dir));
        }
    }
    if matches!(filter.first(), Some(Filter::Text)) {
        sort.clear();
    }
    let mut out = shape(filter, sort);
    if rng.chance(30) {
        // a projection of some index's keys, `_id` mostly excluded
        let mut proj: Vec<(&'static str, bool)> = Vec::new();
        if let Some(idx) = indexes.get(rng.below(indexes.len().max(1))) {
            for (path, _) in idx.keys.iter().take(1 + rng.below(idx.keys.len())) {
                if !path.contains('$') {
                    proj.push((path, true));
                }
            }
        }
        if proj.is_empty() {
            proj.push(("qty", true));
        }
        if rng.chance(80) {
            proj.push(("_id", false));
        }
        out.projection = leak(proj);
    }
    if rng.chance(25) {
        out.limit = Some(10);
    }
    out
}

/// Which rows of the rules table a case exercises (for the coverage count).
fn features(shape: &Shape, model: &Registration, v: &Verdict) -> Vec<&'static str> {
    let mut out = Vec::new();
    let text = format!("{:?}", shape.filter);
    for (needle, tag) in [
        ("Ne", "$ne"),
        ("Nin", "$nin"),
        ("Not(", "$not"),
        ("Exists(true)", "$exists true"),
        ("Exists(false)", "$exists false"),
        ("prefix: true", "$regex prefix"),
        ("prefix: false", "$regex other"),
        ("In {", "$in"),
        ("Or(", "$or"),
        ("Text", "$text"),
        ("Near", "$near"),
        ("GeoWithin", "$geoWithin"),
        ("ElemMatch", "$elemMatch"),
        ("EqNull", "null"),
        ("\"_id\"", "_id"),
    ] {
        if text.contains(needle) {
            out.push(tag);
        }
    }
    if let Some(r) = v.index {
        let index = r.index(model);
        if index.keys.len() > 1 {
            out.push("compound");
        }
        if index.keys.iter().any(|(_, k)| matches!(k, IndexKey::Hashed)) {
            out.push("hashed");
        }
        if index.keys.iter().any(|(p, _)| p.contains("$**")) {
            out.push("wildcard");
        }
        if index.keys.iter().any(|(p, _)| ["tags", "lines.sku", "lines.count"].contains(p)) {
            out.push("multikey");
        }
        if index.partial.is_some() {
            out.push("partial");
        }
        if index.sparse {
            out.push("sparse");
        }
        if index.collation.is_some() || model.collation.is_some() {
            out.push("collation");
        }
    }
    if model.indexes.iter().any(|i| i.hidden) {
        out.push("hidden present");
    }
    if v.whole_index {
        out.push("whole-index sort");
    }
    if v.fit.merge_sort {
        out.push("$in sort merge");
    }
    if !shape.sort.is_empty() && v.index.is_some() && !v.sort_in_memory && !v.whole_index {
        out.push("sort provided");
    }
    if v.sort_in_memory {
        out.push("sort in memory");
    }
    if v.covered() {
        out.push("covered");
    }
    if v.index.is_none() {
        out.push("COLLSCAN");
    }
    if v.id_hack {
        out.push("IDHACK");
    }
    out
}

#[test]
fn generated_queries_plan_as_mongod_plans_them() {
    const MODELS: usize = 200;
    const SHAPES: usize = 5;
    let Some(mut mongod) = Mongod::connect("generated_queries_plan_as_mongod_plans_them") else { return };
    // `QPLAN_SEED=n` explores another seed; the fixed one is what CI runs
    const FIXED: u64 = 0x005e_ed45;
    let seed = std::env::var("QPLAN_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(FIXED);
    if seed != FIXED {
        eprintln!("QPLAN_SEED={seed} (the fixed seed is {FIXED}; the rows' coverage is asserted on it alone)");
    }
    let mut rng = Rng(XorShiftStar(seed));
    let (mut cases, mut ties, mut refused_indexes) = (0, 0, 0);
    let mut coverage: BTreeMap<&'static str, usize> = BTreeMap::new();
    let mut failures = Vec::new();
    for m in 0..MODELS {
        let count = 1 + rng.below(4);
        let mut indexes: Vec<Index> = Vec::new();
        while indexes.len() < count {
            let candidate = gen_index(&mut rng, indexes.len());
            // one index a key pattern (collations aside, mongod refuses a second)
            if indexes.iter().any(|i| i.keys == candidate.keys) {
                continue;
            }
            // one text index a collection
            if candidate.keys.iter().any(|(_, k)| matches!(k, IndexKey::Text))
                && indexes.iter().any(|i| i.keys.iter().any(|(_, k)| matches!(k, IndexKey::Text)))
            {
                continue;
            }
            indexes.push(candidate);
        }
        let collation = if m % 7 == 3 { Some(EN2) } else { None };
        let (collection, model, refused) = mongod.collection(model(indexes, collation));
        refused_indexes += refused;
        for _ in 0..SHAPES {
            let shape = gen_shape(&mut rng, model.indexes);
            let verdict = plan(&shape, &model);
            let (diffs, other) = judge(&mut mongod, &shape, &model, &collection);
            cases += 1;
            ties += usize::from(other && diffs.is_empty());
            for tag in features(&shape, &model, &verdict) {
                *coverage.entry(tag).or_default() += 1;
            }
            if !diffs.is_empty() {
                failures.push(format!("{}\n  {}", diffs.join("; "), describe(&shape, &model, &verdict)));
            }
        }
    }
    eprintln!(
        "{cases} generated queries over {MODELS} models: {} disagreements; {ties} where mongod chose another candidate \
         on equal footing (accepted); {refused_indexes} generated indexes mongod refused (left out)",
        failures.len()
    );
    eprintln!("rows exercised: {coverage:?}");
    assert!(failures.is_empty(), "{} disagreements:\n{}", failures.len(), failures.join("\n"));
    for tag in [
        "$ne",
        "$nin",
        "$not",
        "$exists true",
        "$exists false",
        "$regex prefix",
        "$regex other",
        "$in",
        "$or",
        "$text",
        "$near",
        "$geoWithin",
        "$elemMatch",
        "null",
        "_id",
        "compound",
        "hashed",
        "wildcard",
        "multikey",
        "partial",
        "sparse",
        "collation",
        "hidden present",
        "whole-index sort",
        "$in sort merge",
        "sort provided",
        "sort in memory",
        "covered",
        "COLLSCAN",
        "IDHACK",
    ] {
        let enough = coverage.get(tag).copied().unwrap_or(0) >= 3;
        assert!(enough || seed != FIXED, "too few generated cases of `{tag}`: {coverage:?}");
    }
    let _ = IndexRef::Id;
}

// ---------------------------------------------------------------------------------------
// `schema queries`: the catalogue of the queries registered in this binary (by hand, as
// `query!` registers them), and `--explain` against mongod.

/// A sharded model with a redundant and an unused index.
#[derive(Serialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(
    db = "db_qplan_catalogue",
    collection = "t_order",
    index(keys(customerId = 1, createTime = -1)),
    index(keys(customerId = 1)),
    index(keys(status = 1)),
    shard_key(customerId = 1)
)]
struct Order {
    #[serde(rename = "_id")]
    id: ObjectId,
    customer_id: String,
    create_time: DateTime,
    status: String,
    total: i64,
    note: String,
}

const fn order(_: &'static str) -> Registration {
    Registration::of::<Order>("Order")
}

static BY_CUSTOMER: Shape = Shape {
    filter: &[Filter::Pred(Pred { path: "customerId", op: Op::Eq })],
    sort: &[("createTime", Direction::Descending)],
    projection: &[],
    limit: Some(50),
    skip: None,
    name: Some("orders_of_customer"),
    allow: &[],
    literals: &[],
    module: "catalogue",
    file: "src/orders.rs",
    line: 10,
};

static BY_NOTE: Shape = Shape {
    filter: &[Filter::Pred(Pred { path: "note", op: Op::Eq })],
    sort: &[("total", Direction::Ascending)],
    projection: &[],
    limit: None,
    skip: None,
    name: Some("orders_by_note"),
    allow: &[],
    literals: &[],
    module: "catalogue",
    file: "src/orders.rs",
    line: 20,
};

static REPORT: Shape = Shape {
    filter: &[Filter::Pred(Pred { path: "total", op: Op::Gt })],
    sort: &[],
    projection: &[],
    limit: None,
    skip: None,
    name: Some("big_orders_report"),
    allow: &[
        ("query_unindexed", "a nightly report on a secondary"),
        ("query_broadcast", "reads every shard by design"),
    ],
    literals: &[],
    module: "catalogue",
    file: "src/report.rs",
    line: 5,
};

// The passing side of the compile-time rules (the refusals are the UI tests in
// `uitests/ui/query_*`): an indexed, sorted, targeted query; a query waiving two rules.
const _: () = mongo_schema::query::plan::enforce(&BY_CUSTOMER, &order("Order"));
const _: () = mongo_schema::query::plan::enforce(&REPORT, &order("Order"));

#[mongo_schema::__private::linkme::distributed_slice(mongo_schema::__private::MONGO_SCHEMA_QUERIES)]
#[linkme(crate = mongo_schema::__private::linkme)]
static REGISTERED_BY_CUSTOMER: mongo_schema::query::RegisteredQuery =
    mongo_schema::query::RegisteredQuery { rust_type: "Order", model: order, shape: BY_CUSTOMER };
#[mongo_schema::__private::linkme::distributed_slice(mongo_schema::__private::MONGO_SCHEMA_QUERIES)]
#[linkme(crate = mongo_schema::__private::linkme)]
static REGISTERED_BY_NOTE: mongo_schema::query::RegisteredQuery =
    mongo_schema::query::RegisteredQuery { rust_type: "Order", model: order, shape: BY_NOTE };
#[mongo_schema::__private::linkme::distributed_slice(mongo_schema::__private::MONGO_SCHEMA_QUERIES)]
#[linkme(crate = mongo_schema::__private::linkme)]
static REGISTERED_REPORT: mongo_schema::query::RegisteredQuery =
    mongo_schema::query::RegisteredQuery { rust_type: "Order", model: order, shape: REPORT };

fn schema(args: &[&str]) -> (i32, String, String) {
    let models = mongo_schema::migrate::registered_models();
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code =
        mongo_schema::cli::run(&models, std::iter::once("schema").chain(args.iter().copied()), &mut out, &mut err);
    (code, String::from_utf8(out).unwrap(), String::from_utf8(err).unwrap())
}

#[test]
fn schema_queries_lists_each_query_its_index_and_the_unused_and_redundant_indexes() {
    let (code, json, err) = schema(&["queries", "--format", "json"]);
    assert_eq!(code, 1, "an unwaived problem exits 1: {err}");
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let order =
        v["models"].as_array().unwrap().iter().find(|m| m["collection"] == "t_order").expect("Order listed").clone();
    assert!(order["model"].as_str().unwrap().ends_with("Order"), "{order}");
    assert_eq!(order["shard_key"], serde_json::json!(["customerId"]));
    let queries = order["queries"].as_array().unwrap();
    let names: Vec<&str> = queries.iter().map(|q| q["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["orders_of_customer", "orders_by_note", "big_orders_report"]);
    // the ESR index, its sort, targeted
    let q = &queries[0];
    assert_eq!(q["plan"], "IXSCAN");
    assert_eq!(q["index"]["name"], "customerId_1_createTime_-1");
    assert_eq!(q["index"]["keys"], serde_json::json!([["customerId", 1], ["createTime", -1]]));
    assert_eq!(q["equality"], serde_json::json!(["customerId"]));
    assert_eq!(q["sort"], serde_json::json!([{ "key": "createTime", "direction": -1 }]));
    assert_eq!(
        (q["bound_keys"].as_u64(), q["sort_in_memory"].as_bool(), q["covered"].as_bool()),
        (Some(1), Some(false), Some(false))
    );
    assert_eq!(q["targeted"], true);
    assert_eq!(q["problems"], serde_json::json!([]));
    // a collection scan, sorted in memory without a limit, on every shard: three problems
    let q = &queries[1];
    assert_eq!(
        (q["plan"].as_str(), q["index"].is_null(), q["targeted"].as_bool()),
        (Some("COLLSCAN"), true, Some(false))
    );
    let rules: Vec<&str> = q["problems"].as_array().unwrap().iter().map(|p| p["rule"].as_str().unwrap()).collect();
    assert_eq!(rules, ["query_unindexed", "query_sort_in_memory", "query_broadcast"]);
    let unindexed = q["problems"][0]["message"].as_str().unwrap();
    assert!(unindexed.contains("add `#[mongo(index(keys(note = 1, total = 1)))]` to `Order`"), "{unindexed}");
    assert!(q["problems"].as_array().unwrap().iter().all(|p| p["waived"].is_null()));
    // waived: listed with its reason, not counted
    let q = &queries[2];
    assert_eq!(q["problems"][0]["waived"], "a nightly report on a secondary");
    assert_eq!(q["problems"][1]["waived"], "reads every shard by design");
    assert_eq!(
        order["unused_indexes"],
        serde_json::json!([
            { "name": "customerId_1", "keys": [["customerId", 1]] },
            { "name": "status_1", "keys": [["status", 1]] },
        ])
    );
    assert_eq!(order["redundant_indexes"][0]["index"]["name"], "customerId_1");
    assert_eq!(order["redundant_indexes"][0]["prefix_of"], "customerId_1_createTime_-1");
    // three unwaived rule breaks and one redundant index
    assert_eq!(v["problems"], 4);

    let (code, text, _) = schema(&["queries"]);
    assert_eq!(code, 1);
    for line in [
        "  query `orders_by_note` (src/orders.rs:20)",
        "  query `orders_of_customer` (src/orders.rs:10)",
        "    plan: IXSCAN   index: customerId_1_createTime_-1 {customerId: 1, createTime: -1}, 1 leading key(s) bound",
        "    sort in memory: no   covered: no   targeted",
        "    waived query_unindexed: a nightly report on a secondary",
        "  indexes no registered query uses: customerId_1 {customerId: 1}; status_1 {status: 1}",
        "  redundant index: customerId_1 {customerId: 1} is a prefix of customerId_1_createTime_-1: drop it (every write maintains it)",
        "4 problem(s)",
    ] {
        assert!(text.lines().any(|l| l == line), "no line {line:?} in:\n{text}");
    }
}

#[test]
fn schema_queries_explain_finds_no_difference_on_mongod() {
    let Ok(uri) = std::env::var("MONGODB_URI") else {
        eprintln!("skipped (no MONGODB_URI): schema_queries_explain_finds_no_difference_on_mongod");
        return;
    };
    let model = Registration::of::<Order>("Order");
    let mut server = MongoServer::connect(&uri).expect("connect");
    let _ = server.run_command(model.db, doc! { "drop": model.collection });
    server.run_command(model.db, doc! { "create": model.collection }).expect("create");
    let specs: Vec<Document> = model.indexes.iter().map(|i| i.spec()).collect();
    server.run_command(model.db, doc! { "createIndexes": model.collection, "indexes": specs }).expect("indexes");
    let (code, out, err) = schema(&["queries", "--uri", &uri, "--explain"]);
    assert_eq!((code, err.as_str()), (0, ""), "{out}");
    assert!(out.ends_with("0 of 3 queries planned otherwise by mongod\n"), "{out}");
    // without the compound index, mongod answers the first query from `customerId_1` and sorts
    server
        .run_command(model.db, doc! { "dropIndexes": model.collection, "index": "customerId_1_createTime_-1" })
        .expect("drop");
    let (code, out, _) = schema(&["queries", "--uri", &uri, "--explain", "--format", "json"]);
    assert_eq!(code, 1, "{out}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["queries"], 3);
    assert_eq!(v["differences"][0]["query"], "orders_of_customer", "{out}");
    let said = v["differences"][0]["differences"][0].as_str().unwrap();
    assert_eq!(
        said,
        "mongod did not plan with index customerId_1_createTime_-1, which the verdict names (is it on the deployment?)"
    );
}
