//! Whether a new `$jsonSchema` can reject a document the old one accepted. Such a change
//! is staged (`validationAction: "warn"` first), because documents already stored may
//! fail it and, under `error`, every later update of them would be refused.
//!
//! Conservative: a difference that is not a known loosening counts as tightening.
//! Adding an optional property is not counted: documents written before the model had
//! the field do not carry it.

use crate::bson::{Bson, Document};

/// Why `after` may reject what `before` accepted, one reason per difference, with the
/// document path (`items[].price`); empty when `after` only loosens or keeps `before`.
/// Both are `$jsonSchema` values (or whole validators: `{"$jsonSchema": ...}`).
pub(super) fn tightenings(before: &Document, after: &Document) -> Vec<String> {
    let (before, after) = match (before.get_document("$jsonSchema"), after.get_document("$jsonSchema")) {
        (Ok(b), Ok(a)) => (b, a),
        _ => (before, after),
    };
    let mut out = Vec::new();
    compare("", before, after, &mut out);
    out
}

fn compare(path: &str, before: &Document, after: &Document, out: &mut Vec<String>) {
    let keys = after.keys().chain(before.keys().filter(|k| !after.contains_key(k.as_str())));
    for key in keys {
        let (b, a) = (before.get(key), after.get(key));
        if b != a {
            keyword(path, key, b, a, after, out);
        }
    }
}

/// One keyword that differs; a removed keyword only loosens, except in `properties`.
fn keyword(path: &str, key: &str, b: Option<&Bson>, a: Option<&Bson>, after: &Document, out: &mut Vec<String>) {
    let reason = |what: String| format!("{}: {what}", shown(path));
    match key {
        "description" | "title" => {}
        "bsonType" | "type" => {
            narrower_type(b, a).into_iter().for_each(|t| out.push(reason(format!("no longer accepts {t}"))))
        }
        "required" => {
            newly_required(b, a).into_iter().for_each(|f| out.push(format!("{}: newly required", join(path, &f))))
        }
        "minLength" | "minItems" | "minProperties" | "minimum" => {
            bound(key, b, a, |old, new| new > old).map(|r| out.push(reason(r))).unwrap_or(())
        }
        "maxLength" | "maxItems" | "maxProperties" | "maximum" => {
            bound(key, b, a, |old, new| new < old).map(|r| out.push(reason(r))).unwrap_or(())
        }
        "exclusiveMinimum" | "exclusiveMaximum" | "uniqueItems" => {
            switched_on(key, b, a).map(|r| out.push(reason(r))).unwrap_or(())
        }
        "enum" => fewer_values(b, a).map(|r| out.push(reason(r))).unwrap_or(()),
        "properties" => properties(path, b, a, after, out),
        "additionalProperties" => additional(path, b, a, out),
        "items" => items(path, b, a, out),
        _ if a.is_none() => {}
        _ => out.push(reason(format!("{key} changed from {} to {}", value(b), value(a)))),
    }
}

fn shown(path: &str) -> &str {
    if path.is_empty() {
        "(document)"
    } else {
        path
    }
}

fn join(path: &str, field: &str) -> String {
    if path.is_empty() {
        field.to_owned()
    } else {
        format!("{path}.{field}")
    }
}

fn value(b: Option<&Bson>) -> String {
    b.map_or_else(|| "(none)".to_owned(), |v| v.clone().into_relaxed_extjson().to_string())
}

/// The `bsonType`s a schema admits; `None`: any.
fn types(b: Option<&Bson>) -> Option<Vec<String>> {
    let names: Vec<String> = match b? {
        Bson::String(s) => vec![s.clone()],
        Bson::Array(items) => items.iter().filter_map(Bson::as_str).map(str::to_owned).collect(),
        _ => return None,
    };
    let numbers = ["int", "long", "double", "decimal"];
    Some(
        names
            .into_iter()
            .flat_map(|n| if n == "number" { numbers.map(str::to_owned).to_vec() } else { vec![n] })
            .collect(),
    )
}

fn narrower_type(b: Option<&Bson>, a: Option<&Bson>) -> Vec<String> {
    match (types(b), types(a)) {
        (_, None) => vec![],
        (None, Some(_)) => vec!["every BSON type".to_owned()],
        (Some(old), Some(new)) => old.into_iter().filter(|t| !new.contains(t)).collect(),
    }
}

fn newly_required(b: Option<&Bson>, a: Option<&Bson>) -> Vec<String> {
    let names = |v: Option<&Bson>| -> Vec<String> {
        v.and_then(Bson::as_array)
            .map(|xs| xs.iter().filter_map(Bson::as_str).map(str::to_owned).collect())
            .unwrap_or_default()
    };
    let old = names(b);
    names(a).into_iter().filter(|f| !old.contains(f)).collect()
}

fn number(b: &Bson) -> Option<f64> {
    match b {
        Bson::Int32(n) => Some(f64::from(*n)),
        Bson::Int64(n) => Some(*n as f64),
        Bson::Double(n) => Some(*n),
        Bson::Decimal128(d) => d.to_string().parse().ok(),
        _ => None,
    }
}

fn bound(key: &str, b: Option<&Bson>, a: Option<&Bson>, tighter: fn(f64, f64) -> bool) -> Option<String> {
    let new = number(a?)?;
    match b.and_then(number) {
        None => Some(format!("new {key} {}", value(a))),
        Some(old) if tighter(old, new) => Some(format!("{key} {} -> {}", value(b), value(a))),
        Some(_) => None,
    }
}

fn switched_on(key: &str, b: Option<&Bson>, a: Option<&Bson>) -> Option<String> {
    let on = |v: Option<&Bson>| v.and_then(Bson::as_bool).unwrap_or(false);
    (on(a) && !on(b)).then(|| format!("new {key}"))
}

fn fewer_values(b: Option<&Bson>, a: Option<&Bson>) -> Option<String> {
    let new = a?.as_array()?;
    let Some(old) = b.and_then(Bson::as_array) else { return Some(format!("new enum {}", value(a))) };
    let dropped: Vec<&Bson> = old.iter().filter(|v| !new.contains(v)).collect();
    (!dropped.is_empty()).then(|| {
        format!("enum no longer accepts {}", value(Some(&Bson::Array(dropped.into_iter().cloned().collect()))))
    })
}

fn properties(path: &str, b: Option<&Bson>, a: Option<&Bson>, after: &Document, out: &mut Vec<String>) {
    let empty = Document::new();
    let old = b.and_then(Bson::as_document).unwrap_or(&empty);
    let new = a.and_then(Bson::as_document).unwrap_or(&empty);
    for (name, schema) in new {
        if let (Some(Bson::Document(o)), Bson::Document(n)) = (old.get(name), schema) {
            compare(&join(path, name), o, n, out);
        }
    }
    if matches!(after.get_bool("additionalProperties"), Ok(false)) {
        old.keys()
            .filter(|k| !new.contains_key(k.as_str()))
            .for_each(|k| out.push(format!("{}: no longer allowed (additionalProperties is false)", join(path, k))));
    }
}

fn additional(path: &str, b: Option<&Bson>, a: Option<&Bson>, out: &mut Vec<String>) {
    match (b, a) {
        (Some(Bson::Document(o)), Some(Bson::Document(n))) => compare(&format!("{}.*", shown(path)), o, n, out),
        (_, None) | (_, Some(Bson::Boolean(true))) => {}
        _ => out.push(format!("{}: additionalProperties {} -> {}", shown(path), value(b), value(a))),
    }
}

fn items(path: &str, b: Option<&Bson>, a: Option<&Bson>, out: &mut Vec<String>) {
    match (b, a) {
        (Some(Bson::Document(o)), Some(Bson::Document(n))) => compare(&format!("{path}[]"), o, n, out),
        (_, None) => {}
        _ => out.push(format!("{}: items {} -> {}", shown(path), value(b), value(a))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bson::doc;

    fn user(extra: Document) -> Document {
        let mut props = doc! { "name": { "bsonType": "string", "maxLength": 50_i64 } };
        props.extend(extra);
        doc! { "bsonType": "object", "required": ["name"], "properties": props }
    }

    #[test]
    fn loosening_and_descriptions_are_not_tightening() {
        let before = user(doc! {});
        let mut after = user(doc! { "nick": { "bsonType": "string" } });
        after
            .get_document_mut("properties")
            .unwrap()
            .insert("name", doc! { "bsonType": ["string", "null"], "maxLength": 80_i32, "description": "x" });
        assert_eq!(tightenings(&before, &after), Vec::<String>::new());
    }

    #[test]
    fn each_tightening_is_named_with_its_path() {
        let before = user(
            doc! { "tags": { "bsonType": "array", "items": { "bsonType": "string" } }, "status": { "enum": ["a", "b"] } },
        );
        let mut after = user(
            doc! { "tags": { "bsonType": "array", "items": { "bsonType": "string", "pattern": "^[a-z]+$" } }, "status": { "enum": ["a"] } },
        );
        after.get_array_mut("required").unwrap().push("tags".into());
        after
            .get_document_mut("properties")
            .unwrap()
            .insert("name", doc! { "bsonType": "string", "maxLength": 40_i64 });
        let reasons = tightenings(&before, &after);
        assert_eq!(
            reasons,
            vec![
                "tags: newly required",
                "name: maxLength 50 -> 40",
                "tags[]: pattern changed from (none) to \"^[a-z]+$\"",
                "status: enum no longer accepts [\"b\"]",
            ]
        );
    }

    #[test]
    fn type_narrowing_and_closed_documents_tighten() {
        let before = doc! { "properties": { "n": { "bsonType": ["int", "long"] }, "old": {} } };
        let after = doc! { "properties": { "n": { "bsonType": "int" } }, "additionalProperties": false };
        let reasons = tightenings(&doc! { "$jsonSchema": before }, &doc! { "$jsonSchema": after });
        assert_eq!(
            reasons,
            vec![
                "n: no longer accepts long",
                "old: no longer allowed (additionalProperties is false)",
                "(document): additionalProperties (none) -> false"
            ]
        );
    }
}
