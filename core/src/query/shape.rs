//! What `query!` reads of a query, as constant data: the filter as a tree of predicates on
//! keys as stored, the sort, the projection and the options. The macro writes one [`Shape`]
//! per use (a `static`), the compile-time checks and the planner ([`mod@super::plan`]) read it,
//! and every query registers it ([`RegisteredQuery`]) for `schema queries`.
//!
//! Values are not here: a predicate keeps what its values mean to an index (an equality,
//! a range bound, how many `$in` values, an anchored regex), never the values themselves.

use crate::command::Registration;

/// A query as `query!` wrote it.
#[derive(Debug, Clone, Copy)]
pub struct Shape {
    /// The filter's top level: a conjunction (the keys of the filter document, `$and`s
    /// flattened into it where they hold predicates only).
    pub filter: &'static [Filter],
    /// `sort = { key: 1 | -1, .. }`, in order.
    pub sort: &'static [(&'static str, Direction)],
    /// `projection = { .. }` (or a typed projection's keys): `(key, included)`, in order;
    /// empty when the query has none.
    pub projection: &'static [(&'static str, bool)],
    /// `limit = N`.
    pub limit: Option<u64>,
    /// `skip = N`.
    pub skip: Option<u64>,
    /// `name = ".."`, else `None` (the catalogue then names it by `module` and `line`).
    pub name: Option<&'static str>,
    /// The rules `allow(rule, reason = "..")` waives on this query: `(rule id, reason)`.
    pub allow: &'static [(&'static str, &'static str)],
    /// The literal values (integers, strings, booleans written in the query) its top-level
    /// equalities and ranges compare keys with: the planner reads them to decide whether
    /// the filter implies a partial index's expression, as mongod does with the values.
    pub literals: &'static [Literal],
    /// `module_path!()` where the query is written.
    pub module: &'static str,
    /// `file!()` and `line!()` where the query is written.
    pub file: &'static str,
    /// See `file`.
    pub line: u32,
}

/// A literal a top-level predicate compares its key with.
#[derive(Debug, Clone, Copy)]
pub struct Literal {
    /// The key.
    pub path: &'static str,
    /// `$eq` (an implicit equality too), `$gt`, `$gte`, `$lt` or `$lte`.
    pub op: &'static str,
    /// The value.
    pub value: LiteralValue,
}

/// A literal value as written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LiteralValue {
    /// An integer literal.
    Int(i64),
    /// A string literal.
    Str(&'static str),
    /// `true` or `false`.
    Bool(bool),
}

/// A sort key's direction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// `1`
    Ascending,
    /// `-1`
    Descending,
}

/// A node of the filter tree.
#[derive(Debug, Clone, Copy)]
pub enum Filter {
    /// One predicate on a key as stored (a dotted path as mongosh writes it).
    Pred(Pred),
    /// `$and: [ {..}, .. ]` kept as written where it cannot be flattened (it holds a `$or`).
    And(&'static [&'static [Filter]]),
    /// `$or: [ {..}, .. ]`: each branch a conjunction.
    Or(&'static [&'static [Filter]]),
    /// `$nor: [ {..}, .. ]`.
    Nor(&'static [&'static [Filter]]),
    /// `$text: { $search: .. }`.
    Text,
    /// `$expr` or `$where`: taken as opaque (no key checked inside); the operator's name.
    Opaque(&'static str),
}

/// One predicate: a key and what is asked of it. A key with several operators
/// (`{ "createTime": { "$gte": a, "$lt": b } }`) is one `Pred` per operator.
#[derive(Debug, Clone, Copy)]
pub struct Pred {
    /// The key as stored, dotted through embedded documents and arrays.
    pub path: &'static str,
    /// The operator.
    pub op: Op,
}

/// What a predicate asks of its key, as far as an index cares.
#[derive(Debug, Clone, Copy)]
pub enum Op {
    /// An implicit equality or `$eq` with a value other than `null`.
    Eq,
    /// Equality with `null` (`{k: null}`, `$eq: null`): also matches a missing key.
    EqNull,
    /// `$ne`.
    Ne,
    /// `$gt`.
    Gt,
    /// `$gte`.
    Gte,
    /// `$lt`.
    Lt,
    /// `$lte`.
    Lte,
    /// `$in` with `len` values (`None`: an expression whose length is known at run time
    /// only); `null` among them when `null` is true.
    In {
        /// How many values, when written as an array literal.
        len: Option<u32>,
        /// A `null` among them.
        null: bool,
    },
    /// `$nin`.
    Nin,
    /// `$exists: true` (`true`) or `$exists: false`.
    Exists(bool),
    /// `$type`.
    Type,
    /// `$regex` (or a regex literal): `prefix` when it is a literal anchored at the start
    /// (`^abc`) with no case-insensitive option, the only form that gives index bounds.
    Regex {
        /// An anchored, case-sensitive literal prefix.
        prefix: bool,
    },
    /// `$size`.
    Size,
    /// `$all`.
    All,
    /// `$elemMatch` with a query on the elements' keys (paths relative to the array).
    ElemMatch(&'static [Filter]),
    /// `$elemMatch` with operators on the elements themselves (`{$gt: 1, $lt: 5}`).
    ElemMatchValue(&'static [Op]),
    /// `$mod`.
    Mod,
    /// `$not: { op }`.
    Not(&'static Op),
    /// `$near` / `$nearSphere`.
    Near,
    /// `$geoWithin` / `$geoIntersects`.
    GeoWithin,
}

/// One `query!` of the program, as `schema queries` lists it: each query's one `static`, its
/// shape inside, gathered by the linker into `MONGO_SCHEMA_QUERIES`.
#[derive(Debug, Clone, Copy)]
pub struct RegisteredQuery {
    /// The model's Rust type, as written in the query.
    pub rust_type: &'static str,
    /// The model's registration (names, indexes, shard key, fields): `Registration::of::<Model>`.
    pub model: fn(&'static str) -> Registration,
    /// The query.
    pub shape: Shape,
}

/// Every `query!`'s registration: `query!` writes each as an element through the section
/// macro this declaration defines (`MONGO_SCHEMA_QUERIES! { #![linkme_macro = ..] static .. }`),
/// one item a query, not the `#[distributed_slice]` attribute's static and type-check function.
#[linkme::distributed_slice]
pub static MONGO_SCHEMA_QUERIES: [RegisteredQuery];

/// Every `query!` linked into the program, in no particular order.
pub fn registered_queries() -> impl Iterator<Item = &'static RegisteredQuery> {
    MONGO_SCHEMA_QUERIES.iter()
}
