//! A collection root's `MongoCollection` impl and registration: names, validation level and
//! action, renamed fields, and the collection options as static data (`TIMESERIES`,
//! `CAPPED`, `COLLATION`, `CLUSTERED`, `INDEXES`, `SHARD_KEY`) with the const checks of the
//! geo index keys.

use crate::ir::Container;
use mongo_schema_contract::rules::INDEX_KEY;
use proc_macro2::TokenStream;
use quote::quote;

use super::assert::spanned;
use super::tokens::option;

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

pub(super) fn root_impl(c: &Container) -> TokenStream {
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
