//! Code generation. The schema of a type is emitted as static tables (fields, keywords,
//! variants) that the runtime's non-generic builders in `__private` turn into a
//! `Document`; facts the rules need are `const` expressions over the fields' own
//! `<T as MongoSchema>::FACTS`, so aliases and generics cannot hide them.

use crate::attr::mongo::{Keyword, Lit};
use crate::ir::{Container, Data, Field, FieldType, Style, Variant};
use crate::rules::{Assertion, Branch, Facts, Test};
use mongo_schema_contract::bson::BsonKind;
use mongo_schema_contract::fields::{NULLABLE, REQUIRED, SKIPS_NONE};
use mongo_schema_contract::keyword::{Num, Value};
use mongo_schema_contract::rules::check;
use mongo_schema_contract::rules::INDEX_KEY;
use mongo_schema_contract::size;
use proc_macro2::{Delimiter, Group, Ident, Literal, Punct, Spacing, Span, TokenStream, TokenTree};
use quote::{quote, quote_spanned, ToTokens, TokenStreamExt};
use syn::spanned::Spanned;

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
    let variants = unit_variants(c);
    let (paths_type, paths) = paths(c);
    let body = quote! {
        type Fields = #paths_type;
        const FACTS: _p::SchemaFacts = #facts;
        #fields
        #variants
        fn json_schema() -> _p::Document {
            #schema
        }
    };
    let query_value = unit_query_value(c);
    wrap(c.input, body, Some(quote!(#root #checks #paths #query_value)))
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

/// The type's field paths (`MongoSchema::Fields`) and the items that define them. A struct
/// with a fields table gets one `{Type}Fields` struct: one method per written field,
/// returning the field type's own paths (so embedded types are not re-expanded) at
/// `parent.key`, or at `parent` for a flattened field, or a `Bounded` array for a field
/// with `max_items`; its `Display`, `Deref` and `From` impls come from one runtime macro
/// call. A newtype, a transparent struct and an `into` type have the inner type's paths;
/// generic structs, tuples, units and enums end a path (`Leaf`).
fn paths(c: &Container) -> (TokenStream, Option<TokenStream>) {
    let leaf = quote!(_p::Leaf);
    if let Some(into) = &c.serde.into {
        return (quote_spanned!(into.span()=> <#into as _p::MongoSchema>::Fields), None);
    }
    let Data::Struct(style, fields) = &c.data else { return (leaf, None) };
    let written: Vec<&Field> = fields.iter().filter(|f| f.is_written()).collect();
    match (style, c.serde.transparent, written.as_slice()) {
        (Style::Newtype, _, [field]) | (Style::Named, true, [field]) => return (field_paths(field), None),
        // opt-in (mongo-schema's `paths` feature): the struct costs `cargo check` time
        (Style::Named, false, _) if c.input.generics.params.is_empty() && cfg!(feature = "paths") => {}
        _ => return (leaf, None),
    }
    let ident = &c.input.ident;
    let mut name = quote::format_ident!("{}Fields", ident);
    // the struct lives in the expansion's block, where it would shadow a type of that
    // name that a field's type names
    if fields.iter().any(|f| type_mentions(&f.original.ty, &name)) {
        name = quote::format_ident!("__{}Fields", ident);
    }
    // pushed token by token into one stream, as the fields table is: a method per field of
    // every model, each join a call into the compiler from an unoptimised derive
    let call_site = Span::call_site();
    let mut methods = TokenStream::new();
    for field in &written {
        let max_items = field.mongo.keywords.list.iter().find_map(|(_, k)| match k {
            Keyword::MaxItems(n) => Some(*n),
            _ => None,
        });
        let bounded = match (field.serde.flatten, max_items, field.field_type()) {
            (false, Some(n), FieldType::Trait(_)) => Some(n),
            _ => None,
        };
        // `pub fn method(&self) -> Type { body }`
        methods.append(Ident::new("pub", call_site));
        methods.append(Ident::new("fn", call_site));
        methods.append(field.original.ident.clone().expect("named fields"));
        let mut receiver = TokenStream::new();
        receiver.append(Punct::new('&', Spacing::Alone));
        receiver.append(Ident::new("self", call_site));
        methods.append(Group::new(Delimiter::Parenthesis, receiver));
        methods.append(Punct::new('-', Spacing::Joint));
        methods.append(Punct::new('>', Spacing::Alone));
        if bounded.is_some() {
            path(&mut methods, &["_p", "Bounded"], call_site);
            methods.append(Punct::new('<', Spacing::Alone));
        }
        push_field_paths(&mut methods, field);
        if bounded.is_some() {
            methods.append(Punct::new('>', Spacing::Alone));
        }
        let mut body = TokenStream::new();
        let key = Literal::string(&field.name);
        match (field.serde.flatten, bounded) {
            // `_p::flat(&self.0)`
            (true, _) => {
                path(&mut body, &["_p", "flat"], call_site);
                body.append(Group::new(Delimiter::Parenthesis, self_path(true)));
            }
            // `_p::Bounded::new(self.0.join("key"), n)`
            (false, Some(n)) => {
                path(&mut body, &["_p", "Bounded", "new"], call_site);
                let mut args = self_path(false);
                args.append(Punct::new('.', Spacing::Alone));
                args.append(Ident::new("join", call_site));
                args.append(Group::new(Delimiter::Parenthesis, TokenTree::from(key).into()));
                args.append(Punct::new(',', Spacing::Alone));
                args.append(Literal::u64_suffixed(n));
                body.append(Group::new(Delimiter::Parenthesis, args));
            }
            // `_p::child(&self.0, "key")`
            (false, None) => {
                path(&mut body, &["_p", "child"], call_site);
                let mut args = self_path(true);
                args.append(Punct::new(',', Spacing::Alone));
                args.append(key);
                body.append(Group::new(Delimiter::Parenthesis, args));
            }
        }
        methods.append(Group::new(Delimiter::Brace, body));
    }
    let items = quote! {
        pub struct #name(_p::Path);
        impl #name { #methods }
        _p::fields_node!(#name);
    };
    (quote!(#name), Some(items))
}

/// `self.0`, or `&self.0`.
fn self_path(borrowed: bool) -> TokenStream {
    let mut tokens = TokenStream::new();
    if borrowed {
        tokens.append(Punct::new('&', Spacing::Alone));
    }
    tokens.append(Ident::new("self", Span::call_site()));
    tokens.append(Punct::new('.', Spacing::Alone));
    tokens.append(Literal::usize_unsuffixed(0));
    tokens
}

/// Whether a field's type names `name`: its paths, their generic arguments, and the types
/// inside references, arrays, slices, tuples and pointers.
fn type_mentions(ty: &syn::Type, name: &syn::Ident) -> bool {
    match ty {
        syn::Type::Path(p) => {
            p.qself.as_ref().is_some_and(|q| type_mentions(&q.ty, name))
                || p.path.segments.iter().any(|segment| {
                    segment.ident == *name
                        || match &segment.arguments {
                            syn::PathArguments::AngleBracketed(args) => args.args.iter().any(|arg| match arg {
                                syn::GenericArgument::Type(t) => type_mentions(t, name),
                                other => other.to_token_stream().into_iter().any(|t| mentions(&t, name)),
                            }),
                            syn::PathArguments::None => false,
                            other => other.to_token_stream().into_iter().any(|t| mentions(&t, name)),
                        }
                })
        }
        syn::Type::Reference(r) => type_mentions(&r.elem, name),
        syn::Type::Array(a) => type_mentions(&a.elem, name),
        syn::Type::Slice(s) => type_mentions(&s.elem, name),
        syn::Type::Ptr(p) => type_mentions(&p.elem, name),
        syn::Type::Paren(p) => type_mentions(&p.elem, name),
        syn::Type::Group(g) => type_mentions(&g.elem, name),
        syn::Type::Tuple(t) => t.elems.iter().any(|t| type_mentions(t, name)),
        other => other.to_token_stream().into_iter().any(|t| mentions(&t, name)),
    }
}

/// A field's paths: its type's `Fields`, or a `Leaf` when `bson_type` or a serde helper
/// decides what is written.
fn field_paths(field: &Field) -> TokenStream {
    let mut tokens = TokenStream::new();
    push_field_paths(&mut tokens, field);
    tokens
}

/// [`field_paths`] pushed into `tokens`: `<T as _p::MongoSchema>::Fields`, spanned at the
/// type, or `_p::Leaf`. Where syntax decides it (a primitive, an `Option` of one: `Leaf`; a
/// sequence of one: `Array<T>`), the type is spelled out: every model has many such fields,
/// and a projection costs the compiler a normalisation in the method's signature and body.
fn push_field_paths(tokens: &mut TokenStream, field: &Field) {
    let call_site = Span::call_site();
    let plain = field.plain_kind();
    if matches!(field.field_type(), FieldType::Trait(_) if field.known_kind().is_some())
        || matches!(plain, Some((_, false)))
    {
        return path(tokens, &["_p", "Leaf"], call_site);
    }
    if let (Some((_, true)), Some((_, item))) = (plain, crate::ir::single_argument(&field.original.ty)) {
        path(tokens, &["_p", "Array"], call_site);
        tokens.append(Punct::new('<', Spacing::Alone));
        item.to_tokens(tokens);
        tokens.append(Punct::new('>', Spacing::Alone));
        return;
    }
    match field.field_type() {
        FieldType::Trait(ty) => {
            let span = first_span(ty);
            tokens.append(spanned_punct('<', Spacing::Alone, span));
            ty.to_tokens(tokens);
            tokens.append(Ident::new("as", span));
            path(tokens, &["_p", "MongoSchema"], span);
            tokens.append(spanned_punct('>', Spacing::Alone, span));
            path_sep(tokens, span);
            tokens.append(Ident::new("Fields", span));
        }
        FieldType::Alias(_) => path(tokens, &["_p", "Leaf"], Span::call_site()),
    }
}

fn mentions(token: &proc_macro2::TokenTree, name: &syn::Ident) -> bool {
    match token {
        proc_macro2::TokenTree::Ident(ident) => ident == name,
        proc_macro2::TokenTree::Group(group) => group.stream().into_iter().any(|t| mentions(&t, name)),
        _ => false,
    }
}

/// `FIELDS`: the one table of a struct's written fields, from which the runtime builds
/// its schema and facts and resolves index, shard-key and time-series paths.
fn fields_table(c: &Container) -> Option<TokenStream> {
    // serde writes the inner value's document: its fields are this type's
    let inner = |ty: &dyn ToTokens| {
        Some(quote! {
            const FIELDS: ::core::option::Option<&'static [_p::FieldFacts]> = <#ty as _p::MongoSchema>::FIELDS;
            const NAME: &'static str = <#ty as _p::MongoSchema>::NAME;
        })
    };
    if let Some(into) = &c.serde.into {
        return inner(into);
    }
    let Data::Struct(style, fields) = &c.data else { return None };
    if !c.has_fields_table() {
        let written: Vec<&Field> = fields.iter().filter(|f| f.is_written()).collect();
        return match (style, c.serde.transparent, written.as_slice()) {
            (Style::Newtype, _, [field]) | (Style::Named, true, [field]) => match field.field_type() {
                FieldType::Trait(ty) => inner(ty),
                // `bson_type` or a helper decides what is written: no fields known
                FieldType::Alias(_) => None,
            },
            _ => None,
        };
    }
    let written: Vec<&Field> = fields.iter().filter(|f| f.is_written()).collect();
    let (count, name) = (written.len(), c.input.ident.to_string());
    // a non-generic struct's table is a `static`: the compiler checks a constant's value
    // through every reference in it, and a table refers to the tables of the types it
    // embeds, which would be checked again for every struct embedding them; it stops at
    // a static. (A generic struct cannot have a static.)
    let table = match c.input.generics.params.is_empty() {
        true => quote!({
            static FIELDS: [_p::FieldFacts; #count] = [#(#written),*];
            &FIELDS
        }),
        false => quote!(&[#(#written),*]),
    };
    Some(quote! {
        const FIELDS: ::core::option::Option<&'static [_p::FieldFacts]> = ::core::option::Option::Some(#table);
        const NAME: &'static str = #name;
    })
}

/// The collection options as static data: `TIMESERIES`, `CAPPED`, `COLLATION`, `CLUSTERED`,
/// `INDEXES`, `SHARD_KEY`. `INDEXES` carries the const checks of its geo keys (what each
/// key's field holds is known to the compiler only).
fn options_consts(c: &Container) -> TokenStream {
    let o = &c.mongo.options;
    let timeseries = o.timeseries.as_ref().map(|t| {
        let time = &t.time_field;
        let meta = option_str(t.meta_field.as_ref().map(|m| m.value()));
        let granularity = option_str(t.granularity.as_ref().map(|g| g.value()));
        let expire = option(t.expire_after_seconds);
        quote!(const TIMESERIES: ::core::option::Option<_p::Timeseries> = ::core::option::Option::Some(_p::Timeseries {
            time_field: #time, meta_field: #meta, granularity: #granularity, expire_after_seconds: #expire,
        });)
    });
    let capped = o.capped.as_ref().map(|cap| {
        let (size, max) = (cap.size, option(cap.max));
        quote!(const CAPPED: ::core::option::Option<_p::Capped> = ::core::option::Option::Some(_p::Capped { size: #size, max: #max });)
    });
    let collation = o.collation.as_ref().map(|collation| {
        let collation = collation_tokens(Some(collation));
        quote!(const COLLATION: ::core::option::Option<_p::Collation> = #collation;)
    });
    let clustered = o.clustered.as_ref().map(|cl| {
        let expire = option(cl.expire_after_seconds);
        quote!(const CLUSTERED: ::core::option::Option<_p::Clustered> = ::core::option::Option::Some(_p::Clustered { expire_after_seconds: #expire });)
    });
    let indexes = (!o.indexes.is_empty()).then(|| {
        let each = o.indexes.iter().map(|i| {
            let (name, unique, ttl) = (i.name(), i.unique, option(i.ttl.map(|(_, n)| n)));
            let keys = key_pattern(&i.keys);
            let partial = option_str(i.partial.as_ref().map(|p| p.value()));
            let (sparse, hidden) = (i.sparse.is_some(), i.hidden.is_some());
            // an index without its own collation takes the collection's, which mongod copies
            // into it (so drift compares like with like); text and 2d indexes compare no
            // strings and are given the simple collation mongod needs on such a collection
            let plugin_without_collation = i
                .keys
                .iter()
                .any(|k| matches!(k.kind, crate::attr::options::KeyKind::Text | crate::attr::options::KeyKind::Geo2d));
            let simple = o.collation.is_some() && i.collation.is_none() && plugin_without_collation;
            let collation = if simple {
                quote!(::core::option::Option::Some(_p::Collation::SIMPLE))
            } else {
                collation_tokens(i.collation.as_ref().or(o.collation.as_ref()))
            };
            let weights = i.weights.iter().flat_map(|(_, w)| w).map(|(path, _, weight)| {
                let weight = *weight as u32;
                quote!((#path, #weight))
            });
            let default_language = option_str(i.default_language.as_ref().map(|l| l.value()));
            let language_override = option_str(i.language_override.as_ref().map(|l| l.value()));
            let projection =
                i.wildcard_projection.iter().flat_map(|(_, p)| p).map(|(path, _, include)| quote!((#path, #include)));
            quote!(_p::Index {
                name: #name, keys: #keys, unique: #unique, ttl: #ttl, partial: #partial, sparse: #sparse,
                hidden: #hidden, collation: #collation, weights: &[#(#weights),*], default_language: #default_language,
                language_override: #language_override, wildcard_projection: &[#(#projection),*],
            })
        });
        let checks = geo_checks(c);
        quote!(const INDEXES: &'static [_p::Index] = { #checks &[#(#each),*] };)
    });
    let shard = o.shard_key.as_ref().map(|s| {
        let keys = key_pattern(&s.keys);
        quote!(const SHARD_KEY: &'static [(&'static str, _p::IndexKey)] = #keys;)
    });
    quote!(#timeseries #capped #collation #clustered #indexes #shard)
}

/// `Option<_p::Collation>` of a declared collation.
fn collation_tokens(collation: Option<&crate::attr::options::Collation>) -> TokenStream {
    let Some(c) = collation else { return quote!(::core::option::Option::None) };
    let locale = c.locale.value();
    let strength = match c.strength {
        Some(n) => quote!(::core::option::Option::Some(#n)),
        None => quote!(::core::option::Option::None),
    };
    let flag = |v: Option<bool>| match v {
        Some(b) => quote!(::core::option::Option::Some(#b)),
        None => quote!(::core::option::Option::None),
    };
    let (case_level, numeric_ordering, normalization, backwards) =
        (flag(c.case_level), flag(c.numeric_ordering), flag(c.normalization), flag(c.backwards));
    let (case_first, alternate, max_variable) =
        (option_str(c.case_first.clone()), option_str(c.alternate.clone()), option_str(c.max_variable.clone()));
    quote!(::core::option::Option::Some(_p::Collation {
        locale: #locale, strength: #strength, case_level: #case_level, case_first: #case_first,
        numeric_ordering: #numeric_ordering, alternate: #alternate, max_variable: #max_variable,
        normalization: #normalization, backwards: #backwards,
    }))
}

fn key_pattern(keys: &[crate::attr::options::Key]) -> TokenStream {
    let each = keys.iter().map(|k| {
        let path = &k.path;
        let kind = syn::Ident::new(k.kind.variant(), proc_macro2::Span::call_site());
        quote!((#path, _p::IndexKey::#kind))
    });
    quote!(&[#(#each),*])
}

fn option_str(value: Option<String>) -> TokenStream {
    match value {
        Some(s) => quote!(::core::option::Option::Some(#s)),
        None => quote!(::core::option::Option::None),
    }
}

/// One const item per geo key of a non-generic root: the field must be able to hold what
/// the index reads, an embedded document (GeoJSON, or `{x, y}`) or an array of numbers (a
/// legacy pair); on anything else mongod refuses every write (2dsphere: code 16755, "Can't
/// extract geo keys") or indexes nothing (2d). Spanned at the key, so the error points there.
fn geo_checks(c: &Container) -> TokenStream {
    if !c.input.generics.params.is_empty() {
        return TokenStream::new();
    }
    let ident = &c.input.ident;
    let checks = c.mongo.options.indexes.iter().flat_map(|i| &i.keys).filter(|k| k.kind.is_geo()).map(|k| {
        let path = &k.path;
        let message = format!(
            "{INDEX_KEY}: `{}` is a \"{}\" key, but `{}` cannot hold a location: mongod reads GeoJSON (an embedded \
             document such as `{{type: \"Point\", coordinates: [lng, lat]}}`) or a legacy pair (an array of two \
             numbers){}; make the field a struct (GeoJSON) or a `[f64; 2]` / `Vec<f64>`",
            k.path,
            k.kind.suffix(),
            k.path,
            if k.kind == crate::attr::options::KeyKind::Sphere2d {
                " and refuses every write where it holds anything else (code 16755, \"Can't extract geo keys ... geo \
                 element must be an array or object\")"
            } else {
                ", and indexes nothing else (a document whose field holds anything else is never found by a geo query)"
            }
        );
        let fail = spanned((k.span, k.span), quote!(_p::rules::fail), quote!(#message));
        quote! {
            const _: () = {
                let facts: _p::SchemaFacts = _p::rules::facts_at(_p::rules::path(<#ident as _p::MongoSchema>::FIELDS, #path));
                let numbers = ::core::matches!(
                    facts.item_kind,
                    _p::BsonKind::Int | _p::BsonKind::Long | _p::BsonKind::Double | _p::BsonKind::Decimal
                        | _p::BsonKind::Any | _p::BsonKind::Mixed
                );
                let fits = match facts.kind {
                    _p::BsonKind::Object | _p::BsonKind::Any | _p::BsonKind::Mixed => true,
                    _p::BsonKind::Array => numbers,
                    _ => false,
                };
                if !fits { #fail }
            };
        }
    });
    quote!(#(#checks)*)
}

fn root_impl(c: &Container) -> TokenStream {
    let ident = &c.input.ident;
    let (impl_generics, ty_generics, where_clause) = c.input.generics.split_for_impl();
    let db = &c.mongo.db;
    let collection = &c.mongo.collection;
    let level =
        c.mongo.validation_level.as_ref().map(|(_, v)| syn::Ident::new(v.variant(), proc_macro2::Span::call_site()));
    let action =
        c.mongo.validation_action.as_ref().map(|(_, v)| syn::Ident::new(v.variant(), proc_macro2::Span::call_site()));
    let level = level.map(|v| quote!(const VALIDATION_LEVEL: _p::ValidationLevel = _p::ValidationLevel::#v;));
    let action = action.map(|v| quote!(const VALIDATION_ACTION: _p::ValidationAction = _p::ValidationAction::#v;));
    let options = options_consts(c);
    let renames: Vec<TokenStream> = match &c.data {
        crate::ir::Data::Struct(_, fields) => fields
            .iter()
            .filter_map(|f| f.mongo.renamed_from.as_ref().map(|old| (f.name.as_str(), old)))
            .map(|(new, old)| quote!((#new, #old)))
            .collect(),
        crate::ir::Data::Enum(_) => Vec::new(),
    };
    let renames = (!renames.is_empty())
        .then(|| quote!(const RENAMES: &'static [(&'static str, &'static str)] = &[#(#renames),*];));
    // a generic root has no single type to register
    let register = c.input.generics.params.is_empty().then(|| {
        quote! {
            _p::inventory::submit! {
                _p::Registered::new(::core::concat!(::core::module_path!(), "::", ::core::stringify!(#ident)), _p::Registration::of::<#ident>)
            }
        }
    });
    quote! {
        #[automatically_derived]
        impl #impl_generics _p::MongoCollection for #ident #ty_generics #where_clause {
            const DB_NAME: &'static str = #db;
            const COLLECTION_NAME: &'static str = #collection;
            #level
            #action
            #options
            #renames
        }
        #register
    }
}

fn container_keywords(c: &Container) -> TokenStream {
    let mut keywords: Vec<Keyword> = c.mongo.keywords.list.iter().map(|(_, k)| k.clone()).collect();
    if let (false, Some(docs)) = (c.mongo.keywords.has_description(), &c.docs) {
        keywords.push(Keyword::Description(docs.clone()));
    }
    keywords_tokens(&keywords)
}

fn struct_schema(c: &Container, style: Style, fields: &[Field]) -> (TokenStream, TokenStream) {
    let keywords = container_keywords(c);
    if let Some(into) = &c.serde.into {
        let ty = quote_spanned!(into.span()=> <#into as _p::MongoSchema>);
        return (quote!(_p::annotate(#ty::json_schema(), &[#keywords])), quote!(#ty::FACTS));
    }
    let written: Vec<&Field> = fields.iter().filter(|f| f.is_written()).collect();
    match (style, c.serde.transparent, written.as_slice()) {
        (Style::Newtype, _, [field]) | (Style::Named, true, [field]) => {
            let facts = field_facts(field);
            (quote!(_p::transparent(&#field, &[#keywords])), facts)
        }
        (Style::Named, _, _) => {
            let (deny, root) = (c.serde.deny_unknown_fields, c.is_root());
            let fields = quote!(<Self as _p::MongoSchema>::FIELDS);
            let facts = match unbounded_by(&written) {
                // only the depth is left to compute, from the fields whose type can nest
                true => {
                    let nesting = written.iter().enumerate().filter(|(_, f)| can_nest(f)).map(|(i, _)| i);
                    quote!(_p::unbounded_object_facts(#fields, &[#(#nesting),*]))
                }
                false => quote!(_p::object_facts(#fields)),
            };
            (quote!(_p::object(#fields, &[#keywords], #deny, #root)), facts)
        }
        (Style::Unit, _, _) | (_, _, []) => {
            (quote!(_p::annotate(<() as _p::MongoSchema>::json_schema(), &[#keywords])), unit_facts())
        }
        (Style::Tuple | Style::Newtype, _, _) => {
            (quote!(_p::tuple(&[#(#written),*], &[#keywords])), tuple_facts(&written))
        }
    }
}

/// Some field is a `String` (or `Option<String>`) with no `max_length` or `pattern`: the
/// document has no size bound whatever the other fields hold, as `object_facts` would find.
fn unbounded_by(written: &[&Field]) -> bool {
    let is_string = |ty: &syn::Type| matches!(ty, syn::Type::Path(p) if p.qself.is_none() && p.path.is_ident("String"));
    written.iter().any(|f| {
        let bounded =
            f.mongo.keywords.list.iter().any(|(_, k)| matches!(k, Keyword::MaxLength(_) | Keyword::Pattern(_)));
        let string = match f.field_type() {
            FieldType::Trait(ty) => {
                is_string(ty)
                    || crate::ir::single_argument(ty).is_some_and(|(name, inner)| name == "Option" && is_string(inner))
            }
            FieldType::Alias(_) => false,
        };
        string && !bounded && !f.serde.flatten
    })
}

/// A field whose value may be a document: not a primitive, an `Option` or list of one, or a
/// `bson_type` / helper alias (all of depth 0).
fn can_nest(field: &Field) -> bool {
    field.serde.flatten || (field.known_kind().is_none() && field.plain_kind().is_none())
}

fn unit_facts() -> TokenStream {
    quote!(<() as _p::MongoSchema>::FACTS)
}

fn tuple_facts(fields: &[&Field]) -> TokenStream {
    let each = fields.iter().map(|f| field_facts(f));
    quote!(_p::tuple_facts(&[#(#each),*]))
}

fn option(value: Option<u64>) -> TokenStream {
    match value {
        Some(n) => quote!(::core::option::Option::Some(#n)),
        None => quote!(::core::option::Option::None),
    }
}

/// How serde writes an enum, from `tag` / `content` / `untagged`.
#[derive(Clone, Copy)]
enum Repr<'a> {
    External,
    Internal(&'a str),
    Adjacent(&'a str, &'a str),
    Untagged,
}

fn repr<'a>(c: &'a Container) -> Repr<'a> {
    match (&c.serde.tag, &c.serde.content, c.serde.untagged) {
        (_, _, true) => Repr::Untagged,
        (Some(tag), Some(content), _) => Repr::Adjacent(tag, content),
        (Some(tag), None, _) => Repr::Internal(tag),
        (None, _, _) => Repr::External,
    }
}

impl ToTokens for Repr<'_> {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        tokens.extend(match self {
            Repr::External => quote!(_p::Repr::External),
            Repr::Internal(tag) => quote!(_p::Repr::Internal { tag: #tag }),
            Repr::Adjacent(tag, content) => quote!(_p::Repr::Adjacent { tag: #tag, content: #content }),
            Repr::Untagged => quote!(_p::Repr::Untagged),
        });
    }
}

/// `VARIANTS` of an enum of unit variants written as strings (serde's external tagging):
/// the strings, for `query!`'s check of a literal against such a field.
fn unit_variants(c: &Container) -> Option<TokenStream> {
    let Data::Enum(variants) = &c.data else { return None };
    let written: Vec<&Variant> = variants.iter().filter(|v| !v.serde.skip_serializing).collect();
    let all_unit = written.iter().all(|v| v.style == Style::Unit && !v.serde.untagged);
    if !matches!(repr(c), Repr::External) || !all_unit || written.is_empty() {
        return None;
    }
    let names = written.iter().map(|v| &v.name);
    Some(quote!(const VARIANTS: &'static [&'static str] = &[#(#names),*];))
}

/// `query!`'s value impl of an enum of unit variants (see `unit_variants`): each variant's
/// string, so the enum is compared with the keys that store it.
fn unit_query_value(c: &Container) -> Option<TokenStream> {
    unit_variants(c)?;
    let Data::Enum(variants) = &c.data else { return None };
    if !c.input.generics.params.is_empty() {
        return None;
    }
    let syn::Data::Enum(data) = &c.input.data else { return None };
    let ident = &c.input.ident;
    let arms = data.variants.iter().zip(variants).filter(|(_, v)| !v.serde.skip_serializing).map(|(syn, v)| {
        let (variant, name) = (&syn.ident, &v.name);
        quote!(#variant => #name)
    });
    Some(quote!(_p::query_value!(#ident { #(#arms),* });))
}

fn enum_schema(c: &Container, variants: &[Variant]) -> (TokenStream, TokenStream) {
    let repr = repr(c);
    let keywords = container_keywords(c);
    let written: Vec<&Variant> = variants.iter().filter(|v| !v.serde.skip_serializing).collect();
    let all_unit = written.iter().all(|v| v.style == Style::Unit && !v.serde.untagged);
    let schema = if matches!(repr, Repr::External) && all_unit && !written.is_empty() {
        let names = written.iter().map(|v| &v.name);
        quote!(_p::unit_enum(&[#(#names),*], &[#keywords]))
    } else {
        let bodies = written.iter().map(|v| variant_tokens(c, v));
        quote!(_p::enumeration(#repr, &[#(#bodies),*], &[#keywords]))
    };
    let facts = match repr {
        Repr::External if all_unit => {
            let longest = written.iter().map(|v| v.name.len()).max().unwrap_or(0);
            let size = size::str_bytes(longest);
            quote!(_p::SchemaFacts::scalar(_p::BsonKind::String, ::core::option::Option::Some(#size)))
        }
        _ => {
            let kind = match repr {
                Repr::Internal(_) | Repr::Adjacent(..) => quote!(_p::BsonKind::Object),
                _ => quote!(_p::BsonKind::Mixed),
            };
            let each = written.iter().map(|v| variant_facts(repr, v));
            quote!(_p::enum_facts(#kind, &[#(#each),*]))
        }
    };
    (schema, facts)
}

fn variant_tokens(c: &Container, v: &Variant) -> TokenStream {
    let name = &v.name;
    let untagged = v.serde.untagged;
    let fields: Vec<&Field> = v.fields.iter().filter(|f| f.is_written()).collect();
    let body = match (v.style, fields.as_slice()) {
        (Style::Unit, _) | (_, []) => quote!(_p::Body::Unit),
        (Style::Newtype, [field]) => quote!(_p::Body::Newtype(#field)),
        (Style::Named, _) => {
            let keywords = keywords_tokens(v.mongo.keywords.list.iter().map(|(_, k)| k));
            let deny = c.serde.deny_unknown_fields;
            quote!(_p::Body::Struct(&[#(#fields),*], &[#keywords], #deny))
        }
        (Style::Tuple | Style::Newtype, _) => quote!(_p::Body::Tuple(&[#(#fields),*])),
    };
    quote!(_p::Variant { name: #name, body: #body, untagged: #untagged })
}

/// Facts of one variant as written: its content plus the tag's bytes and levels.
fn variant_facts(repr: Repr, v: &Variant) -> TokenStream {
    let fields: Vec<&Field> = v.fields.iter().filter(|f| f.is_written()).collect();
    let unit = matches!((v.style, fields.as_slice()), (Style::Unit, _) | (_, []));
    let content = match (v.style, fields.as_slice()) {
        _ if unit => unit_facts(),
        (Style::Newtype, [field]) => field_facts(field),
        (Style::Named, _) => quote!(_p::object_facts(::core::option::Option::Some(&[#(#fields),*]))),
        _ => tuple_facts(&fields),
    };
    let name = v.name.len();
    // `tag: "name"`
    let tag_element = |tag: &str| size::element_header(tag.len()) + size::str_bytes(name);
    let document = size::DOCUMENT_OVERHEAD;
    let repr = if v.serde.untagged { Repr::Untagged } else { repr };
    let (overhead, wraps): (u64, bool) = match repr {
        Repr::Untagged => (0, false),
        // "name"
        Repr::External if unit => (size::str_bytes(name), false),
        // {name: content}
        Repr::External => (document + size::element_header(name), true),
        // {tag: "name", ...content} (a unit variant: the document is the tag's own)
        Repr::Internal(tag) => (tag_element(tag) + if unit { document } else { 0 }, unit),
        // {tag: "name", content: content}
        Repr::Adjacent(tag, content) => (document + tag_element(tag) + size::element_header(content.len()), true),
    };
    quote!(_p::variant_facts(#overhead, #wraps, #content))
}

/// The facts of a value of a `bsonType` alias: `_p::aliases::{Kind}`, `null` admitted
/// for an `Option`.
fn alias_facts(alias: &str, nullable: bool) -> TokenStream {
    let kind = BsonKind::from_alias(alias).unwrap_or(BsonKind::Any).variant();
    let kind = syn::Ident::new(kind, proc_macro2::Span::call_site());
    quote!(_p::SchemaFacts { nullable: #nullable, .._p::aliases::#kind })
}

/// The facts of a field's value: its type's `FACTS`, or those of the BSON type its
/// `bson_type` or serde helper fixes.
fn field_facts(field: &Field) -> TokenStream {
    match field.field_type() {
        FieldType::Trait(ty) => quote_spanned!(first_span(ty)=> <#ty as _p::MongoSchema>::FACTS),
        FieldType::Alias(alias) => alias_facts(&alias, field.is_option()),
    }
}

/// A field's `FieldFacts`: what the field says, over `<T as MongoSchema>::FIELD` (the one
/// place its type is named, evaluated once per type), or over `_p::ALIAS_FIELD` when
/// `bson_type` or a known helper decides what is written.
impl ToTokens for Field<'_> {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        let name = &self.name;
        let ident = self.original.ident.as_ref().map(ToString::to_string).unwrap_or_default();
        // `nullable`: serde never writes null, and the validator admits it (other writers')
        let skips_none = self.skips_none() && self.mongo.nullable.is_none();
        let flags = [
            (self.serde.skip_serializing_if.is_none(), REQUIRED),
            (self.is_option(), NULLABLE),
            (skips_none, SKIPS_NONE),
        ];
        let flags: u8 = flags.iter().filter(|(set, _)| *set).map(|(_, bit)| bit).sum();
        let keywords: Vec<&Keyword> =
            self.mongo.keywords.list.iter().map(|(_, k)| k).filter(|k| !matches!(k, Keyword::BsonType(_))).collect();
        let keywords = (!keywords.is_empty()).then(|| keywords_text(keywords));
        let items = (!self.mongo.items.is_empty()).then(|| {
            let levels: Vec<String> = self
                .mongo
                .items
                .iter()
                .map(|level| format!("&[{}]", keywords_text(level.keywords.list.iter().map(|(_, k)| k))))
                .collect();
            format!(" items: &[{}],", levels.join(", "))
        });
        // What needs no span is written as text and lexed by the compiler in one call: a
        // proc macro pays a call into the compiler for every token it makes, and the derive
        // runs unoptimised in a debug build, for every field of every model. Only the type
        // keeps its tokens (and its span: an error about it points at the field).
        let call_site = Span::call_site();
        let mut text = format!("name: {name:?}, ident: {ident:?},");
        // the bases hold `REQUIRED` and no keywords: most fields need neither written
        if flags != REQUIRED {
            text += &format!(" flags: {flags}u8,");
        }
        if self.serde.flatten {
            text += " flatten: true,";
        }
        if let Some(items) = items {
            text += &items;
        }
        let own = match self.field_type() {
            FieldType::Trait(ty) => {
                if let Some(keywords) = keywords {
                    text += &format!(" keywords: &[{keywords}],");
                }
                text += " ..";
                let mut own = parse_text(&text);
                // `<T as _p::MongoSchema>::FIELD`, spanned at the type
                let span = first_span(ty);
                own.append(spanned_punct('<', Spacing::Alone, span));
                ty.to_tokens(&mut own);
                own.append(Ident::new("as", span));
                path(&mut own, &["_p", "MongoSchema"], span);
                own.append(spanned_punct('>', Spacing::Alone, span));
                path_sep(&mut own, span);
                own.append(Ident::new("FIELD", span));
                own
            }
            FieldType::Alias(alias) => {
                let facts = alias_facts(&alias, self.is_option());
                let keywords = keywords.map(|keywords| format!(", {keywords}")).unwrap_or_default();
                text += &format!(
                    " keywords: &[_p::Keyword::BsonType({alias:?}){keywords}], facts: {facts}, .._p::ALIAS_FIELD"
                );
                parse_text(&text)
            }
        };
        path(tokens, &["_p", "FieldFacts"], call_site);
        tokens.append(Group::new(Delimiter::Brace, own));
    }
}

/// Tokens of `text`, generated code that needs no span of the input: lexed by the compiler
/// in one call (spans: the call site).
fn parse_text(text: &str) -> TokenStream {
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
fn path(tokens: &mut TokenStream, segments: &[&str], span: Span) {
    for (i, segment) in segments.iter().enumerate() {
        if i > 0 {
            path_sep(tokens, span);
        }
        tokens.append(Ident::new(segment, span));
    }
}

fn path_sep(tokens: &mut TokenStream, span: Span) {
    tokens.append(spanned_punct(':', Spacing::Joint, span));
    tokens.append(spanned_punct(':', Spacing::Alone, span));
}

fn spanned_punct(ch: char, spacing: Spacing, span: Span) -> Punct {
    let mut punct = Punct::new(ch, spacing);
    punct.set_span(span);
    punct
}

/// The span errors about a type are reported at: its first token's, which is what
/// `Spanned::span` gives on a stable compiler (it cannot join spans), found here without
/// rendering the type's tokens for the common case of a path.
fn first_span(ty: &syn::Type) -> Span {
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
fn keywords_text<'k>(keywords: impl IntoIterator<Item = &'k Keyword>) -> String {
    keywords.into_iter().map(keyword_text).collect::<Vec<_>>().join(", ")
}

/// A list of keywords, comma-separated.
fn keywords_tokens<'k>(keywords: impl IntoIterator<Item = &'k Keyword>) -> TokenStream {
    let keywords = keywords.into_iter().map(keyword_tokens);
    quote!(#(#keywords),*)
}

/// An assertion as a `()` expression; `own` is the expression of the derived type's
/// facts, `owner` the type whose `FIELDS` it has (its name, or `Self`): a field's check
/// reads its facts there, so a field type without `MongoSchema` is reported once, by the
/// table.
fn assertion(c: &Container, a: &Assertion, own: &TokenStream, owner: Option<&Ident>) -> TokenStream {
    let facts = || match &a.facts {
        Facts::Own => own.clone(),
        Facts::Root => {
            let ident = &c.input.ident;
            quote!(<#ident as _p::MongoSchema>::FACTS)
        }
        Facts::Field(field) => field_facts(field),
        Facts::Path(path) => {
            let lookup = lookup(c, path);
            quote!(_p::rules::facts_at(#lookup))
        }
    };
    match (&a.test, owner) {
        (Test::Branches(branches), _) => {
            let branches = branches.iter().map(|(test, message)| {
                let fail = match (test, message.split_once(crate::rules::LEVELS)) {
                    (Branch::DeeperThan(_), Some((before, after))) => {
                        spanned(a.span, quote!(_p::rules::fail_levels), quote!(#before, facts.depth, #after))
                    }
                    _ => spanned(a.span, quote!(_p::rules::fail), quote!(#message)),
                };
                let test = branch(c, test);
                quote!(if #test { #fail })
            });
            let facts = facts();
            quote!({
                let facts: _p::SchemaFacts = #facts;
                #(#branches)else*
            })
        }
        (Test::Field(checks, max_depth, Some(index)), Some(owner)) => {
            fields_check(owner, a.span, &[(*index, *checks, *max_depth)])
        }
        (Test::Field(checks, max_depth, _), _) if checks & check::KEYWORDS != 0 => {
            // the keywords are in the field's own facts: a one-field table (a variant's or
            // tuple field, rare)
            let Facts::Field(field) = &a.facts else { return quote!(()) };
            let ceiling = crate::policy::current().policy.max_depth;
            let table = quote!(::core::option::Option::Some(&[#field]));
            spanned(a.span, quote!(_p::rules::assert_field_at), quote!(#table, 0, #checks, #max_depth, #ceiling))
        }
        (Test::Field(checks, max_depth, _), _) => {
            let (facts, ceiling) = (facts(), crate::policy::current().policy.max_depth);
            spanned(a.span, quote!(_p::rules::assert_field), quote!(#facts, #checks, #max_depth, #ceiling))
        }
    }
}

/// `_p::rules::assert_fields(<Owner as _p::MongoSchema>::FIELDS, rest)`: one call spanning
/// the checked fields, from the first one's start to the last one's end, so a const panic
/// inside the `#[track_caller]` runtime function is reported over them (its message names
/// each failing field); the table's path is spanned at the first, so an error in the table
/// (a generic field type's own rule) is noted there. `each` is `(index, checks, max_depth)`
/// per field, written as text (no span needed).
fn fields_check(owner: &Ident, (start, end): (Span, Span), each: &[(usize, u32, u32)]) -> TokenStream {
    let mut out = TokenStream::new();
    path(&mut out, &["_p", "rules", "assert_fields"], start);
    let mut args = TokenStream::new();
    args.append(spanned_punct('<', Spacing::Alone, start));
    let mut owner = owner.clone();
    owner.set_span(start);
    args.append(owner);
    args.append(Ident::new("as", start));
    path(&mut args, &["_p", "MongoSchema"], start);
    args.append(spanned_punct('>', Spacing::Alone, start));
    path_sep(&mut args, start);
    args.append(Ident::new("FIELDS", start));
    let each: Vec<String> =
        each.iter().map(|(index, checks, depth)| format!("({index}usize, {checks}u32, {depth}u32)")).collect();
    let ceiling = crate::policy::current().policy.max_depth;
    args.extend(parse_text(&format!(", &[{}], {ceiling}u32", each.join(", "))));
    let mut args = Group::new(Delimiter::Parenthesis, args);
    args.set_span(end);
    out.append(args);
    out
}

/// `_p::rules::path(<Root>::FIELDS, "a.b")`.
fn lookup(c: &Container, path: &str) -> TokenStream {
    let ident = &c.input.ident;
    quote!(_p::rules::path(<#ident as _p::MongoSchema>::FIELDS, #path))
}

/// A test over the local `facts`, as a `bool` expression.
fn branch(c: &Container, test: &Branch) -> TokenStream {
    match test {
        Branch::DeeperThan(max) => quote!(facts.depth > #max),
        Branch::TooLarge { timeseries } => {
            let limit = if *timeseries { quote!(MAX_TIMESERIES_DOCUMENT_SIZE) } else { quote!(MAX_DOCUMENT_SIZE) };
            quote!(_p::rules::exceeds(facts.max_size, _p::size::#limit))
        }
        Branch::Missing(path) => {
            let lookup = lookup(c, path);
            quote!(_p::rules::is_missing(#lookup))
        }
        Branch::NotAlwaysDate => quote!(!_p::rules::always(facts, _p::BsonKind::Date) && !_p::rules::is_unknown(facts)),
        Branch::SurelyNotDate => quote!(_p::rules::surely_not(facts, _p::BsonKind::Date)),
        Branch::ArrayKeys(paths) => {
            let ident = &c.input.ident;
            quote!(_p::rules::parallel_arrays(<#ident as _p::MongoSchema>::FIELDS, &[#(#paths),*]))
        }
        Branch::Monotonic(object_id) => quote!(_p::rules::is_monotonic(facts, #object_id)),
    }
}

/// `call(args)` as one expression spanning the field (or type), so a const panic inside
/// the `#[track_caller]` runtime function is reported there.
fn spanned((start, end): (Span, Span), call: TokenStream, args: TokenStream) -> TokenStream {
    let call = respan(call, start);
    let mut args = Group::new(Delimiter::Parenthesis, args);
    args.set_span(end);
    quote!(#call #args)
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
