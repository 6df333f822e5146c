#!/usr/bin/env python3
"""`schema check` over a >= 1 GB mongodump, on 1 and 2 threads, against mongod itself.

Generates (seeded, reproducible) a mongodump `.bson` of `db_order.t_order` documents of
examples/app's `Order` model (ObjectIds, a business number, 1 to 5 embedded order lines
with Decimal128 prices, a Decimal128 total, a status enum, dates), about 3% of them
broken the ways legacy data is (a string date, a status outside the enum, a quantity of
0, a missing customer, a total stored as double, an order number too long). A block of
distinct documents is encoded once and repeated with fresh `_id`s up to the size asked.

Then, in one run:
  1. `schema check --collection t_order --jobs J --format json DUMP` (the release build of
     examples/app's `schema`) for J = 1 and 2, `--runs` times each, interleaved, under
     /usr/bin/time -v: wall time, peak RSS; throughput in MB/s and documents/s. The JSON
     reports of every run must be identical.
  2. With MONGODB_URI set (run it under scripts/with-mongod.sh): the same documents loaded
     into mongod with the Node driver (insertMany, large unordered batches), then
     `countDocuments({$nor: [{$jsonSchema: S}]})` timed `--runs` times; its count must
     equal the check's failures.
Prints a table and the ratios: 2 threads over 1, and the check over mongod's count.

  scripts/with-mongod.sh python3 bench/check/run.py [--size-mb 1100] [--runs 3]
                                                    [--dir DIR] [--keep] [--no-build]
"""
import argparse, json, os, random, re, shutil, statistics, struct, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# --- a BSON encoder for the few types the documents hold ------------------------------


class Decimal128:
    def __init__(self, coefficient, exponent):
        self.coefficient, self.exponent = coefficient, exponent

    def bytes(self):
        sign = 1 if self.coefficient < 0 else 0
        c = abs(self.coefficient)
        high = (sign << 63) | ((self.exponent + 6176) << 49) | (c >> 64)
        return struct.pack("<QQ", c & (2**64 - 1), high)


class Date:
    def __init__(self, millis):
        self.millis = millis


class ObjectId:
    def __init__(self, raw):
        self.raw = raw


class Int64:
    def __init__(self, n):
        self.n = n


def cstring(s):
    return s.encode() + b"\0"


def element(name, value):
    key = cstring(name)
    if isinstance(value, str):
        data = value.encode()
        return b"\x02" + key + struct.pack("<i", len(data) + 1) + data + b"\0"
    if isinstance(value, bool):
        return b"\x08" + key + (b"\x01" if value else b"\x00")
    if isinstance(value, int):
        return b"\x10" + key + struct.pack("<i", value)
    if isinstance(value, float):
        return b"\x01" + key + struct.pack("<d", value)
    if isinstance(value, Int64):
        return b"\x12" + key + struct.pack("<q", value.n)
    if isinstance(value, Decimal128):
        return b"\x13" + key + value.bytes()
    if isinstance(value, Date):
        return b"\x09" + key + struct.pack("<q", value.millis)
    if isinstance(value, ObjectId):
        return b"\x07" + key + value.raw
    if isinstance(value, dict):
        return b"\x03" + key + document(value)
    if isinstance(value, list):
        return b"\x04" + key + document({str(i): v for i, v in enumerate(value)})
    raise TypeError(type(value))


def document(d):
    body = b"".join(element(k, v) for k, v in d.items())
    return struct.pack("<i", len(body) + 5) + body + b"\0"


# --- the documents ---------------------------------------------------------------------

STATUSES = ["pendingPayment", "paid", "shipped", "completed", "cancelled"]
PRODUCTS = ["Espresso beans 1 kg", "Ceramic mug", "Milk frother", "Paper filters (100)",
            "Grinder, conical burr", "Descaling tablets", "Travel tumbler 350 ml"]
# (fault, share of documents)
FAULTS = [("string createTime", 0.010), ("status not in the enum", 0.005), ("quantity 0", 0.005),
          ("missing customerId", 0.003), ("totalAmount as double", 0.003), ("orderNo too long", 0.002)]


def oid(rng):
    return ObjectId(bytes(rng.getrandbits(8) for _ in range(12)))


def order(i, rng):
    created = 1_700_000_000_000 + i * 37_000
    lines = []
    total = 0
    for _ in range(rng.randint(1, 5)):
        cents = rng.randint(150, 250_00)
        qty = rng.randint(1, 6)
        total += cents * qty
        lines.append({"productId": oid(rng), "productName": rng.choice(PRODUCTS),
                      "price": Decimal128(cents, -2), "quantity": qty})
    d = {"_id": ObjectId(b"\0" * 12), "orderNo": f"SO{20240000000 + i}", "customerId": oid(rng),
         "lines": lines, "totalAmount": Decimal128(total, -2), "status": rng.choice(STATUSES),
         "createTime": Date(created)}
    if d["status"] != "pendingPayment":
        d["payTime"] = Date(created + rng.randint(1, 3600) * 1000)
    fault = None
    roll = rng.random()
    for name, share in FAULTS:
        if roll < share:
            fault = name
            break
        roll -= share
    if fault == "string createTime":
        d["createTime"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(created / 1000))
    elif fault == "status not in the enum":
        d["status"] = "refunded"
    elif fault == "quantity 0":
        d["lines"][0]["quantity"] = 0
    elif fault == "missing customerId":
        del d["customerId"]
    elif fault == "totalAmount as double":
        d["totalAmount"] = total / 100
    elif fault == "orderNo too long":
        d["orderNo"] = "LEGACY-" + "X" * 33
    return document(d), fault


def generate(path, size_bytes, block, seed):
    rng = random.Random(seed)
    docs = [order(i, rng) for i in range(block)]
    faults = {}
    for _, fault in docs:
        faults[fault] = faults.get(fault, 0) + 1
    written = count = copies = 0
    with open(path, "wb") as out:
        while written < size_bytes:
            chunk = bytearray(b"".join(d for d, _ in docs))
            at = 0
            for d, _ in docs:
                # the `_id` is the first element: 4-byte length, type, "_id\0", 12 bytes
                chunk[at + 9:at + 21] = struct.pack(">IQ", 0x5f00_0000, count)
                at += len(d)
                count += 1
            out.write(chunk)
            written += len(chunk)
            copies += 1
    invalid = sum(n for f, n in faults.items() if f) * copies
    return {"bytes": written, "documents": count, "invalid_generated": invalid,
            "faults": {f: n * copies for f, n in faults.items() if f}}


# --- measuring ---------------------------------------------------------------------------

def target_dir():
    return os.environ.get("CARGO_TARGET_DIR") or os.path.join(ROOT, "target")


def timed(cmd):
    """(stdout, wall seconds, CPU seconds, peak RSS in KB, exit code) of cmd under /usr/bin/time -v."""
    proc = subprocess.run(["/usr/bin/time", "-v"] + cmd, capture_output=True, text=True)
    user = re.search(r"User time \(seconds\): ([\d.]+)", proc.stderr)
    system = re.search(r"System time \(seconds\): ([\d.]+)", proc.stderr)
    wall = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (?:(\d+):)?(\d+):([\d.]+)", proc.stderr)
    rss = re.search(r"Maximum resident set size \(kbytes\): (\d+)", proc.stderr)
    if not wall or not rss or not user or not system:
        sys.exit(f"no timing from /usr/bin/time: {proc.stderr}")
    seconds = int(wall.group(1) or 0) * 3600 + int(wall.group(2)) * 60 + float(wall.group(3))
    return proc.stdout, seconds, float(user.group(1)) + float(system.group(1)), int(rss.group(1)), proc.returncode


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--size-mb", type=int, default=1100)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--block", type=int, default=20000, help="distinct documents, repeated with fresh _ids")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--dir", help="where the dump goes (default: a temporary directory)")
    ap.add_argument("--keep", action="store_true", help="keep the dump")
    ap.add_argument("--no-build", action="store_true", help="use the release binary as built")
    args = ap.parse_args()

    if not args.no_build:
        subprocess.run(["cargo", "build", "--release", "-p", "mongo-schema-example-app", "--bin", "schema"],
                       cwd=ROOT, check=True)
    schema_bin = os.path.join(target_dir(), "release", "schema")
    work = args.dir or tempfile.mkdtemp(prefix="check-bench-")
    os.makedirs(os.path.join(work, "dump", "db_order"), exist_ok=True)
    dump = os.path.join(work, "dump", "db_order", "t_order.bson")
    try:
        printed = json.loads(subprocess.run([schema_bin, "print", "--format", "json", "--collection", "db_order.t_order"],
                                            capture_output=True, text=True, check=True).stdout)
        schema_file = os.path.join(work, "schema.json")
        with open(schema_file, "w") as f:
            json.dump(printed[0]["createCollection"]["validator"]["$jsonSchema"], f)

        start = time.time()
        data = generate(dump, args.size_mb * 1_000_000, args.block, args.seed)
        print(f"generated {data['bytes'] / 1e6:.0f} MB, {data['documents']} documents "
              f"({data['invalid_generated']} broken: {data['faults']}) in {time.time() - start:.0f} s", flush=True)
        cores = os.cpu_count()
        load = os.getloadavg()
        print(f"machine: {cores} cores, load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} before the runs", flush=True)

        runs = {1: [], 2: []}
        reports = set()
        for r in range(args.runs):
            for jobs in (1, 2):
                out, wall, cpu, rss, code = timed([schema_bin, "check", "--collection", "t_order", "--jobs", str(jobs),
                                              "--format", "json", dump])
                if code not in (0, 1):
                    sys.exit(f"check failed ({code}): {out}")
                reports.add(out)
                runs[jobs].append((wall, cpu, rss))
                print(f"  run {r + 1}, --jobs {jobs}: {wall:.2f} s wall, {cpu:.2f} s CPU, peak RSS {rss / 1024:.1f} MB",
                      flush=True)
        if len(reports) != 1:
            sys.exit("the reports of --jobs 1 and 2 differ")
        report = json.loads(reports.pop())
        failed = report["totals"]["failed"]
        if report["totals"]["documents"] != data["documents"]:
            sys.exit(f"check read {report['totals']['documents']} documents, {data['documents']} written")
        groups = ", ".join(f"{g['documents']} {g['path']} {g['keyword']}" for g in report["collections"][0]["groups"])
        print(f"check: {report['totals']['documents']} documents, {failed} fail ({groups})")

        rows = []
        best = {}
        cpu = {}
        for jobs in (1, 2):
            wall = min(w for w, _, _ in runs[jobs])
            median = statistics.median(w for w, _, _ in runs[jobs])
            cpu[jobs] = statistics.median(c for _, c, _ in runs[jobs])
            rss = max(r for _, _, r in runs[jobs])
            best[jobs] = wall
            rows.append((f"schema check --jobs {jobs}", wall, median, data["bytes"] / 1e6 / wall,
                         data["documents"] / wall, f"{cpu[jobs]:.2f} s", f"{rss / 1024:.1f} MB"))

        mongod = None
        uri = os.environ.get("MONGODB_URI")
        if uri:
            modules = os.path.join(ROOT, ".cache", "npm", "node_modules")
            print("loading into mongod ...", flush=True)
            proc = subprocess.run(["node", os.path.join(ROOT, "bench", "check", "load.js"), uri, dump, schema_file,
                                   modules, str(args.runs)], capture_output=True, text=True)
            if proc.returncode != 0:
                sys.exit(f"load.js: {proc.stderr}")
            mongod = json.loads(proc.stdout.strip().splitlines()[-1])
            print(f"mongod: loaded {mongod['stored']} documents in {mongod['loadSeconds']:.0f} s; "
                  f"count runs {', '.join(f'{t:.2f} s' for t in mongod['times'])}; counts {mongod['counts']}")
            if mongod["stored"] != data["documents"]:
                sys.exit(f"mongod holds {mongod['stored']} documents, {data['documents']} written")
            if any(c != failed for c in mongod["counts"]):
                sys.exit(f"mongod counts {mongod['counts']} failing documents, the check {failed}")
            wall = min(mongod["times"])
            rows.append(("mongod countDocuments($nor $jsonSchema)", wall, statistics.median(mongod["times"]),
                         data["bytes"] / 1e6 / wall, data["documents"] / wall, "(server)", "(server)"))
        else:
            print("MONGODB_URI unset: mongod not measured (run under scripts/with-mongod.sh)")

        print()
        print("| what | best wall | median wall | MB/s (best) | documents/s (best) | median CPU | peak RSS |")
        print("|---|---:|---:|---:|---:|---:|---:|")
        for what, wall, median, mbs, dps, cpu_s, rss in rows:
            print(f"| {what} | {wall:.2f} s | {median:.2f} s | {mbs:.0f} | {dps:,.0f} | {cpu_s} | {rss} |")
        print()
        print(f"2 threads over 1: {best[1] / best[2]:.2f}x (best wall); CPU of 2 threads over 1: "
              f"{cpu[2] / cpu[1]:.2f} (1.00: no work added by the split)")
        if mongod:
            print(f"check --jobs 1 over mongod: {min(mongod['times']) / best[1]:.2f}x faster")
            print(f"check --jobs 2 over mongod: {min(mongod['times']) / best[2]:.2f}x faster")
    finally:
        if not args.keep and not args.dir:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
