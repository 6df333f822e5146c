//! Collection roots: names, validation options and the commands that install the
//! validator (`createCollection`, `collMod`), for `Database::run_command`.
//!
//! Only options that work both through mongos on a sharded cluster and on a replica set
//! are generated. Collection options (`timeseries`, `capped`, indexes, the shard key)
//! are static data the derive checked at compile time; the builders here turn them into
//! commands.

use crate::bson::{doc, Bson, Document};
use crate::schema::MongoSchema;

pub use mongo_schema_contract::options::{IndexKey, ValidationAction, ValidationLevel};

/// A collection root: a derived type with `#[mongo(db = "...", collection = "...")]`.
pub trait MongoCollection: MongoSchema {
    /// The database name (`db_*`).
    const DB_NAME: &'static str;
    /// The collection name (`t_*`).
    const COLLECTION_NAME: &'static str;
    /// `#[mongo(validation_level = "...")]`, default strict.
    const VALIDATION_LEVEL: ValidationLevel = ValidationLevel::Strict;
    /// `#[mongo(validation_action = "...")]`, default error.
    const VALIDATION_ACTION: ValidationAction = ValidationAction::Error;
    /// The worst-case encoded BSON size of a document in bytes, computed at compile time,
    /// or `None` when a string, array or map in it has no bound. The derive refuses
    /// models whose bound exceeds MongoDB's 16 MiB (rule `document_size`).
    const MAX_DOCUMENT_SIZE: Option<u64> = <Self as MongoSchema>::FACTS.max_size;

    /// `#[mongo(timeseries(...))]`: a time-series collection.
    const TIMESERIES: Option<Timeseries> = None;
    /// `#[mongo(capped(...))]`: a capped collection.
    const CAPPED: Option<Capped> = None;
    /// `#[mongo(collation(...))]`: the collection's default collation.
    const COLLATION: Option<Collation> = None;
    /// `#[mongo(clustered(...))]`: a clustered collection, its documents stored in `_id` order.
    const CLUSTERED: Option<Clustered> = None;
    /// `#[mongo(index(...))]`, in declaration order.
    const INDEXES: &'static [Index] = &[];
    /// `#[mongo(shard_key(...))]`; empty when the collection is not sharded.
    const SHARD_KEY: &'static [(&'static str, IndexKey)] = &[];
    /// `#[mongo(renamed_from = "old")]` on fields: `(new key, old key)`, in field order.
    /// Migrations carry a stored field over to its new key; see `docs/MIGRATIONS.md`.
    const RENAMES: &'static [(&'static str, &'static str)] = &[];

    /// `{create, validator, validationLevel, validationAction}` plus `capped` / `size` /
    /// `max`; for a time-series collection `{create, timeseries, expireAfterSeconds}` and
    /// no validator, which mongod refuses on time-series collections.
    fn create_collection_command() -> Document
    where
        Self: Sized,
    {
        Registration::of::<Self>("").create_collection_command()
    }

    /// `{collMod, validator, validationLevel, validationAction}`: installs the validator on
    /// an existing collection. For a time-series collection, which takes no validator:
    /// `{collMod, expireAfterSeconds}` (`"off"` when none is declared).
    fn coll_mod_command() -> Document
    where
        Self: Sized,
    {
        Registration::of::<Self>("").coll_mod_command()
    }

    /// `{createIndexes, indexes: [...]}` for the declared indexes; `None` when there are none.
    fn create_indexes_command() -> Option<Document>
    where
        Self: Sized,
    {
        Registration::of::<Self>("").create_indexes_command()
    }

    /// `{shardCollection: "db.coll", key}`, run through mongos against `admin`; `None`
    /// when no shard key is declared.
    fn shard_collection_command() -> Option<Document>
    where
        Self: Sized,
    {
        Registration::of::<Self>("").shard_collection_command()
    }
}

/// `timeseries` options of `createCollection` (MongoDB 5.0+).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Timeseries {
    /// `timeField`: a BSON date in every document.
    pub time_field: &'static str,
    /// `metaField`: what labels a series (e.g. the device).
    pub meta_field: Option<&'static str>,
    /// `granularity`: `"seconds"`, `"minutes"` or `"hours"`.
    pub granularity: Option<&'static str>,
    /// `expireAfterSeconds`: documents older than this are deleted.
    pub expire_after_seconds: Option<u64>,
}

impl Timeseries {
    /// The `timeseries` document.
    pub fn document(&self) -> Document {
        let mut out = doc! { "timeField": self.time_field };
        if let Some(meta) = self.meta_field {
            out.insert("metaField", meta);
        }
        if let Some(granularity) = self.granularity {
            out.insert("granularity", granularity);
        }
        out
    }
}

/// `capped: true, size, max` of `createCollection`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Capped {
    /// Greatest total size in bytes.
    pub size: u64,
    /// Greatest number of documents.
    pub max: Option<u64>,
}

/// `collation` of an index or of a collection: how strings compare (ICU). Only the
/// fields set are written; mongod fills in the others from the locale.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Collation {
    /// `locale`: `"en"`, `"fr_CA"`, ... (`"simple"`: binary comparison).
    pub locale: &'static str,
    /// `strength`: 1 (base letters: `a` = `á` = `A`), 2 (and accents: `a` = `A`), 3 (and
    /// case, ICU's default), 4, 5.
    pub strength: Option<u32>,
    /// `caseLevel`
    pub case_level: Option<bool>,
    /// `caseFirst`: `"upper"`, `"lower"` or `"off"`.
    pub case_first: Option<&'static str>,
    /// `numericOrdering`: `"10"` after `"9"`.
    pub numeric_ordering: Option<bool>,
    /// `alternate`: `"non-ignorable"` or `"shifted"`.
    pub alternate: Option<&'static str>,
    /// `maxVariable`: `"punct"` or `"space"`.
    pub max_variable: Option<&'static str>,
    /// `normalization`
    pub normalization: Option<bool>,
    /// `backwards`: secondary differences compared from the end (French).
    pub backwards: Option<bool>,
}

impl Collation {
    /// `{locale: "simple"}`: binary comparison, which text and 2d indexes need on a
    /// collection that has a default collation.
    pub const SIMPLE: Collation = Collation {
        locale: "simple",
        strength: None,
        case_level: None,
        case_first: None,
        numeric_ordering: None,
        alternate: None,
        max_variable: None,
        normalization: None,
        backwards: None,
    };

    /// The `collation` document: `locale` and the fields set, in mongod's order.
    pub fn document(&self) -> Document {
        let mut out = doc! { "locale": self.locale };
        let fields: [(&str, Option<Bson>); 8] = [
            ("caseLevel", self.case_level.map(Bson::from)),
            ("caseFirst", self.case_first.map(Bson::from)),
            ("strength", self.strength.map(|n| count(u64::from(n)))),
            ("numericOrdering", self.numeric_ordering.map(Bson::from)),
            ("alternate", self.alternate.map(Bson::from)),
            ("maxVariable", self.max_variable.map(Bson::from)),
            ("normalization", self.normalization.map(Bson::from)),
            ("backwards", self.backwards.map(Bson::from)),
        ];
        for (key, value) in fields {
            if let Some(value) = value {
                out.insert(key, value);
            }
        }
        out
    }
}

/// `clusteredIndex: {key: {_id: 1}, unique: true}` of `createCollection` (MongoDB 5.3+):
/// documents stored in `_id` order, no separate `_id` index.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Clustered {
    /// `expireAfterSeconds`: documents whose `_id` (a date) is older are deleted.
    pub expire_after_seconds: Option<u64>,
}

/// The value of `key` in a key pattern: `1`, `-1` or the index type's name.
pub(crate) fn key_value(key: IndexKey) -> Bson {
    match key.direction() {
        Some(direction) => Bson::Int32(direction),
        None => Bson::from(key.suffix()),
    }
}

/// One `#[mongo(index(...))]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Index {
    /// The declared name, or MongoDB's default (`field_1_other_-1`).
    pub name: &'static str,
    /// The key pattern, in order: field path and kind (`1`, `-1`, `"hashed"`, ...).
    pub keys: &'static [(&'static str, IndexKey)],
    /// `unique: true`.
    pub unique: bool,
    /// `expireAfterSeconds`: a TTL index.
    pub ttl: Option<u64>,
    /// `partialFilterExpression` as Extended JSON text, checked at compile time to be a
    /// filter mongod accepts there.
    pub partial: Option<&'static str>,
    /// `sparse: true`: documents without the indexed fields are left out.
    pub sparse: bool,
    /// `hidden: true`: maintained, but not used by queries.
    pub hidden: bool,
    /// `collation`: how the index compares strings.
    pub collation: Option<Collation>,
    /// Text indexes: `weights` of the text fields (1 when not listed).
    pub weights: &'static [(&'static str, u32)],
    /// Text indexes: `default_language`.
    pub default_language: Option<&'static str>,
    /// Text indexes: `language_override`, the field naming a document's language.
    pub language_override: Option<&'static str>,
    /// Wildcard indexes (`$**`): `wildcardProjection`, each path included (`true`) or
    /// excluded.
    pub wildcard_projection: &'static [(&'static str, bool)],
}

impl Index {
    /// The key pattern, in declaration order.
    pub fn key_document(&self) -> Document {
        key_pattern(self.keys)
    }

    /// The index specification of `createIndexes`.
    ///
    /// # Panics
    /// When `partial` is JSON but not Extended JSON bson can read (e.g. a malformed
    /// `{"$date": ...}`); the derive has already checked it is a JSON object.
    pub fn spec(&self) -> Document {
        let mut spec = doc! { "key": self.key_document(), "name": self.name };
        if self.unique {
            spec.insert("unique", true);
        }
        if let Some(seconds) = self.ttl {
            spec.insert("expireAfterSeconds", count(seconds));
        }
        if let Some(text) = self.partial {
            spec.insert("partialFilterExpression", partial_filter(self.name, text));
        }
        if self.sparse {
            spec.insert("sparse", true);
        }
        if self.hidden {
            spec.insert("hidden", true);
        }
        if let Some(collation) = &self.collation {
            spec.insert("collation", collation.document());
        }
        if !self.weights.is_empty() {
            let weights: Document =
                self.weights.iter().map(|(field, weight)| ((*field).to_owned(), count(u64::from(*weight)))).collect();
            spec.insert("weights", weights);
        }
        if let Some(language) = self.default_language {
            spec.insert("default_language", language);
        }
        if let Some(field) = self.language_override {
            spec.insert("language_override", field);
        }
        if !self.wildcard_projection.is_empty() {
            let projection: Document = self
                .wildcard_projection
                .iter()
                .map(|(path, include)| ((*path).to_owned(), Bson::Int32(i32::from(*include))))
                .collect();
            spec.insert("wildcardProjection", projection);
        }
        spec
    }
}

/// Extended JSON text as a document.
fn partial_filter(index: &str, text: &str) -> Document {
    let parsed = serde_json::from_str::<serde_json::Value>(text).map_err(|e| e.to_string());
    let value = parsed.and_then(|json| Bson::try_from(json).map_err(|e| e.to_string()));
    match value {
        Ok(Bson::Document(filter)) => filter,
        Ok(other) => panic!("index `{index}`: `partial` is {other}, not an Extended JSON document"),
        Err(error) => panic!("index `{index}`: `partial` is not Extended JSON: {error}"),
    }
}

fn key_pattern(keys: &[(&str, IndexKey)]) -> Document {
    keys.iter().map(|(path, key)| ((*path).to_owned(), key_value(*key))).collect()
}

fn count(n: u64) -> Bson {
    match i32::try_from(n) {
        Ok(small) => Bson::Int32(small),
        Err(_) => Bson::Int64(n.min(i64::MAX as u64) as i64),
    }
}

/// A `createCollection` command for a time-series collection. It has no validator:
/// mongod refuses `validator` on time-series collections; validate documents before
/// writing them with the type's `json_schema()` and the local `Validator` instead.
pub fn create_timeseries(collection: &str, timeseries: &Timeseries) -> Document {
    let mut command = doc! { "create": collection, "timeseries": timeseries.document() };
    if let Some(seconds) = timeseries.expire_after_seconds {
        command.insert("expireAfterSeconds", count(seconds));
    }
    command
}

/// `collMod` of a time-series collection: its expiry (`"off"` when none is declared).
pub fn coll_mod_timeseries(collection: &str, timeseries: &Timeseries) -> Document {
    let expire = timeseries.expire_after_seconds.map_or(Bson::from("off"), count);
    doc! { "collMod": collection, "expireAfterSeconds": expire }
}

/// Adds `capped: true, size, max` to a `createCollection` command.
pub(crate) fn add_capped(command: &mut Document, capped: Option<Capped>) {
    let Some(capped) = capped else { return };
    command.insert("capped", true);
    command.insert("size", count(capped.size));
    if let Some(max) = capped.max {
        command.insert("max", count(max));
    }
}

/// Adds a collection's default `collation` and `clusteredIndex` (with its
/// `expireAfterSeconds`) to a `createCollection` command.
pub(crate) fn add_collection_options(
    command: &mut Document,
    collation: Option<Collation>,
    clustered: Option<Clustered>,
) {
    if let Some(collation) = collation {
        command.insert("collation", collation.document());
    }
    if let Some(clustered) = clustered {
        command.insert("clusteredIndex", doc! { "key": { "_id": 1 }, "unique": true });
        if let Some(seconds) = clustered.expire_after_seconds {
            command.insert("expireAfterSeconds", count(seconds));
        }
    }
}

/// A `createIndexes` command; `None` when `indexes` is empty. Idempotent: mongod accepts
/// an index that already exists with the same name, keys and options.
pub fn create_indexes(collection: &str, indexes: &[Index]) -> Option<Document> {
    if indexes.is_empty() {
        return None;
    }
    let specs: Vec<Document> = indexes.iter().map(Index::spec).collect();
    Some(doc! { "createIndexes": collection, "indexes": specs })
}

/// A `shardCollection` command (run against `admin` through mongos); `None` without a key.
pub fn shard_collection(db: &str, collection: &str, key: &[(&str, IndexKey)]) -> Option<Document> {
    if key.is_empty() {
        return None;
    }
    Some(doc! { "shardCollection": format!("{db}.{collection}"), "key": key_pattern(key) })
}

/// A `createCollection` command with a validator.
pub fn create_collection(
    collection: &str,
    validator: Document,
    level: ValidationLevel,
    action: ValidationAction,
) -> Document {
    doc! {
        "create": collection,
        "validator": validator,
        "validationLevel": level.as_str(),
        "validationAction": action.as_str(),
    }
}

/// A `collMod` command that replaces the validator.
pub fn coll_mod(collection: &str, validator: Document, level: ValidationLevel, action: ValidationAction) -> Document {
    doc! {
        "collMod": collection,
        "validator": validator,
        "validationLevel": level.as_str(),
        "validationAction": action.as_str(),
    }
}

/// A collection root as data: what its `MongoCollection` constants say, in one value.
/// The trait's command methods, `migrate::Model` and the CLI all build from it, so there
/// is one builder per command. `#[derive(MongoSchema)]` registers one per non-generic
/// root, so a binary can enumerate every model it links without listing them.
#[derive(Debug, Clone, Copy)]
pub struct Registration {
    /// The database name.
    pub db: &'static str,
    /// The collection name.
    pub collection: &'static str,
    /// The Rust type, as `module::path::Type`.
    pub rust_type: &'static str,
    /// `validationLevel` of its validator.
    pub validation_level: ValidationLevel,
    /// `validationAction` of its validator.
    pub validation_action: ValidationAction,
    /// The type's `$jsonSchema` (`MongoSchema::json_schema`).
    pub json_schema: fn() -> Document,
    /// Time-series options: such a collection takes no validator.
    pub timeseries: Option<Timeseries>,
    /// Capped-collection options.
    pub capped: Option<Capped>,
    /// The collection's default collation.
    pub collation: Option<Collation>,
    /// Clustered-collection options.
    pub clustered: Option<Clustered>,
    /// The declared indexes.
    pub indexes: &'static [Index],
    /// The declared shard key (empty: not sharded).
    pub shard_key: &'static [(&'static str, IndexKey)],
    /// Fields renamed from an older key: `(new, old)`.
    pub renames: &'static [(&'static str, &'static str)],
    /// [`MongoCollection::MAX_DOCUMENT_SIZE`]: the worst-case size, `None` when unbounded.
    pub max_document_size: Option<u64>,
    /// The type's name (`MongoSchema::NAME`), for reports naming its fields.
    pub name: &'static str,
    /// The type's fields (`MongoSchema::FIELDS`), for reports naming the Rust field
    /// behind a document path.
    pub fields: Option<&'static [crate::schema::FieldFacts]>,
}

impl Registration {
    /// The registration of the collection root `T`, named `rust_type` in reports.
    pub const fn of<T: MongoCollection>(rust_type: &'static str) -> Self {
        Registration {
            db: T::DB_NAME,
            collection: T::COLLECTION_NAME,
            rust_type,
            validation_level: T::VALIDATION_LEVEL,
            validation_action: T::VALIDATION_ACTION,
            json_schema: T::json_schema,
            timeseries: T::TIMESERIES,
            capped: T::CAPPED,
            collation: T::COLLATION,
            clustered: T::CLUSTERED,
            indexes: T::INDEXES,
            shard_key: T::SHARD_KEY,
            renames: T::RENAMES,
            max_document_size: T::MAX_DOCUMENT_SIZE,
            name: T::NAME,
            fields: T::FIELDS,
        }
    }

    /// [`MongoCollection::create_collection_command`] of the registered type.
    pub fn create_collection_command(&self) -> Document {
        let mut command = match &self.timeseries {
            Some(timeseries) => create_timeseries(self.collection, timeseries),
            None => {
                let validator = doc! { "$jsonSchema": (self.json_schema)() };
                let mut command =
                    create_collection(self.collection, validator, self.validation_level, self.validation_action);
                add_capped(&mut command, self.capped);
                command
            }
        };
        add_collection_options(&mut command, self.collation, self.clustered);
        command
    }

    /// [`MongoCollection::coll_mod_command`] of the registered type.
    pub fn coll_mod_command(&self) -> Document {
        match &self.timeseries {
            Some(timeseries) => coll_mod_timeseries(self.collection, timeseries),
            None => {
                let validator = doc! { "$jsonSchema": (self.json_schema)() };
                coll_mod(self.collection, validator, self.validation_level, self.validation_action)
            }
        }
    }

    /// [`MongoCollection::create_indexes_command`] of the registered type.
    pub fn create_indexes_command(&self) -> Option<Document> {
        create_indexes(self.collection, self.indexes)
    }

    /// [`MongoCollection::shard_collection_command`] of the registered type.
    pub fn shard_collection_command(&self) -> Option<Document> {
        shard_collection(self.db, self.collection, self.shard_key)
    }
}

/// What the derive submits for a non-generic collection root: its name and the function
/// that builds its [`Registration`]. A function pointer costs the user's build nothing,
/// where a `Registration` value would be evaluated, and its tables checked recursively,
/// by the compiler for every root of every build.
#[doc(hidden)]
pub struct Registered {
    rust_type: &'static str,
    of: fn(&'static str) -> Registration,
}

impl Registered {
    /// The registration of the collection root whose [`Registration::of`] is `of`.
    pub const fn new(rust_type: &'static str, of: fn(&'static str) -> Registration) -> Self {
        Registered { rust_type, of }
    }
}

inventory::collect!(Registered);

/// Every registered collection root, sorted by database then collection, so output
/// never depends on link order. Built on the first call.
pub fn registered() -> Vec<&'static Registration> {
    static ALL: std::sync::OnceLock<Vec<Registration>> = std::sync::OnceLock::new();
    let all = ALL.get_or_init(|| {
        let mut all: Vec<Registration> =
            inventory::iter::<Registered>.into_iter().map(|r| (r.of)(r.rust_type)).collect();
        all.sort_by_key(|r| (r.db, r.collection, r.rust_type));
        all
    });
    all.iter().collect()
}
