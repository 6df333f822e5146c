//! MongoDB `$jsonSchema` validators, collection commands and a local validator,
//! derived from serde models. See the README for a tour.

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
pub use mongo_schema_macros::MongoSchema;
pub use schema::{BsonKind, MongoSchema};
pub use validate::{SchemaError, Validator};

