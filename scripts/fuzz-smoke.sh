#!/usr/bin/env bash
# Builds the fuzz targets (the validator; the dump readers; their gzip and format detection;
# infer over untrusted metadata and documents)
# once and runs each for ~60 s (FUZZ_SECONDS to change), two at a time, failing on any crash, panic, timeout or
# out-of-memory. Needs the nightly toolchain and cargo-fuzz:
#   rustup toolchain install nightly && cargo install cargo-fuzz
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
seconds="${FUZZ_SECONDS:-60}"
cd "$root/fuzz"
targets=(validate dump dump_sniff infer)
# One build of every target (one cargo invocation compiles them side by side), then the
# runs two at a time: each fuzzer is one thread, and CI machines have two cores.
cargo +nightly fuzz build
logs=$(mktemp -d)
run() {
  mkdir -p "corpus/$1"
  cargo +nightly fuzz run "$1" "corpus/$1" -- \
    -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=4096 >"$logs/$1" 2>&1
}
failed=0
for ((i = 0; i < ${#targets[@]}; i += 2)); do
  pids=()
  for target in "${targets[@]:i:2}"; do
    run "$target" &
    pids+=("$!:$target")
  done
  for entry in "${pids[@]}"; do
    target=${entry#*:}
    if wait "${entry%%:*}"; then
      echo "fuzz-smoke: $target: $(grep -E '^Done [0-9]+ runs' "$logs/$target" || tail -n 1 "$logs/$target")"
    else
      echo "fuzz-smoke: $target FAILED; its log:" >&2
      cat "$logs/$target" >&2
      failed=1
    fi
  done
done
rm -rf "$logs"
exit "$failed"
