//! Hostile document shapes, shared by `validator_hostile_bench.rs` (timed against mongod) and
//! `validator_scaling.rs` (growth check): each is a schema and a document built from a size
//! `n`, deterministic (no randomness), with its verdict under mongod 6.0.5.

use mongo_schema::bson::{doc, Bson, Document};

/// One shape: a name, the size it is built at, and how to build its schema and document.
pub struct Shape {
    pub name: &'static str,
    /// The size the benchmark uses (the scaling test picks its own).
    pub size: usize,
    pub build: fn(usize) -> (Document, Document),
}

fn array_of(items: Vec<Bson>) -> Document {
    doc! { "a": items }
}

fn unique() -> Document {
    doc! { "properties": { "a": { "bsonType": "array", "uniqueItems": true } } }
}

fn pattern(p: &str) -> Document {
    doc! { "properties": { "s": { "bsonType": "string", "pattern": p } } }
}

fn names(n: usize) -> Vec<String> {
    (0..n).map(|i| format!("field{i:06}")).collect()
}

/// `n` int fields after an `_id` (which mongod's insert would add, and
/// `additionalProperties: false` counts).
fn wide(n: usize) -> Document {
    let mut d = doc! { "_id": -1 };
    for (i, name) in names(n).into_iter().enumerate() {
        d.insert(name, i as i32);
    }
    d
}

/// Every shape of the issue, plus those the keyword review found (`dependencies`, nested
/// `anyOf`, `enum` of numbers, `patternProperties`).
pub const SHAPES: &[Shape] = &[
    Shape {
        name: "uniqueItems: distinct strings",
        size: 100_000,
        build: |n| (unique(), array_of((0..n).map(|i| Bson::String(format!("item-{i}"))).collect())),
    },
    Shape {
        name: "uniqueItems: ints",
        size: 50_000,
        build: |n| (unique(), array_of((0..n as i32).map(Bson::Int32).collect())),
    },
    Shape {
        name: "uniqueItems: mixed int/double",
        size: 50_000,
        build: |n| {
            let item =
                |i: usize| if i.is_multiple_of(2) { Bson::Int32(i as i32) } else { Bson::Double(i as f64 + 0.5) };
            (unique(), array_of((0..n).map(item).collect()))
        },
    },
    Shape {
        name: "uniqueItems: small subdocuments",
        size: 20_000,
        build: |n| (unique(), array_of((0..n as i32).map(|i| Bson::Document(doc! { "x": i, "y": "v" })).collect())),
    },
    Shape {
        name: "pattern ^(a+)+$ (catastrophic)",
        size: 28,
        build: |n| (pattern("^(a+)+$"), doc! { "s": "a".repeat(n - 1) + "b" }),
    },
    Shape {
        name: "pattern ^(a+)+$ (catastrophic)",
        size: 10_000,
        build: |n| (pattern("^(a+)+$"), doc! { "s": "a".repeat(n - 1) + "b" }),
    },
    Shape { name: "pattern (x+x+)+y", size: 5_000, build: |n| (pattern("(x+x+)+y"), doc! { "s": "x".repeat(n) }) },
    Shape {
        name: "required n/2 of n fields",
        size: 10_000,
        build: |n| {
            let required: Vec<Bson> = names(n).into_iter().step_by(2).map(Bson::String).collect();
            (doc! { "required": required }, wide(n))
        },
    },
    Shape {
        name: "additionalProperties:false, n fields",
        size: 10_000,
        build: |n| {
            let mut properties = doc! { "_id": {} };
            for name in names(n) {
                properties.insert(name, doc! { "bsonType": "int" });
            }
            (doc! { "properties": properties, "additionalProperties": false }, wide(n))
        },
    },
    Shape {
        name: "patternProperties + additionalProperties:false",
        size: 10_000,
        build: |n| {
            let schema = doc! { "properties": { "_id": {} }, "patternProperties": { "^field[0-9]+$": { "bsonType": "int" } }, "additionalProperties": false };
            (schema, wide(n))
        },
    },
    Shape {
        name: "enum of n strings on n items",
        size: 10_000,
        build: |n| {
            let values: Vec<Bson> = (0..n).map(|i| Bson::String(format!("v{i}"))).collect();
            let items: Vec<Bson> = (0..n).rev().map(|i| Bson::String(format!("v{i}"))).collect();
            (doc! { "properties": { "a": { "items": { "enum": values } } } }, array_of(items))
        },
    },
    Shape {
        name: "enum of n numbers on n items",
        size: 2_000,
        build: |n| {
            let values: Vec<Bson> = (0..n as i32).map(Bson::Int32).collect();
            let items: Vec<Bson> = (0..n).rev().map(|i| Bson::Double(i as f64)).collect();
            (doc! { "properties": { "a": { "items": { "enum": values } } } }, array_of(items))
        },
    },
    Shape {
        name: "maxLength on a 10 MB string",
        size: 10_000_000,
        build: |n| {
            (
                doc! { "properties": { "s": { "bsonType": "string", "maxLength": (n * 6 / 10) as i64 } } },
                doc! { "s": "é".repeat(n / 2) },
            )
        },
    },
    Shape {
        name: "dependencies: n/10 names over n fields",
        size: 10_000,
        build: |n| {
            let mut deps = Document::new();
            for name in names(n).into_iter().step_by(10) {
                deps.insert(name, vec![Bson::String("field000000".into())]);
            }
            (doc! { "dependencies": deps }, wide(n))
        },
    },
    Shape {
        name: "anyOf nested n deep",
        size: 50,
        build: |n| {
            let mut schema = doc! { "bsonType": "int" };
            for _ in 0..n {
                schema = doc! { "anyOf": [ { "bsonType": "string" }, schema ] };
            }
            (doc! { "properties": { "x": schema } }, doc! { "x": 1 })
        },
    },
];
