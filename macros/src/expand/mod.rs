//! Code generation. The schema of a type is emitted as static tables (fields, keywords,
//! variants) that the runtime's non-generic builders in `__private` turn into a
//! `Document`; facts the rules need are `const` expressions over the fields' own
//! `<T as MongoSchema>::FACTS`, so aliases and generics cannot hide them.
//!
//! One file per seam, each using only those below it:
//!
//! ```text
//! (this root: expand, fallback) ─► collection ─► assert ─► schema ─► tokens
//!                                └► paths ─────────────────────────► tokens
//! ```
//!
//! `paths` writes the `Fields` paths; `collection` a root's `MongoCollection` impl, its
//! options and their geo-key checks; `assert` the rules' assertions as const checks, which
//! read a field's facts as `schema` writes them; `schema` the fields, keyword and variant
//! tables and the `SchemaFacts` expression; `tokens` the plumbing all of them write with.

mod assert;
mod collection;
mod paths;
mod schema;
mod tokens;

use crate::ir::{Container, Data};
use crate::rules::{Assertion, Facts, Test};
use proc_macro2::{Delimiter, Group, Ident, Punct, Spacing, Span, TokenStream};
use quote::{quote, ToTokens, TokenStreamExt};

use assert::{assertion, fields_check};
use collection::root_impl;
use paths::paths;
use schema::{enum_schema, fields_table, struct_schema, tagged_fields};
use tokens::parse_text;

/// The complete expansion for a checked container, with the rules' const assertions.
pub fn expand(c: &Container, assertions: &[Assertion]) -> TokenStream {
    let (schema, facts) = match &c.data {
        Data::Struct(style, fields) => struct_schema(c, *style, fields),
        Data::Enum(variants) => enum_schema(c, variants),
    };
    let schema = match c.is_root() {
        true if c.is_document_enum() => quote!(_p::polymorphic_root(#schema)),
        _ => schema,
    };
    let schema = match c.is_root() {
        true => {
            let limit = if c.mongo.options.timeseries.is_some() {
                quote!(MAX_TIMESERIES_DOCUMENT_SIZE)
            } else {
                quote!(MAX_DOCUMENT_SIZE)
            };
            quote!(_p::with_size_bound(#schema, <Self as _p::MongoSchema>::FACTS.max_size, _p::size::#limit))
        }
        false => schema,
    };
    let (facts, checks) = checked_facts(c, facts, assertions);
    let root = c.is_root().then(|| root_impl(c));
    let fields = fields_table(c);
    let tagged = tagged_fields(c);
    let (paths_type, paths) = paths(c);
    let body = quote! {
        type Fields = #paths_type;
        const FACTS: _p::SchemaFacts = #facts;
        #fields
        #tagged
        fn json_schema() -> _p::Document {
            #schema
        }
    };
    wrap(c.input, body, Some(quote!(#root #checks #paths)))
}

/// Where the assertions run. A non-generic type gets a `const _` item, evaluated by
/// `cargo check`. A generic type cannot name its parameters there: its assertions run
/// inside `FACTS`, when a concrete instance's facts are needed (a field of another model,
/// or `json_schema()` at `cargo build`).
fn checked_facts(c: &Container, facts: TokenStream, assertions: &[Assertion]) -> (TokenStream, Option<TokenStream>) {
    if assertions.is_empty() {
        return (facts, None);
    }
    if c.input.generics.params.is_empty() {
        let ident = &c.input.ident;
        let (own, owner) = (quote!(<#ident as _p::MongoSchema>::FACTS), ident.clone());
        let mut items = TokenStream::new();
        let mut item = |value: TokenStream| {
            items.extend(parse_text("const _: () ="));
            items.extend(std::iter::once(value));
            items.append(Punct::new(';', Spacing::Alone));
        };
        // the fields' checks: one item for them all (see `_p::rules::assert_fields`)
        let fields: Vec<(usize, u32, u32, (Span, Span))> = assertions
            .iter()
            .filter_map(|a| match a.test {
                Test::Field(checks, max_depth, Some(index)) => Some((index, checks, max_depth, a.span)),
                _ => None,
            })
            .collect();
        if let (Some(first), Some(last)) = (fields.first(), fields.last()) {
            let each: Vec<(usize, u32, u32)> =
                fields.iter().map(|&(index, checks, depth, _)| (index, checks, depth)).collect();
            item(fields_check(&owner, (first.3 .0, last.3 .1), &each));
        }
        // the type's own rules: one item each, as rustc stops evaluating an item at its
        // first panic
        for a in assertions.iter().filter(|a| !matches!(a.test, Test::Field(_, _, Some(_)))) {
            item(assertion(c, a, &own, Some(&owner)));
        }
        return (facts, Some(items));
    }
    let (own, owner) = (quote!(own), Ident::new("Self", Span::call_site()));
    let checks = assertions.iter().map(|a| assertion(c, a, &own, Some(&owner)));
    (quote!({ let own: _p::SchemaFacts = #facts; #(#checks;)* own }), None)
}

/// What a derive with rule errors still checks: the fields' assertions of a non-generic
/// type, so type rules are reported in the same build as naming errors.
pub fn fallback_checks(c: &Container, assertions: &[Assertion]) -> Option<TokenStream> {
    let fields: Vec<&Assertion> = assertions.iter().filter(|a| !matches!(a.facts, Facts::Own)).collect();
    if !c.input.generics.params.is_empty() || fields.is_empty() {
        return None;
    }
    let none = quote!(());
    let checks = fields.iter().map(|a| assertion(c, a, &none, None));
    let runtime = crate::attr::mongo::runtime_path(&c.input.attrs);
    Some(quote! {
        #[doc(hidden)]
        const _: () = {
            use #runtime::__private as _p;
            #(const _: () = #checks;)*
        };
    })
}

/// `impl MongoSchema` (and the root impl) inside `const _: () = { ... }`, with the
/// runtime named once.
pub fn wrap(input: &syn::DeriveInput, body: TokenStream, extra: Option<TokenStream>) -> TokenStream {
    let ident = &input.ident;
    let mut generics = input.generics.clone();
    for param in generics.type_params_mut() {
        param.bounds.push(syn::parse_quote!(_p::MongoSchema));
    }
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    let runtime = crate::attr::mongo::runtime_path(&input.attrs);
    // the fixed parts as text (see `parse_text`), every model has them
    let mut block = parse_text("use");
    runtime.to_tokens(&mut block);
    block.extend(parse_text("::__private as _p; #[automatically_derived] impl"));
    impl_generics.to_tokens(&mut block);
    block.extend(parse_text("_p::MongoSchema for"));
    ident.to_tokens(&mut block);
    ty_generics.to_tokens(&mut block);
    where_clause.to_tokens(&mut block);
    block.append(Group::new(Delimiter::Brace, body));
    block.extend(extra);
    let mut tokens = parse_text(
        "#[doc(hidden)] #[allow(non_upper_case_globals, unused_qualifications, dead_code, missing_docs, \
         private_interfaces, clippy::all)] const _: () =",
    );
    tokens.append(Group::new(Delimiter::Brace, block));
    tokens.append(Punct::new(';', Spacing::Alone));
    tokens
}

/// What a derive that failed still emits, so one bad model does not cascade into
/// "MongoSchema is not implemented" errors wherever it is used.
pub fn fallback(input: &syn::DeriveInput, container: Option<&Container>) -> TokenStream {
    let root = container.is_some_and(Container::is_root);
    let (paths_type, paths) = container.map_or((quote!(_p::Leaf), None), paths);
    let body = quote! {
        type Fields = #paths_type;
        const FACTS: _p::SchemaFacts = _p::SchemaFacts::scalar(_p::BsonKind::Any, ::core::option::Option::None);
        fn json_schema() -> _p::Document {
            _p::Document::new()
        }
    };
    let root = root.then(|| {
        let ident = &input.ident;
        let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
        quote! {
            #[automatically_derived]
            impl #impl_generics _p::MongoCollection for #ident #ty_generics #where_clause {
                const DB_NAME: &'static str = "";
                const COLLECTION_NAME: &'static str = "";
            }
        }
    });
    wrap(input, body, Some(quote!(#root #paths)))
}
