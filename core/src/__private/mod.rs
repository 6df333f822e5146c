//! What `#[derive(MongoSchema)]` expands to calls into. Not public API: the generated
//! code describes a schema as small static tables; these non-generic builders turn the
//! tables into `Document`s, so each model costs little to compile.

pub use crate::__fields_node as fields_node;
pub use crate::bson::{Bson, Document};
pub use crate::command::{
    Capped, Clustered, Collation, Index, IndexKey, MongoCollection, Registered, Registration, Timeseries,
    ValidationAction, ValidationLevel,
};
pub use crate::paths::{child, flat, Array, Bounded, Leaf, Node, Path, UnitEnum};
/// What `path!` expands to.
pub use crate::paths::{resolve as path_resolve, FieldPath, Resolved};
/// What `query!` expands to.
pub use crate::query::check as query_check;
pub use crate::query::shape::MONGO_SCHEMA_QUERIES;
pub use crate::query::value::{kinds, serialized, value, values, Class, Kind, Stores};
pub use crate::query::{
    plan::enforce_on_waiving as query_enforce_on_waiving, Direction, Filter, Literal as QueryLiteral,
    LiteralValue as QueryLiteralValue, Op, Pred, Query, RegisteredQuery, Shape as QueryShape,
};

// A query's static names these where a field is empty: `&[]` or `None` written in a static
// is a promoted constant or an operand of its own to build and check, a path is not.
/// An empty filter.
pub const NO_FILTER: &[Filter] = &[];
/// No sort.
pub const NO_SORT: &[(&str, Direction)] = &[];
/// No projection.
pub const NO_PROJECTION: &[(&str, bool)] = &[];
/// No waiver.
pub const NO_ALLOW: &[(&str, &str)] = &[];
/// No literal.
pub const NO_LITERALS: &[QueryLiteral] = &[];
/// No `limit` or `skip`.
pub const NO_COUNT: Option<u64> = None;
/// No `name`.
pub const NO_NAME: Option<&str> = None;
pub use crate::schema::{
    BsonKind, FieldFacts, Keyword, KeywordLit as Lit, KeywordNum as Num, MongoSchema, SchemaFacts, Shape,
};
pub use inventory;
pub use linkme;
/// Worst-case encoded sizes, for the facts the expansion computes at compile time.
pub use mongo_schema_contract::size;
pub use mongo_schema_macros::field_path;
pub use mongo_schema_macros::query;

mod builders;
mod facts;
pub mod rules;

pub use builders::*;
pub use facts::*;
