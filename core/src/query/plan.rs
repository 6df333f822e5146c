//! The planner: which declared index a [`Shape`] gets, by mongod 6.0's rules, and the rules
//! that refuse a query at compile time (`query_unindexed`, `query_sort_in_memory`,
//! `query_broadcast`).
//!
//! Everything here is a `const fn`: `query!` calls [`enforce`] in a constant spanned at the
//! query, and the same [`plan`] runs at run time for `schema queries`, its `--explain`
//! check and the differential test against mongod's `explain`.
//!
//! What it decides, index by index ([`fit`]), as mongod's query planner does:
//!
//! - an index is a candidate when a predicate can bound its **first** key (mongod never
//!   uses a compound index for predicates on its later keys alone);
//! - the keys bounding the scan are its leading keys with predicates, through equalities
//!   and `$in`s up to the first range (ESR: equality, sort, range);
//! - it provides a sort when the sort, with its equality-bound keys left out, is a prefix of
//!   the key pattern (equally left out) or of its reverse; `$in`s on the keys before the
//!   sort's give one scan per value merged in order (`SORT_MERGE`, up to 200 scans);
//! - a path through an array of the model (a multikey path) bounds, but never covers, never
//!   provides a sort and never takes a negation (`$ne`, `$nin`, `$not`, `$exists: false`);
//! - a sparse index never answers what matches a missing key (`null`, `$exists: false`,
//!   negations); a partial index only a filter that implies its expression; a hidden index
//!   nothing; a hashed key equalities only; text and geo keys their operators only;
//! - a string predicate or sort uses an index only when the index's collation is the
//!   query's (the collection default, which an index without its own inherits);
//! - `$or` is indexed when every branch is; `{_id: value}` alone is mongod's `IDHACK`;
//! - a sort no bounded index provides may be provided by walking a whole index in order
//!   (no bounds): mongod considers that plan too, and without a filter index it is the plan.
//!
//! `Shape` carries no values: a partial index whose expression compares a key with a value
//! is taken as implied by a predicate with the same operator on that key (the query's value
//! is assumed to lie inside it), and a `$in` of unknown length as one of at most 200 values.

// `matches!(x, None)`, `matches!(s, [])` over `x.is_none()`, `s.is_empty()`: in const
// evaluation each method is a call (a frame), each pattern one statement, and `query!`
// evaluates this module for every query.
#![allow(clippy::redundant_pattern_matching)]

use super::shape::{Direction, Filter, Literal, LiteralValue, Op, Shape};
use crate::command::{Collation, Index, MongoCollection, Registration};
use crate::schema::{BsonKind, FieldFacts, Shape as Container};
use mongo_schema_contract::options::IndexKey;
use mongo_schema_contract::rules::{self, ConstMessage};

/// An index of a model: the `_id` index every collection but a clustered one has, or one of
/// `Registration::indexes` by position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IndexRef {
    /// `{_id: 1}`, named `_id_`.
    Id,
    /// `model.indexes[n]`.
    Declared(usize),
}

/// The `_id` index mongod builds on every collection that is not clustered.
pub const ID_INDEX: Index = Index {
    name: "_id_",
    keys: &[("_id", IndexKey::Ascending)],
    unique: true,
    ttl: None,
    partial: None,
    sparse: false,
    hidden: false,
    collation: None,
    weights: &[],
    default_language: None,
    language_override: None,
    wildcard_projection: &[],
};

impl IndexRef {
    /// The index this names on `model`.
    pub const fn index(self, model: &Registration) -> &Index {
        match self {
            IndexRef::Id => &ID_INDEX,
            IndexRef::Declared(n) => &model.indexes[n],
        }
    }

    /// Its bit in [`Verdict::candidates`] (the `_id` index is bit 63).
    pub const fn bit(self) -> u64 {
        match self {
            IndexRef::Id => 1 << 63,
            IndexRef::Declared(n) => 1 << n,
        }
    }
}

/// A rule the planner applies to a query.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rule {
    /// `query_unindexed`
    Unindexed,
    /// `query_sort_in_memory`
    SortInMemory,
    /// `query_broadcast`
    Broadcast,
}

impl Rule {
    /// Every rule, in the order problems are reported.
    pub const ALL: [Rule; 3] = [Rule::Unindexed, Rule::SortInMemory, Rule::Broadcast];

    /// The rule's id.
    pub const fn id(self) -> &'static str {
        match self {
            Rule::Unindexed => rules::QUERY_UNINDEXED,
            Rule::SortInMemory => rules::QUERY_SORT_IN_MEMORY,
            Rule::Broadcast => rules::QUERY_BROADCAST,
        }
    }
}

/// Why no index bounds a query (with [`Rule::Unindexed`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unindexed {
    /// No index takes any predicate: mongod reads every document (`COLLSCAN`).
    CollectionScan,
    /// No index bounds the filter, and mongod walks the whole of the index that provides
    /// the sort (an `IXSCAN` over all keys, every document fetched and tested).
    WholeIndex,
    /// The only index mongod can use is bounded by predicates whose bounds cover (nearly)
    /// every value (`$ne`, `$nin`, `$not`, `$exists: true`, an unanchored `$regex`,
    /// `$type`, `$mod`): it selects nothing.
    Unselective,
    /// `$text` without a text index: mongod refuses the query.
    NoTextIndex,
    /// `$near` without a 2dsphere or 2d index on its key: mongod refuses the query.
    NoGeoIndex,
    /// A branch of a `$or` no index takes: mongod reads every document.
    OrBranch(usize),
}

/// How one index answers a query.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fit {
    /// A predicate bounds the index's first key: mongod considers a plan on it.
    pub usable: bool,
    /// The leading keys whose bounds narrow the scan (equalities and `$in`s, then one range).
    pub bound_keys: u32,
    /// Of those, the leading keys bound to values (equality or `$in`).
    pub equality_keys: u32,
    /// Its bounds select something (not only `$ne`, `$exists`, unanchored `$regex`, ...).
    pub selective: bool,
    /// The scan returns documents in the sort's order (or its reverse): no `SORT` stage.
    pub provides_sort: bool,
    /// ...by merging one scan per `$in` value in order (`SORT_MERGE`).
    pub merge_sort: bool,
    /// The filter, sort and projection are all answered from its keys: no `FETCH`.
    pub covered: bool,
    /// Walking the whole index (no bounds) provides the sort: a plan mongod adds when no
    /// bounded plan provides it.
    pub sort_scan: bool,
}

const NO_FIT: Fit = Fit {
    usable: false,
    bound_keys: 0,
    equality_keys: 0,
    selective: false,
    provides_sort: false,
    merge_sort: false,
    covered: false,
    sort_scan: false,
};

/// Most branches of a `$or` a verdict names the index of.
pub const OR_BRANCHES: usize = 8;

/// What mongod does with a query, as the planner decides it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Verdict {
    /// The index whose plan is chosen (for a `$or`: see `or_branches`), `None` for a
    /// collection scan.
    pub index: Option<IndexRef>,
    /// The indexes a predicate of the filter bounds, as [`IndexRef::bit`]s: mongod plans a
    /// scan of each and, on equal footing, may choose any (on an empty collection it takes
    /// one without a `SORT` or `FETCH` stage).
    pub candidates: u64,
    /// The indexes mongod also walks whole for the sort, when no bounded scan provides it
    /// (a plan without a `SORT` stage, that mongod may prefer).
    pub sort_scans: u64,
    /// `{_id: value}` alone: mongod's `IDHACK` (the `_id` index, no planning).
    pub id_hack: bool,
    /// The chosen index is walked whole for the sort (no bounds).
    pub whole_index: bool,
    /// The chosen plan's fit.
    pub fit: Fit,
    /// The query has a sort and the plan sorts in memory (a `SORT` stage).
    pub sort_in_memory: bool,
    /// A `$or` answered by one index scan per branch (an `OR` stage).
    pub or: bool,
    /// The `$or` branches' indexes (the first [`OR_BRANCHES`]).
    pub or_branches: [Option<IndexRef>; OR_BRANCHES],
    /// How many branches the `$or` has.
    pub or_len: usize,
    /// The model has a shard key and the query's equalities do not name its first key.
    pub broadcast: bool,
    /// Why the query is unindexed, when it is.
    pub unindexed: Option<Unindexed>,
    /// The filter is empty (or opaque only): every document is asked for.
    pub no_filter: bool,
}

impl Verdict {
    /// Whether `rule` applies (before waivers).
    pub const fn breaks(&self, rule: Rule) -> bool {
        match rule {
            Rule::Unindexed => matches!(self.unindexed, Some(_)),
            Rule::SortInMemory => self.sort_in_memory,
            Rule::Broadcast => self.broadcast,
        }
    }

    /// The winning plan is `FETCH`-free.
    pub const fn covered(&self) -> bool {
        matches!(self.index, Some(_)) && !self.or && self.fit.covered && !self.id_hack
    }
}

// ---------------------------------------------------------------------------------------
// Const evaluation pays for every call (a frame of all the callee's locals) far more than
// for a statement, and a slice's `len()` is a call: the hot loops read lengths once, and
// compare bytes with the lengths read once.

/// `a == b`.
const fn bytes_eq(a: &[u8], b: &[u8]) -> bool {
    // the first bytes by a pattern (no call), before the lengths (a call each)
    if let ([x, ..], [y, ..]) = (a, b) {
        if *x != *y {
            return false;
        }
    }
    let n = a.len();
    if n != b.len() {
        return false;
    }
    let mut i = 0;
    while i < n {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// `a == b`.
const fn str_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if let ([x, ..], [y, ..]) = (a, b) {
        if *x != *y {
            return false;
        }
    }
    bytes_eq(a, b)
}

// ---------------------------------------------------------------------------------------
// What the filter asks of one path, as bits.

const EQ: u32 = 1;
const EQ_NULL: u32 = 1 << 1;
const IN: u32 = 1 << 2;
const IN_NULL: u32 = 1 << 3;
const LO: u32 = 1 << 4;
const HI: u32 = 1 << 5;
const NE: u32 = 1 << 6;
const NIN: u32 = 1 << 7;
const NOT: u32 = 1 << 8;
const EXISTS_T: u32 = 1 << 9;
const EXISTS_F: u32 = 1 << 10;
const REGEX_PREFIX: u32 = 1 << 11;
const REGEX: u32 = 1 << 12;
const TYPE: u32 = 1 << 13;
const SIZE: u32 = 1 << 14;
const ALL: u32 = 1 << 15;
const MOD: u32 = 1 << 16;
const ELEM_VALUE: u32 = 1 << 17;
const NEAR: u32 = 1 << 18;
const GEO: u32 = 1 << 19;
/// Reached through an `$elemMatch` on a parent array.
const ELEM_OBJ: u32 = 1 << 20;
/// `$elemMatch` on this path itself, with a query on its elements' keys.
const ELEM_DOC: u32 = 1 << 21;
/// A `$not` of something no index negates (`$regex`, `$mod`, `$type`, `$elemMatch`).
const NOT_OPAQUE: u32 = 1 << 22;

/// Predicates that bound a btree key.
const BTREE_OPS: u32 = EQ
    | EQ_NULL
    | IN
    | IN_NULL
    | LO
    | HI
    | NE
    | NIN
    | NOT
    | EXISTS_T
    | EXISTS_F
    | REGEX_PREFIX
    | REGEX
    | TYPE
    | ALL
    | MOD
    | ELEM_VALUE
    | ELEM_OBJ;
/// Predicates whose bounds narrow the scan.
const SELECTIVE: u32 = EQ | EQ_NULL | IN | LO | HI | REGEX_PREFIX | ALL | ELEM_VALUE | EXISTS_F | NEAR | GEO;
/// Predicates that match a document missing the key.
const MATCH_MISSING: u32 = EQ_NULL | IN_NULL | NE | NIN | NOT | EXISTS_F;
/// Negations.
const NEGATIONS: u32 = NE | NIN | NOT | EXISTS_F;
/// Predicates comparing strings (by the collation).
const STRING_OPS: u32 = EQ | IN | LO | HI | NE | NIN | NOT | REGEX_PREFIX | REGEX | ALL | ELEM_VALUE;
/// Predicates the index's keys answer exactly or without the document (no `FETCH`).
const COVERABLE: u32 = EQ | IN | LO | HI | NE | NIN | NOT | REGEX_PREFIX | REGEX | TYPE | MOD | ALL;
/// Equalities: point bounds.
const POINTS: u32 = EQ | EQ_NULL | IN | ALL;

/// What the filter asks of one path.
#[derive(Clone, Copy)]
struct Use {
    bits: u32,
    /// Values of the `$in`s (the product for several), `null` included.
    points: u32,
}

const fn op_bits(op: &Op) -> Use {
    let bits = match op {
        Op::Eq => EQ,
        Op::EqNull => EQ_NULL,
        Op::Ne => NE,
        Op::Gt | Op::Gte => LO,
        Op::Lt | Op::Lte => HI,
        Op::In { len, null } => {
            let n = match len {
                Some(n) => *n,
                None => 3,
            };
            return Use { bits: if *null { IN | IN_NULL } else { IN }, points: if n == 0 { 1 } else { n } };
        }
        Op::Nin => NIN,
        Op::Exists(true) => EXISTS_T,
        Op::Exists(false) => EXISTS_F,
        Op::Type => TYPE,
        Op::Regex { prefix: true } => REGEX_PREFIX | REGEX,
        Op::Regex { prefix: false } => REGEX,
        Op::Size => SIZE,
        Op::All => ALL,
        Op::ElemMatch(_) => ELEM_DOC,
        Op::ElemMatchValue(ops) => {
            let mut bits = ELEM_VALUE;
            let mut i = 0;
            let i_end = ops.len();
            while i < i_end {
                let inner = op_bits(&ops[i]).bits;
                if inner & (NEGATIONS | SIZE | MOD | NOT_OPAQUE | ELEM_DOC) != 0 {
                    bits |= NOT_OPAQUE;
                }
                i += 1;
            }
            bits
        }
        Op::Mod => MOD,
        Op::Not(inner) => match inner {
            Op::Regex { .. } | Op::Mod | Op::Type | Op::ElemMatchValue(_) | Op::ElemMatch(_) | Op::Size => NOT_OPAQUE,
            Op::Exists(true) => EXISTS_F,
            Op::Exists(false) => EXISTS_T,
            Op::Not(_) | Op::Near | Op::GeoWithin => NOT_OPAQUE,
            _ => NOT,
        },
        Op::Near => NEAR,
        Op::GeoWithin => GEO,
    };
    Use { bits, points: 1 }
}

const fn merge(a: Use, b: Use) -> Use {
    // a `null` that one `$in` admits and another does not is not admitted
    if a.bits & IN != 0 && b.bits & IN != 0 && (a.bits & IN_NULL == 0) != (b.bits & IN_NULL == 0) {
        let a = Use { bits: a.bits & !IN_NULL, points: a.points };
        let b = Use { bits: b.bits & !IN_NULL, points: b.points };
        return merge(a, b);
    }
    let points = if b.bits & IN != 0 && a.bits & IN != 0 {
        // two `$in`s on one key intersect: at most the smaller
        if a.points < b.points {
            a.points
        } else {
            b.points
        }
    } else if b.bits & IN != 0 {
        b.points
    } else {
        a.points
    };
    Use { bits: a.bits | b.bits, points }
}

/// `path` starts with `prefix` followed by `.`: the rest's offset.
const fn below(path: &[u8], prefix: &[u8]) -> Option<usize> {
    if path.len() <= prefix.len() + 1 || path[prefix.len()] != b'.' {
        return None;
    }
    let mut i = 0;
    let i_end = prefix.len();
    while i < i_end {
        if path[i] != prefix[i] {
            return None;
        }
        i += 1;
    }
    Some(prefix.len() + 1)
}

const fn tail(path: &[u8], from: usize) -> &[u8] {
    path.split_at(from).1
}

/// What the conjunction `conj` asks of `path`.
const fn use_of(conj: &[Filter], path: &[u8]) -> Use {
    let mut out = Use { bits: 0, points: 1 };
    let path_len = path.len();
    let mut i = 0;
    let i_end = conj.len();
    while i < i_end {
        match &conj[i] {
            Filter::Pred(pred) => {
                let p = pred.path.as_bytes();
                let p_len = p.len();
                if p_len == path_len && bytes_eq(p, path) {
                    out = merge(out, op_bits(&pred.op));
                } else if let Op::ElemMatch(inner) = &pred.op {
                    if let Some(at) = below(path, p) {
                        let found = use_of(inner, tail(path, at));
                        if found.bits != 0 {
                            out = merge(out, Use { bits: found.bits | ELEM_OBJ, points: found.points });
                        }
                    }
                }
            }
            Filter::And(branches) => {
                let mut b = 0;
                let b_end = branches.len();
                while b < b_end {
                    out = merge(out, use_of(branches[b], path));
                    b += 1;
                }
            }
            // a `$or` of one branch is that branch
            Filter::Or(branches) if branches.len() == 1 => out = merge(out, use_of(branches[0], path)),
            _ => {}
        }
        i += 1;
    }
    out
}

/// The conjunction holds `$text`.
const fn has_text(conj: &[Filter]) -> bool {
    let mut i = 0;
    let i_end = conj.len();
    while i < i_end {
        match &conj[i] {
            Filter::Text => return true,
            Filter::And(branches) => {
                let mut b = 0;
                let b_end = branches.len();
                while b < b_end {
                    if has_text(branches[b]) {
                        return true;
                    }
                    b += 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    false
}

/// The first `$near` of the conjunction: its path.
const fn near_path(conj: &[Filter]) -> Option<&'static str> {
    let mut i = 0;
    let i_end = conj.len();
    while i < i_end {
        if let Filter::Pred(pred) = &conj[i] {
            if let Op::Near = pred.op {
                return Some(pred.path);
            }
        }
        i += 1;
    }
    None
}

/// The conjunction holds a predicate (not only `$or`s, opaque parts, ...).
const fn has_preds(conj: &[Filter]) -> bool {
    let mut i = 0;
    let i_end = conj.len();
    while i < i_end {
        match &conj[i] {
            Filter::Pred(_) | Filter::Text => return true,
            Filter::Or(branches) if branches.len() == 1 && has_preds(branches[0]) => return true,
            Filter::And(branches) => {
                let mut b = 0;
                let b_end = branches.len();
                while b < b_end {
                    if has_preds(branches[b]) {
                        return true;
                    }
                    b += 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    false
}

/// The first `$or` of the conjunction.
const fn first_or(conj: &'static [Filter]) -> Option<&'static [&'static [Filter]]> {
    let mut i = 0;
    let i_end = conj.len();
    while i < i_end {
        if let Filter::Or(branches) = &conj[i] {
            if branches.len() > 1 {
                return Some(branches);
            }
        }
        i += 1;
    }
    None
}

// ---------------------------------------------------------------------------------------
// What the model stores at a path.

/// What a path goes through.
#[derive(Clone, Copy)]
struct PathFacts {
    /// Through an array (a multikey path).
    multikey: bool,
    /// The length of the path's prefix through its first array (`replies` of
    /// `replies.authorId`), 0 when it goes through none: keys whose prefixes are the same
    /// array's share its multikeyness.
    array_end: usize,
    /// The value at the end (an array's items), when the model knows it.
    kind: Option<BsonKind>,
}

/// The facts of a path the model does not know.
const NO_FACTS: PathFacts = PathFacts { multikey: false, array_end: 0, kind: None };

const fn is_array(shape: Container) -> bool {
    matches!(shape, Container::Array | Container::Set | Container::FixedArray)
}

/// The field of `fields` written under the key `path[start..end]`: `FieldFacts::written`
/// without slicing the key out (a call each in const evaluation).
const fn field_at(fields: &'static [FieldFacts], path: &[u8], start: usize, end: usize) -> Option<&'static FieldFacts> {
    let count = fields.len();
    let mut i = 0;
    while i < count {
        let field = &fields[i];
        // a flattened map's keys are any; its values' fields are not the parent's
        if field.flatten && !matches!(field.facts.shape, Container::Map) {
            if let Some(inner) = field.fields {
                if let Some(found) = field_at(inner, path, start, end) {
                    return Some(found);
                }
            }
        } else if !field.flatten {
            let name = field.name.as_bytes();
            let n = name.len();
            if n == end - start {
                let mut j = 0;
                while j < n && name[j] == path[start + j] {
                    j += 1;
                }
                if j == n {
                    return Some(field);
                }
            }
        }
        i += 1;
    }
    None
}

/// The facts of `path` (dotted) in `fields`.
const fn path_facts(fields: Option<&'static [FieldFacts]>, path: &[u8]) -> PathFacts {
    let mut out = NO_FACTS;
    let Some(mut fields) = fields else { return out };
    let len = path.len();
    let mut start = 0;
    loop {
        let mut end = start;
        while end < len && path[end] != b'.' {
            end += 1;
        }
        let Some(field) = field_at(fields, path, start, end) else {
            out.kind = None;
            return out;
        };
        let facts = field.facts;
        let mut next = end + 1;
        if is_array(facts.shape) {
            if !out.multikey {
                out.array_end = end;
            }
            out.multikey = true;
            // `items.0.price`: a position into the array
            if next < len {
                let mut e = next;
                let mut digits = true;
                while e < len && path[e] != b'.' {
                    digits = digits && path[e].is_ascii_digit();
                    e += 1;
                }
                if digits && e > next {
                    next = e + 1;
                }
            }
        } else if matches!(facts.shape, Container::Map) && next < len {
            // one arbitrary key, then the values' fields
            while next < len && path[next] != b'.' {
                next += 1;
            }
            next += 1;
        }
        if next >= len {
            out.kind = Some(if matches!(facts.shape, Container::Scalar | Container::Document) {
                facts.kind
            } else {
                facts.item_kind
            });
            return out;
        }
        match field.fields {
            Some(inner) => fields = inner,
            None => {
                out.kind = None;
                return out;
            }
        }
        start = next;
    }
}

/// A path whose values mongod compares by collation: strings, or a value of any type.
const fn string_path(facts: PathFacts) -> bool {
    match facts.kind {
        Some(BsonKind::String) | Some(BsonKind::Any) | Some(BsonKind::Mixed) | None => true,
        Some(_) => false,
    }
}

// ---------------------------------------------------------------------------------------
// Collations.

const fn opt_str_eq(a: Option<&str>, b: Option<&str>) -> bool {
    match (a, b) {
        (None, None) => true,
        (Some(a), Some(b)) => str_eq(a, b),
        _ => false,
    }
}

const fn opt_eq_u32(a: Option<u32>, b: Option<u32>) -> bool {
    match (a, b) {
        (None, None) => true,
        (Some(a), Some(b)) => a == b,
        _ => false,
    }
}

const fn opt_eq_bool(a: Option<bool>, b: Option<bool>) -> bool {
    match (a, b) {
        (None, None) => true,
        (Some(a), Some(b)) => a == b,
        _ => false,
    }
}

/// `{locale: "simple"}` or none: binary comparison.
const fn simple(collation: Option<Collation>) -> Option<Collation> {
    match collation {
        Some(c) if str_eq(c.locale, "simple") => None,
        other => other,
    }
}

/// The two collations compare strings alike.
const fn same_collation(a: Option<Collation>, b: Option<Collation>) -> bool {
    match (simple(a), simple(b)) {
        (None, None) => true,
        (Some(a), Some(b)) => {
            str_eq(a.locale, b.locale)
                && opt_eq_u32(a.strength, b.strength)
                && opt_eq_bool(a.case_level, b.case_level)
                && opt_str_eq(a.case_first, b.case_first)
                && opt_eq_bool(a.numeric_ordering, b.numeric_ordering)
                && opt_str_eq(a.alternate, b.alternate)
                && opt_str_eq(a.max_variable, b.max_variable)
                && opt_eq_bool(a.normalization, b.normalization)
                && opt_eq_bool(a.backwards, b.backwards)
        }
        _ => false,
    }
}

/// The index compares strings as bytes, and so does the query: prefix bounds are tight.
const fn simple_strings(index: &Index, model: &Registration) -> bool {
    simple(index_collation(index, model)).is_none() && simple(model.collation).is_none()
}

/// The index compares strings as the query does (the collection's default collation).
const fn index_collation_ok(index: &Index, model: &Registration) -> bool {
    // without its own, the index has the collection's
    match index.collation {
        None => true,
        Some(_) => same_collation(index_collation(index, model), model.collation),
    }
}

/// The index's collation: its own, else the collection's default it was built with.
const fn index_collation(index: &Index, model: &Registration) -> Option<Collation> {
    match index.collation {
        Some(c) => Some(c),
        None => model.collation,
    }
}

// ---------------------------------------------------------------------------------------
// Partial indexes: does the filter imply `partialFilterExpression`?

const fn skip_ws(text: &[u8], mut at: usize) -> usize {
    let at_end = text.len();
    while at < at_end && matches!(text[at], b' ' | b'\n' | b'\r' | b'\t') {
        at += 1;
    }
    at
}

/// The string starting at `at` (a `"`): its contents' range and the offset past it.
const fn string_at(text: &[u8], at: usize) -> Option<(usize, usize, usize)> {
    if at >= text.len() || text[at] != b'"' {
        return None;
    }
    let mut i = at + 1;
    let i_end = text.len();
    while i < i_end {
        match text[i] {
            b'\\' => i += 2,
            b'"' => return Some((at + 1, i, i + 1)),
            _ => i += 1,
        }
    }
    None
}

/// The offset past the JSON value starting at `at`.
const fn skip_value(text: &[u8], at: usize) -> Option<usize> {
    let at = skip_ws(text, at);
    if at >= text.len() {
        return None;
    }
    match text[at] {
        b'"' => match string_at(text, at) {
            Some((_, _, end)) => Some(end),
            None => None,
        },
        b'{' | b'[' => {
            let mut depth = 0usize;
            let mut i = at;
            let i_end = text.len();
            while i < i_end {
                match text[i] {
                    b'"' => match string_at(text, i) {
                        Some((_, _, end)) => {
                            i = end;
                            continue;
                        }
                        None => return None,
                    },
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth -= 1;
                        if depth == 0 {
                            return Some(i + 1);
                        }
                    }
                    _ => {}
                }
                i += 1;
            }
            None
        }
        _ => {
            let mut i = at;
            let i_end = text.len();
            while i < i_end && !matches!(text[i], b',' | b'}' | b']' | b' ' | b'\n' | b'\r' | b'\t') {
                i += 1;
            }
            Some(i)
        }
    }
}

/// The value at `at` is a document whose first key starts with `$` (an operator document).
const fn operator_doc(text: &[u8], at: usize) -> bool {
    let at = skip_ws(text, at);
    if at >= text.len() || text[at] != b'{' {
        return false;
    }
    let key = skip_ws(text, at + 1);
    key + 1 < text.len() && text[key] == b'"' && text[key + 1] == b'$'
}

/// Whether the conjunction implies the condition `op` (an operator of the expression) on
/// `path`.
const fn implies_op(
    conj: &[Filter],
    lits: &[Literal],
    path: &[u8],
    op: &[u8],
    text: &'static [u8],
    value: usize,
) -> bool {
    let used = use_of(conj, path);
    let found = used.bits;
    let value = skip_ws(text, value);
    // the query's literals decide where every predicate that could imply it is one
    if let Some(expected) = literal_at(text, value) {
        if let Some(decided) = literals_imply(conj, lits, path, op, expected) {
            return decided;
        }
    }
    if bytes_eq(op, b"$eq") {
        // `$in` of one value is an equality to mongod
        found & (EQ | ALL) != 0 || (found & IN != 0 && found & IN_NULL == 0 && used.points == 1)
    } else if bytes_eq(op, b"$gt") || bytes_eq(op, b"$gte") {
        found & (EQ | LO) != 0 || (found & IN != 0 && found & IN_NULL == 0)
    } else if bytes_eq(op, b"$lt") || bytes_eq(op, b"$lte") {
        found & (EQ | HI) != 0 || (found & IN != 0 && found & IN_NULL == 0)
    } else if bytes_eq(op, b"$in") {
        found & (EQ | IN) != 0
    } else if bytes_eq(op, b"$type") {
        found & TYPE != 0
    } else if bytes_eq(op, b"$exists") {
        if value < text.len() && text[value] == b't' {
            found & (EQ | LO | HI | EXISTS_T | REGEX | ALL | ELEM_VALUE | ELEM_DOC | TYPE) != 0
                || (found & IN != 0 && found & IN_NULL == 0)
        } else {
            false
        }
    } else {
        false
    }
}

/// The integer, string (without escapes) or boolean JSON literal at `at`.
const fn literal_at(text: &'static [u8], at: usize) -> Option<LiteralValue> {
    if at >= text.len() {
        return None;
    }
    match text[at] {
        b'"' => match string_at(text, at) {
            Some((start, end, _)) => {
                let inner = text.split_at(end).0.split_at(start).1;
                let mut i = 0;
                let i_end = inner.len();
                while i < i_end {
                    if inner[i] == b'\\' {
                        return None;
                    }
                    i += 1;
                }
                match core::str::from_utf8(inner) {
                    Ok(s) => Some(LiteralValue::Str(s)),
                    Err(_) => None,
                }
            }
            None => None,
        },
        b't' => Some(LiteralValue::Bool(true)),
        b'f' => Some(LiteralValue::Bool(false)),
        b'-' | b'0'..=b'9' => {
            let negative = text[at] == b'-';
            let mut i = if negative { at + 1 } else { at };
            let mut n: i64 = 0;
            let start = i;
            let i_end = text.len();
            while i < i_end && text[i].is_ascii_digit() {
                n = match n.checked_mul(10) {
                    Some(m) => match m.checked_add((text[i] - b'0') as i64) {
                        Some(v) => v,
                        None => return None,
                    },
                    None => return None,
                };
                i += 1;
            }
            // a fraction or an exponent: not an integer this compares
            if i == start || (i < text.len() && matches!(text[i], b'.' | b'e' | b'E')) {
                return None;
            }
            Some(LiteralValue::Int(if negative { -n } else { n }))
        }
        _ => None,
    }
}

/// The query's `a op_a x` implies the expression's `a op_e y`, by the values.
const fn value_implies(op_a: &[u8], x: LiteralValue, op_e: &[u8], y: LiteralValue) -> bool {
    match (x, y) {
        (LiteralValue::Int(x), LiteralValue::Int(y)) => {
            let eq = bytes_eq(op_a, b"$eq");
            if bytes_eq(op_e, b"$eq") {
                eq && x == y
            } else if bytes_eq(op_e, b"$gt") {
                (eq && x > y) || (bytes_eq(op_a, b"$gt") && x >= y) || (bytes_eq(op_a, b"$gte") && x > y)
            } else if bytes_eq(op_e, b"$gte") {
                (eq || bytes_eq(op_a, b"$gte") || bytes_eq(op_a, b"$gt")) && x >= y
            } else if bytes_eq(op_e, b"$lt") {
                (eq && x < y) || (bytes_eq(op_a, b"$lt") && x <= y) || (bytes_eq(op_a, b"$lte") && x < y)
            } else if bytes_eq(op_e, b"$lte") {
                (eq || bytes_eq(op_a, b"$lte") || bytes_eq(op_a, b"$lt")) && x <= y
            } else {
                false
            }
        }
        (LiteralValue::Str(x), LiteralValue::Str(y)) => {
            bytes_eq(op_a, b"$eq") && bytes_eq(op_e, b"$eq") && bytes_eq(x.as_bytes(), y.as_bytes())
        }
        (LiteralValue::Bool(x), LiteralValue::Bool(y)) => bytes_eq(op_a, b"$eq") && bytes_eq(op_e, b"$eq") && x == y,
        _ => false,
    }
}

/// Whether the query's literals on `path` imply the expression's `op expected`: `None`
/// where a predicate that could imply it compares with a value known at run time only
/// (the planner then assumes it does), or where the expression is not a comparison.
const fn literals_imply(
    conj: &[Filter],
    lits: &[Literal],
    path: &[u8],
    op: &[u8],
    expected: LiteralValue,
) -> Option<bool> {
    if !(bytes_eq(op, b"$eq")
        || bytes_eq(op, b"$gt")
        || bytes_eq(op, b"$gte")
        || bytes_eq(op, b"$lt")
        || bytes_eq(op, b"$lte"))
    {
        return None;
    }
    // the predicates on `path` that could imply it, and the literals among them
    let mut preds = 0;
    let mut i = 0;
    let i_end = conj.len();
    while i < i_end {
        if let Filter::Pred(pred) = &conj[i] {
            if bytes_eq(pred.path.as_bytes(), path) {
                match pred.op {
                    Op::Eq | Op::Gt | Op::Gte | Op::Lt | Op::Lte => preds += 1,
                    // a `$in`, an `$all`, ...: values this does not read
                    Op::In { .. } | Op::All | Op::ElemMatchValue(_) => return None,
                    _ => {}
                }
            }
        }
        i += 1;
    }
    let mut literal = 0;
    let mut i = 0;
    let i_end = lits.len();
    while i < i_end {
        let l = lits[i];
        if bytes_eq(l.path.as_bytes(), path) {
            literal += 1;
            if value_implies(l.op.as_bytes(), l.value, op, expected) {
                return Some(true);
            }
        }
        i += 1;
    }
    if preds > 0 && literal == preds {
        Some(false)
    } else {
        None
    }
}

/// Whether the conjunction implies the expression document at `at`; `None` when the text
/// is not one this reads.
const fn implies_doc(conj: &[Filter], lits: &[Literal], text: &'static [u8], at: usize) -> bool {
    let mut at = skip_ws(text, at);
    if at >= text.len() || text[at] != b'{' {
        return false;
    }
    at += 1;
    loop {
        at = skip_ws(text, at);
        if at < text.len() && text[at] == b'}' {
            return true;
        }
        let Some((k0, k1, after)) = string_at(text, at) else { return false };
        at = skip_ws(text, after);
        if at >= text.len() || text[at] != b':' {
            return false;
        }
        let value = skip_ws(text, at + 1);
        let key = text.split_at(k1).0.split_at(k0).1;
        if bytes_eq(key, b"$and") {
            // `[ {..}, {..} ]`
            if value >= text.len() || text[value] != b'[' {
                return false;
            }
            let mut i = value + 1;
            loop {
                i = skip_ws(text, i);
                if i < text.len() && text[i] == b']' {
                    break;
                }
                if !implies_doc(conj, lits, text, i) {
                    return false;
                }
                let Some(end) = skip_value(text, i) else { return false };
                i = skip_ws(text, end);
                if i < text.len() && text[i] == b',' {
                    i += 1;
                }
            }
        } else if !matches!(key, []) && key[0] == b'$' {
            return false;
        } else if operator_doc(text, value) {
            let mut i = skip_ws(text, value) + 1;
            loop {
                i = skip_ws(text, i);
                if i < text.len() && text[i] == b'}' {
                    break;
                }
                let Some((o0, o1, after)) = string_at(text, i) else { return false };
                i = skip_ws(text, after);
                if i >= text.len() || text[i] != b':' {
                    return false;
                }
                let op = text.split_at(o1).0.split_at(o0).1;
                if !implies_op(conj, lits, key, op, text, i + 1) {
                    return false;
                }
                let Some(end) = skip_value(text, i + 1) else { return false };
                i = skip_ws(text, end);
                if i < text.len() && text[i] == b',' {
                    i += 1;
                }
            }
        } else if !implies_op(conj, lits, key, b"$eq", text, value) {
            return false;
        }
        let Some(end) = skip_value(text, value) else { return false };
        at = skip_ws(text, end);
        if at < text.len() && text[at] == b',' {
            at += 1;
        }
    }
}

/// The index is one mongod may use for a filter: not hidden, and its partial expression (if
/// any) implied by the filter.
const fn admissible(index: &Index, conj: &[Filter], lits: &[Literal]) -> bool {
    if index.hidden {
        return false;
    }
    match index.partial {
        None => true,
        Some(text) => implies_doc(conj, lits, text.as_bytes(), 0),
    }
}

// ---------------------------------------------------------------------------------------
// One index against one conjunction.

const fn is_wildcard_key(path: &str) -> bool {
    let p = path.as_bytes();
    p.len() >= 3 && p[p.len() - 1] == b'*' && p[p.len() - 2] == b'*' && p[p.len() - 3] == b'$'
}

/// The paths of a wildcard key (`"$**"`, `"a.$**"`, with its projection) include `path`.
const fn wildcard_covers(index: &Index, key: &str, path: &[u8]) -> bool {
    let k = key.as_bytes();
    if k.len() > 3 {
        let prefix = k.split_at(k.len() - 4).0;
        if !bytes_eq(path, prefix) && below(path, prefix).is_none() {
            return false;
        }
    } else if bytes_eq(path, b"_id") || below(path, b"_id").is_some() {
        // `_id` is left out unless the projection names it
        let mut i = 0;
        let mut named = false;
        let i_end = index.wildcard_projection.len();
        while i < i_end {
            let (p, include) = index.wildcard_projection[i];
            if str_eq(p, "_id") && include {
                named = true;
            }
            i += 1;
        }
        if !named {
            return false;
        }
    }
    let projection = index.wildcard_projection;
    let mut includes = false;
    let mut i = 0;
    let i_end = projection.len();
    while i < i_end {
        let (p, include) = projection[i];
        if !str_eq(p, "_id") {
            let inside = bytes_eq(path, p.as_bytes()) || below(path, p.as_bytes()).is_some();
            if include {
                includes = true;
                if inside {
                    return true;
                }
            } else if inside {
                return false;
            }
        }
        i += 1;
    }
    !includes
}

/// The predicates of `found` an index key of `kind` on a path with `facts` takes.
const fn usable(
    found: Use,
    kind: IndexKey,
    wildcard: bool,
    sparse: bool,
    facts: PathFacts,
    collation_ok: bool,
    simple_strings: bool,
) -> u32 {
    let mut bits = found.bits;
    let mut allowed = match kind {
        IndexKey::Ascending | IndexKey::Descending => BTREE_OPS,
        IndexKey::Hashed => EQ | EQ_NULL | IN | IN_NULL | EXISTS_T | EXISTS_F,
        IndexKey::Sphere2d | IndexKey::Geo2d => NEAR | GEO,
        IndexKey::Text => 0,
    };
    // an `$elemMatch` of values holding what bounds nothing is not one of bounds; a `$not`
    // of what bounds nothing (`$regex`, `$type`) leaves another `$not` on the key its bounds
    if bits & NOT_OPAQUE != 0 {
        allowed &= !ELEM_VALUE;
    }
    if wildcard {
        allowed &= !(MATCH_MISSING | ELEM_OBJ);
    }
    if sparse {
        allowed &= !MATCH_MISSING;
    }
    if !collation_ok && string_path(facts) {
        // a `$regex` still scans every string of the index
        allowed &= !(STRING_OPS & !(REGEX | REGEX_PREFIX));
    }
    // a `$in` holding `null` needs what `null` needs
    if bits & IN_NULL != 0 && allowed & IN_NULL == 0 {
        bits &= !IN;
    }
    // an anchored `$regex` bounds a prefix of binary strings only
    if !simple_strings {
        bits &= !REGEX_PREFIX;
    }
    let out = bits & allowed & !IN_NULL;
    // what `$elemMatch` or `$not` mark is not a predicate of its own
    if out & !(ELEM_OBJ | NOT_OPAQUE) == 0 {
        0
    } else {
        out
    }
}

/// How `index` answers the conjunction `conj` with `shape`'s sort and projection.
pub const fn fit(shape: &Shape, model: &Registration, r: IndexRef) -> Fit {
    fit_conj(shape, shape.filter, model, &PlanFacts::of(model), r)
}

const fn fit_conj(shape: &Shape, conj: &'static [Filter], model: &Registration, facts: &PlanFacts, r: IndexRef) -> Fit {
    let (index, known) = match r {
        IndexRef::Id => (&ID_INDEX, &facts.indexes[MAX_INDEXES]),
        IndexRef::Declared(n) if n < MAX_INDEXES => (&model.indexes[n], &facts.indexes[n]),
        IndexRef::Declared(n) => return fit_computed(shape, conj, model, n),
    };
    fit_known(shape, conj, model, index, known)
}

/// [`fit_conj`] of a declared index past [`PlanFacts`]'s table: its facts computed here.
const fn fit_computed(shape: &Shape, conj: &'static [Filter], model: &Registration, n: usize) -> Fit {
    let index = &model.indexes[n];
    fit_known(shape, conj, model, index, &index_facts(index, model))
}

const fn fit_known(
    shape: &Shape,
    conj: &'static [Filter],
    model: &Registration,
    index: &Index,
    known: &IndexFacts,
) -> Fit {
    if known.empty {
        return NO_FIT;
    }
    // what the filter asks of the first key, unless the index cannot fit
    let first = if known.wildcard {
        Use { bits: 0, points: 1 }
    } else {
        match first_use(shape, conj, index) {
            Some(found) => found,
            None => return NO_FIT,
        }
    };
    fit_named(shape, conj, model, index, known, first)
}

/// [`fit_conj`] of an index whose first key the filter or the sort names (`first`: what the
/// filter asks of it): apart, so that the frame of an index the query does not name is small.
const fn fit_named(
    shape: &Shape,
    conj: &'static [Filter],
    model: &Registration,
    index: &Index,
    known: &IndexFacts,
    first: Use,
) -> Fit {
    let mut out = NO_FIT;
    // `admissible` written out: no call for an index neither hidden nor partial
    if index.hidden || (matches!(index.partial, Some(_)) && !admissible(index, conj, shape.literals)) {
        return out;
    }
    let collation_ok = known.collation_ok;
    if known.wildcard {
        return fit_wildcard(shape, conj, model, index, collation_ok);
    }
    // text indexes answer `$text` only ([`plan`] handles it)
    if known.text {
        return out;
    }
    // bounds, key by key
    let keys = keys_of(conj, index, known, Some(first));
    let mut points_product: u32 = 1;
    let mut bounded_run = true;
    let mut all_point_prefix = true;
    let mut exploded_keys = 0usize;
    let mut k = 0;
    let k_end = index.keys.len();
    while k < k_end && k < MAX_KEYS {
        let bits = keys.bits[k];
        if k == 0 {
            out.usable = bits != 0;
            out.selective = bits & SELECTIVE != 0;
        }
        if bounded_run {
            if bits == 0 {
                bounded_run = false;
            } else {
                out.bound_keys += 1;
                if bits & POINTS != 0 {
                    out.equality_keys += 1;
                } else {
                    bounded_run = false;
                }
            }
        }
        if all_point_prefix {
            // values only: one scan per value; not through an array, the values intersected
            // with the key's other predicates (generic values keep them all; `$exists:
            // false` keeps `null` alone, `point_key`'s); through one, another operator on
            // the key leaves no list of points
            let values = !keys.facts[k].multikey
                && bits & EXISTS_F == 0
                && if bits & EQ_NULL != 0 {
                    // `null`'s two points, kept by negations and a `$in` holding `null`,
                    // emptied by any value's predicate
                    bits & !(EQ_NULL | NEGATIONS | IN) == 0 && (bits & IN == 0 || keys.found[k].bits & IN_NULL != 0)
                } else {
                    bits & (EQ | IN | ALL) != 0
                };
            let point = keys.points & (1 << k) != 0;
            if bits != 0 && (point || bits & !(EQ | EQ_NULL | IN | ALL) == 0 || values) {
                let n = if point || bits & (EQ | ALL) != 0 {
                    1
                } else if bits & EQ_NULL != 0 {
                    2
                } else {
                    keys.found[k].points
                };
                points_product = points_product.saturating_mul(n);
                exploded_keys = k + 1;
            } else {
                all_point_prefix = false;
            }
        }
        k += 1;
    }
    if !out.usable {
        if matches!(shape.sort, []) {
            // no sort: no walk for one (`sort_scan`'s first test), nothing more to learn
            return out;
        }
        // the same facts, no bounds: what `keys_of(.., false)` computes, without walking
        // the fields again for each key
        let mut unbounded = keys;
        unbounded.found = [Use { bits: 0, points: 1 }; MAX_KEYS];
        unbounded.bits = [0; MAX_KEYS];
        unbounded.points = 0;
        out.sort_scan = sort_scan(shape, &unbounded, index, collation_ok);
        // mongod tests the filter on the fetched documents of a walk
        out.covered = out.sort_scan && !has_preds(conj) && covers(shape, conj, &keys, model, index, true);
        return out;
    }
    // the sort
    // (`provides_sort`'s test of the sort written out: a query without one makes no call)
    let sorted = !matches!(shape.sort, []);
    out.provides_sort = sorted && provides_sort_keys(shape, &keys, index, 0, collation_ok);
    // one scan per value of the leading keys, merged: the sort starts after them, and no
    // array's key follows them (its keys repeat a document in each scan)
    if !out.provides_sort && exploded_keys > 0 && points_product <= 200 {
        let mut later_array = false;
        let mut k = exploded_keys;
        let k_end = index.keys.len();
        while k < k_end && k < MAX_KEYS {
            later_array = later_array || keys.facts[k].multikey;
            k += 1;
        }
        // mongod merges for a sort that names none of the merged keys (`{s: {$in}, q: 5}`
        // on `{s: 1, q: 1, r: 1}` merges for `{r: 1}`, sorts `{q: 1, r: 1}` in memory)
        out.merge_sort = !later_array
            && !sorts_by_any(shape, index, exploded_keys)
            && sorted
            && provides_sort_keys(shape, &keys, index, exploded_keys, collation_ok);
    }
    // (`covers`' test of the projection written out)
    out.covered = !matches!(shape.projection, [])
        && covers(shape, conj, &keys, model, index, out.provides_sort || out.merge_sort);
    out
}

/// What `conj` asks of the index's first (not wildcard) key; `None` when neither the filter
/// nor the sort names it: no predicate bounds it and no walk of it provides the sort
/// ([`NO_FIT`] without the full fit).
const fn first_use(shape: &Shape, conj: &[Filter], index: &Index) -> Option<Use> {
    let first = index.keys[0].0.as_bytes();
    let found = use_of(conj, first);
    if found.bits != 0 {
        return Some(found);
    }
    if let [(sorted, _), ..] = shape.sort {
        if bytes_eq(sorted.as_bytes(), first) {
            return Some(found);
        }
    }
    None
}

/// The sort names one of the index's first `n` keys.
const fn sorts_by_any(shape: &Shape, index: &Index, n: usize) -> bool {
    let mut s = 0;
    let s_end = shape.sort.len();
    while s < s_end {
        if let Some(k) = key_at(index, shape.sort[s].0) {
            if k < n {
                return true;
            }
        }
        s += 1;
    }
    false
}

/// Walking the whole index in order provides the sort.
const fn sort_scan(shape: &Shape, keys: &Keys, index: &Index, collation_ok: bool) -> bool {
    // mongod walks an index whole for a sort only with the query's collation, whatever the keys
    if matches!(shape.sort, []) || index.sparse || index.hidden || !collation_ok {
        return false;
    }
    // a btree index (or a hashed one's prefix) only
    let mut k = 0;
    let k_end = index.keys.len();
    while k < k_end {
        if matches!(index.keys[k].1, IndexKey::Sphere2d | IndexKey::Geo2d | IndexKey::Text) {
            return false;
        }
        k += 1;
    }
    // `keys` holds no bounds: nothing is equality-bound
    provides_sort_keys(shape, keys, index, 0, collation_ok)
}

/// mongod sorts by an index only with the query's collation, whatever the keys hold (it
/// cannot know an index holds no string).
const fn collation_ok_for_sort(shape: &Shape, model: &Registration, collation_ok: bool) -> bool {
    let _ = (shape, model);
    collation_ok
}

/// Most keys of an index (mongod's limit).
const MAX_KEYS: usize = 32;

/// What the model stores at each key of an index and what the filter asks of it, computed
/// once per index and query (const evaluation is slow: nothing is computed twice).
#[derive(Clone, Copy)]
struct Keys {
    facts: [PathFacts; MAX_KEYS],
    found: [Use; MAX_KEYS],
    /// The predicates the key takes ([`usable`]); none when not `bounded`.
    bits: [u32; MAX_KEYS],
    /// The keys bound to one value, a bit each ([`point_key`], read once a key).
    points: u32,
}

/// The keys' facts of `index` (from the model's [`PlanFacts`]) and, when bounded (`first`:
/// what `conj` asks of the first key, [`first_use`]), what `conj` asks of each key.
const fn keys_of(conj: &[Filter], index: &Index, known: &IndexFacts, first: Option<Use>) -> Keys {
    let mut out =
        Keys { facts: known.keys, found: [Use { bits: 0, points: 1 }; MAX_KEYS], bits: [0; MAX_KEYS], points: 0 };
    let Some(first) = first else { return out };
    let (collation_ok, simple, sparse) = (known.collation_ok, known.simple_strings, index.sparse);
    let mut k = 0;
    let k_end = index.keys.len();
    while k < k_end && k < MAX_KEYS {
        let (path, kind) = index.keys[k];
        out.found[k] = if k == 0 { first } else { use_of(conj, path.as_bytes()) };
        out.bits[k] = usable(out.found[k], kind, false, sparse, out.facts[k], collation_ok, simple);
        if out.bits[k] != 0 && point_key(&out, k) {
            out.points |= 1 << k;
        }
        k += 1;
    }
    out
}

/// Most declared indexes a model's [`PlanFacts`] hold; the facts of one past them are
/// computed where a query needs them. Not mongod's 64: the table is evaluated and checked
/// once per model, at a cost that grows with its size whatever the model declares (a table
/// of 64 cost 113 M more than one of 8 for the bench's 4 models, more than it saved).
const MAX_INDEXES: usize = 8;

/// What the planner reads of a model for one index, whatever the query: each key's
/// `PathFacts` and how the index compares strings.
#[derive(Clone, Copy)]
pub struct IndexFacts {
    keys: [PathFacts; MAX_KEYS],
    /// [`index_collation_ok`]: the index compares strings as the query does.
    collation_ok: bool,
    /// Neither the index nor the query compares strings by a collation ([`simple_strings`]).
    simple_strings: bool,
    /// The index has no key.
    empty: bool,
    /// Its first key is a wildcard's ([`is_wildcard_key`]).
    wildcard: bool,
    /// A key of it is a text index's.
    text: bool,
}

const fn index_facts(index: &Index, model: &Registration) -> IndexFacts {
    let mut out = IndexFacts {
        keys: [NO_FACTS; MAX_KEYS],
        collation_ok: index_collation_ok(index, model),
        simple_strings: simple_strings(index, model),
        empty: matches!(index.keys, []),
        wildcard: !matches!(index.keys, []) && is_wildcard_key(index.keys[0].0),
        text: has_kind(index, IndexKey::Text),
    };
    let mut k = 0;
    let k_end = index.keys.len();
    while k < k_end && k < MAX_KEYS {
        out.keys[k] = path_facts(model.fields, index.keys[k].0.as_bytes());
        k += 1;
    }
    out
}

/// What the planner reads of a model whatever the query: the [`IndexFacts`] of its
/// declared indexes (the first `MAX_INDEXES`) and of `_id`'s. `query!` takes them from
/// [`Planned::FACTS`], computed once per model and crate, not per query and index.
pub struct PlanFacts {
    /// The declared indexes' by position, then `_id`'s (at [`MAX_INDEXES`]).
    indexes: [IndexFacts; MAX_INDEXES + 1],
}

impl PlanFacts {
    /// The facts of `model`'s indexes.
    pub const fn of(model: &Registration) -> PlanFacts {
        let empty = IndexFacts {
            keys: [NO_FACTS; MAX_KEYS],
            collation_ok: true,
            simple_strings: true,
            empty: true,
            wildcard: false,
            text: false,
        };
        let mut out = PlanFacts { indexes: [empty; MAX_INDEXES + 1] };
        let mut n = 0;
        let n_end = model.indexes.len();
        while n < n_end && n < MAX_INDEXES {
            out.indexes[n] = index_facts(&model.indexes[n], model);
            n += 1;
        }
        out.indexes[MAX_INDEXES] = index_facts(&ID_INDEX, model);
        out
    }
}

/// The [`PlanFacts`] of the collection root `M`: a generic associated constant, which rustc
/// evaluates once per crate for each model its queries plan against.
pub struct Planned<M>(core::marker::PhantomData<M>);

impl<M: MongoCollection> Planned<M> {
    /// `M`'s registration, as the planner reads it (no `rust_type`: the planner never reads
    /// it): built once per model and crate, not per query.
    pub const MODEL: &'static Registration = &Registration::of::<M>("");
    /// `M`'s facts.
    pub const FACTS: &'static PlanFacts = &PlanFacts::of(Self::MODEL);
}

/// The position of `path` among the index's keys.
const fn key_at(index: &Index, path: &str) -> Option<usize> {
    let path = path.as_bytes();
    let mut k = 0;
    let k_end = index.keys.len();
    while k < k_end && k < MAX_KEYS {
        if bytes_eq(index.keys[k].0.as_bytes(), path) {
            return Some(k);
        }
        k += 1;
    }
    None
}

/// The bounds of key `k` hold no string: a comparison with a value of a kind not a string.
/// A key not through an array is bound by the intersection of its predicates' bounds, so
/// one such comparison (or `$exists: false`, `[null, null]`) keeps strings out whatever the
/// others (`{$lt: 8, $nin: [7]}`, `{$lte: date, $not: {$gt: date}}`); an array's key takes
/// one predicate's bounds, so every one of its predicates must be such a comparison.
/// `null` and `$exists: false` bound it to `[undefined, undefined]`, `[null, null]`,
/// whatever the key stores.
const fn bounds_without_strings(keys: &Keys, k: usize) -> bool {
    const TYPED: u32 = EQ | EQ_NULL | IN | LO | HI | ALL | TYPE | MOD;
    const NULLS: u32 = EQ_NULL | EXISTS_F;
    let bits = keys.bits[k] & !REGEX_PREFIX;
    let multikey = keys.facts[k].multikey;
    if bits == 0 {
        return false;
    }
    if bits & !NULLS == 0 || (!multikey && bits & NULLS != 0) {
        return true;
    }
    if string_path(keys.facts[k]) {
        return false;
    }
    if !multikey && bits & (TYPED | EXISTS_F) != 0 {
        return true;
    }
    bits & !TYPED == 0
}

/// No key of the index through the same array as key `k` (itself included) has bounds
/// narrower than `[MinKey, MaxKey]`.
const fn array_unbounded(facts: &Keys, keys: &[(&'static str, IndexKey)], k: usize) -> bool {
    let end = facts.facts[k].array_end;
    let path = keys[k].0.as_bytes();
    let mut j = 0;
    let j_end = keys.len();
    while j < j_end && j < MAX_KEYS {
        let other = keys[j].0.as_bytes();
        let shares = facts.facts[j].multikey
            && facts.facts[j].array_end == end
            && bytes_eq(path.split_at(end).0, other.split_at(end).0);
        if shares && facts.bits[j] & !EXISTS_T != 0 {
            return false;
        }
        j += 1;
    }
    true
}

/// The index key `k` is bound to one value (point bounds).
///
/// The planner knows no value, so it takes them generic, as a query means them: a range
/// around an equality's value, a negation (`$ne`, `$nin`, `$not`) of other values. Not
/// through an array, a key's bounds are the intersection of its predicates': one point
/// (an equality, a `$in` of one value) with anything but `$exists: false` is that point;
/// `$exists: false` is the one point `[null, null]`, kept by negations and by a `$in`
/// holding `null`, emptied by any other value's predicate (and empty bounds are no point:
/// mongod sorts after them); `null` alone is two points (`undefined` too). An array's key
/// takes the bounds of one of its predicates, an equality's first; bound by a `$in` of one
/// value and another predicate it gets a plan with the `$in`'s point (mongod cannot
/// intersect them).
const fn point_key(keys: &Keys, k: usize) -> bool {
    let bits = keys.bits[k];
    let one_in = keys.found[k].points == 1;
    if keys.facts[k].multikey {
        return bits & (EQ | ALL) != 0
            || bits == EXISTS_F
            || (bits & !ELEM_OBJ == IN && one_in)
            || (bits & IN != 0 && keys.found[k].bits & IN_NULL == 0 && one_in);
    }
    if bits & EXISTS_F != 0 {
        let nulls = bits & IN == 0 || keys.found[k].bits & IN_NULL != 0;
        return nulls && bits & !(NEGATIONS | EQ_NULL | IN | IN_NULL | ELEM_OBJ) == 0;
    }
    // (`null` with a value's predicate is nothing)
    bits & EQ_NULL == 0 && (bits & (EQ | ALL) != 0 || (bits & IN != 0 && keys.found[k].bits & IN_NULL == 0 && one_in))
}

/// The sort, its point-bound keys left out, is a prefix of the keys from `from` (point-bound
/// keys left out), or of their reverse.
const fn provides_sort_keys(shape: &Shape, facts: &Keys, index: &Index, from: usize, collation_ok: bool) -> bool {
    let keys = index.keys;
    let mut s = 0;
    let mut k = from;
    // 0: unknown, 1: forward, 2: reverse
    let mut way = 0u8;
    let s_end = shape.sort.len();
    while s < s_end {
        let (spath, dir) = shape.sort[s];
        // a sort key bound to one value by the index is left out; an array's key bound to a
        // value still sorts by its other elements
        let found = key_at(index, spath);
        if let Some(j) = found {
            if facts.points & (1 << j) != 0 {
                if facts.facts[j].multikey {
                    return false;
                }
                s += 1;
                continue;
            }
        }
        let k_end = keys.len();
        while k < k_end && k < MAX_KEYS && facts.points & (1 << k) != 0 {
            k += 1;
        }
        if k >= keys.len() || k >= MAX_KEYS {
            return false;
        }
        let (kpath, kind) = keys[k];
        // `key_at` found the sort key's first position: key `k` is it there, and elsewhere
        // only as a repeated key
        let same = match found {
            Some(j) => j == k || str_eq(kpath, spath),
            None => false,
        };
        if !same {
            return false;
        }
        // with another collation than the query's, the index sorts strings otherwise: its
        // order serves only where the bounds hold no string
        if !collation_ok && !bounds_without_strings(facts, k) {
            return false;
        }
        let forward = match (kind, dir) {
            (IndexKey::Ascending, Direction::Ascending) | (IndexKey::Descending, Direction::Descending) => true,
            (IndexKey::Ascending, Direction::Descending) | (IndexKey::Descending, Direction::Ascending) => false,
            _ => return false,
        };
        let this = if forward { 1 } else { 2 };
        if way != 0 && way != this {
            return false;
        }
        way = this;
        // an array's key sorts only when one scan takes all of it: no merge of several
        // scans, and no bounds (`$exists: true` bounds it `[MinKey, MaxKey]`) on it nor on
        // any key through the same array (`{"r.a": 1}` sorted by `r.p` on `{r.a: 1, r.p: 1}`
        // is a SORT stage; on `{t: 1, l: 1}`, `{t: 1}` sorted by `l` is not)
        if facts.facts[k].multikey && (from > 0 || !array_unbounded(facts, keys, k)) {
            return false;
        }
        k += 1;
        s += 1;
    }
    true
}

/// The index answers the filter, sort and projection from its keys.
const fn covers(
    shape: &Shape,
    conj: &[Filter],
    keys: &Keys,
    model: &Registration,
    index: &Index,
    sort_provided: bool,
) -> bool {
    let projection = shape.projection;
    if matches!(projection, []) {
        return false;
    }
    let mut id_excluded = false;
    let mut included = 0;
    let mut i = 0;
    let i_end = projection.len();
    while i < i_end {
        let (path, include) = projection[i];
        if include {
            if !coverable_key(keys, model, index, path) {
                return false;
            }
            included += 1;
        } else if str_eq(path, "_id") {
            id_excluded = true;
        } else {
            // an exclusion projection returns the rest of the document
            return false;
        }
        i += 1;
    }
    if included == 0 || (!id_excluded && !coverable_key(keys, model, index, "_id")) {
        return false;
    }
    // a sort in memory reads its keys from the index too
    let mut s = 0;
    while !sort_provided && s < shape.sort.len() {
        if !coverable_key(keys, model, index, shape.sort[s].0) {
            return false;
        }
        s += 1;
    }
    filter_covered_in(conj, keys, model, index)
}

/// `path` is an index key whose stored value is the document's.
const fn coverable_key(keys: &Keys, model: &Registration, index: &Index, path: &str) -> bool {
    let Some(k) = key_at(index, path) else { return false };
    // a collated index stores strings' collation keys: mongod returns a key from it only
    // where the bounds hold no string
    let collated = simple(index_collation(index, model)).is_some();
    matches!(index.keys[k].1, IndexKey::Ascending | IndexKey::Descending)
        && !keys.facts[k].multikey
        && (!collated || bounds_without_strings(keys, k))
}

/// A predicate on `path` is answered from the index's keys: a key the index stores as the
/// document holds it, or an array's key whose one bound is exact (an element in it).
const fn filter_key_coverable(keys: &Keys, model: &Registration, index: &Index, path: &str) -> bool {
    if coverable_key(keys, model, index, path) {
        return true;
    }
    let Some(k) = key_at(index, path) else { return false };
    let collated = simple(index_collation(index, model)).is_some();
    let bits = keys.found[k].bits;
    let btree = matches!(index.keys[k].1, IndexKey::Ascending | IndexKey::Descending);
    // a key of a collated index holds collation keys: a comparison in the query's collation
    // (the index's) is answered from them exactly, though the string cannot be returned
    let same = same_collation(index_collation(index, model), model.collation);
    (btree && keys.facts[k].multikey && !collated && (bits == EQ || bits == IN || bits == LO || bits == HI))
        || (btree && !keys.facts[k].multikey && collated && same && bits != 0 && bits & !(EQ | IN | LO | HI) == 0)
}

/// A key of the index is a path through an array.
const fn multikey_index(keys: &Keys, index: &Index) -> bool {
    let mut k = 0;
    let k_end = index.keys.len();
    while k < k_end && k < MAX_KEYS {
        if keys.facts[k].multikey {
            return true;
        }
        k += 1;
    }
    false
}

const fn filter_covered_in(conj: &[Filter], keys: &Keys, model: &Registration, index: &Index) -> bool {
    let mut i = 0;
    let i_end = conj.len();
    while i < i_end {
        match &conj[i] {
            Filter::Pred(pred) => {
                if !filter_key_coverable(keys, model, index, pred.path) {
                    return false;
                }
                let bits = op_bits(&pred.op).bits;
                // a sparse index of one key holds exactly the documents that have it
                let exists = index.sparse && index.keys.len() == 1 && bits == EXISTS_T;
                // a sparse index holds no document a negation may match: it fetches them
                if (bits & !COVERABLE != 0 && !exists) || (index.sparse && bits & MATCH_MISSING != 0) {
                    return false;
                }
                // a multikey index tests no inexact predicate (`$type`, `$mod`, an unanchored
                // `$regex`) on its keys, even on a key that is not an array: it fetches
                if multikey_index(keys, index)
                    && (bits & (TYPE | MOD) != 0 || (bits & REGEX != 0 && bits & REGEX_PREFIX == 0))
                {
                    return false;
                }
            }
            Filter::And(branches) => {
                let mut b = 0;
                let b_end = branches.len();
                while b < b_end {
                    if !filter_covered_in(branches[b], keys, model, index) {
                        return false;
                    }
                    b += 1;
                }
            }
            Filter::Or(branches) if branches.len() == 1 => {
                if !filter_covered_in(branches[0], keys, model, index) {
                    return false;
                }
            }
            _ => return false,
        }
        i += 1;
    }
    true
}

/// An `$elemMatch` query bounds a wildcard index: an equality or range among its keys.
const fn elem_match_bounds(inner: &[Filter]) -> bool {
    let mut i = 0;
    let i_end = inner.len();
    while i < i_end {
        if let Filter::Pred(pred) = &inner[i] {
            if op_bits(&pred.op).bits & (EQ | IN | LO | HI | REGEX_PREFIX) != 0 {
                return true;
            }
        }
        i += 1;
    }
    false
}

/// The projection is `{path: 1, _id: 0}`.
const fn wildcard_projects_only(shape: &Shape, path: &str) -> bool {
    let projection = shape.projection;
    if projection.len() != 2 {
        return false;
    }
    let mut ok = 0;
    let mut i = 0;
    while i < 2 {
        let (p, include) = projection[i];
        if (include && str_eq(p, path)) || (!include && str_eq(p, "_id")) {
            ok += 1;
        }
        i += 1;
    }
    ok == 2
}

/// Every predicate of the conjunction is on `path`, with operators the index answers.
const fn only_path(conj: &[Filter], path: &str) -> bool {
    let mut i = 0;
    let i_end = conj.len();
    while i < i_end {
        match &conj[i] {
            Filter::Pred(pred) => {
                if !str_eq(pred.path, path) || op_bits(&pred.op).bits & !COVERABLE != 0 {
                    return false;
                }
            }
            Filter::Or(branches) if branches.len() == 1 => {
                if !only_path(branches[0], path) {
                    return false;
                }
            }
            Filter::And(branches) => {
                let mut b = 0;
                let b_end = branches.len();
                while b < b_end {
                    if !only_path(branches[b], path) {
                        return false;
                    }
                    b += 1;
                }
            }
            _ => return false,
        }
        i += 1;
    }
    true
}

/// A wildcard index: mongod plans it as a single-key index on each path it covers that a
/// predicate bounds.
const fn fit_wildcard(shape: &Shape, conj: &[Filter], model: &Registration, index: &Index, collation_ok: bool) -> Fit {
    fit_wildcard_in(shape, conj, conj, model, index, collation_ok, NO_FIT)
}

const fn fit_wildcard_in(
    shape: &Shape,
    conj: &[Filter],
    part: &[Filter],
    model: &Registration,
    index: &Index,
    collation_ok: bool,
    mut out: Fit,
) -> Fit {
    let key = index.keys[0].0;
    let mut i = 0;
    let i_end = part.len();
    while i < i_end {
        match &part[i] {
            Filter::And(branches) => {
                let mut b = 0;
                let b_end = branches.len();
                while b < b_end {
                    out = fit_wildcard_in(shape, conj, branches[b], model, index, collation_ok, out);
                    b += 1;
                }
            }
            Filter::Or(branches) if branches.len() == 1 => {
                out = fit_wildcard_in(shape, conj, branches[0], model, index, collation_ok, out);
            }
            _ => {}
        }
        if let Filter::Pred(pred) = &part[i] {
            let path = pred.path.as_bytes();
            // `$elemMatch` on an array of documents under the key: its elements' keys
            if let Op::ElemMatch(inner) = &pred.op {
                if wildcard_covers(index, key, path) && elem_match_bounds(inner) {
                    out.usable = true;
                    out.bound_keys = 1;
                    out.selective = true;
                }
            }
            if wildcard_covers(index, key, path) {
                let facts = path_facts(model.fields, path);
                let bits = usable(
                    use_of(conj, path),
                    IndexKey::Ascending,
                    true,
                    false,
                    facts,
                    collation_ok,
                    simple_strings(index, model),
                );
                if bits != 0 {
                    out.usable = true;
                    out.bound_keys = 1;
                    if bits & POINTS != 0 {
                        out.equality_keys = 1;
                    }
                    out.selective = out.selective || bits & SELECTIVE != 0;
                    // covered: that one path projected, `_id` excluded, every predicate on it
                    // (a negation or `null` matches the documents missing the path, which
                    // the index does not hold: mongod fetches to test it)
                    if !facts.multikey
                        && use_of(conj, path).bits & MATCH_MISSING == 0
                        && wildcard_projects_only(shape, pred.path)
                        && only_path(conj, pred.path)
                        && (matches!(shape.sort, []) || (shape.sort.len() == 1 && str_eq(shape.sort[0].0, pred.path)))
                    {
                        out.covered = true;
                    }
                    // it provides a sort on that one path, not an array, unless only
                    // `$exists: true` bounds it (a scan of the path and its subpaths)
                    if shape.sort.len() == 1
                        && bits & !EXISTS_T != 0
                        && str_eq(shape.sort[0].0, pred.path)
                        && !facts.multikey
                        && collation_ok_for_sort(shape, model, collation_ok)
                    {
                        out.provides_sort = true;
                    }
                }
            }
        }
        i += 1;
    }
    out
}

// ---------------------------------------------------------------------------------------
// The plan.

/// Bits of every index mongod may use (the declared ones, then `_id` unless clustered).
const fn each_index(model: &Registration) -> usize {
    model.indexes.len() + 1
}

const fn nth(model: &Registration, n: usize) -> Option<IndexRef> {
    if n < model.indexes.len() {
        Some(IndexRef::Declared(n))
    } else if matches!(model.clustered, None) {
        Some(IndexRef::Id)
    } else {
        None
    }
}

/// `a` is a better plan than `b` on real data: more keys bound to values, more keys bound,
/// the sort provided, covered, fewer keys.
const fn better(a: Fit, ai: &Index, b: Fit, bi: &Index) -> bool {
    if a.selective != b.selective {
        return a.selective;
    }
    if a.equality_keys != b.equality_keys {
        return a.equality_keys > b.equality_keys;
    }
    if a.bound_keys != b.bound_keys {
        return a.bound_keys > b.bound_keys;
    }
    let (sa, sb) = (a.provides_sort || a.merge_sort, b.provides_sort || b.merge_sort);
    if sa != sb {
        return sa;
    }
    if a.covered != b.covered {
        return a.covered;
    }
    ai.keys.len() < bi.keys.len()
}

struct Best {
    index: Option<IndexRef>,
    fit: Fit,
    candidates: u64,
    sort_scans: u64,
    first_sort_scan: Option<IndexRef>,
    /// The fit of `first_sort_scan`.
    sort_scan_fit: Fit,
}

/// `firsts`: the conjunction's [`Scan::firsts`] ([`FIRSTS_ANY`] when not scanned).
const fn best_for(
    shape: &Shape,
    conj: &'static [Filter],
    model: &Registration,
    facts: &PlanFacts,
    firsts: u64,
) -> Best {
    // `nth`, `IndexRef::index`, `bit`, `fit_conj` and `first_use` written out: this loop
    // runs for every index of every query, and each call is a frame in const evaluation
    let mut out =
        Best { index: None, fit: NO_FIT, candidates: 0, sort_scans: 0, first_sort_scan: None, sort_scan_fit: NO_FIT };
    let declared = model.indexes.len();
    let count = if matches!(model.clustered, None) { declared + 1 } else { declared };
    let sorted_first = match shape.sort {
        [(path, _), ..] => Some(path.as_bytes()),
        [] => None,
    };
    let mut best_index: &Index = &ID_INDEX;
    let mut n = 0;
    while n < count {
        let (r, bit) = if n < declared { (IndexRef::Declared(n), 1u64 << n) } else { (IndexRef::Id, 1u64 << 63) };
        let (index, known) = if n >= declared {
            (&ID_INDEX, &facts.indexes[MAX_INDEXES])
        } else if n < MAX_INDEXES {
            (&model.indexes[n], &facts.indexes[n])
        } else {
            (&model.indexes[n], &facts.indexes[MAX_INDEXES])
        };
        let f = if n < declared && n >= MAX_INDEXES {
            fit_computed(shape, conj, model, n)
        } else if known.empty {
            NO_FIT
        } else if known.wildcard {
            fit_named(shape, conj, model, index, known, Use { bits: 0, points: 1 })
        } else {
            // what the filter asks of the first key; an index neither the filter nor the
            // sort names fits nothing
            let key = index.keys[0].0.as_bytes();
            let maybe = match key {
                [byte, ..] => firsts & (1 << (*byte % 64)) != 0,
                [] => true,
            };
            let first = if maybe { use_of(conj, key) } else { Use { bits: 0, points: 1 } };
            let named = first.bits != 0
                || match sorted_first {
                    Some(path) => bytes_eq(path, key),
                    None => false,
                };
            if named {
                fit_named(shape, conj, model, index, known, first)
            } else {
                NO_FIT
            }
        };
        if f.usable {
            out.candidates |= bit;
            let replace = match out.index {
                None => true,
                Some(_) => better(f, index, out.fit, best_index),
            };
            if replace {
                out.index = Some(r);
                out.fit = f;
                best_index = index;
            }
        }
        if f.sort_scan {
            out.sort_scans |= bit;
            if matches!(out.first_sort_scan, None) {
                out.first_sort_scan = Some(r);
                out.sort_scan_fit = f;
            }
        }
        n += 1;
    }
    out
}

/// Whether a usable index also walks whole for the sort (one usable on the filter is a
/// bounded candidate already; mongod adds whole-index scans of the others).
const fn whole_sort_scan(
    shape: &Shape,
    conj: &'static [Filter],
    model: &Registration,
    facts: &PlanFacts,
    r: IndexRef,
) -> bool {
    let index = r.index(model);
    // the walk provides the sort only from the index's first key (nothing bounds a key)
    if matches!(index.keys, []) || matches!(shape.sort, []) || !str_eq(shape.sort[0].0, index.keys[0].0) {
        return false;
    }
    if !admissible(index, conj, shape.literals) || is_wildcard_key(index.keys[0].0) {
        return false;
    }
    let mut k = 0;
    let k_end = index.keys.len();
    while k < k_end {
        if !matches!(index.keys[k].1, IndexKey::Ascending | IndexKey::Descending) {
            return false;
        }
        k += 1;
    }
    let computed;
    let known = match r {
        IndexRef::Id => &facts.indexes[MAX_INDEXES],
        IndexRef::Declared(n) if n < MAX_INDEXES => &facts.indexes[n],
        IndexRef::Declared(_) => {
            computed = index_facts(index, model);
            &computed
        }
    };
    sort_scan(shape, &keys_of(conj, index, known, None), index, known.collation_ok)
}

/// The indexes of the plan mongod adds for a `$or` beside a conjunction an index bounds
/// (`{a: v, $or: [{b: w}, {c: x}]}`): each branch's own, or one of `outer` (the indexes the
/// conjunction bounds) with a later key the branch names, into which mongod pushes the
/// conjunction's predicate; none when a branch has neither (mongod plans no `$or` then).
const fn or_candidates(
    shape: &Shape,
    conj: &'static [Filter],
    model: &Registration,
    facts: &PlanFacts,
    outer: u64,
) -> u64 {
    let Some(branches) = first_or(conj) else { return 0 };
    let mut out = 0;
    let mut b = 0;
    let b_end = branches.len();
    while b < b_end {
        let found = best_for(shape, branches[b], model, facts, FIRSTS_ANY);
        if matches!(found.index, Some(_)) {
            out |= found.candidates;
        } else {
            let mut pushed = 0;
            let mut n = 0;
            while n < each_index(model) {
                if let Some(r) = nth(model, n) {
                    let keys = r.index(model).keys;
                    let mut k = 1;
                    while outer & r.bit() != 0 && k < keys.len() {
                        if use_of(branches[b], keys[k].0.as_bytes()).bits & BTREE_OPS != 0 {
                            pushed |= r.bit();
                        }
                        k += 1;
                    }
                }
                n += 1;
            }
            if pushed == 0 {
                return 0;
            }
            out |= pushed;
        }
        b += 1;
    }
    out
}

const EMPTY: Verdict = Verdict {
    index: None,
    candidates: 0,
    sort_scans: 0,
    id_hack: false,
    whole_index: false,
    fit: NO_FIT,
    sort_in_memory: false,
    or: false,
    or_branches: [None; OR_BRANCHES],
    or_len: 0,
    broadcast: false,
    unindexed: None,
    no_filter: false,
};

/// The verdict of mongod's planner on `shape` over `model`'s indexes.
pub const fn plan(shape: &Shape, model: &Registration) -> Verdict {
    plan_with(shape, model, &PlanFacts::of(model))
}

/// What [`plan_with`] reads of a conjunction's top level, gathered in one walk (each walk
/// of its own cost a call and a loop a query).
#[derive(Clone, Copy)]
struct Scan {
    /// [`has_text`]
    text: bool,
    /// [`near_path`]
    near: Option<&'static str>,
    /// [`first_or`]
    or: Option<&'static [&'static [Filter]]>,
    /// [`has_preds`]
    preds: bool,
    /// The first bytes of the top level's predicates' paths (bit `byte % 64`), every bit
    /// when a predicate hides under an `$and` or a `$or` of one branch: an index whose
    /// first key's first byte is not among them takes none of them ([`FIRSTS_ANY`]).
    firsts: u64,
}

/// [`Scan::firsts`] when the paths are not known: every first key may be named.
const FIRSTS_ANY: u64 = u64::MAX;

const fn scan(conj: &'static [Filter]) -> Scan {
    let mut out = Scan { text: false, near: None, or: None, preds: false, firsts: 0 };
    let mut i = 0;
    let i_end = conj.len();
    while i < i_end {
        match &conj[i] {
            Filter::Pred(pred) => {
                out.preds = true;
                // (an `$elemMatch`'s keys are below its path: the same first byte)
                out.firsts |= match pred.path.as_bytes() {
                    [first, ..] => 1 << (*first % 64),
                    [] => FIRSTS_ANY,
                };
                if matches!(out.near, None) {
                    if let Op::Near = pred.op {
                        out.near = Some(pred.path);
                    }
                }
            }
            Filter::Text => {
                out.text = true;
                out.preds = true;
            }
            Filter::And(_) => {
                // rare: the walks that look inside
                out.firsts = FIRSTS_ANY;
                let one = core::slice::from_ref(&conj[i]);
                out.text = out.text || has_text(one);
                out.preds = out.preds || has_preds(one);
            }
            Filter::Or(branches) => {
                if branches.len() > 1 {
                    if matches!(out.or, None) {
                        out.or = Some(branches);
                    }
                } else if branches.len() == 1 {
                    out.firsts = FIRSTS_ANY;
                    if !out.preds {
                        out.preds = has_preds(branches[0]);
                    }
                }
            }
            _ => {}
        }
        i += 1;
    }
    out
}

/// [`plan_with`] for `$text` and `$near`, which need their index whatever else the filter says.
const fn plan_special(shape: &Shape, model: &Registration, scan: &Scan, mut v: Verdict) -> Verdict {
    let sorted = !matches!(shape.sort, []);
    if scan.text {
        let mut i = 0;
        let i_end = model.indexes.len();
        while i < i_end {
            let index = &model.indexes[i];
            if !index.hidden && has_kind(index, IndexKey::Text) {
                v.index = Some(IndexRef::Declared(i));
                v.candidates = IndexRef::Declared(i).bit();
                v.fit = Fit { usable: true, bound_keys: 1, selective: true, ..NO_FIT };
                v.sort_in_memory = sorted;
                return v;
            }
            i += 1;
        }
        v.unindexed = Some(Unindexed::NoTextIndex);
        v.sort_in_memory = sorted;
        return v;
    }
    let path = match scan.near {
        Some(path) => path,
        None => "",
    };
    let mut i = 0;
    let i_end = model.indexes.len();
    while i < i_end {
        let index = &model.indexes[i];
        let mut k = 0;
        let k_end = index.keys.len();
        while k < k_end {
            let (kpath, kind) = index.keys[k];
            if !index.hidden && str_eq(kpath, path) && matches!(kind, IndexKey::Sphere2d | IndexKey::Geo2d) {
                v.index = Some(IndexRef::Declared(i));
                v.candidates = IndexRef::Declared(i).bit();
                v.fit = Fit { usable: true, bound_keys: 1, selective: true, ..NO_FIT };
                v.sort_in_memory = sorted;
                return v;
            }
            k += 1;
        }
        i += 1;
    }
    v.unindexed = Some(Unindexed::NoGeoIndex);
    v.sort_in_memory = sorted;
    v
}

/// [`plan_with`] when no index bounds the conjunction and it holds a `$or` (`branches`):
/// one index scan per branch when every branch has an index; `None` when one has none
/// (`v.unindexed` then names it).
const fn plan_or(
    shape: &Shape,
    model: &Registration,
    facts: &PlanFacts,
    branches: &'static [&'static [Filter]],
    best: &Best,
    v: &mut Verdict,
) -> bool {
    let sorted = !matches!(shape.sort, []);
    let mut all = true;
    let mut b = 0;
    let mut provides = true;
    let b_end = branches.len();
    while b < b_end {
        let found = best_for(shape, branches[b], model, facts, FIRSTS_ANY);
        match found.index {
            Some(r) => {
                if b < OR_BRANCHES {
                    v.or_branches[b] = Some(r);
                }
                v.candidates |= found.candidates;
                provides = provides && (found.fit.provides_sort || found.fit.merge_sort);
            }
            None => {
                if all {
                    v.unindexed = Some(Unindexed::OrBranch(b));
                }
                all = false;
            }
        }
        b += 1;
    }
    v.or_len = branches.len();
    if all {
        v.or = true;
        v.index = v.or_branches[0];
        v.fit = Fit { usable: true, selective: true, ..NO_FIT };
        v.sort_in_memory = sorted && !provides;
        if v.sort_in_memory {
            v.sort_scans = best.sort_scans;
        }
        return true;
    }
    v.or_branches = [None; OR_BRANCHES];
    v.candidates = 0;
    false
}

/// The indexes mongod also walks whole for the sort beside a bounded plan that does not
/// provide it.
const fn sort_scans(shape: &Shape, conj: &'static [Filter], model: &Registration, facts: &PlanFacts) -> u64 {
    let mut out = 0;
    let count = each_index(model);
    let mut n = 0;
    while n < count {
        if let Some(other) = nth(model, n) {
            if whole_sort_scan(shape, conj, model, facts, other) {
                out |= other.bit();
            }
        }
        n += 1;
    }
    out
}

/// [`plan`] with the model's [`PlanFacts`] ([`Planned::FACTS`] in a `query!`).
pub const fn plan_with(shape: &Shape, model: &Registration, facts: &PlanFacts) -> Verdict {
    let mut v = EMPTY;
    let conj = shape.filter;
    if !matches!(model.shard_key, []) {
        v.broadcast = broadcast(conj, model);
    }
    let sorted = !matches!(shape.sort, []);
    let scan = scan(conj);

    // `$text` and `$near` need their index, whatever else the filter says
    if scan.text || matches!(scan.near, Some(_)) {
        return plan_special(shape, model, &scan, v);
    }
    // `{_id: value}` alone
    if conj.len() == 1 && matches!(shape.skip, None) && matches!(model.clustered, None) {
        if let Filter::Pred(pred) = &conj[0] {
            if str_eq(pred.path, "_id") && matches!(pred.op, Op::Eq) {
                v.index = Some(IndexRef::Id);
                v.candidates = IndexRef::Id.bit();
                v.id_hack = true;
                v.fit = Fit { usable: true, bound_keys: 1, equality_keys: 1, selective: true, ..NO_FIT };
                return v;
            }
        }
    }

    let best = best_for(shape, conj, model, facts, scan.firsts);
    v.candidates = best.candidates;
    if let Some(r) = best.index {
        // mongod plans the `$or` beside the bounded scans when each branch has an index
        if matches!(scan.or, Some(_)) {
            v.candidates |= or_candidates(shape, conj, model, facts, best.candidates);
        }
        v.index = Some(r);
        v.fit = best.fit;
        v.sort_in_memory = sorted && !best.fit.provides_sort && !best.fit.merge_sort;
        if v.sort_in_memory {
            // no bounded plan provides the sort: mongod also plans whole-index scans of
            // every index that does
            v.sort_scans = sort_scans(shape, conj, model, facts);
        }
        if !best.fit.selective {
            v.unindexed = Some(Unindexed::Unselective);
        }
        return v;
    }

    // a `$or` with an index for every branch
    if let Some(branches) = scan.or {
        if plan_or(shape, model, facts, branches, &best, &mut v) {
            return v;
        }
    }

    // no index bounds the filter: an index providing the sort is walked whole
    v.no_filter = !scan.preds && matches!(scan.or, None);
    if let Some(r) = best.first_sort_scan {
        v.index = Some(r);
        v.sort_scans = best.sort_scans;
        v.whole_index = true;
        v.fit = best.sort_scan_fit;
        v.fit.provides_sort = true;
        if !v.no_filter && matches!(v.unindexed, None) {
            v.unindexed = Some(Unindexed::WholeIndex);
        }
        return v;
    }
    v.sort_in_memory = sorted;
    if !v.no_filter && matches!(v.unindexed, None) {
        v.unindexed = Some(Unindexed::CollectionScan);
    }
    if v.no_filter {
        v.unindexed = None;
    }
    v
}

const fn has_kind(index: &Index, kind: IndexKey) -> bool {
    let mut k = 0;
    let k_end = index.keys.len();
    while k < k_end {
        if index.keys[k].1 as u8 == kind as u8 {
            return true;
        }
        k += 1;
    }
    false
}

/// The model is sharded and the filter's equalities do not name the shard key's first key.
const fn broadcast(conj: &'static [Filter], model: &Registration) -> bool {
    if matches!(model.shard_key, []) {
        return false;
    }
    let first = model.shard_key[0].0.as_bytes();
    if use_of(conj, first).bits & (EQ | EQ_NULL | IN) != 0 {
        return false;
    }
    // a `$or` each of whose branches names it targets those shards
    if let Some(branches) = first_or(conj) {
        let mut b = 0;
        let b_end = branches.len();
        while b < b_end {
            if use_of(branches[b], first).bits & (EQ | EQ_NULL | IN) == 0 {
                return true;
            }
            b += 1;
        }
        return matches!(branches, []);
    }
    true
}

// ---------------------------------------------------------------------------------------
// The index to add: equalities, then the sort, then ranges (ESR).

/// At most this many keys in a suggested index.
const MAX_SUGGESTED: usize = 16;

/// The keys of the index that answers `conj` with `shape`'s sort, in ESR order.
#[derive(Clone, Copy)]
pub struct Suggestion {
    keys: [(&'static str, i8); MAX_SUGGESTED],
    len: usize,
}

impl Suggestion {
    /// The keys and their directions (`1`, `-1`).
    pub const fn keys(&self) -> &[(&'static str, i8)] {
        self.keys.split_at(self.len).0
    }

    const fn has(&self, path: &str) -> bool {
        let mut i = 0;
        while i < self.len {
            if str_eq(self.keys[i].0, path) {
                return true;
            }
            i += 1;
        }
        false
    }

    const fn push(mut self, path: &'static str, dir: i8) -> Self {
        if self.len < MAX_SUGGESTED && !self.has(path) {
            self.keys[self.len] = (path, dir);
            self.len += 1;
        }
        self
    }
}

const fn collect_paths(mut s: Suggestion, conj: &'static [Filter], want: u32) -> Suggestion {
    let mut i = 0;
    let i_end = conj.len();
    while i < i_end {
        match &conj[i] {
            Filter::Pred(pred) if op_bits(&pred.op).bits & want != 0 => s = s.push(pred.path, 1),
            Filter::And(branches) => {
                let mut b = 0;
                let b_end = branches.len();
                while b < b_end {
                    s = collect_paths(s, branches[b], want);
                    b += 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    s
}

/// The ESR index for the conjunction `conj` and `shape`'s sort.
pub const fn suggest(shape: &Shape, conj: &'static [Filter]) -> Suggestion {
    let mut s = Suggestion { keys: [("", 1); MAX_SUGGESTED], len: 0 };
    s = collect_paths(s, conj, EQ | EQ_NULL | IN | ALL);
    let mut i = 0;
    let i_end = shape.sort.len();
    while i < i_end {
        let (path, dir) = shape.sort[i];
        s = s.push(path, if matches!(dir, Direction::Descending) { -1 } else { 1 });
        i += 1;
    }
    collect_paths(s, conj, LO | HI | REGEX_PREFIX | ELEM_VALUE | EXISTS_F)
}

// ---------------------------------------------------------------------------------------
// Messages and the compile-time check.

const fn is_keyword(name: &str) -> bool {
    const KEYWORDS: [&str; 38] = [
        "as", "async", "await", "break", "const", "continue", "crate", "dyn", "else", "enum", "extern", "false", "fn",
        "for", "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub", "ref", "return", "self",
        "static", "struct", "super", "trait", "true", "type", "unsafe", "use", "where", "while", "gen",
    ];
    let mut i = 0;
    let i_end = KEYWORDS.len();
    while i < i_end {
        if str_eq(KEYWORDS[i], name) {
            return true;
        }
        i += 1;
    }
    false
}

const fn is_ident(name: &str) -> bool {
    let b = name.as_bytes();
    if matches!(b, []) || b[0].is_ascii_digit() {
        return false;
    }
    let mut i = 0;
    let i_end = b.len();
    while i < i_end {
        if !(b[i].is_ascii_alphanumeric() || b[i] == b'_') {
            return false;
        }
        i += 1;
    }
    !str_eq(name, "_") && !str_eq(name, "self") && !str_eq(name, "super") && !str_eq(name, "crate")
}

/// `key` as the derive's `keys(..)` reads it: `name`, `r#type` or `"a.b"`.
const fn key_name(m: ConstMessage, key: &str) -> ConstMessage {
    if is_ident(key) {
        if is_keyword(key) {
            m.str("r#").str(key)
        } else {
            m.str(key)
        }
    } else {
        m.str("\"").str(key).str("\"")
    }
}

/// `index(keys(a = 1, b = -1))`.
pub const fn index_attribute(m: ConstMessage, keys: &[(&'static str, i8)]) -> ConstMessage {
    let mut m = m.str("index(keys(");
    let mut i = 0;
    let i_end = keys.len();
    while i < i_end {
        if i > 0 {
            m = m.str(", ");
        }
        m = key_name(m, keys[i].0).str(if keys[i].1 < 0 { " = -1" } else { " = 1" });
        i += 1;
    }
    m.str("))")
}

/// `{a: 1, b: -1}` of an index's keys.
pub const fn index_keys(m: ConstMessage, index: &Index) -> ConstMessage {
    let mut m = m.str("{");
    let mut i = 0;
    let i_end = index.keys.len();
    while i < i_end {
        if i > 0 {
            m = m.str(", ");
        }
        let (path, kind) = index.keys[i];
        m = m.str(path).str(": ");
        m = match kind {
            IndexKey::Ascending => m.str("1"),
            IndexKey::Descending => m.str("-1"),
            other => m.str("\"").str(other.suffix()).str("\""),
        };
        i += 1;
    }
    m.str("}")
}

const fn sort_text(m: ConstMessage, shape: &Shape) -> ConstMessage {
    let mut m = m.str("{");
    let mut i = 0;
    let i_end = shape.sort.len();
    while i < i_end {
        if i > 0 {
            m = m.str(", ");
        }
        let (path, dir) = shape.sort[i];
        m = m.str(path).str(if matches!(dir, Direction::Descending) { ": -1" } else { ": 1" });
        i += 1;
    }
    m.str("}")
}

const fn add_index(m: ConstMessage, model: &Registration, s: &Suggestion) -> ConstMessage {
    index_attribute(m.str("add `#[mongo("), s.keys()).str(")]` to `").str(model.name).str("`")
}

const fn waive(m: ConstMessage, rule: Rule) -> ConstMessage {
    m.str(", or waive it on the query with `allow(").str(rule.id()).str(", reason = \"...\")`")
}

/// Why mongod cannot use a declared index whose first key the filter names.
#[derive(Clone, Copy)]
enum Unusable {
    Hidden,
    Partial(&'static str),
    Sparse,
    Collation,
    Hashed,
}

/// The first declared index whose first key a predicate of `conj` names and that mongod
/// cannot use for it, and why: the fix is then that index's, not a new one on its keys.
const fn unusable_index(shape: &Shape, conj: &'static [Filter], model: &Registration) -> Option<(usize, Unusable)> {
    let mut n = 0;
    let n_end = model.indexes.len();
    while n < n_end {
        let index = &model.indexes[n];
        if let Some(&(path, kind)) = index.keys.first() {
            let found = use_of(conj, path.as_bytes());
            let facts = path_facts(model.fields, path.as_bytes());
            let collation_ok = index_collation_ok(index, model);
            let why = if found.bits == 0 || is_wildcard_key(path) {
                None
            } else if index.hidden {
                Some(Unusable::Hidden)
            } else if !admissible(index, conj, shape.literals) {
                match index.partial {
                    Some(text) => Some(Unusable::Partial(text)),
                    None => None,
                }
            } else if index.sparse && found.bits & MATCH_MISSING != 0 {
                Some(Unusable::Sparse)
            } else if !collation_ok && string_path(facts) && found.bits & STRING_OPS != 0 {
                Some(Unusable::Collation)
            } else if matches!(kind, IndexKey::Hashed) && found.bits & (LO | HI | REGEX | NE | NIN | NOT) != 0 {
                Some(Unusable::Hashed)
            } else {
                None
            };
            if let Some(why) = why {
                return Some((n, why));
            }
        }
        n += 1;
    }
    None
}

const fn collation_text(m: ConstMessage, c: Option<Collation>) -> ConstMessage {
    match simple(c) {
        None => m.str("simple (binary)"),
        Some(c) => {
            let m = m.str("{locale: \"").str(c.locale).str("\"");
            let m = match c.strength {
                Some(n) => m.str(", strength: ").number(n as u64),
                None => m,
            };
            m.str("}")
        }
    }
}

/// What to write instead when `index` is there but mongod cannot use it.
const fn unusable_fix(m: ConstMessage, model: &Registration, n: usize, why: Unusable) -> ConstMessage {
    let index = &model.indexes[n];
    let m = index_keys(m.str("; the model's index `").str(index.name).str("` "), index);
    match why {
        Unusable::Hidden => m.str(
            " is hidden: mongod keeps it up to date and never plans with it; unhide it (remove `hidden` from its `index(..)`)",
        ),
        Unusable::Partial(text) => m
            .str(" is partial (`partialFilterExpression` ")
            .str(text)
            .str(") and the filter does not imply that expression, so mongod cannot use it (it lacks the other documents); add the expression's condition to the filter, or declare the index without `partial`"),
        Unusable::Sparse => m.str(
            " is sparse: it holds no document without the key, which `null`, `$exists: false` and negations match, so mongod cannot use it; ask for a value, or declare the index without `sparse`",
        ),
        Unusable::Collation => {
            let m = collation_text(m.str(" compares strings by collation "), index_collation(index, model));
            collation_text(m.str(" and the query by the collection's, "), model.collation).str(
                ": mongod uses it only for a query of its collation, which `query!` does not set; declare the index without `collation(..)` (or give the collection that default collation)",
            )
        }
        Unusable::Hashed => {
            let path = index.keys[0].0;
            key_name(
                m.str(" hashes `").str(path).str("`: it answers equalities and `$in` only; for a range add `#[mongo(index(keys("),
                path,
            )
            .str(" = 1)))]` to `")
            .str(model.name)
            .str("`")
        }
    }
}

/// The message of `rule` on `shape` (which breaks it).
pub const fn message(shape: &Shape, model: &Registration, v: &Verdict, rule: Rule) -> ConstMessage {
    let mut m = ConstMessage::new().str(rule.id()).str(": ");
    match shape.name {
        Some(name) => m = m.str("query `").str(name).str("` on `").str(model.name).str("`: "),
        None => m = m.str("this query on `").str(model.name).str("`: "),
    }
    match rule {
        Rule::Unindexed => {
            let mut conj = shape.filter;
            let why = match v.unindexed {
                Some(why) => why,
                None => Unindexed::CollectionScan,
            };
            match why {
                Unindexed::NoTextIndex => {
                    return waive(
                        m.str("`$text` needs a text index and the model declares none: mongod refuses the query; add `#[mongo(index(keys(field = \"text\")))]` (the string fields searched) to `")
                            .str(model.name)
                            .str("`"),
                        rule,
                    );
                }
                Unindexed::NoGeoIndex => {
                    let path = match near_path(conj) {
                        Some(p) => p,
                        None => "",
                    };
                    return waive(
                        key_name(
                            m.str("`$near` on `").str(path).str("` needs a 2dsphere or 2d index on it: mongod refuses the query; add `#[mongo(index(keys("),
                            path,
                        )
                        .str(" = \"2dsphere\")))]` to `")
                        .str(model.name)
                        .str("`"),
                        rule,
                    );
                }
                Unindexed::CollectionScan => {
                    m = m.str("no declared index bounds its filter, so mongod reads every document (COLLSCAN)");
                }
                Unindexed::WholeIndex => {
                    m = m.str("no declared index bounds its filter; mongod walks the whole of index `");
                    if let Some(r) = v.index {
                        m = index_keys(m.str(r.index(model).name).str("` "), r.index(model));
                    }
                    m = m.str(" for the sort, fetching and testing every document");
                }
                Unindexed::Unselective => {
                    m = m.str("the only index mongod can use, `");
                    if let Some(r) = v.index {
                        m = index_keys(m.str(r.index(model).name).str("` "), r.index(model));
                    }
                    m = m.str(", is bounded by `$ne`, `$nin`, `$not`, `$exists`, `$type`, `$mod` or an unanchored `$regex` only, whose bounds cover (nearly) every value: it selects nothing");
                }
                Unindexed::OrBranch(b) => {
                    m = m.str("branch ").number(b as u64 + 1).str(
                        " of its `$or` has no index, so mongod reads every document (COLLSCAN): every branch needs one",
                    );
                    if let Some(branches) = first_or(conj) {
                        conj = branches[b];
                    }
                }
            }
            // an index on those keys is declared, and unusable: say why and its fix
            if matches!(why, Unindexed::CollectionScan | Unindexed::OrBranch(_)) {
                if let Some((n, unusable)) = unusable_index(shape, conj, model) {
                    return waive(unusable_fix(m, model, n, unusable), rule);
                }
            }
            let s = suggest(shape, conj);
            if s.len == 0 {
                m = m.str("; no predicate of it can bound an index: add an equality or a range on a field");
            } else {
                m = add_index(m.str("; "), model, &s);
            }
            waive(m, rule)
        }
        Rule::SortInMemory => {
            m = sort_text(m.str("no index returns documents in the order `sort = "), shape).str("` asks");
            if let Some(r) = v.index {
                let index = r.index(model);
                m = index_keys(m.str(" (it uses `").str(index.name).str("` "), index).str(")");
            }
            m = m.str(
                " and it has no `limit`: mongod sorts every match in memory (a SORT stage, refused past 100 MB); ",
            );
            let s = suggest(shape, shape.filter);
            m = add_index(m, model, &s).str(" (equalities, then the sort, then ranges) or set a `limit`");
            waive(m, rule)
        }
        Rule::Broadcast => {
            m = m.str("`").str(model.name).str("` is sharded on `{");
            let mut i = 0;
            let i_end = model.shard_key.len();
            while i < i_end {
                if i > 0 {
                    m = m.str(", ");
                }
                let (path, kind) = model.shard_key[i];
                m = m.str(path).str(": ").str(kind.suffix());
                i += 1;
            }
            m = m.str("}` and the query has no equality on `").str(model.shard_key[0].0);
            m = m
                .str("`: mongos sends it to every shard; add an equality (or `$in`) on `")
                .str(model.shard_key[0].0)
                .str("`");
            waive(m, rule)
        }
    }
}

/// The query waives `rule` (`allow(rule, reason = "..")`).
pub const fn waived(shape: &Shape, rule: Rule) -> bool {
    let mut i = 0;
    let i_end = shape.allow.len();
    while i < i_end {
        // the one rule's id as a pattern: one comparison an entry (`rule_named` tries each)
        let id = shape.allow[i].0.as_bytes();
        let hit = match rule {
            Rule::Unindexed => matches!(id, b"query_unindexed"),
            Rule::SortInMemory => matches!(id, b"query_sort_in_memory"),
            Rule::Broadcast => matches!(id, b"query_broadcast"),
        };
        if hit {
            return true;
        }
        i += 1;
    }
    false
}

/// The first rule `shape` breaks and does not waive.
pub const fn problem(shape: &Shape, v: &Verdict) -> Option<Rule> {
    // `Rule::ALL`'s order, written out: no call a rule
    if matches!(v.unindexed, Some(_)) && !waived(shape, Rule::Unindexed) {
        Some(Rule::Unindexed)
    } else if v.sort_in_memory && matches!(shape.limit, None) && !waived(shape, Rule::SortInMemory) {
        Some(Rule::SortInMemory)
    } else if v.broadcast && !waived(shape, Rule::Broadcast) {
        Some(Rule::Broadcast)
    } else {
        None
    }
}

/// No verdict can give `shape` a problem on `model`: it waives every rule that may apply
/// (`query_unindexed` always may; `query_sort_in_memory` with a sort and no `limit`;
/// `query_broadcast` on a sharded model), so [`enforce_on`] needs no plan.
const fn all_waived(shape: &Shape, model: &Registration) -> bool {
    // one walk of the waivers, each id compared (a call chain in const evaluation) only
    // with the one rule its seventh byte names, and only while that rule may still apply
    let mut unindexed = false;
    let mut sort = matches!(shape.sort, []) || matches!(shape.limit, Some(_));
    let mut broadcast = matches!(model.shard_key, []);
    let mut rest = shape.allow;
    while let [(id, _), tail @ ..] = rest {
        let id = id.as_bytes();
        match id {
            [_, _, _, _, _, _, b'u', ..] => unindexed = unindexed || matches!(id, b"query_unindexed"),
            [_, _, _, _, _, _, b's', ..] => sort = sort || matches!(id, b"query_sort_in_memory"),
            [_, _, _, _, _, _, b'b', ..] => broadcast = broadcast || matches!(id, b"query_broadcast"),
            _ => {}
        }
        rest = tail;
    }
    unindexed && sort && broadcast
}

/// Fails the build (a `const` panic naming the rule, what is wrong and the fix) when the
/// planner refuses `shape` on `model` and the query does not waive the rule.
#[track_caller]
pub const fn enforce(shape: &Shape, model: &Registration) {
    let v = plan(shape, model);
    if let Some(rule) = problem(shape, &v) {
        refuse(shape, model, &v, rule);
    }
}

/// [`enforce`] on the collection root `M` (named `rust_type` in the message), with its
/// [`Planned::FACTS`]: what `query!` calls.
#[track_caller]
pub const fn enforce_on<M: MongoCollection>(shape: &Shape, rust_type: &'static str) {
    let model = Planned::<M>::MODEL;
    if all_waived(shape, model) {
        return;
    }
    let v = plan_with(shape, model, Planned::<M>::FACTS);
    if let Some(rule) = problem(shape, &v) {
        refuse(shape, &Registration::of::<M>(rust_type), &v, rule);
    }
}

/// [`all_waived`] with the rules waived as bits (`1 << rule as u8` each).
const fn all_waived_bits(shape: &Shape, model: &Registration, waived: u8) -> bool {
    let mut needed = 1 << Rule::Unindexed as u8;
    if !matches!(shape.sort, []) && matches!(shape.limit, None) {
        needed |= 1 << Rule::SortInMemory as u8;
    }
    if !matches!(model.shard_key, []) {
        needed |= 1 << Rule::Broadcast as u8;
    }
    waived & needed == needed
}

/// [`enforce_on`] with the rules `shape.allow` waives as bits (`1 << rule as u8` each),
/// which `query!` knows as it writes them: the plan is skipped, as by [`enforce_on`], when
/// every rule that may apply is waived, without reading the waivers' ids.
#[track_caller]
pub const fn enforce_on_waiving<M: MongoCollection>(shape: &Shape, rust_type: &'static str, waived: u8) {
    let model = Planned::<M>::MODEL;
    if all_waived_bits(shape, model, waived) {
        return;
    }
    let v = plan_with(shape, model, Planned::<M>::FACTS);
    if let Some(rule) = problem(shape, &v) {
        refuse(shape, &Registration::of::<M>(rust_type), &v, rule);
    }
}

/// The panic of [`enforce`], apart: a call's frame holds every local of the callee, and
/// the message's are many.
#[track_caller]
const fn refuse(shape: &Shape, model: &Registration, v: &Verdict, rule: Rule) -> ! {
    let m = message(shape, model, v, rule);
    panic!("{}", m.as_str());
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `query!` writes a waiver as `1 <<` the rule's position in the contract's list: the
    /// bit `enforce_on_waiving` reads as `1 << rule as u8`.
    #[test]
    fn a_rules_bit_is_its_position_in_the_contracts_list() {
        for rule in Rule::ALL {
            assert_eq!(rules::QUERY_RULES[rule as usize], rule.id());
        }
        assert_eq!(rules::QUERY_RULES.len(), Rule::ALL.len());
    }

    const FILLER: Index =
        Index { name: "filler_1", keys: &[("filler", IndexKey::Ascending)], unique: false, ..ID_INDEX };
    const STATUS: Index = Index {
        name: "status_1_quantity_1",
        keys: &[("status", IndexKey::Ascending), ("quantity", IndexKey::Ascending)],
        ..FILLER
    };
    /// As many declared indexes as a model takes (63 and `_id`'s), the one the query needs
    /// last: past [`PlanFacts`]'s table, its facts are computed in place.
    static LAST: [Index; 63] = {
        let mut all = [FILLER; 63];
        all[62] = STATUS;
        all
    };
    static IN_THE_TABLE: [Index; 2] = [STATUS, FILLER];

    fn registration(indexes: &'static [Index]) -> Registration {
        Registration {
            db: "db",
            collection: "t_order",
            rust_type: "Order",
            validation_level: crate::command::ValidationLevel::Strict,
            validation_action: crate::command::ValidationAction::Error,
            json_schema: crate::bson::Document::new,
            timeseries: None,
            capped: None,
            collation: None,
            clustered: None,
            indexes,
            shard_key: &[],
            renames: &[],
            max_document_size: None,
            name: "Order",
            fields: None,
        }
    }

    #[test]
    fn the_last_index_a_model_takes_is_planned_as_the_first() {
        let shape = Shape {
            filter: &[Filter::Pred(super::super::shape::Pred { path: "status", op: Op::Eq })],
            sort: &[("quantity", Direction::Descending)],
            projection: &[],
            limit: None,
            skip: None,
            name: None,
            allow: &[],
            literals: &[],
            module: "m",
            file: "f",
            line: 1,
        };
        let past = plan(&shape, &registration(&LAST));
        let inside = plan(&shape, &registration(&IN_THE_TABLE));
        assert_eq!(past.index, Some(IndexRef::Declared(62)));
        assert_eq!(inside.index, Some(IndexRef::Declared(0)));
        for v in [past, inside] {
            assert_eq!((v.fit.equality_keys, v.fit.bound_keys, v.fit.provides_sort), (1, 1, true));
            assert!(!v.sort_in_memory && v.unindexed.is_none());
        }
    }

    /// `enforce_on` skips the plan when `all_waived`: on a filter no index bounds, sorted in
    /// memory and not naming the shard key (every rule breaks unless waived), the skip is
    /// taken exactly when the plan's verdict has no problem, over every waiver, sort, limit
    /// and shard key.
    #[test]
    fn the_plan_is_skipped_exactly_when_no_verdict_can_refuse() {
        let sharded = Registration { shard_key: &[("customerId", IndexKey::Ascending)], ..registration(&IN_THE_TABLE) };
        let mut skipped = 0;
        for model in [registration(&IN_THE_TABLE), sharded] {
            for waivers_bits in 0..8u8 {
                let allow: Vec<(&'static str, &'static str)> = Rule::ALL
                    .iter()
                    .filter(|r| waivers_bits & (1 << **r as u8) != 0)
                    .map(|r| (r.id(), "test"))
                    .collect();
                for (sort, limit) in [(false, None), (true, None), (true, Some(10))] {
                    let shape = Shape {
                        filter: &[Filter::Pred(super::super::shape::Pred { path: "title", op: Op::Eq })],
                        sort: if sort { &[("quantity", Direction::Descending)] } else { &[] },
                        projection: &[],
                        limit,
                        skip: None,
                        name: None,
                        allow: Vec::leak(allow.clone()),
                        literals: &[],
                        module: "m",
                        file: "f",
                        line: 1,
                    };
                    for rule in Rule::ALL {
                        assert_eq!(waived(&shape, rule), waivers_bits & (1 << rule as u8) != 0);
                    }
                    // `enforce_on_waiving`'s skip, from the bits `query!` passes
                    assert_eq!(all_waived_bits(&shape, &model, waivers_bits), all_waived(&shape, &model));
                    let refused = problem(&shape, &plan(&shape, &model));
                    assert_eq!(all_waived(&shape, &model), refused.is_none(), "{allow:?} {sort} {limit:?} {refused:?}");
                    skipped += usize::from(refused.is_none());
                }
            }
        }
        // both outcomes are reached
        assert!(skipped > 0 && skipped < 48, "{skipped}");
    }

    #[test]
    fn waived_reads_every_rule_id_exactly() {
        let allowing = |id: &'static str| Shape {
            filter: &[],
            sort: &[],
            projection: &[],
            limit: None,
            skip: None,
            name: None,
            allow: Vec::leak(vec![(id, "reason")]),
            literals: &[],
            module: "m",
            file: "f",
            line: 1,
        };
        for rule in Rule::ALL {
            let shape = allowing(rule.id());
            for other in Rule::ALL {
                assert_eq!(waived(&shape, other), other == rule, "{} {}", rule.id(), other.id());
            }
        }
        for near in ["query_unindexe", "query_broadcasts", "query_sort_in_memory ", ""] {
            let shape = allowing(near);
            assert!(Rule::ALL.iter().all(|r| !waived(&shape, *r)), "{near:?}");
        }
    }
}
