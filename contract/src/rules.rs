//! The modelling rules' ids (as in RULES.md), which ones `#[mongo(allow(...))]` may waive,
//! the messages of the field rules, and the check bits the derive sets for the runtime's
//! const checks.

/// `system_db`: business data never lives in `admin`, `local` or `config`.
pub const SYSTEM_DB: &str = "system_db";
/// `db_name`: database names are `db_` + lowercase snake case.
pub const DB_NAME: &str = "db_name";
/// `collection_name`: collection names are `t_` + module_entity in lowercase snake case.
pub const COLLECTION_NAME: &str = "collection_name";
/// `field_name`: field names are one style per type, no `$`, `.` or leading `_`, no meaningless abbreviation.
pub const FIELD_NAME: &str = "field_name";
/// `nesting_depth`: documents nest at most `max_depth` levels.
pub const NESTING_DEPTH: &str = "nesting_depth";
/// `unbounded_array`: arrays declare `max_items`, maps `max_properties`.
pub const UNBOUNDED_ARRAY: &str = "unbounded_array";
/// `money_double`: money is Decimal128, never a double.
pub const MONEY_DOUBLE: &str = "money_double";
/// `string_date`: dates are BSON dates, never strings.
pub const STRING_DATE: &str = "string_date";
/// `silent_string`: a type that needs a serde helper to be written as its schema says has it.
pub const SILENT_STRING: &str = "silent_string";
/// `random_id`: `_id` is an ObjectId or an increasing integer.
pub const RANDOM_ID: &str = "random_id";
/// `numeric_status`: a status flag is a string enum, not a number.
pub const NUMERIC_STATUS: &str = "numeric_status";
/// `document_size`: a bounded collection root fits in 16 MiB (4 MiB for time series).
pub const DOCUMENT_SIZE: &str = "document_size";
/// `collection_count`: a database holds a bounded number of collections (checked at migration time).
pub const COLLECTION_COUNT: &str = "collection_count";
/// `collection_count`'s limit: the most business collections one database holds.
pub const MAX_COLLECTIONS_PER_DB: usize = 100;
/// `timeseries_field`: a time-series `timeField` is a date in every document.
pub const TIMESERIES_FIELD: &str = "timeseries_field";
/// `index_key`: an index key names a field the model writes.
pub const INDEX_KEY: &str = "index_key";
/// `ttl_index`: a TTL index is on a single date field.
pub const TTL_INDEX: &str = "ttl_index";
/// `multikey_index`: a compound index has at most one array key.
pub const MULTIKEY_INDEX: &str = "multikey_index";
/// `index_name`: index names are ones mongod accepts.
pub const INDEX_NAME: &str = "index_name";
/// `monotonic_shard_key`: a shard key is not monotonic unless hashed.
pub const MONOTONIC_SHARD_KEY: &str = "monotonic_shard_key";
/// `collection_options`: collection options mongod accepts together.
pub const COLLECTION_OPTIONS: &str = "collection_options";

/// `query_unindexed`: a query some declared index bounds (issue 45's planner).
pub const QUERY_UNINDEXED: &str = "query_unindexed";
/// `query_sort_in_memory`: a sort without `limit` the chosen index provides.
pub const QUERY_SORT_IN_MEMORY: &str = "query_sort_in_memory";
/// `query_broadcast`: a query on a sharded model names its shard key's first key.
pub const QUERY_BROADCAST: &str = "query_broadcast";

/// Rules a query waives with `allow(rule, reason = "..")` in `query!` (the waiver and its
/// reason are kept in the query's shape and listed by `schema queries`).
pub const QUERY_RULES: &[&str] = &[QUERY_UNINDEXED, QUERY_SORT_IN_MEMORY, QUERY_BROADCAST];

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
    (
        SYSTEM_DB,
        "business data in `admin`, `local` or `config` competes with MongoDB's own locks (a red line of the standard)",
    ),
    (DOCUMENT_SIZE, "16 MiB is MongoDB's hard limit on a document: a larger one cannot be written at all"),
    (COLLECTION_COUNT, "it is checked at migration time over all models of a database, not on one type"),
    (TIMESERIES_FIELD, "mongod refuses a time-series collection whose timeField is not a date in every document"),
    (INDEX_KEY, "an index on a field the model never writes indexes nothing"),
    (TTL_INDEX, "mongod never expires documents through a TTL index that is not on a single date field"),
    (MULTIKEY_INDEX, "mongod cannot index two arrays in one compound index"),
    (INDEX_NAME, "mongod refuses such index names"),
    (COLLECTION_OPTIONS, "mongod refuses these options together"),
];

/// The standard's default and greatest nesting depth.
pub const DEFAULT_MAX_DEPTH: u32 = 5;
/// The standard's greatest `max_items`.
pub const DEFAULT_MAX_ITEMS: u64 = 1000;

/// The messages of the field rules the derive checks, one text whether syntax decides
/// the rule (the macro) or a const check over the field type's facts does (the runtime).
/// They say "this field": the error's span shows which.
pub mod messages {
    /// `money_double`: a money field written as a double.
    pub const MONEY_DOUBLE: &str = "money_double: this field holds money but is written as a BSON double, which cannot hold 0.1 exactly; \
        use `rust_decimal::Decimal` with `#[serde(with = \"mongo_schema::serde_helpers::decimal128\")]` (`decimal128_option` for an \
        `Option`) so it is stored as Decimal128; if it is not money, `#[mongo(allow(money_double, reason = \"...\"))]`";
    /// `string_date`: a date field written as a string.
    pub const STRING_DATE: &str =
        "string_date: this field holds a date but is written as a BSON string, which range queries and date \
        operators cannot use; use `bson::DateTime`, or `chrono::DateTime<Utc>` with \
        `#[serde(with = \"mongo_schema::serde_helpers::chrono_datetime\")]`, so it is stored as a BSON date; \
        if it is not a date, `#[mongo(allow(string_date, reason = \"...\"))]`";
    /// `silent_string`: a `rust_decimal::Decimal` without its helper.
    pub const SILENT_DECIMAL: &str = "silent_string: this field holds a `rust_decimal::Decimal`, which serde writes as a string, while its \
        schema says `decimal`; add `#[serde(with = \"mongo_schema::serde_helpers::decimal128\")]` (`decimal128_option` for an \
        `Option`; for a `Vec` or map of it, a newtype that carries the helper) so the stored type matches the validator";
    /// `silent_string`: a `chrono::DateTime<Utc>` without its helper.
    pub const SILENT_CHRONO: &str = "silent_string: this field holds a `chrono::DateTime<Utc>`, which serde writes as an RFC 3339 string, \
        while its schema says `date`; add `#[serde(with = \"mongo_schema::serde_helpers::chrono_datetime\")]` \
        (`chrono_datetime_option` for an `Option`; for a `Vec` or map of it, a newtype that carries the helper) so the stored type matches the validator";
    /// `silent_string`: a `uuid::Uuid` without its helper.
    pub const SILENT_UUID: &str = "silent_string: this field holds a `uuid::Uuid`, which serde writes as a string to \
        `to_document` and as generic (subtype 0) binary to the driver, while its schema says `binData`; add \
        `#[serde(with = \"mongo_schema::serde_helpers::uuid_binary\")]` (`uuid_binary_option` for an `Option`; for a \
        `Vec` or map of it, a newtype that carries the helper) so the stored type matches the validator";
    /// `silent_string`: any other type that needs a helper it lacks.
    pub const SILENT_OTHER: &str = "silent_string: this field holds a type that serde writes as something else than its schema says; \
        add the serde helper it needs so the stored type matches the validator (for an `Option`, `Vec` or map of it, use the helper's `Option` form where there is one, or a newtype that carries the helper)";
    /// `random_id`: an `_id` that is neither an ObjectId, an integer nor a date.
    pub const RANDOM_ID: &str =
        "random_id: this `_id` is neither an ObjectId, an integer nor a date; random `_id` values land all over \
        the index and split its pages: use `bson::oid::ObjectId` (the default), an increasing `i64`, or the \
        document's time as a BSON date, and keep the business key in a field of its own with a unique index";
    /// `numeric_status`: a status flag written as a number.
    pub const NUMERIC_STATUS: &str =
        "numeric_status: this status flag is written as a number, a magic number nobody can read later; \
        use a unit enum that derives `MongoSchema` (e.g. `enum OrderStatus { Pending, Paid }` with \
        `#[serde(rename_all = \"lowercase\")]`), which is stored and validated as a string enum";
    /// `unbounded_array`: a growable array without `max_items`.
    pub const UNBOUNDED_ARRAY: &str = "unbounded_array: this field is an array with no bound; declare `#[mongo(max_items = N)]` \
        (at most the type's `max_items_limit`, else the crate's, else the standard's 1000) and keep the last N with `$push` + `$slice`, or store the items as \
        documents of their own collection: an array that grows forever reaches the 16 MiB limit and blocks writes";
    /// `unbounded_array`: a map without `max_properties`.
    pub const UNBOUNDED_MAP: &str =
        "unbounded_array: this field is a map (a document with arbitrary keys) with no bound; declare \
        `#[mongo(max_properties = N)]`, or store the entries as an array of documents with `max_items`";
    /// `nesting_depth`, before the depth found: see [`nesting_depth`](super::nesting_depth).
    pub const NESTING_DEPTH_FOUND: &str = "nesting_depth: through this field the document nests ";
    /// `nesting_depth`, between the depth found and the limit.
    pub const NESTING_DEPTH_LIMIT: &str = " levels, more than the limit of ";
    /// `nesting_depth`, after the limit.
    pub const NESTING_DEPTH_FIX: &str = " (the document itself counts as one; the limit is the type's `max_depth`, else the \
        crate's, else the standard's 5); flatten it: move deep parts up to top-level fields, or into their own collection \
        referenced by id";
}

/// A message assembled during const evaluation: a const panic cannot format a number on
/// stable Rust, so the number is written into a buffer first and the buffer is the
/// panic's `&str`.
#[derive(Clone, Copy)]
pub struct ConstMessage {
    bytes: [u8; ConstMessage::CAPACITY],
    len: usize,
}

impl ConstMessage {
    /// Bytes a message holds (the failures of every field of a struct: a rule's message
    /// is under 600); longer text is cut at a character boundary.
    pub const CAPACITY: usize = 4096;

    /// An empty message.
    pub const fn new() -> Self {
        ConstMessage { bytes: [0; Self::CAPACITY], len: 0 }
    }

    /// `self` followed by `text` (cut whole characters at the capacity).
    pub const fn str(mut self, text: &str) -> Self {
        let text = text.as_bytes();
        let mut i = 0;
        while i < text.len() && self.len < Self::CAPACITY {
            self.bytes[self.len] = text[i];
            self.len += 1;
            i += 1;
        }
        // never end inside a character
        while self.len > 0 && i < text.len() && text[i] & 0xC0 == 0x80 {
            self.len -= 1;
            i -= 1;
        }
        self
    }

    /// `self` followed by `n` in decimal.
    pub const fn number(mut self, n: u64) -> Self {
        let mut digits = [0u8; 20];
        let (mut count, mut rest) = (0, n);
        loop {
            digits[count] = b'0' + (rest % 10) as u8;
            count += 1;
            rest /= 10;
            if rest == 0 {
                break;
            }
        }
        while count > 0 && self.len < Self::CAPACITY {
            count -= 1;
            self.bytes[self.len] = digits[count];
            self.len += 1;
        }
        self
    }

    /// The text.
    pub const fn as_str(&self) -> &str {
        match core::str::from_utf8(self.bytes.split_at(self.len).0) {
            Ok(text) => text,
            Err(_) => "",
        }
    }
}

impl Default for ConstMessage {
    fn default() -> Self {
        Self::new()
    }
}

/// `nesting_depth`'s message for a field through which the document nests `levels`
/// levels, above `limit`.
pub const fn nesting_depth(levels: u32, limit: u32) -> ConstMessage {
    ConstMessage::new()
        .str(messages::NESTING_DEPTH_FOUND)
        .number(levels as u64)
        .str(messages::NESTING_DEPTH_LIMIT)
        .number(limit as u64)
        .str(messages::NESTING_DEPTH_FIX)
}

/// The field rules one const check asks of a field's facts, as bits: set when the rule
/// applies there (by the field's name or marker) and is not waived. The macro sets them,
/// the runtime's `rules::field` tests them.
pub mod check {
    /// `money_double` applies (a money field by name or `#[mongo(money)]`).
    pub const MONEY: u32 = 1 << 0;
    /// `string_date` applies (a date field by name or `#[mongo(date)]`).
    pub const DATE: u32 = 1 << 1;
    /// `silent_string` applies (the field has no `bson_type` or known helper).
    pub const SILENT: u32 = 1 << 2;
    /// `random_id` applies (the field is `_id`).
    pub const ID: u32 = 1 << 3;
    /// `numeric_status` applies (a status flag by name).
    pub const STATUS: u32 = 1 << 4;
    /// No `max_items` declared.
    pub const ARRAY: u32 = 1 << 5;
    /// No `max_properties` declared.
    pub const MAP: u32 = 1 << 6;
    /// The field is flattened: its documents do not add a level.
    pub const FLATTEN: u32 = 1 << 7;
    /// The field's keywords (and those of its `items(...)`) need a kind its type's syntax
    /// does not show (an alias, a path, a generic parameter): they are checked against its
    /// facts.
    pub const KEYWORDS: u32 = 1 << 8;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_cite_no_document_outside_the_repository() {
        let depth = nesting_depth(6, 5);
        let texts = [
            messages::MONEY_DOUBLE,
            messages::STRING_DATE,
            messages::SILENT_DECIMAL,
            messages::SILENT_CHRONO,
            messages::SILENT_UUID,
            messages::SILENT_OTHER,
            messages::RANDOM_ID,
            messages::NUMERIC_STATUS,
            messages::UNBOUNDED_ARRAY,
            messages::UNBOUNDED_MAP,
            depth.as_str(),
        ];
        for text in texts.iter().chain(UNWAIVABLE_RULES.iter().map(|(_, why)| why)) {
            assert!(!text.contains("Specification") && !text.contains("Spec "), "{text}");
        }
    }

    #[test]
    fn const_messages_format_numbers() {
        const M: ConstMessage = nesting_depth(7, 5);
        assert!(M.as_str().starts_with(
            "nesting_depth: through this field the document nests 7 levels, more than the limit of 5 (the document"
        ));
        assert_eq!(ConstMessage::new().number(0).number(u64::MAX).as_str(), "018446744073709551615");
        let long = "é".repeat(ConstMessage::CAPACITY);
        let cut = ConstMessage::new().str("a").str(&long);
        assert_eq!(cut.as_str().len(), ConstMessage::CAPACITY - 1);
    }
}
