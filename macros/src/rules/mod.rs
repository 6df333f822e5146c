//! The modelling rules of the data-modelling standard (RULES.md lists them by id).
//!
//! Rules that names decide push spanned errors into the sink at once. Rules that depend
//! on what a type holds become [`Assertion`]s: const checks over the field's
//! `<T as MongoSchema>::FACTS`, emitted at the field, so aliases, paths, re-exports and
//! generic parameters cannot hide a `f64` or a `Vec`.

mod bounds;
mod naming;
mod options;
mod types;

use crate::attr::mongo::Waiver;
use crate::ctxt::Ctxt;
use crate::ir::{Container, Data, Field, Style, Variant};
use proc_macro2::Span;
use quote::{quote, ToTokens};

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

/// A rule decided by the compiler, over a `SchemaFacts`, with its `panic!` spanned at the
/// field (or type) so the error points there. Data only: `expand` renders it.
pub struct Assertion<'a> {
    /// Whose facts the test reads.
    pub facts: Facts<'a>,
    pub test: Test,
    pub span: (Span, Span),
}

/// Whose `SchemaFacts` an assertion reads.
pub enum Facts<'a> {
    /// The type being derived (its `FACTS`, or the facts being built for a generic type).
    Own,
    /// The collection root, by name (`<Root as MongoSchema>::FACTS`).
    Root,
    /// A field's: its type's, or what its `bson_type` or serde helper fixes.
    Field(&'a Field<'a>),
    /// What a dotted path of the root holds (`_p::rules::facts_at`).
    Path(String),
}

pub enum Test {
    /// Exclusive branches, `(a test over the facts, the message when it holds)`, in one
    /// item (a set is not also a map).
    Branches(Vec<(Branch, String)>),
    /// Every field rule in one call of `_p::rules::assert_field`: the `check` bits that
    /// apply, the type's depth limit (0: unchecked), and the field's index in the type's
    /// `FIELDS` table if it has one. Messages live in the runtime, so a field costs one
    /// small item.
    Field(u32, u32, Option<usize>),
}

/// In a `DeeperThan` branch's message, where the depth found goes (a const panic cannot
/// format it: the expansion builds the message in const evaluation).
pub const LEVELS: &str = "{levels}";

/// One const test over an assertion's facts.
#[derive(Debug)]
pub enum Branch {
    /// The facts nest deeper than this many levels.
    DeeperThan(u32),
    /// The facts' bound exceeds MongoDB's document limit (4 MiB for time series).
    TooLarge { timeseries: bool },
    /// This dotted path names no field of the root.
    Missing(String),
    /// Not a date in every document (and known).
    NotAlwaysDate,
    /// Known not to be (or hold) a date.
    SurelyNotDate,
    /// Two of these paths pass through arrays on different branches (parallel arrays).
    ArrayKeys(Vec<String>),
    /// A value that only grows: a date or a timestamp, and an ObjectId when `true` (the
    /// document's own `_id`, generated at insert; an ObjectId field elsewhere references
    /// another document and does not grow with insert time).
    Monotonic(bool),
}

impl<'a> Assertion<'a> {
    pub fn branches(facts: Facts<'a>, branches: Vec<(Branch, String)>, span: (Span, Span)) -> Self {
        Assertion { facts, test: Test::Branches(branches), span }
    }

    fn field(site: &Site<'a>, checks: u32, max_depth: u32, index: Option<usize>) -> Self {
        Assertion { facts: Facts::Field(site.field), test: Test::Field(checks, max_depth, index), span: site.span() }
    }
}

/// Where a rule applies: a field, with the waivers in force there (field, variant, type).
pub struct Site<'a> {
    pub c: &'a Container<'a>,
    pub variant: Option<&'a Variant<'a>>,
    pub field: &'a Field<'a>,
}

impl<'a> Site<'a> {
    /// Every field serde writes, in structs and in variants.
    pub fn all(c: &'a Container<'a>) -> Vec<Site<'a>> {
        match &c.data {
            Data::Struct(_, fields) => {
                fields.iter().filter(|f| f.is_written()).map(|field| Site { c, variant: None, field }).collect()
            }
            Data::Enum(variants) => variants
                .iter()
                .filter(|v| !v.serde.skip_serializing)
                .flat_map(|v| {
                    v.fields.iter().filter(|f| f.is_written()).map(move |field| Site { c, variant: Some(v), field })
                })
                .collect(),
        }
    }

    /// A named field of a document (a struct or struct variant), written under its own key.
    pub fn is_member(&self) -> bool {
        let style = match (&self.c.data, self.variant) {
            (_, Some(variant)) => variant.style,
            (Data::Struct(style, _), None) => *style,
            (Data::Enum(_), None) => Style::Unit,
        };
        style == Style::Named && !self.field.serde.flatten && !self.c.serde.transparent
    }

    pub fn waives(&self, rule: &str) -> bool {
        let variant = self.variant.map(|v| v.mongo.allow.as_slice()).unwrap_or_default();
        [self.field.mongo.allow.as_slice(), variant, self.c.mongo.allow.as_slice()]
            .iter()
            .any(|list| allows(list, rule))
    }

    /// An error spanning the field from its name to the end of its type.
    pub fn error(&self, cx: &Ctxt, message: &str) {
        let (start, end) = self.span();
        let (start, end) = (syn::Ident::new("field", start), syn::Ident::new("ty", end));
        cx.error_spanned_by(quote!(#start #end), message);
    }

    /// `(first token of the field after its attributes, last token of its type)`.
    pub fn span(&self) -> (Span, Span) {
        let ty = &self.field.original.ty;
        let end = ty.to_token_stream().into_iter().last().map_or_else(Span::call_site, |t| t.span());
        let start = match &self.field.original.ident {
            Some(ident) => ident.span(),
            None => ty.to_token_stream().into_iter().next().map_or(end, |t| t.span()),
        };
        (start, end)
    }
}

/// `#[mongo(allow(rule, ...))]` in `list` names `rule`, or the crate policy waives it
/// crate-wide.
pub fn allows(list: &[Waiver], rule: &str) -> bool {
    list.iter().any(|w| w.rule == rule) || crate::policy::current().policy.allows(rule)
}

/// `(ident, ident)`: type-level errors point at the type's name.
pub fn type_span(c: &Container) -> (Span, Span) {
    (c.input.ident.span(), c.input.ident.span())
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
