//! Data-type rules (Specifications 9 and 10): what a field holds, asked of its type's
//! `SchemaFacts` by the one const check each field gets, so `type Money = f64;` cannot
//! hide a double. The messages live in the runtime (`__private::rules`).

use super::Site;
use crate::ctxt::Ctxt;
use crate::ir::FieldType;
use crate::symbol::*;
use mongo_schema_contract::bson::BsonKind;
use mongo_schema_contract::naming::NameKinds;
use mongo_schema_contract::rules::{check, messages};

/// The `check` bits of the type rules that apply at `site`, unwaived.
pub fn checks(site: &Site) -> u32 {
    // the name is split into words once for the three rules that read it
    let names = match site.is_member() {
        true => crate::policy::current().policy.conventions.name_kinds(&site.field.name),
        false => NameKinds::default(),
    };
    let rules = [
        (MONEY_DOUBLE, check::MONEY, money_double(site, names)),
        (STRING_DATE, check::DATE, string_date(site, names)),
        (SILENT_STRING, check::SILENT, silent_string(site)),
        (RANDOM_ID, check::ID, random_id(site)),
        (NUMERIC_STATUS, check::STATUS, names.status),
    ];
    rules.iter().filter(|(rule, _, applies)| *applies && !site.waives(rule)).map(|(_, bit, _)| bit).sum()
}

/// `money_double`: money is Decimal128, never a double: `0.1 + 0.2` in binary floating
/// point broke a bank reconciliation by hundreds (Specification 9).
fn money_double(site: &Site, names: NameKinds) -> bool {
    site.field.mongo.money || names.money
}

/// `string_date`: dates are BSON dates, never strings: a string date cannot use date
/// operators or range queries on an index (Specification 9).
fn string_date(site: &Site, names: NameKinds) -> bool {
    site.field.mongo.date || names.date
}

/// `silent_string`: the validator and the written data must agree; a `Decimal`, chrono
/// date or `Uuid` without its serde helper is written as something else than its schema
/// says, and the mismatch surfaces only when mongod refuses writes (Specification 9).
fn silent_string(site: &Site) -> bool {
    matches!(site.field.field_type(), FieldType::Trait(_))
}

/// `random_id`: `_id` is an ObjectId, an increasing integer or a date: random ids scatter index
/// writes and split B-tree pages, which cut one system's write rate to a third
/// (Specification 10).
fn random_id(site: &Site) -> bool {
    site.is_member() && site.field.name == "_id"
}

// `numeric_status` (a status is a string enum: `"status": 1` is a magic number nobody
// can read later, Specification 9) applies to members named as a status:
// `NameKinds::status`.

/// The type rules of a field whose BSON type is known, decided here rather than by a
/// const check: a scalar, an `Option` of a primitive, or (`growable`) a `Vec` or set of
/// primitives, which have no nesting or helper to check. In the order of the runtime's
/// `rules::field`, so the first failing rule is the one the const check would report.
/// `kind`: the value's or the items' kind, `None` for an alias of no single kind
/// (`number`, `undefined`, ...).
pub fn decide(cx: &Ctxt, site: &Site, kind: Option<BsonKind>, growable: bool, checks: u32) {
    let increasing = !growable && kind.is_some_and(BsonKind::increases);
    let verdicts = [
        (check::MONEY, kind == Some(BsonKind::Double), messages::MONEY_DOUBLE),
        (check::DATE, kind == Some(BsonKind::String), messages::STRING_DATE),
        (check::ID, !increasing, messages::RANDOM_ID),
        (check::STATUS, kind.is_some_and(BsonKind::is_number), messages::NUMERIC_STATUS),
        (check::ARRAY, growable, messages::UNBOUNDED_ARRAY),
    ];
    if let Some((_, _, message)) = verdicts.iter().find(|(bit, fails, _)| *fails && checks & bit != 0) {
        site.error(cx, message);
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::run;
    use syn::parse_quote;

    fn first_error(input: syn::DeriveInput) -> Option<String> {
        run(input).0.into_iter().next()
    }

    #[test]
    fn money_double_fires_on_a_double_money_field_only() {
        assert!(first_error(parse_quote! { struct A { total_amount: f64 } }).unwrap().starts_with("money_double:"));
        assert!(first_error(parse_quote! { struct A { #[mongo(money)] credits: f32 } })
            .unwrap()
            .starts_with("money_double:"));
        assert_eq!(first_error(parse_quote! { struct A { total_weight: f64 } }), None);
        assert_eq!(
            first_error(
                parse_quote! { struct A { #[mongo(allow(money_double, reason = "a rate"))] total_amount: f64 } }
            ),
            None
        );
    }

    #[test]
    fn string_date_fires_on_a_string_date_field_only() {
        assert!(first_error(parse_quote! { struct A { create_time: String } }).unwrap().starts_with("string_date:"));
        assert!(first_error(parse_quote! { struct A { #[mongo(date)] issued: String } })
            .unwrap()
            .starts_with("string_date:"));
        assert_eq!(first_error(parse_quote! { struct A { create_time: i64 } }), None);
    }

    #[test]
    fn random_id_fires_on_an_id_that_is_not_increasing() {
        assert!(first_error(parse_quote! { struct A { _id: String } }).unwrap().starts_with("random_id:"));
        assert_eq!(first_error(parse_quote! { struct A { _id: i64 } }), None);
        assert_eq!(first_error(parse_quote! { struct A { _id: bson::DateTime } }), None);
        // a helper decides what is written: hex strings are strings
        let hex = parse_quote! { struct A { #[serde(with = "bson::serde_helpers::object_id::AsHexString")] _id: Id } };
        assert!(first_error(hex).unwrap().starts_with("random_id:"));
    }

    #[test]
    fn numeric_status_fires_on_a_number_status_field_only() {
        assert!(first_error(parse_quote! { struct A { order_status: i32 } }).unwrap().starts_with("numeric_status:"));
        assert_eq!(first_error(parse_quote! { struct A { order_status: String } }), None);
        assert_eq!(
            first_error(parse_quote! { struct A { #[mongo(bson_type = "number")] order_status: Status } }),
            None
        );
    }

    #[test]
    fn silent_string_is_left_to_the_const_check_unless_a_helper_is_set() {
        let (errors, assertions) = run(parse_quote! { struct A { price_list: Decimal } });
        assert!(errors.is_empty() && assertions.len() == 1, "{errors:?} {assertions:?}");
        let with = parse_quote! {
            struct A { #[serde(with = "mongo_schema::serde_helpers::decimal128")] total_amount: Decimal }
        };
        let (errors, assertions) = run(with);
        assert!(errors.is_empty() && assertions.is_empty(), "{errors:?} {assertions:?}");
    }
}
