//! The layer of [mongo-schema](https://docs.rs/mongo-schema) that reads data and talks to
//! deployments: dumps, `schema check`, `schema infer`, the launch review and the `schema`
//! command line. Use it through the `mongo-schema` crate, whose `dump`, `validator`,
//! `review`, `cli` and `driver` features turn these modules on under the same paths
//! (`mongo_schema::check`, `mongo_schema::cli::main`, ...).
// docs.rs (`--cfg docsrs`) marks each gated item with the feature it needs.
#![cfg_attr(docsrs, feature(doc_cfg))]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

#[cfg(feature = "check")]
#[cfg_attr(docsrs, doc(cfg(all(feature = "validator", feature = "dump"))))]
pub mod check;
#[cfg(feature = "cli")]
#[cfg_attr(docsrs, doc(cfg(feature = "cli")))]
pub mod cli;
#[cfg(feature = "dump")]
#[cfg_attr(docsrs, doc(cfg(feature = "dump")))]
pub mod dump;
#[cfg(feature = "cli")]
#[cfg_attr(docsrs, doc(cfg(feature = "cli")))]
pub mod infer;
#[cfg(feature = "cli")]
#[cfg_attr(docsrs, doc(cfg(feature = "cli")))]
pub mod queries;
#[cfg(any(feature = "cli", feature = "review"))]
mod redact;
#[cfg(feature = "review")]
#[cfg_attr(docsrs, doc(cfg(feature = "review")))]
pub mod review;
#[cfg(all(feature = "check", feature = "live"))]
#[cfg_attr(docsrs, doc(cfg(feature = "cli")))]
pub mod simulate;
