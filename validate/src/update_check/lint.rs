//! What an update can do wrong to *some* document of a schema, found without any document:
//! [`lint_update`] for a `$jsonSchema`, and
//! [`check_update_static`](crate::check_update_static) for a derived model.
//!
//! ```
//! use mongo_schema::bson::doc;
//! use mongo_schema::validate::{lint_update, FindingKind};
//!
//! let schema = doc! {
//!     "bsonType": "object",
//!     "required": ["name"],
//!     "properties": {
//!         "name": { "bsonType": "string" },
//!         "tags": { "bsonType": "array", "maxItems": 10, "items": { "bsonType": "string" } },
//!     },
//! };
//! let findings = lint_update(&schema, &doc! { "$unset": { "name": "" }, "$push": { "tag": "x" } });
//! let found: Vec<(&str, FindingKind)> = findings.iter().map(|f| (f.path.as_str(), f.kind)).collect();
//! assert_eq!(found, [("name", FindingKind::RequiredRemoved), ("tag", FindingKind::UnknownPath)]);
//! assert!(lint_update(&schema, &doc! { "$push": { "tags": { "$each": ["x"], "$slice": -10 } } }).is_empty());
//! ```

use std::fmt;

use mongo_schema_contract::bson::NUMBER_ALIASES;
use mongo_schema_core::bson::{doc, Bson, DateTime, Document, Timestamp};
use mongo_schema_core::view::{Items, Resolved, SchemaView, Step};

use super::super::Validator;
use super::format::{type_name, value_text};
use super::path::{identifiers, index};
use super::tree::operators;
use super::{Parsed, UpdateError, UpdateOptions};

/// One way an update can break a document of the schema, or be refused by mongod.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// The update operator (`$set`, ...), or `""` for the update as a whole.
    pub operator: String,
    /// The path as the update writes it (`""` for the update as a whole).
    pub path: String,
    /// Which way it goes wrong: what a test or a tool matches on.
    pub kind: FindingKind,
    /// What goes wrong, and what to write instead, for people.
    pub message: String,
}

/// Which way an update goes wrong ([`Finding::kind`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum FindingKind {
    /// mongod refuses the update whatever the document: an unknown operator, paths that
    /// conflict, a non-numeric `$inc`, ...
    Refused,
    /// A path, or a `$rename` destination, names no field of the schema (the message
    /// suggests the closest one).
    UnknownPath,
    /// A value the update writes breaks the field's rules (type, bounds, pattern, enum):
    /// `$set`, `$setOnInsert`, `$min`, `$max`, `$currentDate`, the elements `$push` and
    /// `$addToSet` add, the null an `$unset` leaves in an array, a replacement document.
    Value,
    /// An `$inc` or `$mul` whose result type the field refuses, or on a field that admits
    /// no number.
    ArithmeticType,
    /// An array operator (`$push`, `$addToSet`, `$pop`, `$pull`, `$pullAll`) on a field
    /// that admits no array.
    NotAnArray,
    /// A `$push` without `$slice` (or with a wider one), or an `$addToSet`, on an array
    /// with `maxItems`.
    Unbounded,
    /// An `$unset` or `$rename` of a required field.
    RequiredRemoved,
    /// Creating the path where part of it is missing builds what the schema refuses: a
    /// document missing its other required fields, a document where an array belongs, an
    /// array padded with nulls.
    Creation,
    /// An upsert that inserts leaves a required top-level field unset.
    UpsertMissing,
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.operator.as_str(), self.path.as_str()) {
            ("", "") => write!(f, "{}", self.message),
            (op, path) => write!(f, "{op} `{path}`: {}", self.message),
        }
    }
}

/// Everything `update` can do wrong to some document valid under `schema` (a `$jsonSchema`):
/// an update mongod refuses whatever the document (unknown operator, conflicting paths, a
/// non-numeric `$inc`...); a path that names no field of the schema; a value that breaks the
/// field's rules (type, bounds, pattern, enum), for `$set`, `$setOnInsert`, `$min`, `$max`,
/// and the values `$push` and `$addToSet` add; an `$inc` or `$mul` whose result type the field
/// refuses (an int32 `$inc` creates an int32 where the field is missing; a double makes a
/// double); `$currentDate` into a field that is not a date; a `$push` without `$slice` (or a
/// wider one) on an array with `maxItems`; `$unset` or `$rename` of a required field; a path
/// whose missing parents mongod would create as the schema refuses. Each finding's
/// [`kind`](Finding::kind) says which.
///
/// Not reported: what depends on the stored values (an `$inc` past `maximum`, an int32
/// counter overflowing into a long, `$pull` below `minItems`), and anything under a schema
/// this lint does not look into (`anyOf`/`oneOf`/`allOf`/`not`, as internally tagged enums
/// have, `patternProperties`, tuple `items`): paths there pass unchecked.
pub fn lint_update(schema: &Document, update: &Document) -> Vec<Finding> {
    let mut findings = Vec::new();
    let whole = |kind, message| Finding { operator: String::new(), path: String::new(), kind, message };
    if update.keys().next().is_none_or(|k| !k.starts_with('$')) {
        let mut replacement = update.clone();
        replacement.remove("_id");
        for v in violations(schema, &Bson::Document(replacement), true) {
            findings.push(whole(FindingKind::Value, format!("the replacement document breaks the schema: {v}")));
        }
        return findings;
    }
    if let Err(e) = parse_alone(update) {
        findings.push(whole(FindingKind::Refused, e.to_string()));
        return findings;
    }
    let Ok(ops) = operators(update) else { return findings };
    for (operator, fields) in ops {
        for (path, arg) in fields {
            let mut found = Vec::new();
            lint_one(schema, operator, path, arg, &mut found);
            findings.extend(found.into_iter().map(|(kind, message)| Finding {
                operator: operator.to_owned(),
                path: path.clone(),
                kind,
                message,
            }));
        }
    }
    findings
}

/// [`lint_update`], and what an upsert with `filter` can do wrong when it inserts: the new
/// document holds the filter's equality fields and what the update sets (`$set`,
/// `$setOnInsert`, `$inc`, ...), and mongod refuses it (121) when that leaves a field the
/// schema requires at the top level unset. (A required field of an embedded document the
/// upsert creates is not followed: the lint of its value covers what it sets.)
pub fn lint_upsert(schema: &Document, filter: &Document, update: &Document) -> Vec<Finding> {
    let mut findings = lint_update(schema, update);
    if update.keys().next().is_none_or(|k| !k.starts_with('$')) {
        // a replacement inserts itself (and the filter's `_id`): lint_update checked it whole
        return findings;
    }
    let Ok(ops) = operators(update) else { return findings };
    let top = |path: &str| path.split('.').next().unwrap_or_default().to_owned();
    let mut set: Vec<String> = equalities(filter).into_iter().map(top).collect();
    let mut renames = Vec::new();
    for (operator, fields) in ops {
        for (path, arg) in fields {
            match operator {
                "$unset" => {}
                // a rename moves only what the inserted document holds: the filter's fields
                "$rename" => renames.extend(arg.as_str().map(|to| (top(path), top(to)))),
                _ => set.push(top(path)),
            }
        }
    }
    for (from, to) in renames {
        if set.contains(&from) {
            set.push(to);
        }
    }
    let required = SchemaView::new(schema).required();
    let missing: Vec<&str> = required.into_iter().filter(|r| *r != "_id" && !set.iter().any(|s| s == r)).collect();
    if !missing.is_empty() {
        let list: Vec<String> = missing.iter().map(|m| format!("`{m}`")).collect();
        findings.push(Finding {
            operator: String::new(),
            path: String::new(),
            kind: FindingKind::UpsertMissing,
            message: format!(
                "an upsert that inserts creates a document without {}, which the schema requires: mongod refuses it \
                 (121 Document failed validation). Set {} with `$setOnInsert` (written only when the upsert inserts), \
                 or put {} in the filter as an equality",
                list.join(", "),
                if missing.len() == 1 { "it" } else { "them" },
                if missing.len() == 1 { "it" } else { "them" },
            ),
        });
    }
    findings
}

/// The top-level paths an upsert copies from `filter` into the document it inserts: its
/// equality conditions (`{a: 1}`, `{a: {$eq: 1}}`, and `{a: {$in: [1]}}`, which mongod reads
/// as one), those under a top-level `$and`.
fn equalities(filter: &Document) -> Vec<&str> {
    let mut out = Vec::new();
    for (key, value) in filter {
        match (key.as_str(), value) {
            ("$and", Bson::Array(items)) => {
                out.extend(items.iter().filter_map(Bson::as_document).flat_map(equalities));
            }
            (key, _) if key.starts_with('$') => {}
            (key, Bson::Document(d)) if d.keys().next().is_some_and(|k| k.starts_with('$')) => {
                let single_in = d.get_array("$in").is_ok_and(|values| values.len() == 1);
                if d.contains_key("$eq") || single_in {
                    out.push(key);
                }
            }
            (key, _) => out.push(key),
        }
    }
    out
}

/// Parses the update as mongod would, with a filter for every `$[<id>]` it uses.
fn parse_alone(update: &Document) -> Result<(), UpdateError> {
    let mut options = UpdateOptions::default();
    let mut seen = Vec::new();
    for (_, fields) in operators(update)? {
        for (path, _) in fields {
            for id in identifiers(path) {
                if !seen.contains(&id) {
                    seen.push(id);
                    options.array_filters.push(doc! { id: { "$exists": true } });
                }
            }
        }
    }
    Parsed::new(update, &options).map(|_| ())
}

/// The subschema at an update's path, as far as the schema says plainly
/// ([`SchemaView::resolve`]); `_id` is every document's, whether the schema lists it or not.
fn resolve<'s>(schema: &'s Document, path: &str) -> Resolved<'s> {
    let view = SchemaView::new(schema);
    if (path == "_id" || path.starts_with("_id.")) && view.properties().is_some_and(|p| !p.contains("_id")) {
        return Resolved::Open;
    }
    view.resolve(path.split('.').map(step))
}

/// A component of an update's path: an element (`$`, `$[]`, `$[id]`, a position) or a field.
fn step(part: &str) -> Step<'_> {
    match part == "$" || part.starts_with("$[") || index(part).is_some() {
        true => Step::Element,
        false => Step::Field(part),
    }
}

/// What one operator's path and argument can do wrong, each with its kind.
type Found = Vec<(FindingKind, String)>;

fn lint_one(schema: &Document, operator: &str, path: &str, arg: &Bson, out: &mut Found) {
    let (sub, required) = match resolve(schema, path) {
        Resolved::Known(sub, required) => (sub, required),
        Resolved::Open => return,
        Resolved::Unknown(i, known) => {
            let parts: Vec<&str> = path.split('.').collect();
            let at = parts[..=i].join(".");
            let hint = suggestion(parts[i], &known);
            out.push((
                FindingKind::UnknownPath,
                format!("`{at}` names no field of the schema{hint}; the update would write outside the model"),
            ));
            return;
        }
        // `Resolved` is `non_exhaustive`: an answer the lint does not know says nothing plainly
        _ => return,
    };
    if CREATING.contains(&operator) {
        creation_hazards(schema, path, out);
    }
    match operator {
        "$set" | "$setOnInsert" | "$min" | "$max" => {
            out.extend(
                violations(sub.document(), arg, false)
                    .into_iter()
                    .map(|v| (FindingKind::Value, format!("the value {} breaks {v}", value_text(arg)))),
            );
        }
        "$inc" | "$mul" => arithmetic(sub, operator, arg, required, out),
        "$currentDate" => {
            let timestamp = matches!(arg, Bson::Document(d) if d.get_str("$type").ok() == Some("timestamp"));
            let now = if timestamp {
                Bson::Timestamp(Timestamp { time: 0, increment: 0 })
            } else {
                Bson::DateTime(DateTime::from_millis(0))
            };
            out.extend(
                violations(sub.document(), &now, false)
                    .into_iter()
                    .map(|v| (FindingKind::Value, format!("the current {} breaks {v}", type_name(&now)))),
            );
        }
        "$unset" if required && !last_is_element(path) => out.push((
            FindingKind::RequiredRemoved,
            "removes a required field: every document it updates fails validation (121)".to_owned(),
        )),
        "$unset" if last_is_element(path) => {
            out.extend(violations(sub.document(), &Bson::Null, false).into_iter().map(|v| {
                (FindingKind::Value, format!("unsetting an array element sets it to null, which breaks {v}"))
            }));
        }
        "$rename" => {
            if required {
                out.push((
                    FindingKind::RequiredRemoved,
                    "moves a required field away: every document it updates fails validation (121)".to_owned(),
                ));
            }
            if let Bson::String(to) = arg {
                if let Resolved::Unknown(i, known) = resolve(schema, to) {
                    let parts: Vec<&str> = to.split('.').collect();
                    let hint = suggestion(parts[i], &known);
                    out.push((
                        FindingKind::UnknownPath,
                        format!("the destination `{to}` names no field of the schema{hint}"),
                    ));
                }
            }
        }
        "$push" | "$addToSet" => array_growth(sub, operator, path, arg, out),
        "$pop" | "$pull" | "$pullAll" if sub.admitted().is_some_and(|types| !types.contains(&"array")) => out.push((
            FindingKind::NotAnArray,
            format!("{operator} needs an array, and the field admits none (mongod refuses it on a stored value)"),
        )),
        _ => {}
    }
}

/// The operators that create their path where it is missing.
const CREATING: &[&str] =
    &["$set", "$setOnInsert", "$inc", "$mul", "$min", "$max", "$currentDate", "$push", "$addToSet"];

/// What creating `path` can build where part of it is missing: mongod creates each missing
/// level as a document holding only the next name (so a document missing its other required
/// fields, or a document where the schema wants an array), and pads an array with nulls up
/// to an index past its end.
fn creation_hazards(schema: &Document, path: &str, out: &mut Found) {
    let parts: Vec<&str> = path.split('.').collect();
    let mut current = SchemaView::new(schema);
    for (i, part) in parts[..parts.len() - 1].iter().enumerate() {
        let prefix = parts[..=i].join(".");
        let next = parts[i + 1];
        let (sub, may_be_missing) = match (index(part), *part == "$" || part.starts_with("$[")) {
            (_, true) => match current.items() {
                Items::One(items) => (items, false),
                _ => return,
            },
            (Some(position), false) => match current.items() {
                Items::One(items) => {
                    if position > 0 && items.admitted().is_some_and(|t| !t.contains(&"null")) {
                        out.push((
                            FindingKind::Creation,
                            format!(
                                "on an array shorter than {position}, `{prefix}` pads it with nulls, which its items refuse"
                            ),
                        ));
                    }
                    (items, true)
                }
                _ => return,
            },
            (None, false) => match current.property(part) {
                Some(sub) => (sub, !current.requires(part)),
                None => return,
            },
        };
        if may_be_missing {
            if index(next).is_some() && sub.admitted().is_some_and(|t| t.contains(&"array") && !t.contains(&"object")) {
                out.push((
                    FindingKind::Creation,
                    format!(
                        "where `{prefix}` is missing, mongod creates it as a document {{\"{next}\": ...}}, not the array the schema wants"
                    ),
                ));
            }
            let others: Vec<&str> = sub.required().into_iter().filter(|n| *n != next).collect();
            if !others.is_empty() {
                out.push((
                    FindingKind::Creation,
                    format!(
                        "where `{prefix}` is missing, mongod creates it holding only `{next}`, without its required {}: set the whole `{prefix}` instead",
                        others.join(", ")
                    ),
                ));
            }
        }
        current = sub;
    }
}

fn last_is_element(path: &str) -> bool {
    step(path.rsplit('.').next().unwrap_or(path)) == Step::Element
}

/// "; did you mean `x`?" for a known name close to `name`.
fn suggestion(name: &str, known: &[&str]) -> String {
    let close = known.iter().min_by_key(|k| distance(name, k)).filter(|k| distance(name, k) <= 2.max(name.len() / 3));
    match close {
        Some(k) => format!(" (did you mean `{k}`?)"),
        None if !known.is_empty() => format!(" (its fields: {})", known.join(", ")),
        None => String::new(),
    }
}

/// Levenshtein distance, for suggestions.
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut previous = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let substitution = previous + usize::from(ca != *cb);
            previous = row[j + 1];
            row[j + 1] = substitution.min(row[j] + 1).min(row[j + 1] + 1);
        }
    }
    row[b.len()]
}

/// Why `value` breaks `sub` (as a field value, or as a whole document when `root`), worded
/// as "keyword at path: reason".
fn violations(sub: &Document, value: &Bson, root: bool) -> Vec<String> {
    let (schema, doc) = match (root, value) {
        (true, Bson::Document(d)) => (sub.clone(), d.clone()),
        _ => (doc! { "properties": { "v": sub.clone() } }, doc! { "v": value.clone() }),
    };
    let Ok(validator) = Validator::new(&schema) else { return Vec::new() };
    match validator.validate(&doc) {
        Ok(()) => Vec::new(),
        Err(e) => e
            .failure()
            .map(|f| {
                f.violations()
                    .iter()
                    .map(|v| {
                        let at = if root {
                            v.path.clone()
                        } else {
                            v.path.strip_prefix('v').unwrap_or("").trim_start_matches('.').to_owned()
                        };
                        let at = if at.is_empty() { String::new() } else { format!(" at `{at}`") };
                        format!("`{}`{at} ({})", v.keyword, v.reason)
                    })
                    .collect()
            })
            .unwrap_or_default(),
    }
}

/// "an int", "a long".
fn article(type_name: &str) -> String {
    let an = type_name.starts_with(['a', 'e', 'i', 'o', 'u']);
    format!("{} {type_name}", if an { "an" } else { "a" })
}

fn numeric_type(value: &Bson) -> &'static str {
    match value {
        Bson::Int32(_) => "int",
        Bson::Int64(_) => "long",
        Bson::Double(_) => "double",
        _ => "decimal",
    }
}

/// The type `$inc`/`$mul` leaves: int with int stays int (overflow aside), then long,
/// double, decimal win in that order.
fn promoted(a: &str, b: &str) -> &'static str {
    let rank = |t: &str| NUMBER_ALIASES.iter().position(|x| *x == t).unwrap_or(0);
    NUMBER_ALIASES[rank(a).max(rank(b))]
}

fn arithmetic(sub: SchemaView<'_>, operator: &str, arg: &Bson, required: bool, out: &mut Found) {
    if !super::arith::is_number(arg) {
        return;
    }
    let Some(types) = sub.admitted() else { return };
    let operand = numeric_type(arg);
    let numeric: Vec<&str> = types.iter().copied().filter(|t| NUMBER_ALIASES.contains(t)).collect();
    if numeric.is_empty() {
        out.push((
            FindingKind::ArithmeticType,
            format!(
                "the field admits no number ({}): mongod refuses {operator} on its values (14 TypeMismatch)",
                types.join(", ")
            ),
        ));
        return;
    }
    let mut results: Vec<(&str, String)> =
        numeric.iter().map(|t| (promoted(t, operand), format!("on a stored {t}"))).collect();
    if !required {
        results.push((operand, "where the field is missing (it is created with the operand's type)".to_owned()));
    }
    for (result, when) in results {
        if !types.contains(&result) {
            out.push((
                FindingKind::ArithmeticType,
                format!(
                    "{operator} by {} leaves {} {when}, and the field admits only {}: use {} operand",
                    article(operand),
                    article(result),
                    types.join(", "),
                    article(numeric.first().copied().unwrap_or("int"))
                ),
            ));
            return;
        }
    }
}

/// `$push` and `$addToSet`: the field must be an array, the values must fit its items, and a
/// `$push` into an array with `maxItems` must keep it with `$slice`.
fn array_growth(sub: SchemaView<'_>, operator: &str, path: &str, arg: &Bson, out: &mut Found) {
    if sub.admitted().is_some_and(|types| !types.contains(&"array")) {
        out.push((
            FindingKind::NotAnArray,
            format!("{operator} needs an array, and the field admits none (mongod refuses it: 2 BadValue)"),
        ));
        return;
    }
    let clauses = match arg {
        Bson::Document(d) if d.contains_key("$each") => Some(d),
        _ => None,
    };
    let values: Vec<&Bson> = match clauses.map(|d| d.get("$each")) {
        Some(Some(Bson::Array(items))) => items.iter().collect(),
        Some(_) => Vec::new(),
        None => vec![arg],
    };
    if let Items::One(items) = sub.items() {
        for value in values {
            for v in violations(items.document(), value, false) {
                out.push((FindingKind::Value, format!("the element {} breaks {v}", value_text(value))));
            }
        }
    }
    let Some(max) = sub.max_items() else { return };
    let slice = clauses.and_then(|d| d.get("$slice")).and_then(|s| s.as_i64().or_else(|| s.as_i32().map(i64::from)));
    let unbounded = match slice {
        _ if operator == "$addToSet" => format!(
            "can grow the array past maxItems ({max}), which no $addToSet can bound: use $push with $slice: -{max}, or check the size in the filter"
        ),
        None => format!(
            "can grow the array past maxItems ({max}): write {{$push: {{\"{path}\": {{$each: [...], $slice: -{max}}}}}}} so the bound holds at the database"
        ),
        Some(n) if n.unsigned_abs() > max => {
            format!("$slice {n} keeps more than maxItems ({max}) elements: use $slice: -{max}")
        }
        Some(_) => return,
    };
    out.push((FindingKind::Unbounded, unbounded));
}

#[cfg(test)]
mod tests {
    use super::*;

    /// mongosh writes every number as a double, and a validator read back from mongod keeps
    /// it so: the bound is the same whatever its BSON type.
    #[test]
    fn max_items_is_read_whatever_its_bson_type() {
        let decimal = Bson::Decimal128("5".parse().unwrap());
        for max in [Bson::Int32(5), Bson::Int64(5), Bson::Double(5.0), decimal] {
            let schema = doc! { "properties": { "tags": { "bsonType": "array", "maxItems": max.clone() } } };
            let found = lint_update(&schema, &doc! { "$push": { "tags": "x" } });
            assert!(
                found.iter().any(|f| f.kind == FindingKind::Unbounded && f.message.contains("maxItems (5)")),
                "{max}: {found:?}"
            );
        }
    }
}
