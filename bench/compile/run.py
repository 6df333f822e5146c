#!/usr/bin/env python3
"""Compile-time cost of #[derive(MongoSchema)] against schemars' #[derive(JsonSchema)].

Generates one crate of N realistic models (seeded, reproducible) in three variants:
  serde     serde derives only
  schemars  serde + schemars::JsonSchema
  ours      serde + mongo_schema::MongoSchema, with the attributes our rules require
builds their dependencies once, then times rebuilds of the models crates only, variants
interleaved, in three modes (incremental `cargo build`, non-incremental build,
`cargo check`). A timing in which cargo did not recompile the models crate is refused.
Prints per mode the medians of wall time (the target) and of CPU time (cargo + rustc,
user + sys: steadier on a shared machine) and the ratio (ours - serde) / (schemars - serde).

  python3 bench/compile/run.py [--models 200] [--runs 5] [--seed 7] [--dir DIR]
"""
import argparse, os, random, resource, shutil, statistics, subprocess, sys, time

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
VARIANTS = ["serde", "schemars", "ours"]
MODES = {
    "incremental build": (["build"], {"CARGO_INCREMENTAL": "1"}),
    "non-incremental build": (["build"], {"CARGO_INCREMENTAL": "0"}),
    "check": (["check"], {"CARGO_INCREMENTAL": "1"}),
}
WORDS = ["user", "order", "product", "address", "payment", "invoice", "shipment", "customer",
         "account", "category", "review", "coupon", "warehouse", "supplier", "contact", "region",
         "device", "session", "message", "channel", "report", "schedule", "vendor", "store"]
ATTRS = ["name", "title", "code", "label", "summary", "remark", "phone", "email", "city", "street",
         "country", "note", "source", "owner", "level", "rank", "score", "count", "weight", "height"]


class Gen:
    """One model set, rendered per variant."""

    def __init__(self, n, seed):
        self.rng = random.Random(seed)
        roots = max(1, n // 4)
        enums = max(1, n // 4)
        self.enums = [self.enum(i) for i in range(enums)]
        leaves = [self.struct(f"Leaf{i}", [], i) for i in range((n - roots - enums) // 2)]
        mids = [self.struct(f"Part{i}", leaves, i) for i in range(n - roots - enums - len(leaves))]
        self.structs = leaves + mids + [self.struct(f"Root{i}", mids, i, root=True) for i in range(roots)]

    def enum(self, i):
        variants = self.rng.sample(["Active", "Inactive", "Pending", "Paid", "Shipped", "Closed", "Deleted"], self.rng.randint(3, 5))
        return (f"Status{i}", variants)

    def struct(self, name, embeddable, i, root=False):
        rng = self.rng
        fields = []
        if root:
            fields.append(("id", "ObjectId", {"rename": "_id"}))
        words = rng.sample(ATTRS, rng.randint(4, 8))
        prefix = rng.choice(WORDS)
        for w in words:
            kind = rng.choice(["String", "String", "i32", "i64", "bool"])
            fields.append((f"{prefix}_{w}", kind, {}))
        fields.append(("total_amount", "Decimal", {"decimal": True}))
        fields.append(("create_time", "DateTime", {}))
        fields.append(("status", rng.choice(self.enums)[0], {}))
        if embeddable:
            fields.append(("detail", rng.choice(embeddable)[0], {}))
            fields.append(("entries", f"Vec<{rng.choice(embeddable)[0]}>", {"vec": True}))
        coll = f"t_{prefix}_{name.lower()}" if root else None
        return (name, fields, coll)

    def render(self, variant):
        out = ["#![allow(dead_code)]", "// nonce 0",
               "use bson::{oid::ObjectId, DateTime};", "use rust_decimal::Decimal;", "use serde::{Deserialize, Serialize};"]
        derive = {"serde": "Serialize, Deserialize", "schemars": "Serialize, Deserialize, schemars::JsonSchema",
                  "ours": "Serialize, Deserialize, mongo_schema::MongoSchema"}[variant]
        for name, variants in self.enums:
            out += [f"#[derive(Debug, Clone, Copy, {derive})]", '#[serde(rename_all = "lowercase")]', f"pub enum {name} {{"]
            out += [f"    {v}," for v in variants] + ["}"]
        for name, fields, coll in self.structs:
            out += [f"#[derive(Debug, Clone, {derive})]", '#[serde(rename_all = "camelCase")]']
            if coll and variant == "ours":
                out.append(f'#[mongo(db = "db_bench", collection = "{coll}")]')
            out.append(f"pub struct {name} {{")
            for fname, ty, opts in fields:
                if opts.get("rename"):
                    out.append(f'    #[serde(rename = "{opts["rename"]}")]')
                if opts.get("decimal"):
                    out.append('    #[serde(with = "mongo_schema::serde_helpers::decimal128")]')
                out += self.field_attrs(variant, ty, opts)
                out.append(f"    pub {fname}: {ty},")
            out.append("}")
        return "\n".join(out) + "\n"

    @staticmethod
    def field_attrs(variant, ty, opts):
        if variant == "schemars" and ty in ("ObjectId", "DateTime", "Decimal"):
            return ['    #[schemars(with = "String")]']
        if variant == "ours" and opts.get("vec"):
            return ["    #[mongo(max_items = 50)]"]
        if variant == "ours" and ty == "String":
            return ["    #[mongo(max_length = 200)]"]
        return []


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def snapshot(root):
    """A copy of the working tree's crates, so edits during a run cannot pollute it."""
    dest = f"{root}-crates"
    shutil.rmtree(dest, ignore_errors=True)
    keep = ["Cargo.toml", "Cargo.lock", "rust-toolchain.toml", "contract", "macros", "runtime"]
    os.makedirs(dest)
    for name in keep:
        src = os.path.join(REPO, name)
        (shutil.copytree if os.path.isdir(src) else shutil.copy)(src, os.path.join(dest, name))
    # the copy is a workspace of the three crates only
    with open(f"{dest}/Cargo.toml") as f:
        manifest = f.read()
    start = manifest.index("members = [")
    end = manifest.index("]", start)
    write(f"{dest}/Cargo.toml", manifest[:start] + 'members = ["contract", "macros", "runtime"]' + manifest[end + 1:])
    return dest


def setup(root, gen):
    crates = snapshot(root)
    members = ", ".join(f'"models_{v}"' for v in VARIANTS)
    write(f"{root}/Cargo.toml", f'[workspace]\nresolver = "2"\nmembers = [{members}]\n')
    shutil.copy(f"{REPO}/rust-toolchain.toml", f"{root}/rust-toolchain.toml")
    common = ('serde = { version = "1", features = ["derive"] }\n'
              'bson = { version = "3.1", features = ["serde"] }\n'
              'rust_decimal = "1"\n'
              f'mongo-schema = {{ path = "{crates}/runtime" }}\n')
    extra = {"schemars": 'schemars = { version = "1", features = ["rust_decimal1"] }\n'}
    for v in VARIANTS:
        write(f"{root}/models_{v}/Cargo.toml",
              f'[package]\nname = "models_{v}"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n{common}{extra.get(v, "")}')
        write(f"{root}/models_{v}/src/lib.rs", gen.render(v))


def cargo(root, args, env, target):
    """Runs cargo; returns (wall seconds, CPU seconds of cargo and rustc, stderr)."""
    full_env = dict(os.environ, CARGO_TARGET_DIR=target, **env)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(["cargo", *args], cwd=root, env=full_env, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if proc.returncode != 0:
        sys.exit(f"cargo {' '.join(args)} failed:\n{proc.stderr[-4000:]}")
    return elapsed, cpu, proc.stderr


def touch(root, variant, nonce):
    path = f"{root}/models_{variant}/src/lib.rs"
    with open(path) as f:
        lines = f.read().split("\n")
    lines[1] = f"// nonce {nonce:06d}"  # fixed width: no span after it moves
    write(path, "\n".join(lines))


def timed_rebuild(root, variant, mode, nonce):
    args, env = MODES[mode]
    touch(root, variant, nonce)
    elapsed, cpu, log = cargo(root, [*args, "-p", f"models_{variant}"], env, target_for(root, mode))
    compiled = [line.split()[1] for line in log.splitlines() if line.strip().startswith(("Compiling ", "Checking "))]
    if compiled != [f"models_{variant}"]:
        sys.exit(f"refusing a timing of models_{variant} ({mode}): cargo compiled {compiled or 'nothing'}:\n{log}")
    return elapsed, cpu


def target_for(root, mode):
    return f"{root}/target-{mode.replace(' ', '-')}"


def crate_build_times(root):
    """Clean build of each derive crate alone (its dependencies already built)."""
    target = target_for(root, "non-incremental build")
    times = {}
    for crate in ["serde_derive", "schemars_derive", "mongo-schema-macros"]:
        cargo(root, ["clean", "-p", crate], {}, target)
        times[crate], _, _ = cargo(root, ["build", "-p", crate], {"CARGO_INCREMENTAL": "0"}, target)
    return times


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--models", type=int, default=200)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--dir", default=os.path.join(REPO, "target", "compile-bench"))
    ap.add_argument("--modes", default=",".join(MODES), help="comma-separated subset of: " + ", ".join(MODES))
    ap.add_argument("--samples", action="store_true", help="print every timing, not only the medians")
    a = ap.parse_args()
    modes = [m.strip() for m in a.modes.split(",")]
    if unknown := [m for m in modes if m not in MODES]:
        sys.exit(f"unknown mode(s) {unknown}; choose from {list(MODES)}")
    gen = Gen(a.models, a.seed)
    setup(a.dir, gen)
    print(f"{a.models} models ({len(gen.structs)} structs, {sum(1 for s in gen.structs if s[2])} roots, "
          f"{len(gen.enums)} enums), seed {a.seed}, {a.runs} runs, rustc {subprocess.run(['rustc', '--version'], capture_output=True, text=True, cwd=a.dir).stdout.strip()}")
    # dependencies once, per package: features resolve per selected package
    for mode in modes:
        args, env = MODES[mode]
        for v in VARIANTS:
            cargo(a.dir, [*args, "-p", f"models_{v}"], env, target_for(a.dir, mode))
    nonce = 0
    results = {}
    for mode in modes:
        # one untimed rebuild each first: the first edit after a fresh build invalidates
        # more than the same-width edits timed below
        for v in VARIANTS:
            nonce += 1
            timed_rebuild(a.dir, v, mode, nonce)
        samples = {v: [] for v in VARIANTS}
        for run in range(a.runs):
            order = VARIANTS[run % 3:] + VARIANTS[:run % 3]
            for v in order:
                nonce += 1
                samples[v].append(timed_rebuild(a.dir, v, mode, nonce))
        if a.samples:
            for v in VARIANTS:
                print(f"{mode:24} {v:8} wall " + " ".join(f"{w:.2f}" for w, _ in samples[v]) + "  cpu " + " ".join(f"{c:.2f}" for _, c in samples[v]))
        # wall time is the target; CPU time (cargo + rustc, user + sys) is printed beside it
        # because it barely moves when another process shares the machine
        for k, unit in enumerate(["wall", "cpu"]):
            med = {v: statistics.median(t[k] for t in s) for v, s in samples.items()}
            ratio = (med["ours"] - med["serde"]) / (med["schemars"] - med["serde"]) if med["schemars"] != med["serde"] else float("nan")
            if unit == "wall":
                results[mode] = (med, ratio)
            print(f"{mode:24} {unit:4} serde {med['serde']:.2f}s  schemars {med['schemars']:.2f}s  ours {med['ours']:.2f}s  "
                  f"ratio (ours-serde)/(schemars-serde) = {ratio:.2f}  "
                  f"[schemars adds {100 * (med['schemars'] / med['serde'] - 1):.0f}%, ours {100 * (med['ours'] / med['serde'] - 1):.0f}%]")
    for crate, t in crate_build_times(a.dir).items():
        print(f"clean build of {crate:22} {t:.2f}s")
    worst = max(r for _, r in results.values())
    print(f"target ratio <= 1.0 in every mode: {'met' if worst <= 1.0 else 'NOT met'} (worst {worst:.2f})")


if __name__ == "__main__":
    main()
