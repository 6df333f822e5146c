//! The hostile edge cases' drafted models (src/edges.rs) read and write their documents
//! back unchanged: keys that are Rust keywords, not ASCII or hold a line break, and a root
//! whose keys are data (a flattened map beside `_id`).

#[path = "../../../runtime/tests/support/legacy_db.rs"]
mod legacy_db;

use downstream_infer::edges::{Keys, Wide};
use mongo_schema::bson::{from_document, to_document, Bson, Document};
use serde::{de::DeserializeOwned, Serialize};

fn round_trip<T: Serialize + DeserializeOwned>(collection: &str, keep: impl Fn(&Document) -> bool) -> usize {
    let (_, docs) = legacy_db::edges().into_iter().find(|(name, _)| *name == collection).unwrap();
    let mut read = 0;
    for doc in docs.iter().filter(|d| keep(d)) {
        let model: T = from_document(doc.clone()).unwrap_or_else(|e| panic!("{collection}: {e}: {doc}"));
        let back = to_document(&model).unwrap();
        let original: Document = doc
            .iter()
            .filter(|(k, v)| **v != Bson::Null || back.contains_key(*k))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        assert_eq!(back, original, "{collection}");
        read += 1;
    }
    read
}

#[test]
fn hostile_keys_and_data_keys_round_trip() {
    assert_eq!(round_trip::<Wide>("t_wide", |_| true), 150);
    // the string `_id`s (the int64 ones are the anomalies infer reports)
    assert_eq!(round_trip::<Keys>("t_keys", |d| matches!(d.get("_id"), Some(Bson::String(_)))), 20);
}
