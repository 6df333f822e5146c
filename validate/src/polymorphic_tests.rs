//! The builders of polymorphic (flattened enum) schemas, checked by the validator.

use crate::Validator;
use mongo_schema_core::__private::*;
use mongo_schema_core::bson::{doc, Bson, Document};
use mongo_schema_core::schema::{nullable, MongoSchema};

fn variant(name: &'static str, body: Body<'static>) -> Variant<'static> {
    Variant { name, body, untagged: false }
}

/// `{t: "a"}` or `{t: "b", c: <i32>}`: adjacently tagged.
fn adjacent() -> Document {
    let variants = [variant("a", Body::Unit), variant("b", Body::Newtype(<i32 as MongoSchema>::FIELD))];
    enumeration(Repr::Adjacent { tag: "t", content: "c" }, &variants, &[])
}

/// `{kind: "x", x: <string>}` or `{kind: "y"}`: internally tagged.
fn internal() -> Document {
    static X: [FieldFacts; 1] = [FieldFacts { name: "x", ..<String as MongoSchema>::FIELD }];
    let variants = [variant("x", Body::Struct(&X, &[], false)), variant("y", Body::Unit)];
    enumeration(Repr::Internal { tag: "kind" }, &variants, &[])
}

fn flattened(schema: fn() -> Document) -> FieldFacts {
    FieldFacts { flatten: true, schema, ..ALIAS_FIELD }
}

fn valid(schema: &Document, doc: Document) -> bool {
    Validator::new(schema).expect("the schema compiles").is_valid(&doc)
}

#[test]
fn two_flattened_enums_are_both_required_and_their_tags_lifted() {
    let fields =
        [FieldFacts { name: "title", ..<String as MongoSchema>::FIELD }, flattened(adjacent), flattened(internal)];
    let schema = object(Some(&fields), &[], true, true);
    // the adjacent content key is not fixed to names: not lifted
    let required: Vec<Bson> = vec!["title".into(), "t".into(), "kind".into()];
    assert_eq!(schema.get_array("required").unwrap(), &required);
    assert_eq!(schema.get_array("allOf").map(Vec::len).ok(), Some(2));
    let properties = schema.get_document("properties").unwrap();
    assert_eq!(properties.get_document("t").unwrap(), &doc! { "enum": ["a", "b"] });
    assert_eq!(properties.get_document("kind").unwrap(), &doc! { "enum": ["x", "y"] });
    assert!(valid(&schema, doc! { "_id": 1, "title": "a", "t": "b", "c": 5, "kind": "x", "x": "s" }));
    assert!(valid(&schema, doc! { "title": "a", "t": "a", "kind": "y" }));
    // a variant's field under another tag, an unknown field, a wrong tag, a wrong content
    assert!(!valid(&schema, doc! { "title": "a", "t": "a", "c": 5, "kind": "y" }));
    assert!(!valid(&schema, doc! { "title": "a", "t": "a", "kind": "y", "zzz": 1 }));
    assert!(!valid(&schema, doc! { "title": "a", "t": "z", "kind": "y" }));
    assert!(!valid(&schema, doc! { "title": "a", "t": "b", "c": "five", "kind": "y" }));
}

#[test]
fn an_optional_flattened_enum_is_left_alone() {
    let fields = [FieldFacts { flatten: true, schema: || nullable(internal()), ..ALIAS_FIELD }];
    let schema = object(Some(&fields), &[], false, false);
    assert!(!schema.contains_key("oneOf") && !schema.contains_key("required"), "{schema}");
}
