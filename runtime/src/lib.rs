#![doc = include_str!("lib.md")]
// The only `unsafe` is in the validator's BSON reader (`validate::walk`, `validate::bytes`):
// each block says why it holds, and an `unsafe fn` states its contract without licensing unsafe operations.
#![deny(unsafe_op_in_unsafe_fn, clippy::undocumented_unsafe_blocks)]
#![warn(missing_docs)]

extern crate self as mongo_schema;

#[cfg(feature = "cli")]
pub mod cli;
pub mod command;
pub mod dump;
pub mod migrate;
pub mod render;
pub mod schema;
pub mod serde_helpers;
pub mod validate;

#[doc(hidden)]
pub mod __private;

pub use bson;
pub use command::{registered, MongoCollection, Registration, ValidationAction, ValidationLevel};
#[doc = include_str!("derive.md")]
pub use mongo_schema_macros::MongoSchema;
pub use schema::{BsonKind, MongoSchema};
pub use validate::{SchemaError, Validator};

/// The derive and both traits, so `User::validator()` and `User::create_collection_command()`
/// resolve with one import: `use mongo_schema::prelude::*;`.
pub mod prelude {
    pub use crate::{MongoCollection, MongoSchema};
}
