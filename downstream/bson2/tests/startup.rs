//! Migrations applied at application start, as a service on the driver's defaults does with
//! mongo-schema's `migrate` feature alone (no CLI): the committed `migrations/` directory is
//! embedded with `migrations!` and run with the service's own `mongodb::Database`.
//! `UPDATE_MIGRATIONS=1 cargo test --features migrate` writes the directory's next
//! migration after a model change.
#![cfg(feature = "migrate")]

use mongo_schema::migrate::apply::Outcome;
use mongo_schema::migrate::{MigrateOptions, Migrator, Model, Naming, Snapshot, SNAPSHOT_FILE};
use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// A login session of the service.
#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(db = "db_downstream", collection = "t_session")]
pub struct Session {
    #[serde(rename = "_id")]
    pub id: bson::oid::ObjectId,
    #[mongo(max_length = 64)]
    pub user_name: String,
    pub create_time: bson::DateTime,
}

fn models() -> Vec<Model> {
    vec![Model::of::<Session>("startup::Session")]
}

#[test]
fn the_committed_migrations_match_the_models() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("migrations");
    let options = MigrateOptions { naming: Naming::Sequence, ..MigrateOptions::default() };
    if std::env::var_os("UPDATE_MIGRATIONS").is_some() {
        mongo_schema::migrate::migrate(&dir, &models(), &options).expect("write the migration");
    }
    let snapshot = Snapshot::from_json(&std::fs::read_to_string(dir.join(SNAPSHOT_FILE)).unwrap()).unwrap();
    let next = snapshot.next_migration(&models(), &options).unwrap();
    assert!(next.is_none(), "the models changed: UPDATE_MIGRATIONS=1 cargo test --features migrate");
}

#[tokio::test]
async fn the_embedded_migrations_apply_at_start_and_once() {
    let Ok(uri) = std::env::var("MONGODB_URI") else {
        eprintln!("skipped (no MONGODB_URI): the_embedded_migrations_apply_at_start_and_once");
        return;
    };
    let client = mongodb::Client::with_uri_str(&uri).await.unwrap();
    let db = client.database("db_downstream");
    // test set-up: a fresh database and records of its own (migrations never drop)
    db.drop().await.unwrap();
    client.database("db_downstream_state").drop().await.unwrap();
    let migrator: Migrator = mongo_schema::migrations!("migrations").state_db("db_downstream_state");
    let names: Vec<String> = migrator.migrations().iter().map(|m| m.name.clone()).collect();
    assert!(!names.is_empty());
    let first = migrator.run(&db).await.unwrap();
    assert_eq!(first, names.iter().cloned().map(Outcome::Applied).collect::<Vec<_>>());
    let again = migrator.run(&db).await.unwrap();
    assert_eq!(again, names.iter().cloned().map(Outcome::AlreadyApplied).collect::<Vec<_>>());
    let collections = db.list_collection_names().await.unwrap();
    assert!(collections.contains(&"t_session".to_owned()), "{collections:?}");
}
