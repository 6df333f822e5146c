//! Property tests over generated (schema, document) pairs: decoding never changes a verdict,
//! the fast path and the explaining path agree, and nothing panics.

#![forbid(unsafe_code)]

use mongo_schema_test_support::validator_gen as gen;

use mongo_schema::bson::{Bson, Document, RawDocumentBuf};
use mongo_schema::Validator;
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    // validate (decoded) and validate_raw (bytes) give the same verdict and the same errInfo.
    #[test]
    fn decoded_and_raw_agree(schema in gen::schema(), doc in gen::document()) {
        let validator = Validator::new(&schema).expect("generated schemas are valid");
        let raw = RawDocumentBuf::try_from(&doc).unwrap();
        let (decoded, by_bytes) = (validator.validate(&doc), validator.validate_raw(&raw));
        prop_assert_eq!(decoded.is_ok(), by_bytes.is_ok());
        prop_assert_eq!(validator.is_valid(&doc), decoded.is_ok());
        if let (Err(a), Err(b)) = (decoded, by_bytes) {
            // Compared as bytes: NaN values are equal there, not under `PartialEq`.
            let bytes = |info: &Document| RawDocumentBuf::try_from(info).unwrap().into_bytes();
            prop_assert_eq!(bytes(&a.failure().unwrap().err_info()), bytes(&b.failure().unwrap().err_info()));
        }
    }

    // Every failure explains itself: at least one entry in schemaRulesNotSatisfied, or (a root
    // type that excludes documents) mongod's always-false reason.
    #[test]
    fn every_failure_is_explained(schema in gen::schema(), doc in gen::document()) {
        let validator = Validator::new(&schema).unwrap();
        if let Err(err) = validator.validate(&doc) {
            let details = err.failure().unwrap().details().clone();
            let explained = match details.get_array("schemaRulesNotSatisfied") {
                Ok(rules) => !rules.is_empty(),
                Err(_) => details.get_str("reason").ok() == Some("expression always evaluates to false"),
            };
            prop_assert!(explained, "{}", details);
        }
    }

    // Arbitrary documents as schemas: Validator::new refuses or accepts, never panics.
    #[test]
    fn arbitrary_schemas_never_panic(schema in gen::value(), doc in gen::document()) {
        if let Bson::Document(schema) = schema {
            if let Ok(validator) = Validator::new(&schema) {
                let _ = validator.validate(&doc);
            }
        }
    }

    // A schema nested under `not` inverts every verdict (not/not is the identity).
    #[test]
    fn not_inverts(schema in gen::schema(), doc in gen::document()) {
        let plain = Validator::new(&schema).unwrap().is_valid(&doc);
        let negated: Document = mongo_schema::bson::doc! { "not": schema };
        prop_assert_eq!(Validator::new(&negated).unwrap().is_valid(&doc), !plain);
    }
}
