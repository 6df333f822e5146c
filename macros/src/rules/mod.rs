//! The modelling rules of the data-modelling standard (RULES.md lists them by id).
//!
//! Rules that names decide push spanned errors into the sink at once. Rules that depend
//! on what a type holds become [`Assertion`]s: const checks over the field's
//! `<T as MongoSchema>::FACTS`, emitted at the field, so aliases, paths, re-exports and
//! generic parameters cannot hide a `f64` or a `Vec`.

mod assertion;
mod bounds;
mod naming;
mod options;
mod site;
mod types;

use crate::ctxt::Ctxt;
use crate::ir::Container;

pub use assertion::{Assertion, Branch, Facts, Test, LEVELS};
pub use site::{allows, type_span, Site};

/// Runs every rule on `c`: errors go to `cx`, the returned assertions to the expansion.
pub fn all<'a>(cx: &Ctxt, c: &'a Container<'a>) -> Vec<Assertion<'a>> {
    naming::all(cx, c);
    let mut out = Vec::new();
    // a struct's sites are its written fields in order: their index in its `FIELDS` table
    let table = c.has_fields_table();
    for (index, site) in Site::all(c).into_iter().enumerate() {
        let mut checks = types::checks(&site) | bounds::checks(cx, &site);
        if let Some(kind) = site.field.known_kind() {
            types::decide(cx, &site, kind, false, checks);
            continue;
        }
        // `Option<i64>`, `Vec<String>`: the syntax shows every fact the rules ask
        if let Some((kind, growable)) = site.field.plain_kind() {
            types::decide(cx, &site, Some(kind), growable, checks);
            continue;
        }
        if crate::check::kinds(site.field).needs_facts {
            checks |= mongo_schema_contract::rules::check::KEYWORDS;
        }
        let max_depth = bounds::depth_limit(c, &site);
        if checks & !mongo_schema_contract::rules::check::FLATTEN != 0 || max_depth > 0 {
            out.push(Assertion::field(&site, checks, max_depth, table.then_some(index)));
        }
    }
    bounds::all(cx, c, &mut out);
    options::all(cx, c, &mut out);
    out
}

/// Runs the checks and rules on a type, for the rules' unit tests: the errors' messages,
/// and each assertion as `facts: test` (`amount: field 0b1 depth 5`).
#[cfg(test)]
pub(crate) fn run(input: syn::DeriveInput) -> (Vec<String>, Vec<String>) {
    let cx = Ctxt::default();
    let Some(c) = Container::from_ast(&cx, &input) else { return (vec![cx.check().unwrap_err().to_string()], vec![]) };
    crate::check::all(&cx, &c);
    let assertions = all(&cx, &c).iter().map(describe).collect();
    let errors = cx.check().err().map(|e| e.into_iter().map(|e| e.to_string()).collect()).unwrap_or_default();
    (errors, assertions)
}

#[cfg(test)]
fn describe(a: &Assertion) -> String {
    let facts = match &a.facts {
        Facts::Own => "own".to_owned(),
        Facts::Root => "root".to_owned(),
        Facts::Field(field) => field.name.clone(),
        Facts::Path(path) => format!("path {path}"),
    };
    let test = match &a.test {
        Test::Field(checks, depth, _) => format!("field {checks:#b} depth {depth}"),
        Test::Branches(branches) => {
            let tests: Vec<String> = branches.iter().map(|(test, _)| format!("{test:?}")).collect();
            tests.join(" | ")
        }
    };
    format!("{facts}: {test}")
}

#[cfg(test)]
mod tests {
    use super::run;
    use mongo_schema_contract::rules::check;
    use syn::parse_quote;

    #[test]
    fn a_field_whose_type_syntax_cannot_decide_gets_one_assertion() {
        let (errors, assertions) = run(parse_quote! {
            struct Order { total_amount: Money, #[mongo(max_items = 3)] lines: Vec<Line>, name: String }
        });
        assert_eq!(errors, Vec::<String>::new());
        let money = check::MONEY | check::SILENT | check::MAP;
        assert_eq!(
            assertions,
            [
                format!("total_amount: field {:#b} depth 5", money | check::ARRAY),
                format!("lines: field {:#b} depth 5", check::SILENT | check::MAP)
            ]
        );
    }

    #[test]
    fn waivers_apply_at_field_variant_and_type() {
        let (errors, _) = run(parse_quote! {
            #[mongo(allow(money_double, reason = "rates"))]
            struct Rates { amount: f64 }
        });
        assert!(errors.is_empty(), "{errors:?}");
        let (errors, _) = run(parse_quote! {
            enum Event { #[mongo(allow(money_double, reason = "rates"))] Paid { amount: f64 }, Refunded { amount: f64 } }
        });
        assert_eq!(errors.len(), 1, "{errors:?}");
    }
}
