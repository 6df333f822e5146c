//! The local validator over derived models: every value the driver writes for a model
//! passes `Validator::new(&T::json_schema())`, and a value breaking a declared bound fails
//! with that keyword at that path.

#![forbid(unsafe_code)]

use mongo_schema::{MongoSchema, Validator};
use mongo_schema_tests::bson;
use mongo_schema_tests::{driver_bytes, models::*, roots, violations, Samples};
use proptest::prelude::*;
use std::collections::BTreeMap;

#[test]
fn driver_written_samples_pass_the_local_validator() {
    for root in roots() {
        let validator =
            Validator::new(&root.json_schema).unwrap_or_else(|e| panic!("{}: schema refused: {e}", root.rust_type));
        for sample in &root.samples {
            if let Err(e) = validator.validate_raw(sample) {
                panic!("{}: sample refused: {e:?}\n{sample:?}", root.rust_type);
            }
        }
    }
}

#[test]
fn each_broken_bound_fails_with_its_keyword() {
    let mut checked = 0;
    for root in roots() {
        let validator = Validator::new(&root.json_schema).unwrap();
        let sample: bson::Document = bson::deserialize_from_slice(root.samples[0].as_bytes()).unwrap();
        for violation in violations::of(&root.json_schema, &sample) {
            checked += 1;
            let error = validator
                .validate(&violation.document)
                .expect_err(&format!("{}: {} passed", root.collection, violation.what));
            let failure = error.failure().expect("a validation failure, not malformed input");
            let keyword = violation.what.rsplit(' ').next().unwrap();
            let reported: Vec<(&str, &str)> =
                failure.violations().iter().map(|v| (v.path.as_str(), v.keyword)).collect();
            assert!(
                reported.iter().any(|(_, k)| *k == keyword),
                "{}: {} reported {reported:?}",
                root.collection,
                violation.what
            );
        }
    }
    assert!(checked > 100, "only {checked} violations");
}

fn keywords() -> impl Strategy<Value = Keywords> {
    (
        "[a-z]{2,8}",
        -5i32..=5,
        (1u32..1000).prop_map(|n| f64::from(n) / 1000.0),
        (-20i32..20).prop_map(|n| n * 5),
        proptest::collection::btree_set(any::<i32>(), 1..=4),
        proptest::collection::btree_map("[a-z]{1,5}", ".{0,10}", 1..=3),
        prop::sample::select(vec!["CNY", "USD", "EUR"]),
        ".{0,30}",
        any::<bool>(),
        (1u32..=199).prop_map(|n| f64::from(n) / 2.0),
    )
        .prop_map(|(code, level, fraction, step, choices, attrs, currency, nick, documented, score)| Keywords {
            id: bson::oid::ObjectId::new(),
            code,
            level,
            fraction,
            step,
            choices: choices.into_iter().collect(),
            attrs: attrs.into_iter().collect::<BTreeMap<_, _>>(),
            currency: currency.to_owned(),
            nick,
            documented,
            score,
        })
}

fn address() -> impl Strategy<Value = Address> {
    (".{1,100}", ".{1,50}", proptest::option::of("[0-9]{6}")).prop_map(|(street, city, zip_code)| Address {
        street,
        city,
        zip_code,
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn generated_keyword_values_pass(value in keywords()) {
        let validator = Validator::new(&Keywords::json_schema()).unwrap();
        let raw = driver_bytes(&value);
        prop_assert!(validator.validate_raw(&raw).is_ok(), "{:?}", validator.validate_raw(&raw));
    }

    #[test]
    fn generated_embedded_values_pass(value in address()) {
        let validator = Validator::new(&Address::json_schema()).unwrap();
        let raw = driver_bytes(&value);
        prop_assert!(validator.validate_raw(&raw).is_ok(), "{:?}", validator.validate_raw(&raw));
    }

    #[test]
    fn a_street_past_its_bound_fails_at_its_path(extra in 1usize..20, mut value in address()) {
        value.street = "s".repeat(100 + extra);
        let validator = Validator::new(&Address::json_schema()).unwrap();
        let error = validator.validate_raw(&driver_bytes(&value)).unwrap_err();
        let failure = error.failure().unwrap();
        let found: Vec<(&str, &str)> = failure.violations().iter().map(|v| (v.path.as_str(), v.keyword)).collect();
        prop_assert!(found.contains(&("street", "maxLength")), "{:?}", found);
    }
}

/// Each violation of a derived type's validator names the Rust field behind its schema path:
/// through an embedded struct, an array of them, an `Option`, and a flattened struct.
#[test]
fn violations_name_the_rust_field() {
    fn notes<T: MongoSchema + serde::Serialize>(
        value: &T,
        break_it: impl FnOnce(&mut bson::Document),
    ) -> Vec<(String, &'static str, Option<String>)> {
        let validator = Validator::for_type::<T>().unwrap();
        let mut document = bson::serialize_to_document(value).unwrap();
        break_it(&mut document);
        let error = validator.validate(&document).expect_err("the broken document passed");
        error.failure().unwrap().violations().iter().map(|v| (v.path.clone(), v.keyword, v.note.clone())).collect()
    }
    let containers = Containers::samples().remove(0);
    let broken = notes(&containers, |d| {
        d.get_document_mut("address").unwrap().insert("city", "");
        d.get_array_mut("addresses").unwrap()[0].as_document_mut().unwrap().insert("street", 5);
        d.insert("maybeAddress", bson::doc! { "street": "s", "city": "c", "zipCode": "12" });
        d.insert("nullableCount", "many");
    });
    let expect = |path: &str, keyword: &'static str, note: &str| (path.to_owned(), keyword, Some(note.to_owned()));
    for wanted in [
        expect("address.city", "minLength", "Address::city"),
        expect("addresses.0.street", "bsonType", "Address::street"),
        expect("maybeAddress.zipCode", "pattern", "Address::zip_code"),
        expect("nullableCount", "bsonType", "Containers::nullable_count"),
    ] {
        assert!(broken.contains(&wanted), "{wanted:?} not in {broken:#?}");
    }
    let flattened = Flattened::samples().remove(0);
    let broken = notes(&flattened, |d| {
        d.insert("createTime", "yesterday");
        d.remove("title");
    });
    assert!(broken.contains(&expect("createTime", "bsonType", "Audit::create_time")), "{broken:#?}");
    assert!(broken.contains(&expect("title", "required", "Flattened")), "{broken:#?}");
}
