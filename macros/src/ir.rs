//! The derive's view of a type: names after serde renames, parsed attributes, and the
//! original syn nodes for spans.

use crate::attr::{self, mongo, serde};
use crate::ctxt::Ctxt;
use mongo_schema_contract::bson::{self, BsonKind};
use mongo_schema_contract::case::RenameRule;
use mongo_schema_contract::helpers;
use syn::ext::IdentExt;

pub struct Container<'a> {
    pub input: &'a syn::DeriveInput,
    pub serde: serde::Container,
    pub mongo: mongo::Container,
    pub docs: Option<String>,
    pub data: Data<'a>,
}

pub enum Data<'a> {
    Struct(Style, Vec<Field<'a>>),
    Enum(Vec<Variant<'a>>),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// `struct S { a: T }`
    Named,
    /// `struct S(T, U);`
    Tuple,
    /// `struct S(T);`
    Newtype,
    /// `struct S;`
    Unit,
}

/// Where a field's schema comes from: its type's `MongoSchema` impl, or a BSON type
/// named by `bson_type` or implied by a known serde helper.
pub enum FieldType<'a> {
    Trait(&'a syn::Type),
    Alias(String),
}

pub struct Field<'a> {
    pub original: &'a syn::Field,
    /// The key serde writes (named fields), after `rename` / `rename_all`.
    pub name: String,
    pub serde: serde::Field,
    pub mongo: mongo::Field,
    /// The `bsonType` alias `bson_type` or a known serde helper fixes (see
    /// [`Field::field_type`]), decided once: the rules and the expansion ask often.
    alias: Option<String>,
}

pub struct Variant<'a> {
    /// The name serde writes, after `rename` / `rename_all`.
    pub name: String,
    pub style: Style,
    pub fields: Vec<Field<'a>>,
    pub serde: serde::Variant,
    pub mongo: mongo::Field,
}

impl<'a> Container<'a> {
    /// `None` for unions (an error is recorded).
    pub fn from_ast(cx: &Ctxt, input: &'a syn::DeriveInput) -> Option<Self> {
        let serde = serde::Container::from_ast(cx, &input.attrs);
        let data = match &input.data {
            syn::Data::Struct(data) => {
                let (style, fields) = fields_from_ast(cx, &data.fields, serde.rename_all);
                Data::Struct(style, fields)
            }
            syn::Data::Enum(data) => {
                Data::Enum(data.variants.iter().map(|v| Variant::from_ast(cx, v, &serde)).collect())
            }
            syn::Data::Union(data) => {
                cx.error_spanned_by(data.union_token, "MongoSchema cannot be derived for a union: serde does not serialize unions; use a struct or an enum");
                return None;
            }
        };
        Some(Container {
            input,
            mongo: mongo::Container::from_ast(cx, &input.attrs),
            docs: attr::docs(&input.attrs),
            serde,
            data,
        })
    }

    /// A struct written as a document of its own fields: the runtime's `FIELDS` table
    /// lists them, and each carries its own rules (nesting depth included).
    pub fn has_fields_table(&self) -> bool {
        matches!(self.data, Data::Struct(Style::Named, _)) && !self.serde.transparent && self.serde.into.is_none()
    }

    /// An enum serde writes as a document of its own: internally tagged (below), or
    /// adjacently tagged, `{tag: "variant", content: ...}` (`tag` and `content`, no
    /// untagged variant). Such an enum can be a collection root.
    pub fn is_document_enum(&self) -> bool {
        self.is_tagged_enum(true) || self.is_internally_tagged()
    }

    /// An enum serde writes as `{tag: "variant", ...its fields}` (`#[serde(tag = "...")]`
    /// without `content` or `untagged`, and no untagged variant).
    pub fn is_internally_tagged(&self) -> bool {
        self.is_tagged_enum(false)
    }

    /// An enum with `tag`, with `content` or without it as `content` says, and no untagged
    /// variant.
    fn is_tagged_enum(&self, content: bool) -> bool {
        match &self.data {
            Data::Enum(variants) => {
                self.serde.tag.is_some()
                    && self.serde.content.is_some() == content
                    && !self.serde.untagged
                    && variants.iter().all(|v| !v.serde.untagged)
            }
            Data::Struct(..) => false,
        }
    }

    /// `#[mongo(db = "...", collection = "...")]`: a collection root.
    pub fn is_root(&self) -> bool {
        self.mongo.db.is_some() || self.mongo.collection.is_some()
    }
}

impl<'a> Variant<'a> {
    fn from_ast(cx: &Ctxt, variant: &'a syn::Variant, container: &serde::Container) -> Self {
        let serde = serde::Variant::from_ast(cx, &variant.attrs);
        let name = match (&serde.rename, container.rename_all) {
            (Some(name), _) => name.clone(),
            (None, Some(rule)) => rule.apply_to_variant(&variant.ident.unraw().to_string()),
            (None, None) => variant.ident.unraw().to_string(),
        };
        let rule = serde.rename_all.or(container.rename_all_fields);
        let (style, fields) = fields_from_ast(cx, &variant.fields, rule);
        let mut mongo = mongo::Field::from_ast(cx, &variant.attrs);
        add_doc_description(&mut mongo, attr::docs(&variant.attrs));
        Variant { name, style, fields, serde, mongo }
    }
}

/// The doc comment becomes `description` unless `#[mongo(description)]` says otherwise.
fn add_doc_description(mongo: &mut mongo::Field, docs: Option<String>) {
    if let (false, Some(docs)) = (mongo.keywords.has_description(), docs) {
        let span = proc_macro2::Span::call_site();
        mongo.keywords.list.push((span, mongo::Keyword::Description(docs)));
    }
}

fn fields_from_ast<'a>(cx: &Ctxt, fields: &'a syn::Fields, rule: Option<RenameRule>) -> (Style, Vec<Field<'a>>) {
    let style = match fields {
        syn::Fields::Named(_) => Style::Named,
        syn::Fields::Unnamed(f) if f.unnamed.len() == 1 => Style::Newtype,
        syn::Fields::Unnamed(_) => Style::Tuple,
        syn::Fields::Unit => Style::Unit,
    };
    let fields = fields.iter().enumerate().map(|(i, field)| Field::from_ast(cx, i, field, rule)).collect();
    (style, fields)
}

impl<'a> Field<'a> {
    fn from_ast(cx: &Ctxt, index: usize, field: &'a syn::Field, rule: Option<RenameRule>) -> Self {
        let serde = serde::Field::from_ast(cx, &field.attrs);
        let name = match (&serde.rename, &field.ident, rule) {
            (Some(name), _, _) => name.clone(),
            (None, Some(ident), Some(rule)) => rule.apply_to_field(&ident.unraw().to_string()),
            (None, Some(ident), None) => ident.unraw().to_string(),
            (None, None, _) => index.to_string(),
        };
        let mut mongo = mongo::Field::from_ast(cx, &field.attrs);
        add_doc_description(&mut mongo, attr::docs(&field.attrs));
        let alias = match mongo.keywords.bson_type() {
            Some(alias) => Some(alias.to_owned()),
            None => serde.with.as_ref().and_then(|with| helpers::written_by(&with.value())).map(str::to_owned),
        };
        Field { original: field, name, serde, mongo, alias }
    }

    /// Where the field's schema comes from.
    pub fn field_type(&self) -> FieldType<'a> {
        match &self.alias {
            Some(alias) => FieldType::Alias(alias.clone()),
            None => FieldType::Trait(&self.original.ty),
        }
    }

    /// The BSON kind of the field when syntax alone decides it: a type fixed by
    /// `bson_type` or a known serde helper (`Some(None)` for an alias of no single kind,
    /// such as `number`), or a primitive written as such. `None`: aliases, paths,
    /// generics and every other type, left to the const check over their facts.
    pub fn known_kind(&self) -> Option<Option<BsonKind>> {
        match self.field_type() {
            FieldType::Alias(alias) => Some(BsonKind::from_alias(&alias)),
            FieldType::Trait(syn::Type::Path(p)) if p.qself.is_none() && p.path.leading_colon.is_none() => {
                let [segment] = p.path.segments.iter().collect::<Vec<_>>()[..] else { return None };
                let name = segment.arguments.is_none().then(|| segment.ident.to_string())?;
                bson::primitive(&name).map(Some)
            }
            FieldType::Trait(_) => None,
        }
    }

    /// For a field of a primitive in an `Option`, or of a `Vec`, `VecDeque`, `LinkedList`
    /// or set of primitives (by syntax, with no `bson_type` or helper): the primitive's
    /// kind and whether it is a growable array. Such a value has no nesting, needs no
    /// helper and is no map, so the rules are decided in the macro, sparing the field a
    /// const check. `None` for every other type.
    pub fn plain_kind(&self) -> Option<(BsonKind, bool)> {
        if !matches!(self.field_type(), FieldType::Trait(_)) || self.serde.flatten {
            return None;
        }
        let (name, inner) = single_argument(&self.original.ty)?;
        let growable = match name.as_str() {
            "Option" => false,
            name if bson::SEQUENCES.contains(&name) => true,
            _ => return None,
        };
        let syn::Type::Path(p) = inner else { return None };
        let [segment] = p.path.segments.iter().collect::<Vec<_>>()[..] else { return None };
        if p.qself.is_some() || p.path.leading_colon.is_some() || !segment.arguments.is_none() {
            return None;
        }
        bson::primitive(&segment.ident.to_string()).map(|kind| (kind, growable))
    }

    /// Written by serde at all.
    pub fn is_written(&self) -> bool {
        !self.serde.skip_serializing
    }

    /// `skip_serializing_if = "Option::is_none"` (any path ending in `::is_none`): serde
    /// writes nothing for `None`, so the field may be missing.
    pub fn skips_none(&self) -> bool {
        self.serde.skip_serializing_if.as_ref().is_some_and(|p| p.value().replace(' ', "").ends_with("::is_none"))
    }

    /// The Rust type, syntactically an `Option` (for `bson_type` overrides, which do not
    /// ask the trait).
    pub fn is_option(&self) -> bool {
        match &self.original.ty {
            syn::Type::Path(p) => p.path.segments.last().is_some_and(|s| s.ident == "Option"),
            _ => false,
        }
    }
}

/// `Name<T>` (by its last path segment) with one type argument: `("Name", T)`.
pub fn single_argument(ty: &syn::Type) -> Option<(String, &syn::Type)> {
    let syn::Type::Path(p) = ty else { return None };
    if p.qself.is_some() {
        return None;
    }
    let last = p.path.segments.last()?;
    let syn::PathArguments::AngleBracketed(args) = &last.arguments else { return None };
    match args.args.iter().collect::<Vec<_>>()[..] {
        [syn::GenericArgument::Type(inner)] => Some((last.ident.to_string(), inner)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mongo_schema_contract::keyword::{Lit, Num};
    use mongo_schema_contract::options::{IndexKey, ValidationAction, ValidationLevel};
    use syn::parse_quote;

    fn with<R>(input: syn::DeriveInput, f: impl FnOnce(&Container) -> R) -> R {
        let cx = Ctxt::default();
        let c = Container::from_ast(&cx, &input).expect("a struct or enum");
        let r = f(&c);
        cx.check().expect("no attribute errors");
        r
    }

    fn names(c: &Container) -> Vec<String> {
        match &c.data {
            Data::Struct(_, fields) => fields.iter().filter(|f| f.is_written()).map(|f| f.name.clone()).collect(),
            Data::Enum(variants) => variants.iter().map(|v| v.name.clone()).collect(),
        }
    }

    #[test]
    fn names_are_what_serde_writes() {
        let input = parse_quote! {
            #[serde(rename_all = "camelCase")]
            struct User { user_name: String, #[serde(rename = "mail")] email: String, #[serde(skip)] cache: u8, r#type: String }
        };
        assert_eq!(with(input, names), ["userName", "mail", "type"]);
        let input = parse_quote! {
            #[serde(rename_all = "snake_case", rename_all_fields = "camelCase")]
            enum Event { OrderPaid { paid_at: i64 }, #[serde(rename = "gone")] Deleted }
        };
        with(input, |c| {
            assert_eq!(names(c), ["order_paid", "gone"]);
            let Data::Enum(variants) = &c.data else { unreachable!() };
            assert_eq!(variants[0].fields[0].name, "paidAt");
        });
    }

    #[test]
    fn field_facts_follow_the_syntax() {
        let input = parse_quote! {
            struct A {
                #[serde(flatten)] base: Base,
                maybe: Option<i32>,
                #[serde(with = "bson::serde_helpers::datetime::FromChrono04DateTime")] at: chrono::DateTime<Utc>,
                #[mongo(bson_type = "number")] n: Amount,
                path: std::primitive::i32,
            }
        };
        with(input, |c| {
            let Data::Struct(Style::Named, f) = &c.data else { unreachable!() };
            assert!(f[0].serde.flatten && c.has_fields_table());
            assert!(f[1].is_option() && f[1].known_kind().is_none());
            assert_eq!(f[2].known_kind(), Some(Some(BsonKind::Date)));
            assert_eq!(f[3].known_kind(), Some(None));
            assert_eq!(f[4].known_kind(), None);
        });
        with(parse_quote! { #[serde(transparent)] struct W { inner: i32 } }, |c| assert!(!c.has_fields_table()));
        with(parse_quote! { struct T(i32, i32); }, |c| assert!(!c.has_fields_table()));
    }

    #[test]
    fn only_internal_tagging_writes_a_document_of_the_variants_fields() {
        let tagged = |input: syn::DeriveInput| {
            let mut out = None;
            with(input, |c| out = Some(c.is_internally_tagged()));
            out
        };
        assert_eq!(tagged(parse_quote! { #[serde(tag = "type")] enum E { A { a: i32 }, B } }), Some(true));
        assert_eq!(tagged(parse_quote! { #[serde(tag = "t", content = "c")] enum E { A(i32) } }), Some(false));
        assert_eq!(tagged(parse_quote! { enum E { A { a: i32 } } }), Some(false));
        assert_eq!(
            tagged(parse_quote! { #[serde(tag = "t")] enum E { A { a: i32 }, #[serde(untagged)] B(i32) } }),
            Some(false)
        );
        assert_eq!(tagged(parse_quote! { #[serde(tag = "type")] struct S { a: i32 } }), Some(false));
    }

    #[test]
    fn keywords_and_options_are_parsed_from_the_table() {
        let input = parse_quote! {
            /// A user.
            #[mongo(db = "db_a", collection = "t_user", validation_level = "moderate", validation_action = "warn")]
            #[mongo(index(keys(name = 1, "geo" = "2dsphere"), unique), title = "User")]
            struct User {
                /// The name.
                #[mongo(max_length = 50, exclusive_minimum = -1.5, enum_values = ["a", 2], unique_items)]
                name: String,
            }
        };
        with(input, |c| {
            assert!(c.is_root() && c.docs.as_deref() == Some("A user."));
            assert_eq!(c.mongo.validation_level.as_ref().map(|(_, l)| *l), Some(ValidationLevel::Moderate));
            assert_eq!(c.mongo.validation_action.as_ref().map(|(_, a)| *a), Some(ValidationAction::Warn));
            let kinds: Vec<IndexKey> = c.mongo.options.indexes[0].keys.iter().map(|k| k.kind).collect();
            assert_eq!(kinds, [IndexKey::Ascending, IndexKey::Sphere2d]);
            assert_eq!(c.mongo.keywords.list[0].1, mongo::Keyword::Title("User".to_owned()));
            let Data::Struct(_, f) = &c.data else { unreachable!() };
            let keywords: Vec<&mongo::Keyword> = f[0].mongo.keywords.list.iter().map(|(_, k)| k).collect();
            assert_eq!(
                keywords,
                [
                    &mongo::Keyword::MaxLength(50),
                    &mongo::Keyword::ExclusiveMinimum(Num::Float(-1.5)),
                    &mongo::Keyword::Enum(vec![Lit::Str("a".to_owned()), Lit::Int(2)]),
                    &mongo::Keyword::UniqueItems(true),
                    &mongo::Keyword::Description("The name.".to_owned()),
                ]
            );
        });
    }
}
