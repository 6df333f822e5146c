//! What would clean the documents of one `schema check` failure group: a mongosh update
//! where the fix is mechanical (a type conversion, a value the model accepts for a missing
//! field), otherwise why a person must decide. Printed, never run.
//!
//! [`BYPASS_NOTE`] is printed with them: each update bypasses document validation, so a fix
//! never fails half way on a document that also breaks another rule.

use super::report::Group;
use crate::bson::{doc, Bson, Document};
use crate::render::js_string;
use crate::Validator;

/// Said once above the fixes: why they bypass validation and what that needs.
pub const BYPASS_NOTE: &str = "the fixes below pass `bypassDocumentValidation: true`: each mends one rule, \
     and a document that also breaks another would make it fail (code 121) half way under a strict validator. \
     Run them as a user with the bypassDocumentValidation action (dbAdmin, restore); without it, set the \
     collection's validationLevel to \"moderate\" while they run, and back to \"strict\" after";

/// The fix of one failure group.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Fix {
    /// A mongosh update that makes the group's documents pass (values it cannot convert
    /// are left as they are).
    Update {
        /// The `db.getSiblingDB(...).getCollection(...).updateMany(...)` line.
        mongosh: String,
        /// What to know before running it.
        note: String,
    },
    /// No mechanical fix: why a person must decide.
    Human(String),
}

/// The conversions a pipeline update can make without losing what a value says: the
/// target `bsonType`, the name `$convert` gives it, and the types it converts from.
/// Where a schema allows several, the first listed here is the target: the widest.
const CONVERSIONS: &[(&str, &str, &[&str])] = &[
    ("date", "date", &["string", "long", "double", "decimal", "timestamp"]),
    ("decimal", "decimal", &["int", "long", "double", "string"]),
    ("double", "double", &["int", "long", "string"]),
    ("long", "long", &["int", "double", "decimal", "string"]),
    ("int", "int", &["long", "double", "decimal", "string"]),
    ("string", "string", &["int", "long", "double", "decimal", "objectId"]),
    ("objectId", "objectId", &["string"]),
];

/// The fix for the documents failing `keyword` at `path` (a [`DryRunReport`] key) in
/// `db.collection`, whose validator's `$jsonSchema` is `schema`.
///
/// [`DryRunReport`]: super::DryRunReport
pub fn suggest(db: &str, collection: &str, schema: &Document, path: &str, keyword: &str, group: &Group) -> Fix {
    if path == "(document)" {
        return Fix::Human(format!("the document as a whole fails `{keyword}`: a person must decide"));
    }
    if path.contains("$[]") {
        return Fix::Human(format!(
            "`{path}` is inside an array: an update needs a `$map` over the array's elements, written by hand"
        ));
    }
    let sub = subschema(schema, &group.schema_path);
    // Each fix mends one rule, and a document may break several: under a strict validator
    // the first fix would fail (121) on a document that still breaks another rule, half way
    // through the group. Bypassing validation lets each fix run alone, in any order.
    let target = |filter: Document, update: Bson| {
        format!(
            "db.getSiblingDB({}).getCollection({}).updateMany({}, {}, {{ bypassDocumentValidation: true }})",
            js_string(db),
            js_string(collection),
            js(&Bson::Document(filter)),
            js(&update)
        )
    };
    match keyword {
        "bsonType" => convert(path, sub, group, target),
        "required" => missing(path, sub, target),
        _ => Fix::Human(human(keyword).to_owned()),
    }
}

/// A type conversion for the convertible types found.
fn convert(path: &str, sub: Option<&Document>, group: &Group, target: impl Fn(Document, Bson) -> String) -> Fix {
    let expected: Vec<&str> = match sub.and_then(|s| s.get("bsonType")) {
        Some(Bson::String(t)) => vec![t.as_str()],
        Some(Bson::Array(ts)) => ts.iter().filter_map(Bson::as_str).collect(),
        _ => Vec::new(),
    };
    let found: Vec<&str> = group.found.iter().map(String::as_str).collect();
    let Some(&(to, name, from)) = CONVERSIONS.iter().find(|(target, ..)| expected.contains(target)) else {
        return Fix::Human(format!(
            "found {} where the model wants {}: no conversion turns one into the other; a person must decide",
            list(&found),
            list(&expected)
        ));
    };
    let convertible: Vec<&str> = found.iter().copied().filter(|t| from.contains(t)).collect();
    let others: Vec<&str> = found.iter().copied().filter(|t| !from.contains(t)).collect();
    if convertible.is_empty() {
        return Fix::Human(format!(
            "found {} where the model wants {to}: no conversion keeps what such a value says; a person must decide",
            list(&found)
        ));
    }
    let input = format!("${path}");
    let mut value = Bson::Document(doc! { "$convert": { "input": &input, "to": name, "onError": &input } });
    let integral = matches!(to, "int" | "long");
    if integral && convertible.iter().any(|t| matches!(*t, "double" | "decimal")) {
        // a number with a fraction stays as it is rather than lose the fraction
        let fractional = doc! { "$and": [{ "$isNumber": &input }, { "$ne": [{ "$trunc": &input }, &input] }] };
        value = Bson::Document(doc! { "$cond": { "if": fractional, "then": &input, "else": value } });
    }
    let filter = doc! { path: { "$type": convertible.iter().map(|t| Bson::from(*t)).collect::<Vec<_>>() } };
    let mut note = format!(
        "converts {} to {to}; a value that does not convert{} stays as it is: run the check again after",
        list(&convertible),
        if integral { " or has a fraction" } else { "" }
    );
    if !others.is_empty() {
        note.push_str(&format!("; {} need a person", list(&others)));
    }
    Fix::Update { mongosh: target(filter, Bson::Array(vec![Bson::Document(doc! { "$set": { path: value } })])), note }
}

/// A value for a missing required field: one the model accepts whatever the rest of the
/// document (`null` for an `Option`, `[]` for a list without `min_items`).
fn missing(path: &str, sub: Option<&Document>, target: impl Fn(Document, Bson) -> String) -> Fix {
    let accepted = sub.and_then(|sub| {
        let alone = doc! { "required": ["v"], "properties": { "v": sub.clone() } };
        let validator = Validator::new(&alone).ok()?;
        [Bson::Null, Bson::Array(Vec::new())].into_iter().find(|v| validator.is_valid(&doc! { "v": v.clone() }))
    });
    let Some(value) = accepted else {
        return Fix::Human(format!(
            "`{path}` is missing and the model accepts neither null nor an empty list there: a person must pick \
             its value (or make the field optional)"
        ));
    };
    let mut filter = Document::new();
    if let Some((parent, _)) = path.rsplit_once('.') {
        // `$set` cannot create a field inside a value that is not a document
        filter.insert(parent, doc! { "$type": "object" });
    }
    filter.insert(path, doc! { "$exists": false });
    let note = format!("sets the missing `{path}` to {}, which the model accepts", js(&value));
    Fix::Update { mongosh: target(filter, Bson::Document(doc! { "$set": { path: value } })), note }
}

/// Why a keyword's failures need a person.
fn human(keyword: &str) -> &'static str {
    match keyword {
        "pattern" => "values that do not match the pattern must be corrected one by one (or the pattern widened)",
        "enum" => "values outside the enum: map each to an allowed value (one update per value)",
        "minLength" | "maxLength" => "strings outside the length bounds: a person shortens or completes them",
        "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum" | "multipleOf" => {
            "numbers outside the bounds: a person decides what they should be"
        }
        "minItems" | "maxItems" | "uniqueItems" | "additionalItems" => {
            "lists of the wrong size or with duplicates: a person decides what to keep"
        }
        "additionalProperties" => {
            "fields the model does not declare: declare them, or remove them with `$unset` once sure nothing reads them"
        }
        "bsonType" | "type" => "a type no conversion fixes: a person must decide",
        _ => "no mechanical fix: a person must decide",
    }
}

/// The subschema at a dotted schema path (`properties.address.properties.zip`, `anyOf.0`).
fn subschema<'a>(schema: &'a Document, path: &str) -> Option<&'a Document> {
    let mut at = schema;
    let mut segments = path.split('.').filter(|s| !s.is_empty()).peekable();
    while let Some(segment) = segments.next() {
        at = match at.get(segment)? {
            Bson::Document(d) => d,
            Bson::Array(items) => match items.get(segments.next()?.parse::<usize>().ok()?)? {
                Bson::Document(d) => d,
                _ => return None,
            },
            _ => return None,
        };
    }
    Some(at)
}

/// A value as mongosh reads it: relaxed JSON on one line (the updates hold only strings,
/// null, lists and documents).
fn js(value: &Bson) -> String {
    let json = value.clone().into_relaxed_extjson().to_string();
    json.replace('\u{2028}', "\\u2028").replace('\u{2029}', "\\u2029")
}

fn list(types: &[&str]) -> String {
    match types {
        [] => "nothing".to_owned(),
        [one] => (*one).to_owned(),
        _ => types.join(", "),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn group(schema_path: &str, found: &[&str]) -> Group {
        Group {
            documents: 1,
            schema_path: schema_path.to_owned(),
            found: found.iter().map(|s| (*s).to_owned()).collect(),
            ..Group::default()
        }
    }

    #[test]
    fn subschemas_are_found_through_properties_and_branches() {
        let schema = doc! { "properties": { "a": { "anyOf": [{ "bsonType": "int" }, { "properties": { "b": { "bsonType": "date" } } }] } } };
        assert_eq!(subschema(&schema, "properties.a.anyOf.0"), Some(&doc! { "bsonType": "int" }));
        assert_eq!(subschema(&schema, "properties.a.anyOf.1.properties.b"), Some(&doc! { "bsonType": "date" }));
        assert_eq!(subschema(&schema, ""), Some(&schema));
        assert_eq!(subschema(&schema, "properties.zz"), None);
        assert_eq!(subschema(&schema, "properties.a.anyOf.7"), None);
    }

    #[test]
    fn conversions_only_from_types_that_keep_their_meaning() {
        let schema = doc! { "properties": { "at": { "bsonType": "date" }, "n": { "bsonType": ["long", "null"] }, "b": { "bsonType": "bool" } } };
        let Fix::Update { mongosh, note } =
            suggest("db_x", "t_y", &schema, "at", "bsonType", &group("properties.at", &["string", "bool"]))
        else {
            panic!("a string date converts")
        };
        assert_eq!(
            mongosh,
            r#"db.getSiblingDB("db_x").getCollection("t_y").updateMany({"at":{"$type":["string"]}}, [{"$set":{"at":{"$convert":{"input":"$at","to":"date","onError":"$at"}}}}], { bypassDocumentValidation: true })"#
        );
        assert!(note.ends_with("; bool need a person"), "{note}");
        let Fix::Update { mongosh, .. } =
            suggest("db_x", "t_y", &schema, "n", "bsonType", &group("properties.n", &["double"]))
        else {
            panic!("a double converts to long")
        };
        assert!(
            mongosh
                .contains(r#""$cond":{"if":{"$and":[{"$isNumber":"$n"},{"$ne":[{"$trunc":"$n"},"$n"]}]},"then":"$n""#),
            "{mongosh}"
        );
        assert!(matches!(
            suggest("db_x", "t_y", &schema, "b", "bsonType", &group("properties.b", &["string"])),
            Fix::Human(_)
        ));
        assert!(matches!(
            suggest("db_x", "t_y", &schema, "items.$[].at", "bsonType", &group("properties.at", &["string"])),
            Fix::Human(why) if why.contains("$map")
        ));
    }

    #[test]
    fn a_missing_field_gets_a_value_only_when_the_model_accepts_one_anyway() {
        let schema = doc! { "properties": {
            "nick": { "bsonType": ["string", "null"] },
            "tags": { "bsonType": "array", "items": { "bsonType": "string" } },
            "email": { "bsonType": "string" },
            "a": { "bsonType": "object", "properties": { "zip": { "bsonType": ["null", "string"] } } },
        } };
        let fix = |path: &str, at: &str| suggest("db_x", "t_y", &schema, path, "required", &group(at, &[]));
        assert!(
            matches!(fix("nick", "properties.nick"), Fix::Update { mongosh, .. } if mongosh.ends_with(r#"updateMany({"nick":{"$exists":false}}, {"$set":{"nick":null}}, { bypassDocumentValidation: true })"#))
        );
        assert!(
            matches!(fix("tags", "properties.tags"), Fix::Update { mongosh, .. } if mongosh.ends_with(r#"{"$set":{"tags":[]}}, { bypassDocumentValidation: true })"#))
        );
        assert!(matches!(fix("email", "properties.email"), Fix::Human(_)));
        assert!(
            matches!(fix("a.zip", "properties.a.properties.zip"), Fix::Update { mongosh, .. } if mongosh.contains(r#"({"a":{"$type":"object"},"a.zip":{"$exists":false}}"#))
        );
    }
}
