//! Attribute parsing: the `#[serde(...)]` keys that change what is written, and every
//! `#[mongo(...)]` key.

pub mod grammar;
pub mod json;
pub mod mongo;
pub mod options;
pub mod serde;

use crate::ctxt::Ctxt;
use proc_macro2::TokenStream;
use quote::ToTokens;
use syn::meta::ParseNestedMeta;
use syn::Token;

/// A value set at most once; a second setting is an error at the key.
pub struct Attr<'c, T> {
    cx: &'c Ctxt,
    name: &'static str,
    tokens: TokenStream,
    value: Option<T>,
}

impl<'c, T> Attr<'c, T> {
    pub fn none(cx: &'c Ctxt, name: &'static str) -> Self {
        Attr { cx, name, tokens: TokenStream::new(), value: None }
    }

    pub fn set<A: ToTokens>(&mut self, at: A, value: T) {
        let tokens = at.into_token_stream();
        if self.value.is_some() {
            self.cx.error_spanned_by(tokens, format!("duplicate attribute `{}`", self.name));
        } else {
            self.tokens = tokens;
            self.value = Some(value);
        }
    }

    pub fn get(self) -> Option<T> {
        self.value
    }
}

/// A flag set at most once.
pub struct BoolAttr<'c>(Attr<'c, ()>);

impl<'c> BoolAttr<'c> {
    pub fn none(cx: &'c Ctxt, name: &'static str) -> Self {
        BoolAttr(Attr::none(cx, name))
    }

    pub fn set_true<A: ToTokens>(&mut self, at: A) {
        self.0.set(at, ());
    }

    pub fn get(&self) -> bool {
        self.0.value.is_some()
    }
}

/// Skips the value of a key we do not read (`= ...` or `(...)`), up to the next comma.
pub fn skip_value(meta: &ParseNestedMeta) -> syn::Result<()> {
    if meta.input.peek(Token![=]) {
        meta.input.parse::<Token![=]>()?;
    }
    while !meta.input.is_empty() && !meta.input.peek(Token![,]) {
        meta.input.parse::<proc_macro2::TokenTree>()?;
    }
    Ok(())
}

/// `key = "string"`.
pub fn string(meta: &ParseNestedMeta) -> syn::Result<syn::LitStr> {
    let input = meta.value()?;
    // the common case without parsing an expression (the derive runs unoptimised in a
    // debug build, for every attribute of every model)
    if input.peek(syn::LitStr)
        && (input.peek2(syn::Token![,]) || input.cursor().token_tree().is_some_and(|(_, rest)| rest.eof()))
    {
        return input.parse();
    }
    let expr: syn::Expr = input.parse()?;
    match expr {
        syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Str(s), .. }) => Ok(s),
        other => Err(syn::Error::new_spanned(other, format!("expected a string literal: `{} = \"...\"`", key(meta)))),
    }
}

/// The key of a nested meta item, for messages.
pub fn key(meta: &ParseNestedMeta) -> String {
    meta.path.to_token_stream().to_string().replace(' ', "")
}

/// Doc comments of an item, joined the way rustdoc shows them.
pub fn docs(attrs: &[syn::Attribute]) -> Option<String> {
    let lines: Vec<String> = attrs
        .iter()
        .filter(|attr| attr.path().is_ident(crate::symbol::DOC))
        .filter_map(|attr| match &attr.meta {
            syn::Meta::NameValue(syn::MetaNameValue {
                value: syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Str(s), .. }),
                ..
            }) => Some(s.value()),
            _ => None,
        })
        .map(|line| line.strip_prefix(' ').unwrap_or(&line).trim_end().to_owned())
        .collect();
    let text = lines.join("\n").trim().to_owned();
    (!text.is_empty()).then_some(text)
}
