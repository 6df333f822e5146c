//! Growth check: each hostile shape (testsupport/src/hostile_shapes.rs) validated at sizes `n` and `8n` must
//! not take more than ~3x linear growth (24x, where a quadratic keyword would take ~64x).
//!
//! Ignored by default (timed, so never in the test command): `bench/hostile/run.sh` runs it.
//! WALL-CLOCK based (the validator exposes no work counter to integration tests): each size
//! is timed as the minimum of 7 runs, interleaved, and the bound is generous, so load on the
//! machine (which slows both sizes alike) does not flake it; a size whose `n` run takes under
//! 0.2 ms is scaled up first, so timer resolution does not dominate. Inputs are deterministic.

use mongo_schema_test_support::hostile_shapes as shapes;

use std::time::Instant;

use mongo_schema::Validator;

fn min_ms(validator: &Validator, document: &mongo_schema::bson::Document) -> f64 {
    let start = Instant::now();
    let _ = std::hint::black_box(validator.validate(document));
    start.elapsed().as_secs_f64() * 1e3
}

/// Timed, so not in the test command (whose tests decide the same way on every run, however
/// loaded the machine): `bench/hostile/run.sh` runs it with the benchmark.
#[test]
#[ignore = "timed: run with --ignored on a quiet machine, as bench/hostile/run.sh does"]
fn no_shape_grows_faster_than_linear() {
    for shape in shapes::SHAPES {
        // Sizes small enough for a debug build; the catastrophic patterns stop at the match
        // limit whatever their length, and `anyOf` nesting is the schema's size.
        let mut n = (shape.size / 40).max(16);
        // Nesting is capped so that 8n levels stay within mongod's (and a debug stack's) depth.
        if shape.name.starts_with("anyOf") {
            n = shape.size / 8;
        }
        let build = |n: usize| {
            let (schema, document) = (shape.build)(n);
            (Validator::new(&schema).expect("schema"), document)
        };
        let (mut small, mut large) = (build(n), build(8 * n));
        while min_ms(&small.0, &small.1) < 0.2 && 16 * n <= shape.size {
            n *= 2;
            (small, large) = (build(n), build(8 * n));
        }
        let (mut t_small, mut t_large) = (f64::MAX, f64::MAX);
        for _ in 0..7 {
            t_small = t_small.min(min_ms(&small.0, &small.1));
            t_large = t_large.min(min_ms(&large.0, &large.1));
        }
        let ratio = t_large / t_small.max(1e-3);
        eprintln!("{}: n={n} {t_small:.3} ms, 8n {t_large:.3} ms, ratio {ratio:.1}", shape.name);
        assert!(
            ratio < 24.0,
            "{}: 8x the size took {ratio:.1}x the time ({t_small:.3} -> {t_large:.3} ms)",
            shape.name
        );
    }
}
