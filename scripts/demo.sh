#!/usr/bin/env bash
# The main job: prints the quickstart's validators as createCollection commands, then
# runs the example app's `schema migrate` into a temporary directory and prints the
# migration it wrote: the mongosh script and its down script (the JSON commands and the
# snapshot sit beside them; their paths are listed); then `schema queries`: every `query!`
# of examples/app/src/store.rs with the index it uses, and the two indexes the example keeps
# on purpose for it to name (one unused, one redundant: the redundant one makes it exit 1,
# which the demo checks; any other status fails the demo).
#
#   scripts/demo.sh             # a fresh temporary directory, removed afterwards
#   scripts/demo.sh migrations  # keep the files: edit a model in examples/app, run again
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
if [ $# -gt 0 ]; then
  dir=$1
else
  dir=$(mktemp -d "${TMPDIR:-/tmp}/mongo-schema-demo.XXXXXX")
  trap 'rm -rf "$dir"' EXIT
fi

cd "$root"
printf '==> validators of examples/quickstart.rs <==\n'
cargo run --quiet -p mongo-schema-examples --example quickstart
printf '\n==> schema migrate (examples/app) into %s <==\n' "$dir"
report=$(cargo run --quiet -p mongo-schema-example-app --bin schema -- migrate --dir "$dir")
printf '%s\n' "$report"
name=$(sed -n 's/^wrote migration \(.*\):$/\1/p' <<<"$report")
if [ -n "$name" ]; then
  for file in "$dir/$name.js" "$dir/$name.down.js"; do
    printf '\n==> %s <==\n' "$file"
    cat "$file"
  done
fi

printf '\n==> schema queries (examples/app) <==\n'
status=0
cargo run --quiet -p mongo-schema-example-app --bin schema -- queries || status=$?
if [ "$status" -ne 1 ]; then
  printf 'schema queries exited %s; the example expects 1 (its redundant index customerId_1)\n' "$status" >&2
  exit 1
fi
printf '(exit 1, as expected: the redundant index customerId_1 is the one problem listed)\n'
