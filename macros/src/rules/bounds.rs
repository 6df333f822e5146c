//! Size rules (Specifications 5, 6 and 8): arrays and maps declare a bound, documents nest
//! at most `max_depth` levels, and a collection root that is bounded everywhere fits in
//! MongoDB's 16 MiB.

use super::{type_span, Assertion, Site};
use crate::attr::mongo::Keyword;
use crate::ctxt::Ctxt;
use crate::expand::FieldType;
use crate::ir::{Container, Data, Style};
use crate::symbol::*;
use proc_macro2::TokenStream;
use quote::{quote, ToTokens};

pub fn all(cx: &Ctxt, c: &Container, out: &mut Vec<Assertion>) {
    let sites = Site::all(c);
    for site in sites.iter().filter(|s| s.is_member()) {
        unbounded_array(cx, site, out);
    }
    recursion(cx, c, &sites);
    nesting_depth(c, &sites, out);
    document_size(c, out);
}

fn field_assertion(site: &Site, branches: Vec<(TokenStream, String)>) -> Assertion {
    let facts = Some(FieldType::of(site.field).facts(site.field));
    Assertion { facts, branches, span: site.span() }
}

/// `unbounded_array`: every array declares `max_items` (at most 1000, or the type's
/// `max_items_limit`) and every map `max_properties`: arrays pushed to forever reach the
/// 16 MiB limit and block writes (Specification 8).
fn unbounded_array(cx: &Ctxt, site: &Site, out: &mut Vec<Assertion>) {
    if site.waives(UNBOUNDED_ARRAY) {
        return;
    }
    let keywords = &site.field.mongo.keywords.list;
    let name = &site.field.name;
    let limit = site.c.mongo.max_items_limit.unwrap_or(DEFAULT_MAX_ITEMS);
    let mut branches = Vec::new();
    match keywords.iter().find(|(_, k)| matches!(k, Keyword::MaxItems(_))) {
        Some((span, Keyword::MaxItems(n))) if *n > limit => cx.syn_error(syn::Error::new(*span, format!(
            "unbounded_array: field `{name}` allows {n} items, above the limit of {limit}{}; keep at most {limit} \
             (the last N with `$push` + `$slice`) or move the items to their own collection (Specification 8)",
            if limit == DEFAULT_MAX_ITEMS { " the standard sets" } else { " set by `max_items_limit`" }
        ))),
        Some(_) => {}
        None => branches.push((quote!(_p::rules::is_growable_array(facts)), format!(
            "unbounded_array: field `{name}` is an array with no bound; declare `#[mongo(max_items = N)]` with N ≤ {limit} \
             and keep the last N with `$push` + `$slice`, or store the items as documents of their own collection: an \
             array that grows forever reaches the 16 MiB limit and blocks writes (Specification 8)"
        ))),
    }
    if !keywords.iter().any(|(_, k)| matches!(k, Keyword::MaxProperties(_))) {
        branches.push((quote!(_p::rules::is_map(facts)), format!(
            "unbounded_array: field `{name}` is a map (a document with arbitrary keys) with no bound; declare \
             `#[mongo(max_properties = N)]`, or store the entries as an array of documents with `max_items` \
             (Specification 8)"
        )));
    }
    if !branches.is_empty() {
        out.push(field_assertion(site, branches));
    }
}

/// The deepest nesting allowed in this type.
fn max_depth(c: &Container) -> u32 {
    c.mongo.max_depth.unwrap_or(DEFAULT_MAX_DEPTH)
}

/// `nesting_depth`: documents nest at most `max_depth` levels (the document itself
/// counts as one; default and greatest 5): an 8-level configuration needed `$set` paths
/// nobody wrote right and could not index its deep fields (Specification 6).
fn nesting_depth(c: &Container, sites: &[Site], out: &mut Vec<Assertion>) {
    let max = max_depth(c);
    let ident = &c.input.ident;
    let advice = "flatten it: move deep parts up to top-level fields, or into their own collection referenced by id";
    if matches!(c.data, Data::Struct(Style::Named, _)) && !c.serde.transparent && c.serde.into.is_none() {
        for site in sites.iter().filter(|s| !s.waives(NESTING_DEPTH)) {
            let levels = if site.field.serde.flatten { quote!(facts.depth) } else { quote!(facts.depth + 1) };
            let message = format!(
                "nesting_depth: field `{}` nests documents more than {max} levels deep in `{ident}` (counting `{ident}` \
                 itself; Specification 6 keeps documents within 3-5); {advice}",
                site.field.name
            );
            out.push(field_assertion(site, vec![(quote!(#levels > #max), message)]));
        }
    } else if !super::allows(&c.mongo.allow, NESTING_DEPTH) {
        let message = format!(
            "nesting_depth: `{ident}` nests documents more than {max} levels deep (Specification 6 keeps documents \
             within 3-5); {advice}"
        );
        out.push(Assertion { facts: None, branches: vec![(quote!(facts.depth > #max), message)], span: type_span(c) });
    }
}

/// A type that contains itself nests without bound, and `$jsonSchema` (no `$ref`) cannot
/// describe it: reported here rather than as a cycle in const evaluation.
fn recursion(cx: &Ctxt, c: &Container, sites: &[Site]) {
    let ident = &c.input.ident;
    for site in sites.iter().filter(|s| mentions(&s.field.original.ty, ident)) {
        cx.error_spanned_by(&site.field.original.ty, format!(
            "nesting_depth: field `{}` holds a `{ident}` inside `{ident}`: a recursive type nests without bound \
             (Specification 6) and a `$jsonSchema` cannot describe it; store the children as documents of their own \
             that reference their parent (`parentId: ObjectId`), or give each level its own type",
            site.field.name
        ));
    }
}

/// `ty` names `ident` (or `Self`) anywhere, e.g. `Vec<Option<Box<Node>>>`.
fn mentions(ty: &syn::Type, ident: &syn::Ident) -> bool {
    ty.to_token_stream().into_iter().any(|token| tree_mentions(&token, ident))
}

fn tree_mentions(token: &proc_macro2::TokenTree, ident: &syn::Ident) -> bool {
    match token {
        proc_macro2::TokenTree::Ident(i) => i == ident || i == "Self",
        proc_macro2::TokenTree::Group(g) => g.stream().into_iter().any(|t| tree_mentions(&t, ident)),
        _ => false,
    }
}

/// `document_size`: when every string, array and map of a collection root is bounded,
/// its worst-case encoded size fits in MongoDB's hard limit of 16 MiB (4 MiB in a
/// time-series collection); a larger document cannot be written at all
/// (Specification 5). Not waivable.
fn document_size(c: &Container, out: &mut Vec<Assertion>) {
    if !c.is_root() {
        return;
    }
    let ident = &c.input.ident;
    let (limit, what, constant) = match c.mongo.options.timeseries {
        Some(_) => ("4 MiB", "MongoDB's limit on a time-series measurement", quote!(MAX_TIMESERIES_DOCUMENT_SIZE)),
        None => ("16 MiB", "MongoDB's hard limit on a document", quote!(MAX_DOCUMENT_SIZE)),
    };
    let message = format!(
        "document_size: a `{ident}` document can reach more than {limit}, {what} \
         (its bound is `<{ident} as MongoCollection>::MAX_DOCUMENT_SIZE`); lower `max_length` / `max_items`, or move \
         large parts to their own collection (files to GridFS or object storage) (Specification 5)"
    );
    let test = quote!(_p::rules::exceeds(facts.max_size, _p::size::#constant));
    out.push(Assertion { facts: None, branches: vec![(test, message)], span: type_span(c) });
}
