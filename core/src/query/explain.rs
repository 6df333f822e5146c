//! A query's shape as a command mongod runs, with representative values of each key's kind
//! (a string where the model stores strings, a date where it stores dates, ...), and what
//! mongod's `explain` answers, read back and compared with the planner's [`Verdict`].
//!
//! `schema queries --explain` and the differential test against mongod both use it: the
//! explain of [`explain_command`] on a collection holding the model's indexes must show the
//! plan [`plan`](super::plan::plan) decided ([`differences`]).
//!
//! Values are chosen to satisfy the model's partial index expressions where the filter
//! names their keys (the planner assumes the query's values do).

use super::plan::{fit, IndexRef, Verdict};
use super::shape::{Direction, Filter, Literal, LiteralValue, Op, Shape};
use crate::bson::{doc, oid::ObjectId, Binary, Bson, DateTime, Decimal128, Document};
use crate::command::Registration;
use crate::schema::{BsonKind, FieldFacts, Shape as Container};
use mongo_schema_contract::options::IndexKey;

/// What the model stores at a dotted path: the value's kind (an array's items'), if known.
fn kind_at(fields: Option<&'static [FieldFacts]>, path: &str) -> Option<BsonKind> {
    let mut fields = fields?;
    let segments: Vec<&str> = path.split('.').collect();
    let mut i = 0;
    while i < segments.len() {
        let (_, field) = FieldFacts::written(fields, segments[i].as_bytes(), "")?;
        let facts = field.facts;
        i += 1;
        let array = matches!(facts.shape, Container::Array | Container::Set | Container::FixedArray);
        // a position into an array, or a map's key
        let position = array && segments.get(i).is_some_and(|s| s.bytes().all(|b| b.is_ascii_digit()));
        if position || (matches!(facts.shape, Container::Map) && i < segments.len()) {
            i += 1;
        }
        if i >= segments.len() {
            return Some(match facts.shape {
                Container::Scalar | Container::Document => facts.kind,
                _ => facts.item_kind,
            });
        }
        fields = field.fields?;
    }
    None
}

/// The `n`th representative value of `kind` (distinct for distinct `n`, ordered as `n` for
/// `n` in `-7..9000`: strings are padded, so that `"v0999" < "v1000" < "v1400"`).
pub fn value(kind: Option<BsonKind>, n: i64) -> Bson {
    match kind {
        Some(BsonKind::Int) => Bson::Int32(7 + n as i32),
        Some(BsonKind::Long) => Bson::Int64(7 + n),
        Some(BsonKind::Double) => Bson::Double(7.5 + n as f64),
        Some(BsonKind::Decimal) => {
            let mut bytes = [0u8; 16];
            // the coefficient, little-endian
            bytes[..2].copy_from_slice(&((7 + n) as u16).to_le_bytes());
            bytes[15] = 0x30;
            bytes[14] = 0x40;
            Bson::Decimal128(Decimal128::from_bytes(bytes))
        }
        Some(BsonKind::Date) => Bson::DateTime(DateTime::from_millis(1_767_225_600_000 + n * 86_400_000)),
        Some(BsonKind::ObjectId) => {
            let mut bytes = [0x65u8; 12];
            bytes[10..].copy_from_slice(&((n + 1000) as u16).to_be_bytes());
            Bson::ObjectId(ObjectId::from_bytes(bytes))
        }
        Some(BsonKind::Bool) => Bson::Boolean(n % 2 == 0),
        Some(BsonKind::BinData) => Bson::Binary(Binary {
            subtype: crate::bson::spec::BinarySubtype::Generic,
            bytes: ((n + 1000) as u16).to_be_bytes().repeat(2),
        }),
        Some(BsonKind::Object) => Bson::Document(doc! { "k": n }),
        Some(BsonKind::Null) => Bson::Null,
        _ => Bson::String(format!("v{:04}", n + 1000)),
    }
}

fn type_alias(kind: Option<BsonKind>) -> &'static str {
    match kind {
        Some(BsonKind::Int) => "int",
        Some(BsonKind::Long) => "long",
        Some(BsonKind::Double) => "double",
        Some(BsonKind::Decimal) => "decimal",
        Some(BsonKind::Date) => "date",
        Some(BsonKind::ObjectId) => "objectId",
        Some(BsonKind::Bool) => "bool",
        Some(BsonKind::BinData) => "binData",
        Some(BsonKind::Object) => "object",
        _ => "string",
    }
}

/// A partial expression's condition on one key.
#[derive(Clone, Debug)]
struct Condition {
    path: String,
    op: String,
    value: Bson,
}

fn conditions(model: &Registration) -> Vec<Condition> {
    fn walk(filter: &Document, out: &mut Vec<Condition>) {
        for (key, value) in filter {
            if key == "$and" {
                if let Bson::Array(items) = value {
                    for item in items {
                        if let Bson::Document(d) = item {
                            walk(d, out);
                        }
                    }
                }
            } else if let Bson::Document(ops) = value {
                if ops.keys().next().is_some_and(|k| k.starts_with('$')) {
                    for (op, v) in ops {
                        out.push(Condition { path: key.clone(), op: op.clone(), value: v.clone() });
                    }
                    continue;
                }
                out.push(Condition { path: key.clone(), op: "$eq".into(), value: value.clone() });
            } else {
                out.push(Condition { path: key.clone(), op: "$eq".into(), value: value.clone() });
            }
        }
    }
    let mut out = Vec::new();
    for index in model.indexes {
        if let Some(text) = index.partial {
            let parsed = serde_json::from_str::<serde_json::Value>(text).ok().and_then(|j| Bson::try_from(j).ok());
            if let Some(Bson::Document(filter)) = parsed {
                walk(&filter, &mut out);
            }
        }
    }
    out
}

fn add(value: &Bson, n: i64) -> Bson {
    match value {
        Bson::Int32(v) => Bson::Int32(v + n as i32),
        Bson::Int64(v) => Bson::Int64(v + n),
        Bson::Double(v) => Bson::Double(v + n as f64),
        other => other.clone(),
    }
}

/// Above every representative value of a `$in` that the planner counts (past 200 values it
/// merges no scans).
const RANGE_TOP: i64 = 400;

/// Builds filters, sorts and projections from shapes.
struct Builder<'a> {
    model: &'a Registration,
    partial: Vec<Condition>,
    /// The query's own literals (top level): used as written, as the planner reads them.
    literals: &'a [Literal],
}

impl Builder<'_> {
    /// The `n`th value for `op` on `path`: the query's literal there, else one inside what a
    /// partial expression asks of it.
    fn value(&self, path: &str, op: &Op, n: i64) -> Bson {
        let kind = kind_at(self.model.fields, path);
        let name = match op {
            Op::Eq => Some("$eq"),
            Op::Gt => Some("$gt"),
            Op::Gte => Some("$gte"),
            Op::Lt => Some("$lt"),
            Op::Lte => Some("$lte"),
            _ => None,
        };
        if let Some(l) = self.literals.iter().find(|l| Some(l.op) == name && l.path == path) {
            return match l.value {
                LiteralValue::Int(v) if matches!(kind, Some(BsonKind::Int)) => Bson::Int32(v as i32),
                LiteralValue::Int(v) => Bson::Int64(v),
                LiteralValue::Str(v) => Bson::String(v.to_owned()),
                LiteralValue::Bool(v) => Bson::Boolean(v),
            };
        }
        for c in self.partial.iter().filter(|c| c.path == path) {
            let chosen = match (c.op.as_str(), op) {
                // several values: distinct, so that the filter implies no equality
                ("$eq", Op::In { .. } | Op::Nin) => None,
                ("$eq", _) => Some(c.value.clone()),
                ("$gt", Op::Gt) | ("$gte", Op::Gt | Op::Gte) | ("$lt", Op::Lt) | ("$lte", Op::Lt | Op::Lte) => {
                    Some(c.value.clone())
                }
                ("$gt", _) => Some(add(&c.value, 1 + n)),
                ("$gte", _) => Some(add(&c.value, n)),
                ("$lt", _) => Some(add(&c.value, -1 - n)),
                ("$lte", _) => Some(add(&c.value, -n)),
                ("$in", _) => match &c.value {
                    Bson::Array(items) if !items.is_empty() => Some(items[(n as usize) % items.len()].clone()),
                    _ => None,
                },
                _ => None,
            };
            if let Some(v) = chosen {
                return v;
            }
        }
        value(kind, n)
    }

    fn geo_legacy(&self, path: &str) -> bool {
        self.model.indexes.iter().any(|i| i.keys.iter().any(|(k, kind)| *k == path && matches!(kind, IndexKey::Geo2d)))
    }

    /// The operator document `{ "$op": value }` (or the bare value of an equality).
    fn op(&self, path: &str, op: &Op) -> (Option<&'static str>, Bson) {
        let v = |n| self.value(path, op, n);
        match op {
            Op::Eq => (None, v(0)),
            Op::EqNull => (None, Bson::Null),
            // negations of other values than the equalities' and the `$in`s' (the planner
            // takes them so: `{$in: [a, b], $ne: c}` keeps both points)
            Op::Ne => (Some("$ne"), v(-3)),
            // a range around the equality's value, `v(0)`, and every value of a `$in`,
            // `v(0)..v(len)`, as a query asking both means: one that cut the `$in`'s points
            // to one would let mongod sort from an index the planner (which knows no value)
            // does not count on
            Op::Gt => (Some("$gt"), v(-1)),
            Op::Gte => (Some("$gte"), v(0)),
            Op::Lt => (Some("$lt"), v(RANGE_TOP)),
            Op::Lte => (Some("$lte"), v(RANGE_TOP)),
            Op::In { len, null } => {
                let n = len.unwrap_or(3) as i64;
                let mut items: Vec<Bson> = (0..n).map(v).collect();
                if *null {
                    items.push(Bson::Null);
                }
                (Some("$in"), Bson::Array(items))
            }
            Op::Nin => (Some("$nin"), Bson::Array(vec![v(-3), v(-4)])),
            Op::Exists(b) => (Some("$exists"), Bson::Boolean(*b)),
            Op::Type => (Some("$type"), Bson::String(type_alias(kind_at(self.model.fields, path)).into())),
            Op::Regex { prefix: true } => (Some("$regex"), Bson::String("^v".into())),
            Op::Regex { prefix: false } => (Some("$regex"), Bson::String("v".into())),
            Op::Size => (Some("$size"), Bson::Int32(2)),
            Op::All => (Some("$all"), Bson::Array(vec![v(0)])),
            Op::ElemMatch(inner) => (Some("$elemMatch"), Bson::Document(self.conj(inner, &format!("{path}.")))),
            Op::ElemMatchValue(ops) => {
                let mut d = Document::new();
                for op in ops.iter() {
                    let (name, value) = self.op(path, op);
                    d.insert(name.unwrap_or("$eq"), value);
                }
                (Some("$elemMatch"), Bson::Document(d))
            }
            Op::Mod => (Some("$mod"), Bson::Array(vec![Bson::Int32(2), Bson::Int32(0)])),
            Op::Not(inner) => {
                // what it negates holds none of the other predicates' values: past the
                // ranges' ends, other values, a prefix no representative string has
                let (name, value) = match inner {
                    Op::Gt => (Some("$gt"), v(RANGE_TOP)),
                    Op::Gte => (Some("$gte"), v(RANGE_TOP)),
                    Op::Lt => (Some("$lt"), v(-5)),
                    Op::Lte => (Some("$lte"), v(-5)),
                    Op::Eq => (Some("$eq"), v(-3)),
                    Op::In { .. } => (Some("$in"), Bson::Array(vec![v(-3), v(-4)])),
                    Op::Regex { prefix: true } => (Some("$regex"), Bson::String("^x".into())),
                    Op::Regex { prefix: false } => (Some("$regex"), Bson::String("x".into())),
                    other => self.op(path, other),
                };
                (Some("$not"), Bson::Document(doc! { name.unwrap_or("$eq"): value }))
            }
            Op::Near => match self.geo_legacy(path) {
                true => (Some("$near"), Bson::Array(vec![Bson::Double(0.0), Bson::Double(0.0)])),
                false => (
                    Some("$near"),
                    Bson::Document(doc! {
                        "$geometry": { "type": "Point", "coordinates": [0.0, 0.0] },
                        "$maxDistance": 1000.0,
                    }),
                ),
            },
            Op::GeoWithin => (Some("$geoWithin"), Bson::Document(doc! { "$centerSphere": [[0.0, 0.0], 0.01] })),
        }
    }

    /// A conjunction as a filter document; `prefix` is the path of an `$elemMatch`'s array.
    fn conj(&self, conj: &[Filter], prefix: &str) -> Document {
        let mut out = Document::new();
        let mut and: Vec<Bson> = Vec::new();
        for node in conj {
            match node {
                Filter::Pred(pred) => {
                    let full = format!("{prefix}{}", pred.path);
                    let (name, value) = self.op(&full, &pred.op);
                    match (name, out.get_mut(pred.path)) {
                        (None, None) => {
                            out.insert(pred.path, value);
                        }
                        (Some(name), None) => {
                            out.insert(pred.path, doc! { name: value });
                        }
                        (name, Some(Bson::Document(ops))) if ops.keys().all(|k| k.starts_with('$')) => {
                            let name = name.unwrap_or("$eq");
                            if ops.contains_key(name) {
                                and.push(Bson::Document(doc! { pred.path: { name: value } }));
                            } else {
                                ops.insert(name, value);
                            }
                        }
                        (name, Some(existing)) => {
                            // an equality already there: both as operators
                            let first = existing.clone();
                            let name = name.unwrap_or("$eq");
                            *existing = Bson::Document(doc! { "$eq": first });
                            if let Some(Bson::Document(ops)) = out.get_mut(pred.path) {
                                if ops.contains_key(name) {
                                    and.push(Bson::Document(doc! { pred.path: { name: value } }));
                                } else {
                                    ops.insert(name, value);
                                }
                            }
                        }
                    }
                }
                Filter::And(branches) => and.extend(branches.iter().map(|b| Bson::Document(self.conj(b, prefix)))),
                Filter::Or(branches) => {
                    let items: Vec<Bson> = branches.iter().map(|b| Bson::Document(self.conj(b, prefix))).collect();
                    if out.contains_key("$or") {
                        and.push(Bson::Document(doc! { "$or": items }));
                    } else {
                        out.insert("$or", items);
                    }
                }
                Filter::Nor(branches) => {
                    let items: Vec<Bson> = branches.iter().map(|b| Bson::Document(self.conj(b, prefix))).collect();
                    out.insert("$nor", items);
                }
                Filter::Text => {
                    out.insert("$text", doc! { "$search": "word" });
                }
                Filter::Opaque(_) => {
                    // a comparison of the document with itself: opaque to the planner
                    out.insert("$expr", doc! { "$eq": [{ "$type": "$_id" }, { "$type": "$_id" }] });
                }
            }
        }
        if !and.is_empty() {
            out.insert("$and", and);
        }
        out
    }
}

/// `shape`'s filter with representative values of each key's kind.
pub fn filter(shape: &Shape, model: &Registration) -> Document {
    Builder { model, partial: conditions(model), literals: shape.literals }.conj(shape.filter, "")
}

/// `shape`'s sort document (empty without a sort).
pub fn sort(shape: &Shape) -> Document {
    shape
        .sort
        .iter()
        .map(|(path, dir)| ((*path).to_owned(), Bson::Int32(if matches!(dir, Direction::Descending) { -1 } else { 1 })))
        .collect()
}

/// `shape`'s projection document (empty without one).
pub fn projection(shape: &Shape) -> Document {
    shape.projection.iter().map(|(path, include)| ((*path).to_owned(), Bson::Int32(i32::from(*include)))).collect()
}

/// The `find` command of `shape` on `collection`.
pub fn find_command(shape: &Shape, model: &Registration, collection: &str) -> Document {
    let mut find = doc! { "find": collection, "filter": filter(shape, model) };
    if !shape.sort.is_empty() {
        find.insert("sort", sort(shape));
    }
    if !shape.projection.is_empty() {
        find.insert("projection", projection(shape));
    }
    if let Some(limit) = shape.limit {
        find.insert("limit", Bson::Int64(limit.min(i64::MAX as u64) as i64));
    }
    if let Some(skip) = shape.skip {
        find.insert("skip", Bson::Int64(skip.min(i64::MAX as u64) as i64));
    }
    find
}

/// `{explain: find, verbosity: "queryPlanner"}` of `shape` on `collection`.
pub fn explain_command(shape: &Shape, model: &Registration, collection: &str) -> Document {
    doc! { "explain": find_command(shape, model, collection), "verbosity": "queryPlanner" }
}

/// What one plan of an `explain` holds.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PlanStages {
    /// Every stage's name, depth first.
    pub stages: Vec<String>,
    /// The `indexName` of every index scan, in order.
    pub indexes: Vec<String>,
}

impl PlanStages {
    /// The plan has a stage of that name.
    pub fn has(&self, stage: &str) -> bool {
        self.stages.iter().any(|s| s == stage)
    }

    fn read(plan: &Document) -> PlanStages {
        fn walk(node: &Document, out: &mut PlanStages) {
            let node = node.get_document("queryPlan").unwrap_or(node);
            if let Ok(stage) = node.get_str("stage") {
                out.stages.push(stage.to_owned());
            }
            if let Ok(name) = node.get_str("indexName") {
                out.indexes.push(name.to_owned());
            }
            if let Ok(input) = node.get_document("inputStage") {
                walk(input, out);
            }
            if let Ok(inputs) = node.get_array("inputStages") {
                for input in inputs {
                    if let Bson::Document(input) = input {
                        walk(input, out);
                    }
                }
            }
        }
        let mut out = PlanStages::default();
        walk(plan, &mut out);
        out
    }
}

/// mongod's `explain` (queryPlanner) of a find, as far as the verdict cares.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Observed {
    /// The winning plan.
    pub winning: PlanStages,
    /// The plans mongod tried and rejected.
    pub rejected: Vec<PlanStages>,
}

impl Observed {
    /// Reads an `explain` reply (a sharded one: the first shard's).
    pub fn read(explain: &Document) -> Option<Observed> {
        let mut planner = explain.get_document("queryPlanner").ok()?;
        if let Ok(shards) = planner.get_document("winningPlan").and_then(|w| w.get_array("shards")) {
            planner = match shards.first() {
                Some(Bson::Document(shard)) => shard,
                _ => return None,
            };
        }
        let winning = PlanStages::read(planner.get_document("winningPlan").ok()?);
        let rejected = match planner.get_array("rejectedPlans") {
            Ok(plans) => plans
                .iter()
                .filter_map(|p| match p {
                    Bson::Document(d) => Some(PlanStages::read(d)),
                    _ => None,
                })
                .collect(),
            Err(_) => Vec::new(),
        };
        Some(Observed { winning, rejected })
    }

    /// The indexes of every plan mongod considered (index intersections aside).
    pub fn considered(&self) -> std::collections::BTreeSet<String> {
        std::iter::once(&self.winning)
            .chain(&self.rejected)
            .filter(|p| !p.has("AND_SORTED") && !p.has("AND_HASH"))
            .flat_map(|p| p.indexes.iter().cloned())
            .collect()
    }
}

fn names(model: &Registration, bits: u64) -> Vec<&'static str> {
    let mut out = Vec::new();
    for n in 0..model.indexes.len() {
        if bits & IndexRef::Declared(n).bit() != 0 {
            out.push(model.indexes[n].name);
        }
    }
    if bits & IndexRef::Id.bit() != 0 {
        out.push("_id_");
    }
    out
}

fn by_name(model: &Registration, name: &str) -> Option<IndexRef> {
    if name == "_id_" {
        return Some(IndexRef::Id);
    }
    model.indexes.iter().position(|i| i.name == name).map(IndexRef::Declared)
}

/// Where mongod's plan differs from the verdict: one sentence each; empty when it agrees.
/// With `strict`, the indexes mongod considered must also be the verdict's candidates.
pub fn differences(
    shape: &Shape,
    model: &Registration,
    verdict: &Verdict,
    observed: &Observed,
    strict: bool,
) -> Vec<String> {
    let mut out = Vec::new();
    let w = &observed.winning;
    let sorted = w.has("SORT");
    let fetched = w.has("FETCH") || w.has("IDHACK") || w.has("COLLSCAN") || w.has("TEXT_MATCH");
    let collscan = w.has("COLLSCAN") && w.indexes.is_empty();
    match verdict.index {
        None => {
            if !collscan {
                out.push(format!(
                    "mongod uses index {} where the verdict is a collection scan",
                    w.indexes.first().map_or("?", String::as_str)
                ));
            }
        }
        Some(_) if collscan => {
            out.push(format!(
                "mongod scans the collection (COLLSCAN) where the verdict names index {}",
                names(model, verdict.candidates).join(" or ")
            ));
        }
        Some(_) if verdict.id_hack => {
            if !w.has("IDHACK") && !w.indexes.iter().any(|i| i == "_id_") {
                out.push(format!("mongod's plan is {:?} where the verdict is IDHACK", w.stages));
            }
        }
        Some(_) if verdict.or => {
            // the branches' scans (mongod merges scans of one index into one), or a walk of
            // an index for the sort
            let walk = w.indexes.len() == 1
                && !sorted
                && by_name(model, &w.indexes[0]).is_some_and(|r| verdict.sort_scans & r.bit() != 0);
            for name in &w.indexes {
                match by_name(model, name) {
                    Some(r) if (verdict.candidates | verdict.sort_scans) & r.bit() != 0 => {}
                    _ => out.push(format!("mongod's $or uses index {name}, which the verdict does not name")),
                }
            }
            if sorted != verdict.sort_in_memory && !walk {
                out.push(sort_difference(sorted));
            }
        }
        Some(chosen) => {
            let used = w.indexes.first().and_then(|n| by_name(model, n));
            let planned = verdict.candidates | verdict.sort_scans;
            match used {
                None => out.push(format!("mongod's plan {:?} uses no declared index", w.stages)),
                Some(r) if planned & r.bit() == 0 => out.push(format!(
                    "mongod uses index {} where the verdict names {} (candidates: {})",
                    r.index(model).name,
                    chosen.index(model).name,
                    names(model, planned).join(", ")
                )),
                Some(r) => {
                    // another plan on equal footing: judge that plan. An index both bounded
                    // and walked whole for the sort: the plan without a SORT stage is the walk.
                    let f = if r == chosen { verdict.fit } else { fit(shape, model, r) };
                    let walk = verdict.sort_scans & r.bit() != 0 && (verdict.candidates & r.bit() == 0 || !sorted);
                    let whole = if r == chosen && !walk { verdict.whole_index } else { walk };
                    let text = w.has("TEXT_MATCH") || w.has("GEO_NEAR_2DSPHERE") || w.has("GEO_NEAR_2D");
                    let expect_sort = if r == chosen && !walk {
                        verdict.sort_in_memory
                    } else {
                        !(shape.sort.is_empty() || whole || f.provides_sort || f.merge_sort)
                    };
                    if sorted != expect_sort {
                        out.push(sort_difference(sorted));
                    }
                    let covered = f.covered && !text && !verdict.id_hack;
                    if !text && covered == fetched {
                        out.push(match covered {
                            true => format!(
                                "mongod fetches documents (FETCH) where index {} covers the query",
                                r.index(model).name
                            ),
                            false => format!(
                                "mongod covers the query from index {} where the verdict fetches",
                                r.index(model).name
                            ),
                        });
                    }
                }
            }
        }
    }
    // the index the verdict names must be one mongod planned with (a deployment without
    // it, or where it differs, plans with others)
    if let (Some(r), false, false) = (verdict.index, verdict.or, verdict.id_hack) {
        let name = r.index(model).name;
        if !collscan && !observed.considered().contains(name) {
            out.push(format!(
                "mongod did not plan with index {name}, which the verdict names (is it on the deployment?)"
            ));
        }
    }
    if strict && !verdict.or && !verdict.id_hack {
        let considered = observed.considered();
        let expected: std::collections::BTreeSet<String> =
            names(model, verdict.candidates | verdict.sort_scans).into_iter().map(str::to_owned).collect();
        if considered != expected && verdict.index.is_some() {
            out.push(format!(
                "mongod considers indexes {considered:?} where the verdict's candidates are {expected:?}"
            ));
        }
    }
    out
}

fn sort_difference(sorted: bool) -> String {
    match sorted {
        true => "mongod sorts in memory (a SORT stage) where the verdict has the index provide the sort".into(),
        false => "mongod returns the sort from the index where the verdict sorts in memory".into(),
    }
}
