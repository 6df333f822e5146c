//! Checks on the shape of a model that the schema depends on. The modelling rules of the
//! standard live in `rules/`.

use crate::attr::mongo::{Keyword, Lit};
use crate::ctxt::Ctxt;
use crate::ir::{Container, Data, Field};
use mongo_schema_contract::bson::BsonKind;
use mongo_schema_contract::helpers;
use mongo_schema_contract::keyword::Applies;

pub fn all(cx: &Ctxt, c: &Container) {
    root_names(cx, c);
    root_shape(cx, c);
    for field in fields(c) {
        helper_without_type(cx, field);
        keyword_kinds(cx, field);
    }
    variant_helpers(cx, c);
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

/// A collection holds documents: a root is a struct with named fields, or an internally
/// tagged enum (the polymorphic pattern: `{type: "...", ...the variant's fields}`), both of
/// which serde writes as a document.
fn root_shape(cx: &Ctxt, c: &Container) {
    let Some(at) = c.mongo.collection.as_ref().or(c.mongo.db.as_ref()) else { return };
    if !c.has_fields_table() && !c.is_internally_tagged() {
        cx.error_spanned_by(at, "a collection root must be a struct with named fields or an internally tagged enum (`#[serde(tag = \"type\")]`, without `content` or `untagged`): the shapes serde writes as a document of their own fields; move `db` / `collection` to such a type");
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
    for variant in variants.iter().filter(|v| v.serde.with.is_some()) {
        cx.error_spanned_by(
            &variant.serde.with,
            format!("variant `{}`: `with` on a variant is not supported by MongoSchema; put the helper on the variant's field", variant.name),
        );
    }
}

/// A keyword of a kind the field's schema is not (`max_items` on a string, `pattern` on
/// a number) is written into the schema and enforces nothing; an `enum_values` the type
/// cannot hold rejects every document. Checked where syntax decides the field's BSON type
/// (a primitive, `bson_type`, a known serde helper).
fn keyword_kinds(cx: &Ctxt, field: &Field) {
    let Some(kind) = field.known_kind().flatten().or_else(|| container_kind(field)) else { return };
    if matches!(kind, BsonKind::Any | BsonKind::Mixed) {
        return;
    }
    let has = kind.alias().unwrap_or("a value of no single type");
    for (span, keyword) in &field.mongo.keywords.list {
        let spec = keyword.parts().0;
        let fits = match spec.applies {
            Applies::Any => true,
            Applies::String => kind == BsonKind::String,
            Applies::Number => is_number(kind),
            Applies::Array => kind == BsonKind::Array,
            Applies::Document => kind == BsonKind::Object,
        };
        if !fits {
            let (attr, needed, own) = (spec.attr, spec.applies.noun(), spec.applies.attrs());
            cx.syn_error(syn::Error::new(
                *span,
                format!(
                    "`{attr}` applies to {needed}, and this field's schema is `{has}`: mongod would ignore it; \
                     remove it (the keywords that apply to {needed} are {own}){}",
                    if matches!(kind, BsonKind::Array | BsonKind::Object) {
                        "; to bound each item or value, give it a newtype whose field carries the keyword"
                    } else {
                        ""
                    }
                ),
            ));
        }
        if let Keyword::Enum(values) = keyword {
            if let Some(value) = values.iter().find(|v| !holds(kind, v)) {
                cx.syn_error(syn::Error::new(
                    *span,
                    format!(
                        "`enum_values` lists {}, which this field's type (`{has}`) cannot hold: no document could \
                         store it; list values of that type",
                        describe(value)
                    ),
                ));
            }
        }
    }
}

/// `array` for a field whose type is, by its syntax, a std sequence or set (`Vec<T>`,
/// `Option<Vec<T>>`, ...), `object` for a std map: a keyword for the items
/// (`max_length` on a `Vec<String>`) would land on the container itself.
fn container_kind(field: &Field) -> Option<BsonKind> {
    if field.serde.with.is_some() || field.mongo.keywords.bson_type().is_some() {
        return None;
    }
    let mut ty = &field.original.ty;
    loop {
        let syn::Type::Path(p) = ty else { return None };
        if p.qself.is_some() {
            return None;
        }
        let last = p.path.segments.last()?;
        let syn::PathArguments::AngleBracketed(args) = &last.arguments else { return None };
        let name = last.ident.to_string();
        match name.as_str() {
            "Option" => match args.args.first() {
                Some(syn::GenericArgument::Type(inner)) if args.args.len() == 1 => ty = inner,
                _ => return None,
            },
            "Vec" | "VecDeque" | "LinkedList" | "HashSet" | "BTreeSet" if args.args.len() == 1 => {
                return Some(BsonKind::Array)
            }
            "HashMap" | "BTreeMap" if args.args.len() == 2 => return Some(BsonKind::Object),
            _ => return None,
        }
    }
}

/// The kinds `$jsonSchema`'s numeric keywords apply to: `int`, `long`, `double`, `decimal`.
fn is_number(kind: BsonKind) -> bool {
    kind.is_number() || kind == BsonKind::Decimal
}

/// A value of `kind` can be `lit`.
fn holds(kind: BsonKind, lit: &Lit) -> bool {
    match lit {
        Lit::Str(_) => kind == BsonKind::String,
        Lit::Bool(_) => kind == BsonKind::Bool,
        Lit::Int(i) => match kind {
            BsonKind::Int => i32::try_from(*i).is_ok(),
            _ => is_number(kind),
        },
        Lit::Float(f) => match kind {
            BsonKind::Double | BsonKind::Decimal => true,
            // a whole number also compares equal to an integer
            BsonKind::Int | BsonKind::Long => f.fract() == 0.0,
            _ => false,
        },
    }
}

fn describe(lit: &Lit) -> String {
    match lit {
        Lit::Str(s) => format!("the string {s:?}"),
        Lit::Bool(b) => format!("`{b}`"),
        Lit::Int(i) => format!("the integer `{i}`"),
        Lit::Float(f) => format!("the number `{f}`"),
    }
}
