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
use crate::ir::{Container, Data, Field, Style, Variant};
use proc_macro2::{Delimiter, Group, Span, TokenStream};
use quote::{quote, quote_spanned, ToTokens};

/// Runs every rule on `c`: errors go to `cx`, the returned assertions to the expansion.
pub fn all(cx: &Ctxt, c: &Container) -> Vec<Assertion> {
    naming::all(cx, c);
    let mut out = Vec::new();
    types::all(c, &mut out);
    bounds::all(cx, c, &mut out);
    options::all(cx, c, &mut out);
    out
}

/// A rule decided by the compiler: `if <test over facts> { panic!("<message>") }`,
/// spanned at the field (or type) so the error points there. Several branches share one
/// item when at most one of them can hold (a set is not also a map).
pub struct Assertion {
    /// A `SchemaFacts` expression; `None`: the facts of the type being derived.
    pub facts: Option<TokenStream>,
    /// `(a bool expression over the local `facts`, the message when it holds)`.
    pub branches: Vec<(TokenStream, String)>,
    pub span: (Span, Span),
}

impl Assertion {
    /// The check as a block; `own` is the expression of the derived type's facts.
    pub fn tokens(&self, own: &TokenStream) -> TokenStream {
        let facts = self.facts.as_ref().unwrap_or(own);
        let (start, end) = self.span;
        let branches = self.branches.iter().map(|(test, message)| {
            let path = quote_spanned!(start=> ::core::panic!);
            let mut args = Group::new(Delimiter::Parenthesis, quote!("{}", #message));
            args.set_span(end);
            quote!(if #test { #path #args })
        });
        quote! {
            {
                let facts: _p::SchemaFacts = #facts;
                #(#branches)else*
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

    /// The field's type as written, and its serde helper, for messages.
    pub fn type_name(&self) -> String {
        let ty = tidy(&self.field.original.ty.to_token_stream().to_string());
        match &self.field.serde.with {
            Some(with) => format!("`{ty}` with `#[serde(with = \"{}\")]`", with.value()),
            None => format!("`{ty}`"),
        }
    }
}

/// Tokens as people write them: `Option<f64>`, not `Option < f64 >`.
fn tidy(tokens: &str) -> String {
    let mut out = tokens.to_owned();
    for (from, to) in [(" :: ", "::"), (":: ", "::"), (" ::", "::"), (" < ", "<"), ("< ", "<"), (" <", "<"), (" >", ">"), (" ,", ","), ("& ", "&")] {
        out = out.replace(from, to);
    }
    out
}

/// `#[mongo(allow(rule, ...))]` in `list` names `rule`.
pub fn allows(list: &[Waiver], rule: &str) -> bool {
    list.iter().any(|w| w.rule == rule)
}

/// `(ident, ident)`: type-level errors point at the type's name.
pub fn type_span(c: &Container) -> (Span, Span) {
    (c.input.ident.span(), c.input.ident.span())
}
