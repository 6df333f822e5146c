//! What the two update differentials (`update_mongod.rs`, `update_pipeline_mongod.rs`)
//! share: the collection's schema, the seed of a run, and how values are shown and compared.

use mongo_schema::bson::{doc, Bson, Decimal128, Document, RawDocumentBuf};

pub fn schema() -> Document {
    doc! {
        "bsonType": "object",
        "properties": {
            "n": { "bsonType": ["int", "long"], "minimum": -5, "maximum": 100 },
            "s": { "bsonType": "string", "maxLength": 4 },
            "arr": { "bsonType": "array", "maxItems": 5, "items": { "bsonType": ["int", "string", "object", "null"] } },
            "d": { "bsonType": "object", "properties": { "x": { "bsonType": "int" } } },
        },
    }
}

pub fn decimal(s: &str) -> Bson {
    Bson::Decimal128(s.parse::<Decimal128>().unwrap())
}

pub fn bytes(d: &Document) -> Vec<u8> {
    RawDocumentBuf::try_from(d).expect("serializable").into_bytes()
}

pub fn json(b: Bson) -> String {
    b.into_relaxed_extjson().to_string()
}

/// The seed of a run: `UPDATE_SEED=N` replays one, `UPDATE_SEED=random` draws one (and the
/// summary line prints it); by default a fixed seed, so the test command decides the same way
/// on every run.
pub fn seed() -> u64 {
    const DEFAULT: u64 = 20_261_126;
    match std::env::var("UPDATE_SEED").as_deref() {
        Err(_) => DEFAULT,
        Ok("random") => std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(DEFAULT),
        Ok(n) => n.parse().expect("UPDATE_SEED is a number or `random`"),
    }
}
