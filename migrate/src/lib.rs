//! Migrations: the registered models compared with the snapshot the previous run left in
//! the migrations directory, written as the next timestamped mongosh script (plus a down
//! script) and a JSON file of the same commands for drivers and other runners; applied,
//! recorded with checksums, reported and reverted by [`apply`], at application start by
//! `Migrator` (feature `migrate`). Every applier holds a lease in the state database while
//! it works ([`lock`]): instances started together run each step once.
//!
//! Every step installs a validator (`createCollection`, falling back to `collMod` when the
//! collection exists: adopted under `validationAction: "warn"`); nothing is ever dropped,
//! and re-running a migration is harmless. Each step has a [`Phase`]: the expand runs with
//! the release while the previous one still writes (validators admitting both releases'
//! documents), the contract once it is gone (renamed keys moved, each validator enforced
//! where the server counts no failing document: [`gate`]). See `docs/MIGRATIONS.md`.
//!
//! This crate is `mongo_schema::migrate`: use it through mongo-schema's `migrate` feature.
#![cfg_attr(docsrs, feature(doc_cfg))]
#![warn(missing_docs)]

mod diff;
mod directory;
pub mod gate;
mod options;
mod plan;
mod render;
mod rules;
mod snapshot;
mod step;
mod tighten;

pub mod apply;
pub mod drift;
#[cfg(feature = "sync")]
#[cfg_attr(docsrs, doc(cfg(feature = "review")))]
pub mod driver;
pub mod file;
pub mod lock;
#[cfg(feature = "migrate")]
mod migrator;
pub mod order;
pub mod record;
pub mod server;
#[cfg(feature = "migrate")]
mod wire;
#[cfg(feature = "migrate")]
#[cfg_attr(docsrs, doc(cfg(feature = "migrate")))]
pub use migrator::{Migrator, MigratorError};

pub use directory::{
    migrate, new_data_migration, new_data_migration_in, pending, version_of, MigrateError, MigrateOptions, Naming,
    Written,
};
pub use mongo_schema_core::model::{registered_models, Model, Options};
pub use rules::DEFAULT_MAX_COLLECTIONS;
pub use snapshot::{Entry, Snapshot, SnapshotError, SNAPSHOT_FILE};
pub use step::{Migration, Phase, Step};
