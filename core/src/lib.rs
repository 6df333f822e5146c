//! The layer of [mongo-schema](https://docs.rs/mongo-schema) every other one stands on: the
//! [`MongoSchema`](schema::MongoSchema) trait the derive implements, the collection commands, the catalogue of
//! registered models, field paths and the typed `$jsonSchema` view. It owns the bson major.
//!
//! Use it through the `mongo-schema` crate, which re-exports all of it under the same paths
//! (`mongo_schema::command`, `mongo_schema::view`, ...) with the derive.
// docs.rs (`--cfg docsrs`) marks each gated item with the feature it needs.
#![cfg_attr(docsrs, feature(doc_cfg))]
#![warn(missing_docs)]

// The derive names the runtime `::mongo_schema`: this crate's own tests derive too.
extern crate self as mongo_schema;

pub mod command;
#[doc(hidden)]
pub mod compat;
pub mod model;
pub mod paths;
pub mod query;
pub mod render;
pub mod schema;
pub mod serde_helpers;
pub mod view;

#[doc(hidden)]
pub mod __private;

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

// Each item has one path here, in its module (`command::MongoCollection`,
// `schema::MongoSchema`, `model::Model`): the facade's crate root is where users meet them.
