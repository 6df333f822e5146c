//! The non-generic builders that turn a derived type's static tables into its
//! `$jsonSchema` `Document`.

use super::{BsonKind, Document, FieldFacts, Keyword, Lit, Num, SchemaFacts};
use crate::bson::{doc, Bson};
use crate::schema::{narrow, nullable, tuple_of};

/// A numeric keyword value.
fn num(n: Num) -> Bson {
    match n {
        Num::Int(i) => narrow(i),
        Num::Float(f) => Bson::Double(f),
    }
}

/// A literal of `enum_values`.
fn lit(lit: Lit) -> Bson {
    match lit {
        Lit::Str(s) => Bson::from(s),
        Lit::Int(i) => narrow(i),
        Lit::Float(f) => Bson::Double(f),
        Lit::Bool(b) => Bson::Boolean(b),
    }
}

fn count(n: u64) -> Bson {
    narrow(n.min(i64::MAX as u64) as i64)
}

/// Applies keywords to a schema. `bsonType` replaces the type's own (keeping `null` when
/// the field is an `Option`); draft 4's boolean `exclusiveMinimum` goes with `minimum`.
/// Every other keyword is written as `{keyword: value}`, its name from the contract's table.
pub fn apply_keywords(schema: &mut Document, keywords: &[Keyword], nullable_field: bool) {
    for keyword in keywords {
        let (spec, value) = keyword.parts();
        let value = match (*keyword, value) {
            (Keyword::BsonType(alias), _) => {
                let typed = doc! { "bsonType": alias };
                let rest = std::mem::replace(schema, if nullable_field { nullable(typed) } else { typed });
                schema.extend(rest.into_iter().filter(|(key, _)| key != "bsonType" && key != "enum"));
                continue;
            }
            (Keyword::ExclusiveMinimum(n), _) => {
                schema.insert(Keyword::Minimum(n).parts().0.json, num(n));
                true.into()
            }
            (Keyword::ExclusiveMaximum(n), _) => {
                schema.insert(Keyword::Maximum(n).parts().0.json, num(n));
                true.into()
            }
            (_, Value::Str(s)) => Bson::from(*s),
            (_, Value::Count(n)) => count(n),
            (_, Value::Num(n)) => num(n),
            (_, Value::Bool(b)) => b.into(),
            (_, Value::Lits(values)) => values.iter().map(|v| lit(*v)).collect::<Vec<_>>().into(),
        };
        schema.insert(spec.json, value);
    }
}

pub use mongo_schema_contract::fields::{NULLABLE, REQUIRED, SKIPS_NONE};
use mongo_schema_contract::keyword::Value;

/// The start of a field whose BSON type a `bson_type` or a known serde helper fixes; the
/// derive sets its facts from [`aliases`].
pub const ALIAS_FIELD: FieldFacts = FieldFacts {
    name: "",
    facts: aliases::Any,
    fields: None,
    flatten: false,
    ident: "",
    type_name: "",
    schema: Document::new,
    flags: REQUIRED,
    keywords: &[],
    items: &[],
    tagged: None,
};

/// `pub const {Kind}: SchemaFacts` for each listed `BsonKind` variant, and the list.
macro_rules! aliases {
    ($($kind:ident),*) => {
        $(pub const $kind: SchemaFacts = of(BsonKind::$kind);)*
        #[cfg(test)]
        const LISTED: &[BsonKind] = &[$(BsonKind::$kind),*];
    };
}

/// The facts of a value of each BSON kind, by `BsonKind` variant (`Any` for an unknown
/// `bsonType` alias or a list). The derive spells them `_p::aliases::{BsonKind::variant()}`.
#[allow(non_upper_case_globals)]
pub mod aliases {
    use super::{BsonKind, SchemaFacts};

    const fn of(kind: BsonKind) -> SchemaFacts {
        SchemaFacts::scalar(kind, kind.fixed_size())
    }

    aliases!(
        Double, String, Object, Array, BinData, ObjectId, Bool, Date, Null, Regex, Int, Timestamp, Long, Decimal, Any
    );

    #[cfg(test)]
    #[test]
    fn every_kind_the_derive_names_is_listed() {
        for kind in BsonKind::ALL {
            // `Mixed` is no alias's kind: the derive never names it here
            assert_eq!(LISTED.contains(&kind), kind != BsonKind::Mixed, "{kind:?}");
        }
    }
}

/// The schema of one field: its type's, with the field's keywords applied.
fn field_schema(field: &FieldFacts) -> Document {
    let skips_none = field.flags & SKIPS_NONE != 0;
    let mut schema = (field.schema)();
    apply_keywords(&mut schema, field.keywords, field.flags & NULLABLE != 0 && !skips_none);
    apply_items(&mut schema, field.items);
    if skips_none {
        schema = non_null(schema);
    }
    schema
}

/// Applies `levels[0]` to the items of an array schema (every item schema of a tuple) or
/// the values of a map schema, `levels[1]` to theirs, and so on; through the non-null
/// branch of an `anyOf` (an `Option` of a type with no `bsonType`). A schema with no item
/// schema yet (`bson_type = "array"`) gets one.
fn apply_items(schema: &mut Document, levels: &[&[Keyword]]) {
    let Some((keywords, rest)) = levels.split_first() else { return };
    let apply = |sub: &mut Document| {
        apply_keywords(sub, keywords, false);
        apply_items(sub, rest);
    };
    if let Ok(branches) = schema.get_array_mut("anyOf") {
        let null = doc! { "bsonType": "null" };
        for branch in branches.iter_mut() {
            match branch {
                Bson::Document(branch) if *branch != null => apply_items(branch, levels),
                _ => {}
            }
        }
        return;
    }
    let kinds: Vec<&str> = match schema.get("bsonType") {
        Some(Bson::String(alias)) => vec![alias.as_str()],
        Some(Bson::Array(aliases)) => aliases.iter().filter_map(Bson::as_str).collect(),
        _ => Vec::new(),
    };
    let key = match (schema.contains_key("items"), schema.contains_key("additionalProperties")) {
        (true, _) => "items",
        (false, true) => "additionalProperties",
        _ if kinds.contains(&"array") => "items",
        _ if kinds.contains(&"object") => "additionalProperties",
        // the derive refuses `items(...)` on anything else
        _ => return,
    };
    match schema.entry(key.to_owned()).or_insert_with(|| Document::new().into()) {
        Bson::Document(sub) => apply(sub),
        Bson::Array(subs) => subs.iter_mut().filter_map(Bson::as_document_mut).for_each(apply),
        // `additionalProperties: false`
        _ => {}
    }
}

/// Undoes [`nullable`] for a field whose `None` is skipped rather than written.
fn non_null(mut schema: Document) -> Document {
    let null = Bson::from("null");
    match schema.get_mut("bsonType") {
        Some(Bson::Array(aliases)) if aliases.contains(&null) => {
            aliases.retain(|alias| *alias != null);
            if let [single] = aliases.as_slice() {
                let single = single.clone();
                schema.insert("bsonType", single);
            }
        }
        _ => {}
    }
    if let Some(Bson::Array(values)) = schema.get_mut("enum") {
        values.retain(|value| *value != Bson::Null);
    }
    match schema.get_array("anyOf").map(Vec::as_slice) {
        Ok([Bson::Document(first), Bson::Document(inner)])
            if schema.len() == 1 && *first == doc! { "bsonType": "null" } =>
        {
            inner.clone()
        }
        _ => schema,
    }
}

struct Members {
    required: Vec<Bson>,
    properties: Document,
    additional: Option<Bson>,
    /// Flattened enums: `("oneOf" | "anyOf", their variants' schemas)`.
    variants: Vec<(&'static str, Vec<Bson>)>,
}

impl Members {
    /// A flattened field's own members become the parent's: serde writes them inline. A
    /// flattened enum's variants become the parent's alternatives (see [`polymorphic`]).
    fn flatten(&mut self, mut schema: Document) {
        let optional = admits_null(&schema);
        if let (false, Some((key, branches))) = (optional, alternatives(&mut schema)) {
            self.variants.push((key, branches));
        } else if let Ok(properties) = schema.get_document_mut("properties") {
            self.properties.extend(std::mem::take(properties));
            if let (false, Ok(required)) = (optional, schema.get_array("required")) {
                self.required.extend(required.iter().cloned());
            }
        } else if let Some(additional) = schema.remove("additionalProperties") {
            self.additional = Some(additional);
        }
    }
}

fn admits_null(schema: &Document) -> bool {
    let null_first = |branches: &Vec<Bson>| {
        branches.iter().any(|b| matches!(b, Bson::Document(d) if d.get_str("bsonType").ok() == Some("null")))
    };
    match schema.get("bsonType") {
        Some(Bson::Array(aliases)) => aliases.contains(&Bson::from("null")),
        Some(Bson::String(alias)) => alias == "null",
        _ => schema.get_array("anyOf").is_ok_and(null_first),
    }
}

/// The variants of an enum's schema (`oneOf`, or `anyOf` when some are untagged), taken
/// out of it; `None` for a schema of one shape.
fn alternatives(schema: &mut Document) -> Option<(&'static str, Vec<Bson>)> {
    let key = ["oneOf", "anyOf"].into_iter().find(|key| schema.get_array(key).is_ok())?;
    match schema.remove(key) {
        Some(Bson::Array(branches)) => Some((key, branches)),
        _ => None,
    }
}

/// A document that is one of several variants (a flattened enum, or an internally tagged
/// enum as a collection root): `schema` holds the common part (its `properties`,
/// `required` and `additionalProperties`), `parts` each enum's variants.
///
/// Each key that every variant requires and fixes to its name (an internal or adjacent
/// tag) is lifted into the common part as `{enum: [every variant's name]}` and required,
/// so a wrong or missing tag is reported once, by name, instead of as one failure per
/// variant. The variants stay whole under `oneOf` (`anyOf` with untagged variants),
/// beside the common part (both must hold, as with `allOf`); several flattened enums
/// are an `allOf` of their `oneOf`s. A variant that denies unknown fields admits the
/// common part's; when the common part denies them, it admits every variant's.
fn polymorphic(schema: &mut Document, parts: Vec<(&'static str, Vec<Bson>)>) {
    if parts.is_empty() {
        return;
    }
    let mut properties = schema.get_document("properties").cloned().unwrap_or_default();
    let mut required = schema.get_array("required").cloned().unwrap_or_default();
    let branch_docs =
        |branches: &[Bson]| -> Vec<Document> { branches.iter().filter_map(|b| b.as_document().cloned()).collect() };
    for (_, branches) in &parts {
        for (tag, names) in discriminators(&branch_docs(branches)) {
            if !properties.contains_key(&tag) {
                properties.insert(tag.clone(), doc! { "enum": names });
            }
            if !required.contains(&Bson::from(tag.as_str())) {
                required.push(tag.into());
            }
        }
    }
    // the keys each part's variants write
    let written: Vec<Vec<String>> = parts
        .iter()
        .map(|(_, branches)| {
            let mut keys: Vec<String> = Vec::new();
            for branch in branch_docs(branches) {
                for (key, _) in branch.get_document("properties").cloned().unwrap_or_default() {
                    if !keys.contains(&key) {
                        keys.push(key);
                    }
                }
            }
            keys
        })
        .collect();
    let own: Vec<String> = properties.keys().cloned().collect();
    if schema.get_bool("additionalProperties").ok() == Some(false) {
        for key in written.iter().flatten() {
            if !properties.contains_key(key) {
                properties.insert(key.clone(), Document::new());
            }
        }
    }
    let mut alternatives: Vec<Document> = parts
        .into_iter()
        .enumerate()
        .map(|(i, (key, branches))| {
            // a variant that denies unknown fields admits the common part's and the other
            // flattened enums' keys, not its sibling variants'
            let others = written.iter().enumerate().filter(|(j, _)| *j != i).flat_map(|(_, keys)| keys);
            let common: Vec<&String> = own.iter().chain(others).collect();
            let branches: Vec<Bson> = branches
                .into_iter()
                .map(|branch| match branch {
                    Bson::Document(mut branch) if branch.get_bool("additionalProperties").ok() == Some(false) => {
                        let fields = branch.get_document_mut("properties").map(std::mem::take).unwrap_or_default();
                        let mut merged: Document = common
                            .iter()
                            .filter(|k| !fields.contains_key(k))
                            .map(|k| ((*k).clone(), Bson::from(Document::new())))
                            .collect();
                        merged.extend(fields);
                        branch.insert("properties", merged);
                        Bson::Document(branch)
                    }
                    other => other,
                })
                .collect();
            doc! { key: branches }
        })
        .collect();
    if !required.is_empty() {
        schema.insert("required", required);
    }
    schema.insert("properties", properties);
    match alternatives.len() {
        1 => schema.extend(alternatives.pop().unwrap_or_default()),
        _ => {
            schema.insert("allOf", alternatives);
        }
    }
}

/// Keys every branch requires and fixes to literal names (`{enum: [...]}` and nothing
/// else), with the union of their names in variant order.
fn discriminators(branches: &[Document]) -> Vec<(String, Vec<Bson>)> {
    let Some(first) = branches.first() else { return Vec::new() };
    let fixed = |branch: &Document, key: &str| -> Option<Vec<Bson>> {
        let required = branch.get_array("required").ok()?;
        if !required.contains(&Bson::from(key)) {
            return None;
        }
        let schema = branch.get_document("properties").ok()?.get_document(key).ok()?;
        match (schema.len(), schema.get_array("enum")) {
            (1, Ok(names)) => Some(names.clone()),
            _ => None,
        }
    };
    let keys: Vec<String> = first
        .get_array("required")
        .map(|r| r.iter().filter_map(|k| k.as_str().map(str::to_owned)).collect())
        .unwrap_or_default();
    keys.into_iter()
        .filter_map(|key| {
            let mut names: Vec<Bson> = Vec::new();
            for branch in branches {
                for name in fixed(branch, &key)? {
                    if !names.contains(&name) {
                        names.push(name);
                    }
                }
            }
            Some((key, names))
        })
        .collect()
}

/// `{bsonType: "object", title, description, required, properties, additionalProperties}`
/// of a struct (or struct variant) with these fields and its own keywords (`title`,
/// `description`). `deny_unknown`: `#[serde(deny_unknown_fields)]`, so
/// `additionalProperties: false`; `root`: a collection root, whose `_id` stays allowed.
pub fn object(fields: Option<&[FieldFacts]>, keywords: &[Keyword], deny_unknown: bool, root: bool) -> Document {
    let mut members =
        Members { required: Vec::new(), properties: Document::new(), additional: None, variants: Vec::new() };
    for field in fields.unwrap_or_default() {
        let schema = field_schema(field);
        if field.flatten {
            members.flatten(schema);
            continue;
        }
        if field.flags & REQUIRED != 0 {
            members.required.push(field.name.into());
        }
        members.properties.insert(field.name, schema);
    }
    if deny_unknown && members.additional.is_none() {
        if root && !members.properties.contains_key("_id") {
            members.properties.insert("_id", Document::new());
        }
        members.additional = Some(false.into());
    }
    let mut schema = doc! { "bsonType": "object" };
    apply_keywords(&mut schema, keywords, false);
    if !members.required.is_empty() {
        schema.insert("required", members.required);
    }
    schema.insert("properties", members.properties);
    if let Some(additional) = members.additional {
        schema.insert("additionalProperties", additional);
    }
    polymorphic(&mut schema, members.variants);
    schema
}

/// A schema with the type's own keywords (`title`, `description`) added.
pub fn annotate(mut schema: Document, keywords: &[Keyword]) -> Document {
    apply_keywords(&mut schema, keywords, false);
    schema
}

/// The single field of a newtype or `#[serde(transparent)]` struct, with its keywords.
pub fn transparent(field: &FieldFacts, keywords: &[Keyword]) -> Document {
    let mut schema = field_schema(field);
    apply_keywords(&mut schema, keywords, false);
    schema
}

/// A tuple struct or tuple variant: an array of exactly these items.
pub fn tuple(fields: &[FieldFacts], keywords: &[Keyword]) -> Document {
    let mut schema = tuple_of(fields.iter().map(field_schema).collect());
    apply_keywords(&mut schema, keywords, false);
    schema
}

/// How serde writes an enum (`#[serde(tag, content, untagged)]`).
#[derive(Debug, Clone, Copy)]
pub enum Repr<'a> {
    External,
    Internal { tag: &'a str },
    Adjacent { tag: &'a str, content: &'a str },
    Untagged,
}

/// What a variant holds.
pub enum Body<'a> {
    Unit,
    Newtype(FieldFacts),
    Tuple(&'a [FieldFacts]),
    /// The fields, the variant's own keywords, `deny_unknown_fields`.
    Struct(&'a [FieldFacts], &'a [Keyword], bool),
}

/// One variant, after serde renames.
pub struct Variant<'a> {
    pub name: &'a str,
    pub body: Body<'a>,
    /// `#[serde(untagged)]` on the variant: written as its content alone.
    pub untagged: bool,
}

impl Variant<'_> {
    fn content(&self) -> Option<Document> {
        match &self.body {
            Body::Unit => None,
            Body::Newtype(field) => Some(field_schema(field)),
            Body::Tuple(fields) => Some(tuple(fields, &[])),
            Body::Struct(fields, keywords, deny) => Some(object(Some(fields), keywords, *deny, false)),
        }
    }

    /// The schema of this variant as serde writes it under `repr`.
    fn branch(&self, repr: Repr<'_>) -> Document {
        let content = self.content();
        let repr = if self.untagged { Repr::Untagged } else { repr };
        match (repr, content) {
            (Repr::Untagged, None) => doc! { "bsonType": "null" },
            (Repr::Untagged, Some(content)) => content,
            (Repr::External, None) => doc! { "enum": [self.name] },
            (Repr::External, Some(content)) => tagged_object(&[(self.name, content)]),
            (Repr::Adjacent { tag, .. }, None) => tagged_object(&[(tag, doc! { "enum": [self.name] })]),
            (Repr::Adjacent { tag, content: key }, Some(content)) => {
                tagged_object(&[(tag, doc! { "enum": [self.name] }), (key, content)])
            }
            (Repr::Internal { tag }, content) => internally_tagged(tag, self.name, content),
        }
    }
}

/// `{bsonType: "object", required: [keys], properties: {...}, additionalProperties: false}`.
fn tagged_object(members: &[(&str, Document)]) -> Document {
    let required: Vec<&str> = members.iter().map(|(key, _)| *key).collect();
    let properties: Document =
        members.iter().map(|(key, schema)| ((*key).to_owned(), Bson::from(schema.clone()))).collect();
    doc! { "bsonType": "object", "required": required, "properties": properties, "additionalProperties": false }
}

/// The variant's own document with the tag first among its properties and required.
fn internally_tagged(tag: &str, name: &str, content: Option<Document>) -> Document {
    let mut schema = content.unwrap_or_else(|| doc! { "bsonType": "object" });
    let mut properties = doc! { tag: { "enum": [name] } };
    properties.extend(schema.remove("properties").and_then(|p| p.as_document().cloned()).unwrap_or_default());
    let mut required = vec![Bson::from(tag)];
    required.extend(schema.remove("required").and_then(|r| r.as_array().cloned()).unwrap_or_default());
    let additional = schema.remove("additionalProperties");
    schema.insert("required", required);
    schema.insert("properties", properties);
    if let Some(additional) = additional {
        schema.insert("additionalProperties", additional);
    }
    schema
}

/// A data-carrying or unit enum: one schema per variant as serde writes it. Unit
/// variants of an externally tagged enum share one `enum` of their names.
pub fn enumeration(repr: Repr<'_>, variants: &[Variant<'_>], keywords: &[Keyword]) -> Document {
    let mut names = Vec::new();
    let mut branches = Vec::new();
    for variant in variants {
        match (repr, &variant.body, variant.untagged) {
            (Repr::External, Body::Unit, false) => names.push(Bson::from(variant.name)),
            _ => branches.push(variant.branch(repr)),
        }
    }
    if !names.is_empty() {
        branches.insert(0, doc! { "enum": names });
    }
    let untagged = matches!(repr, Repr::Untagged) || variants.iter().any(|v| v.untagged);
    let mut schema = match branches.len() {
        1 => branches.pop().unwrap_or_default(),
        // serde tries untagged variants in order, so several may match: any will do
        _ if untagged => doc! { "anyOf": branches },
        _ => doc! { "oneOf": branches },
    };
    apply_keywords(&mut schema, keywords, false);
    schema
}

/// An internally tagged enum as a collection root: a document that is one of its
/// variants (`polymorphic`), each admitting the `_id` the driver adds.
pub fn polymorphic_root(enumeration: Document) -> Document {
    let mut schema = enumeration;
    let Some(parts) = alternatives(&mut schema) else { return with_id(schema) };
    let (title, description) = (schema.remove("title"), schema.remove("description"));
    let mut root = doc! { "bsonType": "object" };
    root.extend(title.map(|t| ("title".to_owned(), t)));
    root.extend(description.map(|d| ("description".to_owned(), d)));
    root.extend(schema);
    let branches = parts.1.into_iter().map(|b| match b {
        Bson::Document(branch) => Bson::Document(with_id(branch)),
        other => other,
    });
    polymorphic(&mut root, vec![(parts.0, branches.collect())]);
    root
}

/// A variant that denies unknown fields still admits the `_id` every stored document has.
fn with_id(mut schema: Document) -> Document {
    if schema.get_bool("additionalProperties").ok() == Some(false) {
        if let Ok(properties) = schema.get_document_mut("properties") {
            if !properties.contains_key("_id") {
                properties.insert("_id", Document::new());
            }
        }
    }
    schema
}

/// An enum of unit variants only, written as their names: `{enum: [names]}`.
pub fn unit_enum(names: &[&str], keywords: &[Keyword]) -> Document {
    let mut schema = doc! { "enum": names };
    apply_keywords(&mut schema, keywords, false);
    schema
}

/// A collection root's `description` ends with its worst-case encoded size, when every
/// string, array and map in it is bounded, so reviewers of a validator
/// see how close it comes to the limit (16 MiB, 4 MiB in a time-series collection).
pub fn with_size_bound(mut schema: Document, max_size: Option<u64>, limit: u64) -> Document {
    let Some(bytes) = max_size else { return schema };
    let note = format!("Worst-case BSON size: {bytes} bytes (MongoDB's limit: {limit} bytes).");
    let description = match schema.get_str("description") {
        Ok(text) => format!("{text}\n{note}"),
        Err(_) => note,
    };
    schema.insert("description", description);
    schema
}
