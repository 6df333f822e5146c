//! Where a rule applies ([`Site`]: a written field, in its struct or variant) and the
//! waivers in force there.

use proc_macro2::Span;
use quote::{quote, ToTokens};

use crate::attr::mongo::Waiver;
use crate::ctxt::Ctxt;
use crate::ir::{Container, Data, Field, Style, Variant};

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
