#!/usr/bin/env bash
# The compile-mix measure (../shared/bench/compile-mix/run.sh: instructions of `cargo check`
# after a touch, (ours - serde) / (schemars - serde)), split in two: what serde's own derives
# add for the `#[serde(with = "mongo_schema::serde_helpers::decimal128[_option]")]` the rules
# ask of every `Decimal` field (silent_string), and what `#[derive(MongoSchema)]` adds.
# A fourth crate, `helpers`, is the `serde` one with those attributes and the mongo-schema
# dependency, without the derive. docs/BENCHMARKS.md, "The compile-mix crate, split".
#
#   bash bench/compile/mix_split.sh [GEN_DIR]   (default ../shared/bench/compile-mix)
#   N=200 SEED=7 WORK=DIR bash bench/compile/mix_split.sh
#
# Needs valgrind. Counts with cachegrind (the same instruction counts as run.sh's callgrind,
# faster); each variant is built once before the counted rebuild, as in run.sh.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
gen_dir=$(cd "${1:-$repo/../shared/bench/compile-mix}" && pwd)
rt="$repo/runtime"
command -v valgrind >/dev/null || { echo "valgrind is needed: apt-get install -y valgrind"; exit 1; }
N=${N:-200}; SEED=${SEED:-7}
work=${WORK:-${XDG_CACHE_HOME:-$HOME/.cache}/mongo-schema-compile-mix-split}
mkdir -p "$work"
export CARGO_TARGET_DIR="$work/target"
gen() { python3 "$gen_dir/gen.py" -n "$N" --seed "$SEED" --out "$work/$1" "${@:2}"; }
dep="mongo-schema = { path = \"$rt\", features = [\"bson-3\"] }"
helpers=(--dec-attr '#[serde(with = "mongo_schema::serde_helpers::decimal128")]'
  --optdec-attr '#[serde(with = "mongo_schema::serde_helpers::decimal128_option")]')
gen serde --variant serde
gen schemars --variant schemars
gen helpers --variant serde --suffix=-helpers --extra-dep "$dep" "${helpers[@]}"
gen ours --variant serde --suffix=-ours --extra-derive 'mongo_schema::MongoSchema' --extra-dep "$dep" \
  --root-attr '#[mongo(db = "db_bench", collection = "t_{snake}")]' \
  --vec-attr '#[mongo(max_items = 100)]' "${helpers[@]}"
# the helpers crate names the runtime even if a seed draws no Decimal
echo 'pub use mongo_schema::serde_helpers as _helpers;' >> "$work/helpers/src/lib.rs"
wrap="$work/rustc-wrapper"
printf '#!/usr/bin/env bash\nif [ -n "${CG_OUT:-}" ]; then exec valgrind --tool=cachegrind --cache-sim=no --branch-sim=no --cachegrind-out-file="$CG_OUT" --log-file=/dev/null -q "$@"; fi\nexec "$@"\n' > "$wrap"
chmod +x "$wrap"
export RUSTC_WORKSPACE_WRAPPER=$wrap
declare -A n
for v in serde schemars helpers ours; do
  (cd "$work/$v" && cargo check -q)
  touch "$work/$v/src/lib.rs"
  (cd "$work/$v" && CG_OUT="$work/cg.$v" cargo check -q)
  n[$v]=$(grep -E '^(summary|totals):' "$work/cg.$v" | head -1 | awk '{print $2}')
  # rustc reuses a crate's metadata after a touch, but some crates encode it again (about
  # 0.25 G more here); such a count does not compare with the others
  encode=$(cg_annotate "$work/cg.$v" 2>/dev/null | awk '/EncodeContext>::encode_def_ids/ {gsub(",", "", $1); print $1; exit}')
  if [ "${encode:-0}" -gt 10000000 ]; then
    echo "note: the $v crate encoded its metadata again after the touch (encode_def_ids: $encode instructions)"
  fi
done
decimals=$(grep -c 'mongo_schema::serde_helpers::decimal128' "$work/ours/src/lib.rs" || true)
python3 - "${n[serde]}" "${n[schemars]}" "${n[helpers]}" "${n[ours]}" "$decimals" <<'PY'
import sys
serde, schemars, helpers, ours, decimals = map(int, sys.argv[1:])
s = schemars - serde
print("check after a touch, instructions: serde %.3f G, schemars +%.3f G, ours +%.3f G: ratio %.2f"
      % (serde / 1e9, s / 1e9, (ours - serde) / 1e9, (ours - serde) / s))
print("  serde's derives for the %d decimal128 helper fields (and the dependency): +%.3f G (%.2f of schemars'; %.2f M a field)"
      % (decimals, (helpers - serde) / 1e9, (helpers - serde) / s, (helpers - serde) / max(decimals, 1) / 1e6))
print("  #[derive(MongoSchema)] itself: +%.3f G (%.2f of schemars')" % ((ours - helpers) / 1e9, (ours - helpers) / s))
PY
