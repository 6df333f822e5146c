//! Attribute names and keys, in one place.

pub const MONGO: &str = "mongo";
pub const SERDE: &str = "serde";
pub const DOC: &str = "doc";

// #[mongo(...)] on a type
pub const DB: &str = "db";
pub const COLLECTION: &str = "collection";
pub const VALIDATION_LEVEL: &str = "validation_level";
pub const VALIDATION_ACTION: &str = "validation_action";
pub const MAX_DEPTH: &str = "max_depth";
pub const FIELD_CASE: &str = "field_case";
pub const MAX_ITEMS_LIMIT: &str = "max_items_limit";

// collection options on a root, and their keys
pub const TIMESERIES: &str = "timeseries";
pub const TIME_FIELD: &str = "time_field";
pub const META_FIELD: &str = "meta_field";
pub const GRANULARITY: &str = "granularity";
pub const EXPIRE_AFTER_SECONDS: &str = "expire_after_seconds";
pub const INDEX: &str = "index";
pub const KEYS: &str = "keys";
pub const UNIQUE: &str = "unique";
pub const NAME: &str = "name";
pub const TTL: &str = "ttl";
pub const PARTIAL: &str = "partial";
pub const SHARD_KEY: &str = "shard_key";
pub const CAPPED: &str = "capped";
pub const SIZE: &str = "size";
pub const MAX: &str = "max";

// #[mongo(...)] on a field, or on a field and a type
pub const MONEY: &str = "money";
pub const DATE: &str = "date";
pub const AUTO_INCREMENT: &str = "auto_increment";
pub const ALLOW: &str = "allow";
pub const REASON: &str = "reason";

// #[mongo(...)] on a field (and `title` / `description` on types too)
pub const TITLE: &str = "title";
pub const DESCRIPTION: &str = "description";
pub const BSON_TYPE: &str = "bson_type";
pub const MIN_LENGTH: &str = "min_length";
pub const MAX_LENGTH: &str = "max_length";
pub const PATTERN: &str = "pattern";
pub const MINIMUM: &str = "minimum";
pub const MAXIMUM: &str = "maximum";
pub const EXCLUSIVE_MINIMUM: &str = "exclusive_minimum";
pub const EXCLUSIVE_MAXIMUM: &str = "exclusive_maximum";
pub const MULTIPLE_OF: &str = "multiple_of";
pub const MIN_ITEMS: &str = "min_items";
pub const MAX_ITEMS: &str = "max_items";
pub const UNIQUE_ITEMS: &str = "unique_items";
pub const MIN_PROPERTIES: &str = "min_properties";
pub const MAX_PROPERTIES: &str = "max_properties";
pub const ENUM_VALUES: &str = "enum_values";

// #[serde(...)] keys that change what is written
pub const RENAME: &str = "rename";
pub const RENAME_ALL: &str = "rename_all";
pub const RENAME_ALL_FIELDS: &str = "rename_all_fields";
pub const SERIALIZE: &str = "serialize";
pub const SKIP: &str = "skip";
pub const SKIP_SERIALIZING: &str = "skip_serializing";
pub const SKIP_SERIALIZING_IF: &str = "skip_serializing_if";
pub const FLATTEN: &str = "flatten";
pub const WITH: &str = "with";
pub const SERIALIZE_WITH: &str = "serialize_with";
pub const DENY_UNKNOWN_FIELDS: &str = "deny_unknown_fields";
pub const TAG: &str = "tag";
pub const CONTENT: &str = "content";
pub const UNTAGGED: &str = "untagged";
pub const TRANSPARENT: &str = "transparent";
pub const INTO: &str = "into";

/// `bsonType` aliases mongod accepts, `"number"` included.
pub const BSON_TYPE_ALIASES: &[&str] = &[
    "double",
    "string",
    "object",
    "array",
    "binData",
    "undefined",
    "objectId",
    "bool",
    "date",
    "null",
    "regex",
    "dbPointer",
    "javascript",
    "symbol",
    "javascriptWithScope",
    "int",
    "timestamp",
    "long",
    "decimal",
    "minKey",
    "maxKey",
    "number",
];

// rule ids, as in SPEC.md's table and RULES.md
pub const SYSTEM_DB: &str = "system_db";
pub const DB_NAME: &str = "db_name";
pub const COLLECTION_NAME: &str = "collection_name";
pub const FIELD_NAME: &str = "field_name";
pub const NESTING_DEPTH: &str = "nesting_depth";
pub const UNBOUNDED_ARRAY: &str = "unbounded_array";
pub const MONEY_DOUBLE: &str = "money_double";
pub const STRING_DATE: &str = "string_date";
pub const SILENT_STRING: &str = "silent_string";
pub const RANDOM_ID: &str = "random_id";
pub const NUMERIC_STATUS: &str = "numeric_status";
pub const DOCUMENT_SIZE: &str = "document_size";
pub const COLLECTION_COUNT: &str = "collection_count";
pub const TIMESERIES_FIELD: &str = "timeseries_field";
pub const INDEX_KEY: &str = "index_key";
pub const TTL_INDEX: &str = "ttl_index";
pub const MULTIKEY_INDEX: &str = "multikey_index";
pub const INDEX_NAME: &str = "index_name";
pub const MONOTONIC_SHARD_KEY: &str = "monotonic_shard_key";
pub const COLLECTION_OPTIONS: &str = "collection_options";

/// Rules `#[mongo(allow(...))]` can waive.
pub const WAIVABLE_RULES: &[&str] = &[
    DB_NAME,
    COLLECTION_NAME,
    FIELD_NAME,
    NESTING_DEPTH,
    UNBOUNDED_ARRAY,
    MONEY_DOUBLE,
    STRING_DATE,
    SILENT_STRING,
    RANDOM_ID,
    NUMERIC_STATUS,
    MONOTONIC_SHARD_KEY,
];

/// Rules that are never waived, and why.
pub const UNWAIVABLE_RULES: &[(&str, &str)] = &[
    (SYSTEM_DB, "business data in `admin`, `local` or `config` competes with MongoDB's own locks (a red line of Specification 1)"),
    (DOCUMENT_SIZE, "16 MiB is MongoDB's hard limit on a document: a larger one cannot be written at all"),
    (COLLECTION_COUNT, "it is checked at migration time over all models of a database, not on one type"),
    (TIMESERIES_FIELD, "mongod refuses a time-series collection whose timeField is not a date in every document"),
    (INDEX_KEY, "an index on a field the model never writes indexes nothing"),
    (TTL_INDEX, "mongod never expires documents through a TTL index that is not on a single date field"),
    (MULTIKEY_INDEX, "mongod cannot index two arrays in one compound index"),
    (INDEX_NAME, "mongod refuses such index names"),
    (COLLECTION_OPTIONS, "mongod refuses these options together"),
];

/// The standard's default and greatest nesting depth (Specification 6).
pub const DEFAULT_MAX_DEPTH: u32 = 5;
/// The standard's greatest `max_items` (Specification 8).
pub const DEFAULT_MAX_ITEMS: u64 = 1000;
