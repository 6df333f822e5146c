//! The local validator against its practical limit and against the `jsonschema` crate, from
//! one run: `cargo bench -p mongo-schema --features validator --bench validate`. Prints ns/doc for each way of
//! checking 3000 realistic orders (~1.5 KB, three levels, five line subdocuments, four
//! patterns, `additionalProperties: false` everywhere) and the ratios the targets name.
//! The baselines use bson's public `RawDocument` API, as a user would; the "our byte walker"
//! row (our reader alone, no rules) is for information. Rows are timed in interleaved rounds
//! and each keeps its best. `VALIDATE_ROUNDS` sets the rounds, `VALIDATE_DOCS` the number of
//! orders, `VALIDATE_ORDER=sequential` times rows one after another, and `VALIDATE_PROFILE`
//! spins on one path for a profiler.

#![forbid(unsafe_code)]

use mongo_schema_test_support::validator_orders as orders;

use std::hint::black_box;
use std::time::Instant;

use mongo_schema::bson::{Bson, Document, RawBsonRef, RawDocument, RawDocumentBuf};
use mongo_schema::Validator;
use mongo_schema_pcre2::{Regex, RegexBuilder};
use serde_json::{json, Value};

const DOCS: u32 = 3000;
const ROUNDS: usize = 40;

/// `name` from the environment, parsed, or `default` (`VALIDATE_ROUNDS`: more rounds find
/// quieter moments on a busy machine; `VALIDATE_DOCS`: a few hundred orders fit in L2, the
/// default does not).
fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// One way of checking every document once; returns how many it counted.
type Row<'a> = (&'static str, Box<dyn FnMut() -> usize + 'a>);

/// Best nanoseconds per document for each row over `rounds` rounds. Each round runs every
/// row in turn, so a burst of load on the machine slows all rows of that round alike rather
/// than one row's whole series; the best round of each row is its floor. Each row runs once
/// untimed just before it is timed, so its own data is as warm in the caches as a row timed
/// on its own would find it.
///
/// `VALIDATE_ORDER=sequential` times each row's rounds back to back instead (this bench's
/// first method): a row then finds its data as warm as repetition makes it, which favours the
/// rows whose data is larger than the caches and scattered (the decoded and JSON ones).
fn measure<const N: usize>(n: usize, rows: &mut [Row<'_>; N], rounds: usize, sequential: bool) -> [f64; N] {
    let mut best = [f64::MAX; N];
    let time = |f: &mut dyn FnMut() -> usize, best: &mut f64| {
        let start = Instant::now();
        let counted = black_box(f());
        *best = best.min(start.elapsed().as_nanos() as f64 / n as f64);
        assert!(counted > 0);
    };
    if sequential {
        for ((_, f), best) in rows.iter_mut().zip(&mut best) {
            (0..rounds).for_each(|_| time(f, best));
        }
        return best;
    }
    for _ in 0..rounds {
        for ((_, f), best) in rows.iter_mut().zip(&mut best) {
            black_box(f());
            time(f, best);
        }
    }
    best
}

fn main() {
    let docs: Vec<Document> = (0..env_or("VALIDATE_DOCS", DOCS)).map(orders::order).collect();
    let raws: Vec<RawDocumentBuf> = docs.iter().map(|d| RawDocumentBuf::try_from(d).unwrap()).collect();
    let bad: Vec<RawDocumentBuf> =
        (0..docs.len() as u32).map(|i| RawDocumentBuf::try_from(&orders::bad_order(i)).unwrap()).collect();
    let validator = Validator::new(&orders::schema()).unwrap();
    let hand = HandCheck::new();
    let json_docs: Vec<Value> = docs.iter().map(|d| Bson::Document(d.clone()).into_relaxed_extjson()).collect();
    let json_validator = jsonschema::validator_for(&json_schema()).unwrap();
    assert!(raws.iter().all(|r| hand.check(r) && validator.validate_raw(r).is_ok()));
    assert!(json_docs.iter().all(|j| json_validator.is_valid(j)));
    assert!(bad.iter().all(|r| !hand.check(r)));

    let n = raws.len();
    // `VALIDATE_PROFILE=raw|decoded|walk` spins on one path for 10 s, for `perf record`.
    if let Ok(which) = std::env::var("VALIDATE_PROFILE") {
        let (start, mut rounds) = (Instant::now(), 0);
        while start.elapsed().as_secs() < 10 {
            rounds += 1;
            let passed = match which.as_str() {
                "decoded" => docs.iter().filter(|d| validator.validate(d).is_ok()).count(),
                "walk" => raws.iter().filter(|r| mongo_schema::validate::__bench::read_raw(r).is_ok()).count(),
                _ => raws.iter().filter(|r| validator.validate_raw(r).is_ok()).count(),
            };
            assert_eq!(black_box(passed), n);
        }
        eprintln!("{which}: {} documents", rounds * n);
        return;
    }
    let avg_size = raws.iter().map(|r| r.as_bytes().len()).sum::<usize>() / n;
    let mut rows: [Row<'_>; 8] = [
        ("validate_raw (bytes)", Box::new(|| raws.iter().filter(|r| validator.validate_raw(r).is_ok()).count())),
        ("validate (decoded Document)", Box::new(|| docs.iter().filter(|d| validator.validate(d).is_ok()).count())),
        ("hand-written check over RawDocument", Box::new(|| raws.iter().filter(|r| hand.check(r)).count())),
        ("raw iteration alone", Box::new(|| raws.iter().map(|r| walk(r)).sum())),
        (
            "our byte walker alone (information)",
            Box::new(|| raws.iter().map(|r| mongo_schema::validate::__bench::read_raw(r).unwrap()).sum()),
        ),
        ("jsonschema on prebuilt JSON", Box::new(|| json_docs.iter().filter(|j| json_validator.is_valid(j)).count())),
        (
            "BSON -> ExtJSON -> jsonschema",
            Box::new(|| raws.iter().filter(|r| json_validator.is_valid(&to_json(r))).count()),
        ),
        (
            "failure path: validate_raw + errInfo",
            Box::new(|| {
                bad.iter()
                    .filter_map(|r| validator.validate_raw(r).err())
                    .map(|e| e.failure().unwrap().err_info().len())
                    .sum()
            }),
        ),
    ];
    let (rounds, sequential) =
        (env_or("VALIDATE_ROUNDS", ROUNDS), std::env::var("VALIDATE_ORDER").is_ok_and(|o| o == "sequential"));
    let best = measure(n, &mut rows, rounds, sequential);
    let order = if sequential { "sequential" } else { "interleaved" };
    println!("{n} orders, {avg_size} bytes each on average; best of {rounds} {order} rounds");
    for ((name, _), ns) in rows.iter().zip(&best) {
        println!("{name:<40} {ns:>10.0} ns/doc");
    }
    let [raw, _, hand_ns, _, _, json, via_json, _] = best;
    println!("validate_raw / hand-written      = {:.2}x (target <= 1.3x)", raw / hand_ns);
    println!("jsonschema (prebuilt) / validate_raw = {:.2}x (target >= 2x)", json / raw);
    println!("BSON->JSON->jsonschema / validate_raw = {:.2}x (target >= 6x)", via_json / raw);
}

fn to_json(raw: &RawDocument) -> Value {
    Bson::Document(Document::try_from(raw).unwrap()).into_relaxed_extjson()
}

/// Visits every element, recursing into documents and arrays: the floor for any raw check.
fn walk(doc: &RawDocument) -> usize {
    doc.iter()
        .map(|e| match e.unwrap().1 {
            RawBsonRef::Document(d) => 1 + walk(d),
            RawBsonRef::Array(a) => {
                1 + a
                    .into_iter()
                    .map(|v| match v.unwrap() {
                        RawBsonRef::Document(d) => walk(d),
                        _ => 1,
                    })
                    .sum::<usize>()
            }
            _ => 1,
        })
        .sum()
}

/// The same rules as `orders::schema()`, written by hand over `RawDocument`.
struct HandCheck {
    order_no: Regex,
    email: Regex,
    zip: Regex,
    sku: Regex,
}

fn regex(p: &str) -> Regex {
    RegexBuilder::new().utf(true).jit_if_available(true).build(p).unwrap()
}

fn chars_within(s: &str, min: usize, max: usize) -> bool {
    (min..=max).contains(&s.chars().count())
}

impl HandCheck {
    fn new() -> Self {
        HandCheck {
            order_no: regex("^ORD-[0-9]{4}-[0-9]{6}$"),
            email: regex("^[a-zA-Z0-9._%+-]+@[a-zA-Z0-9.-]+\\.[a-zA-Z]{2,}$"),
            zip: regex("^[0-9]{5}$"),
            sku: regex("^[A-Z]{3}-[0-9]{4}$"),
        }
    }

    fn check(&self, doc: &RawDocument) -> bool {
        let mut seen = 0u8;
        for field in doc.iter() {
            let Ok((key, value)) = field else { return false };
            let (bit, ok) = match (AsRef::<str>::as_ref(key), value) {
                ("_id", RawBsonRef::ObjectId(_)) => (1, true),
                ("orderNo", RawBsonRef::String(s)) => (2, self.order_no.is_match(s.as_bytes()).unwrap_or(false)),
                ("status", RawBsonRef::String(s)) => {
                    (4, ["pending", "paid", "shipped", "delivered", "cancelled"].contains(&s))
                }
                ("createTime", RawBsonRef::DateTime(_)) => (8, true),
                ("customer", RawBsonRef::Document(c)) => (16, self.customer(c)),
                ("lines", RawBsonRef::Array(a)) => (32, self.lines(a)),
                ("total", RawBsonRef::Decimal128(_)) => (64, true),
                ("notes", RawBsonRef::String(s)) => (0, chars_within(s, 0, 500)),
                ("gift", RawBsonRef::Boolean(_)) => (0, true),
                _ => (0, false),
            };
            if !ok {
                return false;
            }
            seen |= bit;
        }
        seen == 127
    }

    fn customer(&self, c: &RawDocument) -> bool {
        let mut seen = 0u8;
        for field in c.iter() {
            let Ok((key, value)) = field else { return false };
            let (bit, ok) = match (AsRef::<str>::as_ref(key), value) {
                ("userName", RawBsonRef::String(s)) => (1, chars_within(s, 2, 50)),
                ("email", RawBsonRef::String(s)) => (2, self.email.is_match(s.as_bytes()).unwrap_or(false)),
                ("phone", RawBsonRef::String(s)) => (0, chars_within(s, 0, 20)),
                ("age", RawBsonRef::Int32(n)) => (0, (0..=150).contains(&n)),
                ("address", RawBsonRef::Document(a)) => (4, self.address(a)),
                _ => (0, false),
            };
            if !ok {
                return false;
            }
            seen |= bit;
        }
        seen == 7
    }

    fn address(&self, a: &RawDocument) -> bool {
        let mut seen = 0u8;
        for field in a.iter() {
            let Ok((key, value)) = field else { return false };
            let (bit, ok) = match (AsRef::<str>::as_ref(key), value) {
                ("street", RawBsonRef::String(s)) => (1, chars_within(s, 0, 200)),
                ("city", RawBsonRef::String(s)) => (2, chars_within(s, 0, 100)),
                ("zip", RawBsonRef::String(s)) => (4, self.zip.is_match(s.as_bytes()).unwrap_or(false)),
                ("country", RawBsonRef::String(s)) => (8, chars_within(s, 2, 2)),
                _ => (0, false),
            };
            if !ok {
                return false;
            }
            seen |= bit;
        }
        seen == 15
    }

    fn lines(&self, lines: &mongo_schema::bson::RawArray) -> bool {
        let mut count = 0;
        for line in lines {
            let Ok(RawBsonRef::Document(line)) = line else { return false };
            if !self.line(line) {
                return false;
            }
            count += 1;
        }
        (1..=100).contains(&count)
    }

    fn line(&self, line: &RawDocument) -> bool {
        let mut seen = 0u8;
        for field in line.iter() {
            let Ok((key, value)) = field else { return false };
            let (bit, ok) = match (AsRef::<str>::as_ref(key), value) {
                ("sku", RawBsonRef::String(s)) => (1, self.sku.is_match(s.as_bytes()).unwrap_or(false)),
                ("name", RawBsonRef::String(s)) => (2, chars_within(s, 0, 120)),
                ("quantity", RawBsonRef::Int32(n)) => (4, (1..=1000).contains(&n)),
                ("unitPrice", RawBsonRef::Decimal128(_)) => (8, true),
                ("tags", RawBsonRef::Array(tags)) => (
                    0,
                    tags.into_iter().count() <= 10
                        && tags.into_iter().all(|t| matches!(t, Ok(RawBsonRef::String(s)) if chars_within(s, 0, 20))),
                ),
                _ => (0, false),
            };
            if !ok {
                return false;
            }
            seen |= bit;
        }
        seen == 15
    }
}

/// The equivalent JSON Schema over the relaxed Extended JSON form of an order.
fn json_schema() -> Value {
    let wrapped =
        |key: &str| json!({ "type": "object", "required": [key], "properties": { key: { "type": "string" } } });
    let string = |max: u32| json!({ "type": "string", "maxLength": max });
    json!({
        "type": "object",
        "required": ["_id", "orderNo", "status", "createTime", "customer", "lines", "total"],
        "additionalProperties": false,
        "properties": {
            "_id": wrapped("$oid"),
            "orderNo": { "type": "string", "pattern": "^ORD-[0-9]{4}-[0-9]{6}$" },
            "status": { "enum": ["pending", "paid", "shipped", "delivered", "cancelled"] },
            "createTime": wrapped("$date"),
            "customer": {
                "type": "object", "required": ["userName", "email", "address"], "additionalProperties": false,
                "properties": {
                    "userName": { "type": "string", "minLength": 2, "maxLength": 50 },
                    "email": { "type": "string", "pattern": "^[a-zA-Z0-9._%+-]+@[a-zA-Z0-9.-]+\\.[a-zA-Z]{2,}$" },
                    "phone": string(20),
                    "age": { "type": "integer", "minimum": 0, "maximum": 150 },
                    "address": {
                        "type": "object", "required": ["street", "city", "zip", "country"], "additionalProperties": false,
                        "properties": {
                            "street": string(200), "city": string(100),
                            "zip": { "type": "string", "pattern": "^[0-9]{5}$" },
                            "country": { "type": "string", "minLength": 2, "maxLength": 2 },
                        },
                    },
                },
            },
            "lines": {
                "type": "array", "minItems": 1, "maxItems": 100,
                "items": {
                    "type": "object", "required": ["sku", "name", "quantity", "unitPrice"], "additionalProperties": false,
                    "properties": {
                        "sku": { "type": "string", "pattern": "^[A-Z]{3}-[0-9]{4}$" },
                        "name": string(120),
                        "quantity": { "type": "integer", "minimum": 1, "maximum": 1000 },
                        "unitPrice": wrapped("$numberDecimal"),
                        "tags": { "type": "array", "maxItems": 10, "items": string(20) },
                    },
                },
            },
            "total": wrapped("$numberDecimal"),
            "notes": string(500),
            "gift": { "type": "boolean" },
        },
    })
}
