// The paths that were second names of an item, kept for one release: each still resolves to
// the item (no E0412 / E0425 below) and warns, here denied so that every warning shows. Not
// here: `migrate::apply::Server`, a trait, which no alias can stand for: its old path is a
// plain re-export and compiles without a warning.
#![deny(deprecated)]

use mongo_schema::bson::{doc, Document};
use mongo_schema::{migrate, validate, MongoSchema};

#[derive(serde::Serialize, MongoSchema)]
#[mongo(db = "db_shop", collection = "t_item")]
struct Item {
    #[serde(rename = "_id")]
    id: i64,
}

fn port(_: &mut dyn migrate::apply::Server) {}

fn main() {
    let _: Option<migrate::apply::CommandError> = None;
    let _: Option<migrate::apply::MigrationFile> = None;
    let _: Option<migrate::apply::FileStep> = None;
    let _: Option<migrate::apply::MigrationKind> = None;
    let _: Option<migrate::apply::MigrationFileError> = None;
    let _: Option<migrate::apply::DriftStatus> = None;
    let _ = (migrate::apply::DEFAULT_STATE_DB, migrate::apply::STATE_COLLECTION);
    let _ = migrate::apply::drift;
    let _ = migrate::record::checksum("{}");
    let _ = port;

    let update = doc! { "$set": { "n": 1 } };
    let _ = mongo_schema::schema::check_update_static::<Item>(&update);
    let _ = mongo_schema::schema::check_upsert_static::<Item>(&Document::new(), &update);
    let _: Option<validate::update::UpdateOptions> = None;
    let _: Option<validate::update::UpdateError> = None;
    let _: Option<validate::update::Finding> = None;
    let _: Option<validate::update::FindingKind> = None;
    let _ = validate::update::filter_matches(&Document::new(), &Document::new());
    let _ = validate::update::lint_update(&Document::new(), &update);
    let _ = validate::update::lint_upsert(&Document::new(), &Document::new(), &update);
}
