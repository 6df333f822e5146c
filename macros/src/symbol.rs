//! Attribute names and keys, in one place (the `$jsonSchema` keyword keys and the rule
//! ids are the contract crate's, re-exported here).

pub const MONGO: &str = "mongo";
pub const SERDE: &str = "serde";
pub const DOC: &str = "doc";

// #[mongo(...)] on a type
pub const DB: &str = "db";
pub const COLLECTION: &str = "collection";
pub const CRATE: &str = "crate";
pub const VALIDATION_LEVEL: &str = "validation_level";
pub const VALIDATION_ACTION: &str = "validation_action";
pub const MAX_DEPTH: &str = "max_depth";
pub const FIELD_CASE: &str = "field_case";
pub const MAX_ITEMS_LIMIT: &str = "max_items_limit";

// #[mongo(items(...))] on a field: keywords of the items of an array or values of a map
pub const ITEMS: &str = "items";

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
pub const RENAMED_FROM: &str = "renamed_from";
pub const NULLABLE: &str = "nullable";
pub const ALLOW: &str = "allow";
pub const REASON: &str = "reason";

// `$jsonSchema` keywords (`bson_type`, `min_length`, `title`, ...): the contract crate's
// `keyword::KEYWORDS` table

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

// #[serde(...)] keys that change what is read, where a `#[mongo(...)]` key depends on them
pub const ALIAS: &str = "alias";
pub const DEFAULT: &str = "default";
pub const DESERIALIZE_WITH: &str = "deserialize_with";

// rule ids (as in RULES.md), waivable or not, and the standard's limits
pub use mongo_schema_contract::rules::{
    COLLECTION_OPTIONS, DEFAULT_MAX_DEPTH, DEFAULT_MAX_ITEMS, INDEX_KEY, INDEX_NAME, MONEY_DOUBLE, MONOTONIC_SHARD_KEY,
    MULTIKEY_INDEX, NESTING_DEPTH, NUMERIC_STATUS, RANDOM_ID, SILENT_STRING, STRING_DATE, TIMESERIES_FIELD, TTL_INDEX,
    UNBOUNDED_ARRAY, UNWAIVABLE_RULES, WAIVABLE_RULES,
};
