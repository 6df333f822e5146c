#!/usr/bin/env bash
# The maintainer checks, run by the test command before the tests: formatting (rustfmt.toml),
# clippy with every warning an error, the features and paths the docs name, rustdoc with every
# warning an error, and the declared minimum Rust version (the workspace's `rust-version`)
# building the published crates.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

echo "lint: cargo fmt --check" >&2
cargo fmt --all --check
cargo fmt --manifest-path fuzz/Cargo.toml --check

echo "lint: cargo clippy (all targets, all features, warnings denied)" >&2
cargo clippy --workspace --all-targets --all-features --quiet -- -D warnings
echo "lint: cargo clippy under bson 2 (every feature but bson-3)" >&2
cargo clippy --workspace --all-targets --quiet \
  --features mongo-schema/cli,mongo-schema/driver,mongo-schema-example-app/driver -- -D warnings
# The downstream crates (a user's crates, small): formatting here; their builds in
# scripts/test.sh deny rustc's warnings, mongo-schema's own included (a path dependency's
# warnings are not capped), under each feature set a user picks. No clippy pass of their
# own: it would check the driver's tree twice more for a few hundred lines of test code.
echo "lint: cargo fmt of the downstream crates" >&2
cargo fmt --manifest-path downstream/facade/Cargo.toml --all --check
for crate in downstream/bson2 downstream/bson3 downstream/infer downstream/readme; do
  cargo fmt --manifest-path "$crate/Cargo.toml" --check
done

# The docs name only features that exist: a doc comment (`//!`, `///`, a `src/*.md` page the
# crate includes as docs) naming a feature (`feature `x``, "the `x` and `y` features",
# `feature = "x"`) that its crate's Cargo.toml does not have fails. Named beside "mongo-schema"
# ("mongo-schema's `x` feature") or in a `doc(cfg(...))` (which the facade renders for the items
# it re-exports), a feature of mongo-schema's counts too.
echo "lint: the features the published crates' docs name exist" >&2
cargo metadata --no-deps --format-version 1 | python3 -c '
import json, os, re, sys
meta = json.load(sys.stdin)
packages = [p for p in meta["packages"] if p.get("publish") != []]
facade = set(next(p for p in packages if p["name"] == "mongo-schema")["features"])
NAME = r"`([a-z0-9][a-z0-9_-]*)`"
LIST = NAME + r"(?:(?:,| and| or)\s+`[a-z0-9][a-z0-9_-]*`)*"
mention = re.compile(r"\bfeatures?\s+(" + LIST + r")|(" + LIST + r")\s+features?\b|feature\s*=\s*\\?\"([^\"\\]+)\\?\"")
bad = []
def check(path, lines, own, in_cfg):
    text, starts = "", []
    for n, line in lines:  # one paragraph, its lines joined: a mention may wrap
        starts.append((len(text), n))
        text += line + " "
    for m in mention.finditer(text):
        found = [m.group(5)] if m.group(5) else re.findall(r"`([^`]+)`", m.group(1) or m.group(3))
        near = text[max(0, m.start() - 80):m.end() + 25]
        facades = in_cfg or re.search(r"mongo[-_]schema\b(?![-_])", near)
        line = max(n for s, n in starts if s <= m.start())
        for name in found:
            if name not in own and not (facades and name in facade):
                whose = "neither mongo-schema nor its crate has" if facades else "its crate does not have"
                bad.append(f"{path}:{line}: a doc comment names the feature `{name}`, which {whose}")
for p in packages:
    own = set(p["features"])
    src = os.path.join(os.path.dirname(p["manifest_path"]), "src")
    for d, _, files in os.walk(src):
        for f in files:
            path = os.path.relpath(os.path.join(d, f))
            lines = list(enumerate(open(path, encoding="utf-8").read().split("\n"), 1))
            if f.endswith(".md"):
                check(path, lines, own, False)
            elif f.endswith(".rs"):
                block = []
                for n, line in lines + [(0, "")]:
                    doc = re.match(r"\s*//[/!] ?(.*)", line)
                    if doc:
                        block.append((n, doc.group(1)))
                        continue
                    if block:
                        check(path, block, own, False)
                        block = []
                    if re.match(r"\s*#!?\[cfg_attr\(docsrs,\s*doc\(cfg", line):
                        check(path, [(n, line)], own, True)
for b in sorted(set(bad)):
    print(f"lint: {b}", file=sys.stderr)
sys.exit(1 if bad else 0)
'

# The paths README.md and ARCHITECTURE.md name exist: a `dir/file` path whose first segment is
# a directory or file of the repository, and a bare file name after one on the same line (`a/b.rs`,
# `c.rs`: `a/c.rs`), outside code blocks; `<...>`, `{...}` and `*` are wildcards.
echo "lint: the paths README.md and ARCHITECTURE.md name exist" >&2
python3 - README.md ARCHITECTURE.md <<'PY'
import glob, os, re, sys
roots, bad = set(os.listdir(".")), []
for doc in sys.argv[1:]:
    text = re.sub(r"```.*?```", lambda m: "\n" * m.group(0).count("\n"), open(doc).read(), flags=re.S)
    for n, line in enumerate(text.split("\n"), 1):
        base = None
        for m in re.finditer(r"`([^`\s]+)`|\]\(([^)\s#]+)", line):
            path = (m.group(1) or m.group(2)).rstrip(".,:;")
            if "/" in path and "://" not in path and path.split("/")[0] in roots:
                pass
            elif base and re.fullmatch(r"[A-Za-z0-9_.-]+\.(rs|md|sh|toml|py|js)", path):
                path = os.path.join(base, path)
            else:
                continue
            pattern = re.sub(r"<[^>]*>|\{[^}]*\}", "*", path)
            if not glob.glob(pattern):
                bad.append(f"lint: {doc}:{n} names `{path}`, which does not exist")
            base = path.rstrip("/") if path.endswith("/") else os.path.dirname(path)
print("\n".join(bad), file=sys.stderr, end="\n" if bad else "")
sys.exit(1 if bad else 0)
PY

published=$(cargo metadata --no-deps --format-version 1 |
  python3 -c 'import json, sys; print(" ".join("-p " + p["name"] for p in json.load(sys.stdin)["packages"] if p.get("publish") != []))')

# rustdoc's warnings (a broken or private intra-doc link, ...) denied for every published
# crate, mongo-schema with the features docs.rs renders (its [package.metadata.docs.rs]).
docs_features=$(cargo metadata --no-deps --format-version 1 |
  python3 -c 'import json, sys; print(",".join(p["name"] + "/" + f for p in json.load(sys.stdin)["packages"]
    if (p.get("metadata") or {}).get("docs") for f in p["metadata"]["docs"]["rs"].get("features", [])))')
echo "lint: cargo doc of the published crates (rustdoc warnings denied)" >&2
# shellcheck disable=SC2086 # one -p per package
RUSTDOCFLAGS="-D warnings" cargo doc --no-deps --quiet $published --features "$docs_features"

# One source for the version: the workspace's `rust-version`.
msrv=$(sed -n 's/^rust-version = "\(.*\)"$/\1/p' Cargo.toml)
echo "lint: the published crates build with Rust $msrv (rust-version)" >&2
if ! rustup run "$msrv" rustc --version >/dev/null 2>&1; then
  rustup toolchain install "$msrv" --profile minimal >&2
fi
# shellcheck disable=SC2086 # one -p per package
cargo "+$msrv" check --all-features --quiet $published
