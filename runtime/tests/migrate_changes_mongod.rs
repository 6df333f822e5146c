//! Expand and contract over generated model changes, on the single-node replica set
//! `scripts/with-mongod.sh` starts (`MONGODB_URI_REPLSET`; without it the test says it was
//! skipped and passes).
//!
//! Each case draws an old model (strings with `maxLength`, ints with bounds, an enum of
//! strings, an optional field, an array of subdocuments with `maxItems` and a nested bound)
//! and a new model made of it by one or more changes: a new required field, a lowered bound
//! (`maxLength`, `maximum`, `maxItems`, inside the array's items), a renamed field (with its
//! `renames` entry), a changed type (int to long, double or decimal; a string to a date), an
//! enum value added or removed, a field removed. The model is open, or closed
//! (`additionalProperties: false`, serde's `deny_unknown_fields`: a removed field then
//! tightens). Then, on mongod, as a rolling deploy runs it:
//!
//! 1. the old model's first migration is applied with its contract: strict/error;
//! 2. documents the old validator admits (checked by the local validator first) are stored;
//! 3. the migration from the old snapshot to the new model is written (`migrate`);
//! 4. its expand is applied: the documents are untouched, and documents of the old shape (the
//!    previous release still writing) and of the new shape are all accepted, as are the new
//!    release's whole documents saved over old ones and its renamed key set beside the old;
//! 5. its contract is applied: when the gate refuses, the count it names is the number of
//!    stored documents the new validator refuses, counted by the local validator over every
//!    document and by the server; the renamed values moved exactly; the documents are then
//!    fixed (or, for a text that is no date, deleted) and the contract applied again;
//! 6. no document is lost, every document passes the new validator, no document holds a
//!    renamed key's old name, and the collection is strict/error with the new validator.
//!
//! Every change kind is the single change of one case on an open model and of one on a
//! closed model, whatever the seed; the cases after those combine a drawn change with one or
//! two more. At least one case's gate refuses (a new required field) and one's lets the
//! contract through at once (a rename alone). The seed is fixed (`PROPTEST_RNG_SEED`, as for
//! every randomised test of the repository; `random` draws one) and printed;
//! `MIGRATE_CHANGE_CASES` sets the number of cases (at least two per kind).
//!
//! `a_later_migration_never_enforces_past_a_pending_contract` holds what this test first
//! found: a later migration enforcing a validator past an earlier migration's pending gate
//! (a collection's validators now install in the order of the files: `Outcome::Held`).

#![forbid(unsafe_code)]
#![cfg(all(feature = "driver", feature = "validator"))]

use mongo_schema::bson::{doc, oid::ObjectId, Bson, DateTime, Decimal128, Document};
use mongo_schema::command::{ValidationAction, ValidationLevel};
use mongo_schema::migrate::apply::{apply_with, ApplyError, ApplyOptions, Event, Outcome};
use mongo_schema::migrate::driver::MongoServer;
use mongo_schema::migrate::file::MigrationFile;
use mongo_schema::migrate::server::Server;
use mongo_schema::migrate::{migrate, pending, MigrateOptions, Model, Naming, Options, Phase, Snapshot};
use mongo_schema::Validator;
use std::collections::HashMap;
use std::path::Path;
use std::sync::Mutex;
use std::time::Instant;

/// The tests share the deployment's databases: one at a time.
static DEPLOYMENT: Mutex<()> = Mutex::new(());
const DB: &str = "db_prop_changes";
const STATE_DB: &str = "db_prop_changes_state";
/// The seed when `PROPTEST_RNG_SEED` is unset (`.cargo/config.toml` sets the same one).
const DEFAULT_SEED: u64 = 20_261_126;
/// Cases when `MIGRATE_CHANGE_CASES` is unset: one per change kind, then combinations.
const DEFAULT_CASES: usize = 30;
/// Documents stored under the old model before the migration is written.
const STORED: usize = 60;
/// Documents of each shape written between the expand and the contract.
const DURING: usize = 30;

// ---------------------------------------------------------------------------------------
// Randomness: a seeded xorshift64, as the repository's unit tests use.

struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Self {
        // splitmix64 of the seed, so that neighbouring seeds give unrelated streams
        let mut z = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        Rng((z ^ (z >> 31)) | 1)
    }

    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// Uniform in `lo..=hi`.
    fn range(&mut self, lo: i32, hi: i32) -> i32 {
        assert!(lo <= hi, "{lo}..={hi}");
        lo + (self.next() % (hi - lo + 1) as u64) as i32
    }

    /// In `lo..=hi`, the bounds drawn more often than the rest (a quarter `hi`, an eighth
    /// `lo`): a lowered bound then finds documents at the old one (all but surely, over dozens).
    fn edgy(&mut self, lo: i32, hi: i32) -> i32 {
        match self.next() % 8 {
            0 | 1 => hi,
            2 => lo,
            _ => self.range(lo, hi),
        }
    }

    fn chance(&mut self, one_in: u64) -> bool {
        self.next().is_multiple_of(one_in)
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[(self.next() % items.len() as u64) as usize]
    }
}

fn seed() -> u64 {
    match std::env::var("PROPTEST_RNG_SEED").as_deref() {
        Err(_) => DEFAULT_SEED,
        Ok("random") => std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(DEFAULT_SEED, |d| d.as_nanos() as u64),
        Ok(n) => n.parse().expect("PROPTEST_RNG_SEED is a number or `random`"),
    }
}

// ---------------------------------------------------------------------------------------
// Models: a list of fields, each with the key it is stored under in this version.

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Num {
    Int,
    Long,
    Double,
    Decimal,
}

impl Num {
    /// The `bsonType`, `$type` and `$convert` name.
    fn name(self) -> &'static str {
        match self {
            Num::Int => "int",
            Num::Long => "long",
            Num::Double => "double",
            Num::Decimal => "decimal",
        }
    }

    fn value(self, n: i32) -> Bson {
        match self {
            Num::Int => Bson::Int32(n),
            Num::Long => Bson::Int64(i64::from(n)),
            Num::Double => Bson::Double(f64::from(n)),
            Num::Decimal => Bson::Decimal128(n.to_string().parse::<Decimal128>().expect("an integer")),
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
enum Kind {
    /// A string of at most `max_len` code points; `dates`: it holds dates as text (and, now
    /// and then, a text that is no date).
    Str {
        max_len: i32,
        dates: bool,
    },
    Num {
        ty: Num,
        min: i32,
        max: i32,
    },
    Date,
    Enum {
        values: Vec<String>,
    },
    /// An array of at most `max_items` `{sku, n}` subdocuments.
    Lines {
        max_items: i32,
        sku_len: i32,
        n_max: i32,
    },
}

impl Kind {
    /// The field's schema; `closed`: subdocuments admit no other key (`deny_unknown_fields`).
    fn schema(&self, closed: bool) -> Document {
        match self {
            Kind::Str { max_len, .. } => doc! { "bsonType": "string", "maxLength": *max_len },
            Kind::Num { ty, min, max } => doc! { "bsonType": ty.name(), "minimum": *min, "maximum": *max },
            Kind::Date => doc! { "bsonType": "date" },
            Kind::Enum { values } => doc! { "enum": values.clone() },
            Kind::Lines { max_items, sku_len, n_max } => {
                let mut items = doc! {
                    "bsonType": "object",
                    "required": ["sku", "n"],
                    "properties": {
                        "sku": { "bsonType": "string", "maxLength": *sku_len },
                        "n": { "bsonType": "int", "minimum": 0, "maximum": *n_max },
                    },
                };
                if closed {
                    items.insert("additionalProperties", false);
                }
                doc! { "bsonType": "array", "maxItems": *max_items, "items": items }
            }
        }
    }

    /// A value this schema admits.
    fn value(&self, rng: &mut Rng) -> Bson {
        match self {
            Kind::Str { max_len, dates: true } if !rng.chance(8) => {
                let text = date_text(rng);
                assert!(text.chars().count() as i32 <= *max_len);
                Bson::String(text)
            }
            Kind::Str { dates: true, .. } => Bson::String(rng.pick(&["n/a", "soon", "unknown", ""]).to_string()),
            Kind::Str { max_len, .. } => {
                let len = rng.edgy(0, *max_len) as usize;
                Bson::String(text(rng, len))
            }
            Kind::Num { ty: Num::Double, min, max } => {
                let n = rng.edgy(*min, *max);
                let fraction = if n > *min && rng.chance(2) { 0.25 } else { 0.0 };
                Bson::Double(f64::from(n) - fraction)
            }
            Kind::Num { ty, min, max } => ty.value(rng.edgy(*min, *max)),
            Kind::Date => {
                Bson::DateTime(DateTime::from_millis(1_577_836_800_000 + i64::from(rng.range(0, 189_000_000)) * 1000))
            }
            Kind::Enum { values } => Bson::String(rng.pick(values).clone()),
            Kind::Lines { max_items, sku_len, n_max } => {
                let count = rng.edgy(0, *max_items);
                let lines: Vec<Bson> = (0..count)
                    .map(|_| {
                        let len = rng.edgy(1, *sku_len) as usize;
                        let sku = text(rng, len);
                        Bson::Document(doc! { "sku": sku, "n": rng.edgy(0, *n_max) })
                    })
                    .collect();
                Bson::Array(lines)
            }
        }
    }

    /// What a document missing this (newly required) field is given.
    fn default_value(&self) -> Bson {
        match self {
            Kind::Str { .. } => Bson::String(String::new()),
            Kind::Num { ty, min, .. } => ty.value(*min),
            Kind::Date => Bson::DateTime(DateTime::from_millis(0)),
            Kind::Enum { values } => Bson::String(values[0].clone()),
            Kind::Lines { .. } => Bson::Array(Vec::new()),
        }
    }
}

/// `len` code points, some of them outside ASCII (maxLength counts code points, not bytes).
fn text(rng: &mut Rng, len: usize) -> String {
    const CHARS: [char; 12] = ['a', 'b', 'k', 'x', 'y', 'z', '-', ' ', 'é', 'ß', '日', '本'];
    (0..len).map(|_| *rng.pick(&CHARS)).collect()
}

/// `2023-04-05T06:07:08Z`: 20 characters `$toDate` reads.
fn date_text(rng: &mut Rng) -> String {
    format!(
        "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z",
        rng.range(2019, 2026),
        rng.range(1, 12),
        rng.range(1, 28),
        rng.range(0, 23),
        rng.range(0, 59),
        rng.range(0, 59)
    )
}

#[derive(Debug, Clone, PartialEq)]
struct Field {
    /// The field's name in the old model (its identity across versions).
    id: String,
    /// Where this version stores it.
    key: String,
    kind: Kind,
    required: bool,
}

#[derive(Debug, Clone, PartialEq)]
struct Spec {
    fields: Vec<Field>,
    /// `additionalProperties: false` (serde's `deny_unknown_fields`), `_id` still allowed.
    closed: bool,
}

const STATUSES: [&str; 7] = ["active", "closed", "pending", "archived", "blocked", "draft", "review"];

impl Spec {
    fn old(rng: &mut Rng, closed: bool) -> Spec {
        let field = |id: &str, kind: Kind, required: bool| Field { id: id.into(), key: id.into(), kind, required };
        let mut statuses: Vec<String> = STATUSES.iter().map(|s| s.to_string()).collect();
        for i in (1..statuses.len()).rev() {
            let j = rng.range(0, i as i32) as usize;
            statuses.swap(i, j);
        }
        statuses.truncate(rng.range(3, 5) as usize);
        Spec {
            fields: vec![
                field("name", Kind::Str { max_len: rng.range(8, 20), dates: false }, true),
                field("since", Kind::Str { max_len: rng.range(24, 32), dates: true }, true),
                field("qty", Kind::Num { ty: Num::Int, min: 0, max: rng.range(100, 1000) }, true),
                field("rank", Kind::Num { ty: Num::Int, min: 1, max: rng.range(10, 50) }, true),
                field("status", Kind::Enum { values: statuses }, true),
                field("note", Kind::Str { max_len: rng.range(10, 40), dates: false }, false),
                field(
                    "lines",
                    Kind::Lines { max_items: rng.range(4, 8), sku_len: rng.range(6, 10), n_max: rng.range(20, 100) },
                    true,
                ),
            ],
            closed,
        }
    }

    fn schema(&self) -> Document {
        let mut required = vec![Bson::from("_id")];
        let mut properties = doc! { "_id": { "bsonType": "objectId" } };
        for f in &self.fields {
            if f.required {
                required.push(Bson::String(f.key.clone()));
            }
            properties.insert(f.key.clone(), f.kind.schema(self.closed));
        }
        let mut schema = doc! { "bsonType": "object", "required": required, "properties": properties };
        if self.closed {
            schema.insert("additionalProperties", false);
        }
        schema
    }

    fn validator(&self) -> Document {
        doc! { "$jsonSchema": self.schema() }
    }

    fn local(&self) -> Validator {
        Validator::new(&self.schema()).expect("the generated schema compiles")
    }

    /// A document of this shape: every required field, the optional ones two times in three.
    fn document(&self, rng: &mut Rng) -> Document {
        let mut d = doc! { "_id": ObjectId::new() };
        for f in &self.fields {
            if f.required || !rng.chance(3) {
                d.insert(f.key.clone(), f.kind.value(rng));
            }
        }
        d
    }

    fn field(&self, id: &str) -> Option<&Field> {
        self.fields.iter().find(|f| f.id == id)
    }

    fn field_mut(&mut self, id: &str) -> &mut Field {
        self.fields.iter_mut().find(|f| f.id == id).expect("a field of the model")
    }

    /// `(new, old)` for every field stored under another key than in `old`.
    fn renames(&self, old: &Spec) -> Vec<(String, String)> {
        self.fields
            .iter()
            .filter_map(|f| old.field(&f.id).filter(|o| o.key != f.key).map(|o| (f.key.clone(), o.key.clone())))
            .collect()
    }
}

fn model(spec: &Spec, collection: &str, renames: Vec<(String, String)>) -> Model {
    Model {
        db: DB.to_owned(),
        collection: collection.to_owned(),
        rust_type: format!("prop::{collection}"),
        validator: spec.validator(),
        level: ValidationLevel::Strict,
        action: ValidationAction::Error,
        options: Options::default(),
        renames,
        max_document_size: None,
    }
}

// ---------------------------------------------------------------------------------------
// Changes.

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Change {
    AddRequired,
    LowerMaxLength,
    LowerMaximum,
    LowerMaxItems,
    LowerNested,
    Rename,
    IntToLong,
    IntToDouble,
    IntToDecimal,
    StringToDate,
    AddEnumValue,
    NarrowEnum,
    RemoveField,
}

const CHANGES: [Change; 13] = [
    Change::AddRequired,
    Change::LowerMaxLength,
    Change::LowerMaximum,
    Change::LowerMaxItems,
    Change::LowerNested,
    Change::Rename,
    Change::IntToLong,
    Change::IntToDouble,
    Change::IntToDecimal,
    Change::StringToDate,
    Change::AddEnumValue,
    Change::NarrowEnum,
    Change::RemoveField,
];

impl Change {
    /// May the new validator refuse a document the old one admits (or must values move)?
    /// Then the migration expands and contracts; otherwise it installs the new validator
    /// at once. A field removed from a `closed` model is refused where documents still hold it.
    fn staged(self, closed: bool) -> bool {
        match self {
            Change::AddEnumValue => false,
            Change::RemoveField => closed,
            _ => true,
        }
    }
}

/// What the changes so far hold of each field: `(field, slot)`, slot `*` for all of it.
#[derive(Default)]
struct Claims(Vec<(String, &'static str)>);

impl Claims {
    fn free(&self, id: &str, slot: &str) -> bool {
        !self.0.iter().any(|(i, s)| i == id && (*s == slot || *s == "*" || slot == "*"))
    }
}

const RENAMED: [(&str, &str); 7] = [
    ("name", "fullName"),
    ("since", "startedOn"),
    ("qty", "quantity"),
    ("rank", "position"),
    ("status", "state"),
    ("note", "remark"),
    ("lines", "entries"),
];

/// Applies `change` to `spec` (the new model being made from the old one) on a field no
/// earlier change holds; what it did, or `None` when no field is left for it.
fn apply_change(change: Change, spec: &mut Spec, claims: &mut Claims, rng: &mut Rng) -> Option<String> {
    match change {
        Change::AddRequired => {
            let pool = [
                ("region", Kind::Str { max_len: 12, dates: false }),
                ("tier", Kind::Enum { values: vec!["gold".into(), "silver".into()] }),
                ("score", Kind::Num { ty: Num::Int, min: 0, max: 100 }),
            ];
            let free: Vec<&(&str, Kind)> = pool.iter().filter(|(k, _)| spec.field(k).is_none()).collect();
            let (key, kind) = (*rng.pick(&free)).clone();
            claims.0.push((key.to_owned(), "*"));
            spec.fields.push(Field { id: key.into(), key: key.into(), kind, required: true });
            Some(format!("new required field `{key}`"))
        }
        Change::LowerMaxLength => {
            let id = take(&["name", "note"], "schema", spec, claims, rng)?;
            let Kind::Str { max_len, .. } = &mut spec.field_mut(&id).kind else { unreachable!() };
            let old = *max_len;
            *max_len = rng.range((old / 3).max(1), old - 1);
            Some(format!("`{id}` maxLength {old} -> {max_len}"))
        }
        Change::LowerMaximum => {
            let id = take(&["qty", "rank"], "schema", spec, claims, rng)?;
            let Kind::Num { min, max, .. } = &mut spec.field_mut(&id).kind else { unreachable!() };
            let old = *max;
            *max = rng.range(*min + 1, old - 1);
            Some(format!("`{id}` maximum {old} -> {max}"))
        }
        Change::LowerMaxItems => {
            let id = take(&["lines"], "maxItems", spec, claims, rng)?;
            let Kind::Lines { max_items, .. } = &mut spec.field_mut(&id).kind else { unreachable!() };
            let old = *max_items;
            *max_items = rng.range(1, old - 1);
            Some(format!("`{id}` maxItems {old} -> {max_items}"))
        }
        Change::LowerNested => {
            let slot = *rng.pick(&["n", "sku"]);
            let id = take(&["lines"], slot, spec, claims, rng)?;
            let Kind::Lines { sku_len, n_max, .. } = &mut spec.field_mut(&id).kind else { unreachable!() };
            let (what, bound) = if slot == "n" { ("n maximum", n_max) } else { ("sku maxLength", sku_len) };
            let old = *bound;
            *bound = rng.range(1, old - 1);
            Some(format!("`{id}[].{what}` {old} -> {bound}"))
        }
        Change::Rename => {
            let ids: Vec<&str> = RENAMED.iter().map(|(id, _)| *id).collect();
            let id = take(&ids, "key", spec, claims, rng)?;
            let new = RENAMED.iter().find(|(i, _)| *i == id).map(|(_, n)| n.to_string()).unwrap();
            spec.field_mut(&id).key = new.clone();
            Some(format!("`{id}` renamed `{new}`"))
        }
        Change::IntToLong | Change::IntToDouble | Change::IntToDecimal => {
            let id = take(&["qty", "rank"], "schema", spec, claims, rng)?;
            let Kind::Num { ty, .. } = &mut spec.field_mut(&id).kind else { unreachable!() };
            *ty = match change {
                Change::IntToLong => Num::Long,
                Change::IntToDouble => Num::Double,
                _ => Num::Decimal,
            };
            Some(format!("`{id}` int -> {}", ty.name()))
        }
        Change::StringToDate => {
            let id = take(&["since"], "schema", spec, claims, rng)?;
            spec.field_mut(&id).kind = Kind::Date;
            Some(format!("`{id}` string -> date"))
        }
        Change::AddEnumValue => {
            let id = take(&["status"], "schema", spec, claims, rng)?;
            let Kind::Enum { values } = &mut spec.field_mut(&id).kind else { unreachable!() };
            let unused: Vec<&str> = STATUSES.iter().copied().filter(|s| !values.iter().any(|v| v == s)).collect();
            let added = rng.pick(&unused).to_string();
            values.push(added.clone());
            Some(format!("`{id}` enum + {added:?}"))
        }
        Change::NarrowEnum => {
            let id = take(&["status"], "schema", spec, claims, rng)?;
            let Kind::Enum { values } = &mut spec.field_mut(&id).kind else { unreachable!() };
            let dropped: Vec<String> = (0..rng.range(1, values.len() as i32 - 2))
                .map(|_| values.remove(rng.range(0, values.len() as i32 - 1) as usize))
                .collect();
            Some(format!("`{id}` enum - {dropped:?}"))
        }
        Change::RemoveField => {
            let ids: Vec<&str> = RENAMED.iter().map(|(id, _)| *id).collect();
            let id = take(&ids, "*", spec, claims, rng)?;
            spec.fields.retain(|f| f.id != id);
            Some(format!("`{id}` removed"))
        }
    }
}

/// One of `ids` that `spec` has and no change holds `slot` of, now held; `None` if none is.
fn take(ids: &[&str], slot: &'static str, spec: &Spec, claims: &mut Claims, rng: &mut Rng) -> Option<String> {
    let found: Vec<&str> = ids.iter().copied().filter(|id| spec.field(id).is_some() && claims.free(id, slot)).collect();
    if found.is_empty() {
        return None;
    }
    let id = rng.pick(&found).to_string();
    claims.0.push((id.clone(), slot));
    Some(id)
}

/// One case: the old model, the new one, and what made the one from the other.
struct Case {
    old: Spec,
    new: Spec,
    changes: Vec<(Change, String)>,
}

/// Case `index`: for the first ones, each change kind alone on an open model, then each alone
/// on a closed one (`additionalProperties: false`); after them, a drawn kind and one or two
/// more on other fields, of a model open or closed.
fn case(index: usize, rng: &mut Rng) -> Case {
    let (first, more, closed) = match (CHANGES.get(index), CHANGES.get(index.wrapping_sub(CHANGES.len()))) {
        (Some(kind), _) => (*kind, 0, false),
        (None, Some(kind)) => (*kind, 0, true),
        (None, None) => (*rng.pick(&CHANGES), rng.range(1, 2) as usize, rng.chance(2)),
    };
    let old = Spec::old(rng, closed);
    let mut new = old.clone();
    let mut claims = Claims::default();
    let mut changes = Vec::new();
    let said = apply_change(first, &mut new, &mut claims, rng).expect("the first change always finds a field");
    changes.push((first, said));
    let mut tries = 0;
    while changes.len() <= more && tries < 20 {
        tries += 1;
        let kind = *rng.pick(&CHANGES);
        if let Some(said) = apply_change(kind, &mut new, &mut claims, rng) {
            changes.push((kind, said));
        }
    }
    Case { old, new, changes }
}

// ---------------------------------------------------------------------------------------
// The deployment.

fn command(server: &mut MongoServer, command: Document) -> Document {
    let shown = command.to_string();
    server.run_command(DB, command).unwrap_or_else(|e| panic!("{shown}: {e}"))
}

/// Inserts `documents`; every one must be accepted.
fn insert(server: &mut MongoServer, collection: &str, documents: &[Document], what: &str) {
    let reply = command(server, doc! { "insert": collection, "documents": documents.to_vec(), "ordered": false });
    if let Ok(errors) = reply.get_array("writeErrors") {
        let codes: Vec<String> = errors
            .iter()
            .filter_map(Bson::as_document)
            .map(|e| format!("{} {}", e.get_i32("code").unwrap_or_default(), e.get_str("errmsg").unwrap_or_default()))
            .collect();
        let mut distinct = codes.clone();
        distinct.dedup();
        panic!("{collection}: {} of {} {what} refused: {}", errors.len(), documents.len(), distinct.join("; "));
    }
    assert_eq!(reply.get_i32("n").unwrap() as usize, documents.len(), "{reply}");
}

/// Inserts `documents` (every one must be accepted) and keeps them by `_id`.
fn store(
    server: &mut MongoServer,
    collection: &str,
    inserted: &mut HashMap<ObjectId, Document>,
    documents: Vec<Document>,
    what: &str,
) {
    insert(server, collection, &documents, what);
    inserted.extend(documents.into_iter().map(|d| (d.get_object_id("_id").unwrap(), d)));
}

/// Updates the one document `q` selects; it must be accepted.
fn update_one(server: &mut MongoServer, collection: &str, q: Document, u: Document, what: &str) {
    let reply = command(server, doc! { "update": collection, "updates": [{ "q": q.clone(), "u": u.clone() }] });
    assert!(!reply.contains_key("writeErrors"), "{collection}: {what} refused: {q} {u}: {reply}");
    assert_eq!(reply.get_i32("n").unwrap(), 1, "{reply}");
}

/// Every document, by `_id`.
fn documents(server: &mut MongoServer, collection: &str) -> Vec<Document> {
    let reply = command(server, doc! { "find": collection, "sort": { "_id": 1 }, "batchSize": 100_000 });
    let cursor = reply.get_document("cursor").unwrap();
    assert_eq!(cursor.get_i64("id").unwrap(), 0, "every document in the first batch");
    cursor.get_array("firstBatch").unwrap().iter().map(|d| d.as_document().unwrap().clone()).collect()
}

/// The server's count of documents failing `validator`, as the gate counts them.
fn failing(server: &mut MongoServer, collection: &str, validator: &Document) -> u64 {
    let reply = command(server, doc! { "count": collection, "query": { "$nor": [validator.clone()] } });
    reply.get("n").and_then(Bson::as_i32).expect("n") as u64
}

/// `listCollections`' options of `collection`.
fn options(server: &mut MongoServer, collection: &str) -> Document {
    let reply = command(server, doc! { "listCollections": 1, "filter": { "name": collection } });
    let batch = reply.get_document("cursor").unwrap().get_array("firstBatch").unwrap();
    batch[0].as_document().unwrap().get_document("options").unwrap().clone()
}

fn assert_options(server: &mut MongoServer, collection: &str, validator: &Document, when: &str) {
    let options = options(server, collection);
    assert_eq!(options.get_document("validator").ok(), Some(validator), "{collection} {when}: the validator");
    assert_eq!(options.get_str("validationLevel").ok(), Some("strict"), "{collection} {when}: {options}");
    assert_eq!(options.get_str("validationAction").ok(), Some("error"), "{collection} {when}: {options}");
}

fn read_files(dir: &Path) -> Vec<MigrationFile> {
    pending(dir).unwrap().iter().map(|p| MigrationFile::read(p).unwrap()).collect()
}

fn run(
    server: &mut MongoServer,
    files: &[MigrationFile],
    contract: bool,
    events: &mut Vec<Event>,
) -> Result<Vec<Outcome>, ApplyError> {
    let options = ApplyOptions { contract, ..ApplyOptions::new(STATE_DB) };
    apply_with(server, files, &options, &mut |e| events.push(e))
}

/// `N of M` from the gate's message: `... and N of M documents of db.coll fail it ...`.
fn gate_count(message: &str) -> Option<(u64, u64)> {
    let rest = &message[message.find("validator, and ")? + "validator, and ".len()..];
    let (failing, rest) = rest.split_once(" of ")?;
    let (total, _) = rest.split_once(" documents")?;
    Some((failing.parse().ok()?, total.parse().ok()?))
}

/// `inserted` as the contract's move leaves it: each renamed value under its new key.
fn moved(inserted: &Document, renames: &[(String, String)]) -> Document {
    let mut d = inserted.clone();
    for (new, old) in renames {
        if let Some(value) = d.remove(old) {
            if !d.contains_key(new) {
                d.insert(new.clone(), value);
            }
        }
    }
    d
}

/// The updates (and deletes) that make every stored document pass `spec`, each selecting
/// only the documents that break the rule it mends, with `bypassDocumentValidation` (a
/// document may break several rules: mending one leaves it failing the validator in force).
/// A text that is no date cannot become one: those documents are deleted.
/// The contract moves renamed keys only once its gate passes, so a document may still hold a
/// renamed field under its old key (`renames`: `(new, old)`): each rule is mended under
/// either key, and a missing field is set only where neither key is there.
fn fixes(old: &Spec, spec: &Spec, collection: &str, renames: &[(String, String)]) -> Vec<(String, Document)> {
    let update = |q: Document, u: Bson| {
        doc! { "update": collection, "updates": [{ "q": q, "u": u, "multi": true }], "bypassDocumentValidation": true }
    };
    let pipeline = |stage: Document| Bson::Array(vec![Bson::Document(doc! { "$set": stage })]);
    let mut out = Vec::new();
    // a closed model admits no key it does not declare: a removed field's goes
    let renamed = |key: &str| renames.iter().any(|(_, o)| o == key);
    for gone in
        old.fields.iter().filter(|o| spec.closed && !spec.fields.iter().any(|f| f.key == o.key) && !renamed(&o.key))
    {
        let k = gone.key.as_str();
        let u = Bson::Document(doc! { "$unset": { k: "" } });
        out.push((format!("{k}: no longer declared, unset"), update(doc! { k: { "$exists": true } }, u)));
    }
    for (f, k) in spec.fields.iter().flat_map(|f| {
        let olds = renames.iter().filter(move |(n, _)| *n == f.key).map(move |(_, o)| (f, o.as_str()));
        std::iter::once((f, f.key.as_str())).chain(olds)
    }) {
        let path = format!("${k}");
        let field = path.as_str();
        if f.required && k == f.key {
            let set = doc! { "$set": { k: f.kind.default_value() } };
            let mut q = doc! { k: { "$exists": false } };
            for (_, o) in renames.iter().filter(|(n, _)| *n == f.key) {
                q.insert(o.as_str(), doc! { "$exists": false });
            }
            out.push((format!("{k}: missing"), update(q, Bson::Document(set))));
        }
        match &f.kind {
            Kind::Str { max_len, .. } => {
                let len = doc! { "$strLenCP": { "$cond": [{ "$eq": [{ "$type": field }, "string"] }, field, ""] } };
                let q = doc! { "$expr": { "$gt": [len, *max_len] } };
                let u = pipeline(doc! { k: { "$substrCP": [field, 0, *max_len] } });
                out.push((format!("{k}: truncated to {max_len}"), update(q, u)));
            }
            Kind::Num { ty, min, max } => {
                let q = doc! { k: { "$exists": true, "$not": { "$type": ty.name() } } };
                let u = pipeline(doc! { k: { "$convert": { "input": field, "to": ty.name() } } });
                out.push((format!("{k}: converted to {}", ty.name()), update(q, u)));
                let clamp = |op: &str, bound: i32| {
                    update(doc! { k: { op: bound } }, Bson::Document(doc! { "$set": { k: ty.value(bound) } }))
                };
                out.push((format!("{k}: at most {max}"), clamp("$gt", *max)));
                out.push((format!("{k}: at least {min}"), clamp("$lt", *min)));
            }
            Kind::Date => {
                let as_date = doc! { "$convert": { "input": field, "to": "date", "onError": Bson::Null } };
                let q = doc! { k: { "$type": "string" }, "$expr": { "$eq": [as_date, Bson::Null] } };
                let delete = doc! { "delete": collection, "deletes": [{ "q": q, "limit": 0 }], "bypassDocumentValidation": true };
                out.push((format!("{k}: DELETED, a text that is no date"), delete));
                let u = pipeline(doc! { k: { "$toDate": field } });
                out.push((format!("{k}: converted to date"), update(doc! { k: { "$type": "string" } }, u)));
            }
            Kind::Enum { values } => {
                let q = doc! { k: { "$exists": true, "$nin": values.clone() } };
                let u = Bson::Document(doc! { "$set": { k: values[0].clone() } });
                out.push((format!("{k}: a value no longer in the enum set to {:?}", values[0]), update(q, u)));
            }
            Kind::Lines { max_items, sku_len, n_max } => {
                let beyond = format!("{k}.{max_items}");
                let u = pipeline(doc! { k: { "$slice": [field, *max_items] } });
                out.push((format!("{k}: cut to {max_items} items"), update(doc! { beyond: { "$exists": true } }, u)));
                let each = |inner: Document| {
                    pipeline(
                        doc! { k: { "$map": { "input": field, "as": "l", "in": { "$mergeObjects": ["$$l", inner] } } } },
                    )
                };
                let n = format!("{k}.n");
                let u = each(doc! { "n": { "$min": ["$$l.n", *n_max] } });
                out.push((format!("{k}[].n: at most {n_max}"), update(doc! { n: { "$gt": *n_max } }, u)));
                let long = doc! { "$anyElementTrue": [{ "$map": { "input": field, "as": "l", "in": { "$gt": [{ "$strLenCP": "$$l.sku" }, *sku_len] } } }] };
                let q = doc! { k: { "$type": "array" }, "$expr": long };
                let u = each(doc! { "sku": { "$substrCP": ["$$l.sku", 0, *sku_len] } });
                out.push((format!("{k}[].sku: truncated to {sku_len}"), update(q, u)));
            }
        }
    }
    out
}

// ---------------------------------------------------------------------------------------
// The test.

/// The replica set, with the test's databases dropped (test set-up: migrations never drop);
/// `None`, said, without `MONGODB_URI_REPLSET`.
fn fresh(test: &str) -> Option<MongoServer> {
    let Ok(uri) = std::env::var("MONGODB_URI_REPLSET") else {
        eprintln!("skipped (no MONGODB_URI_REPLSET): {test}");
        return None;
    };
    let mut server = MongoServer::connect(&uri).expect("connect");
    for db in [DB, STATE_DB] {
        server.run_command(db, doc! { "dropDatabase": 1 }).expect("dropDatabase");
    }
    Some(server)
}

/// What one case did, for the summary and the coverage assertions.
#[derive(Debug, Default)]
struct Ran {
    /// The gate refused the enforcing step: the count it named.
    refused: Option<u64>,
    /// A gated step ran without a refusal.
    passed: bool,
    /// Documents deleted on purpose (unfixable).
    deleted: u64,
}

#[test]
fn generated_model_changes_expand_then_contract_on_mongod() {
    let test = "generated_model_changes_expand_then_contract_on_mongod";
    let _deployment = DEPLOYMENT.lock().unwrap_or_else(|e| e.into_inner());
    let Some(mut server) = fresh(test) else { return };
    let seed = seed();
    let cases: usize = std::env::var("MIGRATE_CHANGE_CASES")
        .map_or(DEFAULT_CASES, |n| n.parse().expect("MIGRATE_CHANGE_CASES is a number"))
        .max(2 * CHANGES.len());
    eprintln!("{test}: {cases} cases, PROPTEST_RNG_SEED={seed} (set it to replay them)");
    let started = Instant::now();
    let mut results = Vec::new();
    let mut seen = Vec::new();
    for index in 0..cases {
        let mut rng = Rng::new(seed ^ (index as u64).wrapping_mul(0x2545_f491_4f6c_dd1d));
        let case = case(index, &mut rng);
        let said: Vec<&str> = case.changes.iter().map(|(_, s)| s.as_str()).collect();
        let model = if case.old.closed { "closed" } else { "open" };
        eprintln!("case {index}: {} ({model} model)", said.join("; "));
        let at = Instant::now();
        let ran = run_case(&mut server, index, &case, &mut rng);
        eprintln!(
            "case {index}: {} ({} deleted on purpose) in {:?}",
            match (ran.refused, ran.passed) {
                (Some(n), _) => format!("the gate refused, naming {n} failing documents; fixed, then enforced"),
                (None, true) => "the gate found no failing document: enforced".to_owned(),
                (None, false) => "no gate: the new validator was installed by the expand".to_owned(),
            },
            ran.deleted,
            at.elapsed()
        );
        seen.extend(case.changes.iter().map(|(c, _)| *c));
        results.push(ran);
    }
    for change in CHANGES {
        assert!(seen.contains(&change), "no case changed {change:?} (seed {seed})");
    }
    let refused = results.iter().filter(|r| r.refused.is_some()).count();
    let passed = results.iter().filter(|r| r.passed).count();
    eprintln!(
        "{test}: {cases} cases in {:?}: the gate refused in {refused}, passed at once in {passed}, absent in {}; {} documents deleted on purpose (seed {seed})",
        started.elapsed(),
        cases - refused - passed,
        results.iter().map(|r| r.deleted).sum::<u64>()
    );
    assert!(refused > 0, "no case's gate refused (seed {seed})");
    assert!(passed > 0, "no case's gate let the contract through at once (seed {seed})");
}

fn run_case(server: &mut MongoServer, index: usize, case: &Case, rng: &mut Rng) -> Ran {
    let collection = format!("t_case_{index:02}");
    let coll = collection.as_str();
    let dir = tempfile::tempdir().unwrap();
    let naming = MigrateOptions { naming: Naming::Sequence, ..MigrateOptions::default() };
    let (old_local, new_local) = (case.old.local(), case.new.local());
    let new_validator = case.new.validator();
    let renames = case.new.renames(&case.old);
    let staged = case.changes.iter().any(|(c, _)| c.staged(case.old.closed));

    // 1. the old model's first migration, contract included: strict/error from the start
    let old_model = model(&case.old, coll, Vec::new());
    let first = migrate(dir.path(), std::slice::from_ref(&old_model), &naming).unwrap().expect("a migration");
    let expected = Snapshot::default().next_migration(std::slice::from_ref(&old_model), &naming).unwrap();
    assert_eq!(Some(&first.migration), expected.as_ref(), "migrate writes what next_migration says");
    let mut events = Vec::new();
    let outcomes = run(server, &read_files(dir.path()), true, &mut events).unwrap();
    assert_eq!(outcomes, [Outcome::Applied(first.migration.name.clone())], "{events:?}");
    assert_options(server, coll, &old_model.validator, "after the first migration");

    // 2. documents the old validator admits, locally and on mongod
    let mut inserted: HashMap<ObjectId, Document> = HashMap::new();
    let old_docs: Vec<Document> = (0..STORED).map(|_| case.old.document(rng)).collect();
    let old_ids: Vec<ObjectId> = old_docs.iter().map(|d| d.get_object_id("_id").unwrap()).collect();
    for d in &old_docs {
        assert!(old_local.is_valid(d), "a generated document fails the old validator locally: {d}");
    }
    store(server, coll, &mut inserted, old_docs, "documents of the old model under its validator");

    // 3. the migration to the new model
    let new_model = model(&case.new, coll, renames.clone());
    let second = migrate(dir.path(), std::slice::from_ref(&new_model), &naming).unwrap().expect("a migration");
    let files = read_files(dir.path());
    assert_eq!(files.len(), 2);
    let up = &files[1].up;
    let contract_at = files[1].contract_from(0);
    if staged {
        let Some(at) = contract_at else { panic!("{}: staged, but no contract step: {up:?}", second.migration.name) };
        assert!(up[up.len() - 1].require_valid, "the last step enforces, gated: {up:?}");
        assert!(up[..at].iter().all(|s| s.phase == Phase::Expand && !s.require_valid));
    } else {
        assert_eq!(contract_at, None, "a loosening has nothing to contract: {up:?}");
    }
    // the validator the expand installs (the union, or the new one when nothing tightens)
    let expand_validator = up[..contract_at.unwrap_or(up.len())]
        .iter()
        .rev()
        .find_map(|s| s.command.get_document("validator").ok().filter(|_| s.command.contains_key("collMod")))
        .expect("the expand installs a validator")
        .clone();
    if !staged {
        assert_eq!(expand_validator, new_validator);
    }

    // 4. the expand: nothing refused, no document touched; both releases' writes accepted
    let mut events = Vec::new();
    let outcomes = run(server, &files, false, &mut events)
        .unwrap_or_else(|e| panic!("{coll}: the expand failed: {e} ({:?})", std::error::Error::source(&e)));
    let name = second.migration.name.clone();
    let expected = match contract_at {
        Some(at) => Outcome::ContractPending { name: name.clone(), done: at, steps: up.len() },
        None => Outcome::Applied(name.clone()),
    };
    assert_eq!(outcomes, [Outcome::AlreadyApplied(first.migration.name.clone()), expected], "{events:?}");
    assert_options(server, coll, &expand_validator, "after the expand");
    for d in documents(server, coll) {
        assert_eq!(Some(&d), inserted.get(&d.get_object_id("_id").unwrap()), "the expand changed a document");
    }
    let old_shape: Vec<Document> = (0..DURING).map(|_| case.old.document(rng)).collect();
    let new_shape: Vec<Document> = (0..DURING).map(|_| case.new.document(rng)).collect();
    for d in &old_shape {
        assert!(old_local.is_valid(d), "a generated document fails the old validator locally: {d}");
    }
    for d in &new_shape {
        assert!(new_local.is_valid(d), "a generated document fails the new validator locally: {d}");
    }
    store(server, coll, &mut inserted, old_shape, "documents of the OLD model (the previous release) after the expand");
    store(server, coll, &mut inserted, new_shape, "documents of the NEW model after the expand");
    // the new release saves whole documents it read in the old shape: the new shape, same _id
    for id in &old_ids[..5] {
        let mut d = case.new.document(rng);
        d.insert("_id", *id);
        update_one(server, coll, doc! { "_id": *id }, d.clone(), "the new release replacing an old document");
        inserted.insert(*id, d);
    }
    // and sets a renamed field under its new key in documents still holding the old one: the
    // contract keeps the new value and drops the old key
    for (new, _) in renames.iter().take(1) {
        let field = case.new.fields.iter().find(|f| f.key == *new).unwrap();
        for id in &old_ids[5..10] {
            let value = field.kind.value(rng);
            let set = doc! { "$set": { new.as_str(): value.clone() } };
            update_one(server, coll, doc! { "_id": *id }, set, "the new release setting a renamed field");
            inserted.get_mut(id).unwrap().insert(new.clone(), value);
        }
    }
    let total = inserted.len() as u64;

    // 5. the contract
    let mut ran = Ran::default();
    let mut events = Vec::new();
    let gated = up.iter().any(|s| s.require_valid);
    let after_move = match run(server, &files, true, &mut events) {
        Ok(outcomes) => {
            let expected = match contract_at {
                Some(at) => Outcome::Resumed { name: name.clone(), done: at },
                None => Outcome::AlreadyApplied(name.clone()),
            };
            assert_eq!(outcomes.last(), Some(&expected), "{events:?}");
            ran.passed = gated;
            None
        }
        Err(e) => {
            let (named, of) = gate_count(&e.to_string())
                .unwrap_or_else(|| panic!("{coll}: the contract failed, not at the gate: {e}"));
            // counted before any key moved, as the moves will leave the documents
            let stored = documents(server, coll);
            let local = stored.iter().filter(|d| !new_local.is_valid(&moved(d, &renames))).count() as u64;
            assert_eq!(of, total, "{coll}: the gate's total: {e}");
            assert_eq!(stored.len() as u64, total);
            assert_eq!(named, local, "{coll}: the gate's count against the local validator's: {e}");
            if renames.is_empty() {
                let counted = failing(server, coll, &new_validator);
                assert_eq!(named, counted, "{coll}: the gate's count against the server's: {e}");
            } else {
                // nothing moved, so the validator in force admits every document
                assert_eq!(failing(server, coll, &expand_validator), 0, "{coll}: a document the expand refuses");
            }
            assert!(named > 0, "{e}");
            // the validator still in force is the expand's: the gate stopped the enforcing step
            assert_options(server, coll, &expand_validator, "after the gate refused");
            ran.refused = Some(named);
            Some(stored)
        }
    };
    // the move, before anything else changed them: every document as inserted, renamed values
    // under their new keys once the contract ran, under their old ones when the gate stopped
    // it (compared by _id, the whole document)
    let moved_docs = match &after_move {
        Some(stored) => stored.clone(),
        None => documents(server, coll),
    };
    assert_eq!(moved_docs.len() as u64, total, "{coll}: documents lost by the contract");
    for d in &moved_docs {
        let id = d.get_object_id("_id").unwrap();
        let expected = match after_move {
            Some(_) => inserted[&id].clone(),
            None => moved(&inserted[&id], &renames),
        };
        assert_eq!(d, &expected, "{coll}: the contract's move (renames {renames:?})");
    }

    if let Some(stored) = after_move {
        for (what, fix) in fixes(&case.old, &case.new, coll, &renames) {
            let deletes = fix.contains_key("delete");
            let reply = command(server, fix);
            assert!(!reply.contains_key("writeErrors"), "{what}: {reply}");
            if deletes {
                ran.deleted += reply.get_i32("n").unwrap_or_default() as u64;
            }
        }
        let fixed = documents(server, coll);
        let still: Vec<Document> =
            fixed.iter().map(|d| moved(d, &renames)).filter(|d| !new_local.is_valid(d)).collect();
        assert!(still.is_empty(), "{coll}: the test's fixes left {} failing, e.g. {}", still.len(), still[0]);
        // a document that passed was left alone
        let before: HashMap<ObjectId, &Document> =
            stored.iter().map(|d| (d.get_object_id("_id").unwrap(), d)).collect();
        for d in &fixed {
            let was = before[&d.get_object_id("_id").unwrap()];
            if new_local.is_valid(&moved(was, &renames)) {
                assert_eq!(d, was, "{coll}: a fix changed a document that passed");
            }
        }
        let mut events = Vec::new();
        let outcomes = run(server, &files, true, &mut events)
            .unwrap_or_else(|e| panic!("{coll}: the contract after the fixes: {e} ({events:?})"));
        let Some(Outcome::Resumed { name: resumed, .. }) = outcomes.last() else { panic!("{outcomes:?}") };
        assert_eq!(resumed, &name);
    }

    // 6. nothing lost, everything valid, nothing under an old key, the model's validator enforced
    let end = documents(server, coll);
    assert_eq!(end.len() as u64, total - ran.deleted, "{coll}: documents lost");
    assert_eq!(failing(server, coll, &new_validator), 0, "{coll}: documents failing the new validator (server)");
    for d in &end {
        assert!(new_local.is_valid(d), "{coll}: fails the new validator: {d}");
        for (new, old) in &renames {
            assert!(!d.contains_key(old), "{coll}: `{old}` is still there: {d}");
            let id = d.get_object_id("_id").unwrap();
            let had = inserted[&id].contains_key(old) || inserted[&id].contains_key(new);
            assert_eq!(d.contains_key(new), had, "{coll}: `{new}` of {d}");
        }
    }
    assert_options(server, coll, &new_validator, "after the contract");
    if ran.deleted > 0 {
        assert!(case.changes.iter().any(|(c, _)| *c == Change::StringToDate), "only a text that is no date is deleted");
    }
    ran
}

/// A model of one required `name` of at most `max_len` characters.
fn name_model(collection: &str, max_len: i32) -> Model {
    let name =
        Field { id: "name".into(), key: "name".into(), kind: Kind::Str { max_len, dates: false }, required: true };
    model(&Spec { fields: vec![name], closed: false }, collection, Vec::new())
}

/// Inserts a document a writer that knows no model writes: a name of 15 characters; the
/// server's error when it refuses it.
fn legacy_insert(server: &mut MongoServer, collection: &str) -> Result<(), String> {
    let document = doc! { "_id": ObjectId::new(), "name": "x".repeat(15) };
    let reply = command(server, doc! { "insert": collection, "documents": [document] });
    match reply.get_array("writeErrors") {
        Ok(errors) => Err(errors[0].to_string()),
        Err(_) => Ok(()),
    }
}

/// The next release's migration arrives while an earlier contract is pending (its gate
/// refused, or nobody ran `apply --contract` yet). docs/MIGRATIONS.md: the expand enforces
/// nothing ("adopted collections under `warn` ... Nothing moves, nothing is enforced"), and
/// "a contract run later still ends right": it stops at a gate while stored documents fail
/// the validator it enforces. Three ways, each with names of 15 characters stored: a
/// tightening (20 -> 10) then a loosening (10 -> 12), both applied with `--contract`; a
/// collection adopted (its validator under warn/moderate) then a tightening (10 -> 8), or a
/// loosening (10 -> 12), applied without `--contract` (the applications already writing
/// there must not be refused), then with it.
#[test]
fn a_later_migration_never_enforces_past_a_pending_contract() {
    let test = "a_later_migration_never_enforces_past_a_pending_contract";
    let _deployment = DEPLOYMENT.lock().unwrap_or_else(|e| e.into_inner());
    let Some(mut server) = fresh(test) else { return };
    let server = &mut server;
    let naming = MigrateOptions { naming: Naming::Sequence, ..MigrateOptions::default() };
    let write = |dir: &Path, model: Model| drop(migrate(dir, &[model], &naming).unwrap().expect("a migration"));
    let mut wrong = Vec::new();

    // a tightening, then a loosening still tighter than what is stored: `apply --contract`
    let coll = "t_pending_staged";
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), name_model(coll, 20));
    run(server, &read_files(dir.path()), true, &mut Vec::new()).unwrap();
    for _ in 0..3 {
        legacy_insert(server, coll).expect("valid under the first model");
    }
    write(dir.path(), name_model(coll, 10));
    write(dir.path(), name_model(coll, 12));
    let mut events = Vec::new();
    let result = run(server, &read_files(dir.path()), true, &mut events);
    if !result.as_ref().is_err_and(|e| gate_count(&e.to_string()) == Some((3, 3))) {
        let installed = options(server, coll);
        let failing = failing(server, coll, installed.get_document("validator").unwrap());
        wrong.push(format!(
            "{coll}: apply --contract must stop at a gate naming the 3 stored documents; it returned {result:?} \
             and left {installed} with {failing} stored documents failing it (steps: {events:?})"
        ));
    }

    // an adopted collection, then the next release's tightening, or a loosening: apply only
    for (coll, next) in [("t_pending_adopted_tightened", 8), ("t_pending_adopted_loosened", 12)] {
        command(server, doc! { "create": coll });
        for _ in 0..3 {
            legacy_insert(server, coll).expect("no validator yet");
        }
        let dir = tempfile::tempdir().unwrap();
        write(dir.path(), name_model(coll, 10));
        run(server, &read_files(dir.path()), false, &mut Vec::new()).unwrap();
        assert_eq!(options(server, coll).get_str("validationAction").ok(), Some("warn"), "adopted");
        legacy_insert(server, coll).expect("adopted: warn");
        write(dir.path(), name_model(coll, next));
        let mut events = Vec::new();
        let outcomes = run(server, &read_files(dir.path()), false, &mut events).unwrap();
        if let Err(refused) = legacy_insert(server, coll) {
            wrong.push(format!(
                "{coll}: the release's apply ({outcomes:?}) left {}, and a writer of the adopted collection is \
                 refused: {refused}",
                options(server, coll)
            ));
        }
        let result = run(server, &read_files(dir.path()), true, &mut Vec::new());
        let installed = options(server, coll);
        let failing = failing(server, coll, installed.get_document("validator").unwrap());
        let stopped = result.as_ref().is_err_and(|e| gate_count(&e.to_string()).is_some_and(|(n, _)| n > 0));
        if !stopped && failing > 0 {
            wrong.push(format!(
                "{coll}: apply --contract returned {result:?} and left {installed} with {failing} stored documents \
                 failing it"
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
