//! Polymorphic collections and number widths against a real mongod (`MONGODB_URI`, set
//! by `scripts/with-mongod.sh`), with the local validator's verdict beside mongod's on
//! every document. Without `MONGODB_URI` each test says it was skipped and passes.
//!
//! Polymorphic (issue 13, §3): a struct root with a flattened internally tagged enum
//! (`Content`, `StrictContent`) and an internally tagged enum root (`Asset`): every
//! variant the driver writes is accepted and read back; a wrong tag, a missing tag and a
//! bound broken inside a variant are rejected with code 121.
//!
//! Numbers (§4): the driver's writes pass, int32s written by other clients (`$inc`
//! upserts, mongosh's `NumberInt`) pass where the type reads them, and what the type
//! cannot read (a double in an `i32`, a negative int in a `u32`, a long beyond an `i32`)
//! is rejected with 121.

#![forbid(unsafe_code)]

use mongo_schema::prelude::*;
use mongo_schema::Validator;
use mongo_schema_tests::bson;
use mongo_schema_tests::bson::{doc, Bson, Document, RawDocumentBuf};
use mongo_schema_tests::{driver_bytes, models::*, Samples};
use mongodb::error::{ErrorKind, WriteFailure};
use mongodb::sync::{Client, Collection, Database};
use serde::{de::DeserializeOwned, Serialize};

use crate::support;
use support::client;

/// DocumentValidationFailure.
const VALIDATION_FAILED: i32 = 121;

/// The write error's code and `errInfo`.
fn failure(error: &mongodb::error::Error) -> Option<(i32, Option<Document>)> {
    match error.kind.as_ref() {
        ErrorKind::Write(WriteFailure::WriteError(e)) => Some((e.code, e.details.clone())),
        ErrorKind::Command(e) => Some((e.code, None)),
        _ => None,
    }
}

/// A fresh collection of `T` under its validator, refusing (not warning) on failure.
fn create<T: MongoCollection>(db: &Database, suffix: &str) -> String {
    let name = format!("{}{suffix}", T::COLLECTION_NAME);
    db.collection::<Document>(&name).drop().run().expect("drop");
    let mut create = T::create_collection_command();
    create.insert("create", name.as_str());
    create.insert("validationAction", "error");
    db.run_command(create).run().unwrap_or_else(|e| panic!("{name}: createCollection refused: {e}"));
    name
}

/// Every sample through the driver's typed path, accepted by mongod and by the local
/// validator, and read back equal.
fn round_trip<T>(client: &Client) -> Collection<Document>
where
    T: MongoCollection + Samples + Serialize + DeserializeOwned + PartialEq + std::fmt::Debug + Send + Sync,
{
    let db = client.database(T::DB_NAME);
    let name = create::<T>(&db, "");
    let local = Validator::new(&T::json_schema()).expect("the local validator compiles the schema");
    let typed = db.collection::<T>(&name);
    for sample in T::samples() {
        let bytes = driver_bytes(&sample);
        assert!(local.is_valid_raw(&bytes), "{name}: the local validator refused {bytes:?}");
        let id = typed.insert_one(&sample).run().unwrap_or_else(|e| panic!("{name}: {sample:?} refused: {e}"));
        let back = typed.find_one(doc! { "_id": id.inserted_id }).run().expect("find").expect("stored");
        assert_eq!(back, sample, "{name}: read back");
    }
    db.collection::<Document>(&name)
}

/// `doc` is refused by the local validator and by mongod with 121; returns mongod's errInfo.
fn refused(collection: &Collection<Document>, local: &Validator, what: &str, doc: Document) -> Document {
    assert!(!local.is_valid(&doc), "{what}: the local validator accepted {doc:?}");
    match collection.insert_one(&doc).run() {
        Err(e) => match failure(&e) {
            Some((VALIDATION_FAILED, info)) => info.unwrap_or_default(),
            _ => panic!("{what}: unexpected error {e}"),
        },
        Ok(_) => panic!("{what}: mongod accepted {doc:?}"),
    }
}

/// The first driver-written document of a sample, as a `Document` to break.
fn written<T: Serialize>(sample: &T) -> Document {
    bson::deserialize_from_slice(driver_bytes(sample).as_bytes()).unwrap()
}

/// The first top-level rule `errInfo` reports: its `operatorName`s, `propertyName`s and
/// `missingProperties`, in order.
fn first_rule(info: &Document) -> String {
    let rules = info.get_document("details").and_then(|d| d.get_array("schemaRulesNotSatisfied"));
    match rules.map(|r| r.first().and_then(Bson::as_document)) {
        Ok(Some(rule)) => names(rule),
        _ => String::new(),
    }
}

/// `errInfo` names the rule that failed: `operatorName` and `propertyName`s, flattened.
fn names(info: &Document) -> String {
    fn walk(value: &Bson, out: &mut Vec<String>) {
        match value {
            Bson::Document(d) => {
                for (key, value) in d {
                    if let ("operatorName" | "propertyName" | "missingProperties", Some(s)) =
                        (key.as_str(), value.as_str())
                    {
                        out.push(s.to_owned());
                    } else if key == "missingProperties" {
                        out.push(value.to_string());
                    }
                    walk(value, out);
                }
            }
            Bson::Array(items) => items.iter().for_each(|i| walk(i, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    walk(&Bson::Document(info.clone()), &mut out);
    out.join(" ")
}

#[test]
fn flattened_tagged_enum_constrains_every_variant() {
    let Some(client) = client("flattened_tagged_enum_constrains_every_variant") else { return };
    let collection = round_trip::<Content>(&client);
    let local = Validator::new(&Content::json_schema()).unwrap();
    let link = written(&Content::samples()[0]);
    assert_eq!(link.get_str("type").ok(), Some("link"));

    let mut wrong_tag = link.clone();
    wrong_tag.insert("type", "hack");
    wrong_tag.insert("_id", bson::oid::ObjectId::new());
    let info = refused(&collection, &local, "a wrong tag", wrong_tag);
    // the lifted tag fails once, by name, at the top level
    assert!(first_rule(&info).starts_with("properties type enum"), "{info}");

    let mut missing_tag = link.clone();
    missing_tag.remove("type");
    missing_tag.insert("_id", bson::oid::ObjectId::new());
    let info = refused(&collection, &local, "a missing tag", missing_tag);
    assert!(first_rule(&info).starts_with("required [\"type\"]"), "{info}");

    let mut too_long = link.clone();
    too_long.insert("url", "u".repeat(2049));
    too_long.insert("_id", bson::oid::ObjectId::new());
    let info = refused(&collection, &local, "a 2049-character url in a link", too_long);
    assert!(names(&info).contains("oneOf"), "{info}");

    // another variant's tag over this variant's fields: that variant's fields are missing
    let mut mixed = link.clone();
    mixed.insert("type", "video");
    mixed.insert("_id", bson::oid::ObjectId::new());
    refused(&collection, &local, "a video without durationSecs", mixed);

    let mut negative = written(&Content::samples()[1]);
    negative.insert("durationSecs", -1);
    negative.insert("_id", bson::oid::ObjectId::new());
    refused(&collection, &local, "a negative u32 inside a variant", negative);
}

#[test]
fn deny_unknown_fields_admits_the_variants_fields() {
    let Some(client) = client("deny_unknown_fields_admits_the_variants_fields") else { return };
    let db = client.database(StrictContent::DB_NAME);
    let name = create::<StrictContent>(&db, "");
    let local = Validator::new(&StrictContent::json_schema()).unwrap();
    let collection = db.collection::<RawDocumentBuf>(&name);
    // serde cannot read a flattened enum back under deny_unknown_fields (serde's own
    // limitation), so this proves the writes only
    for sample in StrictContent::samples() {
        let bytes = driver_bytes(&sample);
        assert!(local.is_valid_raw(&bytes), "the local validator refused {bytes:?}");
        collection.insert_one(&bytes).run().unwrap_or_else(|e| panic!("{sample:?} refused: {e}"));
    }
    let documents = db.collection::<Document>(&name);
    let mut unknown = written(&StrictContent::samples()[0]);
    unknown.insert("_id", bson::oid::ObjectId::new());
    unknown.insert("extra", 1);
    refused(&documents, &local, "a field no variant writes", unknown);
    let mut wrong_tag = written(&StrictContent::samples()[0]);
    wrong_tag.insert("_id", bson::oid::ObjectId::new());
    wrong_tag.insert("type", "hack");
    refused(&documents, &local, "a wrong tag", wrong_tag);
}

#[test]
fn tagged_enum_root_constrains_every_variant() {
    let Some(client) = client("tagged_enum_root_constrains_every_variant") else { return };
    let collection = round_trip::<Asset>(&client);
    let local = Validator::new(&Asset::json_schema()).unwrap();
    let image = written(&Asset::samples()[0]);
    let fresh = |mut d: Document| {
        d.insert("_id", bson::oid::ObjectId::new());
        d
    };

    let mut wrong_tag = image.clone();
    wrong_tag.insert("kind", "hack");
    let info = refused(&collection, &local, "a wrong tag", fresh(wrong_tag));
    assert!(first_rule(&info).starts_with("properties kind enum"), "{info}");

    let mut missing_tag = image.clone();
    missing_tag.remove("kind");
    let info = refused(&collection, &local, "a missing tag", fresh(missing_tag));
    assert!(first_rule(&info).starts_with("required [\"kind\"]"), "{info}");

    let mut too_long = image.clone();
    too_long.insert("url", "u".repeat(2049));
    refused(&collection, &local, "a 2049-character url in an image", fresh(too_long));

    let mut wide = image.clone();
    wide.insert("width", 65536);
    refused(&collection, &local, "a width beyond u16", fresh(wide));

    let mut file = written(&Asset::samples()[1]);
    file.insert("fileName", "f".repeat(101));
    refused(&collection, &local, "a 101-character file name", fresh(file));
}

#[test]
fn adjacently_tagged_enum_root_constrains_every_variant() {
    let Some(client) = client("adjacently_tagged_enum_root_constrains_every_variant") else { return };
    let collection = round_trip::<Notice>(&client);
    let local = Validator::new(&Notice::json_schema()).unwrap();
    let fresh = |mut d: Document| {
        d.insert("_id", bson::oid::ObjectId::new());
        d
    };
    let mention = written(&Notice::samples()[0]);
    assert_eq!(mention.keys().collect::<Vec<_>>(), ["kind", "data"], "serde writes {{tag, content}}: {mention}");

    let mut wrong_tag = mention.clone();
    wrong_tag.insert("kind", "hack");
    refused(&collection, &local, "a wrong tag", fresh(wrong_tag));
    let mut missing_content = mention.clone();
    missing_content.remove("data");
    refused(&collection, &local, "a missing content", fresh(missing_content));
    let mut long = mention.clone();
    long.get_document_mut("data").unwrap().insert("excerpt", "e".repeat(281));
    refused(&collection, &local, "a 281-character excerpt", fresh(long));
    let mut zero = written(&Notice::samples()[1]);
    zero.insert("data", 0);
    refused(&collection, &local, "an invoice number below its minimum", fresh(zero));
    let mut extra = written(&Notice::samples()[2]);
    extra.insert("note", "x");
    refused(&collection, &local, "a field serde never writes", fresh(extra));
}

#[test]
fn numbers_admit_what_the_type_reads_back() {
    let Some(client) = client("numbers_admit_what_the_type_reads_back") else { return };
    let numbers = round_trip::<Numbers>(&client);
    let counters = round_trip::<Counter>(&client);
    let typed_counters = counters.clone_with_type::<Counter>();
    let local = Validator::new(&Counter::json_schema()).unwrap();

    // `$inc` on an upsert writes an int32, which an `i64` reads back
    counters
        .update_one(doc! { "_id": "fresh" }, doc! { "$inc": { "seq": 1 } })
        .upsert(true)
        .run()
        .expect("$inc upsert");
    let stored = counters.find_one(doc! { "_id": "fresh" }).run().unwrap().unwrap();
    assert_eq!(stored.get("seq"), Some(&Bson::Int32(1)), "the upsert wrote an int32");
    assert!(local.is_valid(&stored), "the local validator refuses the upserted counter");
    let back = typed_counters.find_one(doc! { "_id": "fresh" }).run().unwrap().unwrap();
    assert_eq!(back.seq, 1);

    // mongosh's NumberInt (and pymongo's int) in wider fields, read back by the type
    let local = Validator::new(&Numbers::json_schema()).unwrap();
    let base = written(&Numbers::samples()[0]);
    let id = base.get_object_id("_id").unwrap();
    let accepted = [
        ("large", Bson::Int32(5)),
        ("unsigned32", Bson::Int32(5)),
        ("unsigned64", Bson::Int32(5)),
        ("ratio64", Bson::Int32(5)),
        ("ratio32", Bson::Int64(5)),
        ("medium", Bson::Int64(7)),
        ("maybeCount", Bson::Int32(5)),
    ];
    for (field, value) in accepted {
        let mut local_doc = base.clone();
        local_doc.insert(field, value.clone());
        assert!(local.is_valid(&local_doc), "local: {field} = {value:?} refused");
        numbers
            .update_one(doc! { "_id": id }, doc! { "$set": { field: value.clone() } })
            .run()
            .unwrap_or_else(|e| panic!("mongod: {field} = {value:?} refused: {e}"));
    }
    let back = numbers.clone_with_type::<Numbers>().find_one(doc! { "_id": id }).run().unwrap().unwrap();
    assert_eq!((back.large, back.unsigned32, back.ratio64, back.medium), (5, 5, 5.0, 7));

    let refused_values = [
        ("medium", Bson::Double(5.0), "a double in an i32"),
        ("large", Bson::Double(5.0), "a double in an i64"),
        ("unsigned32", Bson::Int32(-1), "a negative int in a u32"),
        ("unsigned64", Bson::Int64(-1), "a negative long in a u64"),
        ("medium", Bson::Int64(i64::from(i32::MAX) + 1), "a long beyond an i32"),
        ("unsigned32", Bson::Int64(i64::from(u32::MAX) + 1), "a long beyond a u32"),
        ("tiny", Bson::Int32(128), "an int beyond an i8"),
        ("ratio64", Bson::Decimal128("1".parse().unwrap()), "a decimal in an f64"),
    ];
    for (field, value, what) in refused_values {
        let mut local_doc = base.clone();
        local_doc.insert(field, value.clone());
        assert!(!local.is_valid(&local_doc), "local accepted {what}");
        match numbers.update_one(doc! { "_id": id }, doc! { "$set": { field: value } }).run() {
            Err(e) if failure(&e).map(|f| f.0) == Some(VALIDATION_FAILED) => {}
            Err(e) => panic!("{what}: unexpected error {e}"),
            Ok(_) => panic!("mongod accepted {what}"),
        }
        // serde cannot read it back either
        let bytes = RawDocumentBuf::try_from(&local_doc).unwrap();
        assert!(bson::deserialize_from_slice::<Numbers>(bytes.as_bytes()).is_err(), "bson reads {what}");
    }
}
