//! Naming rules, decided by the names alone and reported at the attribute or field that
//! holds the name. The checks themselves live in the `mongo-schema-contract` crate, so
//! the runtime applies the same ones, under the crate policy's conventions.

use super::{allows, Site};
use crate::ctxt::Ctxt;
use crate::ir::Container;
use mongo_schema_contract::naming::{self as names, FieldCase, NameError};
use quote::ToTokens;

pub fn all(cx: &Ctxt, c: &Container) {
    db_name(cx, c);
    collection_name(cx, c);
    field_names(cx, c);
}

/// An error unless it is waivable and waived.
fn report(cx: &Ctxt, at: impl ToTokens, waived: impl Fn(&str) -> bool, result: Result<(), NameError>) {
    if let Err(error) = result {
        if !(error.waivable && waived(error.rule)) {
            cx.error_spanned_by(at, error);
        }
    }
}

/// `system_db` and `db_name`: business data stays out of MongoDB's own databases, and
/// database names are one lowercase, prefixed style.
fn db_name(cx: &Ctxt, c: &Container) {
    let Some(db) = &c.mongo.db else { return };
    let name = db.value();
    let conventions = &crate::policy::current().policy.conventions;
    let result = conventions.check_system_db(&name).and_then(|()| conventions.check_db_name(&name));
    report(cx, db, |rule| allows(&c.mongo.allow, rule), result);
}

/// `collection_name`: `t_` + module_entity, never MongoDB's `system.` or `$`.
fn collection_name(cx: &Ctxt, c: &Container) {
    let Some(collection) = &c.mongo.collection else { return };
    let conventions = &crate::policy::current().policy.conventions;
    report(cx, collection, |rule| allows(&c.mongo.allow, rule), conventions.check_collection_name(&collection.value()));
}

/// `field_name`: every key of a type in one style, none starting with `_` (but `_id`), no
/// `$` or `.`, no meaningless abbreviation.
fn field_names(cx: &Ctxt, c: &Container) {
    let sites: Vec<Site> = Site::all(c).into_iter().filter(Site::is_member).collect();
    let case = declared_or_inferred(c, &sites);
    let conventions = &crate::policy::current().policy.conventions;
    for site in &sites {
        let at = site.field.original.ident.as_ref();
        let name = &site.field.name;
        let result = conventions.check_field_name(name);
        let result = match (&result, &case) {
            (Ok(()), Some((case, why))) => names::check_field_case(name, *case, why),
            _ => result,
        };
        report(cx, at, |rule| site.waives(rule), result);
    }
}

/// The type's one style: `#[mongo(field_case)]`, else the crate policy's `field_case`,
/// else the style of its first field that fits only one.
fn declared_or_inferred(c: &Container, sites: &[Site]) -> Option<(FieldCase, String)> {
    if let Some((_, case)) = &c.mongo.field_case {
        return Some((*case, format!("declared by `#[mongo(field_case = \"{}\")]`", case.name())));
    }
    if let Some(case) = crate::policy::current().policy.field_case {
        return Some((
            case,
            format!("the crate's, `field_case = \"{}\"` in Cargo.toml [{}]", case.name(), crate::policy::TABLE),
        ));
    }
    sites.iter().find_map(|site| {
        let case = names::infer_case(&site.field.name)?;
        Some((
            case,
            format!(
                "inferred from the first such field, `{}`; declare it with `#[mongo(field_case = \"...\")]`",
                site.field.name
            ),
        ))
    })
}

#[cfg(test)]
mod tests {
    use crate::rules::run;
    use syn::parse_quote;

    fn errors(input: syn::DeriveInput) -> Vec<String> {
        run(input).0
    }

    #[test]
    fn system_databases_are_refused_even_when_waived() {
        let e = errors(parse_quote! {
            #[mongo(db = "admin", collection = "t_user", allow(db_name, reason = "legacy"))]
            struct User { name: String }
        });
        assert!(e.len() == 1 && e[0].starts_with("system_db:"), "{e:?}");
    }

    #[test]
    fn collection_names_fire_unless_waived() {
        let bad: syn::DeriveInput = parse_quote! {
            #[mongo(db = "db_shop", collection = "Orders")]
            struct Order { name: String }
        };
        assert!(errors(bad)[0].starts_with("collection_name:"));
        let waived = errors(parse_quote! {
            #[mongo(db = "db_shop", collection = "Orders", allow(collection_name, reason = "legacy"))]
            struct Order { name: String }
        });
        assert!(waived.is_empty(), "{waived:?}");
        assert!(errors(parse_quote! {
            #[mongo(db = "db_shop", collection = "t_order")]
            struct Order { name: String }
        })
        .is_empty());
    }

    #[test]
    fn one_field_style_per_type() {
        let e = errors(parse_quote! { struct User { userName: String, create_time: i64 } });
        assert!(e.len() == 1 && e[0].contains("`create_time` is not camelCase"), "{e:?}");
        let e = errors(parse_quote! {
            #[mongo(field_case = "snake_case")]
            struct User { userName: String }
        });
        assert!(e[0].contains("declared by `#[mongo(field_case = \"snake_case\")]`"), "{e:?}");
        // serde's rename_all decides the written names
        let e = errors(parse_quote! {
            #[serde(rename_all = "camelCase")]
            struct User { user_name: String, create_time: i64 }
        });
        assert!(e.is_empty(), "{e:?}");
    }

    #[test]
    fn abbreviations_and_reserved_characters_are_refused() {
        let e = errors(parse_quote! { struct User { #[serde(rename = "UN")] name: String } });
        assert!(e[0].contains("meaningless abbreviation"), "{e:?}");
        let e = errors(parse_quote! { struct User { #[serde(rename = "a.b")] name: String } });
        assert!(e[0].starts_with("field_name:") && e[0].contains("`$`, `.` or NUL"), "{e:?}");
    }

    #[test]
    fn the_abbreviation_rule_accepts_the_attribute_pattern() {
        let e = errors(parse_quote! { struct Spec { k: String, v: String, ts: i64 } });
        assert!(e.is_empty(), "{e:?}");
        let e = errors(parse_quote! { struct Spec { un: String, pwd: String } });
        assert!(e.len() == 1 && e[0].contains("field `un` looks like a meaningless abbreviation"), "{e:?}");
    }

    #[test]
    fn the_crate_policy_changes_the_verdicts() {
        use crate::policy::{with, Policy};
        use mongo_schema_contract::naming::FieldCase;
        let shop: fn() -> syn::DeriveInput = || {
            parse_quote! {
                #[mongo(db = "shop", collection = "orders")]
                struct Order { un: String, premium: f64, create_time: i64 }
            }
        };
        let standard = errors(shop());
        let rules: Vec<&str> = standard.iter().map(|e| e.split(':').next().unwrap()).collect();
        assert_eq!(rules, ["db_name", "collection_name", "field_name"], "{standard:?}");
        let mut policy = Policy::default();
        policy.conventions.db_prefix = String::new();
        policy.conventions.collection_prefix = String::new();
        policy.conventions.short_names = vec!["un".to_owned()];
        assert!(with(policy.clone(), || errors(shop())).is_empty());
        // the crate's style applies to types that declare none
        policy.field_case = Some(FieldCase::Camel);
        let e = with(policy.clone(), || errors(shop()));
        assert!(e.len() == 1 && e[0].contains("the crate's, `field_case = \"camelCase\"` in Cargo.toml"), "{e:?}");
        // a crate-wide waiver
        policy.allow = vec![("field_name".to_owned(), "legacy collections".to_owned())];
        assert!(with(policy.clone(), || errors(shop())).is_empty());
        // the crate's vocabularies: `premium` is money, `expires` a date
        policy.conventions.money_words = vec!["premium".to_owned()];
        policy.conventions.date_words = vec!["expires".to_owned()];
        let e = with(policy.clone(), || errors(shop()));
        assert!(e.len() == 1 && e[0].starts_with("money_double:"), "{e:?}");
        let e =
            with(policy, || errors(parse_quote! { struct Token { #[mongo(max_length = 30)] token_expires: String } }));
        assert!(e.len() == 1 && e[0].starts_with("string_date:"), "{e:?}");
    }
}
