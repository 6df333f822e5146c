//! The migrations directory: numbered files, the snapshot, the next migration written.

use super::{
    collection_count, diff, plan, Change, Migration, Model, Snapshot, SnapshotError, DEFAULT_MAX_COLLECTIONS,
    SNAPSHOT_FILE,
};
use crate::command::ValidationLevel;
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
}

impl Default for MigrateOptions {
    fn default() -> Self {
        MigrateOptions { direct: false, level: None, max_collections: DEFAULT_MAX_COLLECTIONS }
    }
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

/// Compares `models` with the snapshot in `dir` and writes the next numbered migration
/// (`NNNN_<summary>.js`, `.down.js`, `.json`) and the new snapshot. `Ok(None)` when
/// nothing changed: no empty migration is written.
pub fn migrate(dir: &Path, models: &[Model], options: &MigrateOptions) -> Result<Option<Written>, MigrateError> {
    let snapshot = read_snapshot(dir)?;
    let Some((migration, next)) = snapshot.next(|| next_number(dir), models, options)? else { return Ok(None) };
    let files = write_all(dir, &migration, &next)?;
    Ok(Some(Written { migration, files }))
}

impl Snapshot {
    /// The migration [`migrate`] would write over this snapshot, without reading or writing a
    /// file: numbered one past [`last_migration`](Snapshot::last_migration), `Ok(None)` when
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
    /// assert_eq!(first.name, "0001_create_t_user");
    /// assert!(first.up_js().contains("createCollection"));
    /// # Ok::<(), mongo_schema::migrate::MigrateError>(())
    /// ```
    pub fn next_migration(
        &self,
        models: &[Model],
        options: &MigrateOptions,
    ) -> Result<Option<Migration>, MigrateError> {
        let number = || Ok(self.last_number() + 1);
        Ok(self.next(number, models, options)?.map(|(migration, _)| migration))
    }

    /// The number of [`last_migration`](Snapshot::last_migration) (`0003_...` is 3); 0 before the first.
    fn last_number(&self) -> u32 {
        let digits = self.last_migration.as_deref().and_then(|name| name.split_once('_')).map(|(digits, _)| digits);
        digits.and_then(|d| d.parse().ok()).unwrap_or(0)
    }

    /// The migration from this snapshot to `models` and the snapshot it leaves; `number` is
    /// asked for only when something changed.
    fn next(
        &self,
        number: impl FnOnce() -> Result<u32, MigrateError>,
        models: &[Model],
        options: &MigrateOptions,
    ) -> Result<Option<(Migration, Snapshot)>, MigrateError> {
        collection_count(models, self, options.max_collections).map_err(MigrateError::CollectionCount)?;
        let changes = diff(self, models, options.level, options.direct);
        if changes.is_empty() {
            return Ok(None);
        }
        let migration = plan(number()?, &changes);
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

/// One past the highest `NNNN_` prefix in `dir` (1 in an empty or missing directory).
fn next_number(dir: &Path) -> Result<u32, MigrateError> {
    Ok(numbered(dir)?.iter().map(|(n, _)| *n).max().unwrap_or(0) + 1)
}

/// The files of `dir` whose names start with a migration number, with that number.
fn numbered(dir: &Path) -> Result<Vec<(u32, PathBuf)>, MigrateError> {
    let entries = match fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(vec![]),
        Err(e) => return Err(MigrateError::io(dir)(e)),
    };
    let mut found = Vec::new();
    for entry in entries {
        let path = entry.map_err(MigrateError::io(dir))?.path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        if let Some((digits, _)) =
            name.split_once('_').filter(|(d, _)| d.len() >= 4 && d.bytes().all(|b| b.is_ascii_digit()))
        {
            found.push((digits.parse().unwrap_or(u32::MAX), path));
        }
    }
    Ok(found)
}

/// The migration JSON files of `dir` in the order they apply.
pub fn pending(dir: &Path) -> Result<Vec<PathBuf>, MigrateError> {
    let mut files: Vec<(u32, PathBuf)> =
        numbered(dir)?.into_iter().filter(|(_, p)| p.extension().is_some_and(|e| e == "json")).collect();
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
