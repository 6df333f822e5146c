//! `collection_count` over the real registry of the test binary's derived models: the corpus
//! puts three collection roots in `db_test_mapping`, so a ceiling of two refuses them.

#![forbid(unsafe_code)]

use mongo_schema::migrate::{registered_models, MigrateError, MigrateOptions, Snapshot};

#[test]
fn collection_count_counts_registered_roots_per_database() {
    // link the corpus: registrations of a crate nothing references are dropped by the linker
    assert!(!mongo_schema_tests::roots().is_empty());
    let models = registered_models();
    let in_mapping = models.iter().filter(|m| m.db == "db_test_mapping").count();
    assert_eq!(in_mapping, 3, "the corpus's roots in db_test_mapping");
    assert!(Snapshot::default().next_migration(&models, &MigrateOptions::default()).is_ok());
    let at_most_two = MigrateOptions { max_collections: 2, ..MigrateOptions::default() };
    let Err(MigrateError::CollectionCount(error)) = Snapshot::default().next_migration(&models, &at_most_two) else {
        panic!("a ceiling of two refuses three collections")
    };
    // the registry is the test binary's: the other modules' models are in it too, each database
    // over the ceiling a line of its own
    let mapping = "collection_count: database \"db_test_mapping\" would hold 3 collections, more than 2";
    assert!(error.lines().any(|line| line.starts_with(mapping)), "{error}");
}
