//! `#[derive(MongoSchema)]`: MongoDB `$jsonSchema` validators from serde models.
//!
//! Flow, one way: tokens → syn → attributes (`attr`) → IR (`ir`, names after serde
//! renames, and the facts syntax decides) → checks and rules (`check`, `rules`: errors into
//! one sink, `ctxt`, and const assertions as data) → code generation (`expand`, the only
//! module that renders tokens). What the derive and the runtime must agree on (keywords,
//! aliases, helpers, rule ids and messages, check bits) is the `mongo-schema-contract`
//! crate's. Use it through the `mongo-schema`
//! crate, which re-exports it and provides the runtime it expands to.

#![forbid(unsafe_code)]

mod attr;
mod check;
mod ctxt;
mod expand;
mod field_path;
mod ir;
mod migrations;
#[cfg(test)]
mod never_panic;
mod policy;
mod query;
mod rules;
mod symbol;

use proc_macro2::TokenStream;

/// Derives `mongo_schema::MongoSchema` (and `MongoCollection` for collection roots).
/// See the `mongo-schema` crate for the attributes.
#[proc_macro_derive(MongoSchema, attributes(mongo))]
pub fn derive_mongo_schema(input: proc_macro::TokenStream) -> proc_macro::TokenStream {
    derive(input.into()).into()
}

/// The migrations directory `dir` (relative to the crate's `Cargo.toml`) embedded at
/// compile time: `mongo_schema::migrations!("migrations")` is a
/// `mongo_schema::migrate::Migrator`. See the `mongo-schema` crate.
#[proc_macro]
pub fn migrations(input: proc_macro::TokenStream) -> proc_macro::TokenStream {
    migrations::expand(input.into()).into()
}

/// `mongo_schema::path!`'s work: a field path checked against the model's fields table at
/// compile time. Called through `mongo_schema::path!`, which passes its `$crate` first.
#[doc(hidden)]
#[proc_macro]
pub fn field_path(input: proc_macro::TokenStream) -> proc_macro::TokenStream {
    field_path::expand(input.into()).into()
}

/// `mongo_schema::query!`'s work: a filter checked against the model at compile time.
/// Called through `mongo_schema::query!`, which passes its `$crate` first.
#[doc(hidden)]
#[proc_macro]
pub fn query(input: proc_macro::TokenStream) -> proc_macro::TokenStream {
    query::expand(input.into()).into()
}

/// The whole derive over proc_macro2 tokens: an expansion or spanned errors, never a
/// panic; with the crate policy's problems and its manifest as a tracked input.
fn derive(input: TokenStream) -> TokenStream {
    let loaded = policy::from_manifest();
    let expansion = policy::during(loaded.clone(), || derive_type(input));
    let problems = loaded.errors.iter().map(|e| syn::Error::new(proc_macro2::Span::call_site(), e).to_compile_error());
    // rustc records an included file as an input of the crate: cargo rebuilds when the
    // policy in it changes (emitted by the crate's first derive only)
    let tracked = loaded.track().and_then(|path| path.to_str()).map(|path| {
        quote::quote!(
            const _: &[u8] = ::core::include_bytes!(#path);
        )
    });
    quote::quote!(#expansion #(#problems)* #tracked)
}

fn derive_type(input: TokenStream) -> TokenStream {
    let input = match syn::parse2::<syn::DeriveInput>(input) {
        Ok(input) => input,
        Err(error) => return error.to_compile_error(),
    };
    let cx = ctxt::Ctxt::default();
    let Some(container) = ir::Container::from_ast(&cx, &input) else {
        return errors_and_fallback(cx, &input, None, None);
    };
    check::all(&cx, &container);
    if cx.has_errors() {
        return errors_and_fallback(cx, &input, Some(&container), None);
    }
    let assertions = rules::all(&cx, &container);
    if cx.has_errors() {
        let checks = expand::fallback_checks(&container, &assertions);
        return errors_and_fallback(cx, &input, Some(&container), checks);
    }
    expand::expand(&container, &assertions)
}

/// Every error of the type, a stub impl (with the type's field paths when it was
/// understood) so uses elsewhere still compile, and the type rules' checks when they can run.
fn errors_and_fallback(
    cx: ctxt::Ctxt,
    input: &syn::DeriveInput,
    container: Option<&ir::Container>,
    checks: Option<TokenStream>,
) -> TokenStream {
    let errors = cx.check().err().map(|e| e.to_compile_error());
    let fallback = expand::fallback(input, container);
    quote::quote!(#errors #fallback #checks)
}
