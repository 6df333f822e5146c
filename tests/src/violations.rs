//! Documents that break one declared bound each, computed from a schema and a valid
//! sample: the mongod tests insert them and expect code 121 for every one.

use crate::bson::{Bson, Document};

/// One mutation of a valid sample, named by the path and keyword it breaks.
pub struct Violation {
    pub what: String,
    pub document: Document,
}

/// Every single-keyword violation of `schema` reachable from `sample`.
pub fn of(schema: &Document, sample: &Document) -> Vec<Violation> {
    let mut out = Vec::new();
    object(schema, sample, &mut Vec::new(), sample, &mut out);
    out
}

fn int_like(template: &Bson, n: i64) -> Bson {
    match template {
        Bson::Int32(_) => i32::try_from(n).map_or(Bson::Int64(n), Bson::Int32),
        Bson::Double(_) => Bson::Double(n as f64),
        _ => Bson::Int64(n),
    }
}

fn number(value: &Bson) -> Option<f64> {
    match value {
        Bson::Int32(n) => Some(f64::from(*n)),
        Bson::Int64(n) => Some(*n as f64),
        Bson::Double(n) => Some(*n),
        _ => None,
    }
}

/// Replaces the value at `path` in a copy of `root` (`None` removes it).
fn with(root: &Document, path: &[String], value: Option<Bson>) -> Document {
    let mut copy = root.clone();
    let mut doc = &mut copy;
    for key in &path[..path.len() - 1] {
        doc = match doc.get_mut(key) {
            Some(Bson::Document(inner)) => inner,
            _ => return copy,
        };
    }
    let last = &path[path.len() - 1];
    match value {
        Some(value) => doc.insert(last.clone(), value),
        None => doc.remove(last),
    };
    copy
}

fn push(out: &mut Vec<Violation>, root: &Document, path: &[String], keyword: &str, value: Option<Bson>) {
    out.push(Violation { what: format!("{} breaks {keyword}", path.join(".")), document: with(root, path, value) });
}

fn object(schema: &Document, doc: &Document, path: &mut Vec<String>, root: &Document, out: &mut Vec<Violation>) {
    for name in schema.get_array("required").map(Vec::as_slice).unwrap_or_default().iter().filter_map(Bson::as_str) {
        // mongod adds a missing `_id` itself
        if name != "_id" || !path.is_empty() {
            path.push(name.to_owned());
            push(out, root, path, "required", None);
            path.pop();
        }
    }
    if schema.get("additionalProperties") == Some(&Bson::Boolean(false)) {
        path.push("unexpectedField".to_owned());
        push(out, root, path, "additionalProperties", Some(Bson::Int32(1)));
        path.pop();
    }
    let Ok(properties) = schema.get_document("properties") else { return };
    for (name, property) in properties {
        let (Some(property), Some(value)) = (property.as_document(), doc.get(name)) else { continue };
        path.push(name.clone());
        keywords(property, value, path, root, out);
        if let (Bson::Document(inner), true) = (value, property.contains_key("properties")) {
            object(property, inner, path, root, out);
        }
        path.pop();
    }
}

fn keywords(schema: &Document, value: &Bson, path: &[String], root: &Document, out: &mut Vec<Violation>) {
    let mut add = |keyword: &str, bad: Bson| push(out, root, path, keyword, Some(bad));
    match schema.get("bsonType") {
        Some(Bson::String(alias)) if alias != "string" => add("bsonType", Bson::from("wrong type")),
        Some(Bson::String(_)) => add("bsonType", Bson::Int32(1)),
        Some(Bson::Array(aliases)) if !aliases.contains(&Bson::from("string")) => {
            add("bsonType", Bson::from("wrong type"))
        }
        _ => {}
    }
    if schema.contains_key("enum") {
        add("enum", Bson::from("not-in-enum"));
    }
    if let Ok(n) = schema.get_i32("minLength") {
        if n > 0 {
            add("minLength", Bson::from("x".repeat(n as usize - 1)));
        }
    }
    if let Ok(n) = schema.get_i32("maxLength") {
        add("maxLength", Bson::from("x".repeat(n as usize + 1)));
    }
    if schema.contains_key("pattern") {
        add("pattern", Bson::from("~ matches no pattern ~"));
    }
    bounds(schema, value, &mut add);
    collections(schema, value, &mut add);
}

fn bounds(schema: &Document, value: &Bson, add: &mut impl FnMut(&str, Bson)) {
    let exclusive = |k: &str| schema.get_bool(k).unwrap_or(false);
    if let Some(min) = schema.get("minimum").and_then(number) {
        let bad = if exclusive("exclusiveMinimum") { min } else { min.floor() - 1.0 };
        add("minimum", if min.fract() == 0.0 { int_like(value, bad as i64) } else { Bson::Double(bad) });
    }
    if let Some(max) = schema.get("maximum").and_then(number) {
        let bad = if exclusive("exclusiveMaximum") { max } else { max.ceil() + 1.0 };
        add("maximum", if max.fract() == 0.0 { int_like(value, bad as i64) } else { Bson::Double(bad) });
    }
    if let (Some(step), Some(n)) = (schema.get("multipleOf").and_then(number), number(value)) {
        add("multipleOf", int_like(value, (n + step / 2.0).floor() as i64));
    }
}

fn collections(schema: &Document, value: &Bson, add: &mut impl FnMut(&str, Bson)) {
    match value {
        Bson::Array(items) => {
            if let Ok(n) = schema.get_i32("minItems") {
                if n > 0 {
                    add("minItems", Bson::Array(items.iter().take(n as usize - 1).cloned().collect()));
                }
            }
            if let (Ok(n), Some(first)) = (schema.get_i32("maxItems"), items.first()) {
                add("maxItems", Bson::Array(vec![first.clone(); n as usize + 1]));
            }
            if let (Ok(true), Some(first)) = (schema.get_bool("uniqueItems"), items.first()) {
                add("uniqueItems", Bson::Array(vec![first.clone(), first.clone()]));
            }
        }
        Bson::Document(doc) => {
            if let Ok(n) = schema.get_i32("minProperties") {
                if n > 0 {
                    add(
                        "minProperties",
                        Bson::Document(doc.iter().take(n as usize - 1).map(|(k, v)| (k.clone(), v.clone())).collect()),
                    );
                }
            }
            if let (Ok(n), Some((_, first))) = (schema.get_i32("maxProperties"), doc.iter().next()) {
                add("maxProperties", Bson::Document((0..=n).map(|i| (format!("k{i}"), first.clone())).collect()));
            }
        }
        _ => {}
    }
}
