//! Commands rendered for people and for mongosh: relaxed Extended JSON written by
//! serde_json, so any text in names, descriptions or patterns is escaped by a serializer.

use crate::bson::{Bson, Document};
use serde_json::Value;

/// Relaxed Extended JSON, pretty-printed.
pub fn relaxed_json(doc: &Document) -> String {
    pretty(&Bson::Document(doc.clone()).into_relaxed_extjson())
}

/// Canonical Extended JSON on one line: every BSON type stated (`$numberInt`, ...).
pub fn canonical_json(doc: &Document) -> String {
    Bson::Document(doc.clone()).into_canonical_extjson().to_string()
}

fn pretty(value: &Value) -> String {
    serde_json::to_string_pretty(value).unwrap_or_else(|_| value.to_string())
}

/// A JavaScript string literal (JSON's is one, with U+2028/U+2029 escaped).
#[doc(hidden)]
pub fn js_string(s: &str) -> String {
    escape_line_terminators(Value::from(s).to_string())
}

/// Whether relaxed Extended JSON of this value has `$`-keyed wrappers (`$date`,
/// `$numberDecimal`, ...) that mongosh would take literally.
fn has_extjson_wrappers(value: &Value) -> bool {
    match value {
        Value::Object(map) => {
            map.iter().any(|(k, v)| (k.starts_with('$') && k != "$jsonSchema") || has_extjson_wrappers(v))
        }
        Value::Array(items) => items.iter().any(has_extjson_wrappers),
        _ => false,
    }
}

/// A JavaScript expression for a document: the relaxed JSON itself, or wrapped in
/// `EJSON.deserialize(...)` when it holds BSON types JSON cannot state.
#[doc(hidden)]
pub fn js_document(doc: &Document) -> String {
    let value = Bson::Document(doc.clone()).into_relaxed_extjson();
    let json = escape_line_terminators(pretty(&value));
    if has_extjson_wrappers(&value) {
        format!("EJSON.deserialize({json})")
    } else {
        json
    }
}

/// `db.getSiblingDB("db").createCollection("name", {options})` for a `create` command.
pub fn mongosh_create_collection(db: &str, command: &Document) -> String {
    let name = command.get_str("create").unwrap_or_default();
    let options: Document =
        command.iter().filter(|(k, _)| *k != "create").map(|(k, v)| (k.clone(), v.clone())).collect();
    format!("db.getSiblingDB({}).createCollection({}, {});", js_string(db), js_string(name), js_document(&options))
}

/// `db.getSiblingDB("db").runCommand({...})` for any command.
pub fn mongosh_run_command(db: &str, command: &Document) -> String {
    format!("db.getSiblingDB({}).runCommand({});", js_string(db), js_document(command))
}

/// A `//` comment line holding any text: the line terminators JavaScript knows (`\n`,
/// `\r`, U+2028, U+2029) are escaped, so no text can end the comment and start code.
#[doc(hidden)]
pub fn js_line_comment(text: &str) -> String {
    let mut line = String::from("//");
    if !text.is_empty() {
        line.push(' ');
    }
    for c in text.chars() {
        match c {
            '\n' => line.push_str("\\n"),
            '\r' => line.push_str("\\r"),
            '\u{2028}' => line.push_str("\\u2028"),
            '\u{2029}' => line.push_str("\\u2029"),
            c => line.push(c),
        }
    }
    line
}

/// Escapes U+2028 and U+2029, which JSON leaves raw and JavaScript before ES2019 reads as
/// line terminators ending a string literal. Every text here is JSON, where they can only
/// occur inside strings, so the replacement is exact.
fn escape_line_terminators(json: String) -> String {
    json.replace('\u{2028}', "\\u2028").replace('\u{2029}', "\\u2029")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bson::doc;

    #[test]
    fn hostile_text_is_escaped_by_the_serializer() {
        let cmd = doc! { "create": "t_\"x\"\n</script>", "validator": { "$jsonSchema": { "description": "it's \\ \u{2028} ü */" } } };
        let js = mongosh_create_collection("db_\"q\"", &cmd);
        assert!(js.starts_with(r#"db.getSiblingDB("db_\"q\"").createCollection("t_\"x\"\n</script>", {"#), "{js}");
        assert!(js.contains(r#""description": "it's \\ "#), "{js}");
    }

    #[test]
    fn comments_and_strings_escape_every_line_terminator() {
        let hostile = "a\nb\rc\u{2028}d\u{2029}e */ </script>";
        let comment = js_line_comment(hostile);
        assert_eq!(comment, r"// a\nb\rc\u2028d\u2029e */ </script>");
        assert!(!js_string(hostile).contains(['\n', '\r', '\u{2028}', '\u{2029}']));
        assert!(!js_document(&doc! { "k\u{2028}": hostile }).contains('\u{2028}'));
        let create = mongosh_create_collection("db_x", &doc! { "create": hostile });
        assert!(!create.contains(['\n', '\u{2028}', '\u{2029}']), "{create}");
    }

    #[test]
    fn non_json_types_go_through_ejson() {
        let plain = doc! { "validator": { "$jsonSchema": { "bsonType": "int", "minimum": 1 } } };
        assert!(!js_document(&plain).contains("EJSON"));
        let dec = doc! { "enum": [crate::bson::Decimal128::from_bytes([0; 16])] };
        assert!(js_document(&dec).starts_with("EJSON.deserialize("));
    }
}
