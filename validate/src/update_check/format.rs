//! Values written the way mongod's messages write them, so a message read here reads as the
//! server's: a BSON element as `BSONElement::toString` writes it (`{a: 1}`, `[ 1, 2 ]`,
//! `"text"`), an aggregation value as `Value` prints it (`{a: 1, b: "x"}`, [`value_string`]),
//! C's `%g` ([`g`]) and ISO dates ([`iso_date`]), which `$convert` to string writes too.

use mongo_schema_core::bson::{Bson, Document};

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
    let mut text = g(d, 16);
    if !text.contains(['.', 'E', 'N']) {
        text.push_str(".0");
    }
    text
}

/// C's `%.{precision}g`.
pub(crate) fn g(d: f64, precision: usize) -> String {
    if d.is_nan() {
        return "nan".to_owned();
    }
    if d.is_infinite() {
        return if d > 0.0 { "inf".to_owned() } else { "-inf".to_owned() };
    }
    if d == 0.0 {
        return if d.is_sign_negative() { "-0".to_owned() } else { "0".to_owned() };
    }
    let p = precision.max(1);
    let scientific = format!("{d:.*e}", p - 1);
    let (mantissa, exponent) = scientific.split_once('e').unwrap_or((&scientific, "0"));
    let exponent: i32 = exponent.parse().unwrap_or(0);
    if exponent >= -4 && exponent < p as i32 {
        let decimals = (p as i32 - 1 - exponent).max(0) as usize;
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

/// Whether mongod can write the date (years 0 to 9999).
pub(crate) fn formattable(ms: i64) -> bool {
    (-62_167_219_200_000..253_402_300_800_000).contains(&ms)
}

/// `2020-01-01T00:00:00.000Z`.
pub(crate) fn iso_date(ms: i64) -> String {
    let days = ms.div_euclid(86_400_000);
    let rem = ms.rem_euclid(86_400_000);
    // Howard Hinnant's civil_from_days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:03}Z",
        rem / 3_600_000,
        rem / 60_000 % 60,
        rem / 1000 % 60,
        rem % 1000
    )
}

/// A value as mongod's aggregation `Value` prints it in messages (`{a: 1, b: "x"}`); `None`
/// is a missing value.
pub(crate) fn value_string(v: &Option<Bson>) -> String {
    let Some(v) = v else { return "MISSING".to_owned() };
    match v {
        Bson::Double(d) => g(*d, 6),
        Bson::String(s) => format!("\"{s}\""),
        Bson::Document(d) => document_string(d),
        Bson::Array(items) => {
            let parts: Vec<String> = items.iter().map(|i| value_string(&Some(i.clone()))).collect();
            format!("[{}]", parts.join(", "))
        }
        Bson::Int32(i) => i.to_string(),
        Bson::Int64(i) => i.to_string(),
        Bson::Boolean(b) => b.to_string(),
        Bson::Null => "null".to_owned(),
        Bson::Undefined => "undefined".to_owned(),
        Bson::Decimal128(d) => d.to_string(),
        Bson::DateTime(d) if formattable(d.timestamp_millis()) => iso_date(d.timestamp_millis()),
        Bson::DateTime(_) => "illegal date".to_owned(),
        Bson::ObjectId(o) => o.to_hex(),
        other => other.to_string(),
    }
}

/// A document as mongod's aggregation `Value` prints it: `{_id: 1, a: [1, "x"]}`.
pub(crate) fn document_string(d: &Document) -> String {
    let parts: Vec<String> = d.iter().map(|(k, v)| format!("{k}: {}", value_string(&Some(v.clone())))).collect();
    format!("{{{}}}", parts.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use mongo_schema_core::bson::doc;

    #[test]
    fn strings_as_mongod_writes_them() {
        assert_eq!(g(1.234_567_89, 6), "1.23457");
        assert_eq!(g(1e20, 6), "1e+20");
        assert_eq!(g(0.00001, 6), "1e-05");
        assert_eq!(g(-0.0, 6), "-0");
        assert_eq!(iso_date(1_577_836_800_500), "2020-01-01T00:00:00.500Z");
        assert_eq!(document_string(&doc! { "_id": 1, "a": [1, "x"] }), "{_id: 1, a: [1, \"x\"]}");
        // `appendDoubleNice`: `%.16g`, then `.0` unless the text has a `.`, an `E` or an `N`
        assert_eq!(value_text(&Bson::Double(0.1)), "0.1");
        assert_eq!(value_text(&Bson::Double(3.0)), "3.0");
        assert_eq!(value_text(&Bson::Double(1e308)), "1e+308.0");
        assert_eq!(value_text(&Bson::Double(-0.0)), "-0.0");
    }
}
