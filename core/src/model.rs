//! A collection root as migrations see it, and its collection options: the catalogue of
//! the models registered in a binary.

use crate::bson::{doc, Bson, Document};
use crate::command::MongoCollection;
use crate::command::{
    add_capped, coll_mod, create_collection, create_timeseries, Capped, Index, IndexKey, Registration, Timeseries,
    ValidationAction, ValidationLevel,
};

/// A collection root as migrations see it: owned, comparable, serialisable.
#[derive(Debug, Clone, PartialEq)]
pub struct Model {
    /// The database (`db_shop`).
    pub db: String,
    /// The collection (`t_order`).
    pub collection: String,
    /// The Rust type, for comments (`module::Type`).
    pub rust_type: String,
    /// `{"$jsonSchema": ...}`.
    pub validator: Document,
    /// `validationLevel`.
    pub level: ValidationLevel,
    /// `validationAction`.
    pub action: ValidationAction,
    /// `timeseries`, `capped`, indexes and the shard key.
    pub options: Options,
    /// Fields renamed from an older key, `(new, old)` (`#[mongo(renamed_from = "old")]`):
    /// read when the migration that drops `old` is written, never kept in the snapshot, so
    /// removing the attribute later changes nothing.
    pub renames: Vec<(String, String)>,
    /// The worst-case encoded size of a document, computed at compile time
    /// (`MongoCollection::MAX_DOCUMENT_SIZE`); `None` when a field leaves it unbounded, and
    /// for a model read back from a snapshot (which does not keep it).
    pub max_document_size: Option<u64>,
}

/// A collection's options as migrations install them: owned, comparable, serialisable.
/// All empty for a plain collection.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Options {
    /// `createCollection` options besides the validator: `timeseries` and
    /// `expireAfterSeconds`, or `capped`, `size` and `max`.
    pub create: Document,
    /// Index specifications as `createIndexes` takes them, in declaration order.
    pub indexes: Vec<Document>,
    /// The shard key pattern; empty when the collection is not sharded.
    pub shard_key: Document,
}

impl Options {
    /// The options of a collection root's declarations.
    pub fn of(
        timeseries: Option<Timeseries>,
        capped: Option<Capped>,
        indexes: &[Index],
        shard_key: &[(&str, IndexKey)],
    ) -> Self {
        let mut create = match timeseries {
            Some(ts) => create_timeseries("", &ts),
            None => Document::new(),
        };
        create.remove("create");
        add_capped(&mut create, capped);
        let shard_key =
            shard_key.iter().map(|(path, key)| ((*path).to_owned(), crate::command::key_value(*key))).collect();
        Options { create, indexes: indexes.iter().map(Index::spec).collect(), shard_key }
    }

    /// A time-series collection, which takes no validator.
    pub fn is_timeseries(&self) -> bool {
        self.create.contains_key("timeseries")
    }
}

/// The validator migrations install: none on a time-series collection, which mongod
/// refuses; validate its documents before writing with the type's `json_schema()`.
fn installed_validator(options: &Options, json_schema: Document) -> Document {
    match options.is_timeseries() {
        true => Document::new(),
        false => crate::bson::doc! { "$jsonSchema": json_schema },
    }
}

impl Model {
    /// The model of a collection root type.
    pub fn of<T: MongoCollection>(rust_type: &str) -> Self {
        Model { rust_type: rust_type.to_owned(), ..Model::from(&Registration::of::<T>("")) }
    }

    /// `db.collection`, the key models are matched by.
    pub fn namespace(&self) -> String {
        format!("{}.{}", self.db, self.collection)
    }

    /// The `createCollection` command that installs the model on a new collection, and the
    /// command to run when the collection already exists (`collMod` of the validator; of a
    /// time-series collection, its expiry, since it takes no validator).
    pub fn commands(&self) -> (Document, Document) {
        if self.options.is_timeseries() {
            let mut command = doc! { "create": &self.collection };
            command.extend(self.options.create.clone());
            let expire = self.options.create.get("expireAfterSeconds").cloned().unwrap_or_else(|| Bson::from("off"));
            return (command, doc! { "collMod": &self.collection, "expireAfterSeconds": expire });
        }
        let mut command = create_collection(&self.collection, self.validator.clone(), self.level, self.action);
        command.extend(self.options.create.clone());
        (command, coll_mod(&self.collection, self.validator.clone(), self.level, self.action))
    }
}

impl From<&Registration> for Model {
    fn from(r: &Registration) -> Self {
        let mut options = Options::of(r.timeseries, r.capped, r.indexes, r.shard_key);
        crate::command::add_collection_options(&mut options.create, r.collation, r.clustered);
        Model {
            db: r.db.to_owned(),
            collection: r.collection.to_owned(),
            rust_type: r.rust_type.to_owned(),
            validator: installed_validator(&options, (r.json_schema)()),
            level: r.validation_level,
            action: r.validation_action,
            options,
            renames: r.renames.iter().map(|(new, old)| ((*new).to_owned(), (*old).to_owned())).collect(),
            max_document_size: r.max_document_size,
        }
    }
}

/// Every model registered in this binary, sorted by database then collection.
pub fn registered_models() -> Vec<Model> {
    crate::command::registered().into_iter().map(Model::from).collect()
}
