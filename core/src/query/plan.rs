//! The planner: which declared index a [`Shape`] gets, by mongod's rules, and the rules
//! that refuse a query at compile time (`query_unindexed`, `query_sort_in_memory`,
//! `query_broadcast`).
//!
//! INTERFACE ONLY (lead, issue 45): the branch `qplan` replaces this file with the planner.
//! `query!` calls [`enforce`] in a constant spanned at the query.

use super::Shape;
use crate::command::Registration;

/// Fails the build (a `const` panic naming the rule, what is wrong and the fix) when the
/// planner refuses `shape` on `model` and the query does not waive the rule.
#[track_caller]
pub const fn enforce(shape: &Shape, model: &Registration) {
    let _ = (shape, model);
}
