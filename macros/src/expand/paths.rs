//! The type's field paths, `MongoSchema::Fields`: a `{Type}Fields` struct with one method per
//! written field, returning the field type's own paths (embedded types are named, never
//! expanded again).

use crate::attr::mongo::Keyword;
use crate::ir::{Container, Data, Field, FieldType, Style};
use proc_macro2::{Delimiter, Group, Ident, Literal, Punct, Spacing, Span, TokenStream, TokenTree};
use quote::{quote, quote_spanned, ToTokens, TokenStreamExt};
use syn::spanned::Spanned;

use super::tokens::{first_span, path, path_sep, spanned_punct};

/// The type's field paths (`MongoSchema::Fields`) and the items that define them. A struct
/// with a fields table gets one `{Type}Fields` struct: one method per written field,
/// returning the field type's own paths (so embedded types are not re-expanded) at
/// `parent.key`, or at `parent` for a flattened field, or a `Bounded` array for a field
/// with `max_items`; its `Display`, `Deref` and `From` impls come from one runtime macro
/// call. A newtype, a transparent struct and an `into` type have the inner type's paths;
/// generic structs, tuples, units and enums end a path (`Leaf`; an enum of unit variants
/// `UnitEnum`, which `query!`'s value impl is keyed on).
pub(super) fn paths(c: &Container) -> (TokenStream, Option<TokenStream>) {
    let leaf = quote!(_p::Leaf);
    if let Some(into) = &c.serde.into {
        return (quote_spanned!(into.span()=> <#into as _p::MongoSchema>::Fields), None);
    }
    // an enum of unit variants: its own paths type, by which `query!` takes the enum as a
    // value (the runtime's one `Stores` impl for every type whose paths are `UnitEnum`)
    if super::schema::is_unit_enum(c) {
        return (quote!(_p::UnitEnum), None);
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
