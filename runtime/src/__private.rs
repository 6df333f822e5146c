//! What `#[derive(MongoSchema)]` expands to calls into. Not public API: the generated
//! code describes a schema as small static tables; these non-generic builders turn the
//! tables into `Document`s, so each model costs little to compile.

pub use crate::__fields_node as fields_node;
pub use crate::bson::Document;
pub use crate::command::{
    Capped, Clustered, Collation, Index, IndexKey, MongoCollection, Registered, Registration, Timeseries,
    ValidationAction, ValidationLevel,
};
pub use crate::paths::{child, flat, Bounded, Leaf, Node, Path};
pub use crate::schema::{
    BsonKind, FieldFacts, Keyword, KeywordLit as Lit, KeywordNum as Num, MongoSchema, SchemaFacts, Shape,
};
pub use inventory;
/// Worst-case encoded sizes, for the facts the expansion computes at compile time.
pub use mongo_schema_contract::size;

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
/// variants ([`polymorphic`]), each admitting the `_id` the driver adds.
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

/// Facts of a struct (or struct variant) from its fields' facts: one level more than its
/// deepest field, and the sum of its elements' worst-case sizes with the fields' own bounds
/// (`max_length` on strings, `max_items` on arrays and sets). A flattened field's members
/// are the document's own. Written as one loop with few calls: every derived struct
/// evaluates it at compile time, and calls are what const evaluation pays for.
pub const fn object_facts(fields: Option<&[FieldFacts]>) -> SchemaFacts {
    let fields = match fields {
        Some(fields) => fields,
        None => &[],
    };
    let (mut depth, mut size, mut bounded) = (0, 5, true);
    let mut i = 0;
    while i < fields.len() {
        let (field, facts) = (&fields[i], &fields[i].facts);
        let levels = if field.flatten && facts.depth > 0 { facts.depth - 1 } else { facts.depth };
        if levels > depth {
            depth = levels;
        }
        // a string's greatest UTF-8 bytes: 4 a code point of `max_length`, or what a
        // fixed-width `pattern` admits, whichever is smaller
        let (mut string_bytes, mut max_items, mut k) = (None::<u64>, None, 0);
        while k < field.keywords.len() {
            let bound = match field.keywords[k] {
                Keyword::MaxLength(n) => Some(4 * n),
                Keyword::Pattern(pattern) => size::pattern_max_bytes(pattern),
                _ => None,
            };
            if let Some(bound) = bound {
                string_bytes = match string_bytes {
                    Some(bytes) if bytes < bound => Some(bytes),
                    _ => Some(bound),
                };
            }
            if let Keyword::MaxItems(n) = field.keywords[k] {
                max_items = Some(n);
            }
            k += 1;
        }
        // the items' strings, bounded by `items(max_length = ..)` or a fixed-width pattern
        let item_max_size = match (facts.item_kind, field.items.first()) {
            (BsonKind::String, Some(items)) => match string_bound(items) {
                Some(bytes) => Some(4 + bytes + 1),
                None => facts.item_max_size,
            },
            _ => facts.item_max_size,
        };
        let value = match (facts.kind, facts.shape, string_bytes) {
            _ if field.flatten => facts.max_size,
            (BsonKind::String, Shape::Scalar, Some(bytes)) => Some(4 + bytes + 1),
            (_, Shape::Array | Shape::Set, _) => size::array(max_items, item_max_size),
            _ => facts.max_size,
        };
        match value {
            Some(value) if !field.flatten => size += 1 + field.name.len() as u64 + 1 + value,
            Some(value) => size += value,
            None => bounded = false,
        }
        i += 1;
    }
    let mut facts = SchemaFacts::scalar(BsonKind::Object, if bounded { Some(size) } else { None });
    facts.shape = Shape::Document;
    facts.depth = depth + 1;
    facts
}

/// [`object_facts`] of a document the derive knows has no size bound (a field is a string
/// with no bound): only its depth is computed, from the fields at `nesting` (the others
/// are scalars or lists of them, of depth 0).
pub const fn unbounded_object_facts(fields: Option<&[FieldFacts]>, nesting: &[usize]) -> SchemaFacts {
    let fields = match fields {
        Some(fields) => fields,
        None => &[],
    };
    let (mut depth, mut i) = (0, 0);
    while i < nesting.len() {
        let field = &fields[nesting[i]];
        let levels = if field.flatten && field.facts.depth > 0 { field.facts.depth - 1 } else { field.facts.depth };
        if levels > depth {
            depth = levels;
        }
        i += 1;
    }
    let mut facts = SchemaFacts::scalar(BsonKind::Object, None);
    facts.shape = Shape::Document;
    facts.depth = depth + 1;
    facts
}

/// The greatest UTF-8 bytes of a string these keywords admit: 4 a code point of
/// `max_length`, or what a fixed-width `pattern` admits, whichever is smaller.
const fn string_bound(keywords: &[Keyword]) -> Option<u64> {
    let (mut bytes, mut k) = (None::<u64>, 0);
    while k < keywords.len() {
        let bound = match keywords[k] {
            Keyword::MaxLength(n) => Some(4 * n),
            Keyword::Pattern(pattern) => size::pattern_max_bytes(pattern),
            _ => None,
        };
        if let Some(bound) = bound {
            bytes = match bytes {
                Some(old) if old < bound => Some(old),
                _ => Some(bound),
            };
        }
        k += 1;
    }
    bytes
}

/// Facts of a tuple (struct or variant) from its elements' facts.
pub const fn tuple_facts(fields: &[SchemaFacts]) -> SchemaFacts {
    let mut facts = SchemaFacts::scalar(BsonKind::Array, Some(5));
    facts.shape = Shape::FixedArray;
    let mut i = 0;
    while i < fields.len() {
        facts.depth = size::max_depth(facts.depth, fields[i].depth);
        let header = size::element_header(index_len(i));
        facts.max_size = size::add(facts.max_size, size::add(Some(header), fields[i].max_size));
        i += 1;
    }
    facts
}

/// Digits of an array index as a BSON key.
const fn index_len(mut i: usize) -> usize {
    let mut digits = 1;
    while i >= 10 {
        i /= 10;
        digits += 1;
    }
    digits
}

/// Facts of one enum variant as written: `overhead` bytes of tag around the content, and
/// one more level when the tag wraps the content in a document.
pub const fn variant_facts(overhead: u64, wraps: bool, content: SchemaFacts) -> SchemaFacts {
    let mut facts = content;
    facts.max_size = size::add(Some(overhead), content.max_size);
    facts.depth += wraps as u32;
    // a unit variant is `null` only when nothing tags it
    facts.nullable = content.nullable && overhead == 0;
    facts
}

/// Facts of a data-carrying enum: the worst of its variants.
pub const fn enum_facts(kind: BsonKind, variants: &[SchemaFacts]) -> SchemaFacts {
    let mut facts = SchemaFacts::scalar(kind, Some(0));
    if matches!(kind, BsonKind::Object) {
        facts.shape = Shape::Document;
    }
    let mut i = 0;
    while i < variants.len() {
        facts.depth = size::max_depth(facts.depth, variants[i].depth);
        facts.max_size = size::max(facts.max_size, variants[i].max_size);
        facts.nullable = facts.nullable || variants[i].nullable;
        i += 1;
    }
    facts
}

#[cfg(all(test, feature = "validator"))]
mod polymorphic_tests {
    use super::*;
    use crate::Validator;

    fn variant(name: &'static str, body: Body<'static>) -> Variant<'static> {
        Variant { name, body, untagged: false }
    }

    /// `{t: "a"}` or `{t: "b", c: <i32>}`: adjacently tagged.
    fn adjacent() -> Document {
        let variants = [variant("a", Body::Unit), variant("b", Body::Newtype(<i32 as MongoSchema>::FIELD))];
        enumeration(Repr::Adjacent { tag: "t", content: "c" }, &variants, &[])
    }

    /// `{kind: "x", x: <string>}` or `{kind: "y"}`: internally tagged.
    fn internal() -> Document {
        static X: [FieldFacts; 1] = [FieldFacts { name: "x", ..<String as MongoSchema>::FIELD }];
        let variants = [variant("x", Body::Struct(&X, &[], false)), variant("y", Body::Unit)];
        enumeration(Repr::Internal { tag: "kind" }, &variants, &[])
    }

    fn flattened(schema: fn() -> Document) -> FieldFacts {
        FieldFacts { flatten: true, schema, ..ALIAS_FIELD }
    }

    fn valid(schema: &Document, doc: Document) -> bool {
        Validator::new(schema).expect("the schema compiles").is_valid(&doc)
    }

    #[test]
    fn two_flattened_enums_are_both_required_and_their_tags_lifted() {
        let fields =
            [FieldFacts { name: "title", ..<String as MongoSchema>::FIELD }, flattened(adjacent), flattened(internal)];
        let schema = object(Some(&fields), &[], true, true);
        // the adjacent content key is not fixed to names: not lifted
        let required: Vec<Bson> = vec!["title".into(), "t".into(), "kind".into()];
        assert_eq!(schema.get_array("required").unwrap(), &required);
        assert_eq!(schema.get_array("allOf").map(Vec::len).ok(), Some(2));
        let properties = schema.get_document("properties").unwrap();
        assert_eq!(properties.get_document("t").unwrap(), &doc! { "enum": ["a", "b"] });
        assert_eq!(properties.get_document("kind").unwrap(), &doc! { "enum": ["x", "y"] });
        assert!(valid(&schema, doc! { "_id": 1, "title": "a", "t": "b", "c": 5, "kind": "x", "x": "s" }));
        assert!(valid(&schema, doc! { "title": "a", "t": "a", "kind": "y" }));
        // a variant's field under another tag, an unknown field, a wrong tag, a wrong content
        assert!(!valid(&schema, doc! { "title": "a", "t": "a", "c": 5, "kind": "y" }));
        assert!(!valid(&schema, doc! { "title": "a", "t": "a", "kind": "y", "zzz": 1 }));
        assert!(!valid(&schema, doc! { "title": "a", "t": "z", "kind": "y" }));
        assert!(!valid(&schema, doc! { "title": "a", "t": "b", "c": "five", "kind": "y" }));
    }

    #[test]
    fn an_optional_flattened_enum_is_left_alone() {
        let fields = [FieldFacts { flatten: true, schema: || nullable(internal()), ..ALIAS_FIELD }];
        let schema = object(Some(&fields), &[], false, false);
        assert!(!schema.contains_key("oneOf") && !schema.contains_key("required"), "{schema}");
    }
}

/// The tests behind the derive's compile-time rules: `const fn`s over a field's
/// [`SchemaFacts`], so type aliases, paths and generic parameters cannot hide what a
/// field holds. The derive emits `if test(facts) { panic!("rule_id: ...") }` at the field.
pub mod rules {
    use super::{BsonKind, FieldFacts, SchemaFacts, Shape};

    const fn same(a: BsonKind, b: BsonKind) -> bool {
        a as u8 == b as u8
    }

    /// The value, or for containers its items, is of `kind`.
    pub const fn holds(facts: SchemaFacts, kind: BsonKind) -> bool {
        same(facts.kind, kind)
            || (!matches!(facts.shape, Shape::Scalar | Shape::Document) && same(facts.item_kind, kind))
    }

    /// The value, or for containers its items, is a number.
    pub const fn holds_number(facts: SchemaFacts) -> bool {
        holds(facts, BsonKind::Int) || holds(facts, BsonKind::Long) || holds(facts, BsonKind::Double)
    }

    /// A sequence that can grow: `Vec`, `VecDeque`, sets (not `[T; N]` or tuples).
    pub const fn is_growable_array(facts: SchemaFacts) -> bool {
        matches!(facts.shape, Shape::Array | Shape::Set)
    }

    /// A map: a document with arbitrary keys.
    pub const fn is_map(facts: SchemaFacts) -> bool {
        matches!(facts.shape, Shape::Map)
    }

    /// An `_id` that increases: an ObjectId or an integer.
    pub const fn is_increasing_id(facts: SchemaFacts) -> bool {
        same(facts.kind, BsonKind::ObjectId) || facts.kind.is_integer()
    }

    /// serde writes the value through its default `Serialize` although `helper` is needed.
    pub const fn needs_helper(facts: SchemaFacts, helper: &str) -> bool {
        match facts.needs_helper {
            Some(needed) => str_eq(needed, helper),
            None => false,
        }
    }

    use mongo_schema_contract::helpers::{self, bytes_eq, str_eq};
    use mongo_schema_contract::keyword;
    pub use mongo_schema_contract::rules::check;
    use mongo_schema_contract::rules::messages::*;
    use mongo_schema_contract::rules::ConstMessage;

    const fn has(checks: u32, bit: u32) -> bool {
        checks & bit != 0
    }

    /// The helper a field's type needs and lacks, as its message.
    const fn silent(facts: SchemaFacts) -> Option<&'static str> {
        match facts.needs_helper {
            None => None,
            Some(helper) => Some(helpers::silent_message(helper)),
        }
    }

    /// Every field rule but `nesting_depth` in one evaluation: the message of the first
    /// that fails, or `None`. One call per field keeps the expansion to one small const
    /// item a field.
    pub const fn field(facts: SchemaFacts, checks: u32) -> Option<&'static str> {
        if has(checks, check::MONEY) && holds(facts, BsonKind::Double) {
            return Some(MONEY_DOUBLE);
        }
        if has(checks, check::DATE) && holds(facts, BsonKind::String) {
            return Some(STRING_DATE);
        }
        if has(checks, check::SILENT) {
            if let Some(message) = silent(facts) {
                return Some(message);
            }
        }
        if has(checks, check::ID) && !is_increasing_id(facts) {
            return Some(RANDOM_ID);
        }
        if has(checks, check::STATUS) && holds_number(facts) {
            return Some(NUMERIC_STATUS);
        }
        if has(checks, check::ARRAY) && is_growable_array(facts) {
            return Some(UNBOUNDED_ARRAY);
        }
        if has(checks, check::MAP) && is_map(facts) {
            return Some(UNBOUNDED_MAP);
        }
        None
    }

    /// `nesting_depth` at a field: the levels the document nests through it, when they
    /// exceed `max_depth` (the type's limit; 0: not checked). A field whose own type is
    /// deeper than `ceiling` (the greatest limit any type of the crate can have) is not
    /// reported: that type's own field check already was, where the limit is crossed, so
    /// seven levels give one error, not one per enclosing type.
    pub const fn too_deep(facts: SchemaFacts, checks: u32, max_depth: u32, ceiling: u32) -> Option<u32> {
        let levels = if has(checks, check::FLATTEN) { facts.depth } else { facts.depth + 1 };
        if max_depth > 0 && levels > max_depth && facts.depth <= ceiling {
            Some(levels)
        } else {
            None
        }
    }

    /// Fails the build at the caller (the field's span) when a field rule fails.
    #[track_caller]
    pub const fn assert_field(facts: SchemaFacts, checks: u32, max_depth: u32, ceiling: u32) {
        if let Some(message) = field(facts, checks) {
            fail(message);
        }
        if let Some(levels) = too_deep(facts, checks, max_depth, ceiling) {
            fail(mongo_schema_contract::rules::nesting_depth(levels, max_depth).as_str());
        }
    }

    /// [`assert_field`] for the field at `index` of a struct's `FIELDS` (or of a one-field
    /// table the derive writes for a variant's field), and with `check::KEYWORDS` its
    /// keywords against its facts.
    #[track_caller]
    pub const fn assert_field_at(
        fields: Option<&[FieldFacts]>,
        index: usize,
        checks: u32,
        max_depth: u32,
        ceiling: u32,
    ) {
        if let Some(fields) = fields {
            assert_field(fields[index].facts, checks, max_depth, ceiling);
            if has(checks, check::KEYWORDS) {
                assert_keywords(&fields[index]);
            }
        }
    }

    /// The field's keywords constrain the kind its facts say it has, and its first
    /// `items(...)` level the kind of its items (values): the derive asks this where the
    /// type's syntax does not show the kind (an alias, a path, a generic parameter).
    #[track_caller]
    const fn assert_keywords(field: &FieldFacts) {
        let facts = field.facts;
        assert_level(field.keywords, facts.kind, false);
        if field.items.is_empty() {
            return;
        }
        let item = match facts.shape {
            Shape::Array | Shape::Set | Shape::FixedArray | Shape::Map => facts.item_kind,
            // `bson_type = "array"`: items of no known kind
            Shape::Scalar if matches!(facts.kind, BsonKind::Array | BsonKind::Object) => BsonKind::Any,
            _ if matches!(facts.kind, BsonKind::Any | BsonKind::Mixed) => BsonKind::Any,
            _ => {
                let message = ConstMessage::new()
                    .str("`items(...)` constrains the items of an array or the values of a map, and this field's schema is `")
                    .str(alias(facts.kind))
                    .str("`: set the keywords on the field itself");
                fail(message.as_str())
            }
        };
        assert_level(field.items[0], item, true);
    }

    #[track_caller]
    const fn assert_level(keywords: &[super::Keyword], kind: BsonKind, item: bool) {
        let mut i = 0;
        while i < keywords.len() {
            let (spec, _) = keywords[i].parts();
            if !spec.applies.fits(kind) {
                fail(keyword::wrong_kind(spec, kind, item).as_str());
            }
            if let super::Keyword::Enum(values) = keywords[i] {
                let mut v = 0;
                while v < values.len() {
                    if !keyword::holds(kind, &values[v]) {
                        fail(keyword::unheld(&values[v], kind, item).as_str());
                    }
                    v += 1;
                }
            }
            i += 1;
        }
    }

    const fn alias(kind: BsonKind) -> &'static str {
        match kind.alias() {
            Some(alias) => alias,
            None => "a value of no single type",
        }
    }

    /// Fails the build with `message`, at the caller's span.
    #[track_caller]
    pub const fn fail(message: &str) -> ! {
        panic!("{}", message)
    }

    /// Fails the build with `before`, the depth found, then `after`, at the caller's span.
    #[track_caller]
    pub const fn fail_levels(before: &str, levels: u32, after: &str) -> ! {
        let message = mongo_schema_contract::rules::ConstMessage::new().str(before).number(levels as u64).str(after);
        panic!("{}", message.as_str())
    }

    /// A bound that is known and above `limit`.
    pub const fn exceeds(bound: Option<u64>, limit: u64) -> bool {
        match bound {
            Some(n) => n > limit,
            None => false,
        }
    }

    /// What a dotted path (`address.city`) of a collection root holds.
    #[derive(Clone, Copy)]
    pub enum Path {
        /// The facts at the end of the path, and how many arrays it passes through
        /// (the leaf included).
        Found(SchemaFacts, u32),
        /// A segment is not a field of its document.
        Missing,
        /// A segment lies in a value whose keys are not known (a map, an enum,
        /// `bson::Document`): MongoDB accepts any key there.
        Opaque,
    }

    /// Resolves `path` in `fields` (a root's `<T as MongoSchema>::FIELDS`), through
    /// embedded documents, arrays of documents and flattened fields.
    pub const fn path(fields: Option<&'static [FieldFacts]>, path: &str) -> Path {
        let (mut fields, mut rest, mut arrays) = (fields, path.as_bytes(), 0);
        loop {
            let (segment, next) = split_segment(rest);
            let Some(list) = fields else { return Path::Opaque };
            let Some(field) = find(list, segment) else {
                return if flattens_unknown_keys(list) { Path::Opaque } else { Path::Missing };
            };
            arrays += matches!(field.facts.shape, Shape::Array | Shape::Set | Shape::FixedArray) as u32;
            match next {
                None => return Path::Found(field.facts, arrays),
                Some(next) => (fields, rest) = (field.fields, next),
            }
        }
    }

    const fn split_segment(path: &[u8]) -> (&[u8], Option<&[u8]>) {
        let mut i = 0;
        while i < path.len() {
            if path[i] == b'.' {
                let (head, tail) = path.split_at(i);
                return (head, Some(tail.split_at(1).1));
            }
            i += 1;
        }
        (path, None)
    }

    const fn find(list: &'static [FieldFacts], name: &[u8]) -> Option<&'static FieldFacts> {
        let mut i = 0;
        while i < list.len() {
            let field = &list[i];
            if field.flatten {
                if let Some(inner) = field.fields {
                    if let Some(found) = find(inner, name) {
                        return Some(found);
                    }
                }
            } else if bytes_eq(field.name.as_bytes(), name) {
                return Some(field);
            }
            i += 1;
        }
        None
    }

    /// A flattened field whose keys the table does not list (an enum: its tag, content
    /// key and every variant's fields; a map): serde writes keys there that `find` cannot
    /// see, so a name missing from the table may be one of them.
    const fn flattens_unknown_keys(list: &'static [FieldFacts]) -> bool {
        let mut i = 0;
        while i < list.len() {
            let field = &list[i];
            if field.flatten {
                match field.fields {
                    None => return true,
                    Some(inner) => {
                        if flattens_unknown_keys(inner) {
                            return true;
                        }
                    }
                }
            }
            i += 1;
        }
        false
    }

    /// The path names no field of its document.
    pub const fn is_missing(path: Path) -> bool {
        matches!(path, Path::Missing)
    }

    /// The path's facts; for an unknown (opaque) value, `Any`, which no kind test fails.
    pub const fn facts_at(path: Path) -> SchemaFacts {
        match path {
            Path::Found(facts, _) => facts,
            _ => SchemaFacts::scalar(BsonKind::Any, None),
        }
    }

    /// How many arrays the path passes through.
    pub const fn arrays_on(path: Path) -> u32 {
        match path {
            Path::Found(_, arrays) => arrays,
            _ => 0,
        }
    }

    /// The length, in bytes of `path`, of its deepest prefix that holds an array (the
    /// leaf included), or `None` when it passes through none.
    pub const fn array_prefix(fields: Option<&'static [FieldFacts]>, path: &str) -> Option<usize> {
        let (mut fields, mut rest, mut start, mut deepest) = (fields, path.as_bytes(), 0, None);
        loop {
            let (segment, next) = split_segment(rest);
            let Some(list) = fields else { return deepest };
            let Some(field) = find(list, segment) else { return deepest };
            if matches!(field.facts.shape, Shape::Array | Shape::Set | Shape::FixedArray) {
                deepest = Some(start + segment.len());
            }
            match next {
                None => return deepest,
                Some(next) => {
                    (fields, rest) = (field.fields, next);
                    start += segment.len() + 1;
                }
            }
        }
    }

    /// Parallel arrays: two key paths of a compound index pass through arrays on
    /// different branches of the document (`tags` and `items.sku`). Keys through the
    /// same array (`specs.name`, `specs.value`), or through arrays nested along one
    /// path, are indexed by mongod.
    pub const fn parallel_arrays(fields: Option<&'static [FieldFacts]>, paths: &[&str]) -> bool {
        let mut i = 0;
        while i < paths.len() {
            let mut j = i + 1;
            while j < paths.len() {
                if let (Some(a), Some(b)) = (array_prefix(fields, paths[i]), array_prefix(fields, paths[j])) {
                    let (short, long, n) = if a <= b { (paths[i], paths[j], a) } else { (paths[j], paths[i], b) };
                    if !same_prefix(short.as_bytes(), long.as_bytes(), n) {
                        return true;
                    }
                }
                j += 1;
            }
            i += 1;
        }
        false
    }

    /// `long` starts with the first `n` bytes of `short`, ending on a segment boundary.
    const fn same_prefix(short: &[u8], long: &[u8], n: usize) -> bool {
        if long.len() < n || (long.len() > n && long[n] != b'.') {
            return false;
        }
        let mut i = 0;
        while i < n {
            if short[i] != long[i] {
                return false;
            }
            i += 1;
        }
        true
    }

    /// A value that is known not to be (or hold) a `kind`.
    pub const fn surely_not(facts: SchemaFacts, kind: BsonKind) -> bool {
        !holds(facts, kind) && !matches!(facts.kind, BsonKind::Any | BsonKind::Mixed)
    }

    /// A value whose type is not known here (`Any`: a path into a map or `bson::Document`).
    pub const fn is_unknown(facts: SchemaFacts) -> bool {
        matches!(facts.kind, BsonKind::Any)
    }

    /// A value of `kind` in every document: not an array of them, never `null`.
    pub const fn always(facts: SchemaFacts, kind: BsonKind) -> bool {
        same(facts.kind, kind) && !facts.nullable
    }

    /// Values that only grow: dates, timestamps, and (`object_id`: the document's own `_id`)
    /// ObjectIds, whose first bytes are their creation time.
    pub const fn is_monotonic(facts: SchemaFacts, object_id: bool) -> bool {
        matches!(facts.kind, BsonKind::Date | BsonKind::Timestamp)
            || (object_id && matches!(facts.kind, BsonKind::ObjectId))
    }
}
