//! proptest strategies for `$jsonSchema` schemas and BSON documents over a small shared
//! vocabulary of field names, so generated documents often meet the generated rules.

#![forbid(unsafe_code)]

use mongo_schema::bson::{oid::ObjectId, Bson, DateTime, Decimal128, Document};
use proptest::prelude::*;

pub const NAMES: &[&str] = &["_id", "a", "b", "s_x", "n"];

const STRINGS: &[&str] = &["", "a", "ab", "abc", "aB3", "é", "😀x", "xyz", "b\nc"];
const ALIASES: &[&str] =
    &["double", "string", "object", "array", "bool", "null", "int", "long", "decimal", "number", "date", "objectId"];
const JSON_TYPES: &[&str] = &["object", "array", "string", "boolean", "null", "number"];
const PATTERNS: &[&str] = &["^a", "b$", "^.{2}$", "\\d", "^[a-z]*$", "é", "^(a|ab)c?$"];
const DECIMALS: &[&str] = &["0", "-0", "1", "1.0", "2.50", "0.1", "-3", "1E+2", "NaN", "Infinity"];

fn decimal(s: &str) -> Bson {
    Bson::Decimal128(s.parse::<Decimal128>().unwrap())
}

fn leaf_value() -> BoxedStrategy<Bson> {
    prop_oneof![
        (-3i32..12).prop_map(Bson::Int32),
        (-3i64..12).prop_map(Bson::Int64),
        prop::sample::select(vec![0.0, -0.0, 0.5, 1.0, 2.5, 3.0, 0.3, 0.1, 10.0, 1e300, f64::NAN, f64::INFINITY])
            .prop_map(Bson::Double),
        prop::sample::select(DECIMALS).prop_map(decimal),
        prop::sample::select(STRINGS).prop_map(|s| Bson::String(s.into())),
        any::<bool>().prop_map(Bson::Boolean),
        Just(Bson::Null),
        Just(Bson::ObjectId(ObjectId::from_bytes([7; 12]))),
        (0i64..3).prop_map(|ms| Bson::DateTime(DateTime::from_millis(ms))),
    ]
    .boxed()
}

/// Any BSON value, nested up to three levels.
pub fn value() -> BoxedStrategy<Bson> {
    leaf_value()
        .prop_recursive(3, 24, 4, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..4).prop_map(Bson::Array),
                document_of(inner).prop_map(Bson::Document),
            ]
        })
        .boxed()
}

fn document_of(values: BoxedStrategy<Bson>) -> BoxedStrategy<Document> {
    prop::collection::vec((prop::sample::select(&NAMES[1..]), values), 0..4)
        .prop_map(|fields| fields.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
        .boxed()
}

/// A document without `_id` (the differential test assigns one).
pub fn document() -> BoxedStrategy<Document> {
    document_of(value())
}

fn type_keyword() -> BoxedStrategy<(String, Bson)> {
    let one = |list: &'static [&'static str]| prop::sample::select(list).prop_map(|s| Bson::String(s.into()));
    let many = |list: &'static [&'static str]| {
        prop::sample::subsequence(list, 1..3)
            .prop_map(|v| Bson::Array(v.into_iter().map(|s| Bson::String(s.into())).collect()))
    };
    prop_oneof![
        prop_oneof![one(ALIASES), many(ALIASES)].prop_map(|v| ("bsonType".to_string(), v)),
        prop_oneof![one(JSON_TYPES), many(JSON_TYPES)].prop_map(|v| ("type".to_string(), v)),
    ]
    .boxed()
}

fn number_bound() -> BoxedStrategy<Bson> {
    prop_oneof![
        (-2i32..6).prop_map(Bson::Int32),
        prop::sample::select(vec![0.5, 2.5, -1.0]).prop_map(Bson::Double),
        prop::sample::select(&DECIMALS[..8]).prop_map(decimal)
    ]
    .boxed()
}

fn count() -> BoxedStrategy<Bson> {
    prop_oneof![(0i32..4).prop_map(Bson::Int32), (0i64..4).prop_map(Bson::Int64), Just(Bson::Double(2.0))].boxed()
}

fn scalar_keyword() -> BoxedStrategy<(String, Bson)> {
    let named = |name: &'static str, s: BoxedStrategy<Bson>| s.prop_map(move |v| (name.to_string(), v));
    prop_oneof![
        type_keyword(),
        named("minimum", number_bound()),
        named("maximum", number_bound()),
        named("exclusiveMinimum", any::<bool>().prop_map(Bson::Boolean).boxed()),
        named("exclusiveMaximum", any::<bool>().prop_map(Bson::Boolean).boxed()),
        named(
            "multipleOf",
            prop_oneof![
                Just(Bson::Int32(2)),
                Just(Bson::Double(0.5)),
                Just(Bson::Int64(3)),
                Just(decimal("0.1")),
                Just(Bson::Double(0.1))
            ]
            .boxed()
        ),
        named("minLength", count()),
        named("maxLength", count()),
        named("pattern", prop::sample::select(PATTERNS).prop_map(|p| Bson::String(p.into())).boxed()),
        named("minItems", count()),
        named("maxItems", count()),
        named("uniqueItems", any::<bool>().prop_map(Bson::Boolean).boxed()),
        named("minProperties", count()),
        named("maxProperties", count()),
        named(
            "required",
            prop::sample::subsequence(NAMES, 1..3)
                .prop_map(|v| Bson::Array(v.into_iter().map(|s| Bson::String(s.into())).collect()))
                .boxed()
        ),
        named("enum", prop::collection::vec(leaf_value(), 1..4).prop_map(Bson::Array).boxed()),
        named(
            "dependencies",
            (prop::sample::select(&NAMES[1..]), prop::sample::subsequence(NAMES, 1..3))
                .prop_map(|(k, v)| {
                    let list: Vec<Bson> = v.into_iter().map(|s| Bson::String(s.into())).collect();
                    Bson::Document(std::iter::once((k.to_string(), Bson::Array(list))).collect())
                })
                .boxed()
        ),
        named("additionalProperties", any::<bool>().prop_map(Bson::Boolean).boxed()),
        named("additionalItems", any::<bool>().prop_map(Bson::Boolean).boxed()),
        named("title", Just(Bson::String("t".into())).boxed()),
        named("description", Just(Bson::String("d".into())).boxed()),
    ]
    .boxed()
}

fn nested_keyword(inner: BoxedStrategy<Document>) -> BoxedStrategy<(String, Bson)> {
    let sub = inner.clone().prop_map(Bson::Document);
    let list = prop::collection::vec(inner.clone().prop_map(Bson::Document), 1..3).prop_map(Bson::Array);
    let props = prop::collection::vec((prop::sample::select(NAMES), inner.clone()), 1..3)
        .prop_map(|v| Bson::Document(v.into_iter().map(|(k, s)| (k.to_string(), Bson::Document(s))).collect()));
    let patterns = (prop::sample::select(vec!["^s_", "a", "^n$"]), inner.clone())
        .prop_map(|(p, s)| Bson::Document(std::iter::once((p.to_string(), Bson::Document(s))).collect()));
    prop_oneof![
        props.prop_map(|v| ("properties".to_string(), v)),
        sub.clone().prop_map(|v| ("items".to_string(), v)),
        list.clone().prop_map(|v| ("items".to_string(), v)),
        sub.clone().prop_map(|v| ("additionalProperties".to_string(), v)),
        sub.clone().prop_map(|v| ("additionalItems".to_string(), v)),
        patterns.prop_map(|v| ("patternProperties".to_string(), v)),
        (prop::sample::select(&NAMES[1..]), inner).prop_map(|(k, s)| (
            "dependencies".to_string(),
            Bson::Document(std::iter::once((k.to_string(), Bson::Document(s))).collect())
        )),
        list.clone().prop_map(|v| ("allOf".to_string(), v)),
        list.clone().prop_map(|v| ("anyOf".to_string(), v)),
        list.prop_map(|v| ("oneOf".to_string(), v)),
        sub.prop_map(|v| ("not".to_string(), v)),
    ]
    .boxed()
}

/// A schema mongod should accept: keywords deduplicated and their pairings made legal.
pub fn schema() -> BoxedStrategy<Document> {
    let leaf = prop::collection::vec(scalar_keyword(), 0..4).prop_map(assemble).boxed();
    leaf.prop_recursive(3, 16, 3, |inner| {
        prop::collection::vec(prop_oneof![2 => scalar_keyword(), 3 => nested_keyword(inner)], 0..4)
            .prop_map(assemble)
            .boxed()
    })
    .boxed()
}

fn assemble(entries: Vec<(String, Bson)>) -> Document {
    let mut doc = Document::new();
    for (k, v) in entries {
        let clash = (k == "type" && doc.contains_key("bsonType")) || (k == "bsonType" && doc.contains_key("type"));
        if !doc.contains_key(&k) && !clash {
            doc.insert(k, v);
        }
    }
    for (flag, bound) in [("exclusiveMinimum", "minimum"), ("exclusiveMaximum", "maximum")] {
        if !doc.contains_key(bound) {
            doc.remove(flag);
        }
    }
    if let Some(Bson::Array(values)) = doc.get("enum").cloned() {
        doc.insert("enum", Bson::Array(distinct(values)));
    }
    doc
}

/// Drops values BSON-equal to an earlier one (mongod refuses duplicate `enum` values).
fn distinct(values: Vec<Bson>) -> Vec<Bson> {
    let mut out: Vec<Bson> = Vec::new();
    for v in values {
        let probe = mongo_schema::bson::doc! { "enum": [v.clone()] };
        let validator =
            mongo_schema::Validator::new(&mongo_schema::bson::doc! { "properties": { "x": probe } }).unwrap();
        let seen = out.iter().any(|o| validator.is_valid(&mongo_schema::bson::doc! { "x": o.clone() }));
        if !seen {
            out.push(v);
        }
    }
    out
}
