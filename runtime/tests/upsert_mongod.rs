//! `check_upsert_static` against mongod 6.0.5 (`MONGODB_URI`): for each upsert, the lint
//! reports a missing required field exactly when mongod refuses the insert the upsert makes
//! (121) on an empty collection under the model's strict validator. Without `MONGODB_URI`
//! the test says it was skipped and passes.

#![forbid(unsafe_code)]
#![cfg(feature = "driver")]

use mongo_schema::bson::{doc, Bson, Document};
use mongo_schema::migrate::driver::MongoServer;
use mongo_schema::migrate::server::Server;
use mongo_schema::{check_upsert_static, MongoCollection, MongoSchema};
use serde::{Deserialize, Serialize};

/// A page's hit counter: `page` and `owner` are required, `hits` too.
#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(db = "db_test_upsert", collection = "t_upsert_counter")]
struct Counter {
    #[serde(rename = "_id")]
    id: mongo_schema::bson::oid::ObjectId,
    #[mongo(max_length = 200)]
    page: String,
    hits: i64,
    #[mongo(max_length = 40)]
    owner: String,
}

#[test]
fn the_lint_reports_a_missing_required_field_exactly_when_mongod_refuses_the_insert() {
    let Ok(uri) = std::env::var("MONGODB_URI") else {
        eprintln!("skipped (no MONGODB_URI): the_lint_reports_a_missing_required_field_exactly_when_mongod_refuses_the_insert");
        return;
    };
    let server = &mut MongoServer::connect(&uri).unwrap();
    let db = Counter::DB_NAME;
    let cases: Vec<(Document, Document)> = vec![
        (doc! { "page": "/" }, doc! { "$inc": { "hits": 1_i64 } }),
        (doc! { "page": "/" }, doc! { "$inc": { "hits": 1_i64 }, "$setOnInsert": { "owner": "ops" } }),
        (doc! { "page": "/", "owner": "ops" }, doc! { "$inc": { "hits": 1_i64 } }),
        (doc! { "page": { "$eq": "/" }, "owner": "ops" }, doc! { "$set": { "hits": 0_i64 } }),
        (doc! { "page": { "$in": ["/"] }, "owner": "ops" }, doc! { "$set": { "hits": 0_i64 } }),
        (doc! { "page": { "$in": ["/", "/home"] }, "owner": "ops" }, doc! { "$set": { "hits": 0_i64 } }),
        (doc! { "page": { "$gte": "/" }, "owner": "ops" }, doc! { "$set": { "hits": 0_i64 } }),
        (doc! { "$and": [{ "page": "/" }, { "owner": "ops" }] }, doc! { "$max": { "hits": 3_i64 } }),
        (doc! { "owner": "ops" }, doc! { "$set": { "hits": 1_i64 }, "$rename": { "legacy": "page" } }),
        (doc! { "legacy": "/", "owner": "ops" }, doc! { "$set": { "hits": 1_i64 }, "$rename": { "legacy": "page" } }),
        (doc! {}, doc! { "$set": { "page": "/", "hits": 1_i64 } }),
    ];
    let mut agreed = 0;
    for (filter, update) in &cases {
        let _ = server.run_command(db, doc! { "drop": Counter::COLLECTION_NAME });
        server.run_command(db, Counter::create_collection_command()).unwrap();
        let statement = doc! { "q": filter.clone(), "u": update.clone(), "upsert": true };
        let reply =
            server.run_command(db, doc! { "update": Counter::COLLECTION_NAME, "updates": [statement] }).unwrap();
        let refused = reply
            .get_array("writeErrors")
            .ok()
            .and_then(|e| e.first())
            .and_then(Bson::as_document)
            .map(|e| e.get_i32("code").unwrap());
        let findings = check_upsert_static::<Counter>(filter, update);
        let missing = findings.iter().any(|f| f.kind == mongo_schema::validate::FindingKind::UpsertMissing);
        assert_eq!(
            refused == Some(121),
            missing,
            "filter {filter}, update {update}: mongod {refused:?}, lint {findings:?}"
        );
        assert!(refused.is_none() || refused == Some(121), "{refused:?}");
        agreed += 1;
    }
    assert_eq!(agreed, cases.len());
    let _ = server.run_command(db, doc! { "dropDatabase": 1 });
}
