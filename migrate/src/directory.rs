//! The migrations directory: the migration files in the order they apply, the snapshot,
//! the next migration written, hand-written data migrations.
//!
//! A migration's name starts with its version: `YYYYMMDDHHMMSS_` (UTC) for the files this
//! version writes, so two branches never pick the same name, or `NNNN_` for directories
//! written before. Files apply in the numeric order of that prefix, then by name, so every
//! numbered file comes before every timestamped one.

use super::diff::{diff, Change};
use super::plan::plan;
use super::rules::{collection_count, DEFAULT_MAX_COLLECTIONS};
use super::snapshot::{Snapshot, SnapshotError, SNAPSHOT_FILE};
use super::step::{Migration, Phase};
use mongo_schema_core::command::ValidationLevel;
use mongo_schema_core::model::Model;
use std::error::Error;
use std::fmt;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

/// How `migrate` writes the next migration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MigrateOptions {
    /// Install tightening changes with the model's action at once, without a `warn` stage.
    pub direct: bool,
    /// Overrides every changed collection's `validationLevel` (`moderate` for legacy data).
    pub level: Option<ValidationLevel>,
    /// The `collection_count` ceiling per database (at most 100).
    pub max_collections: usize,
    /// How the next migration's version prefix is chosen.
    pub naming: Naming,
}

impl Default for MigrateOptions {
    fn default() -> Self {
        MigrateOptions {
            direct: false,
            level: None,
            max_collections: DEFAULT_MAX_COLLECTIONS,
            naming: Naming::Timestamp,
        }
    }
}

/// How a new migration's version prefix is chosen. Either way it is above every version
/// already in the directory, so the new file applies last.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Naming {
    /// `YYYYMMDDHHMMSS_` of the current UTC time (one past the highest version when that is
    /// not above it): names written on two branches do not collide.
    #[default]
    Timestamp,
    /// `NNNN_`, one past the highest version: deterministic, for tests and for teams that
    /// never branch migrations.
    Sequence,
}

impl Naming {
    /// The version after `highest` (0 when there is none).
    pub(crate) fn next(self, highest: u64) -> u64 {
        match self {
            Naming::Sequence => highest + 1,
            Naming::Timestamp => utc_stamp(std::time::SystemTime::now()).max(highest + 1),
        }
    }
}

/// `name`'s version and the rest: `("20261123224500", "backfill_email")`; `None` when `name`
/// does not start with at least four digits and `_`.
pub fn version_of(name: &str) -> Option<(u64, &str)> {
    mongo_schema_contract::migration::version_of(name)
}

/// The prefix written for `version`: at least four digits (`0001`), a timestamp as is.
fn prefix(version: u64) -> String {
    format!("{version:04}")
}

/// `YYYYMMDDHHMMSS` of `time` in UTC, as a number.
fn utc_stamp(at: std::time::SystemTime) -> u64 {
    let t = time::OffsetDateTime::from(at);
    let date =
        u64::try_from(t.year()).unwrap_or(0) * 10_000 + u64::from(u8::from(t.month())) * 100 + u64::from(t.day());
    date * 1_000_000 + u64::from(t.hour()) * 10_000 + u64::from(t.minute()) * 100 + u64::from(t.second())
}

/// A migration written to disk.
#[derive(Debug, Clone, PartialEq)]
pub struct Written {
    /// What the files hold.
    pub migration: Migration,
    /// The up script, the down script, the JSON commands, the snapshot.
    pub files: Vec<PathBuf>,
}

/// Why no migration could be written. Its `Display` is the context (a path, or the rule's
/// whole message); the [`source`](std::error::Error::source) chain holds the cause.
#[derive(Debug)]
#[non_exhaustive]
pub enum MigrateError {
    /// A file or directory of the migrations directory could not be read or written.
    Io {
        /// The file or directory.
        path: PathBuf,
        /// The I/O error.
        source: io::Error,
    },
    /// The snapshot cannot be read back: it was edited, or written by another version.
    Snapshot {
        /// The snapshot file.
        path: PathBuf,
        /// What is wrong with it.
        source: SnapshotError,
    },
    /// The `collection_count` rule (its message starts with `collection_count:`).
    CollectionCount(String),
}

impl MigrateError {
    fn io(path: &Path) -> impl FnOnce(io::Error) -> MigrateError + '_ {
        move |source| MigrateError::Io { path: path.to_owned(), source }
    }
}

impl fmt::Display for MigrateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MigrateError::Io { path, .. } | MigrateError::Snapshot { path, .. } => write!(f, "{}", path.display()),
            MigrateError::CollectionCount(message) => f.write_str(message),
        }
    }
}

impl Error for MigrateError {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        match self {
            MigrateError::Io { source, .. } => Some(source),
            MigrateError::Snapshot { source, .. } => Some(source),
            MigrateError::CollectionCount(_) => None,
        }
    }
}

/// Compares `models` with the snapshot in `dir` and writes the next migration
/// (`<version>_<summary>.js`, `.down.js`, `.json`; see [`Naming`]) and the new snapshot.
/// `Ok(None)` when nothing changed: no empty migration is written.
pub fn migrate(dir: &Path, models: &[Model], options: &MigrateOptions) -> Result<Option<Written>, MigrateError> {
    let snapshot = read_snapshot(dir)?;
    let number = || Ok(options.naming.next(highest_version(dir)?));
    let Some((migration, next)) = snapshot.next(number, models, options)? else { return Ok(None) };
    let files = write_all(dir, &migration, &next)?;
    Ok(Some(Written { migration, files }))
}

impl Snapshot {
    /// The migration [`migrate`] would write over this snapshot, without reading or writing a
    /// file: versioned after [`last_migration`](Snapshot::last_migration) as
    /// [`MigrateOptions::naming`] says, `Ok(None)` when
    /// `models` match the snapshot. Fails on the `collection_count` rule as `migrate` does.
    ///
    /// A test that the committed migrations are current reads the snapshot and expects `None`.
    ///
    /// ```
    /// use mongo_schema::bson::oid::ObjectId;
    /// use mongo_schema::migrate::{MigrateOptions, Model, Snapshot};
    /// use mongo_schema::MongoSchema;
    /// use serde::Serialize;
    ///
    /// #[derive(Serialize, MongoSchema)]
    /// #[mongo(db = "db_shop", collection = "t_user")]
    /// struct User {
    ///     #[serde(rename = "_id")]
    ///     id: ObjectId,
    ///     #[mongo(max_length = 50)]
    ///     name: String,
    /// }
    ///
    /// let models = [Model::of::<User>("shop::User")];
    /// let first = Snapshot::default().next_migration(&models, &MigrateOptions::default())?.unwrap();
    /// assert!(first.name.ends_with("_create_t_user"), "a UTC timestamp, then what it does");
    /// assert!(first.up_js().contains("createCollection"));
    /// # Ok::<(), mongo_schema::migrate::MigrateError>(())
    /// ```
    pub fn next_migration(
        &self,
        models: &[Model],
        options: &MigrateOptions,
    ) -> Result<Option<Migration>, MigrateError> {
        let number = || Ok(options.naming.next(self.last_version()));
        Ok(self.next(number, models, options)?.map(|(migration, _)| migration))
    }

    /// The version of [`last_migration`](Snapshot::last_migration) (`0003_...` is 3); 0 before the first.
    fn last_version(&self) -> u64 {
        self.last_migration.as_deref().and_then(version_of).map_or(0, |(v, _)| v)
    }

    /// The migration from this snapshot to `models` and the snapshot it leaves; `number` is
    /// asked for only when something changed.
    fn next(
        &self,
        number: impl FnOnce() -> Result<u64, MigrateError>,
        models: &[Model],
        options: &MigrateOptions,
    ) -> Result<Option<(Migration, Snapshot)>, MigrateError> {
        collection_count(models, self, options.max_collections).map_err(MigrateError::CollectionCount)?;
        let changes = diff(self, models, options.level);
        if changes.is_empty() {
            return Ok(None);
        }
        let migration = plan(&prefix(number()?), &changes, options.direct);
        let next = Snapshot { last_migration: Some(migration.name.clone()), entries: updated(self, &changes) };
        Ok(Some((migration, next)))
    }
}

fn read_snapshot(dir: &Path) -> Result<Snapshot, MigrateError> {
    let path = dir.join(SNAPSHOT_FILE);
    match fs::read_to_string(&path) {
        Ok(text) => Snapshot::from_json(&text).map_err(|source| MigrateError::Snapshot { path, source }),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(Snapshot::default()),
        Err(source) => Err(MigrateError::Io { path, source }),
    }
}

/// The highest version prefix in `dir` (0 in an empty or missing directory).
fn highest_version(dir: &Path) -> Result<u64, MigrateError> {
    Ok(numbered(dir)?.iter().map(|(n, _)| *n).max().unwrap_or(0))
}

/// The files of `dir` whose names start with a migration version, with that version.
fn numbered(dir: &Path) -> Result<Vec<(u64, PathBuf)>, MigrateError> {
    let entries = match fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(vec![]),
        Err(e) => return Err(MigrateError::io(dir)(e)),
    };
    let mut found = Vec::new();
    for entry in entries {
        let path = entry.map_err(MigrateError::io(dir))?.path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        if let Some((version, _)) = version_of(name) {
            found.push((version, path));
        }
    }
    Ok(found)
}

/// The migration JSON files of `dir` (generated and data migrations) in the order they
/// apply: by version, then by name.
pub fn pending(dir: &Path) -> Result<Vec<PathBuf>, MigrateError> {
    let mut files: Vec<(u64, PathBuf)> = numbered(dir)?
        .into_iter()
        .filter(|(_, p)| {
            p.file_name().and_then(|n| n.to_str()).is_some_and(mongo_schema_contract::migration::is_migration_file)
        })
        .collect();
    files.sort();
    Ok(files.into_iter().map(|(_, p)| p).collect())
}

/// The snapshot entries once `changes` are applied, in namespace order.
fn updated(snapshot: &Snapshot, changes: &[Change]) -> Vec<super::Entry> {
    let mut entries = snapshot.entries.clone();
    for change in changes {
        let m = &change.after().or(change.before()).expect("every change has an entry").model;
        entries.retain(|e| !(e.model.db == m.db && e.model.collection == m.collection));
        entries.extend(change.after().cloned());
    }
    entries.sort_by(|a, b| (&a.model.db, &a.model.collection).cmp(&(&b.model.db, &b.model.collection)));
    entries
}

fn write_all(dir: &Path, migration: &Migration, snapshot: &Snapshot) -> Result<Vec<PathBuf>, MigrateError> {
    fs::create_dir_all(dir).map_err(MigrateError::io(dir))?;
    let files = [
        (format!("{}.js", migration.name), migration.up_js()),
        (format!("{}.down.js", migration.name), migration.down_js()),
        (format!("{}.json", migration.name), migration.commands_json()),
        (SNAPSHOT_FILE.to_owned(), snapshot.to_json()),
    ];
    files.into_iter().map(|(name, text)| write(&dir.join(name), &text)).collect()
}

fn write(path: &Path, text: &str) -> Result<PathBuf, MigrateError> {
    fs::write(path, text).map_err(MigrateError::io(path))?;
    Ok(path.to_owned())
}

/// Writes an empty data migration `<version>_<name>.json` into `dir`, versioned after every
/// file there (so it runs after the migrations written so far and before the next one):
/// the file to fill with the commands of a backfill, a `$rename`, a clean-up. `apply` refuses
/// it while its `up` is empty.
pub fn new_data_migration(dir: &Path, name: &str, naming: Naming) -> Result<PathBuf, MigrateError> {
    new_data_migration_in(dir, name, naming, Phase::Expand)
}

/// [`new_data_migration`] of a `phase`: [`Phase::Contract`] for a step that must wait until
/// the previous release no longer writes (a conversion of what it still writes in the old
/// shape), run by `apply --contract` before the tightening it prepares.
pub fn new_data_migration_in(dir: &Path, name: &str, naming: Naming, phase: Phase) -> Result<PathBuf, MigrateError> {
    let safe: String =
        name.chars().map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '_' }).take(60).collect();
    let stem = format!("{}_{safe}", prefix(naming.next(highest_version(dir)?)));
    let template = serde_json::json!({
        "migration": stem,
        "kind": "data",
        "notes": [
            "A data migration: `apply` runs each command of `up` in order on its database, records the migration, and refuses the file once it changed after being applied; `revert` runs `down`.",
            "Each step is {\"db\": \"db_shop\", \"command\": {...}}, a database command in canonical Extended JSON, e.g. {\"update\": \"t_user\", \"updates\": [{\"q\": {\"email\": {\"$exists\": false}}, \"u\": {\"$set\": {\"email\": \"\"}}, \"multi\": true}]}.",
            "Appliers started together take turns on a lock, so each step runs once; but a run killed during a step runs that step again. Write steps that can run twice: a $set guarded by its filter ({\"email\": {\"$exists\": false}}), not an $inc (run twice, it counts twice); for a counter, mark the document in the same update ({\"q\": {\"migratedV2\": {\"$exists\": false}}, \"u\": {\"$inc\": {\"n\": 1}, \"$set\": {\"migratedV2\": true}}})."
        ],
        "phase": phase.as_str(),
        "up": [],
        "down": [],
    });
    let mut template = template;
    template["notes"].as_array_mut().expect("notes is an array").push(
        "`phase`: \"expand\" runs with the release (safe while the previous release still writes: backfills of \
         new fields); \"contract\" waits for `schema apply --contract`, once no instance of the previous release \
         writes (conversions of what it writes in the old shape), and runs before the tightening it prepares."
            .into(),
    );
    fs::create_dir_all(dir).map_err(MigrateError::io(dir))?;
    let text = serde_json::to_string_pretty(&template).expect("a JSON value always serialises") + "\n";
    write(&dir.join(format!("{stem}.json")), &text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, UNIX_EPOCH};

    #[test]
    fn utc_stamps_are_civil_dates() {
        assert_eq!(utc_stamp(UNIX_EPOCH), 19700101000000);
        // 2000-02-29 23:59:59 (a leap day of a century leap year)
        assert_eq!(utc_stamp(UNIX_EPOCH + Duration::from_secs(951_868_799)), 20000229235959);
        // 2026-11-23 22:40:48
        assert_eq!(utc_stamp(UNIX_EPOCH + Duration::from_secs(1_795_473_648)), 20261123224048);
    }

    #[test]
    fn versions_order_numbered_files_before_timestamps() {
        assert_eq!(version_of("0003_alter_t_user"), Some((3, "alter_t_user")));
        assert_eq!(version_of("20261123224048_backfill"), Some((20261123224048, "backfill")));
        assert_eq!(version_of("snapshot.json"), None);
        assert_eq!(version_of("123_short"), None);
        assert!(Naming::Timestamp.next(3) > 20260000000000);
        assert_eq!(Naming::Timestamp.next(99990101000000), 99990101000001, "always above the highest");
        assert_eq!(Naming::Sequence.next(3), 4);
    }
}
