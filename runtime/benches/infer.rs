//! `schema infer --all` over 100,000 small documents: `cargo bench -p mongo-schema --features
//! cli --bench infer`. Prints documents/s for the whole command over a `.bson` dump (read,
//! infer, draft, write) and for the inference state alone, against a named peer measured in
//! the same run: decoding every document into a `bson::Document` (what any tool that reads
//! documents as values pays before it looks at one). `INFER_DOCS` sets the number of
//! documents. Issue #37 asks for well under 30 s on a 2-core machine.

#![forbid(unsafe_code)]

use mongo_schema::bson::{doc, oid::ObjectId, Bson, DateTime, Document, RawDocumentBuf};
use mongo_schema::infer::Collection;
use std::time::Instant;

fn main() {
    let n: u64 = std::env::var("INFER_DOCS").ok().and_then(|v| v.parse().ok()).unwrap_or(100_000);
    let statuses = ["new", "paid", "shipped"];
    let mut bytes = Vec::new();
    let mut raws = Vec::new();
    for i in 0..n {
        let mut id = [0u8; 12];
        id[4..].copy_from_slice(&i.to_be_bytes());
        let d = doc! {
            "_id": ObjectId::from_bytes(id),
            "userId": (i % 5000) as i64,
            "status": statuses[(i % 3) as usize],
            "amount": if i % 10 == 0 { Bson::Double(i as f64 / 3.0) } else { Bson::Int32(i as i32) },
            "createTime": DateTime::from_millis(1_700_000_000_000 + i as i64),
            "tags": ["a", "b"],
            "address": { "city": "Oslo", "zip": format!("{:05}", i % 99_999) },
        };
        d.to_writer(&mut bytes).unwrap();
        raws.push(RawDocumentBuf::try_from(&d).unwrap());
    }
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("db_bench");
    std::fs::create_dir_all(&db).unwrap();
    let file = db.join("t_small.bson");
    std::fs::write(&file, &bytes).unwrap();

    // the peer: every document decoded into an owned `bson::Document`
    let started = Instant::now();
    let mut keys = 0usize;
    for raw in &raws {
        keys += Document::try_from(raw.as_ref()).unwrap().len();
    }
    let decode = started.elapsed();
    assert_eq!(keys, 7 * n as usize);

    let started = Instant::now();
    let mut state = Collection::default();
    for raw in &raws {
        state.observe(raw).unwrap();
    }
    let engine = started.elapsed();

    let out = dir.path().join("models.rs");
    let report = dir.path().join("report.txt");
    let args = [
        "schema",
        "infer",
        file.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--report",
        report.to_str().unwrap(),
    ];
    let started = Instant::now();
    let code = mongo_schema::cli::run(&[], args, &mut std::io::sink(), &mut std::io::sink());
    let command = started.elapsed();
    assert_eq!(code, 0, "{}", std::fs::read_to_string(&report).unwrap_or_default());
    assert!(std::fs::read_to_string(&report)
        .unwrap()
        .contains(&format!("{n} documents read").replace("100000", "100,000")));

    let rate = |d: std::time::Duration| n as f64 / d.as_secs_f64();
    println!("infer: {n} documents, {} bytes of BSON", bytes.len());
    println!("  inference state alone: {:>10.0} documents/s ({:.2} s)", rate(engine), engine.as_secs_f64());
    println!("  schema infer DUMP:     {:>10.0} documents/s ({:.2} s)", rate(command), command.as_secs_f64());
    println!("  peer, bson::Document decode alone: {:>10.0} documents/s ({:.2} s)", rate(decode), decode.as_secs_f64());
    println!(
        "  ratio to the peer (time): inference state {:.2}, whole command {:.2}",
        engine.as_secs_f64() / decode.as_secs_f64(),
        command.as_secs_f64() / decode.as_secs_f64()
    );
}
