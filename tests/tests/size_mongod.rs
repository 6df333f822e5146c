//! Against a real mongod: the worst-case size a fixed-width `pattern` gives a string is
//! what mongod admits. A final `$` matches before a trailing newline, so `^[0-9]{6}$`
//! admits 7 bytes; the document at every maximum is accepted and encodes to exactly
//! `MAX_DOCUMENT_SIZE`, and one byte more is refused with code 121. Skipped without
//! `MONGODB_URI`.

#![forbid(unsafe_code)]

use mongo_schema::{MongoCollection, MongoSchema};
use mongo_schema_tests::bson;
use mongo_schema_tests::bson::Document;
use mongodb::error::{ErrorKind, WriteFailure};
use mongodb::sync::Client;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, MongoSchema)]
#[mongo(db = "db_size_test", collection = "t_parcel")]
struct Parcel {
    #[serde(rename = "_id")]
    id: i64,
    #[mongo(pattern = "^[0-9]{6}$")]
    postcode: String,
    #[mongo(pattern = "^(?:EUR|USD|[A-Z]{2}[0-9])$")]
    currency: String,
}

#[test]
fn a_pattern_bounded_document_at_every_maximum_is_admitted_and_no_larger() {
    let Ok(uri) = std::env::var("MONGODB_URI") else {
        mongo_schema_tests::skipped(
            "size_mongod::a_pattern_bounded_document_at_every_maximum_is_admitted_and_no_larger",
        );
        return;
    };
    let client = Client::with_uri_str(uri).unwrap();
    let db = client.database(Parcel::DB_NAME);
    db.collection::<Document>(Parcel::COLLECTION_NAME).drop().run().unwrap();
    let mut create = Parcel::create_collection_command();
    create.insert("validationAction", "error");
    create.insert("validationLevel", "strict");
    db.run_command(create).run().unwrap();
    let parcels = db.collection::<Parcel>(Parcel::COLLECTION_NAME);

    let largest = Parcel { id: 1, postcode: "123456\n".to_owned(), currency: "USD\n".to_owned() };
    let bound = Parcel::MAX_DOCUMENT_SIZE.expect("both strings are bounded by their patterns");
    assert_eq!(bson::serialize_to_vec(&largest).unwrap().len() as u64, bound);
    parcels.insert_one(&largest).run().expect("mongod admits a trailing newline before a final `$`");

    for (postcode, currency) in [("1234567", "USD"), ("123456\n\n", "USD"), ("123456", "USD\n\n")] {
        let larger = Parcel { id: 2, postcode: postcode.to_owned(), currency: currency.to_owned() };
        let error = parcels.insert_one(&larger).run().expect_err("longer than the pattern admits");
        let code = match error.kind.as_ref() {
            ErrorKind::Write(WriteFailure::WriteError(e)) => Some(e.code),
            _ => None,
        };
        assert_eq!(code, Some(121), "{postcode:?} {currency:?}: {error}");
    }
}
