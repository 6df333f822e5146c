//! Data-type rules (Specifications 9 and 10): what a field holds, asked of its type's
//! `SchemaFacts` by const assertions, so `type Money = f64;` cannot hide a double.

use super::{Assertion, Site};
use crate::expand::FieldType;
use crate::ir::Container;
use crate::symbol::*;
use mongo_schema_names as names;
use proc_macro2::TokenStream;
use quote::quote;

pub fn all(c: &Container, out: &mut Vec<Assertion>) {
    for site in Site::all(c) {
        money_double(&site, out);
        string_date(&site, out);
        silent_string(&site, out);
        random_id(&site, out);
        numeric_status(&site, out);
    }
}

/// An assertion over the field's facts, unless `rule` is waived there.
fn assert(site: &Site, rule: &str, out: &mut Vec<Assertion>, test: TokenStream, message: String) {
    assert_any(site, rule, out, vec![(test, message)]);
}

/// One assertion of exclusive branches, unless `rule` is waived there.
fn assert_any(site: &Site, rule: &str, out: &mut Vec<Assertion>, branches: Vec<(TokenStream, String)>) {
    if site.waives(rule) {
        return;
    }
    let facts = Some(FieldType::of(site.field).facts(site.field));
    let branches = branches.into_iter().map(|(test, message)| (test, format!("{rule}: {message}"))).collect();
    out.push(Assertion { facts, branches, span: site.span() });
}

/// `money_double`: money is Decimal128, never a double: `0.1 + 0.2` in binary floating
/// point broke a bank reconciliation by hundreds (Specification 9).
fn money_double(site: &Site, out: &mut Vec<Assertion>) {
    let name = &site.field.name;
    if !(site.field.mongo.money || site.is_member() && names::is_money_name(name)) {
        return;
    }
    let message = format!(
        "field `{name}` holds money but its type {} is written as a BSON double, which cannot hold 0.1 exactly; \
         use `rust_decimal::Decimal` with `#[serde(with = \"mongo_schema::serde_helpers::decimal128\")]` \
         (`decimal128_option` for an `Option`) so it is stored as Decimal128 (Specification 9)",
        site.type_name()
    );
    assert(site, MONEY_DOUBLE, out, quote!(_p::rules::holds(facts, _p::BsonKind::Double)), message);
}

/// `string_date`: dates are BSON dates, never strings: a string date cannot use date
/// operators or range queries on an index (Specification 9).
fn string_date(site: &Site, out: &mut Vec<Assertion>) {
    let name = &site.field.name;
    if !(site.field.mongo.date || site.is_member() && names::is_date_name(name)) {
        return;
    }
    let message = format!(
        "field `{name}` holds a date but its type {} is written as a BSON string, which range queries and date \
         operators cannot use; use `bson::DateTime`, or `chrono::DateTime<Utc>` with \
         `#[serde(with = \"bson::serde_helpers::datetime::FromChrono04DateTime\")]`, so it is stored as a BSON date \
         (Specification 9); if it is not a date, mark it `#[mongo(allow(string_date, reason = \"...\"))]`",
        site.type_name()
    );
    assert(site, STRING_DATE, out, quote!(_p::rules::holds(facts, _p::BsonKind::String)), message);
}

/// Types whose default serde form is a string although their schema says otherwise:
/// `(helper path held in FACTS.needs_helper, Rust type, BSON type, how serde writes it)`.
const SILENT: &[(&str, &str, &str, &str)] = &[
    ("mongo_schema::serde_helpers::decimal128", "rust_decimal::Decimal", "decimal", "as a string"),
    (
        "bson::serde_helpers::datetime::FromChrono04DateTime",
        "chrono::DateTime<Utc>",
        "date",
        "as an RFC 3339 string",
    ),
    (
        "bson::serde_helpers::uuid_1::AsBinary",
        "uuid::Uuid",
        "binData",
        "as a string to `bson::serialize_to_document` and as generic (subtype 0) binary to the driver",
    ),
];

/// `silent_string`: the validator and the written data must agree; a `Decimal`, chrono
/// date or `Uuid` without its serde helper is written as something else than its schema
/// says, and the mismatch surfaces only when mongod refuses writes (Specification 9).
fn silent_string(site: &Site, out: &mut Vec<Assertion>) {
    if !matches!(FieldType::of(site.field), FieldType::Trait(_)) {
        return;
    }
    let name = &site.field.name;
    let branches = SILENT.iter().map(|(helper, rust, bson, how)| {
        let message = format!(
            "field `{name}` holds a `{rust}`, which serde writes {how}, while its schema says `{bson}`; \
             add `#[serde(with = \"{helper}\")]` so the stored type matches the validator (for an `Option`, `Vec` \
             or map of it, use the helper's `Option` form where there is one, or a newtype that carries the helper)"
        );
        (quote!(_p::rules::needs_helper(facts, #helper)), message)
    });
    assert_any(site, SILENT_STRING, out, branches.collect());
}

/// `random_id`: `_id` is an ObjectId or an increasing integer: random ids scatter index
/// writes and split B-tree pages, which cut one system's write rate to a third
/// (Specification 10).
fn random_id(site: &Site, out: &mut Vec<Assertion>) {
    if !(site.is_member() && site.field.name == "_id") {
        return;
    }
    let message = format!(
        "`_id` has type {}, which is neither an ObjectId nor an integer; random `_id` values land all over the index and split its \
         pages (Specification 10): use `bson::oid::ObjectId` (the default), or an increasing `i64`, and keep the \
         business key in a field of its own with a unique index",
        site.type_name()
    );
    assert(site, RANDOM_ID, out, quote!(!_p::rules::is_increasing_id(facts)), message);
}

/// `numeric_status`: a status is a string enum: `"status": 1` is a magic number nobody
/// can read later (Specification 9).
fn numeric_status(site: &Site, out: &mut Vec<Assertion>) {
    let name = &site.field.name;
    if !(site.is_member() && names::is_status_name(name)) {
        return;
    }
    let message = format!(
        "field `{name}` is a status flag but its type {} is written as a number, a magic number nobody can read \
         later (Specification 9); use a unit enum that derives `MongoSchema` (e.g. `enum OrderStatus {{ Pending, Paid }}` \
         with `#[serde(rename_all = \"lowercase\")]`), which is stored and validated as a string enum",
        site.type_name()
    );
    assert(site, NUMERIC_STATUS, out, quote!(_p::rules::holds_number(facts)), message);
}
