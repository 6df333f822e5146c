#!/usr/bin/env bash
# Builds the fuzz targets (the validator; the dump readers; their gzip and format detection;
# infer over untrusted metadata and documents)
# and runs each for ~60 s (FUZZ_SECONDS to change), failing on any crash, panic, timeout or
# out-of-memory. Needs the nightly toolchain and cargo-fuzz:
#   rustup toolchain install nightly && cargo install cargo-fuzz
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
seconds="${FUZZ_SECONDS:-60}"
cd "$root/fuzz"
for target in validate dump dump_sniff infer; do
  mkdir -p "corpus/$target"
  cargo +nightly fuzz run "$target" "corpus/$target" -- \
    -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=4096
done
