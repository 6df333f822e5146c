//! The catalogue of a program's queries (`schema queries`): every registered `query!` with
//! its shape, the index mongod gives it ([`plan`]), and per model the indexes no query
//! uses and those that are a prefix of another; and, against a deployment, where mongod's
//! `explain` differs from the verdicts ([`explain_check`], `schema queries --explain`).
//!
//! The JSON form ([`Catalogue`], serialized as is) is stable: fields are only added.

use mongo_schema_contract::options::IndexKey;
use mongo_schema_contract::rules::ConstMessage;
use mongo_schema_core::command::{Index, Registration};
use mongo_schema_core::query::plan::{self, message, problem, waived, IndexRef, Rule, Unindexed, Verdict};
use mongo_schema_core::query::{Direction, Filter, Op, RegisteredQuery, Shape};
use serde::Serialize;

/// Every model with queries or indexes, in `db`, `collection` order.
#[derive(Debug, Clone, Serialize)]
pub struct Catalogue {
    /// One entry a model.
    pub models: Vec<ModelQueries>,
    /// Unwaived rule breaks and redundant indexes: `schema queries` exits 1 when not 0.
    pub problems: usize,
}

/// One model's queries and indexes.
#[derive(Debug, Clone, Serialize)]
pub struct ModelQueries {
    /// The Rust type.
    pub model: String,
    /// The database.
    pub db: String,
    /// The collection.
    pub collection: String,
    /// The shard key's paths (empty: not sharded).
    pub shard_key: Vec<String>,
    /// The registered queries on it, by location.
    pub queries: Vec<QueryEntry>,
    /// Declared indexes no registered query uses (unique and TTL indexes aside: they serve
    /// writes and expiry). Listed, not a problem: queries in other programs may use them.
    pub unused_indexes: Vec<IndexEntry>,
    /// Declared indexes whose keys are a prefix of another's: every query they serve the
    /// longer one serves, and each costs every write. A problem.
    pub redundant_indexes: Vec<Redundant>,
}

/// An index: its name and key pattern.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct IndexEntry {
    /// The index name.
    pub name: String,
    /// The keys, in order: `(path, 1 | -1 | "hashed" | ...)`.
    pub keys: Vec<(String, serde_json::Value)>,
}

/// A redundant index and the index it is a prefix of.
#[derive(Debug, Clone, Serialize)]
pub struct Redundant {
    /// The shorter index.
    pub index: IndexEntry,
    /// The index whose keys begin with its keys.
    pub prefix_of: String,
}

/// A sort key.
#[derive(Debug, Clone, Serialize)]
pub struct SortKey {
    /// The path.
    pub key: String,
    /// `1` or `-1`.
    pub direction: i8,
}

/// One registered query and its verdict.
#[derive(Debug, Clone, Serialize)]
pub struct QueryEntry {
    /// `name = ".."`, else `module:line`.
    pub name: String,
    /// `file:line`.
    pub location: String,
    /// Keys compared for equality (`$eq`, `$in`, `$all`, `null`).
    pub equality: Vec<String>,
    /// Keys compared by range (`$gt`, `$lt`, ..., an anchored `$regex`).
    pub range: Vec<String>,
    /// Keys with other operators (`$ne`, `$exists`, `$regex`, `$elemMatch`, ...).
    pub other: Vec<String>,
    /// The sort.
    pub sort: Vec<SortKey>,
    /// How mongod answers it: `IXSCAN`, `IDHACK`, `OR`, `WHOLE_INDEX` (an index walked whole
    /// for the sort), `TEXT`, `GEO_NEAR` or `COLLSCAN`.
    pub plan: String,
    /// The index (for `OR`: the first branch's), if any.
    pub index: Option<IndexEntry>,
    /// For `OR`: each branch's index.
    pub or_indexes: Vec<IndexEntry>,
    /// Leading keys of the index that bound the scan.
    pub bound_keys: u32,
    /// A `SORT` stage: the sort is done in memory.
    pub sort_in_memory: bool,
    /// No `FETCH`: the index answers the query.
    pub covered: bool,
    /// On a sharded model: sent to the shards its shard key names (`false`: to every
    /// shard). `None` for a model without a shard key.
    pub targeted: Option<bool>,
    /// The indexes mongod also plans with, on equal footing.
    pub candidates: Vec<String>,
    /// The rules it breaks, waived or not.
    pub problems: Vec<QueryProblem>,
}

/// A rule a query breaks.
#[derive(Debug, Clone, Serialize)]
pub struct QueryProblem {
    /// The rule id.
    pub rule: String,
    /// What is wrong and the fix.
    pub message: String,
    /// The reason of its `allow(rule, reason = "..")`, when waived.
    pub waived: Option<String>,
}

fn entry(index: &Index) -> IndexEntry {
    let keys = index
        .keys
        .iter()
        .map(|(path, kind)| {
            let value = match kind {
                IndexKey::Ascending => serde_json::json!(1),
                IndexKey::Descending => serde_json::json!(-1),
                other => serde_json::json!(other.suffix()),
            };
            ((*path).to_owned(), value)
        })
        .collect();
    IndexEntry { name: index.name.to_owned(), keys }
}

fn collect_keys(conj: &[Filter], eq: &mut Vec<String>, range: &mut Vec<String>, other: &mut Vec<String>, prefix: &str) {
    fn push(list: &mut Vec<String>, key: String) {
        if !list.contains(&key) {
            list.push(key);
        }
    }
    for node in conj {
        match node {
            Filter::Pred(pred) => {
                let key = format!("{prefix}{}", pred.path);
                match &pred.op {
                    Op::Eq | Op::EqNull | Op::In { .. } | Op::All => push(eq, key),
                    Op::Gt | Op::Gte | Op::Lt | Op::Lte | Op::Regex { prefix: true } => push(range, key),
                    Op::ElemMatch(inner) => collect_keys(inner, eq, range, other, &format!("{key}.")),
                    _ => push(other, key),
                }
            }
            Filter::And(branches) | Filter::Or(branches) | Filter::Nor(branches) => {
                for branch in branches.iter() {
                    collect_keys(branch, eq, range, other, prefix);
                }
            }
            Filter::Text => push(other, "$text".into()),
            Filter::Opaque(op) => push(other, (*op).to_owned()),
        }
    }
}

fn plan_name(shape: &Shape, v: &Verdict) -> &'static str {
    if v.id_hack {
        "IDHACK"
    } else if v.or {
        "OR"
    } else if v.whole_index {
        "WHOLE_INDEX"
    } else if matches!(v.unindexed, Some(Unindexed::NoTextIndex | Unindexed::NoGeoIndex)) {
        "REFUSED"
    } else if v.index.is_none() {
        "COLLSCAN"
    } else if shape.filter.iter().any(|f| matches!(f, Filter::Text)) {
        "TEXT"
    } else if shape.filter.iter().any(|f| matches!(f, Filter::Pred(p) if matches!(p.op, Op::Near))) {
        "GEO_NEAR"
    } else {
        "IXSCAN"
    }
}

fn names(model: &Registration, bits: u64) -> Vec<String> {
    let mut out: Vec<String> = (0..model.indexes.len())
        .filter(|n| bits & IndexRef::Declared(*n).bit() != 0)
        .map(|n| model.indexes[n].name.to_owned())
        .collect();
    if bits & IndexRef::Id.bit() != 0 {
        out.push("_id_".into());
    }
    out
}

/// The name of a query in reports: its `name`, else `module:line`.
pub fn query_name(shape: &Shape) -> String {
    match shape.name {
        Some(name) => name.to_owned(),
        None => format!("{}:{}", shape.module, shape.line),
    }
}

/// One query's entry.
pub fn query_entry(shape: &Shape, model: &Registration) -> QueryEntry {
    let v = plan::plan(shape, model);
    let (mut equality, mut range, mut other) = (Vec::new(), Vec::new(), Vec::new());
    collect_keys(shape.filter, &mut equality, &mut range, &mut other, "");
    let problems = Rule::ALL
        .iter()
        .filter(|rule| match rule {
            Rule::SortInMemory => v.sort_in_memory && shape.limit.is_none(),
            _ => v.breaks(**rule),
        })
        .map(|rule| QueryProblem {
            rule: rule.id().to_owned(),
            message: text(message(shape, model, &v, *rule)),
            waived: shape.allow.iter().find(|(id, _)| *id == rule.id()).map(|(_, reason)| (*reason).to_owned()),
        })
        .collect();
    let _ = (problem, waived);
    QueryEntry {
        name: query_name(shape),
        location: format!("{}:{}", shape.file, shape.line),
        equality,
        range,
        other,
        sort: shape
            .sort
            .iter()
            .map(|(key, dir)| SortKey {
                key: (*key).to_owned(),
                direction: if matches!(dir, Direction::Descending) { -1 } else { 1 },
            })
            .collect(),
        plan: plan_name(shape, &v).to_owned(),
        index: v.index.map(|r| entry(r.index(model))),
        or_indexes: match v.or {
            true => v.or_branches.iter().take(v.or_len).flatten().map(|r| entry(r.index(model))).collect(),
            false => Vec::new(),
        },
        bound_keys: v.fit.bound_keys,
        sort_in_memory: v.sort_in_memory,
        covered: v.covered(),
        targeted: (!model.shard_key.is_empty()).then_some(!v.broadcast),
        candidates: names(model, v.candidates | v.sort_scans),
        problems,
    }
}

fn text(m: ConstMessage) -> String {
    m.as_str().to_owned()
}

/// `short` serves no query `long` does not: its keys are a prefix of `long`'s (in the same
/// or the opposite directions), and it has nothing of its own (uniqueness, a TTL, a partial
/// or sparse set of documents, another collation, hiding).
fn redundant(short: &Index, long: &Index) -> bool {
    let btree = |i: &Index| i.keys.iter().all(|(_, k)| matches!(k, IndexKey::Ascending | IndexKey::Descending));
    if !btree(short) || !btree(long) || short.keys.len() >= long.keys.len() {
        return false;
    }
    if short.unique || short.ttl.is_some() || short.partial.is_some() || short.sparse || short.hidden {
        return false;
    }
    if short.collation != long.collation || long.partial.is_some() || long.sparse || long.hidden {
        return false;
    }
    let same = short.keys.iter().zip(long.keys).all(|(a, b)| a == b);
    let reversed = short.keys.iter().zip(long.keys).all(|((pa, ka), (pb, kb))| pa == pb && ka != kb);
    same || reversed
}

/// The catalogue of `queries` over `models` (the registered models; a model a query names
/// that is not among them is added).
pub fn catalogue(models: &[&Registration], queries: &[&RegisteredQuery]) -> Catalogue {
    let mut regs: Vec<Registration> = models.iter().map(|m| **m).collect();
    for q in queries {
        let model = (q.model)(q.rust_type);
        if !regs.iter().any(|r| r.db == model.db && r.collection == model.collection) {
            regs.push(model);
        }
    }
    regs.sort_by_key(|r| (r.db, r.collection));
    let mut problems = 0;
    let mut out = Vec::new();
    for model in &regs {
        let mut mine: Vec<&&RegisteredQuery> = queries
            .iter()
            .filter(|q| {
                let m = (q.model)(q.rust_type);
                m.db == model.db && m.collection == model.collection
            })
            .collect();
        mine.sort_by_key(|q| (q.shape.file, q.shape.line, q.shape.name));
        // each query planned on the model as its query names it (same indexes)
        let entries: Vec<QueryEntry> = mine.iter().map(|q| query_entry(&q.shape, model)).collect();
        problems += entries.iter().flat_map(|e| &e.problems).filter(|p| p.waived.is_none()).count();
        let used: Vec<&str> =
            entries.iter().flat_map(|e| e.index.iter().chain(&e.or_indexes)).map(|i| i.name.as_str()).collect();
        let unused = model
            .indexes
            .iter()
            .filter(|i| !used.contains(&i.name) && !i.unique && i.ttl.is_none())
            .map(entry)
            .collect();
        let redundant_indexes: Vec<Redundant> = model
            .indexes
            .iter()
            .filter_map(|short| {
                model
                    .indexes
                    .iter()
                    .find(|long| redundant(short, long))
                    .map(|long| Redundant { index: entry(short), prefix_of: long.name.to_owned() })
            })
            .collect();
        problems += redundant_indexes.len();
        if entries.is_empty() && model.indexes.is_empty() {
            continue;
        }
        out.push(ModelQueries {
            model: model.rust_type.to_owned(),
            db: model.db.to_owned(),
            collection: model.collection.to_owned(),
            shard_key: model.shard_key.iter().map(|(p, _)| (*p).to_owned()).collect(),
            queries: entries,
            unused_indexes: unused,
            redundant_indexes,
        });
    }
    Catalogue { models: out, problems }
}

fn keys_text(index: &IndexEntry) -> String {
    let keys: Vec<String> = index.keys.iter().map(|(p, v)| format!("{p}: {v}")).collect();
    format!("{} {{{}}}", index.name, keys.join(", "))
}

/// The catalogue for people.
pub fn text_report(catalogue: &Catalogue) -> String {
    let mut out = String::new();
    let yes = |b: bool| if b { "yes" } else { "no" };
    for model in &catalogue.models {
        out.push_str(&format!("{} ({}.{})\n", model.model, model.db, model.collection));
        if model.queries.is_empty() {
            out.push_str("  no registered query\n");
        }
        for q in &model.queries {
            out.push_str(&format!("  query `{}` ({})\n", q.name, q.location));
            let sort: Vec<String> = q.sort.iter().map(|s| format!("{} {}", s.key, s.direction)).collect();
            let list = |l: &[String]| if l.is_empty() { "-".to_owned() } else { l.join(", ") };
            out.push_str(&format!(
                "    equality: {}   range: {}   other: {}   sort: {}\n",
                list(&q.equality),
                list(&q.range),
                list(&q.other),
                list(&sort)
            ));
            let index = match (&q.index, q.plan.as_str()) {
                (_, "OR") => {
                    let branches: Vec<String> = q.or_indexes.iter().map(keys_text).collect();
                    format!("$or, one scan a branch: {}", branches.join("; "))
                }
                (Some(i), "WHOLE_INDEX") => format!("{} walked whole for the sort (no bounds)", keys_text(i)),
                (Some(i), _) => format!("{}, {} leading key(s) bound", keys_text(i), q.bound_keys),
                (None, "REFUSED") => "none: mongod refuses the query".to_owned(),
                (None, _) => "none (COLLSCAN)".to_owned(),
            };
            out.push_str(&format!("    plan: {}   index: {index}\n", q.plan));
            let targeted = match q.targeted {
                None => "not sharded".to_owned(),
                Some(true) => "targeted".to_owned(),
                Some(false) => "broadcast".to_owned(),
            };
            out.push_str(&format!(
                "    sort in memory: {}   covered: {}   {targeted}\n",
                yes(q.sort_in_memory),
                yes(q.covered)
            ));
            for p in &q.problems {
                match &p.waived {
                    Some(reason) => out.push_str(&format!("    waived {}: {reason}\n", p.rule)),
                    None => out.push_str(&format!("    {}\n", p.message)),
                }
            }
        }
        if !model.unused_indexes.is_empty() {
            let list: Vec<String> = model.unused_indexes.iter().map(keys_text).collect();
            out.push_str(&format!("  indexes no registered query uses: {}\n", list.join("; ")));
        }
        for r in &model.redundant_indexes {
            out.push_str(&format!(
                "  redundant index: {} is a prefix of {}: drop it (every write maintains it)\n",
                keys_text(&r.index),
                r.prefix_of
            ));
        }
    }
    out.push_str(&format!("{} problem(s)\n", catalogue.problems));
    out
}

/// Where mongod's plan for one query differs from its verdict.
#[cfg(feature = "review")]
#[derive(Debug, Clone, Serialize)]
pub struct ExplainDifference {
    /// The model.
    pub model: String,
    /// The query.
    pub query: String,
    /// `file:line`.
    pub location: String,
    /// What differs, or why the explain could not run.
    pub differences: Vec<String>,
}

/// Runs `explain` (queryPlanner) of every query on `server`, with representative values of
/// each key's kind, and lists where mongod's winning plan differs from the verdict (another
/// candidate on equal footing is no difference).
#[cfg(feature = "review")]
pub fn explain_check(
    server: &mut dyn mongo_schema_migrate::server::Server,
    queries: &[&RegisteredQuery],
) -> Vec<ExplainDifference> {
    use mongo_schema_core::query::explain;
    let mut out = Vec::new();
    for q in queries {
        let model = (q.model)(q.rust_type);
        let verdict = plan::plan(&q.shape, &model);
        let command = explain::explain_command(&q.shape, &model, model.collection);
        let differences = match server.run_command(model.db, command) {
            Ok(reply) => match explain::Observed::read(&reply) {
                Some(observed) => explain::differences(&q.shape, &model, &verdict, &observed, false),
                None => vec![format!("mongod's explain is not one this reads: {reply}")],
            },
            // mongod refuses `$text` / `$near` without their index, as the verdict says
            Err(_) if matches!(verdict.unindexed, Some(Unindexed::NoTextIndex | Unindexed::NoGeoIndex)) => Vec::new(),
            Err(e) => vec![format!("explain failed: {e}")],
        };
        if !differences.is_empty() {
            out.push(ExplainDifference {
                model: model.rust_type.to_owned(),
                query: query_name(&q.shape),
                location: format!("{}:{}", q.shape.file, q.shape.line),
                differences,
            });
        }
    }
    out
}
