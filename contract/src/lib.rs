//! The contract between `#[derive(MongoSchema)]` (mongo-schema-macros, compile time) and
//! its runtime (mongo-schema): every fact both sides need, declared once. The derive reads
//! these tables to parse attributes and decide rules; the runtime reads the same tables
//! to build `$jsonSchema` documents and commands, and to run the const checks the derive
//! emits. Where generated code must spell a runtime item (a `BsonKind` variant, a
//! `Keyword` variant), the name comes from here and a unit test ties it to the item.
//!
//! - [`naming`]: database, collection and field naming rules;
//! - [`rules`]: rule ids, which are waivable, the field rules' messages and check bits;
//! - [`bson`]: BSON kinds, `bsonType` aliases, Rust primitives → BSON;
//! - [`size`]: encoded BSON sizes, as `const fn`s;
//! - [`keyword`]: the `$jsonSchema` keyword table (attribute key, keyword, value kind);
//! - [`helpers`]: serde-helper paths and what they write;
//! - [`options`]: validation level and action names, index key kinds;
//! - [`query`]: how `query!` encodes a key and its operators for the memoized check;
//! - [`fields`]: the flags of the derive's `FIELDS` table;
//! - [`migration`]: migration file names (`migrations!` and the runtime's directory reader);
//! - [`codes`]: mongod's error codes with their names (the update checker, migrations, review).
//!
//! Dependency-free on purpose: every user of the derive compiles it.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod bson;
pub mod case;
pub mod codes;
pub mod fields;
pub mod helpers;
pub mod keyword;
pub mod migration;
pub mod naming;
pub mod options;
pub mod query;
pub mod rules;
pub mod size;
