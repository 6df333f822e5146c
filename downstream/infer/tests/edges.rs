//! The hostile edge cases' drafted models (src/edges.rs) read and write their documents
//! back unchanged: keys that are Rust keywords, not ASCII or hold a line break, and a root
//! whose keys are data (a flattened map beside `_id`).

mod common;
use mongo_schema_test_support::legacy_db;

use downstream_infer::edges::{Keys, Wide};
use mongo_schema::bson::{Bson, Document};
use serde::{de::DeserializeOwned, Serialize};

/// The documents of one edge collection that `keep` picks, read and written back.
fn round_trip<T: Serialize + DeserializeOwned>(collection: &str, keep: impl Fn(&Document) -> bool) -> usize {
    let (_, docs) = legacy_db::edges().into_iter().find(|(name, _)| *name == collection).unwrap();
    common::local_round_trip::<T>(docs.iter().filter(|d| keep(d)), collection)
}

#[test]
fn hostile_keys_and_data_keys_round_trip() {
    assert_eq!(round_trip::<Wide>("t_wide", |_| true), 150);
    // the string `_id`s (the int64 ones are the anomalies infer reports)
    assert_eq!(round_trip::<Keys>("t_keys", |d| matches!(d.get("_id"), Some(Bson::String(_)))), 20);
}
