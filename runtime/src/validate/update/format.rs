//! Values written the way mongod's error messages write them (`BSONElement::toString`):
//! `{a: 1}`, `[ 1, 2 ]`, `"text"`, so a message read here reads as the server's.

use crate::bson::{Bson, Document};

/// `name: value`, as in "Cannot create field 'b' in element {a: 1}".
pub(crate) fn element(name: &str, value: &Bson) -> String {
    format!("{name}: {}", value_text(value))
}

pub(crate) fn value_text(value: &Bson) -> String {
    match value {
        Bson::Double(d) if d.is_finite() && d.fract() == 0.0 && d.abs() < 1e15 => format!("{d:.1}"),
        Bson::Double(d) => format!("{d}"),
        Bson::String(s) => format!("\"{s}\""),
        Bson::Document(d) => document(d),
        Bson::Array(items) if items.is_empty() => "[]".to_owned(),
        Bson::Array(items) => {
            let parts: Vec<String> = items.iter().map(value_text).collect();
            format!("[ {} ]", parts.join(", "))
        }
        Bson::Int32(v) => v.to_string(),
        Bson::Int64(v) => v.to_string(),
        Bson::Boolean(b) => b.to_string(),
        Bson::Null => "null".to_owned(),
        Bson::Undefined => "undefined".to_owned(),
        Bson::ObjectId(o) => format!("ObjectId('{o}')"),
        Bson::DateTime(d) => format!("new Date({})", d.timestamp_millis()),
        Bson::Decimal128(d) => format!("NumberDecimal(\"{d}\")"),
        other => other.to_string(),
    }
}

pub(crate) fn document(d: &Document) -> String {
    if d.is_empty() {
        return "{}".to_owned();
    }
    let parts: Vec<String> = d.iter().map(|(k, v)| element(k, v)).collect();
    format!("{{ {} }}", parts.join(", "))
}

/// mongod's name for a BSON type, as its messages use it (`typeName`).
pub(crate) fn type_name(value: &Bson) -> &'static str {
    match value {
        Bson::Double(_) => "double",
        Bson::String(_) => "string",
        Bson::Document(_) => "object",
        Bson::Array(_) => "array",
        Bson::Binary(_) => "binData",
        Bson::Undefined => "undefined",
        Bson::ObjectId(_) => "objectId",
        Bson::Boolean(_) => "bool",
        Bson::DateTime(_) => "date",
        Bson::Null => "null",
        Bson::RegularExpression(_) => "regex",
        Bson::DbPointer(_) => "dbPointer",
        Bson::JavaScriptCode(_) => "javascript",
        Bson::Symbol(_) => "symbol",
        Bson::JavaScriptCodeWithScope(_) => "javascriptWithScope",
        Bson::Int32(_) => "int",
        Bson::Timestamp(_) => "timestamp",
        Bson::Int64(_) => "long",
        Bson::Decimal128(_) => "decimal",
        Bson::MinKey => "minKey",
        Bson::MaxKey => "maxKey",
    }
}
