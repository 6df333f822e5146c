//! Attribute names and keys, in one place.

pub const MONGO: &str = "mongo";
pub const SERDE: &str = "serde";
pub const DOC: &str = "doc";

// #[mongo(...)] on a type
pub const DB: &str = "db";
pub const COLLECTION: &str = "collection";
pub const VALIDATION_LEVEL: &str = "validation_level";
pub const VALIDATION_ACTION: &str = "validation_action";

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
    "double", "string", "object", "array", "binData", "undefined", "objectId", "bool", "date", "null", "regex",
    "dbPointer", "javascript", "symbol", "javascriptWithScope", "int", "timestamp", "long", "decimal", "minKey",
    "maxKey", "number",
];
