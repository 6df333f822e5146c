#![doc = include_str!("lib.md")]
// the local validator's part only where it is compiled (feature `validator`)
#![cfg_attr(feature = "validator", doc = include_str!("lib_validator.md"))]
#![doc = include_str!("lib_more.md")]
// No `unsafe` here: the only unsafe code is the validator's BSON reader (mongo-schema-validate).
#![forbid(unsafe_code)]
#![warn(missing_docs)]
// docs.rs (`--cfg docsrs`) marks each gated item with the feature it needs.
#![cfg_attr(docsrs, feature(doc_cfg))]

extern crate self as mongo_schema;

#[cfg(all(feature = "validator", feature = "dump"))]
#[cfg_attr(docsrs, doc(cfg(all(feature = "validator", feature = "dump"))))]
#[doc(inline)]
pub use mongo_schema_cli::check;
#[cfg(feature = "cli")]
#[cfg_attr(docsrs, doc(cfg(feature = "cli")))]
#[doc(inline)]
pub use mongo_schema_cli::cli;
#[cfg(feature = "dump")]
#[cfg_attr(docsrs, doc(cfg(feature = "dump")))]
#[doc(inline)]
pub use mongo_schema_cli::dump;
#[cfg(feature = "cli")]
#[cfg_attr(docsrs, doc(cfg(feature = "cli")))]
#[doc(inline)]
pub use mongo_schema_cli::infer;
#[cfg(feature = "cli")]
#[cfg_attr(docsrs, doc(cfg(feature = "cli")))]
#[doc(inline)]
pub use mongo_schema_cli::queries;
#[cfg(feature = "cli")]
#[cfg_attr(docsrs, doc(cfg(feature = "cli")))]
#[doc(inline)]
pub use mongo_schema_cli::simulate;
#[doc(inline)]
pub use mongo_schema_core::command;
#[cfg(any(feature = "cli", feature = "migrate"))]
#[cfg_attr(docsrs, doc(cfg(any(feature = "cli", feature = "migrate"))))]
#[doc(inline)]
pub use mongo_schema_migrate as migrate;
pub mod paths {
    #![doc = include_str!("paths.md")]
    pub use mongo_schema_core::paths::*;
}
#[cfg(feature = "review")]
#[cfg_attr(docsrs, doc(cfg(feature = "review")))]
#[doc(inline)]
pub use mongo_schema_cli::review;
/// Queries checked against their model and its indexes: what `query!` gives
/// ([`query::Query`]), the shape it reads of a query ([`query::Shape`]), the planner
/// (`query::plan`), the catalogue `schema queries` lists, and the explain check.
#[doc(inline)]
pub use mongo_schema_core::query;
#[doc(inline)]
pub use mongo_schema_core::{render, serde_helpers};
/// The [`MongoSchema`] trait: the `$jsonSchema` of a Rust type, exact to what the driver
/// writes, and the compile-time facts the modelling rules need.
pub mod schema {
    #[doc(inline)]
    pub use mongo_schema_core::schema::*;

    /// Deprecated: [`crate::check_update_static`] (in [`crate::validate`]) is its path.
    #[cfg(feature = "validator")]
    #[deprecated(note = "use `mongo_schema::check_update_static`")]
    #[doc(hidden)]
    pub fn check_update_static<T: MongoSchema + ?Sized>(
        update: &crate::bson::Document,
    ) -> Vec<crate::validate::Finding> {
        crate::validate::check_update_static::<T>(update)
    }

    /// Deprecated: [`crate::check_upsert_static`] (in [`crate::validate`]) is its path.
    #[cfg(feature = "validator")]
    #[deprecated(note = "use `mongo_schema::check_upsert_static`")]
    #[doc(hidden)]
    pub fn check_upsert_static<T: MongoSchema + ?Sized>(
        filter: &crate::bson::Document,
        update: &crate::bson::Document,
    ) -> Vec<crate::validate::Finding> {
        crate::validate::check_upsert_static::<T>(filter, update)
    }
}
#[cfg(feature = "validator")]
#[cfg_attr(docsrs, doc(cfg(feature = "validator")))]
#[doc(inline)]
pub use mongo_schema_validate as validate;
pub mod view {
    #![doc = include_str!("view.md")]
    pub use mongo_schema_core::view::*;
}

#[doc(hidden)]
pub use mongo_schema_core::{__fields_node, __private};

/// mongod's error codes with their names (`BAD_VALUE` is 2 `"BadValue"`): what
/// the update checker answers (`UpdateError::server_code`, feature `validator`) and what
/// the migrations and the review read in the server's replies.
pub use mongo_schema_contract::codes;

/// A migrations directory embedded at compile time, as a [`migrate::Migrator`]:
/// `mongo_schema::migrations!("migrations").run(&db).await?` applies what `schema apply`
/// would. The path is relative to the crate's `Cargo.toml`. An edited file rebuilds the
/// crate; for a file added later, cargo must be told to watch the directory, from a build
/// script (`build.rs`) holding `println!("cargo:rerun-if-changed=migrations");`. Feature
/// `migrate`.
#[cfg(feature = "migrate")]
#[cfg_attr(docsrs, doc(cfg(feature = "migrate")))]
pub use mongo_schema_macros::migrations;

/// A field path checked at compile time: `path!(Customer.address.city_name)` is the
/// [`paths::FieldPath`] `"addr.cityName"`, the dotted path serde writes for those Rust
/// fields (after `rename` and `rename_all`; a `flatten`ed field adds no segment). A field
/// that does not exist (renamed, removed, misspelt) fails the build where the path is
/// written, naming the segment and the fields the struct has. It costs nothing per model
/// (it reads the fields table every derived struct has), so it needs no feature.
///
/// After the model (a type deriving `MongoSchema`, by any path), each `.` segment is:
///
/// | segment | means | gives |
/// |---|---|---|
/// | `city_name` | the Rust field of the struct at that point (through `Option`, `Box`, arrays) | its serde key |
/// | `$`, `$[]`, `$[id]` | the positional operators, on an array field | as written |
/// | `3` | an array index | as written |
/// | `"key"` | a key the fields table cannot list: a map's key, a key inside an enum or a `Document` | as written |
///
/// A field named after an array reaches into its items, as mongod does in queries
/// (`path!(Order.lines.sku)` is `"lines.sku"`).
///
/// ```
/// use mongo_schema::{path, MongoSchema};
/// use serde::Serialize;
///
/// #[derive(Serialize, MongoSchema)]
/// #[serde(rename_all = "camelCase")]
/// struct Address {
///     #[mongo(max_length = 60)]
///     city_name: String,
/// }
///
/// #[derive(Serialize, MongoSchema)]
/// #[mongo(db = "db_shop", collection = "t_customer")]
/// struct Customer {
///     #[serde(rename = "_id")]
///     id: i64,
///     #[serde(rename = "addr")]
///     address: Address,
///     #[mongo(max_items = 5)]
///     previous: Vec<Address>,
/// }
///
/// assert_eq!(path!(Customer.id), "_id");
/// assert_eq!(path!(Customer.address.city_name).as_str(), "addr.cityName");
/// assert_eq!(path!(Customer.previous.$[].city_name), "previous.$[].cityName");
/// assert_eq!(path!(Customer.previous).max_items(), Some(5));
/// let update = path!(Customer.previous).push([Address { city_name: "Oslo".into() }]).update().unwrap();
/// assert_eq!(update.to_string(), r#"{ "$push": { "previous": { "$each": [{ "cityName": "Oslo" }], "$slice": -5 } } }"#);
/// ```
///
/// A renamed field is a compile error where the path is written:
///
/// ```compile_fail
/// # use mongo_schema::{path, MongoSchema};
/// # #[derive(serde::Serialize, MongoSchema)]
/// # struct Address { city_name: String }
/// let p = path!(Address.city);
/// ```
#[macro_export]
macro_rules! path {
    ($($path:tt)+) => {
        $crate::__private::field_path!($crate; $($path)+)
    };
}

/// A query checked against its model at compile time: `query!(Order, { "status": "Paid" },
/// sort = { "createTime": -1 }, limit = 50)`, a filter in `bson::doc!`'s syntax whose keys,
/// operators and values the build checks against the model (and its indexes), giving a
/// [`query::Query`] with the filter document and the driver's options. See docs/QUERIES.md.
#[macro_export]
macro_rules! query {
    ($($query:tt)+) => {
        $crate::__private::query!($crate; $($query)+)
    };
}

/// The bson crate of the winning major, by the driver's rule: bson 3 when the `bson-3`
/// feature is on (alone or beside `bson-2`), else bson 2. `mongodb::bson` follows the same
/// rule, so the commands and validators this crate returns are the driver's `Document`.
pub use mongo_schema_core::bson;
/// bson 2 (the `bson-2` feature), whatever major wins.
#[cfg(feature = "bson-2")]
pub use mongo_schema_core::bson2;
/// bson 3 (the `bson-3` feature), whatever major wins.
#[cfg(feature = "bson-3")]
pub use mongo_schema_core::bson3;
// The crate root's names are the front door (the README's `use mongo_schema::{...}`): the
// derive's traits, the collection settings, the validator. Each also has its home module
// (`command`, `schema`, `validate`), the path its own docs live at.
pub use mongo_schema_core::command::{registered, MongoCollection, Registration, ValidationAction, ValidationLevel};
pub use mongo_schema_core::schema::{BsonKind, MongoSchema};
#[doc = include_str!("derive.md")]
pub use mongo_schema_macros::MongoSchema;
#[cfg(feature = "validator")]
pub use validate::{check_update_static, check_upsert_static, BsonBytes, SchemaError, Validator};

/// The derive and both traits, so `User::validator()` and `User::create_collection_command()`
/// resolve with one import: `use mongo_schema::prelude::*;`.
pub mod prelude {
    pub use crate::{MongoCollection, MongoSchema};
}
