//! The bits of a field entry's `flags` in the derive's `FIELDS` table: set by the macro,
//! read by the runtime's schema builders.

/// Always written (not `skip_serializing_if`).
pub const REQUIRED: u8 = 1;
/// The Rust type is an `Option` (for `bson_type` overrides).
pub const NULLABLE: u8 = 4;
/// `skip_serializing_if = "Option::is_none"`: `null` is never written.
pub const SKIPS_NONE: u8 = 8;
