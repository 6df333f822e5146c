//! What the downstream tests share: comparing a model written back with the document it
//! was read from, locally and through the driver.

// each test binary uses part of it
#![allow(dead_code)]

use mongo_schema::bson::{doc, Bson, Document};
use serde::{de::DeserializeOwned, Serialize};

/// `value` with every int32 written as the int64 of the same number.
fn widened(value: Bson) -> Bson {
    match value {
        Bson::Int32(n) => Bson::Int64(n.into()),
        Bson::Document(d) => Bson::Document(d.into_iter().map(|(k, v)| (k, widened(v))).collect()),
        Bson::Array(items) => Bson::Array(items.into_iter().map(widened).collect()),
        other => other,
    }
}

/// Asserts that `back` (a model written back) says what `original` said: the same values,
/// where an int32 in an `i64` field comes back as the int64 of the same number and a
/// `null` in a field that may also be missing reads as `None`, written as missing.
pub fn assert_same(back: Document, original: Document, what: &str) {
    let original: Document =
        original.into_iter().filter(|(key, value)| *value != Bson::Null || back.contains_key(key)).collect();
    assert_eq!(widened(Bson::Document(back)), widened(Bson::Document(original)), "{what}");
}

/// Reads each of `originals` into `T` and writes it back (`from_document`, `to_document`),
/// asserting [`assert_same`]; how many.
pub fn local_round_trip<'a, T>(originals: impl IntoIterator<Item = &'a Document>, what: &str) -> usize
where
    T: Serialize + DeserializeOwned,
{
    let mut read = 0;
    for doc in originals {
        let model: T = mongo_schema::bson::from_document(doc.clone()).unwrap_or_else(|e| panic!("{what}: {e}: {doc}"));
        assert_same(mongo_schema::bson::to_document(&model).unwrap(), doc.clone(), what);
        read += 1;
    }
    read
}

/// Reads the clean documents of `name` through the driver as `T`, writes them through the
/// driver into a scratch collection, and compares what is stored there with the originals
/// ([`assert_same`]).
pub fn round_trip<T>(db: &mongodb::sync::Database, name: &str, dirty: &[bool], originals: &[Document]) -> usize
where
    T: Serialize + DeserializeOwned + Send + Sync + Unpin,
{
    let clean: Vec<Bson> =
        originals.iter().zip(dirty).filter(|(_, d)| !**d).map(|(o, _)| o.get("_id").unwrap().clone()).collect();
    let typed: Vec<T> = db
        .collection::<T>(name)
        .find(doc! { "_id": { "$in": &clean } })
        .sort(doc! { "_id": 1 })
        .run()
        .unwrap()
        .map(|r| r.unwrap_or_else(|e| panic!("{name}: a clean document does not read: {e}")))
        .collect();
    assert_eq!(typed.len(), clean.len(), "{name}");
    let scratch = format!("{name}_round_trip");
    db.collection::<T>(&scratch).drop().run().unwrap();
    db.collection::<T>(&scratch).insert_many(&typed).run().unwrap();
    let back: Vec<Document> = db
        .collection::<Document>(&scratch)
        .find(doc! {})
        .sort(doc! { "_id": 1 })
        .run()
        .unwrap()
        .map(Result::unwrap)
        .collect();
    let mut stored: Vec<Document> = db
        .collection::<Document>(name)
        .find(doc! { "_id": { "$in": &clean } })
        .sort(doc! { "_id": 1 })
        .run()
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert_eq!(back.len(), stored.len());
    for (back, original) in back.into_iter().zip(stored.drain(..)) {
        assert_same(back, original, name);
    }
    db.collection::<T>(&scratch).drop().run().unwrap();
    typed.len()
}
