//! The schema and facts of a type: `FIELDS`, the one table of a struct's written fields,
//! the keyword and variant tables the runtime's builders turn into `$jsonSchema`, and the
//! `SchemaFacts` expression the rules read (each field's over its own type's `FACTS`).

use crate::attr::mongo::Keyword;
use crate::ir::{Container, Data, Field, FieldType, Style, Variant};
use mongo_schema_contract::bson::BsonKind;
use mongo_schema_contract::fields::{NULLABLE, REQUIRED, SKIPS_NONE};
use mongo_schema_contract::size;
use proc_macro2::{Delimiter, Group, Ident, Spacing, Span, TokenStream};
use quote::{quote, quote_spanned, ToTokens, TokenStreamExt};
use syn::spanned::Spanned;

use super::tokens::{first_span, keywords_text, keywords_tokens, parse_text, path, path_sep, spanned_punct};

/// `FIELDS`: the one table of a struct's written fields, from which the runtime builds
/// its schema and facts and resolves index, shard-key and time-series paths.
pub(super) fn fields_table(c: &Container) -> Option<TokenStream> {
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

fn container_keywords(c: &Container) -> TokenStream {
    let mut keywords: Vec<Keyword> = c.mongo.keywords.list.iter().map(|(_, k)| k.clone()).collect();
    if let (false, Some(docs)) = (c.mongo.keywords.has_description(), &c.docs) {
        keywords.push(Keyword::Description(docs.clone()));
    }
    keywords_tokens(&keywords)
}

pub(super) fn struct_schema(c: &Container, style: Style, fields: &[Field]) -> (TokenStream, TokenStream) {
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

pub(super) fn enum_schema(c: &Container, variants: &[Variant]) -> (TokenStream, TokenStream) {
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
        // the strings, for `query!`'s check of a literal against such a field
        Repr::External if all_unit => {
            let names = written.iter().map(|v| &v.name);
            quote!(_p::SchemaFacts::unit_enum(&[#(#names),*]))
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
pub(super) fn field_facts(field: &Field) -> TokenStream {
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
        // `ident` left out when it is the key (`FieldFacts::rust_name` reads `name` then) or
        // when there is none (a tuple's field)
        let mut text = match *name == ident || ident.is_empty() {
            true => format!("name: {name:?},"),
            false => format!("name: {name:?}, ident: {ident:?},"),
        };
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

/// `TAGGED` (and `NAME`) of an internally tagged enum: its tag, then one flattened entry
/// per written variant that writes keys, named by `ident` (the variant) and `type_name`
/// (`Enum::Variant`): a struct variant's fields, or a newtype variant's inner type's
/// `FIELD` (serde writes its keys beside the tag: its struct's own names, flattened
/// fields and all; a map's any key). `query!` finds a key in any variant and compares a
/// value with every variant's type for that key.
pub(super) fn tagged_fields(c: &Container) -> Option<TokenStream> {
    let Data::Enum(variants) = &c.data else { return None };
    let Repr::Internal(tag) = repr(c) else { return None };
    let written: Vec<&Variant> = variants.iter().filter(|v| !v.serde.skip_serializing).collect();
    let newtype = |v: &Variant| v.style == Style::Newtype && v.fields.len() == 1;
    if !c.is_internally_tagged()
        || written.iter().any(|v| !matches!(v.style, Style::Unit | Style::Named) && !newtype(v))
    {
        return None;
    }
    let name = c.input.ident.to_string();
    let syn::Data::Enum(data) = &c.input.data else { return None };
    let mut entries: Vec<TokenStream> = Vec::new();
    for (syn_variant, v) in data.variants.iter().zip(variants).filter(|(_, v)| !v.serde.skip_serializing) {
        let ident = syn_variant.ident.to_string();
        let owner = format!("{name}::{ident}");
        let head = quote!(name: "", ident: #ident, type_name: #owner, flatten: true,);
        match v.style {
            Style::Named => {
                let fields = v.fields.iter().filter(|f| f.is_written()).map(|f| f.to_token_stream());
                entries.push(quote!(_p::FieldFacts {
                    #head fields: ::core::option::Option::Some(&[#(#fields),*]),
                    ..<::std::string::String as _p::MongoSchema>::FIELD
                }));
            }
            Style::Newtype => {
                let ident_only = quote!(name: "", ident: #ident, flatten: true,);
                entries.push(match v.fields[0].field_type() {
                    FieldType::Trait(ty) => quote!(_p::FieldFacts { #ident_only ..<#ty as _p::MongoSchema>::FIELD }),
                    // a type fixed by `bson_type` or a helper: its keys are not known, any
                    FieldType::Alias(_) => {
                        quote!(_p::FieldFacts { #ident_only ..<::std::string::String as _p::MongoSchema>::FIELD })
                    }
                });
            }
            _ => {}
        }
    }
    let count = entries.len() + 1;
    let table = match c.input.generics.params.is_empty() {
        true => quote!({
            static TAGGED: [_p::FieldFacts; #count] = [
                _p::FieldFacts { name: #tag, ..<::std::string::String as _p::MongoSchema>::FIELD },
                #(#entries),*
            ];
            &TAGGED
        }),
        false => quote!(&[
            _p::FieldFacts { name: #tag, ..<::std::string::String as _p::MongoSchema>::FIELD },
            #(#entries),*
        ]),
    };
    Some(quote! {
        const TAGGED: ::core::option::Option<&'static [_p::FieldFacts]> = ::core::option::Option::Some(#table);
        const NAME: &'static str = #name;
    })
}

/// An enum of unit variants written as strings (serde's external tagging), whose facts
/// carry the strings (`SchemaFacts::variants`) and whose paths are `UnitEnum`.
pub(super) fn is_unit_enum(c: &Container) -> bool {
    let Data::Enum(variants) = &c.data else { return false };
    let written: Vec<&Variant> = variants.iter().filter(|v| !v.serde.skip_serializing).collect();
    let all_unit = written.iter().all(|v| v.style == Style::Unit && !v.serde.untagged);
    matches!(repr(c), Repr::External) && all_unit && !written.is_empty()
}
