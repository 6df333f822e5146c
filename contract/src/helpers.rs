//! serde helpers (`#[serde(with = "...")]`) whose output the derive knows, and the ones a
//! type needs to be written as its schema says.

use crate::rules::messages;

/// Helpers whose output type is known, by the last two segments of their path, with the
/// `bsonType` alias of what they write.
pub const WRITTEN: &[(&str, &str, &str)] = &[
    ("serde_helpers", "decimal128", "decimal"),
    ("serde_helpers", "decimal128_option", "decimal"),
    ("serde_helpers", "chrono_datetime", "date"),
    ("serde_helpers", "chrono_datetime_option", "date"),
    ("serde_helpers", "uuid_binary", "binData"),
    ("serde_helpers", "uuid_binary_option", "binData"),
    // bson 3's helpers
    ("datetime", "FromChrono04DateTime", "date"),
    ("datetime", "FromTime03OffsetDateTime", "date"),
    ("datetime", "FromJiff02Timestamp", "date"),
    ("datetime", "FromRfc3339String", "date"),
    ("datetime", "FromI64", "date"),
    ("datetime", "AsRfc3339String", "string"),
    ("object_id", "AsHexString", "string"),
    ("object_id", "FromHexString", "objectId"),
    ("uuid_1", "AsBinary", "binData"),
    ("uuid_1", "AsCSharpLegacyBinary", "binData"),
    ("uuid_1", "AsJavaLegacyBinary", "binData"),
    ("uuid_1", "AsPythonLegacyBinary", "binData"),
    ("u32", "AsF64", "double"),
    ("u32", "AsI32", "int"),
    ("u32", "AsI64", "long"),
    ("u64", "AsF64", "double"),
    ("u64", "AsI32", "int"),
    ("u64", "AsI64", "long"),
    ("timestamp", "AsU32", "long"),
    ("timestamp", "FromU32", "timestamp"),
    // bson 2's helpers (modules, and the `serialize_*` functions for `serialize_with`)
    ("serde_helpers", "chrono_datetime_as_bson_datetime", "date"),
    ("serde_helpers", "chrono_datetime_as_bson_datetime_optional", "date"),
    ("serde_helpers", "time_0_3_offsetdatetime_as_bson_datetime", "date"),
    ("serde_helpers", "rfc3339_string_as_bson_datetime", "date"),
    ("serde_helpers", "i64_as_bson_datetime", "date"),
    ("serde_helpers", "bson_datetime_as_rfc3339_string", "string"),
    ("serde_helpers", "hex_string_as_object_id", "objectId"),
    ("serde_helpers", "serialize_object_id_as_hex_string", "string"),
    ("serde_helpers", "uuid_1_as_binary", "binData"),
    ("serde_helpers", "uuid_1_as_c_sharp_legacy_binary", "binData"),
    ("serde_helpers", "uuid_1_as_java_legacy_binary", "binData"),
    ("serde_helpers", "uuid_1_as_python_legacy_binary", "binData"),
    ("serde_helpers", "u32_as_f64", "double"),
    ("serde_helpers", "u64_as_f64", "double"),
    ("serde_helpers", "u32_as_timestamp", "timestamp"),
    ("serde_helpers", "timestamp_as_u32", "long"),
    ("serde_helpers", "serialize_u32_as_i32", "int"),
    ("serde_helpers", "serialize_u32_as_i64", "long"),
    ("serde_helpers", "serialize_u64_as_i32", "int"),
    ("serde_helpers", "serialize_u64_as_i64", "long"),
];

/// The `bsonType` alias of what the helper at `path` writes, when it is known.
///
/// A helper is often named through a `use` (`use mongo_schema::serde_helpers::decimal128;`
/// then `with = "decimal128"`, or `datetime::FromChrono04DateTime`), which the derive cannot
/// resolve: a path is matched by its segments against the table's, from the last, as far as
/// it goes (`decimal128`, `serde_helpers::decimal128`, `a::serde_helpers::decimal128`); a
/// name that more than one helper bears (`AsI32`) is known only when they all write the
/// same type. A path whose segments contradict the table (`my::decimal128`) is not known.
pub fn written_by(path: &str) -> Option<&'static str> {
    let mut segments = path.rsplit("::").map(str::trim);
    let last = segments.next().filter(|s| !s.is_empty())?;
    let parent = segments.next();
    let mut found = None;
    for (p, l, alias) in WRITTEN {
        if *l != last || parent.is_some_and(|parent| parent != *p) {
            continue;
        }
        match found {
            Some(other) if other != *alias => return None,
            _ => found = Some(*alias),
        }
    }
    found
}

/// The helper a `rust_decimal::Decimal` needs: serde writes it as a string.
pub const DECIMAL128: &str = "mongo_schema::serde_helpers::decimal128";
/// The helper a `chrono::DateTime<Utc>` needs: serde writes it as an RFC 3339 string. The
/// runtime's own, one path under either bson major (bson 2 and 3 name theirs differently).
pub const CHRONO_DATETIME: &str = "mongo_schema::serde_helpers::chrono_datetime";
/// The helper a `uuid::Uuid` needs: serde writes it as a string (or generic binary). The
/// runtime's own, one path under either bson major.
pub const UUID_BINARY: &str = "mongo_schema::serde_helpers::uuid_binary";

/// `written_by` resolves the short paths a `use` leaves, and nothing it should not.
#[cfg(test)]
mod written_by_tests {
    use super::written_by;

    #[test]
    fn short_and_full_paths_are_matched_from_the_last_segment() {
        assert_eq!(written_by("mongo_schema::serde_helpers::decimal128"), Some("decimal"));
        assert_eq!(written_by("serde_helpers::decimal128"), Some("decimal"));
        assert_eq!(written_by("decimal128"), Some("decimal"));
        assert_eq!(written_by(" decimal128_option "), Some("decimal"));
        assert_eq!(written_by("datetime::FromChrono04DateTime"), Some("date"));
        assert_eq!(written_by("FromChrono04DateTime"), Some("date"));
        assert_eq!(written_by("chrono_datetime_option"), Some("date"));
        assert_eq!(written_by("uuid_binary_option"), Some("binData"));
        assert_eq!(written_by("AsBinary"), Some("binData"));
        // `AsI32` is both `u32::AsI32` and `u64::AsI32`: the same type
        assert_eq!(written_by("AsI32"), Some("int"));
    }

    #[test]
    fn paths_that_contradict_the_table_are_unknown() {
        assert_eq!(written_by("my_helpers::decimal128"), None);
        assert_eq!(written_by("as_text"), None);
        assert_eq!(written_by(""), None);
        assert_eq!(written_by("datetime::"), None);
        assert_eq!(written_by("decimal128::serialize"), None);
    }
}

/// The helpers a type can need, with the `silent_string` message of a field that lacks it.
pub const NEEDED: &[(&str, &str)] = &[
    (DECIMAL128, messages::SILENT_DECIMAL),
    (CHRONO_DATETIME, messages::SILENT_CHRONO),
    (UUID_BINARY, messages::SILENT_UUID),
];

/// The `silent_string` message of a field whose type needs the helper `needed` and lacks
/// it; [`messages::SILENT_OTHER`] for a helper not in [`NEEDED`]. A `const fn`: the
/// runtime's const checks call it.
pub const fn silent_message(needed: &str) -> &'static str {
    let mut i = 0;
    while i < NEEDED.len() {
        if str_eq(NEEDED[i].0, needed) {
            return NEEDED[i].1;
        }
        i += 1;
    }
    messages::SILENT_OTHER
}

/// `a == b` in a `const fn`.
pub const fn str_eq(a: &str, b: &str) -> bool {
    bytes_eq(a.as_bytes(), b.as_bytes())
}

/// `a == b` in a `const fn`.
pub const fn bytes_eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn needed_helpers_are_known_helpers() {
        for (helper, message) in NEEDED {
            assert!(written_by(helper).is_some(), "{helper}");
            assert!(message.contains(helper.rsplit("::").next().unwrap()), "{helper}");
            assert_eq!(silent_message(helper), *message);
        }
        assert_eq!(silent_message("other::helper"), messages::SILENT_OTHER);
        assert_eq!(written_by("bson::serde_helpers::uuid_1::AsBinary"), Some("binData"));
        assert_eq!(written_by("bson::serde_helpers::uuid_1_as_binary"), Some("binData"));
        assert_eq!(written_by("bson::serde_helpers::chrono_datetime_as_bson_datetime"), Some("date"));
    }
}
