//! The drafted file as Rust: the one place that knows Rust's syntax, the derive's
//! attributes and the paths of the types the models use. It writes the
//! [model](super::model) as decided, and decides nothing.

use super::draft::shown;
use super::model::{Container, Field, Helper, IndexKey, Item, Mongo, Serde, StringEnum, Struct, Tagged, Ty, Waiver};
use std::fmt::Write as _;

const HEADER: &str = "\
// Drafted by `schema infer` from the data: the target shape of each collection, what the
// modelling rules want, chosen from what the documents hold. Review every type, waiver and
// bound before adopting it (docs/INFER.md); `schema check` with these models lists the
// documents that must change.
#![allow(dead_code)]

use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};
";

const DERIVE: &str = "#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, MongoSchema)]\n";

/// The source of the drafted file: the header, then each item after a blank line.
pub(super) fn source(items: &[Item]) -> String {
    let mut out = String::from(HEADER);
    for item in items {
        out.push('\n');
        match item {
            Item::Struct(s) => structure(s, &mut out),
            Item::Tagged(t) => tagged(t, &mut out),
            Item::Enum(e) => string_enum(e, &mut out),
        }
    }
    out
}

/// The Rust type, as the field (or the report) writes it.
pub(super) fn ty(ty: &Ty) -> String {
    match ty {
        Ty::ObjectId => "mongo_schema::bson::oid::ObjectId".into(),
        Ty::String => "String".into(),
        Ty::Enum(name) | Ty::Struct(name) => name.clone(),
        Ty::Bool => "bool".into(),
        Ty::I32 => "i32".into(),
        Ty::I64 => "i64".into(),
        Ty::F64 => "f64".into(),
        Ty::Decimal => "rust_decimal::Decimal".into(),
        Ty::Date => "mongo_schema::bson::DateTime".into(),
        Ty::Uuid => "uuid::Uuid".into(),
        Ty::Binary => "mongo_schema::bson::Binary".into(),
        Ty::Timestamp => "mongo_schema::bson::Timestamp".into(),
        Ty::Regex => "mongo_schema::bson::Regex".into(),
        Ty::Map(value, _) => format!("std::collections::BTreeMap<String, {}>", self::ty(value)),
        Ty::Vec(item, _) => format!("Vec<{}>", self::ty(item)),
        Ty::Any => "mongo_schema::bson::Bson".into(),
    }
}

fn docs(lines: &[String], indent: &str, out: &mut String) {
    for line in lines {
        let _ = writeln!(out, "{indent}/// {}", shown(line));
    }
}

fn structure(s: &Struct, out: &mut String) {
    docs(&s.docs, "", out);
    out.push_str(DERIVE);
    if s.camel_case {
        out.push_str("#[serde(rename_all = \"camelCase\")]\n");
    }
    if !s.mongo.is_empty() {
        let _ = writeln!(out, "#[mongo({})]", container(&s.mongo));
    }
    let _ = writeln!(out, "pub struct {} {{", s.name);
    for f in &s.fields {
        field(f, "    ", "pub ", out);
    }
    out.push_str("}\n");
}

fn tagged(t: &Tagged, out: &mut String) {
    docs(&t.docs, "", out);
    out.push_str(DERIVE);
    let _ = writeln!(out, "#[serde(tag = {:?})]", t.tag);
    let _ = writeln!(out, "#[mongo({})]", container(&t.mongo));
    let _ = writeln!(out, "pub enum {} {{", t.name);
    for variant in &t.variants {
        docs(std::slice::from_ref(&variant.doc), "    ", out);
        let _ = writeln!(out, "    #[serde(rename = {:?})]", variant.value);
        let _ = writeln!(out, "    {} {{", variant.name);
        for f in &variant.fields {
            field(f, "        ", "", out);
        }
        out.push_str("    },\n");
    }
    out.push_str("}\n");
}

fn string_enum(e: &StringEnum, out: &mut String) {
    docs(&e.docs, "", out);
    out.push_str("#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, MongoSchema)]\n");
    let _ = writeln!(out, "pub enum {} {{", e.name);
    for (value, variant) in &e.variants {
        let _ = writeln!(out, "    #[serde(rename = {value:?})]\n    {variant},");
    }
    out.push_str("}\n");
}

/// A field at `indent`, `pub ` in a struct (`visibility`), nothing in a variant.
fn field(f: &Field, indent: &str, visibility: &str, out: &mut String) {
    docs(&f.docs, indent, out);
    if !f.serde.is_empty() {
        let args: Vec<String> = f.serde.iter().map(serde_arg).collect();
        let _ = writeln!(out, "{indent}#[serde({})]", args.join(", "));
    }
    if !f.mongo.is_empty() {
        let _ = writeln!(out, "{indent}#[mongo({})]", mongo_args(&f.mongo));
    }
    let rust = match f.option {
        true => format!("Option<{}>", ty(&f.ty)),
        false => ty(&f.ty),
    };
    let _ = writeln!(out, "{indent}{visibility}{}: {rust},", f.ident);
}

fn serde_arg(arg: &Serde) -> String {
    match arg {
        Serde::Rename(key) => format!("rename = {key:?}"),
        Serde::Alias(key) => format!("alias = {key:?}"),
        Serde::SkipNone => "skip_serializing_if = \"Option::is_none\"".into(),
        Serde::With(helper) => {
            let name = match helper {
                Helper::Decimal128 => "decimal128",
                Helper::Decimal128Option => "decimal128_option",
                Helper::UuidBinary => "uuid_binary",
                Helper::UuidBinaryOption => "uuid_binary_option",
            };
            format!("with = \"mongo_schema::serde_helpers::{name}\"")
        }
        Serde::Default => "default".into(),
        Serde::Flatten => "flatten".into(),
    }
}

fn mongo_args(args: &[Mongo]) -> String {
    let args: Vec<String> = args
        .iter()
        .map(|arg| match arg {
            Mongo::Nullable => "nullable".to_owned(),
            Mongo::RenamedFrom(old) => format!("renamed_from = {old:?}"),
            Mongo::MaxItems(n) => format!("max_items = {n}"),
            Mongo::MaxProperties(n) => format!("max_properties = {n}"),
            Mongo::Items(inner) => format!("items({})", mongo_args(inner)),
            Mongo::Allow(waiver) => allow(waiver),
        })
        .collect();
    args.join(", ")
}

fn allow(waiver: &Waiver) -> String {
    let rules: Vec<&str> = waiver.rules.iter().map(|r| r.id()).collect();
    format!("allow({}, reason = {:?})", rules.join(", "), waiver.reason)
}

fn container(args: &[Container]) -> String {
    let args: Vec<String> = args
        .iter()
        .map(|arg| match arg {
            Container::Db(db) => format!("db = {db:?}"),
            Container::Collection(collection) => format!("collection = {collection:?}"),
            Container::Allow(waiver) => allow(waiver),
            Container::Index(index) => {
                let keys: Vec<String> = index
                    .keys
                    .iter()
                    .map(|(path, key)| match key {
                        IndexKey::Direction(n) => format!("{path:?} = {n}"),
                        IndexKey::Kind(kind) => format!("{path:?} = {kind:?}"),
                    })
                    .collect();
                let mut attr = format!("index(keys({})", keys.join(", "));
                if index.unique {
                    attr.push_str(", unique");
                }
                let _ = write!(attr, ", name = {:?}", index.name);
                if let Some(seconds) = index.ttl {
                    let _ = write!(attr, ", ttl = {seconds}");
                }
                if let Some(json) = &index.partial {
                    let _ = write!(attr, ", partial = r#\"{json}\"#");
                }
                attr.push(')');
                attr
            }
        })
        .collect();
    args.join(", ")
}

#[cfg(test)]
mod tests {
    use super::super::model::{Index, Rule, TaggedVariant};
    use super::*;

    fn field(ident: &str, ty: Ty) -> Field {
        Field { docs: vec![format!("{ident}.")], ident: ident.into(), ty, option: false, serde: vec![], mongo: vec![] }
    }

    /// The renderer writes what the model says, and only that: the attributes in the
    /// model's order, `pub` fields in a struct, bare fields in a variant.
    #[test]
    fn the_model_as_rust() {
        let tags = Field {
            option: true,
            serde: vec![Serde::Rename("Tags".into()), Serde::SkipNone],
            mongo: vec![
                Mongo::Nullable,
                Mongo::MaxItems(20),
                Mongo::Items(vec![Mongo::MaxItems(2)]),
                Mongo::Allow(Waiver { rules: vec![Rule::FieldName], reason: "kept" }),
            ],
            ..field("tags", Ty::Vec(Box::new(Ty::Vec(Box::new(Ty::Any), 2)), 20))
        };
        let root = Struct {
            docs: vec!["`db.t`: 2\nread.".into()],
            name: "T".into(),
            camel_case: true,
            mongo: vec![
                Container::Db("db".into()),
                Container::Index(Index {
                    keys: vec![("a".into(), IndexKey::Direction(-1)), ("b".into(), IndexKey::Kind("hashed".into()))],
                    unique: true,
                    name: "a_b".into(),
                    ttl: Some(60),
                    partial: Some(r#"{"a":1}"#.into()),
                }),
            ],
            fields: vec![tags],
        };
        let tagged = Tagged {
            docs: vec![],
            name: "E".into(),
            tag: "kind".into(),
            mongo: vec![Container::Collection("e".into())],
            variants: vec![TaggedVariant {
                doc: "`kind: \"a\"`.".into(),
                value: "a".into(),
                name: "A".into(),
                fields: vec![Field { serde: vec![Serde::With(Helper::Decimal128)], ..field("amount", Ty::Decimal) }],
            }],
        };
        let values =
            StringEnum { docs: vec!["v.".into()], name: "V".into(), variants: vec![("é".into(), "E".into())] };
        let source = source(&[Item::Struct(root), Item::Tagged(tagged), Item::Enum(values)]);
        let items = &source[HEADER.len()..];
        assert_eq!(
            items,
            r##"
/// `db.t`: 2\nread.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(db = "db", index(keys("a" = -1, "b" = "hashed"), unique, name = "a_b", ttl = 60, partial = r#"{"a":1}"#))]
pub struct T {
    /// tags.
    #[serde(rename = "Tags", skip_serializing_if = "Option::is_none")]
    #[mongo(nullable, max_items = 20, items(max_items = 2), allow(field_name, reason = "kept"))]
    pub tags: Option<Vec<Vec<mongo_schema::bson::Bson>>>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, MongoSchema)]
#[serde(tag = "kind")]
#[mongo(collection = "e")]
pub enum E {
    /// `kind: "a"`.
    #[serde(rename = "a")]
    A {
        /// amount.
        #[serde(with = "mongo_schema::serde_helpers::decimal128")]
        amount: rust_decimal::Decimal,
    },
}

/// v.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, MongoSchema)]
pub enum V {
    #[serde(rename = "é")]
    E,
}
"##
        );
    }
}
