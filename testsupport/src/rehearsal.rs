//! The release the deploy rehearsal is tested on (`migrate --check`, `mongo_schema::simulate`):
//! an enforced order model whose next version changes `amount` from cents (`i64`) to
//! Decimal128, narrows `status` (no more `legacy`), removes `note` (the model refuses unknown
//! keys) and lowers `discount`'s maximum from 100 to 50. Its conversions, in the contract,
//! written three ways: one `updateMany` per field (as migrate-mongo scripts do), one update per
//! document shape, and steps the local applier cannot judge.
//!
//! Used by `migrate_workflow.rs` (the rehearsal, the CLI) and by
//! `drivertests/tests/migrate_workflow_mongod.rs` (the same steps on mongod).

use mongo_schema::migrate::file::MigrationFile;
use mongo_schema::migrate::{migrate, new_data_migration_in, pending, MigrateOptions, Model, Naming, Phase};
use serde_json::{json, Value};
use std::path::Path;

pub mod before {
    use mongo_schema::bson::oid::ObjectId;
    use mongo_schema::MongoSchema;
    use serde::{Deserialize, Serialize};

    /// Orders, before the release.
    #[derive(Serialize, Deserialize, MongoSchema)]
    #[serde(rename_all = "camelCase", deny_unknown_fields)]
    #[mongo(db = "db_rehearse", collection = "t_order")]
    pub struct Order {
        #[serde(rename = "_id")]
        pub id: ObjectId,
        #[mongo(max_length = 40)]
        pub order_no: String,
        /// cents
        pub amount: i64,
        pub status: Status,
        #[mongo(max_length = 200)]
        pub note: String,
        #[mongo(minimum = 0, maximum = 100)]
        pub discount: i32,
        #[serde(skip_serializing_if = "Option::is_none")]
        #[mongo(max_length = 20)]
        pub coupon: Option<String>,
    }

    #[derive(Serialize, Deserialize, MongoSchema)]
    #[serde(rename_all = "lowercase")]
    pub enum Status {
        New,
        Paid,
        Legacy,
    }
}

pub mod after {
    use mongo_schema::bson::{oid::ObjectId, Decimal128};
    use mongo_schema::MongoSchema;
    use serde::{Deserialize, Serialize};

    /// Orders, after the release.
    #[derive(Serialize, Deserialize, MongoSchema)]
    #[serde(rename_all = "camelCase", deny_unknown_fields)]
    #[mongo(db = "db_rehearse", collection = "t_order")]
    pub struct Order {
        #[serde(rename = "_id")]
        pub id: ObjectId,
        #[mongo(max_length = 40)]
        pub order_no: String,
        #[mongo(money)]
        pub amount: Decimal128,
        pub status: Status,
        #[mongo(minimum = 0, maximum = 50)]
        pub discount: i32,
        #[serde(skip_serializing_if = "Option::is_none")]
        #[mongo(max_length = 20)]
        pub coupon: Option<String>,
    }

    #[derive(Serialize, Deserialize, MongoSchema)]
    #[serde(rename_all = "lowercase")]
    pub enum Status {
        New,
        Paid,
    }
}

pub const DB: &str = "db_rehearse";
pub const COLLECTION: &str = "t_order";

pub fn before_models() -> Vec<Model> {
    vec![Model::of::<before::Order>("before::Order")]
}

pub fn after_models() -> Vec<Model> {
    vec![Model::of::<after::Order>("after::Order")]
}

/// How the release's conversions are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Conversions {
    /// One `updateMany` per field, each its own step: the type change, the enum narrowing,
    /// the removed field, the lowered bound.
    PerField,
    /// One update per document shape: every document of the previous shape to the new one
    /// whole, in one pipeline.
    PerShape,
    /// Steps the local applier cannot judge: a pipeline with `$toUpper`, an aggregation with
    /// `$merge`.
    Unjudged,
    /// [`PerShape`](Conversions::PerShape) filtered on `long` amounts only: the documents whose
    /// cents are an `int` stay in the previous shape, and the contract's gate stops on them.
    LongOnly,
}

fn update(u: Value, q: Value) -> Value {
    json!({ "db": DB, "command": { "update": COLLECTION, "updates": [{ "q": q, "u": u, "multi": true }] } })
}

/// The steps of the contract's data migration.
pub fn steps(conversions: Conversions) -> Vec<Value> {
    let cents = json!({ "$multiply": [{ "$toDecimal": "$amount" }, { "$numberDecimal": "0.01" }] });
    match conversions {
        Conversions::PerField => vec![
            update(json!([{ "$set": { "amount": cents } }]), json!({ "amount": { "$type": ["int", "long"] } })),
            update(json!({ "$set": { "status": "paid" } }), json!({ "status": "legacy" })),
            update(json!({ "$unset": { "note": "" } }), json!({ "note": { "$exists": true } })),
            update(json!({ "$set": { "discount": 50 } }), json!({ "discount": { "$gt": 50 } })),
        ],
        Conversions::PerShape | Conversions::LongOnly => vec![update(
            json!([
                { "$set": {
                    "amount": cents,
                    "status": { "$cond": [{ "$eq": ["$status", "legacy"] }, "paid", "$status"] },
                    "discount": { "$cond": [{ "$gt": ["$discount", 50] }, 50, "$discount"] },
                } },
                { "$unset": "note" },
            ]),
            match conversions {
                Conversions::LongOnly => json!({ "amount": { "$type": "long" } }),
                _ => json!({ "amount": { "$type": ["int", "long"] } }),
            },
        )],
        Conversions::Unjudged => vec![
            update(json!([{ "$set": { "orderNo": { "$toUpper": "$orderNo" } } }]), json!({})),
            json!({ "db": DB, "command": {
                "aggregate": COLLECTION,
                "pipeline": [{ "$match": {} }, { "$merge": { "into": COLLECTION, "whenMatched": "merge" } }],
                "cursor": {},
            } }),
        ],
    }
}

/// Writes the model's first migration (the previous release) into `dir`.
pub fn write_previous(dir: &Path) {
    migrate(dir, &before_models(), &MigrateOptions::default()).unwrap().unwrap();
}

/// Writes the release's migration (expand, then its contract) and the contract's data
/// migration with `conversions` into `dir`; every file of `dir` in order.
pub fn write_release(dir: &Path, conversions: Conversions) -> Vec<MigrationFile> {
    migrate(dir, &after_models(), &MigrateOptions::default()).unwrap().unwrap();
    let data = new_data_migration_in(dir, "convert orders", Naming::Timestamp, Phase::Contract).unwrap();
    let mut file: Value = serde_json::from_str(&std::fs::read_to_string(&data).unwrap()).unwrap();
    file["up"] = Value::Array(steps(conversions));
    std::fs::write(&data, serde_json::to_string_pretty(&file).unwrap()).unwrap();
    pending(dir).unwrap().iter().map(|p| MigrationFile::read(p).unwrap()).collect()
}

/// Both releases' files in `dir`, in order.
pub fn write(dir: &Path, conversions: Conversions) -> Vec<MigrationFile> {
    write_previous(dir);
    write_release(dir, conversions)
}
