//! The snapshot a `migrate` run leaves in the migrations directory: what the migrations
//! written so far install, exact to the BSON type (canonical Extended JSON), so the next
//! run can tell what changed.

use mongo_schema_core::bson::{Bson, Document};
use mongo_schema_core::command::{ValidationAction, ValidationLevel};
use mongo_schema_core::model::{Model, Options};
use serde_json::{json, Map, Value};
use std::fmt;

/// The snapshot's file name inside the migrations directory.
pub const SNAPSHOT_FILE: &str = "snapshot.json";
const FORMAT: u64 = 1;

/// One collection as the migrations so far leave it.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    /// The validator, level and action installed (the action is `warn` while staged).
    pub model: Model,
    /// A staged tightening: the action the next run switches to.
    pub enforce: Option<ValidationAction>,
}

/// Every collection the migrations so far install, sorted by namespace.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Snapshot {
    /// The migration that produced this snapshot (`0003_alter_t_users`).
    pub last_migration: Option<String>,
    /// One entry per collection.
    pub entries: Vec<Entry>,
}

/// Why a snapshot's text cannot be read back. Its `Display` is the context; the
/// [`source`](std::error::Error::source) holds the JSON or Extended JSON error.
#[derive(Debug)]
#[non_exhaustive]
pub enum SnapshotError {
    /// Not JSON at all.
    Json(serde_json::Error),
    /// A validator, index or option that is not canonical Extended JSON.
    ExtJson(mongo_schema_core::compat::ExtJsonError),
    /// JSON, but not a snapshot this version reads (a missing key, an unknown format or
    /// level): the complete message.
    Shape(String),
}

impl fmt::Display for SnapshotError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SnapshotError::Json(_) => f.write_str("not JSON"),
            SnapshotError::ExtJson(_) => f.write_str("not Extended JSON"),
            SnapshotError::Shape(message) => f.write_str(message),
        }
    }
}

impl std::error::Error for SnapshotError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            SnapshotError::Json(e) => Some(e),
            SnapshotError::ExtJson(e) => Some(e),
            SnapshotError::Shape(_) => None,
        }
    }
}

impl Snapshot {
    /// The entry of `db.collection`.
    pub fn get(&self, db: &str, collection: &str) -> Option<&Entry> {
        self.entries.iter().find(|e| e.model.db == db && e.model.collection == collection)
    }

    /// Pretty JSON, one entry per collection, validators in canonical Extended JSON.
    pub fn to_json(&self) -> String {
        let collections: Vec<Value> = self.entries.iter().map(entry_json).collect();
        let value = json!({ "format": FORMAT, "lastMigration": self.last_migration, "collections": collections });
        serde_json::to_string_pretty(&value).expect("a JSON value always serialises") + "\n"
    }

    /// Reads back what [`Snapshot::to_json`] wrote.
    pub fn from_json(text: &str) -> Result<Self, SnapshotError> {
        let value: Value = serde_json::from_str(text).map_err(SnapshotError::Json)?;
        match value.get("format").and_then(Value::as_u64) {
            Some(FORMAT) => {}
            other => return Err(SnapshotError::Shape(format!("unknown format {other:?}, expected {FORMAT}"))),
        }
        let last_migration = value.get("lastMigration").and_then(Value::as_str).map(str::to_owned);
        let items = value
            .get("collections")
            .and_then(Value::as_array)
            .ok_or_else(|| SnapshotError::Shape("no `collections` array".into()))?;
        let entries = items.iter().map(entry_from_json).collect::<Result<_, _>>()?;
        Ok(Snapshot { last_migration, entries })
    }
}

fn entry_json(entry: &Entry) -> Value {
    let m = &entry.model;
    let mut map = Map::new();
    map.insert("db".into(), m.db.clone().into());
    map.insert("collection".into(), m.collection.clone().into());
    map.insert("rustType".into(), m.rust_type.clone().into());
    map.insert("validationLevel".into(), m.level.as_str().into());
    map.insert("validationAction".into(), m.action.as_str().into());
    if let Some(action) = entry.enforce {
        map.insert("enforceAction".into(), action.as_str().into());
    }
    map.insert("validator".into(), Bson::Document(m.validator.clone()).into_canonical_extjson());
    // written only when set, so snapshots of plain collections read as before
    let o = &m.options;
    if !o.create.is_empty() {
        map.insert("createOptions".into(), Bson::Document(o.create.clone()).into_canonical_extjson());
    }
    if !o.indexes.is_empty() {
        map.insert(
            "indexes".into(),
            Bson::Array(o.indexes.iter().cloned().map(Bson::Document).collect()).into_canonical_extjson(),
        );
    }
    if !o.shard_key.is_empty() {
        map.insert("shardKey".into(), Bson::Document(o.shard_key.clone()).into_canonical_extjson());
    }
    Value::Object(map)
}

fn options_from_json(value: &Value) -> Result<Options, SnapshotError> {
    let document = |key: &str| value.get(key).map_or(Ok(Document::new()), |v| validator_from_json(Some(v)));
    let indexes = match value.get("indexes") {
        None => Vec::new(),
        Some(Value::Array(items)) => items.iter().map(|i| validator_from_json(Some(i))).collect::<Result<_, _>>()?,
        Some(other) => return Err(SnapshotError::Shape(format!("indexes is not an array: {other}"))),
    };
    Ok(Options { create: document("createOptions")?, indexes, shard_key: document("shardKey")? })
}

fn entry_from_json(value: &Value) -> Result<Entry, SnapshotError> {
    let text = |key: &str| {
        value
            .get(key)
            .and_then(Value::as_str)
            .ok_or_else(|| SnapshotError::Shape(format!("collection entry without `{key}`: {value}")))
    };
    let level = ValidationLevel::from_name(text("validationLevel")?)
        .ok_or_else(|| SnapshotError::Shape(format!("bad validationLevel in {value}")))?;
    let action = ValidationAction::from_name(text("validationAction")?)
        .ok_or_else(|| SnapshotError::Shape(format!("bad validationAction in {value}")))?;
    let enforce = match value.get("enforceAction").and_then(Value::as_str) {
        Some(a) => Some(
            ValidationAction::from_name(a).ok_or_else(|| SnapshotError::Shape(format!("bad enforceAction {a:?}")))?,
        ),
        None => None,
    };
    let model = Model {
        db: text("db")?.to_owned(),
        collection: text("collection")?.to_owned(),
        rust_type: text("rustType")?.to_owned(),
        validator: validator_from_json(value.get("validator"))?,
        level,
        action,
        options: options_from_json(value)?,
        renames: Vec::new(),
        max_document_size: None,
    };
    Ok(Entry { model, enforce })
}

/// A document in canonical Extended JSON (a validator, options, an index).
fn validator_from_json(value: Option<&Value>) -> Result<Document, SnapshotError> {
    let value = value.ok_or_else(|| SnapshotError::Shape("collection entry without `validator`".into()))?;
    match Bson::try_from(value.clone()) {
        Ok(Bson::Document(doc)) => Ok(doc),
        Ok(other) => Err(SnapshotError::Shape(format!("not a document: {other}"))),
        Err(e) => Err(SnapshotError::ExtJson(e)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mongo_schema_core::bson::doc;
    use mongo_schema_core::command::ValidationLevel;

    fn entry() -> Entry {
        let validator = doc! { "$jsonSchema": { "bsonType": "object", "properties": { "n": { "minimum": 1_i64, "maximum": 2.5, "enum": [mongo_schema_core::bson::Decimal128::from_bytes([1; 16])] } } } };
        let model = Model {
            db: "db_a".into(),
            collection: "t_b".into(),
            rust_type: "app::B".into(),
            validator,
            level: ValidationLevel::Moderate,
            action: ValidationAction::Warn,
            options: Options::default(),
            renames: Vec::new(),
            max_document_size: None,
        };
        Entry { model, enforce: Some(ValidationAction::Error) }
    }

    #[test]
    fn round_trips_exact_bson_types() {
        let snapshot = Snapshot { last_migration: Some("0001_create_t_b".into()), entries: vec![entry()] };
        assert_eq!(Snapshot::from_json(&snapshot.to_json()).unwrap(), snapshot);
    }

    #[test]
    fn refuses_unknown_formats_and_bad_entries() {
        assert!(Snapshot::from_json(r#"{"format": 2, "collections": []}"#)
            .unwrap_err()
            .to_string()
            .contains("unknown format"));
        let err = Snapshot::from_json(r#"{"format": 1, "collections": [{"db": "db_a"}]}"#).unwrap_err();
        assert!(err.to_string().contains("validationLevel"), "{err}");
    }
}
