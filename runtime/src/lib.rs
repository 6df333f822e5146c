#![doc = include_str!("lib.md")]
// The only `unsafe` is in the validator's BSON reader (`validate::walk`, `validate::bytes`):
// each block says why it holds, and an `unsafe fn` states its contract without licensing unsafe operations.
#![deny(unsafe_op_in_unsafe_fn, clippy::undocumented_unsafe_blocks)]
#![warn(missing_docs)]
// docs.rs (`--cfg docsrs`) marks each gated item with the feature it needs.
#![cfg_attr(docsrs, feature(doc_cfg))]

extern crate self as mongo_schema;

#[cfg(all(feature = "validator", feature = "dump"))]
#[cfg_attr(docsrs, doc(cfg(all(feature = "validator", feature = "dump"))))]
pub mod check;
#[cfg(feature = "cli")]
#[cfg_attr(docsrs, doc(cfg(feature = "cli")))]
pub mod cli;
pub mod command;
#[cfg(feature = "dump")]
#[cfg_attr(docsrs, doc(cfg(feature = "dump")))]
pub mod dump;
#[cfg(any(feature = "cli", feature = "migrate"))]
#[cfg_attr(docsrs, doc(cfg(any(feature = "cli", feature = "migrate"))))]
pub mod migrate;
pub mod paths;
pub mod render;
#[cfg(feature = "driver")]
#[cfg_attr(docsrs, doc(cfg(feature = "driver")))]
pub mod review;
pub mod schema;
pub mod serde_helpers;
#[cfg(feature = "validator")]
#[cfg_attr(docsrs, doc(cfg(feature = "validator")))]
pub mod validate;

#[doc(hidden)]
pub mod __private;

/// A migrations directory embedded at compile time, as a [`migrate::Migrator`]:
/// `mongo_schema::migrations!("migrations").run(&db).await?` applies what `schema apply`
/// would. The path is relative to the crate's `Cargo.toml`. An edited file rebuilds the
/// crate; for a file added later, cargo must be told to watch the directory, from a build
/// script (`build.rs`) holding `println!("cargo:rerun-if-changed=migrations");`. Feature
/// `migrate`.
#[cfg(feature = "migrate")]
#[cfg_attr(docsrs, doc(cfg(feature = "migrate")))]
pub use mongo_schema_macros::migrations;

#[cfg(not(any(feature = "bson-2", feature = "bson-3")))]
compile_error!(
    "mongo-schema needs one of its `bson-2` (default) and `bson-3` features, the bson major of your `mongodb` driver"
);

/// The bson crate of the winning major, by the driver's rule: bson 3 when the `bson-3`
/// feature is on (alone or beside `bson-2`), else bson 2. `mongodb::bson` follows the same
/// rule, so the commands and validators this crate returns are the driver's `Document`.
#[cfg(all(feature = "bson-2", not(feature = "bson-3")))]
pub use bson2 as bson;
/// bson 2 (the `bson-2` feature), whatever major wins.
#[cfg(feature = "bson-2")]
pub use bson2;
/// The bson crate of the winning major, by the driver's rule: bson 3 when the `bson-3`
/// feature is on (alone or beside `bson-2`), else bson 2. `mongodb::bson` follows the same
/// rule, so the commands and validators this crate returns are the driver's `Document`.
#[cfg(feature = "bson-3")]
pub use bson3 as bson;
/// bson 3 (the `bson-3` feature), whatever major wins.
#[cfg(feature = "bson-3")]
pub use bson3;
pub(crate) mod compat;
pub use command::{registered, MongoCollection, Registration, ValidationAction, ValidationLevel};
#[doc = include_str!("derive.md")]
pub use mongo_schema_macros::MongoSchema;
#[cfg(feature = "validator")]
pub use schema::{check_update_static, check_upsert_static};
pub use schema::{BsonKind, MongoSchema};
#[cfg(feature = "validator")]
pub use validate::{BsonBytes, SchemaError, Validator};

/// The derive and both traits, so `User::validator()` and `User::create_collection_command()`
/// resolve with one import: `use mongo_schema::prelude::*;`.
pub mod prelude {
    pub use crate::{MongoCollection, MongoSchema};
}
