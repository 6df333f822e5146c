//! Against a real mongod (`MONGODB_URI`, set by `scripts/with-mongod.sh`): every
//! generated command is accepted, every sample the driver writes is inserted under its
//! validator, and a document breaking any declared bound is rejected with code 121.
//! Without `MONGODB_URI` each test says it was skipped and passes.

#![forbid(unsafe_code)]

use mongo_schema::prelude::*;
use mongo_schema::Validator;
use mongo_schema_tests::bson;
use mongo_schema_tests::bson::{doc, Document, RawDocumentBuf};
use mongo_schema_tests::{models::*, roots, violations, Samples};
use mongodb::sync::{Client, Database};

use crate::support;
use support::{client, code};

/// DocumentValidationFailure.
const VALIDATION_FAILED: i32 = 121;

fn fresh(db: &Database, collection: &str) {
    db.collection::<Document>(collection).drop().run().expect("drop");
}

#[test]
fn commands_are_accepted_and_driver_written_samples_insert() {
    let Some(client) = client("commands_are_accepted_and_driver_written_samples_insert") else { return };
    for root in roots() {
        let db = client.database(root.db);
        fresh(&db, root.collection);
        db.run_command(root.create.clone())
            .run()
            .unwrap_or_else(|e| panic!("{}: createCollection refused: {e}", root.rust_type));
        db.run_command(root.coll_mod.clone())
            .run()
            .unwrap_or_else(|e| panic!("{}: collMod refused: {e}", root.rust_type));
        let collection = db.collection::<RawDocumentBuf>(root.collection);
        for sample in &root.samples {
            collection
                .insert_one(sample)
                .run()
                .unwrap_or_else(|e| panic!("{}: sample refused: {e}\n{sample:?}", root.rust_type));
        }
    }
}

/// The driver's own typed path, not just bytes serialized the same way.
#[test]
fn typed_inserts_pass_the_validator() {
    let Some(client) = client("typed_inserts_pass_the_validator") else { return };
    fn insert_all<T: MongoCollection + Samples + serde::Serialize + Send + Sync>(client: &Client) {
        let db = client.database(T::DB_NAME);
        let name = format!("{}_typed", T::COLLECTION_NAME);
        fresh(&db, &name);
        let mut create = T::create_collection_command();
        create.insert("create", name.as_str());
        create.insert("validationAction", "error");
        db.run_command(create).run().expect("create");
        db.collection::<T>(&name)
            .insert_many(T::samples())
            .run()
            .unwrap_or_else(|e| panic!("{}: {e}", T::COLLECTION_NAME));
    }
    insert_all::<Scalars>(&client);
    insert_all::<Containers>(&client);
    insert_all::<Enums>(&client);
    insert_all::<SerdeAttributes>(&client);
    insert_all::<Flattened>(&client);
    insert_all::<Keywords>(&client);
}

#[test]
fn every_declared_bound_is_enforced_with_code_121() {
    let Some(client) = client("every_declared_bound_is_enforced_with_code_121") else { return };
    let mut accepted = Vec::new();
    let mut checked = 0;
    for root in roots() {
        let db = client.database(root.db);
        let name = format!("{}_bounds", root.collection);
        fresh(&db, &name);
        let validator = root.create.get_document("validator").expect("validator").clone();
        db.run_command(doc! { "create": &name, "validator": validator, "validationAction": "error" })
            .run()
            .expect("create");
        let collection = db.collection::<Document>(&name);
        let local = Validator::new(&root.json_schema).expect("the local validator accepts the schema");
        let sample: Document = bson::deserialize_from_slice(root.samples[0].as_bytes()).expect("sample");
        for violation in violations::of(&root.json_schema, &sample) {
            checked += 1;
            assert!(
                !local.is_valid(&violation.document),
                "{}: the local validator accepted {}",
                root.rust_type,
                violation.what
            );
            match collection.insert_one(&violation.document).run() {
                Err(e) if code(&e) == Some(VALIDATION_FAILED) => {}
                Err(e) => panic!("{}: {}: unexpected error {e}", root.rust_type, violation.what),
                Ok(_) => accepted.push(format!("{}: {}", root.collection, violation.what)),
            }
        }
    }
    assert!(checked > 100, "only {checked} violations were generated");
    assert!(accepted.is_empty(), "mongod accepted documents that break a declared bound:\n{}", accepted.join("\n"));
}

/// The quickstart's commands, exactly as the example prints them.
#[test]
fn validation_options_are_installed_as_declared() {
    let Some(client) = client("validation_options_are_installed_as_declared") else { return };
    let db = client.database(Keywords::DB_NAME);
    fresh(&db, Keywords::COLLECTION_NAME);
    db.run_command(Keywords::create_collection_command()).run().expect("create");
    let listed = db
        .run_command(doc! { "listCollections": 1, "filter": { "name": Keywords::COLLECTION_NAME } })
        .run()
        .expect("list");
    let options = listed.get_document("cursor").unwrap().get_array("firstBatch").unwrap()[0]
        .as_document()
        .unwrap()
        .get_document("options")
        .unwrap()
        .clone();
    assert_eq!(options.get_str("validationLevel").ok(), Some("moderate"));
    assert_eq!(options.get_str("validationAction").ok(), Some("warn"));
    assert_eq!(options.get_document("validator").ok(), Some(&Keywords::validator()));
}

/// A `nullable` field on mongod: the document missing it, the one holding null and the one
/// holding a value all insert under the model's validator, and the driver reads each back
/// to the value serde should; a value of another type is refused (121), as locally.
#[test]
fn nullable_fields_take_missing_null_and_values_and_read_back_through_the_driver() {
    let Some(client) = client("nullable_fields_take_missing_null_and_values_and_read_back_through_the_driver") else {
        return;
    };
    let db = client.database(SerdeAttributes::DB_NAME);
    let name = format!("{}_nullable", SerdeAttributes::COLLECTION_NAME);
    fresh(&db, &name);
    let mut create = SerdeAttributes::create_collection_command();
    create.insert("create", name.as_str());
    db.run_command(create).run().expect("create");
    let local = Validator::for_type::<SerdeAttributes>().unwrap();
    let cases = nullable_cases();
    let raw = db.collection::<Document>(&name);
    let id = |i: usize| bson::oid::ObjectId::from_bytes([40 + i as u8; 12]);
    for (i, (case, document, ..)) in cases.iter().enumerate() {
        let mut document = document.clone();
        document.insert("_id", id(i));
        assert!(local.is_valid(&document), "{case}: the local validator refused it");
        raw.insert_one(&document).run().unwrap_or_else(|e| panic!("{case}: mongod refused it: {e}\n{document}"));
    }
    let typed = db.collection::<SerdeAttributes>(&name);
    for (i, (case, _, middle_name, tip_amount)) in cases.iter().enumerate() {
        let back = typed
            .find_one(doc! { "_id": id(i) })
            .run()
            .unwrap_or_else(|e| panic!("{case}: the driver could not read it back: {e}"))
            .expect("inserted");
        assert_eq!((&back.middle_name, &back.tip_amount), (middle_name, tip_amount), "{case}");
    }
    let (_, mut wrong, ..) = cases[0].clone();
    wrong.insert("_id", id(10));
    wrong.insert("middle_name", 5);
    assert!(!local.is_valid(&wrong));
    let refused = raw.insert_one(&wrong).run().expect_err("an int where a string or null belongs");
    assert_eq!(code(&refused), Some(VALIDATION_FAILED), "{refused}");
}
