//! Documented `$jsonSchema` behaviour, checked locally (no server). The same cases run
//! against a real mongod in `validator_differential.rs`.

#![forbid(unsafe_code)]

use mongo_schema_test_support::validator_cases as cases;

use mongo_schema::bson::{doc, Bson};
use mongo_schema::Validator;

#[test]
fn every_documented_case_decides_as_documented() {
    let wrong: Vec<String> = cases::cases().iter().flat_map(cases::check_locally).collect();
    assert!(wrong.is_empty(), "{} disagreements:\n{}", wrong.len(), wrong.join("\n"));
}

#[test]
fn every_refused_schema_is_refused_at_its_keyword() {
    for refused in cases::refused() {
        match Validator::new(&refused.schema) {
            Ok(_) => panic!("{} [{}]: accepted {}", refused.name, refused.source, refused.schema),
            Err(e) => assert_eq!(e.path(), refused.path, "{} [{}]: {e}", refused.name, refused.source),
        }
    }
}

// [ERR] errInfo: failingDocumentId, details.operatorName "$jsonSchema", schemaRulesNotSatisfied.
#[test]
fn err_info_has_mongod_shape() {
    let schema = doc! {
        "title": "users",
        "required": ["name", "email"],
        "properties": { "name": { "bsonType": "string", "minLength": 2 }, "age": { "minimum": 0 } },
    };
    let validator = Validator::new(&schema).unwrap();
    let err = validator.validate(&doc! { "_id": 7, "name": "A", "age": -1 }).unwrap_err();
    let info = err.failure().unwrap().err_info();
    assert_eq!(info.get("failingDocumentId"), Some(&Bson::Int32(7)));
    let details = info.get_document("details").unwrap();
    assert_eq!(details.get_str("operatorName").unwrap(), "$jsonSchema");
    assert_eq!(details.get_str("title").unwrap(), "users");
    let rules = details.get_array("schemaRulesNotSatisfied").unwrap();
    let names: Vec<&str> = rules.iter().map(|r| r.as_document().unwrap().get_str("operatorName").unwrap()).collect();
    assert_eq!(names, ["properties", "required"]);
    let required = rules[1].as_document().unwrap();
    assert_eq!(required.get_array("missingProperties").unwrap(), &vec![Bson::String("email".into())]);
    let properties = rules[0].as_document().unwrap().get_array("propertiesNotSatisfied").unwrap();
    let failed: Vec<&str> =
        properties.iter().map(|p| p.as_document().unwrap().get_str("propertyName").unwrap()).collect();
    // In the order `properties` is written, as mongod reports them (validator_errinfo.rs).
    assert_eq!(failed, ["name", "age"]);
}

#[test]
fn violations_carry_document_paths_and_notes() {
    let schema =
        doc! { "properties": { "lines": { "items": { "properties": { "sku": { "pattern": "^[A-Z]{3}$" } } } } } };
    let mut validator = Validator::new(&schema).unwrap();
    validator.annotate("properties.lines.items.properties.sku", "Order::lines[].sku");
    let err = validator.validate(&doc! { "lines": [{ "sku": "ABC" }, { "sku": "abc" }] }).unwrap_err();
    let violations = err.failure().unwrap().violations();
    assert_eq!(violations.len(), 1);
    assert_eq!(violations[0].path, "lines.1.sku");
    assert_eq!(violations[0].keyword, "pattern");
    assert_eq!(violations[0].note.as_deref(), Some("Order::lines[].sku"));
}

#[test]
fn malformed_bytes_are_reported_not_judged() {
    let validator = Validator::new(&doc! { "properties": { "a": { "bsonType": "string" } } }).unwrap();
    let mut bytes = mongo_schema::bson::RawDocumentBuf::try_from(&doc! { "a": "xyz" }).unwrap().into_bytes();
    let len = bytes.len();
    bytes[len - 3] = 0xff; // break the string's UTF-8
    let raw = mongo_schema::bson::RawDocument::from_bytes(&bytes).unwrap();
    assert!(matches!(validator.validate_raw(raw), Err(mongo_schema::validate::ValidationError::Malformed(_))));
}

// Fuzz regression (crash-62070af3): raw BSON may repeat a field name; `properties` judges the
// first occurrence only, as mongod's getField does, so a later bad duplicate does not fail.
#[test]
fn repeated_field_names_use_the_first_occurrence() {
    let validator = Validator::new(&doc! { "properties": { "n": { "bsonType": "double" } } }).unwrap();
    // bson 3 keys are `CStr`, bson 2 keys plain `str`
    #[cfg(feature = "bson-3")]
    let n = mongo_schema::bson::raw::cstr!("n");
    #[cfg(not(feature = "bson-3"))]
    let n = "n";
    let mut buf = mongo_schema::bson::RawDocumentBuf::new();
    buf.append(n, 3.0);
    buf.append(n, "not a double");
    assert!(validator.validate_raw(&buf).is_ok());
}
