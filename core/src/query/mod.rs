//! Queries checked against their model and its indexes: what `query!` reads of a query
//! ([`shape`]), the planner that decides, by mongod's rules, which declared index a query
//! gets (`plan`), and the catalogue of every query a program holds.

pub mod plan;
pub mod shape;

pub use shape::{registered_queries, Direction, Filter, Op, Pred, RegisteredQuery, Shape};
