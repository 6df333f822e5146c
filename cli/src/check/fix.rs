//! What would clean the documents of one `schema check` failure group: a mongosh update
//! where the fix is mechanical (a type conversion, at the top level or in every element of
//! an array, a value the model accepts for a missing field, a renamed field's old key moved
//! to its new one), otherwise why a person must decide. Printed, never run.
//!
//! [`BYPASS_NOTE`] is printed with them: each update bypasses document validation, so a fix
//! never fails half way on a document that also breaks another rule.

use super::report::Group;
use mongo_schema_core::bson::{doc, Bson, Document};
use mongo_schema_core::render::js_string;
use mongo_schema_core::view::SchemaView;
use mongo_schema_validate::Validator;

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
/// `db.collection`, whose validator's `$jsonSchema` is `schema` and whose model renamed
/// the fields `renames` lists, `(new key, old key)` (`#[mongo(renamed_from = "old")]`,
/// as `migrate::Model::renames` and a [`Registration`]'s `renames` hold them).
///
/// [`DryRunReport`]: super::DryRunReport
/// [`Registration`]: mongo_schema_core::command::Registration
pub fn suggest(
    db: &str,
    collection: &str,
    schema: &Document,
    renames: &[(String, String)],
    path: &str,
    keyword: &str,
    group: &Group,
) -> Fix {
    if path == "(document)" {
        return Fix::Human(format!("the document as a whole fails `{keyword}`: a person must decide"));
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
        "required" | "additionalProperties" if renamed(renames, path, keyword).is_some() => {
            let (new, old) = renamed(renames, path, keyword).unwrap_or_default();
            moved(new, old, keyword, sub, target)
        }
        "bsonType" if path.contains("$[]") => convert_in_arrays(path, sub, group, target),
        "bsonType" => convert(path, sub, group, target),
        "required" if path.contains("$[]") => Fix::Human(format!(
            "`{path}` is missing inside an array: an update needs a `$map` over the array's elements, written by hand"
        )),
        "required" => missing(path, sub, target),
        _ => Fix::Human(human(keyword).to_owned()),
    }
}

/// The declared rename behind a failure: the new key missing (`required`), or the old key
/// refused by `additionalProperties: false`. Renames are of a root's own fields, so only a
/// top-level path is one.
fn renamed<'r>(renames: &'r [(String, String)], path: &str, keyword: &str) -> Option<(&'r str, &'r str)> {
    renames
        .iter()
        .find(|(new, old)| match keyword {
            "required" => new == path,
            _ => old == path,
        })
        .map(|(new, old)| (new.as_str(), old.as_str()))
}

/// A renamed field whose documents still hold the old key: the value moves to the new key
/// in one pipeline update (`$set` then `$unset`), so no document is left holding both,
/// which serde refuses (a duplicate field under `#[serde(alias = "old")]`). For a missing
/// new key that the model accepts a value for anyway (`null`, `[]`), a second update then
/// sets it where a document holds neither key.
fn moved(
    new: &str,
    old: &str,
    keyword: &str,
    sub: Option<&Document>,
    target: impl Fn(Document, Bson) -> String,
) -> Fix {
    let filter = doc! { old: { "$exists": true }, new: { "$exists": false } };
    let update = Bson::Array(vec![
        Bson::Document(doc! { "$set": { new: format!("${old}") } }),
        Bson::Document(doc! { "$unset": old }),
    ]);
    let mut mongosh = target(filter, update);
    let mut note =
        format!("moves `{old}` to `{new}` where a document holds `{old}` and not `{new}` (the model's `renamed_from`)");
    match (keyword, missing(new, sub, &target)) {
        ("required", Fix::Update { mongosh: then, note: set }) => {
            mongosh = format!("{mongosh}; {then}");
            note.push_str(&format!("; then {set}, where a document holds neither key"));
        }
        ("required", _) => note.push_str(&format!(
            "; a document that holds neither key still lacks `{new}`, and a person must pick its value"
        )),
        _ => note.push_str(&format!(
            "; a document that holds both keys is left as it is: a person decides which value to keep in `{new}`, \
             then unsets `{old}`"
        )),
    }
    Fix::Update { mongosh, note }
}

/// A type conversion for the convertible types found, of a top-level or embedded field.
fn convert(path: &str, sub: Option<&Document>, group: &Group, target: impl Fn(Document, Bson) -> String) -> Fix {
    let (conversion, note) = match Conversion::for_group(sub, group, "") {
        Ok(found) => found,
        Err(why) => return why,
    };
    let filter = doc! { path: { "$type": conversion.types() } };
    let update = doc! { "$set": { path: conversion.of(&format!("${path}")) } };
    Fix::Update { mongosh: target(filter, Bson::Array(vec![Bson::Document(update)])), note }
}

/// A type conversion of a value inside arrays (`items.$[].unitPrice`): one pipeline update
/// whose `$map` rebuilds each array on the path, converting the field of every element
/// that holds a convertible type with the same `$convert` and `onError` rules as a
/// top-level conversion, and keeping every other element as it is.
fn convert_in_arrays(
    path: &str,
    sub: Option<&Document>,
    group: &Group,
    target: impl Fn(Document, Bson) -> String,
) -> Fix {
    let segments: Vec<&str> = path.split('.').collect();
    let (leading, rest) = segments.split_at(segments.iter().take_while(|s| **s != "$[]").count());
    let field = leading.join(".");
    let place = format!(" in every element of `{field}` (by `$map`)");
    let (conversion, note) = match Conversion::for_group(sub, group, &place) {
        Ok(found) => found,
        Err(why) => return why,
    };
    let input = format!("${field}");
    let value = conversion.where_applies(&input, rest, conversion.rebuilt(&input, rest, 0), &input);
    // a query reaches into arrays (of documents) through dotted names, not into an array
    // that an array holds
    let filter = match path.contains("$[].$[]") {
        false => {
            let dotted: Vec<&str> = segments.iter().copied().filter(|s| *s != "$[]").collect();
            doc! { dotted.join("."): { "$type": conversion.types() } }
        }
        true => doc! { &field: { "$type": "array" } },
    };
    Fix::Update { mongosh: target(filter, Bson::Array(vec![Bson::Document(doc! { "$set": { field: value } })])), note }
}

/// One conversion the fixes make: to `to` (named `name` by `$convert`), of the values of
/// the types `from`, by the same rules wherever the value is.
struct Conversion<'a> {
    to: &'a str,
    name: &'a str,
    from: Vec<&'a str>,
}

impl<'a> Conversion<'a> {
    /// The conversion that turns the group's convertible types into the widest type the
    /// schema wants, with its note (saying the values are converted `place`); or why there
    /// is none.
    fn for_group(sub: Option<&'a Document>, group: &'a Group, place: &str) -> Result<(Self, String), Fix> {
        let expected: Vec<&str> = sub.and_then(|s| SchemaView::new(s).bson_type()).unwrap_or_default();
        let found: Vec<&str> = group.found.iter().map(String::as_str).collect();
        let Some(&(to, name, from)) = CONVERSIONS.iter().find(|(target, ..)| expected.contains(target)) else {
            return Err(Fix::Human(format!(
                "found {} where the model wants {}: no conversion turns one into the other; a person must decide",
                list(&found),
                list(&expected)
            )));
        };
        let convertible: Vec<&str> = found.iter().copied().filter(|t| from.contains(t)).collect();
        let others: Vec<&str> = found.iter().copied().filter(|t| !from.contains(t)).collect();
        if convertible.is_empty() {
            return Err(Fix::Human(format!(
                "found {} where the model wants {to}: no conversion keeps what such a value says; a person must decide",
                list(&found)
            )));
        }
        let conversion = Conversion { to, name, from: convertible };
        let mut note = format!(
            "converts {} to {to}{place}; a value that does not convert{} stays as it is: run the check again after",
            list(&conversion.from),
            if conversion.integral() { " or has a fraction" } else { "" }
        );
        if !others.is_empty() {
            note.push_str(&format!("; {} need a person", list(&others)));
        }
        Ok((conversion, note))
    }

    fn integral(&self) -> bool {
        matches!(self.to, "int" | "long")
    }

    fn types(&self) -> Vec<Bson> {
        self.from.iter().map(|t| Bson::from(*t)).collect()
    }

    /// The converted value of `input` (an expression: `"$price"`, `"$$e0.price"`): a value
    /// that does not convert stays as it is (`onError`), and so does a number with a
    /// fraction converted to an integer, rather than lose the fraction.
    fn of(&self, input: &str) -> Bson {
        let value = Bson::Document(doc! { "$convert": { "input": input, "to": self.name, "onError": input } });
        if self.integral() && self.from.iter().any(|t| matches!(*t, "double" | "decimal")) {
            let fractional = doc! { "$and": [{ "$isNumber": input }, { "$ne": [{ "$trunc": input }, input] }] };
            return Bson::Document(doc! { "$cond": { "if": fractional, "then": input, "else": value } });
        }
        value
    }

    /// `then` where the value of `input` is one that `rest` of the path (the segments after
    /// it: `$[]`, field names) reaches into, or at the end one of the types converted;
    /// else `otherwise`. A missing value is none of these, so no field is ever created.
    fn where_applies(&self, input: &str, rest: &[&str], then: Bson, otherwise: &str) -> Bson {
        let condition = match rest.first() {
            None => doc! { "$in": [{ "$type": input }, self.types()] },
            Some(&"$[]") => doc! { "$isArray": [input] },
            Some(_) => doc! { "$eq": [{ "$type": input }, "object"] },
        };
        Bson::Document(doc! { "$cond": { "if": condition, "then": then, "else": otherwise } })
    }

    /// The new value of `input`, known to be what `rest` reaches into: each element of an
    /// array mapped (`$map`), a document with its field replaced (`$mergeObjects`), and at
    /// the end the conversion. `depth` numbers the `$map` variables.
    fn rebuilt(&self, input: &str, rest: &[&str], depth: usize) -> Bson {
        let Some((first, after)) = rest.split_first() else { return self.of(input) };
        if *first == "$[]" {
            let var = format!("e{depth}");
            let element = format!("$${var}");
            let each = self.where_applies(&element, after, self.rebuilt(&element, after, depth + 1), &element);
            return Bson::Document(doc! { "$map": { "input": input, "as": var, "in": each } });
        }
        let child = format!("{input}.{first}");
        let merged = doc! { "$mergeObjects": [input, { *first: self.rebuilt(&child, after, depth) }] };
        self.where_applies(&child, after, Bson::Document(merged), input)
    }
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
    SchemaView::new(schema).at(path).map(|sub| sub.document())
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
            suggest("db_x", "t_y", &schema, &[], "at", "bsonType", &group("properties.at", &["string", "bool"]))
        else {
            panic!("a string date converts")
        };
        assert_eq!(
            mongosh,
            r#"db.getSiblingDB("db_x").getCollection("t_y").updateMany({"at":{"$type":["string"]}}, [{"$set":{"at":{"$convert":{"input":"$at","to":"date","onError":"$at"}}}}], { bypassDocumentValidation: true })"#
        );
        assert!(note.ends_with("; bool need a person"), "{note}");
        let Fix::Update { mongosh, .. } =
            suggest("db_x", "t_y", &schema, &[], "n", "bsonType", &group("properties.n", &["double"]))
        else {
            panic!("a double converts to long")
        };
        assert!(
            mongosh
                .contains(r#""$cond":{"if":{"$and":[{"$isNumber":"$n"},{"$ne":[{"$trunc":"$n"},"$n"]}]},"then":"$n""#),
            "{mongosh}"
        );
        assert!(matches!(
            suggest("db_x", "t_y", &schema, &[], "b", "bsonType", &group("properties.b", &["string"])),
            Fix::Human(_)
        ));
    }

    #[test]
    fn a_conversion_inside_arrays_maps_each_element() {
        let line = doc! { "bsonType": "object", "properties": { "unitPrice": { "bsonType": "decimal" } } };
        let schema = doc! { "properties": {
            "items": { "bsonType": "array", "items": line.clone() },
            "grid": { "bsonType": "array", "items": { "bsonType": "array", "items": { "bsonType": "long" } } },
            "order": { "bsonType": "object", "properties": { "lines": { "bsonType": "array", "items": line } } },
        } };
        let fix = |path: &str, at: &str, found: &[&str]| {
            suggest("db_x", "t_y", &schema, &[], path, "bsonType", &group(at, found))
        };
        let Fix::Update { mongosh, note } =
            fix("items.$[].unitPrice", "properties.items.items.properties.unitPrice", &["double", "bool"])
        else {
            panic!("a double in an array converts")
        };
        let convert = r#"{"$convert":{"input":"$$e0.unitPrice","to":"decimal","onError":"$$e0.unitPrice"}}"#;
        let element = format!(
            r#"{{"$cond":{{"if":{{"$eq":[{{"$type":"$$e0"}},"object"]}},"then":{{"$cond":{{"if":{{"$in":[{{"$type":"$$e0.unitPrice"}},["double"]]}},"then":{{"$mergeObjects":["$$e0",{{"unitPrice":{convert}}}]}},"else":"$$e0"}}}},"else":"$$e0"}}}}"#
        );
        assert_eq!(
            mongosh,
            format!(
                r#"db.getSiblingDB("db_x").getCollection("t_y").updateMany({{"items.unitPrice":{{"$type":["double"]}}}}, [{{"$set":{{"items":{{"$cond":{{"if":{{"$isArray":["$items"]}},"then":{{"$map":{{"input":"$items","as":"e0","in":{element}}}}},"else":"$items"}}}}}}}}], {{ bypassDocumentValidation: true }})"#
            )
        );
        assert!(note.starts_with("converts double to decimal in every element of `items` (by `$map`);"), "{note}");
        assert!(note.ends_with("; bool need a person"), "{note}");
        // an array held by an array: the query cannot reach its elements, the `$map`s can;
        // integers keep a fraction as the top-level conversion does
        let Fix::Update { mongosh, .. } = fix("grid.$[].$[]", "properties.grid.items.items", &["double"]) else {
            panic!("a double in nested arrays converts")
        };
        assert!(mongosh.contains(r#"updateMany({"grid":{"$type":"array"}}"#), "{mongosh}");
        assert!(mongosh.contains(r#""$map":{"input":"$$e0","as":"e1","in":"#), "{mongosh}");
        assert!(mongosh.contains(r#"{"$ne":[{"$trunc":"$$e1"},"$$e1"]}"#), "{mongosh}");
        // through an embedded document to its array
        let Fix::Update { mongosh, .. } =
            fix("order.lines.$[].unitPrice", "properties.order.properties.lines.items.properties.unitPrice", &["int"])
        else {
            panic!("an int in an embedded array converts")
        };
        assert!(mongosh.contains(r#"updateMany({"order.lines.unitPrice":{"$type":["int"]}}"#), "{mongosh}");
        assert!(
            mongosh.contains(r#"[{"$set":{"order.lines":{"$cond":{"if":{"$isArray":["$order.lines"]}"#),
            "{mongosh}"
        );
        // no conversion: still a person
        assert!(matches!(
            fix("items.$[].unitPrice", "properties.items.items.properties.unitPrice", &["bool"]),
            Fix::Human(_)
        ));
    }

    #[test]
    fn a_renamed_field_moves_from_its_old_key() {
        let schema = doc! { "properties": {
            "seatLimit": { "bsonType": "int" },
            "nickName": { "bsonType": ["string", "null"] },
        } };
        let renames = [("seatLimit".to_owned(), "maxSeats".to_owned()), ("nickName".to_owned(), "nick".to_owned())];
        let fix = |path: &str, keyword: &str, at: &str| {
            suggest("db_x", "t_y", &schema, &renames, path, keyword, &group(at, &[]))
        };
        let Fix::Update { mongosh, note } = fix("seatLimit", "required", "properties.seatLimit") else {
            panic!("a declared rename moves")
        };
        assert_eq!(
            mongosh,
            r#"db.getSiblingDB("db_x").getCollection("t_y").updateMany({"maxSeats":{"$exists":true},"seatLimit":{"$exists":false}}, [{"$set":{"seatLimit":"$maxSeats"}},{"$unset":"maxSeats"}], { bypassDocumentValidation: true })"#
        );
        assert!(
            note.ends_with(
                "a document that holds neither key still lacks `seatLimit`, and a person must pick its value"
            ),
            "{note}"
        );
        // a value the model accepts anyway goes where neither key is, after the move
        let Fix::Update { mongosh, note } = fix("nickName", "required", "properties.nickName") else {
            panic!("a declared rename moves")
        };
        assert!(
            mongosh.contains(
                r#"[{"$set":{"nickName":"$nick"}},{"$unset":"nick"}], { bypassDocumentValidation: true }); db."#
            ),
            "{mongosh}"
        );
        assert!(mongosh.ends_with(r#"updateMany({"nickName":{"$exists":false}}, {"$set":{"nickName":null}}, { bypassDocumentValidation: true })"#), "{mongosh}");
        assert!(note.contains("; then sets the missing `nickName` to null"), "{note}");
        // the old key refused by `additionalProperties: false`: the same move
        let Fix::Update { mongosh, note } = fix("maxSeats", "additionalProperties", "") else {
            panic!("a declared rename moves")
        };
        assert!(
            mongosh.contains(r#"updateMany({"maxSeats":{"$exists":true},"seatLimit":{"$exists":false}}"#),
            "{mongosh}"
        );
        assert!(note.contains("a document that holds both keys is left as it is"), "{note}");
        // another missing field, or another extra one, is not a rename
        assert!(matches!(fix("maxSeats", "required", "properties.maxSeats"), Fix::Human(_)));
        assert!(matches!(fix("seatLimit", "additionalProperties", ""), Fix::Human(_)));
    }

    #[test]
    fn a_missing_field_gets_a_value_only_when_the_model_accepts_one_anyway() {
        let schema = doc! { "properties": {
            "nick": { "bsonType": ["string", "null"] },
            "tags": { "bsonType": "array", "items": { "bsonType": "string" } },
            "email": { "bsonType": "string" },
            "a": { "bsonType": "object", "properties": { "zip": { "bsonType": ["null", "string"] } } },
        } };
        let fix = |path: &str, at: &str| suggest("db_x", "t_y", &schema, &[], path, "required", &group(at, &[]));
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
