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
use crate::expand::FieldType;
use crate::ir::{Container, Data, Field, Style, Variant};
use proc_macro2::{Delimiter, Group, Span, TokenStream};
use quote::{quote, quote_spanned, ToTokens};

/// Runs every rule on `c`: errors go to `cx`, the returned assertions to the expansion.
pub fn all(cx: &Ctxt, c: &Container) -> Vec<Assertion> {
    naming::all(cx, c);
    let mut out = Vec::new();
    for site in Site::all(c) {
        let mut checks = types::checks(&site);
        checks.extend(bounds::checks(cx, &site));
        if let Some(kind) = types::known_kind(&site) {
            types::decide(cx, &site, kind, &checks);
            continue;
        }
        let max_depth = bounds::depth_limit(c, &site);
        if checks.iter().any(|check| *check != bounds::FLATTEN) || max_depth > 0 {
            out.push(Assertion::field(&site, checks, max_depth));
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
    /// Every field rule in one call of `_p::rules::field`: the names of the
    /// `_p::rules::check` bits that apply, and the type's depth limit (0: unchecked).
    /// Messages live in the runtime, so a field costs one small item.
    Field(Vec<&'static str>, u32),
}

impl Assertion {
    pub fn branches(facts: Option<TokenStream>, branches: Vec<(TokenStream, String)>, span: (Span, Span)) -> Self {
        Assertion { facts, test: Test::Branches(branches), span }
    }

    fn field(site: &Site, checks: Vec<&'static str>, max_depth: u32) -> Self {
        let facts = Some(FieldType::of(site.field).facts(site.field));
        Assertion { facts, test: Test::Field(checks, max_depth), span: site.span() }
    }

    /// `panic!("{}", message)` spanning the field.
    fn panic(&self, message: TokenStream) -> TokenStream {
        let (start, end) = self.span;
        let path = quote_spanned!(start=> ::core::panic!);
        let mut args = Group::new(Delimiter::Parenthesis, quote!("{}", #message));
        args.set_span(end);
        quote!(#path #args)
    }

    /// The check as a block; `own` is the expression of the derived type's facts.
    pub fn tokens(&self, own: &TokenStream) -> TokenStream {
        let facts = self.facts.as_ref().unwrap_or(own);
        let body = match &self.test {
            Test::Branches(branches) => {
                let branches = branches.iter().map(|(test, message)| {
                    let panic = self.panic(quote!(#message));
                    quote!(if #test { #panic })
                });
                quote!(#(#branches)else*)
            }
            Test::Field(checks, max_depth) => {
                let bits = checks.iter().map(|c| syn::Ident::new(c, Span::call_site()));
                let panic = self.panic(quote!(message));
                quote! {
                    if let ::core::option::Option::Some(message) = _p::rules::field(facts, 0 #(| _p::rules::check::#bits)*, #max_depth) {
                        #panic
                    }
                }
            }
        };
        quote! {
            {
                let facts: _p::SchemaFacts = #facts;
                #body
            }
        }
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
            Data::Struct(_, fields) => fields.iter().filter(|f| f.is_written()).map(|field| Site { c, variant: None, field }).collect(),
            Data::Enum(variants) => variants
                .iter()
                .filter(|v| !v.serde.skip_serializing)
                .flat_map(|v| v.fields.iter().filter(|f| f.is_written()).map(move |field| Site { c, variant: Some(v), field }))
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
        [self.field.mongo.allow.as_slice(), variant, self.c.mongo.allow.as_slice()].iter().any(|list| allows(list, rule))
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
