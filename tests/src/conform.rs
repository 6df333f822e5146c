//! A small, independent reading of the `$jsonSchema` keywords the derive emits, used to
//! check that what the driver writes has the type and presence the schema says. (The
//! full local validator with mongod's semantics is `mongo_schema::Validator`; this one is
//! deliberately separate so the two can check each other.)

use crate::bson::{spec::ElementType, Bson, Document, RawBsonRef, RawDocument};

/// The `bsonType` alias of a raw value.
pub fn alias(value: RawBsonRef<'_>) -> &'static str {
    match value.element_type() {
        ElementType::Double => "double",
        ElementType::String => "string",
        ElementType::EmbeddedDocument => "object",
        ElementType::Array => "array",
        ElementType::Binary => "binData",
        ElementType::ObjectId => "objectId",
        ElementType::Boolean => "bool",
        ElementType::DateTime => "date",
        ElementType::Null => "null",
        ElementType::RegularExpression => "regex",
        ElementType::Int32 => "int",
        ElementType::Timestamp => "timestamp",
        ElementType::Int64 => "long",
        ElementType::Decimal128 => "decimal",
        _ => "other",
    }
}

fn type_ok(schema: &Document, value: RawBsonRef<'_>) -> bool {
    let actual = alias(value);
    let numeric = matches!(actual, "int" | "long" | "double" | "decimal");
    let fits = |b: &Bson| b.as_str().is_some_and(|a| a == actual || (a == "number" && numeric));
    match schema.get("bsonType") {
        None => true,
        Some(Bson::Array(aliases)) => aliases.iter().any(fits),
        Some(single) => fits(single),
    }
}

fn to_bson(value: RawBsonRef<'_>) -> Bson {
    Bson::try_from(value).unwrap_or(Bson::Undefined)
}

/// Violations of type, presence and the bounds the derive emits, with their paths.
pub fn check(schema: &Document, value: RawBsonRef<'_>, path: &str) -> Vec<String> {
    let mut errors = Vec::new();
    visit(schema, value, path, &mut errors);
    errors
}

fn visit(schema: &Document, value: RawBsonRef<'_>, path: &str, errors: &mut Vec<String>) {
    if !type_ok(schema, value) {
        errors.push(format!("{path}: {} is not {:?}", alias(value), schema.get("bsonType")));
        return;
    }
    if let Ok(values) = schema.get_array("enum") {
        if !values.contains(&to_bson(value)) {
            errors.push(format!("{path}: {:?} not in enum {values:?}", to_bson(value)));
        }
    }
    branches(schema, value, path, errors);
    match value {
        RawBsonRef::Document(doc) => object(schema, doc, path, errors),
        RawBsonRef::Array(items) => {
            let items: Vec<RawBsonRef<'_>> = items.into_iter().map(|i| i.expect("valid array")).collect();
            array(schema, &items, path, errors);
        }
        RawBsonRef::String(s) => length(schema, s.chars().count(), path, errors),
        _ => {}
    }
}

fn branches(schema: &Document, value: RawBsonRef<'_>, path: &str, errors: &mut Vec<String>) {
    for (keyword, exactly_one) in [("anyOf", false), ("oneOf", true)] {
        let Ok(list) = schema.get_array(keyword) else { continue };
        let passing = list.iter().filter_map(Bson::as_document).filter(|b| check(b, value, path).is_empty()).count();
        if passing == 0 || (exactly_one && passing > 1) {
            errors.push(format!("{path}: {passing} branches of {keyword} match"));
        }
    }
}

fn object(schema: &Document, doc: &RawDocument, path: &str, errors: &mut Vec<String>) {
    for name in schema.get_array("required").map(Vec::as_slice).unwrap_or_default() {
        let name = name.as_str().unwrap_or_default();
        if !doc.get(name).is_ok_and(|v| v.is_some()) {
            errors.push(format!("{path}.{name}: required but missing"));
        }
    }
    let properties = schema.get_document("properties").ok();
    for element in doc {
        let (key, value) = element.expect("valid document");
        let key: &str = AsRef::<str>::as_ref(key);
        let sub = format!("{path}.{key}");
        match (properties.and_then(|p| p.get_document(key).ok()), schema.get("additionalProperties")) {
            (Some(property), _) => visit(property, value, &sub, errors),
            (None, Some(Bson::Boolean(false))) => errors.push(format!("{sub}: not allowed by additionalProperties")),
            (None, Some(Bson::Document(extra))) => visit(extra, value, &sub, errors),
            (None, _) => {}
        }
    }
    let count = doc.iter().count() as i64;
    bound(schema, "minProperties", count, |n, b| n >= b, path, errors);
    bound(schema, "maxProperties", count, |n, b| n <= b, path, errors);
}

fn array(schema: &Document, items: &[RawBsonRef<'_>], path: &str, errors: &mut Vec<String>) {
    match schema.get("items") {
        Some(Bson::Document(each)) => {
            for (i, item) in items.iter().enumerate() {
                visit(each, *item, &format!("{path}.{i}"), errors);
            }
        }
        Some(Bson::Array(positional)) => {
            for (i, (each, item)) in positional.iter().zip(items).enumerate() {
                visit(each.as_document().expect("schema"), *item, &format!("{path}.{i}"), errors);
            }
        }
        _ => {}
    }
    bound(schema, "minItems", items.len() as i64, |n, b| n >= b, path, errors);
    bound(schema, "maxItems", items.len() as i64, |n, b| n <= b, path, errors);
}

fn length(schema: &Document, chars: usize, path: &str, errors: &mut Vec<String>) {
    bound(schema, "minLength", chars as i64, |n, b| n >= b, path, errors);
    bound(schema, "maxLength", chars as i64, |n, b| n <= b, path, errors);
}

fn bound(schema: &Document, keyword: &str, n: i64, ok: fn(i64, i64) -> bool, path: &str, errors: &mut Vec<String>) {
    let limit = match schema.get(keyword) {
        Some(Bson::Int32(b)) => i64::from(*b),
        Some(Bson::Int64(b)) => *b,
        _ => return,
    };
    if !ok(n, limit) {
        errors.push(format!("{path}: {n} breaks {keyword} {limit}"));
    }
}
