//! Rules checked at migration time, over every model of the crate at once.

use super::snapshot::Snapshot;
use mongo_schema_core::model::Model;
use std::collections::BTreeMap;

/// The standard's ceiling of business collections per database.
pub const DEFAULT_MAX_COLLECTIONS: usize = mongo_schema_contract::rules::MAX_COLLECTIONS_PER_DB;

// collection_count: every collection costs mongod metadata held in cache, data and index
// files (file handles), startup time and backup time; past about 100 business
// collections per database (the standard's ceiling)
// the cost is usually a design smell: one collection per tenant, device or day.
/// Fails when a database would hold more than `max` collections: the models plus the
/// collections of removed models, which migrations never drop.
pub(super) fn collection_count(models: &[Model], snapshot: &Snapshot, max: usize) -> Result<(), String> {
    let mut per_db: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    let all = models.iter().chain(snapshot.entries.iter().map(|e| &e.model));
    for m in all {
        let names = per_db.entry(&m.db).or_default();
        if !names.contains(&m.collection.as_str()) {
            names.push(&m.collection);
        }
    }
    let over: Vec<String> =
        per_db.iter().filter(|(_, names)| names.len() > max).map(|(db, names)| too_many(db, names, max)).collect();
    if over.is_empty() {
        Ok(())
    } else {
        Err(over.join("\n"))
    }
}

fn too_many(db: &str, names: &[&str], max: usize) -> String {
    let shown: Vec<&str> = names.iter().copied().take(5).collect();
    format!(
        "collection_count: database {db:?} would hold {} collections, more than {max} (the standard keeps at most 100 business collections in a database). \
         Each collection costs mongod cached metadata, file handles, startup and backup time. Keep one collection per entity and tell tenants, devices or periods apart by a field (a time-series collection for measurements), or move a module to its own database. Collections: {}, ...",
        names.len(),
        shown.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use mongo_schema_core::command::{ValidationAction, ValidationLevel};

    fn model(db: &str, n: usize) -> Model {
        let validator = mongo_schema_core::bson::doc! {};
        Model {
            db: db.into(),
            collection: format!("t_c{n}"),
            rust_type: "T".into(),
            validator,
            level: ValidationLevel::Strict,
            action: ValidationAction::Error,
            options: Default::default(),
            renames: Vec::new(),
            max_document_size: None,
        }
    }

    #[test]
    fn collection_count_counts_per_database_with_removed_models() {
        let models: Vec<Model> = (0..3).map(|n| model("db_a", n)).chain((0..3).map(|n| model("db_b", n))).collect();
        assert!(collection_count(&models, &Snapshot::default(), 3).is_ok());
        let removed = crate::Entry { model: model("db_a", 9), enforce: None };
        let snapshot = Snapshot { last_migration: None, entries: vec![removed] };
        let err = collection_count(&models, &snapshot, 3).unwrap_err();
        assert!(err.starts_with("collection_count: database \"db_a\" would hold 4 collections, more than 3"), "{err}");
        assert!(!err.contains("db_b"), "{err}");
    }
}
