//! A field that may be missing and may be null: `Option<T>` with
//! `#[serde(default, skip_serializing_if = "Option::is_none")]` and `#[mongo(nullable)]`.
//! Each of the three documents it meets (missing, null, a value) passes the derived
//! validator and reads back through bson's deserializer to the value it says, and what
//! serde writes for that value passes too. Beside it, what serde really reads for the
//! other spellings, which is why this one is the spelling. The same documents on mongod:
//! `tests/tests/mongod.rs`.

#![forbid(unsafe_code)]

use mongo_schema::{MongoSchema, Validator};
use mongo_schema_tests::bson::{self, doc, Bson, Document};
use mongo_schema_tests::driver_bytes;
use mongo_schema_tests::models::{nullable_cases, SerdeAttributes};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

/// `document` read as the driver reads a typed find: bson's raw deserializer over its bytes.
fn read<T: DeserializeOwned>(document: &Document) -> Result<T, String> {
    let mut bytes = Vec::new();
    document.to_writer(&mut bytes).map_err(|e| e.to_string())?;
    bson::deserialize_from_slice(&bytes).map_err(|e| e.to_string())
}

#[test]
fn missing_null_and_a_value_pass_and_read_back() {
    let validator = Validator::for_type::<SerdeAttributes>().unwrap();
    let schema = SerdeAttributes::json_schema();
    let property = |name: &str| {
        let mut property = schema.get_document("properties").unwrap().get_document(name).unwrap().clone();
        property.remove("description");
        property
    };
    assert_eq!(
        property("middle_name"),
        doc! { "bsonType": ["string", "null"], "maxLength": 20 },
        "null admitted, the keywords kept"
    );
    assert_eq!(property("tip_amount"), doc! { "bsonType": ["decimal", "null"] });
    let required = schema.get_array("required").unwrap();
    for field in ["middle_name", "tip_amount"] {
        assert!(!required.contains(&Bson::from(field)), "`{field}` may be missing: {required:?}");
    }
    for (case, document, middle_name, tip_amount) in nullable_cases() {
        validator.validate(&document).unwrap_or_else(|e| panic!("{case}: refused: {e}\n{document}"));
        let back: SerdeAttributes = read(&document).unwrap_or_else(|e| panic!("{case}: unreadable: {e}"));
        assert_eq!((&back.middle_name, &back.tip_amount), (&middle_name, &tip_amount), "{case}");
        // what serde writes back: nothing for `None`, and it passes
        let written = driver_bytes(&back);
        validator.validate_raw(&written).unwrap_or_else(|e| panic!("{case}: serde's own write refused: {e}"));
        for field in ["middle_name", "tip_amount"] {
            let value = written.get(field).unwrap();
            assert_eq!(value.is_some(), middle_name.is_some(), "{case}: `{field}` written as {value:?}");
        }
    }
    // null is one more value, not a way around the field's type and keywords
    let (_, document, ..) = nullable_cases().remove(2);
    for (field, value, keyword) in [
        ("middle_name", Bson::from("m".repeat(21)), "maxLength"),
        ("middle_name", Bson::Int32(5), "bsonType"),
        ("tip_amount", Bson::Double(1.5), "bsonType"),
    ] {
        let mut broken = document.clone();
        broken.insert(field, value);
        let error = validator.validate(&broken).expect_err(field);
        let found: Vec<(&str, &str)> =
            error.failure().unwrap().violations().iter().map(|v| (v.path.as_str(), v.keyword)).collect();
        assert_eq!(found, [(field, keyword)]);
    }
}

/// Every spelling of an `Option` field, and what serde and the validator make of a missing
/// field, a null and a value.
#[derive(Debug, PartialEq, Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
struct Spellings {
    /// Required, may be null: serde writes `None` as null.
    written_null: Option<i32>,
    /// May be missing, never null: serde writes nothing for `None`.
    #[serde(skip_serializing_if = "Option::is_none")]
    skipped: Option<i32>,
    /// May be missing or null.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[mongo(nullable)]
    skipped_nullable: Option<i32>,
    /// Not a spelling: serde reads null as `None`, never `Some(None)`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    nested: Option<Option<i32>>,
}

#[test]
fn what_serde_reads_for_each_spelling() {
    let validator = Validator::for_type::<Spellings>().unwrap();
    let full = doc! { "writtenNull": 1, "skipped": 2, "skippedNullable": 3, "nested": 4 };
    let admitted = |field: &str, value: Option<Bson>| {
        let mut document = full.clone();
        match value {
            Some(value) => document.insert(field, value),
            None => document.remove(field),
        };
        let back: Option<Spellings> = read(&document).ok();
        (validator.is_valid(&document), back)
    };
    let spelled =
        |written_null, skipped, skipped_nullable, nested| Spellings { written_null, skipped, skipped_nullable, nested };
    // serde reads a missing `Option` as `None` whatever its attributes (`default` is for
    // a field read by a helper)
    assert_eq!(admitted("writtenNull", None), (false, Some(spelled(None, Some(2), Some(3), Some(Some(4))))));
    assert_eq!(admitted("writtenNull", Some(Bson::Null)), (true, Some(spelled(None, Some(2), Some(3), Some(Some(4))))));
    assert_eq!(admitted("skipped", None), (true, Some(spelled(Some(1), None, Some(3), Some(Some(4))))));
    // serde reads a null it never writes: refused by the validator, which describes the writes
    assert_eq!(admitted("skipped", Some(Bson::Null)), (false, Some(spelled(Some(1), None, Some(3), Some(Some(4))))));
    assert_eq!(admitted("skippedNullable", None), (true, Some(spelled(Some(1), Some(2), None, Some(Some(4))))));
    assert_eq!(
        admitted("skippedNullable", Some(Bson::Null)),
        (true, Some(spelled(Some(1), Some(2), None, Some(Some(4))))),
        "the one spelling that admits both"
    );
    // `Option<Option<T>>` cannot tell null from missing on read: both are `None`, so the
    // `Some(None)` it writes as null does not come back
    assert_eq!(admitted("nested", None).1, Some(spelled(Some(1), Some(2), Some(3), None)));
    assert_eq!(admitted("nested", Some(Bson::Null)).1, Some(spelled(Some(1), Some(2), Some(3), None)));
    let some_none = spelled(Some(1), Some(2), Some(3), Some(None));
    let written: Document = bson::deserialize_from_slice(driver_bytes(&some_none).as_bytes()).unwrap();
    assert_eq!(written.get("nested"), Some(&Bson::Null));
    assert_ne!(read::<Spellings>(&written).unwrap(), some_none);
}
