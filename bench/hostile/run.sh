#!/usr/bin/env bash
# Hostile document shapes, ours against mongod 6.0.5, one table (docs/BENCHMARKS.md):
#
#   scripts/with-mongod.sh bench/hostile/run.sh      # HOSTILE_RUNS=N for best of N (default 3)
#
# The shapes live in testsupport/src/hostile_shapes.rs; the timing in
# drivertests/tests/validator_hostile_bench.rs (an ignored test, release build).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
# The growth check (runtime/tests/validator_scaling.rs: each shape at n and 8n) first, then
# the table.
cargo test --release -q -p mongo-schema --test it -- --ignored validator_scaling::
exec cargo test --release -q -p mongo-schema-driver-tests --test it -- --ignored --nocapture validator_hostile_bench::
