//! Size rules: arrays and maps declare a bound, documents nest
//! at most `max_depth` levels, and a collection root that is bounded everywhere fits in
//! MongoDB's 16 MiB.

use super::{type_span, Assertion, Branch, Facts, Site};
use crate::attr::mongo::Keyword;
use crate::ctxt::Ctxt;
use crate::ir::{Container, Data, Style};
use crate::symbol::*;
use mongo_schema_contract::rules::check;
use quote::ToTokens;

/// The rules of the type as a whole; the field rules are in [`checks`] and [`depth_limit`].
pub fn all<'a>(cx: &Ctxt, c: &'a Container<'a>, out: &mut Vec<Assertion<'a>>) {
    recursion(cx, c, &Site::all(c));
    nesting_depth(c, out);
    document_size(c, out);
}

/// The `check` bits of the size rules that apply at `site`, unwaived (and `FLATTEN`
/// for a flattened field, whose documents add no level).
pub fn checks(cx: &Ctxt, site: &Site) -> u32 {
    let bits = if site.is_member() { unbounded_array(cx, site) } else { 0 };
    bits | if site.field.serde.flatten { check::FLATTEN } else { 0 }
}

/// `unbounded_array`: every array declares `max_items` (at most 1000, or the type's
/// `max_items_limit`) and every map `max_properties`: arrays pushed to forever reach the
/// 16 MiB limit and block writes.
fn unbounded_array(cx: &Ctxt, site: &Site) -> u32 {
    if site.waives(UNBOUNDED_ARRAY) {
        return 0;
    }
    let keywords = &site.field.mongo.keywords.list;
    let name = &site.field.name;
    let crate_limit = crate::policy::current().policy.max_items_limit;
    let limit = site.c.mongo.max_items_limit.unwrap_or(crate_limit);
    let mut bits = 0;
    match keywords.iter().find(|(_, k)| matches!(k, Keyword::MaxItems(_))) {
        Some((span, Keyword::MaxItems(n))) if *n > limit => cx.syn_error(syn::Error::new(
            *span,
            format!(
                "unbounded_array: field `{name}` allows {n} items, above the limit of {limit}{}; keep at most {limit} \
             (the last N with `$push` + `$slice`) or move the items to their own collection",
                match (site.c.mongo.max_items_limit, limit == DEFAULT_MAX_ITEMS) {
                    (Some(_), _) => " set by `max_items_limit`".to_owned(),
                    (None, true) => " the standard sets".to_owned(),
                    (None, false) => format!(" the crate sets in Cargo.toml [{}]", crate::policy::TABLE),
                }
            ),
        )),
        Some(_) => {}
        None => bits |= check::ARRAY,
    }
    if !keywords.iter().any(|(_, k)| matches!(k, Keyword::MaxProperties(_))) {
        bits |= check::MAP;
    }
    bits
}

/// The deepest nesting allowed in this type: its own `max_depth`, else the crate's.
fn max_depth(c: &Container) -> u32 {
    c.mongo.max_depth.unwrap_or_else(|| crate::policy::current().policy.max_depth)
}

/// `nesting_depth`: documents nest at most `max_depth` levels (the document itself
/// counts as one; default and greatest 5): an 8-level configuration needed `$set` paths
/// nobody wrote right and could not index its deep fields. The depth
/// limit checked at `site`, 0 when none is.
pub fn depth_limit(c: &Container, site: &Site) -> u32 {
    if c.has_fields_table() && !site.waives(NESTING_DEPTH) {
        max_depth(c)
    } else {
        0
    }
}

/// `nesting_depth` for a type whose fields are not members of its own document.
fn nesting_depth(c: &Container, out: &mut Vec<Assertion>) {
    // a struct whose fields are its own document's members: its fields carry the check
    // unit variants are at most `{tag: name}`, one level: within any `max_depth`
    let units = matches!(&c.data, Data::Enum(variants) if variants.iter().all(|v| v.style == Style::Unit));
    if c.has_fields_table() || units || super::allows(&c.mongo.allow, NESTING_DEPTH) {
        return;
    }
    let max = max_depth(c);
    let ident = &c.input.ident;
    let levels = super::LEVELS;
    let message = format!(
        "nesting_depth: a `{ident}` nests {levels} levels, more than the limit of {max} (the document itself counts as \
         one); flatten it: move deep parts up to top-level fields, or into their own collection referenced by id"
    );
    out.push(Assertion::branches(Facts::Own, vec![(Branch::DeeperThan(max), message)], type_span(c)));
}

/// A type that contains itself nests without bound, and `$jsonSchema` (no `$ref`) cannot
/// describe it: reported here rather than as a cycle in const evaluation.
fn recursion(cx: &Ctxt, c: &Container, sites: &[Site]) {
    let ident = &c.input.ident;
    for site in sites.iter().filter(|s| mentions(&s.field.original.ty, ident)) {
        cx.error_spanned_by(
            &site.field.original.ty,
            format!(
                "nesting_depth: field `{}` holds a `{ident}` inside `{ident}`: a recursive type nests without bound \
             and a `$jsonSchema` cannot describe it; store the children as documents of their own \
             that reference their parent (`parentId: ObjectId`), or give each level its own type",
                site.field.name
            ),
        );
    }
}

/// `ty` names `ident` (or `Self`) anywhere, e.g. `Vec<Option<Box<Node>>>`. The common
/// shapes are read from the syntax tree: turning every field's type back into tokens costs
/// a call into the compiler a token, for every field of every model.
fn mentions(ty: &syn::Type, ident: &syn::Ident) -> bool {
    type_mentions(ty, &ident.to_string())
}

fn type_mentions(ty: &syn::Type, name: &str) -> bool {
    use syn::Type;
    match ty {
        Type::Path(p) => {
            p.qself.as_ref().is_some_and(|q| type_mentions(&q.ty, name))
                || p.path.segments.iter().any(|segment| {
                    let ident = segment.ident.to_string();
                    ident == name || ident == "Self" || arguments_mention(&segment.arguments, name)
                })
        }
        Type::Array(a) => type_mentions(&a.elem, name),
        Type::Slice(s) => type_mentions(&s.elem, name),
        Type::Reference(r) => type_mentions(&r.elem, name),
        Type::Ptr(p) => type_mentions(&p.elem, name),
        Type::Paren(p) => type_mentions(&p.elem, name),
        Type::Group(g) => type_mentions(&g.elem, name),
        Type::Tuple(t) => t.elems.iter().any(|elem| type_mentions(elem, name)),
        other => tokens_mention(other, name),
    }
}

fn arguments_mention(arguments: &syn::PathArguments, name: &str) -> bool {
    match arguments {
        syn::PathArguments::None => false,
        syn::PathArguments::AngleBracketed(a) => a.args.iter().any(|arg| match arg {
            syn::GenericArgument::Type(ty) => type_mentions(ty, name),
            syn::GenericArgument::Lifetime(_) => false,
            other => tokens_mention(other, name),
        }),
        syn::PathArguments::Parenthesized(p) => tokens_mention(p, name),
    }
}

/// The rare shapes (trait objects, macros, const arguments, ...): any of their tokens.
fn tokens_mention(tokens: &dyn ToTokens, name: &str) -> bool {
    fn tree(token: &proc_macro2::TokenTree, name: &str) -> bool {
        match token {
            proc_macro2::TokenTree::Ident(i) => i == name || i == "Self",
            proc_macro2::TokenTree::Group(g) => g.stream().into_iter().any(|t| tree(&t, name)),
            _ => false,
        }
    }
    tokens.to_token_stream().into_iter().any(|token| tree(&token, name))
}

/// `document_size`: when every string, array and map of a collection root is bounded,
/// its worst-case encoded size fits in MongoDB's hard limit of 16 MiB (4 MiB in a
/// time-series collection); a larger document cannot be written at all. Not waivable.
fn document_size(c: &Container, out: &mut Vec<Assertion>) {
    if !c.is_root() {
        return;
    }
    let ident = &c.input.ident;
    let timeseries = c.mongo.options.timeseries.is_some();
    let (limit, what) = match timeseries {
        true => ("4 MiB", "MongoDB's limit on a time-series measurement"),
        false => ("16 MiB", "MongoDB's hard limit on a document"),
    };
    let message = format!(
        "document_size: a `{ident}` document can reach more than {limit}, {what} \
         (its bound is `<{ident} as MongoCollection>::MAX_DOCUMENT_SIZE`); lower `max_length`, `max_items` or a pattern's width, or move \
         large parts to their own collection (files to GridFS or object storage)"
    );
    out.push(Assertion::branches(Facts::Own, vec![(Branch::TooLarge { timeseries }, message)], type_span(c)));
}

#[cfg(test)]
mod tests {
    use crate::rules::run;
    use mongo_schema_contract::rules::check;
    use syn::parse_quote;

    /// The syntax-tree walk finds `Node` exactly where a walk of every token does.
    #[test]
    fn mentions_reads_the_type_as_its_tokens_do() {
        let types: Vec<syn::Type> = vec![
            parse_quote!(Vec<Option<Box<Node>>>),
            parse_quote!([Node; 2]),
            parse_quote!((i32, (String, Node))),
            parse_quote!(&'a [Node]),
            parse_quote!(*const Node),
            parse_quote!(std::collections::HashMap<String, Node>),
            parse_quote!(Option<Self>),
            parse_quote!(<Node as Trait>::Item),
            parse_quote!(Box<dyn Fn(Node) -> i32>),
            parse_quote!(Vec<Nodes>),
            parse_quote!(Vec<String>),
            parse_quote!(module::Node),
            parse_quote!(Wrapper<'a, 3>),
            parse_quote!(Box<dyn Iterator<Item = Node>>),
        ];
        let node: syn::Ident = parse_quote!(Node);
        for ty in &types {
            let by_tokens = super::tokens_mention(ty, "Node");
            assert_eq!(super::mentions(ty, &node), by_tokens, "{}", quote::ToTokens::to_token_stream(ty));
        }
        let found = types.iter().filter(|ty| super::mentions(ty, &node)).count();
        assert_eq!(found, 11, "the list mixes types that mention `Node` and types that do not");
    }

    #[test]
    fn unbounded_arrays_are_left_to_the_const_check_bounded_ones_are_not() {
        let (_, assertions) = run(parse_quote! { struct A { tags: Vec<Tag> } });
        assert_eq!(assertions, [format!("tags: field {:#b} depth 5", check::SILENT | check::ARRAY | check::MAP)]);
        let (_, assertions) = run(parse_quote! { struct A { #[mongo(max_items = 10)] tags: Tags } });
        // `Tags` may not be an array: its facts decide whether `max_items` applies
        assert_eq!(assertions, [format!("tags: field {:#b} depth 5", check::SILENT | check::MAP | check::KEYWORDS)]);
        let (_, assertions) = run(parse_quote! { struct A { #[mongo(max_items = 10)] tags: Vec<Tag> } });
        assert_eq!(assertions, [format!("tags: field {:#b} depth 5", check::SILENT | check::MAP)]);
    }

    #[test]
    fn arrays_of_primitives_are_decided_in_the_macro() {
        let (errors, assertions) = run(
            parse_quote! { struct A { tags: Vec<String>, #[mongo(max_items = 3)] codes: Vec<i32>, note: Option<String> } },
        );
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert!(errors[0].starts_with("unbounded_array:"), "{errors:?}");
        assert!(assertions.is_empty(), "{assertions:?}");
        let (errors, _) =
            run(parse_quote! { struct A { #[mongo(allow(unbounded_array, reason = "r"))] tags: Vec<String> } });
        assert!(errors.is_empty(), "{errors:?}");
        let (errors, _) = run(parse_quote! { struct A { total_amount: Option<f64>, create_time: Option<String> } });
        assert!(errors[0].starts_with("money_double:") && errors[1].starts_with("string_date:"), "{errors:?}");
    }

    #[test]
    fn max_items_above_the_limit_is_refused() {
        let (errors, _) = run(parse_quote! { struct A { #[mongo(max_items = 2000)] tags: Vec<String> } });
        assert!(errors[0].contains("allows 2000 items, above the limit of 1000 the standard sets"), "{errors:?}");
        let (errors, _) = run(parse_quote! {
            #[mongo(max_items_limit = 10)]
            struct A { #[mongo(max_items = 20)] tags: Vec<String> }
        });
        assert!(errors[0].contains("set by `max_items_limit`"), "{errors:?}");
    }

    #[test]
    fn recursive_types_are_refused() {
        let (errors, _) = run(parse_quote! { struct Node { children: Vec<Node> } });
        assert!(errors[0].starts_with("nesting_depth: field `children`"), "{errors:?}");
    }

    #[test]
    fn depth_is_checked_per_field_or_for_the_whole_type() {
        let (_, assertions) = run(parse_quote! { #[mongo(max_depth = 3)] struct A { inner: Inner } });
        assert_eq!(assertions, [format!("inner: field {:#b} depth 3", check::SILENT | check::MAP | check::ARRAY)]);
        let (_, assertions) = run(parse_quote! { enum E { A(Inner), B } });
        assert!(assertions.contains(&"own: DeeperThan(5)".to_owned()), "{assertions:?}");
        let (_, assertions) = run(parse_quote! { enum E { A, B } });
        assert!(assertions.is_empty(), "{assertions:?}");
    }

    #[test]
    fn a_root_checks_its_document_size() {
        let (_, assertions) = run(parse_quote! {
            #[mongo(db = "db_shop", collection = "t_order")]
            struct Order { name: String }
        });
        assert_eq!(assertions, ["own: TooLarge { timeseries: false }"]);
    }

    #[test]
    fn the_crate_policy_sets_the_depth_and_items_limits() {
        use crate::policy::{with, Policy};
        let policy = Policy { max_depth: 7, max_items_limit: 5000, ..Policy::default() };
        let (errors, assertions) = with(policy.clone(), || {
            run(parse_quote! { struct A { #[mongo(max_items = 2000)] tags: Vec<String>, inner: Inner } })
        });
        assert!(errors.is_empty(), "{errors:?}");
        assert!(assertions.iter().any(|a| a.ends_with("depth 7")), "{assertions:?}");
        let (errors, _) =
            with(policy.clone(), || run(parse_quote! { struct A { #[mongo(max_items = 6000)] tags: Vec<String> } }));
        assert!(errors[0].contains("above the limit of 5000 the crate sets in Cargo.toml"), "{errors:?}");
        // a type may lower the crate's limits, not raise them
        let (errors, _) =
            with(policy.clone(), || run(parse_quote! { #[mongo(max_depth = 6)] struct A { inner: Inner } }));
        assert!(errors.is_empty(), "{errors:?}");
        let (errors, _) = with(policy, || run(parse_quote! { #[mongo(max_depth = 8)] struct A { inner: Inner } }));
        assert!(errors[0].contains("`max_depth` is 1 to 7: the crate's limit"), "{errors:?}");
        let (errors, _) = run(parse_quote! { #[mongo(max_depth = 6)] struct A { inner: Inner } });
        assert!(errors[0].contains("`max_depth` is 1 to 5: the standard keeps"), "{errors:?}");
    }
}
