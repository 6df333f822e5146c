//! The modelling rules of the data-modelling standard (SPEC.md's table, RULES.md).
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
use crate::expand::{has_fields_table, FieldType};
use crate::ir::{Container, Data, Field, Style, Variant};
use proc_macro2::{Delimiter, Group, Span, TokenStream};
use quote::{quote, ToTokens};

/// Runs every rule on `c`: errors go to `cx`, the returned assertions to the expansion.
pub fn all(cx: &Ctxt, c: &Container) -> Vec<Assertion> {
    naming::all(cx, c);
    let mut out = Vec::new();
    // a struct's sites are its written fields in order: their index in its `FIELDS` table
    let table = has_fields_table(c);
    for (index, site) in Site::all(c).into_iter().enumerate() {
        let checks = types::checks(&site) | bounds::checks(cx, &site);
        if let Some(kind) = types::known_kind(&site) {
            types::decide(cx, &site, kind, checks);
            continue;
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
/// field (or type) so the error points there.
pub struct Assertion {
    /// A `SchemaFacts` expression; `None`: the facts of the type being derived.
    pub facts: Option<TokenStream>,
    pub test: Test,
    pub span: (Span, Span),
}

pub enum Test {
    /// Exclusive branches, `(a bool expression over the local `facts`, the message when
    /// it holds)`, in one item (a set is not also a map).
    Branches(Vec<(TokenStream, String)>),
    /// Every field rule in one call of `_p::rules::assert_field`: the `check` bits that
    /// apply, the type's depth limit (0: unchecked), and the field's index in the type's
    /// `FIELDS` table if it has one. Messages live in the runtime, so a field costs one
    /// small item.
    Field(u32, u32, Option<usize>),
}

impl Assertion {
    pub fn branches(facts: Option<TokenStream>, branches: Vec<(TokenStream, String)>, span: (Span, Span)) -> Self {
        Assertion { facts, test: Test::Branches(branches), span }
    }

    fn field(site: &Site, checks: u32, max_depth: u32, index: Option<usize>) -> Self {
        let facts = Some(FieldType::of(site.field).facts(site.field));
        Assertion { facts, test: Test::Field(checks, max_depth, index), span: site.span() }
    }

    /// `call(args)` as one expression spanning the field (or type), so a const panic inside
    /// the `#[track_caller]` runtime function is reported there.
    fn spanned(&self, call: TokenStream, args: TokenStream) -> TokenStream {
        let (start, end) = self.span;
        let call = respan(call, start);
        let mut args = Group::new(Delimiter::Parenthesis, args);
        args.set_span(end);
        quote!(#call #args)
    }

    /// The check as a `()` expression; `own` is the expression of the derived type's facts,
    /// `fields` of its `FIELDS` when it has them: a field's check reads its facts there,
    /// so a field type without `MongoSchema` is reported once, by the table.
    pub fn tokens(&self, own: &TokenStream, fields: Option<&TokenStream>) -> TokenStream {
        let facts = self.facts.as_ref().unwrap_or(own);
        match (&self.test, fields) {
            (Test::Branches(branches), _) => {
                let branches = branches.iter().map(|(test, message)| {
                    let fail = self.spanned(quote!(_p::rules::fail), quote!(#message));
                    quote!(if #test { #fail })
                });
                quote!({
                    let facts: _p::SchemaFacts = #facts;
                    #(#branches)else*
                })
            }
            (Test::Field(checks, max_depth, Some(index)), Some(fields)) => {
                // spanned too: an error in the table (a generic field type's own rule) is
                // then noted at this field
                let fields = respan(fields.clone(), self.span.0);
                self.spanned(quote!(_p::rules::assert_field_at), quote!(#fields, #index, #checks, #max_depth))
            }
            (Test::Field(checks, max_depth, _), _) => {
                self.spanned(quote!(_p::rules::assert_field), quote!(#facts, #checks, #max_depth))
            }
        }
    }
}

/// `tokens` with every span set to `span`, groups included.
fn respan(tokens: TokenStream, span: Span) -> TokenStream {
    tokens
        .into_iter()
        .map(|mut token| {
            if let proc_macro2::TokenTree::Group(group) = &token {
                let mut inner = Group::new(group.delimiter(), respan(group.stream(), span));
                inner.set_span(span);
                token = inner.into();
            }
            token.set_span(span);
            token
        })
        .collect()
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

/// `#[mongo(allow(rule, ...))]` in `list` names `rule`.
pub fn allows(list: &[Waiver], rule: &str) -> bool {
    list.iter().any(|w| w.rule == rule)
}

/// `(ident, ident)`: type-level errors point at the type's name.
pub fn type_span(c: &Container) -> (Span, Span) {
    (c.input.ident.span(), c.input.ident.span())
}
