//! Whether a new `$jsonSchema` can reject a document the old one accepted. Such a change
//! is staged (`validationAction: "warn"` first), because documents already stored may
//! fail it and, under `error`, every later update of them would be refused.
//!
//! Conservative: a difference that is not a known loosening counts as tightening.
//! Adding an optional property is not counted: documents written before the model had
//! the field do not carry it. The branches of `oneOf`, `anyOf` and `allOf` are compared
//! one by one, paired by the tag value each fixes (`properties.type.enum: ["card"]`) or
//! by position, and named so (`oneOf[1](type="card").number`).

use mongo_schema_core::bson::{Bson, Document};
use mongo_schema_core::view::{expand_aliases, Additional, Combinator, Items, Number, SchemaView};

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
    let (before, after) = match (SchemaView::of_validator(before), SchemaView::of_validator(after)) {
        (Some(b), Some(a)) => (b, a),
        _ => (SchemaView::new(before), SchemaView::new(after)),
    };
    let mut out = Vec::new();
    compare("", before, after, &mut out);
    out
}

/// The two schemas of one place, and the one keyword of theirs that differs.
#[derive(Clone, Copy)]
struct Pair<'a> {
    before: SchemaView<'a>,
    after: SchemaView<'a>,
    key: &'a str,
}

impl<'a> Pair<'a> {
    fn values(&self) -> (Option<&'a Bson>, Option<&'a Bson>) {
        (self.before.get(self.key), self.after.get(self.key))
    }
}

fn compare(path: &str, before: SchemaView<'_>, after: SchemaView<'_>, out: &mut Vec<Tightening>) {
    let keys = after.keywords().map(|(k, _)| k).chain(before.keywords().map(|(k, _)| k).filter(|k| !after.has(k)));
    for key in keys {
        let pair = Pair { before, after, key };
        let (b, a) = pair.values();
        if b != a {
            keyword(path, pair, out);
        }
    }
}

/// One keyword that differs; a removed keyword only loosens, except in `properties`.
fn keyword(path: &str, pair: Pair<'_>, out: &mut Vec<Tightening>) {
    let reason = |what: String| Tightening::from(format!("{}: {what}", shown(path)));
    let (b, a) = pair.values();
    let key = pair.key;
    match key {
        "description" | "title" => {}
        "bsonType" | "type" => {
            narrower_type(pair).into_iter().for_each(|t| out.push(reason(format!("no longer accepts {t}"))))
        }
        "required" => {
            newly_required(pair).into_iter().for_each(|f| out.push(format!("{}: newly required", join(path, f)).into()))
        }
        "minLength" | "minItems" | "minProperties" | "minimum" => {
            bound(pair, |old, new| new > old).map(|r| out.push(reason(r))).unwrap_or(())
        }
        "maxLength" | "maxItems" | "maxProperties" | "maximum" => {
            bound(pair, |old, new| new < old).map(|r| out.push(reason(r))).unwrap_or(())
        }
        "exclusiveMinimum" | "exclusiveMaximum" | "uniqueItems" => {
            if pair.after.flag(key) && !pair.before.flag(key) {
                out.push(reason(format!("new {key}")));
            }
        }
        "enum" => fewer_values(pair).map(|r| out.push(reason(r))).unwrap_or(()),
        "properties" => properties(path, pair, out),
        "additionalProperties" => additional(path, pair, out),
        "items" => items(path, pair, out),
        "oneOf" | "anyOf" | "allOf" => branches(path, pair, out),
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

/// The types a schema admits by `bsonType` (or by `type`: `key`), aliases spelt out; `None`:
/// any.
fn types<'a>(schema: SchemaView<'a>, key: &str) -> Option<Vec<&'a str>> {
    let names = if key == "type" { schema.json_type() } else { schema.bson_type() };
    names.map(expand_aliases)
}

fn narrower_type(pair: Pair<'_>) -> Vec<String> {
    match (types(pair.before, pair.key), types(pair.after, pair.key)) {
        (_, None) => vec![],
        (None, Some(_)) => vec!["every BSON type".to_owned()],
        (Some(old), Some(new)) => old.into_iter().filter(|t| !new.contains(t)).map(str::to_owned).collect(),
    }
}

fn newly_required<'a>(pair: Pair<'a>) -> Vec<&'a str> {
    let old = pair.before.required();
    pair.after.required().into_iter().filter(|f| !old.contains(f)).collect()
}

/// A bound that moved the tighter way, read by the view's number reader: exact across int,
/// long, double and decimal.
fn bound(pair: Pair<'_>, tighter: fn(Number, Number) -> bool) -> Option<String> {
    let (b, a) = pair.values();
    let key = pair.key;
    let new = pair.after.number(key)?;
    match pair.before.number(key) {
        None => Some(format!("new {key} {}", value(a))),
        Some(old) if tighter(old, new) => Some(format!("{key} {} -> {}", value(b), value(a))),
        Some(_) => None,
    }
}

fn fewer_values(pair: Pair<'_>) -> Option<String> {
    let new = pair.after.enum_values()?;
    let Some(old) = pair.before.enum_values() else {
        return Some(format!("new enum {}", value(pair.after.get("enum"))));
    };
    let dropped: Vec<&Bson> = old.iter().filter(|v| !new.contains(v)).collect();
    (!dropped.is_empty()).then(|| {
        format!("enum no longer accepts {}", value(Some(&Bson::Array(dropped.into_iter().cloned().collect()))))
    })
}

fn properties(path: &str, pair: Pair<'_>, out: &mut Vec<Tightening>) {
    let (old, new) = (pair.before.properties(), pair.after.properties());
    for (name, schema) in new.iter().flat_map(|p| p.iter()) {
        if let Some(o) = old.and_then(|p| p.get(name)) {
            compare(&join(path, name), o, schema, out);
        }
    }
    if pair.after.additional_properties() == Additional::Allowed(false) {
        let gone = old.iter().flat_map(|p| p.names()).filter(|k| !new.is_some_and(|p| p.contains(k)));
        gone.for_each(|k| {
            out.push(format!("{}: no longer allowed (additionalProperties is false)", join(path, k)).into())
        });
    }
}

fn additional(path: &str, pair: Pair<'_>, out: &mut Vec<Tightening>) {
    let (b, a) = pair.values();
    match (pair.before.additional_properties(), pair.after.additional_properties()) {
        (Additional::Schema(o), Additional::Schema(n)) => compare(&format!("{}.*", shown(path)), o, n, out),
        (_, Additional::Absent) | (_, Additional::Allowed(true)) => {}
        _ => out.push(format!("{}: additionalProperties {} -> {}", shown(path), value(b), value(a)).into()),
    }
}

fn items(path: &str, pair: Pair<'_>, out: &mut Vec<Tightening>) {
    let (b, a) = pair.values();
    match (pair.before.items(), pair.after.items()) {
        (Items::One(o), Items::One(n)) => compare(&format!("{path}[]"), o, n, out),
        (_, Items::Absent) => {}
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
fn branches(path: &str, pair: Pair<'_>, out: &mut Vec<Tightening>) {
    let (b, a) = pair.values();
    let key = pair.key;
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
    let label = |i: usize, branch: &Bson| match branch_label(branch, tag) {
        Some(l) => join(path, &format!("{key}[{i}]({l})")),
        None => join(path, &format!("{key}[{i}]")),
    };
    let pairs = pair_up(old, new, tag);
    let mut changed = false;
    for (o, n) in &pairs {
        match (o.map(|i| &old[i]), n.map(|i| &new[i])) {
            (Some(Bson::Document(ob)), Some(Bson::Document(nb))) if ob != nb => {
                changed = true;
                let at = label(n.unwrap_or_default(), &new[n.unwrap_or_default()]);
                compare(&at, SchemaView::new(ob), SchemaView::new(nb), out);
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
    if key == Combinator::OneOf.keyword() && changed && !exclusive(new) {
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
fn tag_key<'a>(branches: impl Iterator<Item = &'a Bson>) -> Option<&'a str> {
    let mut counts: Vec<(&str, usize)> = Vec::new();
    for branch in branches.filter_map(Bson::as_document).map(SchemaView::new) {
        for (name, schema) in branch.properties().iter().flat_map(|p| p.iter()) {
            if fixed(schema).is_some() {
                match counts.iter_mut().find(|(n, _)| *n == name) {
                    Some((_, count)) => *count += 1,
                    None => counts.push((name, 1)),
                }
            }
        }
    }
    let most = counts.iter().map(|(_, c)| *c).max()?;
    counts.into_iter().find(|(_, c)| *c == most).map(|(name, _)| name)
}

/// The one value a schema admits: `{enum: [v]}`.
fn fixed(schema: SchemaView<'_>) -> Option<&Bson> {
    match schema.enum_values()? {
        [one] => Some(one),
        _ => None,
    }
}

/// How a branch is named beside its position: the tag value it fixes (`type="card"`), or
/// the one property an externally tagged variant requires (`circle`).
fn branch_label(branch: &Bson, tag: Option<&str>) -> Option<String> {
    let branch = SchemaView::new(branch.as_document()?);
    let properties = branch.properties();
    if let Some((t, v)) = tag.and_then(|t| properties?.get(t).and_then(fixed).map(|v| (t, v))) {
        return Some(format!("{t}={}", value(Some(v))));
    }
    let only_required = match branch.get("required").and_then(Bson::as_array).map(Vec::as_slice) {
        Some([Bson::String(only)]) => Some(only.as_str()),
        _ => None,
    };
    match (only_required, properties.map(|p| p.names().count())) {
        (Some(only), Some(1)) if properties?.contains(only) => Some(only.to_owned()),
        _ => None,
    }
}

/// Each branch of `old` with its counterpart in `new`, by label when every branch on both
/// sides has one of its own, else by position; `None` on the side where it is missing.
fn pair_up(old: &[Bson], new: &[Bson], tag: Option<&str>) -> Vec<(Option<usize>, Option<usize>)> {
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
    let docs: Vec<SchemaView<'_>> = branches.iter().filter_map(Bson::as_document).map(SchemaView::new).collect();
    docs.len() == branches.len()
        && docs.iter().enumerate().all(|(i, x)| docs[..i].iter().all(|y| disjoint(*x, *y) || disjoint(*y, *x)))
}

/// Whether a document `x` accepts is never one `y` accepts, by one of the reasons
/// [`exclusive`] names (checked from `x`'s side).
fn disjoint<'a>(x: SchemaView<'a>, y: SchemaView<'a>) -> bool {
    let y_props = y.properties();
    let closed = y.additional_properties() == Additional::Allowed(false) && !y.has("patternProperties");
    let values = |schema: SchemaView<'a>, k: &str| schema.property(k).and_then(|p| p.enum_values());
    x.required().iter().any(|k| {
        let tags_differ = match (values(x, k), values(y, k)) {
            (Some(xs), Some(ys)) => !xs.iter().any(|v| ys.contains(v)),
            _ => false,
        };
        tags_differ || (closed && !y_props.is_some_and(|p| p.contains(k)))
    }) || match (kinds(x), kinds(y)) {
        (Some(xs), Some(ys)) => !xs.iter().any(|t| ys.contains(t)),
        _ => false,
    }
}

/// The BSON types a schema's values can have (`bsonType`, or those of its `enum`'s
/// values); `None`: any.
fn kinds(schema: SchemaView<'_>) -> Option<Vec<&str>> {
    if let Some(names) = schema.bson_type() {
        return Some(expand_aliases(names));
    }
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
    Some(schema.enum_values()?.iter().map(kind).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use mongo_schema_core::bson::doc;

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

    #[test]
    fn bounds_compare_exactly_whatever_their_bson_types() {
        let max = |v: Bson| doc! { "properties": { "n": { "maximum": v } } };
        let two53 = 1_i64 << 53;
        // two int64 bounds a double cannot tell apart
        assert_eq!(
            tightenings(&max(Bson::Int64(two53 + 1)), &max(Bson::Int64(two53))),
            vec![format!("n: maximum {} -> {two53}", two53 + 1)]
        );
        // the same bound written as another type is no change
        assert_eq!(tightenings(&max(Bson::Int32(10)), &max(Bson::Double(10.0))), Vec::<String>::new());
        let decimal = |s: &str| Bson::Decimal128(s.parse().unwrap());
        assert_eq!(tightenings(&max(Bson::Int64(10)), &max(decimal("10.00"))), Vec::<String>::new());
        // the double 0.1 is a little above the decimal 0.1
        assert_eq!(tightenings(&max(decimal("0.1")), &max(Bson::Double(0.1))), Vec::<String>::new());
        assert_eq!(tightenings(&max(Bson::Double(0.1)), &max(decimal("0.1"))).len(), 1);
    }
}
