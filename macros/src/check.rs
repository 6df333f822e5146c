//! Checks on the shape of a model that the schema depends on. The modelling rules of the
//! standard live in `rules/`.

use crate::ctxt::Ctxt;
use crate::ir::{Container, Data, Field};
use mongo_schema_contract::helpers;

pub fn all(cx: &Ctxt, c: &Container) {
    root_names(cx, c);
    root_shape(cx, c);
    for field in fields(c) {
        helper_without_type(cx, field);
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

/// A collection holds documents: a root is a struct with named fields that serde writes as
/// a document.
fn root_shape(cx: &Ctxt, c: &Container) {
    let Some(at) = c.mongo.collection.as_ref().or(c.mongo.db.as_ref()) else { return };
    if !c.has_fields_table() {
        cx.error_spanned_by(at, "a collection root must be a struct with named fields (serde must write it as a document); move `db` / `collection` to such a struct");
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
