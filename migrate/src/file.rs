//! A migration's JSON file, as `migrate` writes it and `apply` runs it: its steps, its kind,
//! its checksum, and why a file cannot be read back.

use super::step::Phase;
use mongo_schema_core::bson::{Bson, Document};
use sha2::{Digest, Sha256};
use std::error::Error;
use std::fmt;
use std::fmt::Write as _;
use std::io;
use std::path::{Path, PathBuf};

/// A migration file's checksum: `sha256:` and the hex digest of its text, `\r\n` read as
/// `\n` (a checkout on Windows does not change it).
pub fn checksum(text: &str) -> String {
    let digest = Sha256::digest(text.replace("\r\n", "\n").as_bytes());
    let mut out = String::from("sha256:");
    for byte in digest {
        let _ = write!(out, "{byte:02x}");
    }
    out
}

/// One command of a migration's JSON file.
#[derive(Debug, Clone, PartialEq)]
pub struct FileStep {
    /// The database the command runs on.
    pub db: String,
    /// The command, exact to the BSON type.
    pub command: Document,
    /// Run instead when `command` fails with NamespaceExists (code 48).
    pub if_namespace_exists: Option<Document>,
    /// When it runs: `"phase": "contract"` in the step (or in a data migration's file)
    /// waits for `apply --contract`; absent, it runs with the release.
    pub phase: Phase,
    /// `"requireValid": true`: a `collMod` that runs only when no stored document fails its
    /// validator (`apply` counts them first).
    pub require_valid: bool,
}

/// A migration's JSON file, as `apply` runs it.
#[derive(Debug, Clone, PartialEq)]
pub struct MigrationFile {
    /// The migration's name (`20261123224048_tighten_t_users`), recorded once it is applied.
    pub name: String,
    /// Written by `migrate`, or a hand-written data migration.
    pub kind: MigrationKind,
    /// Its steps, in order.
    pub up: Vec<FileStep>,
    /// The steps `revert` runs, in order.
    pub down: Vec<FileStep>,
    /// `sha256:` and the hex SHA-256 of the file's text (line endings as `\n`): recorded
    /// when the migration is applied, compared on every later run.
    pub checksum: String,
}

impl FileStep {
    /// The database and collection whose validator this step installs (`createCollection`
    /// or `collMod` with a `validator`), if it installs one.
    pub fn validated(&self) -> Option<(&str, &str)> {
        let collection = ["create", "collMod"].iter().find_map(|verb| self.command.get_str(verb).ok())?;
        self.command.contains_key("validator").then_some((self.db.as_str(), collection))
    }
}

impl MigrationFile {
    /// The first of `up`'s steps from `done` on that waits for the contract, if any.
    pub fn contract_from(&self, done: usize) -> Option<usize> {
        (done..self.up.len()).find(|&i| self.up[i].phase == Phase::Contract)
    }
}

/// What wrote a migration file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum MigrationKind {
    /// `schema migrate`, from the models.
    Schema,
    /// `"kind": "data"`: hand-written commands (a backfill, a `$rename`), in the same
    /// sequence; `schema new-data` writes an empty one.
    Data,
}

/// Why a migration's JSON file could not be read back. Its `Display` is the context; the
/// [`source`](std::error::Error::source) chain holds the cause (I/O, JSON, Extended JSON).
#[derive(Debug)]
#[non_exhaustive]
pub enum MigrationFileError {
    /// The file could not be read.
    Read {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: io::Error,
    },
    /// The file's text is not a migration; `source` says why.
    InFile {
        /// The file.
        path: PathBuf,
        /// What is wrong with its text.
        source: Box<MigrationFileError>,
    },
    /// Not JSON at all.
    Json(serde_json::Error),
    /// A command that is not Extended JSON.
    ExtJson(mongo_schema_core::compat::ExtJsonError),
    /// JSON, but not shaped as `migrate` writes it (a missing key, a command that is not a
    /// document): the complete message.
    Shape(String),
}

impl fmt::Display for MigrationFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MigrationFileError::Read { path, .. } | MigrationFileError::InFile { path, .. } => {
                write!(f, "{}", path.display())
            }
            MigrationFileError::Json(_) => f.write_str("not JSON"),
            MigrationFileError::ExtJson(_) => f.write_str("not Extended JSON"),
            MigrationFileError::Shape(message) => f.write_str(message),
        }
    }
}

impl Error for MigrationFileError {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        match self {
            MigrationFileError::Read { source, .. } => Some(source),
            MigrationFileError::InFile { source, .. } => Some(&**source),
            MigrationFileError::Json(e) => Some(e),
            MigrationFileError::ExtJson(e) => Some(e),
            MigrationFileError::Shape(_) => None,
        }
    }
}

impl MigrationFile {
    /// Reads a migration JSON file: written by `migrate`, or a data migration. Its
    /// `migration` must be the file's name without `.json`.
    pub fn read(path: &Path) -> Result<Self, MigrationFileError> {
        let text = std::fs::read_to_string(path)
            .map_err(|source| MigrationFileError::Read { path: path.to_owned(), source })?;
        let in_file = |e| MigrationFileError::InFile { path: path.to_owned(), source: Box::new(e) };
        let file = Self::parse(&text).map_err(in_file)?;
        let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or_default();
        if file.name != stem {
            return Err(in_file(MigrationFileError::Shape(format!(
                "names the migration {:?}, but the file is {stem}.json: a migration is recorded by its name, so \
                 rename one to match the other",
                file.name
            ))));
        }
        Ok(file)
    }

    /// Parses the text of a migration JSON file.
    pub fn parse(text: &str) -> Result<Self, MigrationFileError> {
        let value: serde_json::Value = serde_json::from_str(text).map_err(MigrationFileError::Json)?;
        let name = value["migration"].as_str().ok_or_else(|| shape("no `migration` name"))?.to_owned();
        let kind = match value.get("kind").map(|k| k.as_str()) {
            None | Some(Some("schema")) => MigrationKind::Schema,
            Some(Some("data")) => MigrationKind::Data,
            Some(other) => {
                return Err(MigrationFileError::Shape(format!(
                    "`kind` is {}; it is \"data\" for a hand-written data migration, or absent",
                    other.map_or_else(|| value["kind"].to_string(), |k| format!("{k:?}"))
                )))
            }
        };
        // a data migration's `phase` is each of its steps' (a step may still say its own)
        let phase = phase_of(&value, Phase::Expand)?;
        let steps = value["up"].as_array().ok_or_else(|| shape("no `up` array"))?;
        let up = steps.iter().map(|s| file_step(s, phase)).collect::<Result<_, _>>()?;
        let down = match value.get("down") {
            None => Vec::new(),
            Some(steps) => steps
                .as_array()
                .ok_or_else(|| shape("`down` is not an array"))?
                .iter()
                .map(|s| file_step(s, Phase::Expand))
                .collect::<Result<_, _>>()?,
        };
        Ok(MigrationFile { name, kind, up, down, checksum: checksum(text) })
    }
}

fn shape(message: &str) -> MigrationFileError {
    MigrationFileError::Shape(message.to_owned())
}

/// `"phase"` of a file or a step: `"expand"`, `"contract"`, or absent (`default`).
fn phase_of(value: &serde_json::Value, default: Phase) -> Result<Phase, MigrationFileError> {
    match value.get("phase") {
        None => Ok(default),
        Some(p) if p == Phase::Expand.as_str() => Ok(Phase::Expand),
        Some(p) if p == Phase::Contract.as_str() => Ok(Phase::Contract),
        Some(other) => Err(MigrationFileError::Shape(format!(
            "`phase` is {other}: \"contract\" for what runs once the previous release no longer writes \
             (`schema apply --contract`), \"expand\" or absent for what runs with the release"
        ))),
    }
}

fn file_step(value: &serde_json::Value, phase: Phase) -> Result<FileStep, MigrationFileError> {
    let db = value["db"].as_str().ok_or_else(|| shape("a step without `db`"))?.to_owned();
    let command = extjson_document(&value["command"])?;
    let if_namespace_exists = match value.get("ifNamespaceExists") {
        Some(v) => Some(extjson_document(v)?),
        None => None,
    };
    let require_valid = match value.get("requireValid") {
        None => false,
        Some(serde_json::Value::Bool(b)) => *b,
        Some(other) => return Err(MigrationFileError::Shape(format!("`requireValid` is {other}, not true or false"))),
    };
    if require_valid && command.get_document("validator").is_err() {
        return Err(shape("`requireValid` on a step without a `validator` (a collMod that installs one)"));
    }
    Ok(FileStep { db, command, if_namespace_exists, phase: phase_of(value, phase)?, require_valid })
}

fn extjson_document(value: &serde_json::Value) -> Result<Document, MigrationFileError> {
    match Bson::try_from(value.clone()) {
        Ok(Bson::Document(doc)) => Ok(doc),
        Ok(_) => Err(MigrationFileError::Shape(format!("not a command document: {value}"))),
        Err(e) => Err(MigrationFileError::ExtJson(e)),
    }
}
