//! Whether a new `$jsonSchema` can reject a document the old one accepted. Such a change
//! is staged (`validationAction: "warn"` first), because documents already stored may
//! fail it and, under `error`, every later update of them would be refused.
//!
//! Conservative: a difference that is not a known loosening counts as tightening.
//! Adding an optional property is not counted: documents written before the model had
//! the field do not carry it. The branches of `oneOf`, `anyOf` and `allOf` are compared
//! one by one, paired by the tag value each fixes (`properties.type.enum: ["card"]`) or
//! by position, and named so (`oneOf[1](type="card").number`).

use crate::bson::{Bson, Document};

/// One way `after` may reject what `before` accepted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Tightening {
    /// `path: reason` (`items[].price: maximum 100 -> 50`).
    pub text: String,
    /// A value replaced by one neither looser nor stricter (a `pattern`, a tuple of
    /// `items`): the same difference is found the other way round.
    pub either_way: bool,
}

impl From<String> for Tightening {
    fn from(text: String) -> Self {
        Tightening { text, either_way: false }
    }
}

/// Why `after` may reject what `before` accepted, one reason per difference, with the
/// document path (`items[].price`); empty when `after` only loosens or keeps `before`.
/// Both are `$jsonSchema` values (or whole validators: `{"$jsonSchema": ...}`).
pub(super) fn tightenings(before: &Document, after: &Document) -> Vec<String> {
    differences(before, after).into_iter().map(|t| t.text).collect()
}

/// [`tightenings`], each marked with whether the reverse comparison finds it too.
pub(super) fn differences(before: &Document, after: &Document) -> Vec<Tightening> {
    let (before, after) = match (before.get_document("$jsonSchema"), after.get_document("$jsonSchema")) {
        (Ok(b), Ok(a)) => (b, a),
        _ => (before, after),
    };
    let mut out = Vec::new();
    compare("", before, after, &mut out);
    out
}

fn compare(path: &str, before: &Document, after: &Document, out: &mut Vec<Tightening>) {
    let keys = after.keys().chain(before.keys().filter(|k| !after.contains_key(k.as_str())));
    for key in keys {
        let (b, a) = (before.get(key), after.get(key));
        if b != a {
            keyword(path, key, b, a, after, out);
        }
    }
}

/// One keyword that differs; a removed keyword only loosens, except in `properties`.
fn keyword(path: &str, key: &str, b: Option<&Bson>, a: Option<&Bson>, after: &Document, out: &mut Vec<Tightening>) {
    let reason = |what: String| Tightening::from(format!("{}: {what}", shown(path)));
    match key {
        "description" | "title" => {}
        "bsonType" | "type" => {
            narrower_type(b, a).into_iter().for_each(|t| out.push(reason(format!("no longer accepts {t}"))))
        }
        "required" => newly_required(b, a)
            .into_iter()
            .for_each(|f| out.push(format!("{}: newly required", join(path, &f)).into())),
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
        "oneOf" | "anyOf" | "allOf" => branches(path, key, b, a, out),
        _ if a.is_none() => {}
        _ => out.push(Tightening {
            either_way: b.is_some(),
            ..reason(format!("{key} changed from {} to {}", value(b), value(a)))
        }),
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
    use mongo_schema_contract::bson::{NUMBER, NUMBER_ALIASES};
    Some(
        names
            .into_iter()
            .flat_map(|n| if n == NUMBER { NUMBER_ALIASES.map(str::to_owned).to_vec() } else { vec![n] })
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

fn properties(path: &str, b: Option<&Bson>, a: Option<&Bson>, after: &Document, out: &mut Vec<Tightening>) {
    let empty = Document::new();
    let old = b.and_then(Bson::as_document).unwrap_or(&empty);
    let new = a.and_then(Bson::as_document).unwrap_or(&empty);
    for (name, schema) in new {
        if let (Some(Bson::Document(o)), Bson::Document(n)) = (old.get(name), schema) {
            compare(&join(path, name), o, n, out);
        }
    }
    if matches!(after.get_bool("additionalProperties"), Ok(false)) {
        old.keys().filter(|k| !new.contains_key(k.as_str())).for_each(|k| {
            out.push(format!("{}: no longer allowed (additionalProperties is false)", join(path, k)).into())
        });
    }
}

fn additional(path: &str, b: Option<&Bson>, a: Option<&Bson>, out: &mut Vec<Tightening>) {
    match (b, a) {
        (Some(Bson::Document(o)), Some(Bson::Document(n))) => compare(&format!("{}.*", shown(path)), o, n, out),
        (_, None) | (_, Some(Bson::Boolean(true))) => {}
        _ => out.push(format!("{}: additionalProperties {} -> {}", shown(path), value(b), value(a)).into()),
    }
}

fn items(path: &str, b: Option<&Bson>, a: Option<&Bson>, out: &mut Vec<Tightening>) {
    match (b, a) {
        (Some(Bson::Document(o)), Some(Bson::Document(n))) => compare(&format!("{path}[]"), o, n, out),
        (_, None) => {}
        _ => out.push(Tightening {
            text: format!("{}: items {} -> {}", shown(path), value(b), value(a)),
            either_way: b.is_some(),
        }),
    }
}

/// `oneOf`, `anyOf` or `allOf`: each branch of `after` against its counterpart in `before`
/// (the one fixing the same tag value, or at the same position), under its own path
/// (`oneOf[1](type="card")`). A removed branch of `oneOf` / `anyOf` tightens, an added one
/// loosens (for `allOf` the other way round). `oneOf` rejects a document two branches
/// accept: unless its branches in `after` provably exclude each other, any change of them
/// may tighten.
fn branches(path: &str, key: &str, b: Option<&Bson>, a: Option<&Bson>, out: &mut Vec<Tightening>) {
    let (old, new) = match (b, a) {
        (Some(Bson::Array(old)), Some(Bson::Array(new))) => (old, new),
        // removing the keyword loosens
        (_, None) => return,
        (_, Some(Bson::Array(new))) if b.is_none() => {
            out.push(format!("{}: new {key} of {} branches", shown(path), new.len()).into());
            return;
        }
        _ => {
            out.push(Tightening {
                text: format!("{}: {key} changed from {} to {}", shown(path), value(b), value(a)),
                either_way: b.is_some(),
            });
            return;
        }
    };
    let tag = tag_key(old.iter().chain(new));
    let label = |i: usize, branch: &Bson| match branch_label(branch, tag.as_deref()) {
        Some(l) => join(path, &format!("{key}[{i}]({l})")),
        None => join(path, &format!("{key}[{i}]")),
    };
    let pairs = pair(old, new, tag.as_deref());
    let mut changed = false;
    for (o, n) in &pairs {
        match (o.map(|i| &old[i]), n.map(|i| &new[i])) {
            (Some(Bson::Document(ob)), Some(Bson::Document(nb))) if ob != nb => {
                changed = true;
                compare(&label(n.unwrap_or_default(), &new[n.unwrap_or_default()]), ob, nb, out);
            }
            (Some(ob), Some(nb)) if ob != nb => {
                changed = true;
                out.push(Tightening {
                    text: format!(
                        "{}: changed from {} to {}",
                        label(n.unwrap_or_default(), nb),
                        value(Some(ob)),
                        value(Some(nb))
                    ),
                    either_way: true,
                });
            }
            (Some(_), Some(_)) => {}
            (Some(ob), None) if key != "allOf" => out.push(
                format!(
                    "{}: branch removed (the documents only it accepted are refused)",
                    label(o.unwrap_or_default(), ob)
                )
                .into(),
            ),
            (None, Some(nb)) if key == "allOf" => {
                out.push(format!("{}: new branch", label(n.unwrap_or_default(), nb)).into())
            }
            (None, Some(_)) => changed = true,
            _ => {}
        }
    }
    if key == "oneOf" && changed && !exclusive(new) {
        out.push(
            format!(
                "{}: a document may now match two branches, which oneOf refuses (its branches do not provably exclude each other)",
                join(path, key)
            )
            .into(),
        );
    }
}

/// The property most branches fix to one value (`{type: {enum: ["card"]}}`): the tag of
/// an internally or adjacently tagged enum.
fn tag_key<'a>(branches: impl Iterator<Item = &'a Bson>) -> Option<String> {
    let mut counts: Vec<(String, usize)> = Vec::new();
    for branch in branches.filter_map(Bson::as_document) {
        for (name, schema) in branch.get_document("properties").into_iter().flatten() {
            if fixed(schema).is_some() {
                match counts.iter_mut().find(|(n, _)| n == name) {
                    Some((_, count)) => *count += 1,
                    None => counts.push((name.clone(), 1)),
                }
            }
        }
    }
    let most = counts.iter().map(|(_, c)| *c).max()?;
    counts.into_iter().find(|(_, c)| *c == most).map(|(name, _)| name)
}

/// The one value a schema admits: `{enum: [v]}`.
fn fixed(schema: &Bson) -> Option<&Bson> {
    match schema.as_document()?.get_array("enum").ok()?.as_slice() {
        [one] => Some(one),
        _ => None,
    }
}

/// How a branch is named beside its position: the tag value it fixes (`type="card"`), or
/// the one property an externally tagged variant requires (`circle`).
fn branch_label(branch: &Bson, tag: Option<&str>) -> Option<String> {
    let branch = branch.as_document()?;
    let properties = branch.get_document("properties").ok();
    if let Some(value) = tag.and_then(|t| properties?.get(t).and_then(fixed).map(|v| (t, v))) {
        return Some(format!("{}={}", value.0, self::value(Some(value.1))));
    }
    match (branch.get_array("required").map(Vec::as_slice), properties.map(Document::len)) {
        (Ok([Bson::String(only)]), Some(1)) if properties?.contains_key(only) => Some(only.clone()),
        _ => None,
    }
}

/// Each branch of `old` with its counterpart in `new`, by label when every branch on both
/// sides has one of its own, else by position; `None` on the side where it is missing.
fn pair(old: &[Bson], new: &[Bson], tag: Option<&str>) -> Vec<(Option<usize>, Option<usize>)> {
    let labels = |side: &[Bson]| -> Option<Vec<String>> {
        let labels: Vec<String> = side.iter().map(|b| branch_label(b, tag)).collect::<Option<_>>()?;
        let unique = labels.iter().enumerate().all(|(i, l)| !labels[..i].contains(l));
        unique.then_some(labels)
    };
    if let (Some(old_labels), Some(new_labels)) = (labels(old), labels(new)) {
        let mut pairs: Vec<(Option<usize>, Option<usize>)> =
            new_labels.iter().enumerate().map(|(n, l)| (old_labels.iter().position(|o| o == l), Some(n))).collect();
        pairs.extend((0..old.len()).filter(|o| !new_labels.contains(&old_labels[*o])).map(|o| (Some(o), None)));
        return pairs;
    }
    (0..old.len().max(new.len())).map(|i| ((i < old.len()).then_some(i), (i < new.len()).then_some(i))).collect()
}

/// Whether no document can match two of `branches`: each two differ in a tag value they
/// require, in a property one requires and the other forbids, or in their BSON types.
fn exclusive(branches: &[Bson]) -> bool {
    let docs: Vec<&Document> = branches.iter().filter_map(Bson::as_document).collect();
    docs.len() == branches.len()
        && docs.iter().enumerate().all(|(i, x)| docs[..i].iter().all(|y| disjoint(x, y) || disjoint(y, x)))
}

/// Whether a document `x` accepts is never one `y` accepts, by one of the reasons
/// [`exclusive`] names (checked from `x`'s side).
fn disjoint(x: &Document, y: &Document) -> bool {
    let empty = Document::new();
    let required = |d: &Document| -> Vec<String> {
        d.get_array("required")
            .map(|r| r.iter().filter_map(Bson::as_str).map(str::to_owned).collect())
            .unwrap_or_default()
    };
    let (x_props, y_props) =
        (x.get_document("properties").unwrap_or(&empty), y.get_document("properties").unwrap_or(&empty));
    let closed = y.get_bool("additionalProperties").ok() == Some(false) && !y.contains_key("patternProperties");
    let values = |s: &Bson| s.as_document().and_then(|d| d.get_array("enum").ok()).cloned();
    required(x).iter().any(|k| {
        let tags_differ = match (x_props.get(k).and_then(values), y_props.get(k).and_then(values)) {
            (Some(xs), Some(ys)) => !xs.iter().any(|v| ys.contains(v)),
            _ => false,
        };
        tags_differ || (closed && !y_props.contains_key(k))
    }) || match (kinds(x), kinds(y)) {
        (Some(xs), Some(ys)) => !xs.iter().any(|t| ys.contains(t)),
        _ => false,
    }
}

/// The BSON types a schema's values can have (`bsonType`, or those of its `enum`'s
/// values); `None`: any.
fn kinds(schema: &Document) -> Option<Vec<String>> {
    if let Some(names) = types(schema.get("bsonType")) {
        return Some(names);
    }
    let values = schema.get_array("enum").ok()?;
    let kind = |v: &Bson| match v {
        Bson::String(_) => "string",
        Bson::Document(_) => "object",
        Bson::Array(_) => "array",
        Bson::Boolean(_) => "bool",
        Bson::Null => "null",
        Bson::Int32(_) => "int",
        Bson::Int64(_) => "long",
        Bson::Double(_) => "double",
        _ => "other",
    };
    Some(values.iter().map(|v| kind(v).to_owned()).collect())
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

    #[test]
    fn branches_are_compared_one_by_one_and_named() {
        // `Option<String>`: the null branch and the string's, by position
        let before = doc! { "properties": { "nick": { "anyOf": [{ "bsonType": "null" }, { "bsonType": "string", "maxLength": 30 }] } } };
        let after = doc! { "properties": { "nick": { "anyOf": [{ "bsonType": "null" }, { "bsonType": "string", "maxLength": 20 }] } } };
        assert_eq!(tightenings(&before, &after), vec!["nick.anyOf[1]: maxLength 30 -> 20"]);
        assert_eq!(tightenings(&after, &before), Vec::<String>::new());

        // externally tagged variants: named by their key, exclusive (each forbids the other's)
        let variant = |key: &str, max: i32| {
            doc! { "bsonType": "object", "required": [key], "properties": { key: { "bsonType": "int", "maximum": max } }, "additionalProperties": false }
        };
        let before = doc! { "oneOf": [{ "enum": ["point"] }, variant("circle", 10), variant("square", 10)] };
        let after = doc! { "oneOf": [{ "enum": ["point"] }, variant("circle", 5), variant("square", 20)] };
        assert_eq!(tightenings(&before, &after), vec!["oneOf[1](circle).circle: maximum 10 -> 5"]);
        assert_eq!(tightenings(&after, &before), vec!["oneOf[2](square).square: maximum 20 -> 10"]);

        // branches that may overlap: a loosened one may make `oneOf` refuse a document
        let open =
            |max: i32| doc! { "oneOf": [{ "bsonType": "int", "maximum": max }, { "bsonType": "int", "minimum": 100 }] };
        assert_eq!(
            tightenings(&open(10), &open(200)),
            vec!["oneOf: a document may now match two branches, which oneOf refuses (its branches do not provably exclude each other)"]
        );
        assert_eq!(
            tightenings(
                &doc! { "anyOf": open(10).get_array("oneOf").unwrap().clone() },
                &doc! { "anyOf": open(200).get_array("oneOf").unwrap().clone() }
            ),
            Vec::<String>::new()
        );

        // allOf: a new branch tightens, a removed one loosens
        let all = |n: usize| doc! { "allOf": (0..n).map(|i| Bson::from(doc! { "required": [format!("f{i}")] })).collect::<Vec<_>>() };
        assert_eq!(tightenings(&all(1), &all(2)), vec!["allOf[1]: new branch"]);
        assert_eq!(tightenings(&all(2), &all(1)), Vec::<String>::new());
    }

    #[test]
    fn a_replaced_value_is_marked_either_way() {
        let (before, after) = (doc! { "pattern": "^a" }, doc! { "pattern": "^b" });
        let found = differences(&before, &after);
        assert_eq!(
            found,
            vec![Tightening { text: "(document): pattern changed from \"^a\" to \"^b\"".into(), either_way: true }]
        );
        assert!(!differences(&doc! {}, &after)[0].either_way, "a new pattern tightens only one way");
    }
}
