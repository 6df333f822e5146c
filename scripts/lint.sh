#!/usr/bin/env bash
# The maintainer checks, run by the test command before the tests: formatting (rustfmt.toml),
# clippy with every warning an error, rustdoc with every warning an error, and the declared
# minimum Rust version (the workspace's `rust-version`) building the published crates.
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
for crate in downstream/bson2 downstream/bson3 downstream/infer; do
  cargo fmt --manifest-path "$crate/Cargo.toml" --check
done

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
