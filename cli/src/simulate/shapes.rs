//! Sample documents generated from a validator's `$jsonSchema`: one of every shape it
//! admits, read as a data step meets them. A shape is a document that differs from a base
//! document (every property present, each with its first admitted value) in one place: an
//! optional property absent (and all of them absent at once), another admitted type, each
//! `enum` value, a bound's extremes (the shortest and longest string, the smallest and
//! largest number, an empty and a longest list), recursively in embedded documents and list
//! items; each branch of an `anyOf`/`oneOf` (the expand validator's previous and new model)
//! on its own. Only documents the schema admits are kept (the local validator checks each),
//! so a value the generator cannot fit (a pattern none of its candidates match) drops that
//! shape, never admits a wrong one. Deterministic: the same schema gives the same documents.

use mongo_schema_core::bson::{doc, oid::ObjectId, Bson, DateTime, Document};
use mongo_schema_core::view::{Items, SchemaView};
use mongo_schema_validate::Validator;

/// Nested documents deeper than this are given their base value only.
const DEPTH: usize = 6;
/// A list longer than this is not generated at its `maxItems` (nor a string at its `maxLength`).
const LONGEST: u64 = 256;
/// Strings tried where a `pattern` applies.
const CANDIDATES: [&str; 14] = [
    "a",
    "x@example.com",
    "A1",
    "0",
    "abc",
    "ABC",
    "2026-01-01",
    "https://example.com",
    "+15555550100",
    "ABC-123",
    "a_b",
    "abc123",
    "00000000-0000-0000-0000-000000000000",
    "1.0",
];

/// The documents of every shape `validator` (`{$jsonSchema: ...}`) admits, each with a
/// distinct `_id` drawn from `ids` (ObjectIds counted up from a fixed start); an empty list
/// when the validator holds no `$jsonSchema`.
pub(super) fn documents(validator: &Document, ids: &mut u64) -> Vec<Document> {
    let Some(schema) = SchemaView::of_validator(validator) else { return Vec::new() };
    let Ok(whole) = Validator::new(schema.document()) else { return Vec::new() };
    let mut out: Vec<Document> = Vec::new();
    for branch in roots(schema) {
        for mut document in object_shapes(branch, 0) {
            give_id(&mut document, branch, ids);
            if whole.is_valid(&document) && !out.iter().any(|d| same_but_id(d, &document)) {
                out.push(document);
            }
        }
    }
    out
}

/// The schema itself, or its branches when it is a combination at the root.
fn roots(schema: SchemaView<'_>) -> Vec<SchemaView<'_>> {
    let branches = schema.branches();
    if branches.is_empty() {
        return vec![schema];
    }
    branches.into_iter().flat_map(roots).collect()
}

/// Base document first, then one document a variation.
fn object_shapes(schema: SchemaView<'_>, depth: usize) -> Vec<Document> {
    let properties: Vec<(&str, SchemaView<'_>)> = schema.properties().map(|p| p.iter().collect()).unwrap_or_default();
    let mut base = Document::new();
    let mut alternatives: Vec<(&str, Vec<Bson>)> = Vec::new();
    for (name, sub) in &properties {
        let values = values(*sub, depth + 1);
        let Some(first) = values.first() else {
            if schema.requires(name) {
                return Vec::new();
            }
            continue;
        };
        base.insert(*name, first.clone());
        alternatives.push((name, values[1..].to_vec()));
    }
    let mut out = vec![base.clone()];
    let optional: Vec<&str> = base.keys().map(String::as_str).filter(|n| !schema.requires(n) && *n != "_id").collect();
    for name in &optional {
        let mut without = base.clone();
        without.remove(*name);
        out.push(without);
    }
    if optional.len() > 1 {
        let mut bare = base.clone();
        optional.iter().for_each(|n| drop(bare.remove(*n)));
        out.push(bare);
    }
    for (name, values) in alternatives {
        for value in values {
            let mut varied = base.clone();
            varied.insert(name, value);
            out.push(varied);
        }
    }
    out
}

/// The values `schema` admits: its base value first, then its variations; each checked
/// against the subschema.
fn values(schema: SchemaView<'_>, depth: usize) -> Vec<Bson> {
    let mut out = Vec::new();
    let candidates = match (schema.enum_values(), schema.branches().is_empty()) {
        (Some(values), _) => values.to_vec(),
        (None, false) => schema.branches().into_iter().flat_map(|b| values(b, depth)).collect(),
        (None, true) => typed(schema, depth),
    };
    let Ok(check) = Validator::new(&doc! { "properties": { "v": schema.document().clone() } }) else {
        return candidates;
    };
    for value in candidates {
        if check.is_valid(&doc! { "v": value.clone() }) && !out.contains(&value) {
            out.push(value);
        }
    }
    out
}

/// Values of each type the schema admits (all of them when it names none).
fn typed(schema: SchemaView<'_>, depth: usize) -> Vec<Bson> {
    let types = schema.admitted().unwrap_or_else(|| match () {
        _ if schema.has("properties") => vec!["object"],
        _ if schema.has("items") => vec!["array"],
        _ => vec!["string"],
    });
    types.into_iter().flat_map(|t| of_type(schema, t, depth)).collect()
}

fn of_type(schema: SchemaView<'_>, name: &str, depth: usize) -> Vec<Bson> {
    match name {
        "string" => strings(schema),
        "int" | "long" | "double" | "decimal" => numbers(schema, name),
        "bool" => vec![Bson::Boolean(true), Bson::Boolean(false)],
        "date" => vec![Bson::DateTime(DateTime::from_millis(1_780_000_000_000))],
        "objectId" => vec![Bson::ObjectId(ObjectId::from_bytes([0x65, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]))],
        "null" => vec![Bson::Null],
        "object" if depth >= DEPTH => object_shapes(schema, depth).into_iter().take(1).map(Bson::Document).collect(),
        "object" => object_shapes(schema, depth).into_iter().map(Bson::Document).collect(),
        "array" => arrays(schema, depth),
        _ => Vec::new(),
    }
}

fn strings(schema: SchemaView<'_>) -> Vec<Bson> {
    let min = schema.count("minLength").unwrap_or(0);
    let max = schema.max_length();
    if schema.pattern().is_some() {
        return CANDIDATES.iter().map(|s| Bson::String((*s).to_owned())).collect();
    }
    let base = min.max(1).min(max.unwrap_or(u64::MAX));
    let mut lengths = vec![base, min];
    lengths.extend(max.filter(|m| *m <= LONGEST));
    lengths.into_iter().map(|n| Bson::String("a".repeat(n as usize))).collect()
}

fn numbers(schema: SchemaView<'_>, name: &str) -> Vec<Bson> {
    let bound = |keyword: &str, exclusive: &str, step: f64| {
        let value = as_f64(schema.get(keyword)?)?;
        Some(if schema.flag(exclusive) { value + step } else { value })
    };
    let min = bound("minimum", "exclusiveMinimum", 1.0);
    let max = bound("maximum", "exclusiveMaximum", -1.0);
    let base = match (min, max) {
        (Some(lo), _) if lo > 1.0 => lo,
        (_, Some(hi)) if hi < 1.0 => hi,
        _ => 1.0,
    };
    [Some(base), min, max].into_iter().flatten().filter_map(|v| number(name, v)).collect()
}

fn number(name: &str, value: f64) -> Option<Bson> {
    let integral = value.fract() == 0.0;
    match name {
        "int" if integral && value.abs() < f64::from(i32::MAX) => Some(Bson::Int32(value as i32)),
        "long" if integral && value.abs() < 9.0e15 => Some(Bson::Int64(value as i64)),
        "double" => Some(Bson::Double(value)),
        "decimal" => value.to_string().parse().ok().map(Bson::Decimal128),
        _ => None,
    }
}

fn as_f64(value: &Bson) -> Option<f64> {
    match value {
        Bson::Int32(v) => Some(f64::from(*v)),
        Bson::Int64(v) => Some(*v as f64),
        Bson::Double(v) => Some(*v),
        Bson::Decimal128(d) => d.to_string().parse().ok(),
        _ => None,
    }
}

fn arrays(schema: SchemaView<'_>, depth: usize) -> Vec<Bson> {
    let items = match schema.items() {
        Items::One(item) => values(item, depth + 1),
        _ => vec![Bson::String("a".to_owned())],
    };
    let Some(first) = items.first() else { return vec![Bson::Array(Vec::new())] };
    let min = schema.count("minItems").unwrap_or(0);
    let max = schema.max_items();
    let length = |n: u64| Bson::Array(vec![first.clone(); n as usize]);
    let mut out = vec![length(min.max(1).min(max.unwrap_or(u64::MAX)))];
    out.extend(items[1..].iter().map(|item| Bson::Array(vec![item.clone(); min.max(1) as usize])));
    out.push(length(min));
    out.extend(max.filter(|m| *m <= LONGEST).map(length));
    out
}

/// A distinct `_id` of the type the schema gives it (an ObjectId otherwise), first.
fn give_id(document: &mut Document, schema: SchemaView<'_>, ids: &mut u64) {
    *ids += 1;
    let mut bytes = [0u8; 12];
    bytes[0] = 0x65;
    bytes[4..].copy_from_slice(&ids.to_be_bytes());
    let id = match document.get("_id") {
        Some(Bson::String(_)) => Bson::String(format!("sample-{ids}")),
        Some(Bson::Int32(_)) => Bson::Int32(*ids as i32),
        Some(Bson::Int64(_)) => Bson::Int64(*ids as i64),
        Some(_) if schema.property("_id").is_some_and(|s| !s.admitted().is_some_and(|t| t.contains(&"objectId"))) => {
            return
        }
        _ => Bson::ObjectId(ObjectId::from_bytes(bytes)),
    };
    document.remove("_id");
    let mut with_id = doc! { "_id": id };
    with_id.extend(std::mem::take(document));
    *document = with_id;
}

/// The same keys and values in the same order, whatever their `_id`.
pub(super) fn same_but_id(a: &Document, b: &Document) -> bool {
    a.len() == b.len() && a.iter().zip(b.iter()).all(|((ka, va), (kb, vb))| ka == kb && (ka == "_id" || va == vb))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_enum_value_bound_extreme_and_optional_field_gets_a_document_the_schema_admits() {
        let validator = doc! { "$jsonSchema": {
            "bsonType": "object",
            "required": ["_id", "status", "amount"],
            "additionalProperties": false,
            "properties": {
                "_id": { "bsonType": "objectId" },
                "status": { "enum": ["new", "paid", "legacy"] },
                "amount": { "bsonType": "long", "minimum": 0_i64, "maximum": 100_i64 },
                "note": { "bsonType": "string", "maxLength": 5 },
            },
        } };
        let mut ids = 0;
        let documents = documents(&validator, &mut ids);
        let check = Validator::new(validator.get_document("$jsonSchema").unwrap()).unwrap();
        assert!(documents.iter().all(|d| check.is_valid(d)));
        for status in ["new", "paid", "legacy"] {
            assert!(documents.iter().any(|d| d.get_str("status").ok() == Some(status)), "{status}");
        }
        for amount in [0_i64, 100] {
            assert!(documents.iter().any(|d| d.get_i64("amount").ok() == Some(amount)), "{amount}");
        }
        assert!(documents.iter().any(|d| !d.contains_key("note")));
        assert!(documents.iter().any(|d| d.get_str("note").ok() == Some("aaaaa")));
        let ids: std::collections::HashSet<String> =
            documents.iter().map(|d| d.get("_id").unwrap().to_string()).collect();
        assert_eq!(ids.len(), documents.len(), "every document has its own _id");
        // the same schema, the same documents
        assert_eq!(super::documents(&validator, &mut 0), documents);
    }

    #[test]
    fn each_branch_of_an_expand_validator_gives_its_own_shapes() {
        let validator = doc! { "$jsonSchema": { "anyOf": [
            { "bsonType": "object", "required": ["amount"], "properties": { "amount": { "bsonType": "long" } } },
            { "bsonType": "object", "required": ["amount"], "properties": { "amount": { "bsonType": "decimal" } } },
        ] } };
        let documents = documents(&validator, &mut 0);
        assert!(documents.iter().any(|d| matches!(d.get("amount"), Some(Bson::Int64(_)))));
        assert!(documents.iter().any(|d| matches!(d.get("amount"), Some(Bson::Decimal128(_)))));
    }
}
