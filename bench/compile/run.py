#!/usr/bin/env python3
"""Compile-time cost of #[derive(MongoSchema)] against schemars' #[derive(JsonSchema)].

Generates, per field mix, one crate of N models (seeded, reproducible) in three variants:
  serde     serde derives only
  schemars  serde + schemars::JsonSchema
  ours      serde + mongo_schema::MongoSchema, with the attributes our rules require
builds their dependencies once, then times rebuilds of the models crates only, variants
interleaved, in three modes (incremental `cargo build`, non-incremental build,
`cargo check`) and two edit styles (`touch`: the file's mtime only, nothing changes;
`comment`: one comment's text changes). A timing in which cargo did not recompile the
models crate is refused. Prints per mode, edit and mix the medians of wall time (the
target) and of CPU time (cargo + rustc, user + sys: steadier on a shared machine), the
fastest CPU time of the runs (the one other load disturbed least), and the ratio
(ours - serde) / (schemars - serde) of each, then a Markdown table of the ratios.
`--instructions` also counts, under callgrind, the instructions rustc executes for one
rebuild of each variant after the same edit: a ratio that load on a shared machine cannot
move (`--runs 0 --instructions` counts only). `--rustc-cpu N` times rustc alone, the command
cargo runs for the models crate, over N interleaved rounds: the CPU medians, their ratio and
its 90% bootstrap interval over the rounds (each round's differences to serde, medians of
those), where cargo's own work does not blur the gap.

Mixes (`--mix NAME[,key=value...]`, repeatable; keys override the named mix):
  realistic  what user models hold: a quarter of the fields optional, `Vec<String>` lists,
             `Option<Decimal>` (decimal128_option), `Option<DateTime>`, mostly unbounded
             strings, `skip_serializing_if` / `default` on some fields, snake_case and
             camelCase structs, status enums, embedded structs two and three levels deep
  kind       the kinder mix of earlier runs: every `String` bounded, no `Option`, no lists
             of strings, no skip/default
  modular    a team's crate (issue 28's independent measurement): a module per four
             structs (`pub mod user0 { use super::*; ... }`) with its own status enum, a
             root per module holding embedded documents two and three levels deep, about
             one `Vec<Embedded>` with `max_items` per struct, one field in seven a
             `Decimal` through `decimal128` / `decimal128_option`, ObjectId references
             (`tenant_id`, `operator_id`) in embedded structs, `Option<i64>` written as null
             (no `skip_serializing_if`), a doc comment on every struct
Keys (fractions 0..1): optional, vec_string, opt_decimal, opt_datetime, bounded_string,
skip_if, default, camel; modular's: decimal, optional, skip_if, bounded_string, camel.

  python3 bench/compile/run.py [--models 200] [--runs 5] [--seed 7] [--dir DIR]
                               [--mix realistic --mix kind] [--edits touch,comment]
                               [--instructions] [--rustc-cpu 15] [--features paths]
                               [--path-uses 10]
"""
import argparse, os, random, re, resource, shlex, shutil, statistics, subprocess, sys, tempfile, time

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


MIXES = {
    # the distribution of issue 20's independent measurement
    "realistic": dict(optional=0.25, vec_string=0.10, opt_decimal=0.06, opt_datetime=0.08,
                      bounded_string=0.25, skip_if=0.5, default=0.15, camel=0.5),
    # the earlier generator: every string bounded, nothing optional
    "kind": dict(optional=0.0, vec_string=0.0, opt_decimal=0.0, opt_datetime=0.0,
                 bounded_string=1.0, skip_if=0.0, default=0.0, camel=1.0),
    # modules of embedded documents (ModularGen): decimal is the share of Decimal fields
    "modular": dict(decimal=1 / 7, optional=0.3, skip_if=0.4, bounded_string=0.3, camel=0.5),
}


def parse_mix(text):
    """`realistic` or `realistic,optional=0.5,camel=0`: (label, parameters)."""
    name, *overrides = [part.strip() for part in text.split(",")]
    if name not in MIXES:
        sys.exit(f"unknown mix {name!r}; choose from {list(MIXES)}")
    mix = dict(MIXES[name])
    for item in overrides:
        key, _, value = item.partition("=")
        if key not in mix:
            sys.exit(f"unknown mix key {key!r}; keys: {', '.join(mix)}")
        mix[key] = float(value)
    label = name if not overrides else name + "+" + "+".join(overrides)
    return label, mix


def camel(name):
    head, *rest = name.split("_")
    return head + "".join(w[:1].upper() + w[1:] for w in rest)


def path_uses(structs, root, n, rng):
    """`n` paths of `root`'s fields, one level into its embedded structs (`structs`: by
    name): (Rust segments, the key path serde writes)."""
    def written(struct, field):
        fname, _, opts = field
        return opts.get("rename") or (camel(fname) if struct[3] else fname)
    found = []
    for field in root[1]:
        found.append(([field[0]], written(root, field)))
        inner = re.sub(r"^(Option|Vec)<(.*)>$", r"\2", field[1])
        if inner in structs:
            for sub in structs[inner][1]:
                found.append(([field[0], sub[0]], f"{written(root, field)}.{written(structs[inner], sub)}"))
    return rng.sample(found, min(n, len(found)))


def render_uses(variant, name, uses, indent=""):
    """A function naming the paths: `path!` in ours, the string literals in the others."""
    if variant == "ours":
        items = [f"mongo_schema::path!({name}.{'.'.join(rust)}).as_str()" for rust, _ in uses]
    else:
        items = [f'"{key}"' for _, key in uses]
    return [f"{indent}pub fn {name.lower()}_paths() -> [&'static str; {len(uses)}] {{",
            f"{indent}    [{', '.join(items)}]", f"{indent}}}"]


class Gen:
    """One model set, rendered per variant."""

    def __init__(self, n, seed, mix, uses=0):
        self.mix, self.seed, self.uses = mix, seed, uses
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
        mix = self.mix
        words = rng.sample(ATTRS, rng.randint(4, 8))
        prefix = rng.choice(WORDS)
        for w in words:
            roll = rng.random()
            if roll < mix["vec_string"]:
                fields.append((f"{prefix}_{w}_list", "Vec<String>", {"vec": True}))
                continue
            roll -= mix["vec_string"]
            if roll < mix["opt_decimal"]:
                fields.append((f"{prefix}_{w}_amount", "Option<Decimal>", self.optional({"decimal_option": True})))
                continue
            roll -= mix["opt_decimal"]
            if roll < mix["opt_datetime"]:
                fields.append((f"{prefix}_{w}_time", "Option<DateTime>", self.optional({})))
                continue
            kind = rng.choice(["String", "String", "i32", "i64", "bool"])
            opts = {"bounded": kind == "String" and rng.random() < mix["bounded_string"]}
            if rng.random() < mix["optional"]:
                fields.append((f"{prefix}_{w}", f"Option<{kind}>", self.optional(opts)))
            else:
                fields.append((f"{prefix}_{w}", kind, opts))
        fields.append(("total_amount", "Decimal", {"decimal": True}))
        fields.append(("create_time", "DateTime", {}))
        fields.append(("status", rng.choice(self.enums)[0], {}))
        if embeddable:
            fields.append(("detail", rng.choice(embeddable)[0], {}))
            fields.append(("entries", f"Vec<{rng.choice(embeddable)[0]}>", {"vec": True}))
        coll = f"t_{prefix}_{name.lower()}" if root else None
        return (name, fields, coll, rng.random() < mix["camel"])

    def optional(self, opts):
        """An `Option` field's serde attributes: `skip_serializing_if` and `default` by the mix."""
        opts = dict(opts)
        opts["skip_if"] = self.rng.random() < self.mix["skip_if"]
        opts["default"] = self.rng.random() < self.mix["default"]
        return opts

    DERIVES = {"serde": "Serialize, Deserialize", "schemars": "Serialize, Deserialize, schemars::JsonSchema",
               "ours": "Serialize, Deserialize, mongo_schema::MongoSchema"}

    def render(self, variant):
        out = ["#![allow(dead_code)]", "// nonce 0",
               "use bson::{oid::ObjectId, DateTime};", "use rust_decimal::Decimal;", "use serde::{Deserialize, Serialize};"]
        derive = self.DERIVES[variant]
        for name, variants in self.enums:
            out += [f"#[derive(Debug, Clone, Copy, {derive})]", '#[serde(rename_all = "lowercase")]', f"pub enum {name} {{"]
            out += [f"    {v}," for v in variants] + ["}"]
        for struct in self.structs:
            out += self.render_struct(variant, derive, struct, doc=False)
        if self.uses:
            rng = random.Random(self.seed)
            by_name = {s[0]: s for s in self.structs}
            for root in (s for s in self.structs if s[2]):
                out += render_uses(variant, root[0], path_uses(by_name, root, self.uses, rng))
        return "\n".join(out) + "\n"

    @classmethod
    def render_struct(cls, variant, derive, struct, doc=True):
        name, fields, coll, camel = struct
        out = [f"/// A {name.lower()} as stored: {len(fields)} fields."] if doc else []
        out.append(f"#[derive(Debug, Clone, {derive})]")
        if camel:
            out.append('#[serde(rename_all = "camelCase")]')
        if coll and variant == "ours":
            out.append(f'#[mongo(db = "db_bench", collection = "{coll}")]')
        out.append(f"pub struct {name} {{")
        for fname, ty, opts in fields:
            if opts.get("rename"):
                out.append(f'    #[serde(rename = "{opts["rename"]}")]')
            if opts.get("decimal"):
                out.append('    #[serde(with = "mongo_schema::serde_helpers::decimal128")]')
            if opts.get("decimal_option"):
                out.append('    #[serde(with = "mongo_schema::serde_helpers::decimal128_option")]')
            if opts.get("skip_if"):
                out.append('    #[serde(skip_serializing_if = "Option::is_none")]')
            if opts.get("default"):
                out.append('    #[serde(default)]')
            out += cls.field_attrs(variant, ty, opts)
            out.append(f"    pub {fname}: {ty},")
        out.append("}")
        return out

    @staticmethod
    def field_attrs(variant, ty, opts):
        if variant == "schemars" and ty in ("ObjectId", "DateTime", "Decimal"):
            return ['    #[schemars(with = "String")]']
        if variant == "schemars" and ty in ("Option<DateTime>", "Option<Decimal>"):
            return ['    #[schemars(with = "Option<String>")]']
        if variant == "ours" and opts.get("vec"):
            return ["    #[mongo(max_items = 50)]"]
        if variant == "ours" and opts.get("bounded"):
            return ["    #[mongo(max_length = 200)]"]
        return []


class ModularGen:
    """A crate of modules, each a root with embedded documents two and three levels deep."""

    def __init__(self, n, seed, mix, uses=0):
        self.mix, self.seed, self.uses = mix, seed, uses
        self.rng = random.Random(seed)
        self.modules = []
        for m in range(max(1, n // 4)):
            word = WORDS[m % len(WORDS)]
            status = ("Status", self.rng.sample(["Active", "Inactive", "Pending", "Paid", "Shipped", "Closed"], 4))
            camel = self.rng.random() < mix["camel"]
            leaf = self.struct("Line", [], camel, refs=["operator_id"])
            note = self.struct("Note", [("lines", "Vec<Line>", {"vec": True})], camel)
            part = self.struct("Part", [("memo", "Note", {}), ("lines", "Vec<Line>", {"vec": True})], camel,
                               refs=["tenant_id"])
            root = self.struct("Root", [("id", "ObjectId", {"rename": "_id"}), ("tenant_id", "ObjectId", {}),
                                        ("status", "Status", {}), ("part", "Part", {}),
                                        ("parts", "Vec<Part>", {"vec": True}), ("notes", "Vec<Note>", {"vec": True})],
                               camel, coll=f"t_{word}_{m}")
            self.modules.append((f"{word}{m}", status, [leaf, note, part, root]))
        self.enums = [status for _, status, _ in self.modules]
        self.structs = [s for _, _, structs in self.modules for s in structs]

    def struct(self, name, fields, camel, refs=(), coll=None):
        rng, mix = self.rng, self.mix
        fields = list(fields) + [(r, "ObjectId", {}) for r in refs]
        taken = {f[0] for f in fields}
        for w in rng.sample([a for a in ATTRS if a not in taken], rng.randint(6, 10)):
            if rng.random() < mix["decimal"]:
                if rng.random() < 0.5:
                    fields.append((f"{w}_amount", "Decimal", {"decimal": True}))
                else:
                    fields.append((f"{w}_amount", "Option<Decimal>",
                                   {"decimal_option": True, "skip_if": rng.random() < mix["skip_if"]}))
                continue
            kind = rng.choice(["String", "String", "i32", "i64", "bool", "i64"])
            opts = {"bounded": kind == "String" and rng.random() < mix["bounded_string"]}
            if rng.random() < mix["optional"]:
                # `Option<i64>` as the driver writes it by default: null, no skip
                opts["skip_if"] = kind == "String" and rng.random() < mix["skip_if"]
                fields.append((w, f"Option<{kind}>", opts))
            else:
                fields.append((w, kind, opts))
        fields.append(("create_time", "DateTime", {}))
        return (name, fields, coll, camel)

    def render(self, variant):
        out = ["#![allow(dead_code)]", "// nonce 0",
               "use bson::{oid::ObjectId, DateTime};", "use rust_decimal::Decimal;", "use serde::{Deserialize, Serialize};"]
        derive = Gen.DERIVES[variant]
        for module, (enum, variants), structs in self.modules:
            out += [f"pub mod {module} {{", "    use super::*;", "",
                    f"    /// The state of a {module} record.",
                    f"    #[derive(Debug, Clone, Copy, {derive})]", '    #[serde(rename_all = "lowercase")]',
                    f"    pub enum {enum} {{"]
            out += [f"        {v}," for v in variants] + ["    }"]
            for struct in structs:
                out += ["    " + line if line else line for line in Gen.render_struct(variant, derive, struct)]
            if self.uses:
                rng = random.Random(f"{self.seed}{module}")
                by_name = {s[0]: s for s in structs}
                out += render_uses(variant, "Root", path_uses(by_name, structs[-1], self.uses, rng), "    ")
            out.append("}")
        return "\n".join(out) + "\n"


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def snapshot(root):
    """A copy of the working tree's crates, so edits during a run cannot pollute it."""
    dest = f"{root}-crates"
    shutil.rmtree(dest, ignore_errors=True)
    keep = ["Cargo.toml", "Cargo.lock", "rust-toolchain.toml", "contract", "macros", "pcre2", "runtime"]
    os.makedirs(dest)
    for name in keep:
        src = os.path.join(REPO, name)
        (shutil.copytree if os.path.isdir(src) else shutil.copy)(src, os.path.join(dest, name))
    # the copy is a workspace of the published crates only
    with open(f"{dest}/Cargo.toml") as f:
        manifest = f.read()
    start = manifest.index("members = [")
    end = manifest.index("]", start)
    write(f"{dest}/Cargo.toml", manifest[:start] + 'members = ["contract", "macros", "pcre2", "runtime"]' + manifest[end + 1:])
    return dest


def crate(mix, variant):
    """The package of one mix's variant: `models_realistic_ours`."""
    return "models_" + "".join(c if c.isalnum() else "_" for c in mix) + "_" + variant


def setup(root, gens, features=()):
    crates = snapshot(root)
    members = ", ".join(f'"{crate(m, v)}"' for m in gens for v in VARIANTS)
    write(f"{root}/Cargo.toml", f'[workspace]\nresolver = "2"\nmembers = [{members}]\n')
    shutil.copy(f"{REPO}/rust-toolchain.toml", f"{root}/rust-toolchain.toml")
    common = ('serde = { version = "1", features = ["derive"] }\n'
              'bson = { version = "3.1", features = ["serde"] }\n'
              'rust_decimal = "1"\n'
              f'mongo-schema = {{ path = "{crates}/runtime", features = {["bson-3", *features]!r} }}\n'.replace("'", '"'))
    extra = {"schemars": 'schemars = { version = "1", features = ["rust_decimal1"] }\n'}
    for m, gen in gens.items():
        for v in VARIANTS:
            name = crate(m, v)
            write(f"{root}/{name}/Cargo.toml",
                  f'[package]\nname = "{name}"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n{common}{extra.get(v, "")}')
            write(f"{root}/{name}/src/lib.rs", gen.render(v))


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


EDITS = ["touch", "comment"]


def edit(root, package, style, nonce):
    """`touch`: a new mtime, nothing else; `comment`: one comment's text changes."""
    path = f"{root}/{package}/src/lib.rs"
    if style == "touch":
        os.utime(path)
        return
    with open(path) as f:
        lines = f.read().split("\n")
    lines[1] = f"// nonce {nonce:06d}"  # fixed width: no span after it moves
    write(path, "\n".join(lines))


def timed_rebuild(root, package, mode, style, nonce):
    args, env = MODES[mode]
    edit(root, package, style, nonce)
    elapsed, cpu, log = cargo(root, [*args, "-p", package], env, target_for(root, mode))
    compiled = [line.split()[1] for line in log.splitlines() if line.strip().startswith(("Compiling ", "Checking "))]
    if compiled != [package]:
        sys.exit(f"refusing a timing of {package} ({mode}, {style}): cargo compiled {compiled or 'nothing'}:\n{log}")
    return elapsed, cpu


def rustc_command(root, package, mode, style, nonce):
    """The rustc command line cargo runs for `package` in `mode` (after an edit: cargo runs it
    once here, which is the untimed rebuild before a measured one)."""
    args, env = MODES[mode]
    edit(root, package, style, nonce)
    _, _, log = cargo(root, [*args, "-v", "-p", package], env, target_for(root, mode))
    for line in log.splitlines():
        line = line.strip()
        if line.startswith("Running `") and f"--crate-name {package} " in line:
            return shlex.split(line[len("Running `"):-1])
    sys.exit(f"cargo ran no rustc for {package} ({mode}, {style}):\n{log}")


def rustc_env(root, package):
    """What cargo sets for rustc and a derive reads (the crate's manifest, for its policy)."""
    return dict(os.environ, CARGO_MANIFEST_DIR=f"{root}/{package}", CARGO_PKG_NAME=package, CARGO_CRATE_NAME=package)


def rustc_cpu(root, package, style, nonce, command):
    """CPU seconds (user + sys, every thread) of rustc alone rebuilding `package` after an
    edit: no cargo around it, whose own work (fingerprints, the lock, the jobserver) varies
    from run to run as much as the gap measured."""
    edit(root, package, style, nonce)
    with tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(command, cwd=root, env=rustc_env(root, package), stdout=subprocess.DEVNULL, stderr=err)
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)  # reaped here: Popen must not wait again
        if proc.returncode != 0:
            err.seek(0)
            sys.exit(f"rustc of {package} failed ({style}):\n{err.read().decode(errors='replace')[-2000:]}")
    return usage.ru_utime + usage.ru_stime


def paired_gaps(samples, rounds):
    """What schemars and ours add to serde: the medians over `rounds` of each round's
    difference."""
    return tuple(statistics.median(samples[v][r] - samples["serde"][r] for r in rounds) for v in ("schemars", "ours"))


def interval(samples, draws=2000, seed=1):
    """The ratio of the gaps, each the median over the rounds of one round's difference
    (variants interleaved within a round, so a slow stretch of the machine weighs on all
    three alike), and its 90% bootstrap interval (rounds resampled whole, seeded: the same
    samples give the same interval)."""
    rng = random.Random(seed)
    n = len(samples["serde"])

    def ratio(rounds):
        gap, ours = paired_gaps(samples, rounds)
        return ours / gap if gap else float("nan")

    drawn = sorted(ratio([rng.randrange(n) for _ in range(n)]) for _ in range(draws))
    return ratio(range(n)), drawn[draws // 20], drawn[draws - 1 - draws // 20]


def instructions(root, package, mode, style, nonce, command):
    """Instructions rustc executes to rebuild `package` after an edit, counted by callgrind:
    the same whatever else the machine runs, where seconds on a shared machine are not."""
    edit(root, package, style, nonce)
    env = rustc_env(root, package)
    with tempfile.TemporaryDirectory() as tmp:
        proc = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={tmp}/out",
                               f"--log-file={tmp}/log", *command], cwd=root, env=env, capture_output=True, text=True)
        with open(f"{tmp}/log") as f:
            log = f.read()
    found = re.search(r"refs:\s+([\d,]+)", log)
    if proc.returncode != 0 or not found:
        sys.exit(f"rustc of {package} under callgrind failed ({mode}, {style}):\n{proc.stderr[-2000:]}{log[-2000:]}")
    return int(found.group(1).replace(",", ""))


def target_for(root, mode):
    return f"{root}/target-{mode.replace(' ', '-')}"


def crate_build_times(root):
    """Clean build of each derive crate alone (its dependencies already built)."""
    target = target_for(root, "non-incremental build")
    times = {}
    for name in ["serde_derive", "schemars_derive", "mongo-schema-macros"]:
        cargo(root, ["clean", "-p", name], {}, target)
        times[name], _, _ = cargo(root, ["build", "-p", name], {"CARGO_INCREMENTAL": "0"}, target)
    return times


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--models", type=int, default=200)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--dir", default=os.path.join(REPO, "target", "compile-bench"))
    ap.add_argument("--mix", action="append", help="NAME[,key=value...] (repeatable; default: realistic, kind and modular)")
    ap.add_argument("--modes", default=",".join(MODES), help="comma-separated subset of: " + ", ".join(MODES))
    ap.add_argument("--edits", default=",".join(EDITS), help="comma-separated subset of: " + ", ".join(EDITS))
    ap.add_argument("--samples", action="store_true", help="print every timing, not only the medians")
    ap.add_argument("--features", default="", help="more mongo-schema features for the `ours` crates, comma-separated "
                    "(`paths`: typed field paths)")
    ap.add_argument("--path-uses", type=int, default=0,
                    help="per collection root, a function naming this many of its field paths (one level into "
                         "embedded structs): `mongo_schema::path!` in ours, the string literals in serde and schemars")
    ap.add_argument("--no-crate-times", action="store_true", help="skip the clean builds of the derive crates")
    ap.add_argument("--instructions", action="store_true",
                    help="also count the instructions of one rebuild per variant under callgrind (valgrind; "
                         "minutes per rebuild), a ratio that load on the machine cannot move")
    ap.add_argument("--rustc-cpu", type=int, default=0, metavar="ROUNDS",
                    help="also time rustc alone (the command cargo runs, without cargo) over this many "
                         "interleaved rounds per mode, edit and mix: CPU medians, their ratio and its 90%% "
                         "bootstrap interval")
    a = ap.parse_args()
    modes = [m.strip() for m in a.modes.split(",")]
    edits = [e.strip() for e in a.edits.split(",")]
    if unknown := [m for m in modes if m not in MODES] + [e for e in edits if e not in EDITS]:
        sys.exit(f"unknown mode(s) or edit(s) {unknown}; choose from {list(MODES)} and {EDITS}")
    mixes = dict(parse_mix(m) for m in (a.mix or ["realistic", "kind", "modular"]))
    gens = {label: (ModularGen if label.split("+")[0] == "modular" else Gen)(a.models, a.seed, mix, a.path_uses)
            for label, mix in mixes.items()}
    features = [f.strip() for f in a.features.split(",") if f.strip()]
    setup(a.dir, gens, features)
    rustc = subprocess.run(["rustc", "--version"], capture_output=True, text=True, cwd=a.dir).stdout.strip()
    print(f"{a.models} models, seed {a.seed}, {a.runs} runs, {rustc}, load average {os.getloadavg()[0]:.1f}, "
          f"mongo-schema features {['bson-3', *features]}, {a.path_uses} path uses per root")
    for label, gen in gens.items():
        fields = [f for s in gen.structs for f in s[1]]
        optional = sum(1 for f in fields if f[1].startswith("Option<"))
        print(f"  mix {label}: {len(gen.structs)} structs ({sum(1 for s in gen.structs if s[2])} roots), "
              f"{len(gen.enums)} enums, {len(fields)} fields ({optional} optional, "
              f"{sum(1 for f in fields if f[1] == 'Vec<String>')} Vec<String>, "
              f"{sum(1 for f in fields if f[1].startswith('Vec<') and f[1] != 'Vec<String>')} Vec<embedded>, "
              f"{sum(1 for f in fields if 'Decimal' in f[1])} Decimal), {mixes[label]}")
    # dependencies once, per package: features resolve per selected package
    for mode in modes:
        args, env = MODES[mode]
        for label in gens:
            for v in VARIANTS:
                cargo(a.dir, [*args, "-p", crate(label, v)], env, target_for(a.dir, mode))
    nonce = 0
    results = {}
    for mode in modes:
        for style in edits:
            for label in gens:
                # one untimed rebuild each first: the first edit after a fresh build
                # invalidates more than the same-width edits timed below
                for v in VARIANTS:
                    nonce += 1
                    timed_rebuild(a.dir, crate(label, v), mode, style, nonce)
                if a.runs == 0:
                    continue
                samples = {v: [] for v in VARIANTS}
                for run in range(a.runs):
                    order = VARIANTS[run % 3:] + VARIANTS[:run % 3]
                    for v in order:
                        nonce += 1
                        samples[v].append(timed_rebuild(a.dir, crate(label, v), mode, style, nonce))
                where = f"{mode} / {style} / {label}"
                if a.samples:
                    for v in VARIANTS:
                        print(f"{where:44} {v:8} wall " + " ".join(f"{w:.2f}" for w, _ in samples[v])
                              + "  cpu " + " ".join(f"{c:.2f}" for _, c in samples[v]))
                # wall time is the target; CPU time (cargo + rustc, user + sys) is printed
                # beside it because it barely moves when another process shares the machine
                for k, unit in enumerate(["wall", "cpu"]):
                    med = {v: statistics.median(t[k] for t in s) for v, s in samples.items()}
                    gap = med["schemars"] - med["serde"]
                    ratio = (med["ours"] - med["serde"]) / gap if gap != 0 else float("nan")
                    results[(mode, style, label, unit)] = (med, ratio)
                    print(f"{where:44} {unit:4} serde {med['serde']:.2f}s  schemars {med['schemars']:.2f}s  "
                          f"ours {med['ours']:.2f}s  ratio {ratio:.2f}", flush=True)
                # on a shared virtual machine a rebuild's CPU time moves by a quarter from
                # run to run (other guests, frequency), more than the gap measured; the
                # fastest of the runs is the one the machine disturbed least
                fastest = {v: min(c for _, c in s) for v, s in samples.items()}
                gap = fastest["schemars"] - fastest["serde"]
                ratio = (fastest["ours"] - fastest["serde"]) / gap if gap != 0 else float("nan")
                results[(mode, style, label, "fastest")] = (fastest, ratio)
                print(f"{where:44} {'cpu, fastest':4} serde {fastest['serde']:.2f}s  schemars "
                      f"{fastest['schemars']:.2f}s  ours {fastest['ours']:.2f}s  ratio {ratio:.2f}", flush=True)
    counted = {}
    if a.instructions:
        if shutil.which("valgrind") is None:
            sys.exit("--instructions needs valgrind (callgrind)")
        for mode in modes:
            for style in edits:
                for label in gens:
                    n = {}
                    for v in VARIANTS:
                        nonce += 1
                        command = rustc_command(a.dir, crate(label, v), mode, style, nonce)
                        nonce += 1
                        n[v] = instructions(a.dir, crate(label, v), mode, style, nonce, command)
                    gap = n["schemars"] - n["serde"]
                    counted[(mode, style, label)] = (n, (n["ours"] - n["serde"]) / gap if gap else float("nan"))
                    print(f"{mode} / {style} / {label}: instructions serde {n['serde'] / 1e9:.2f}G  schemars "
                          f"{n['schemars'] / 1e9:.2f}G  ours {n['ours'] / 1e9:.2f}G  ratio "
                          f"{counted[(mode, style, label)][1]:.2f}", flush=True)
    timed = {}
    if a.rustc_cpu:
        for mode in modes:
            for style in edits:
                for label in gens:
                    commands = {}
                    for v in VARIANTS:
                        nonce += 1
                        commands[v] = rustc_command(a.dir, crate(label, v), mode, style, nonce)
                    samples = {v: [] for v in VARIANTS}
                    for run in range(a.rustc_cpu):
                        for v in VARIANTS[run % 3:] + VARIANTS[:run % 3]:
                            nonce += 1
                            samples[v].append(rustc_cpu(a.dir, crate(label, v), style, nonce, commands[v]))
                    serde = statistics.median(samples["serde"])
                    gaps = paired_gaps(samples, range(a.rustc_cpu))
                    ratio, low, high = interval(samples)
                    timed[(mode, style, label)] = (serde, gaps, ratio, low, high)
                    if a.samples:
                        for v in VARIANTS:
                            print(f"{mode} / {style} / {label}: rustc CPU {v:8} " + " ".join(f"{c:.2f}" for c in samples[v]))
                    print(f"{mode} / {style} / {label}: rustc CPU serde {serde:.2f}s  schemars adds "
                          f"{gaps[0]:+.2f}s  ours adds {gaps[1]:+.2f}s  ratio {ratio:.2f} "
                          f"(90% interval {low:.2f} to {high:.2f})", flush=True)
    if timed:
        print(f"\n| mode | edit | mix | serde (median) | schemars adds | we add | ratio (rustc CPU, {a.rustc_cpu} paired rounds) | 90% interval |")
        print("|---|---|---|---:|---:|---:|---:|---|")
        for (mode, style, label), (serde, (theirs, ours), ratio, low, high) in timed.items():
            print(f"| {mode} | {style} | {label} | {serde:.2f} s | {theirs:+.2f} s | {ours:+.2f} s | **{ratio:.2f}** | "
                  f"{low:.2f} to {high:.2f} |")
    if counted:
        print("\n| mode | edit | mix | serde | schemars adds | we add | ratio (instructions) |")
        print("|---|---|---|---:|---:|---:|---:|")
        for (mode, style, label), (n, ratio) in counted.items():
            print(f"| {mode} | {style} | {label} | {n['serde'] / 1e9:.2f} G | {(n['schemars'] - n['serde']) / 1e9:+.2f} G | "
                  f"{(n['ours'] - n['serde']) / 1e9:+.2f} G | **{ratio:.2f}** |")
    if not results:
        return
    print("\n| mode | edit | mix | serde | schemars adds | we add | ratio (wall) | ratio (CPU) | CPU, fastest runs: serde, schemars adds, we add | ratio (CPU, fastest) |")
    print("|---|---|---|---:|---:|---:|---:|---:|---:|---:|")
    for (mode, style, label, unit), (med, ratio) in results.items():
        if unit != "wall":
            continue
        cpu = results[(mode, style, label, "cpu")][1]
        fast, fast_ratio = results[(mode, style, label, "fastest")]
        print(f"| {mode} | {style} | {label} | {med['serde']:.2f} s | {med['schemars'] - med['serde']:+.2f} s | "
              f"{med['ours'] - med['serde']:+.2f} s | **{ratio:.2f}** | {cpu:.2f} | {fast['serde']:.2f} s, "
              f"{fast['schemars'] - fast['serde']:+.2f} s, {fast['ours'] - fast['serde']:+.2f} s | {fast_ratio:.2f} |")
    if not a.no_crate_times:
        for name, t in crate_build_times(a.dir).items():
            print(f"clean build of {name:22} {t:.2f}s")
    for label in gens:
        for unit in ["wall", "fastest"]:
            worst = max(r for (m, e, l, u), (_, r) in results.items() if l == label and u == unit)
            print(f"mix {label}: target ratio <= 1.0 in every mode and edit ({unit}): "
                  f"{'met' if worst <= 1.0 else 'NOT met'} (worst {worst:.2f})")


if __name__ == "__main__":
    main()
