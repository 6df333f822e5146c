//! Token plumbing every other part of `expand` writes with: fixed code lexed from text,
//! paths and punctuation with a given span, and keywords as `_p::Keyword` values.

use crate::attr::mongo::{Keyword, Lit};
use mongo_schema_contract::keyword::{Num, Value};
use proc_macro2::{Ident, Punct, Spacing, Span, TokenStream};
use quote::{quote, TokenStreamExt};
use syn::spanned::Spanned;

/// `Some(n)` or `None`, spelled out for the generated code.
pub(super) fn option(value: Option<u64>) -> TokenStream {
    match value {
        Some(n) => quote!(::core::option::Option::Some(#n)),
        None => quote!(::core::option::Option::None),
    }
}

/// Tokens of `text`, generated code that needs no span of the input: lexed by the compiler
/// in one call (spans: the call site).
pub(super) fn parse_text(text: &str) -> TokenStream {
    // the compiler's lexer directly: proc_macro2's `parse` lexes the text once more first,
    // in its own code, which runs unoptimised like the rest of the derive
    if proc_macro::is_available() {
        if let Ok(tokens) = text.parse::<proc_macro::TokenStream>() {
            return tokens.into();
        }
    }
    text.parse().unwrap_or_else(|e| {
        let message = format!("mongo-schema's derive wrote code that does not lex ({e}), a bug to report: {text}");
        quote!(::core::compile_error!(#message))
    })
}

/// `a::b::c` into `tokens`.
pub(super) fn path(tokens: &mut TokenStream, segments: &[&str], span: Span) {
    for (i, segment) in segments.iter().enumerate() {
        if i > 0 {
            path_sep(tokens, span);
        }
        tokens.append(Ident::new(segment, span));
    }
}

pub(super) fn path_sep(tokens: &mut TokenStream, span: Span) {
    tokens.append(spanned_punct(':', Spacing::Joint, span));
    tokens.append(spanned_punct(':', Spacing::Alone, span));
}

pub(super) fn spanned_punct(ch: char, spacing: Spacing, span: Span) -> Punct {
    let mut punct = Punct::new(ch, spacing);
    punct.set_span(span);
    punct
}

/// The span errors about a type are reported at: its first token's, which is what
/// `Spanned::span` gives on a stable compiler (it cannot join spans), found here without
/// rendering the type's tokens for the common case of a path.
pub(super) fn first_span(ty: &syn::Type) -> Span {
    match ty {
        syn::Type::Path(p) if p.qself.is_none() => match (&p.path.leading_colon, p.path.segments.first()) {
            (Some(colon), _) => colon.spans[0],
            (None, Some(segment)) => segment.ident.span(),
            (None, None) => ty.span(),
        },
        _ => ty.span(),
    }
}

/// `_p::Num::Int(3)`
fn num_tokens(n: &Num) -> TokenStream {
    match n {
        Num::Int(n) => quote!(_p::Num::Int(#n)),
        Num::Float(f) => quote!(_p::Num::Float(#f)),
    }
}

/// `_p::Lit::Str("a")`
fn lit_tokens(lit: &Lit) -> TokenStream {
    match lit {
        Lit::Str(s) => quote!(_p::Lit::Str(#s)),
        Lit::Int(n) => quote!(_p::Lit::Int(#n)),
        Lit::Float(f) => quote!(_p::Lit::Float(#f)),
        Lit::Bool(b) => quote!(_p::Lit::Bool(#b)),
    }
}

/// `_p::Keyword::{variant}(value)`, the variant named by the contract's keyword table.
fn keyword_tokens(keyword: &Keyword) -> TokenStream {
    let (spec, value) = keyword.parts();
    let variant = syn::Ident::new(spec.variant, proc_macro2::Span::call_site());
    let value = match value {
        Value::Str(s) => quote!(#s),
        Value::Count(n) => quote!(#n),
        Value::Num(n) => num_tokens(&n),
        Value::Bool(b) => quote!(#b),
        Value::Lits(values) => {
            let values = values.iter().map(lit_tokens);
            quote!(&[#(#values),*])
        }
    };
    quote!(_p::Keyword::#variant(#value))
}

/// [`keyword_tokens`] as text (for code written as text: see `parse_text`).
fn keyword_text(keyword: &Keyword) -> String {
    let (spec, value) = keyword.parts();
    let value = match value {
        Value::Str(s) => format!("{s:?}"),
        Value::Count(n) => format!("{n}u64"),
        Value::Bool(b) => b.to_string(),
        // rare: the tokens, as text
        Value::Num(_) | Value::Lits(_) => return keyword_tokens(keyword).to_string(),
    };
    format!("_p::Keyword::{}({value})", spec.variant)
}

/// A list of keywords as text, comma-separated.
pub(super) fn keywords_text<'k>(keywords: impl IntoIterator<Item = &'k Keyword>) -> String {
    keywords.into_iter().map(keyword_text).collect::<Vec<_>>().join(", ")
}

/// A list of keywords, comma-separated.
pub(super) fn keywords_tokens<'k>(keywords: impl IntoIterator<Item = &'k Keyword>) -> TokenStream {
    let keywords = keywords.into_iter().map(keyword_tokens);
    quote!(#(#keywords),*)
}
