//! Checks on the shape of a model that the schema depends on. The modelling rules of the
//! standard live in `rules/`.

use crate::attr::mongo::Keywords;
use crate::attr::mongo::{Keyword, Lit};
use crate::ctxt::Ctxt;
use crate::ir::{Container, Data, Field};
use mongo_schema_contract::bson;
use mongo_schema_contract::bson::BsonKind;
use mongo_schema_contract::helpers;
use mongo_schema_contract::keyword::{self, Applies};

pub fn all(cx: &Ctxt, c: &Container) {
    root_names(cx, c);
    root_shape(cx, c);
    for field in fields(c) {
        helper_without_type(cx, field);
        keyword_kinds(cx, field);
    }
    variant_helpers(cx, c);
    renames(cx, c);
    nullable(cx, c);
}

/// `renamed_from`: on a collection root struct's own fields (where migrations find the
/// stored documents' key), naming a key no other field has now or had before.
fn renames(cx: &Ctxt, c: &Container) {
    let fields: Vec<&Field> = fields(c).collect();
    for (i, field) in fields.iter().enumerate() {
        let Some(old) = &field.mongo.renamed_from else { continue };
        let in_struct = matches!(c.data, Data::Struct(crate::ir::Style::Named, _));
        let message = if !c.is_root() || !in_struct {
            Some("renamed_from is read by migrations of a collection root's own fields: put it on a field of the struct that has `db` and `collection` (a field of an embedded type or an enum variant is not renamed by migrations)".to_owned())
        } else if old.value() == field.name {
            Some(format!("renamed_from = \"{}\" is this field's current key: name the key the stored documents had before, or remove the attribute once every deployment is migrated", old.value()))
        } else if let Some(other) = fields.iter().find(|f| f.name == old.value()) {
            Some(format!("renamed_from = \"{}\" is the key of field `{}` of this struct: a rename's old key must be free in the new model", old.value(), other.original.ident.as_ref().map_or_else(String::new, ToString::to_string)))
        } else if fields[..i].iter().any(|f| f.mongo.renamed_from.as_ref().is_some_and(|o| o.value() == old.value())) {
            Some(format!("two fields are renamed_from = \"{}\": the stored key can move to one of them", old.value()))
        } else if !field.serde.aliases.iter().any(|alias| alias.value() == old.value()) {
            Some(missing_alias(&old.value(), &field.serde.aliases))
        } else {
            None
        };
        if let Some(message) = message {
            cx.error_spanned_by(old, message);
        }
    }
}

/// A renamed field that serde would not read under its old key. During a rolling deploy
/// the previous release keeps writing the old key until the migration moves it, so the
/// new release must read both; serde's `alias` does, and the derive cannot add it.
fn missing_alias(old: &str, aliases: &[syn::LitStr]) -> String {
    let others = match aliases {
        [] => String::new(),
        [one] => format!(" (its `alias = \"{}\"` is another key)", one.value()),
        more => {
            let keys: Vec<String> = more.iter().map(|a| format!("\"{}\"", a.value())).collect();
            format!(" (its aliases {} are other keys)", keys.join(", "))
        }
    };
    format!(
        "renamed_from = \"{old}\" needs serde to read the old key too{others}: add `#[serde(alias = \"{old}\")]` to this \
         field. During a rolling deploy the previous release keeps writing `{old}` until the migration moves it, and \
         this release must read those documents"
    )
}

/// `nullable`: on an `Option` field that serde skips when `None` (so it may be missing),
/// and that serde reads back when missing; the validator then admits `null` as well.
fn nullable(cx: &Ctxt, c: &Container) {
    if let Data::Enum(variants) = &c.data {
        for span in variants.iter().filter_map(|v| v.mongo.nullable) {
            cx.syn_error(syn::Error::new(span, "`nullable` applies to a field: put it on the variant's field"));
        }
    }
    for field in fields(c) {
        let Some(span) = field.mongo.nullable else { continue };
        let skip_if = field.serde.skip_serializing_if.as_ref().map(syn::LitStr::value);
        let message = if field.original.ident.is_none() {
            "`nullable` applies to a named field: a tuple's items have no key that may be missing".to_owned()
        } else if field.serde.flatten {
            "`nullable` applies to a field with a key of its own; a flattened field's members are written inline"
                .to_owned()
        } else if !field.is_option() {
            "`nullable` admits null for a field that may be missing or null, which serde reads back only into an \
             `Option`: write the field's type as `Option<...>` (spelled out: the derive reads the type as written, \
             not through an alias)"
                .to_owned()
        } else if skip_if.is_none() {
            "this `Option` admits null already: serde writes `None` as null, so the field is required and may be \
             null. `nullable` is for a field that may also be missing: add \
             `#[serde(default, skip_serializing_if = \"Option::is_none\")]`, or remove `nullable`"
                .to_owned()
        } else if !field.skips_none() {
            format!(
                "this `Option` admits null already and may be missing: serde writes `None` as null wherever \
                 `skip_serializing_if = \"{}\"` does not skip it; remove `nullable`",
                skip_if.unwrap_or_default()
            )
        } else if let (Some((key, helper)), false) = (&field.serde.read_by, field.serde.default || c.serde.default) {
            format!(
                "serde refuses a document without this field: the helper `{}` reads it, and serde calls no helper for \
                 a missing field; add `default` so that a missing field reads as `None`: \
                 `#[serde(default, {key} = \"{}\", skip_serializing_if = \"Option::is_none\")]`",
                helper.value(),
                helper.value()
            )
        } else {
            continue;
        };
        cx.syn_error(syn::Error::new(span, message));
    }
}

fn fields<'c>(c: &'c Container) -> Box<dyn Iterator<Item = &'c Field<'c>> + 'c> {
    match &c.data {
        Data::Struct(_, fields) => Box::new(fields.iter()),
        Data::Enum(variants) => Box::new(variants.iter().flat_map(|v| v.fields.iter())),
    }
}

/// A collection root names both its database and its collection.
fn root_names(cx: &Ctxt, c: &Container) {
    match (&c.mongo.db, &c.mongo.collection) {
        (Some(db), None) => {
            cx.error_spanned_by(db, "a collection root needs both names: add `collection = \"t_...\"` beside `db`")
        }
        (None, Some(collection)) => cx.error_spanned_by(
            collection,
            "a collection root needs both names: add `db = \"db_...\"` beside `collection`",
        ),
        _ => {}
    }
}

/// A collection holds documents: a root is a struct with named fields, an internally
/// tagged enum (the polymorphic pattern: `{type: "...", ...the variant's fields}`) or an
/// adjacently tagged one (`{type: "...", data: ...}`), all of which serde writes as a
/// document. An externally tagged enum writes a unit variant as a bare string, and an
/// untagged one may write anything its variants do.
fn root_shape(cx: &Ctxt, c: &Container) {
    let Some(at) = c.mongo.collection.as_ref().or(c.mongo.db.as_ref()) else { return };
    if !c.has_fields_table() && !c.is_document_enum() {
        cx.error_spanned_by(at, "a collection root must be a struct with named fields, or an enum serde writes as a document: internally tagged (`#[serde(tag = \"type\")]`) or adjacently tagged (`#[serde(tag = \"type\", content = \"data\")]`), with no untagged variant. An externally tagged enum writes a unit variant as a bare string, and an untagged one whatever its variants write; move `db` / `collection` to such a type");
    }
}

/// `with` / `serialize_with` replace serde's output with something the derive cannot see.
fn helper_without_type(cx: &Ctxt, field: &Field) {
    let Some(with) = &field.serde.with else { return };
    if field.mongo.keywords.bson_type().is_none() && helpers::written_by(&with.value()).is_none() {
        cx.error_spanned_by(
            with,
            format!(
                "`{}` is written by the serde helper `{}`, whose BSON type mongo-schema cannot see: add \
                 `#[mongo(bson_type = \"...\")]` naming the BSON type that helper writes (mongod's alias: `string`, `int`, \
                 `long`, `date`, `decimal`, `binData`, ...); for a helper of mongo-schema or bson, the path ending in the \
                 helper's own module or type (`decimal128`, `datetime::FromChrono04DateTime`) is recognised",
                field.name,
                with.value()
            ),
        );
    }
}

/// A helper on a variant writes its whole content: not supported, a field helper is.
fn variant_helpers(cx: &Ctxt, c: &Container) {
    let Data::Enum(variants) = &c.data else { return };
    for variant in variants.iter().filter(|v| !v.mongo.items.is_empty()) {
        cx.syn_error(syn::Error::new(
            variant.mongo.items[0].span,
            format!(
                "variant `{}`: `items(...)` constrains a field's items; put it on the variant's field",
                variant.name
            ),
        ));
    }
    for variant in variants.iter().filter(|v| v.serde.with.is_some()) {
        cx.error_spanned_by(
            &variant.serde.with,
            format!("variant `{}`: `with` on a variant is not supported by MongoSchema; put the helper on the variant's field", variant.name),
        );
    }
}

/// A keyword of a kind the field's schema is not (`max_items` on a string, `pattern` on
/// a number) is written into the schema and enforces nothing; an `enum_values` the type
/// cannot hold rejects every document. Decided here where the type's syntax shows the
/// kind (a primitive, `Vec<T>`, a map, `bson_type`, a known serde helper), at the field
/// and at each level of `items(...)`; where it does not (an alias, a path, a generic
/// parameter), [`Kinds::needs_facts`] asks the field's const check to read its facts.
fn keyword_kinds(cx: &Ctxt, field: &Field) {
    for error in kinds(field).errors {
        cx.syn_error(error);
    }
}

/// What the syntax decides about a field's keywords.
pub struct Kinds {
    pub errors: Vec<syn::Error>,
    /// Some keyword (of the field or of its first `items(...)` level) needs a kind the
    /// syntax does not show: the const check reads it from the field's facts.
    pub needs_facts: bool,
}

pub fn kinds(field: &Field) -> Kinds {
    let mut out = Kinds { errors: Vec::new(), needs_facts: false };
    let (kind, mut item) = match field.known_kind() {
        // `bson_type` or a helper: the items' own type is not known
        Some(kind) => (Some(kind.unwrap_or(BsonKind::Any)), None),
        None => match syntax(&field.original.ty) {
            Some((kind, item)) => (Some(kind), item),
            None => (None, None),
        },
    };
    match kind {
        Some(kind) => level(&mut out.errors, &field.mongo.keywords, kind, false),
        None => out.needs_facts = needs_kind(&field.mongo.keywords),
    }
    // the kind of the value whose items the next level constrains
    let mut container = kind;
    for (depth, items) in field.mongo.items.iter().enumerate() {
        let nested = || {
            syn::Error::new(
                items.span,
                "a nested `items(...)` is checked through the type as written: spell the containers out \
                 (`Vec<Vec<String>>`, `HashMap<String, Vec<String>>`) rather than an alias or generic parameter",
            )
        };
        match container {
            // the const check asks the facts whether the field is an array or a map, and
            // what its items are
            None if depth == 0 => {
                out.needs_facts = true;
                continue;
            }
            None => {
                out.errors.push(nested());
                return out;
            }
            Some(BsonKind::Array | BsonKind::Object) => {}
            Some(BsonKind::Any | BsonKind::Mixed) => return out,
            Some(kind) => {
                out.errors.push(syn::Error::new(
                    items.span,
                    format!(
                        "`items(...)` constrains the items of an array or the values of a map, and {} `{}`: set \
                         the keywords on the {} itself",
                        if depth == 0 {
                            "this field's schema is"
                        } else {
                            "the values the enclosing `items(...)` constrains are"
                        },
                        kind.alias().unwrap_or("a value of no single type"),
                        if depth == 0 { "field" } else { "enclosing `items(...)`" },
                    ),
                ));
                return out;
            }
        }
        match item.and_then(syntax) {
            Some((kind, next)) => {
                level(&mut out.errors, &items.keywords, kind, true);
                container = Some(kind);
                item = next;
            }
            // the items of a `bson_type = "array"` field: the derive cannot see them
            None if item.is_none() => return out,
            // `Vec<Alias>`: the const check reads the items' kind from the field's facts
            None if depth == 0 => {
                out.needs_facts |= needs_kind(&items.keywords);
                container = None;
                item = None;
            }
            None => {
                container = None;
                item = None;
            }
        }
    }
    out
}

/// Some keyword of `keywords` constrains a particular kind (or lists values).
fn needs_kind(keywords: &Keywords) -> bool {
    keywords.list.iter().any(|(_, k)| k.parts().0.applies != Applies::Any || matches!(k, Keyword::Enum(_)))
}

/// The keywords of one level checked against the kind of its values.
fn level(errors: &mut Vec<syn::Error>, keywords: &Keywords, kind: BsonKind, item: bool) {
    for (span, keyword) in &keywords.list {
        let spec = keyword.parts().0;
        if !spec.applies.fits(kind) {
            errors.push(syn::Error::new(*span, keyword::wrong_kind(spec, kind, item).as_str()));
        }
        if let Keyword::Enum(values) = keyword {
            if let Some(value) = values.iter().find(|v| !keyword::holds(kind, v)) {
                errors.push(syn::Error::new(*span, keyword::unheld(&borrowed(value), kind, item).as_str()));
            }
        }
    }
}

fn borrowed(lit: &Lit) -> keyword::Lit<&str> {
    match lit {
        Lit::Str(s) => keyword::Lit::Str(s.as_str()),
        Lit::Int(i) => keyword::Lit::Int(*i),
        Lit::Float(f) => keyword::Lit::Float(*f),
        Lit::Bool(b) => keyword::Lit::Bool(*b),
    }
}

/// The BSON kind the syntax of `ty` shows, and for an array or map the type of its items
/// (values): `Vec<T>`, sets, `[T; N]`, `HashMap<String, V>`, a primitive, through
/// `Option` and `Box`. `None` for any other type (an alias, a path, a generic parameter).
fn syntax(ty: &syn::Type) -> Option<(BsonKind, Option<&syn::Type>)> {
    match ty {
        syn::Type::Array(a) => return Some((BsonKind::Array, Some(&a.elem))),
        syn::Type::Slice(s) => return Some((BsonKind::Array, Some(&s.elem))),
        syn::Type::Paren(p) => return syntax(&p.elem),
        syn::Type::Group(g) => return syntax(&g.elem),
        _ => {}
    }
    let syn::Type::Path(p) = ty else { return None };
    if p.qself.is_some() {
        return None;
    }
    let last = p.path.segments.last()?;
    let name = last.ident.to_string();
    let args: Vec<&syn::Type> = match &last.arguments {
        syn::PathArguments::None if p.path.segments.len() == 1 && p.path.leading_colon.is_none() => {
            return bson::primitive(&name).map(|kind| (kind, None))
        }
        syn::PathArguments::AngleBracketed(args) => args
            .args
            .iter()
            .filter_map(|arg| match arg {
                syn::GenericArgument::Type(ty) => Some(ty),
                _ => None,
            })
            .collect(),
        _ => return None,
    };
    match (name.as_str(), args.as_slice()) {
        ("Option" | "Box", [inner]) => syntax(inner),
        (name, [item, ..]) if bson::SEQUENCES.contains(&name) => Some((BsonKind::Array, Some(item))),
        (name, [_, value, ..]) if bson::MAPS.contains(&name) => Some((BsonKind::Object, Some(value))),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::run;
    use mongo_schema_contract::rules::check;
    use syn::parse_quote;

    fn needs_facts(input: syn::DeriveInput) -> Vec<bool> {
        run(input)
            .1
            .iter()
            .map(|a| {
                let bits: u32 = a
                    .split(' ')
                    .nth(2)
                    .and_then(|b| u32::from_str_radix(b.trim_start_matches("0b"), 2).ok())
                    .unwrap_or(0);
                bits & check::KEYWORDS != 0
            })
            .collect()
    }

    #[test]
    fn a_rename_needs_serde_to_read_the_old_key() {
        let errors = |input| run(input).0;
        // the alias names the old key: nothing to say, whichever of several aliases it is
        assert!(errors(parse_quote! {
            #[mongo(db = "db_a", collection = "t_plan")]
            struct Plan { #[serde(alias = "seats", alias = "maxSeats")] #[mongo(renamed_from = "maxSeats")] seat_limit: i32 }
        })
        .is_empty());
        let missing = errors(parse_quote! {
            #[mongo(db = "db_a", collection = "t_plan")]
            struct Plan { #[mongo(renamed_from = "maxSeats")] seat_limit: i32 }
        });
        assert_eq!(missing.len(), 1, "{missing:?}");
        assert!(
            missing[0].starts_with(
                "renamed_from = \"maxSeats\" needs serde to read the old key too: add `#[serde(alias = \"maxSeats\")]`"
            ),
            "{missing:?}"
        );
        // an alias of another key, or the old key as the deserialize-only name, is not the alias
        let other = errors(parse_quote! {
            #[mongo(db = "db_a", collection = "t_plan")]
            struct Plan {
                #[serde(alias = "max_seats", rename(deserialize = "maxSeats"))]
                #[mongo(renamed_from = "maxSeats")]
                seat_limit: i32,
            }
        });
        assert!(other[0].contains("too (its `alias = \"max_seats\"` is another key): add"), "{other:?}");
        // a misplaced rename says that, not also the alias
        let embedded = errors(parse_quote! { struct Seats { #[mongo(renamed_from = "max")] seat_limit: i32 } });
        assert_eq!(embedded.len(), 1, "{embedded:?}");
        assert!(embedded[0].starts_with("renamed_from is read by migrations"), "{embedded:?}");
    }

    #[test]
    fn nullable_is_for_an_option_that_may_be_missing_and_reads_back_when_it_is() {
        let errors = |input| run(input).0;
        let first = |input| errors(input).first().cloned().unwrap_or_default();
        // the spelling, with a helper (which needs `default`) and without (which does not)
        assert!(errors(parse_quote! {
            struct A {
                #[serde(skip_serializing_if = "Option::is_none")] #[mongo(nullable, max_length = 20)] nick: Option<String>,
                #[serde(default, with = "decimal128_option", skip_serializing_if = "Option::is_none")] #[mongo(nullable)]
                tip_amount: Option<Decimal>,
            }
        })
        .is_empty());
        // a container `default` covers the helper too
        assert!(errors(parse_quote! {
            #[serde(default)]
            struct A { #[serde(with = "decimal128_option", skip_serializing_if = "Option::is_none")] #[mongo(nullable)] tip_amount: Option<Decimal> }
        })
        .is_empty());
        let cases: [(syn::DeriveInput, &str); 7] = [
            (
                parse_quote! { struct A { #[serde(skip_serializing_if = "String::is_empty")] #[mongo(nullable)] nick: String } },
                "`nullable` admits null for a field that may be missing or null, which serde reads back only into an `Option`",
            ),
            (
                parse_quote! { struct A { #[serde(skip_serializing_if = "Option::is_none")] #[mongo(nullable)] nick: MaybeNick } },
                "`nullable` admits null",
            ),
            (
                parse_quote! { struct A { #[mongo(nullable)] nick: Option<String> } },
                "this `Option` admits null already: serde writes `None` as null, so the field is required",
            ),
            (
                parse_quote! { struct A { #[serde(skip_serializing_if = "no_tags")] #[mongo(nullable)] tags: Option<Vec<u8>> } },
                "this `Option` admits null already and may be missing: serde writes `None` as null wherever `skip_serializing_if = \"no_tags\"`",
            ),
            (
                parse_quote! { struct A { #[serde(deserialize_with = "read", skip_serializing_if = "Option::is_none")] #[mongo(nullable)] n: Option<i32> } },
                "serde refuses a document without this field: the helper `read` reads it, and serde calls no helper for a missing field; add `default` so that a missing field reads as `None`: `#[serde(default, deserialize_with = \"read\", skip_serializing_if = \"Option::is_none\")]`",
            ),
            (
                parse_quote! { struct A { #[serde(flatten, skip_serializing_if = "Option::is_none")] #[mongo(nullable)] extra: Option<Extra> } },
                "`nullable` applies to a field with a key of its own",
            ),
            (parse_quote! { enum E { #[mongo(nullable)] A { n: i32 } } }, "`nullable` applies to a field: put it on the variant's field"),
        ];
        for (input, expected) in cases {
            let error = first(input);
            assert!(error.starts_with(expected), "{error}\nexpected: {expected}");
        }
        assert!(first(parse_quote! { struct T(#[mongo(nullable)] Option<i32>, i32); }).contains("a named field"));
    }

    #[test]
    fn syntax_decides_where_it_shows_the_kind_and_leaves_the_rest_to_the_facts() {
        // shown by syntax: decided here, no const keyword check
        let (errors, _) =
            run(parse_quote! { struct A { #[mongo(max_items = 3, items(max_length = 3))] tags: Option<Vec<String>> } });
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(
            needs_facts(
                parse_quote! { struct A { #[mongo(max_items = 3, items(max_length = 3))] tags: Option<Vec<String>> } }
            ),
            [false]
        );
        // an alias, an alias of items, a generic parameter: the facts decide
        assert_eq!(needs_facts(parse_quote! { struct A { #[mongo(max_length = 3)] sku: Sku } }), [true]);
        assert_eq!(
            needs_facts(parse_quote! { struct A { #[mongo(max_items = 3, items(max_length = 3))] tags: Vec<Sku> } }),
            [true]
        );
        assert_eq!(needs_facts(parse_quote! { struct A<T> { #[mongo(max_length = 3)] value: T } }), [true]);
        // keywords of any kind and no keywords: nothing to check
        assert_eq!(needs_facts(parse_quote! { struct A { #[mongo(title = "t")] sku: Sku } }), [false]);
        // wrong kinds shown by syntax, at each level
        let (errors, _) = run(
            parse_quote! { struct A { #[mongo(max_items = 3, items(max_items = 2, items(minimum = 1)))] grid: Vec<Vec<String>> } },
        );
        assert!(
            errors[0].starts_with("`minimum` applies to a number, and the items of this field are `string`"),
            "{errors:?}"
        );
        let (errors, _) = run(parse_quote! { struct A { #[mongo(items(items(max_length = 1)))] grid: Vec<Cells> } });
        assert!(errors[0].starts_with("a nested `items(...)` is checked through the type as written"), "{errors:?}");
        // `bson_type = "array"`: the items are not known, nothing is refused
        let (errors, _) =
            run(parse_quote! { struct A { #[mongo(bson_type = "array", items(minimum = 1))] raw_list: Raw } });
        assert!(errors.is_empty(), "{errors:?}");
    }
}
