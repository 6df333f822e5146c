//! The hostile shapes (testsupport/src/hostile_shapes.rs) timed locally and in mongod, one run, one table:
//! ours is `Validator::validate` on the document, mongod's an `insert` of the same document
//! into a collection with the same validator (round trip included), best of `HOSTILE_RUNS`
//! (default 3) each. Ignored by default (timing, not a check); run it with a release build:
//!
//!   scripts/with-mongod.sh bench/hostile/run.sh
//!
//! which is `cargo test --release -p mongo-schema-driver-tests --test it -- --ignored
//! --nocapture validator_hostile_bench::`. Without `MONGODB_URI` only our column is printed.

use mongo_schema_test_support::hostile_shapes as shapes;

use std::time::Instant;

use mongo_schema::bson::{doc, Document};
use mongo_schema::Validator;
use mongodb::sync::Client;

fn best_ms(runs: usize, mut f: impl FnMut() -> bool) -> (f64, bool) {
    let mut best = f64::MAX;
    let mut verdict = false;
    for _ in 0..runs {
        let start = Instant::now();
        verdict = f();
        best = best.min(start.elapsed().as_secs_f64() * 1e3);
    }
    (best, verdict)
}

#[test]
#[ignore = "a benchmark: run with --ignored --nocapture (see the module docs)"]
fn hostile_shapes_against_mongod() {
    let runs: usize = std::env::var("HOSTILE_RUNS").ok().and_then(|v| v.parse().ok()).unwrap_or(3);
    let db = std::env::var("MONGODB_URI")
        .ok()
        .map(|uri| Client::with_uri_str(uri).expect("MONGODB_URI").database("mongo_schema_hostile_bench"));
    println!("| shape | n | ours (ms) | mongod insert (ms) | ours/mongod | verdict (ours, mongod) |");
    println!("|---|---:|---:|---:|---:|---|");
    for shape in shapes::SHAPES {
        let (schema, document) = (shape.build)(shape.size);
        let validator = Validator::new(&schema).expect("schema");
        let (ours, ours_ok) = best_ms(runs, || validator.validate(&document).is_ok());
        if let Err(err) = validator.validate(&document) {
            let first = err.failure().and_then(|f| f.violations().first().map(|v| format!("{} {}", v.path, v.keyword)));
            eprintln!("{} rejects: {first:?}", shape.name);
        }
        let theirs = db.as_ref().map(|db| {
            let coll = db.collection::<Document>("c");
            coll.drop().run().unwrap();
            db.create_collection("c").validator(doc! { "$jsonSchema": schema.clone() }).run().unwrap();
            let result = best_ms(runs, || {
                let ok = coll.insert_one(&document).run().is_ok();
                coll.delete_many(doc! {}).run().unwrap();
                ok
            });
            coll.drop().run().unwrap();
            result
        });
        let (mongod, ratio, verdicts) = match theirs {
            Some((ms, ok)) => (format!("{ms:.3}"), format!("{:.2}", ours / ms), format!("{ours_ok}, {ok}")),
            None => ("-".into(), "-".into(), format!("{ours_ok}, -")),
        };
        println!("| {} | {} | {ours:.3} | {mongod} | {ratio} | {verdicts} |", shape.name, shape.size);
        if let Some((_, ok)) = theirs {
            assert_eq!(ours_ok, ok, "{}: our verdict differs from mongod's", shape.name);
        }
    }
}
