#!/usr/bin/env python3
"""Compile-time cost of `query!` against the same filters written with `bson::doc!`.

Generates one crate (seeded, reproducible) with four collection roots and N query
functions, in three variants that differ only in the functions:
  none   the models alone (no query)
  doc    each query a `bson::doc!` filter (and a `doc!` sort where the query has one)
  query  each query a `mongo_schema::query!` of the same keys, operators and values
builds the dependencies once, then times rebuilds of the crate alone after a touch of its
source, the variants interleaved over `--rounds` rounds, in `cargo check` and non-incremental
`cargo build`. Reports per mode the median CPU time (user + sys of cargo and rustc: what a
shared machine disturbs least) of each variant and the ratio (query - none) / (doc - none):
what a query costs against the `doc!` it replaces. (Instruction counts need callgrind, which
this machine lacks: CPU medians over interleaved rounds stand in for them.)

  python3 bench/compile/queries.py [--queries 200] [--rounds 7] [--seed 45] [--indexes N] [--dir DIR]
"""
import argparse, os, random, re, resource, shlex, statistics, subprocess, sys, tempfile

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))

MODELS = '''
use mongo_schema::MongoSchema;
use mongo_schema::bson::{oid::ObjectId, DateTime, Decimal128};
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, MongoSchema)]
pub enum Status { Draft, Paid, Shipped, Cancelled }

#[derive(Debug, Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
pub struct Address {
    #[mongo(max_length = 40)]
    pub city: String,
    #[mongo(max_length = 10)]
    pub zip: String,
}

#[derive(Debug, Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
pub struct Line {
    #[mongo(max_length = 20)]
    pub sku: String,
    pub quantity: i32,
}
'''

ROOT = '''
#[derive(Debug, Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(db = "db_bench", collection = "t_{coll}"{indexes})]
pub struct {name} {{
    #[serde(rename = "_id")]
    pub id: ObjectId,
    pub customer_id: ObjectId,
    pub status: Status,
    pub create_time: DateTime,
    pub total: Decimal128,
    pub quantity: i32,
    pub paid: bool,
    #[mongo(max_length = 40)]
    pub title: String,
    pub ship_to: Address,
    #[mongo(max_items = 20)]
    pub lines: Vec<Line>,
}}
'''

ROOTS = ["Order", "Invoice", "Shipment", "Refund"]

# `--indexes N` declares the first N on every root: compound keys over the keys the
# queries filter and sort on (equalities first, then a sort or range key), as a service
# indexes its queries; 0 (the default) declares none, only `_id`'s is planned
INDEXES = [
    "customerId = 1, createTime = -1",
    "status = 1, quantity = 1",
    "\"lines.sku\" = 1",
    "paid = 1, total = -1",
    "\"shipTo.city\" = 1, title = 1",
    "createTime = -1",
]

# (key, operator or None for an implicit equality, the value's Rust expression)
PREDICATES = [
    ("customerId", None, "customer_id"),
    ("status", None, "Status::Paid"),
    ("status", "$in", "[Status::Paid, Status::Shipped]"),
    ("createTime", "$gte", "since"),
    ("createTime", "$lt", "until"),
    ("total", "$gt", "amount"),
    ("quantity", "$gte", "n"),
    ("quantity", "$lt", "100"),
    ("paid", None, "true"),
    ("title", None, "title"),
    ("shipTo.city", None, "title"),
    ("lines.sku", "$in", "[\"A-1\", \"B-2\"]"),
]


def doc_value(value):
    # `doc!` takes values through `Into<Bson>`: the enum as the string serde writes
    if value.startswith("Status::"):
        return f"\"{value.split('::')[1]}\""
    if value.startswith("[Status::"):
        items = [f"\"{v.strip().split('::')[1]}\"" for v in value.strip("[]").split(",")]
        return "[" + ", ".join(items) + "]"
    if value == "title":
        return "title"
    return value


def queries(n, seed):
    rng = random.Random(seed)
    out = []
    for i in range(n):
        root = ROOTS[i % len(ROOTS)]
        keys = rng.sample(range(len(PREDICATES)), rng.randint(1, 4))
        preds = {}
        for k in keys:
            key, op, value = PREDICATES[k]
            preds.setdefault(key, []).append((op, value))
        sort = rng.random() < 0.5 and rng.choice(["createTime", "quantity", "_id"])
        limit = rng.random() < 0.5 and rng.randint(1, 100)
        out.append((root, preds, sort, limit))
    return out


def render_filter(preds, value_of):
    parts = []
    for key, ops in preds.items():
        if len(ops) == 1 and ops[0][0] is None:
            parts.append(f"\"{key}\": {value_of(ops[0][1])}")
        else:
            inner = ", ".join(f"\"{op or '$eq'}\": {value_of(v)}" for op, v in ops)
            parts.append(f"\"{key}\": {{ {inner} }}")
    return "{ " + ", ".join(parts) + " }"


PARAMS = "customer_id: ObjectId, since: DateTime, until: DateTime, amount: Decimal128, n: i32, title: &str"


def render(variant, qs, indexes=0):
    declared = "".join(f", index(keys({keys}))" for keys in INDEXES[:indexes])
    out = MODELS + "".join(ROOT.format(name=r, coll=r.lower(), indexes=declared) for r in ROOTS)
    if variant == "none":
        return out
    out += "\nuse mongo_schema::bson::{doc, Document};\n"
    for i, (root, preds, sort, limit) in enumerate(qs):
        if variant == "doc":
            body = f"    let filter = doc! {render_filter(preds, doc_value)};\n"
            body += (f"    let sort = Some(doc! {{ \"{sort}\": -1 }});\n" if sort else "    let sort: Option<Document> = None;\n")
            body += f"    let limit: Option<i64> = {f'Some({limit})' if limit else 'None'};\n"
            body += "    (filter, sort, limit)\n"
        else:
            options = (f", sort = {{ \"{sort}\": -1 }}" if sort else "") + (f", limit = {limit}" if limit else "")
            # the planner's rules are waived (with no index declared no query is indexed;
            # with `--indexes` some are not), as a crate migrating its doc! filters would at first
            options += ", allow(query_unindexed, reason = \"bench\"), allow(query_sort_in_memory, reason = \"bench\")"
            body = f"    let q = mongo_schema::query!({root}, {render_filter(preds, lambda v: v)}{options});\n"
            body += "    (q.filter(), q.sort(), q.limit().map(|l| l as i64))\n"
        out += f"\n#[allow(unused_variables)]\npub fn q{i}({PARAMS}) -> (Document, Option<Document>, Option<i64>) {{\n{body}}}\n"
    return out


def cargo_toml(name):
    return f'''[package]
name = "{name}"
version = "0.0.0"
edition = "2021"
publish = false

[workspace]

[dependencies]
mongo-schema = {{ path = "{REPO}/runtime" }}
serde = {{ version = "1", features = ["derive"] }}
'''


def cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run(crate, args, env):
    subprocess.run(["cargo", *args, "--quiet", "--manifest-path", os.path.join(crate, "Cargo.toml")],
                   check=True, env=env, stdout=subprocess.DEVNULL)


def rustc_command(crate, args, env):
    """The rustc command cargo runs for the crate (after a touch), as cargo prints it."""
    os.utime(os.path.join(crate, "src", "lib.rs"))
    log = subprocess.run(["cargo", *args, "-v", "--manifest-path", os.path.join(crate, "Cargo.toml")],
                         env=env, capture_output=True, text=True, check=True).stderr
    for line in log.splitlines():
        line = line.strip()
        if line.startswith("Running `") and "--crate-name bench_" in line:
            return shlex.split(line[len("Running `"):-1])
    sys.exit(f"cargo ran no rustc for {crate}:\n{log}")


def instructions(crate, command, env):
    """Instructions rustc executes for the crate, counted by callgrind: what the machine's
    other load cannot move."""
    env = dict(env, CARGO_MANIFEST_DIR=crate, CARGO_PKG_NAME=os.path.basename(crate),
               CARGO_CRATE_NAME="bench_" + os.path.basename(crate))
    with tempfile.TemporaryDirectory() as tmp:
        proc = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={tmp}/out",
                               f"--log-file={tmp}/log", *command], cwd=crate, env=env, capture_output=True, text=True)
        with open(f"{tmp}/log") as f:
            log = f.read()
    found = re.search(r"refs:\s+([\d,]+)", log)
    if proc.returncode != 0 or not found:
        sys.exit(f"rustc under callgrind failed:\n{proc.stderr[-2000:]}{log[-2000:]}")
    return int(found.group(1).replace(",", ""))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--seed", type=int, default=45)
    ap.add_argument("--dir", default=None)
    ap.add_argument("--instructions", action="store_true",
                    help="count rustc's instructions under callgrind (one run per variant and mode) instead of timing")
    ap.add_argument("--indexes", type=int, default=0,
                    help=f"declare the first N of {len(INDEXES)} compound indexes on every root model (default none)")
    ap.add_argument("--variants", default="none,doc,query")
    ap.add_argument("--modes", default="check,non-incremental build")
    a = ap.parse_args()
    root = a.dir or tempfile.mkdtemp(prefix="query-bench-")
    qs = queries(a.queries, a.seed)
    target = os.path.join(root, "target")
    crates = {}
    for variant in ["none", "doc", "query"]:
        crate = os.path.join(root, variant)
        os.makedirs(os.path.join(crate, "src"), exist_ok=True)
        with open(os.path.join(crate, "Cargo.toml"), "w") as f:
            f.write(cargo_toml(f"bench_{variant}"))
        with open(os.path.join(crate, "src", "lib.rs"), "w") as f:
            f.write(render(variant, qs, a.indexes))
        crates[variant] = crate
    modes = {"check": (["check"], "0"), "non-incremental build": (["build"], "0")}
    modes = {m: modes[m] for m in a.modes.split(",")}
    crates = {v: crates[v] for v in a.variants.split(",")}
    if not 0 <= a.indexes <= len(INDEXES):
        sys.exit(f"--indexes: 0 to {len(INDEXES)}")
    print(f"{a.queries} queries, seed {a.seed}, {a.indexes} indexes a model, {a.rounds} interleaved rounds, crates in {root}")
    for mode, (args, incremental) in modes.items():
        env = dict(os.environ, CARGO_TARGET_DIR=target, CARGO_INCREMENTAL=incremental)
        for crate in crates.values():  # dependencies, and one untimed build each
            run(crate, args, env)
        if a.instructions:
            counts = {v: instructions(c, rustc_command(c, args, env), env) for v, c in crates.items()}
            line = ", ".join(f"{v} {n / 1e9:.3f} G" for v, n in counts.items())
            if {"none", "doc", "query"} <= counts.keys():
                added = (counts["query"] - counts["none"]) / (counts["doc"] - counts["none"])
                line += f"; query/doc {counts['query'] / counts['doc']:.2f}, added query/doc {added:.2f}"
            print(f"{mode} (instructions): {line}")
            sys.stdout.flush()
            continue
        samples = {v: [] for v in crates}
        for _ in range(a.rounds):
            for variant, crate in crates.items():
                os.utime(os.path.join(crate, "src", "lib.rs"))
                before = cpu()
                run(crate, args, env)
                samples[variant].append(cpu() - before)
        med = {v: statistics.median(s) for v, s in samples.items()}
        ratio = (med["query"] - med["none"]) / (med["doc"] - med["none"])
        print(f"{mode}: none {med['none']:.2f}s, doc {med['doc']:.2f}s, query {med['query']:.2f}s CPU (medians); "
              f"query adds {med['query'] - med['none']:.2f}s where doc! adds {med['doc'] - med['none']:.2f}s: "
              f"ratio {ratio:.2f}; whole crate query/doc {med['query'] / med['doc']:.2f}")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
