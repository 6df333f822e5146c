//! What the two update differentials (`update_mongod.rs`, `update_pipeline_mongod.rs`)
//! share: the collection's schema, the seed of a run, how its cases are drawn, and how values
//! are shown and compared.

use mongo_schema::bson::{doc, Bson, Decimal128, Document, RawDocumentBuf};
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};

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

/// Runs `cases` cases drawn from `strategy` on `seed` (`run(state, index, case)`), then, for
/// each of `features` that no case applied (`applied(state, feature)`), draws until a case
/// holding it (`holds`) is applied, at most `max_draws` draws a feature, then runs more cases
/// while the outcomes are `short` of their mix (given the cases run so far), at most
/// `max_draws` more: coverage by construction, whatever the seed and however few the cases.
/// The number of cases drawn for coverage.
#[allow(clippy::too_many_arguments)]
pub fn draw<T, S: Strategy>(
    seed: u64,
    strategy: S,
    cases: usize,
    features: &[&'static str],
    max_draws: usize,
    state: &mut T,
    holds: impl Fn(&S::Value) -> Vec<&'static str>,
    applied: impl Fn(&T, &str) -> bool,
    short: impl Fn(&T, usize) -> bool,
    mut run: impl FnMut(&mut T, usize, &S::Value),
) -> usize {
    let mut seed_bytes = [0u8; 32];
    seed_bytes[..8].copy_from_slice(&seed.to_le_bytes());
    let rng = TestRng::from_seed(RngAlgorithm::ChaCha, &seed_bytes);
    let mut runner = TestRunner::new_with_rng(Config::default(), rng);
    for i in 0..cases {
        let case = strategy.new_tree(&mut runner).expect("a case").current();
        run(state, i, &case);
    }
    let mut top_up = 0;
    for feature in features {
        let mut draws = 0;
        while !applied(state, feature) && draws < max_draws {
            let case = strategy.new_tree(&mut runner).expect("a case").current();
            draws += 1;
            if holds(&case).contains(feature) {
                top_up += 1;
                run(state, cases + top_up, &case);
            }
        }
    }
    let mut draws = 0;
    while short(state, cases + top_up) && draws < max_draws {
        let case = strategy.new_tree(&mut runner).expect("a case").current();
        draws += 1;
        top_up += 1;
        run(state, cases + top_up, &case);
    }
    top_up
}

/// The outcomes a differential run must hold, of `cases` asked for and `run` run in all: at
/// least a tenth of `cases` stored, a twentieth failing validation (121) and a tenth refused
/// with another code, and fewer than a tenth of `run` not modelled. `false` when the mix
/// holds; `draw` runs more cases while it does not.
pub fn mix_short(
    cases: usize,
    run: usize,
    stored: usize,
    validation: usize,
    other_errors: usize,
    unmodelled: usize,
) -> bool {
    stored * 10 < cases || validation * 20 < cases || other_errors * 10 < cases || unmodelled * 10 >= run
}
