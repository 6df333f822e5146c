//! Values written the way mongod's error messages write them (`BSONElement::toString`):
//! `{a: 1}`, `[ 1, 2 ]`, `"text"`, so a message read here reads as the server's.

use crate::bson::{Bson, Document};

/// `name: value`, as in "Cannot create field 'b' in element {a: 1}".
pub(crate) fn element(name: &str, value: &Bson) -> String {
    format!("{name}: {}", value_text(value))
}

pub(crate) fn value_text(value: &Bson) -> String {
    match value {
        Bson::Double(d) => double(*d),
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
        Bson::Decimal128(d) => d.to_string(),
        other => other.to_string(),
    }
}

/// A double as mongod's `appendDoubleNice` writes it: C's `%.16g`, then `.0` unless the text
/// has a `.`, an `E` or an `N` (so `1e+308.0`, as the server has it).
fn double(d: f64) -> String {
    if d.is_nan() {
        return "nan.0".to_owned();
    }
    if d.is_infinite() {
        return if d > 0.0 { "inf.0".to_owned() } else { "-inf.0".to_owned() };
    }
    let mut text = g16(d);
    if !text.contains(['.', 'E', 'N']) {
        text.push_str(".0");
    }
    text
}

/// C's `%.16g`.
fn g16(d: f64) -> String {
    if d == 0.0 {
        return if d.is_sign_negative() { "-0".to_owned() } else { "0".to_owned() };
    }
    let scientific = format!("{d:.15e}");
    let (mantissa, exponent) = scientific.split_once('e').unwrap_or((&scientific, "0"));
    let exponent: i32 = exponent.parse().unwrap_or(0);
    if (-4..16).contains(&exponent) {
        let decimals = (15 - exponent).max(0) as usize;
        return trim_zeros(format!("{d:.decimals$}"));
    }
    let mantissa = trim_zeros(mantissa.to_owned());
    let sign = if exponent < 0 { '-' } else { '+' };
    format!("{mantissa}e{sign}{:02}", exponent.abs())
}

fn trim_zeros(text: String) -> String {
    if !text.contains('.') {
        return text;
    }
    text.trim_end_matches('0').trim_end_matches('.').to_owned()
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
