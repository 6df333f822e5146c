//! bson 2 and bson 3 (issue #14): each major's types in derived models, the serde helpers
//! through each major's serializers (the driver's raw one and `to_document`), and
//! `validate_raw` over each major's raw documents and plain bytes. Each part runs under the
//! features that bring its major; with both on (`--all-features`), both run and the two
//! majors' results are compared.

#![cfg(all(feature = "decimal", feature = "chrono-0_4", feature = "uuid-1"))]

use mongo_schema::{MongoSchema, Validator};
use serde::{Deserialize, Serialize};

/// A model of one major's types, the same fields in both, and what that major's
/// serializers make of it.
macro_rules! major {
    ($name:ident, $bson:ident, raw = $raw:ident, doc = $doc:ident, from_slice = $from_slice:ident) => {
        mod $name {
            use super::*;
            use mongo_schema::$bson;
            use $bson::{oid::ObjectId, spec::BinarySubtype, Binary, Bson, DateTime, Decimal128, Document};

            #[derive(Debug, Clone, PartialEq, Serialize, Deserialize, MongoSchema)]
            #[serde(rename_all = "camelCase")]
            pub struct Ledger {
                #[serde(rename = "_id")]
                pub id: ObjectId,
                pub create_time: DateTime,
                pub credit_limit: Decimal128,
                pub blob: Binary,
                pub extra: Document,
                #[serde(with = "mongo_schema::serde_helpers::decimal128")]
                pub balance: rust_decimal::Decimal,
                #[serde(with = "mongo_schema::serde_helpers::decimal128_option")]
                pub refund: Option<rust_decimal::Decimal>,
                #[serde(with = "mongo_schema::serde_helpers::chrono_datetime")]
                pub login_time: chrono::DateTime<chrono::Utc>,
                #[serde(with = "mongo_schema::serde_helpers::chrono_datetime_option")]
                pub logout_time: Option<chrono::DateTime<chrono::Utc>>,
                #[serde(with = "mongo_schema::serde_helpers::uuid_binary")]
                pub external_id: uuid::Uuid,
                #[serde(with = "mongo_schema::serde_helpers::uuid_binary_option")]
                pub parent_id: Option<uuid::Uuid>,
            }

            pub fn ledger(refund: bool) -> Ledger {
                Ledger {
                    id: ObjectId::from_bytes([7; 12]),
                    create_time: DateTime::from_millis(1_700_000_000_123),
                    credit_limit: "1234.50".parse().unwrap(),
                    blob: Binary { subtype: BinarySubtype::Generic, bytes: vec![1, 2, 3] },
                    extra: $bson::doc! { "k": 1 },
                    balance: rust_decimal::Decimal::new(-12_345, 2),
                    refund: refund.then(|| rust_decimal::Decimal::new(5, 1)),
                    login_time: chrono::DateTime::from_timestamp_millis(1_700_000_000_456).unwrap(),
                    logout_time: refund.then(|| chrono::DateTime::from_timestamp_millis(1).unwrap()),
                    external_id: uuid::Uuid::from_u128(0x1234),
                    parent_id: refund.then(|| uuid::Uuid::from_u128(0x5678)),
                }
            }

            /// The bytes the driver writes (the raw serializer).
            pub fn driver_bytes(value: &Ledger) -> $bson::RawDocumentBuf {
                $bson::$raw(value).unwrap()
            }

            /// What `to_document` (human readable) writes.
            pub fn document(value: &Ledger) -> Document {
                $bson::$doc(value).unwrap()
            }

            pub fn read(bytes: &[u8]) -> Ledger {
                $bson::$from_slice(bytes).unwrap()
            }

            /// Each field is stored as the BSON type its schema names.
            pub fn check_types(doc: &Document, refund: bool) {
                let kind = |k: &str| doc.get(k).unwrap_or_else(|| panic!("{k} in {doc:?}"));
                assert!(matches!(kind("_id"), Bson::ObjectId(_)), "{doc:?}");
                assert!(matches!(kind("createTime"), Bson::DateTime(_)), "{doc:?}");
                assert!(matches!(kind("creditLimit"), Bson::Decimal128(_)), "{doc:?}");
                assert!(matches!(kind("blob"), Bson::Binary(_)), "{doc:?}");
                assert!(matches!(kind("extra"), Bson::Document(_)), "{doc:?}");
                assert!(matches!(kind("balance"), Bson::Decimal128(_)), "{doc:?}");
                assert!(matches!(kind("loginTime"), Bson::DateTime(_)), "{doc:?}");
                assert!(
                    matches!(kind("externalId"), Bson::Binary(b) if b.subtype == BinarySubtype::Uuid && b.bytes.len() == 16),
                    "{doc:?}"
                );
                for k in ["refund", "logoutTime", "parentId"] {
                    assert_eq!(matches!(kind(k), Bson::Null), !refund, "{k} in {doc:?}");
                }
                assert!(matches!(kind("refund"), Bson::Decimal128(_) | Bson::Null), "{doc:?}");
                assert!(matches!(kind("logoutTime"), Bson::DateTime(_) | Bson::Null), "{doc:?}");
                assert!(matches!(kind("parentId"), Bson::Binary(_) | Bson::Null), "{doc:?}");
            }

            #[test]
            fn models_of_this_major_round_trip_and_pass_their_validator() {
                let validator = Validator::for_type::<Ledger>().unwrap();
                for refund in [false, true] {
                    let value = ledger(refund);
                    let raw = driver_bytes(&value);
                    let decoded = Document::try_from(&*raw).unwrap();
                    check_types(&decoded, refund);
                    check_types(&document(&value), refund);
                    validator.validate_raw(&raw).expect("the raw document of this major");
                    validator.validate_raw(&*raw).expect("its RawDocument");
                    validator.validate_raw(raw.as_bytes()).expect("plain bytes");
                    validator.validate_raw(&raw.as_bytes().to_vec()).expect("a Vec<u8>");
                    assert!(validator.is_valid_raw(raw.as_bytes()));
                    assert_eq!(read(raw.as_bytes()), value, "reads back");
                }
                let schema = Ledger::json_schema();
                let kinds: Vec<(&str, &str)> = ["_id", "createTime", "creditLimit", "blob", "extra", "balance", "loginTime", "externalId"]
                    .iter()
                    .map(|k| (*k, schema.get_document("properties").unwrap().get_document(k).unwrap().get_str("bsonType").unwrap()))
                    .collect();
                assert_eq!(
                    kinds,
                    [
                        ("_id", "objectId"),
                        ("createTime", "date"),
                        ("creditLimit", "decimal"),
                        ("blob", "binData"),
                        ("extra", "object"),
                        ("balance", "decimal"),
                        ("loginTime", "date"),
                        ("externalId", "binData")
                    ]
                );
            }

            #[test]
            fn malformed_plain_bytes_are_malformed() {
                let validator = Validator::for_type::<Ledger>().unwrap();
                let mut bytes = driver_bytes(&ledger(true)).as_bytes().to_vec();
                bytes.pop();
                let err = validator.validate_raw(&bytes).unwrap_err();
                assert!(matches!(err, mongo_schema::validate::ValidationError::Malformed(_)), "{err:?}");
                assert!(!validator.is_valid_raw(&bytes[..]));
            }
        }
    };
}

#[cfg(feature = "bson-2")]
major!(two, bson2, raw = to_raw_document_buf, doc = to_document, from_slice = from_slice);
#[cfg(feature = "bson-3")]
major!(
    three,
    bson3,
    raw = serialize_to_raw_document_buf,
    doc = serialize_to_document,
    from_slice = deserialize_from_slice
);

/// With both majors in the build: the same model in either major's types has the same
/// schema, and each major's serializer writes the other's types byte for byte as its own.
#[cfg(all(feature = "bson-2", feature = "bson-3"))]
#[test]
fn both_majors_agree() {
    assert_eq!(two::Ledger::json_schema().to_string(), three::Ledger::json_schema().to_string());
    for refund in [false, true] {
        let (a, b) = (two::ledger(refund), three::ledger(refund));
        let bytes = two::driver_bytes(&a).into_bytes();
        assert_eq!(bytes, three::driver_bytes(&b).into_bytes());
        // either major's serializer on the other's types
        assert_eq!(mongo_schema::bson2::to_vec(&b).unwrap(), bytes);
        assert_eq!(mongo_schema::bson3::serialize_to_vec(&a).unwrap(), bytes);
        // either major's validator input: both majors' raw documents
        let validator = Validator::for_type::<three::Ledger>().unwrap();
        validator.validate_raw(&two::driver_bytes(&a)).unwrap();
        validator.validate_raw(&three::driver_bytes(&b)).unwrap();
    }
}
