//! Queries checked against their model and its indexes: what `query!` reads of a query
//! ([`Shape`]), the planner that decides, by mongod's rules, which declared index a query
//! gets (`plan`), and the catalogue of every query a program holds.

pub mod check;
pub mod explain;
pub mod plan;
pub(crate) mod shape;
pub(crate) mod value;

pub use shape::{registered_queries, Direction, Filter, Literal, LiteralValue, Op, Pred, RegisteredQuery, Shape};
pub use value::{kinds, Driver, Query, Stores};
