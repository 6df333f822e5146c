//! Serde agreement: what the driver writes for every sample of every corpus model has
//! the BSON type and presence its own `json_schema()` says, field by field.

#![forbid(unsafe_code)]

use mongo_schema::MongoSchema;
use mongo_schema_tests::bson;
use mongo_schema_tests::bson::RawBsonRef;
use mongo_schema_tests::{conform, driver_bytes, models::*, roots, Samples};

#[test]
fn every_root_sample_conforms_to_its_schema() {
    for root in roots() {
        assert!(!root.samples.is_empty(), "{} has no samples", root.rust_type);
        for sample in &root.samples {
            let errors = conform::check(&root.json_schema, RawBsonRef::Document(sample), root.collection);
            assert!(errors.is_empty(), "{}: {errors:#?}\nsample: {sample:?}", root.rust_type);
        }
    }
}

/// Every field the driver writes is described, every described field of a sample is
/// written with one of the schema's types: checked per field so a failure names it.
#[test]
fn every_written_field_is_described_with_its_written_type() {
    for root in roots() {
        let properties = root.json_schema.get_document("properties").unwrap();
        for sample in &root.samples {
            for element in sample.iter() {
                let (key, value) = element.unwrap();
                let property = properties
                    .get_document(AsRef::<str>::as_ref(key))
                    .or_else(|_| root.json_schema.get_document("additionalProperties"));
                assert!(
                    property.is_ok(),
                    "{}: `{}` is written but not in the schema",
                    root.rust_type,
                    AsRef::<str>::as_ref(key)
                );
                let errors = conform::check(property.unwrap(), value, AsRef::<str>::as_ref(key));
                assert!(errors.is_empty(), "{}: {errors:?}", root.rust_type);
            }
        }
    }
}

/// `uuid::Uuid` is binData through the driver, a string through `to_document`: the
/// schema follows the driver.
#[test]
fn exactness_is_judged_on_the_driver_bytes() {
    let sample = &Scalars::samples()[0];
    let raw = driver_bytes(sample);
    assert_eq!(conform::alias(raw.get("traceId").unwrap().unwrap()), "binData");
    assert_eq!(conform::alias(raw.get("unsigned32").unwrap().unwrap()), "long");
    assert_eq!(conform::alias(raw.get("price").unwrap().unwrap()), "decimal");
    assert_eq!(conform::alias(raw.get("updateTime").unwrap().unwrap()), "date");
    let plain = bson::serialize_to_document(&uuid::Uuid::from_u128(1).to_string()).err();
    assert!(plain.is_some(), "a bare string is not a document");
}

/// Embedded and enum types conform on their own too.
#[test]
fn embedded_types_conform() {
    fn each<T: MongoSchema + serde::Serialize>(values: &[T]) {
        for value in values {
            let wrapped =
                bson::serialize_to_raw_document_buf(&bson::doc! { "v": bson::serialize_to_bson(value).unwrap() })
                    .unwrap();
            let errors = conform::check(&T::json_schema(), wrapped.get("v").unwrap().unwrap(), "v");
            assert!(errors.is_empty(), "{}: {errors:?}", std::any::type_name::<T>());
        }
    }
    each(&[Priority::Low, Priority::VeryHigh, Priority::Urgent]);
    each(&[Shape::Point, Shape::Circle { radius: 1.0 }, Shape::Square(2.0), Shape::Segment(1, 2)]);
    each(&[Loose::Number(1), Loose::Text("x".into()), Loose::Nothing]);
    each(&[Meters(2.5)]);
}

/// A value the schema must refuse: the checker is not vacuous.
#[test]
fn violations_are_seen() {
    let schema = Keywords::json_schema();
    let mut sample = bson::serialize_to_document(&Keywords::samples()[0]).unwrap();
    sample.insert("code", "x");
    sample.insert("level", "not a number");
    sample.remove("currency");
    let raw = bson::RawDocumentBuf::try_from(&sample).unwrap();
    let errors = conform::check(&schema, RawBsonRef::Document(&raw), "doc");
    assert_eq!(errors.len(), 3, "{errors:#?}");
}
