//! Worst-case encoded BSON sizes, as `const fn`s so the derive can bound a document at
//! compile time (Specification 5); the runtime's tests check them against bson's encoder. Every size counts the value alone; an element adds its
//! header: one type byte, the key and its NUL.

/// MongoDB's limit on one document: 16 MiB.
pub const MAX_DOCUMENT_SIZE: u64 = 16 * 1024 * 1024;
/// MongoDB's limit on a document of a time-series collection: 4 MiB (a quarter of the
/// 16 MiB, so that a bucket of measurements still fits in one document).
pub const MAX_TIMESERIES_DOCUMENT_SIZE: u64 = 4 * 1024 * 1024;

/// Header of one element: type byte + key bytes + NUL.
pub const fn element_header(key_len: usize) -> u64 {
    1 + key_len as u64 + 1
}

/// Bytes of an empty document (int32 length + NUL), the overhead of every document.
pub const DOCUMENT_OVERHEAD: u64 = 4 + 1;

/// A string of exactly `bytes` UTF-8 bytes: int32 length + the bytes + NUL.
pub const fn str_bytes(bytes: usize) -> u64 {
    4 + bytes as u64 + 1
}

/// A binary of `bytes` bytes: int32 length + subtype byte + the bytes.
pub const fn binary(bytes: u64) -> u64 {
    4 + 1 + bytes
}

/// A string of at most `max_chars` code points: int32 length + up to 4 bytes a code
/// point + NUL.
pub const fn string(max_chars: Option<u64>) -> Option<u64> {
    match max_chars {
        Some(n) => Some(4 + 4 * n + 1),
        None => None,
    }
}

/// Bytes the decimal keys `"0"`..`"n-1"` take together.
const fn index_key_bytes(n: u64) -> u64 {
    let (mut total, mut width, mut start) = (0u64, 1u64, 0u64);
    while start < n {
        let end = if start == 0 { 10 } else { start * 10 };
        let stop = if end < n { end } else { n };
        total += (stop - start) * width;
        width += 1;
        start = end;
    }
    total
}

/// An array of at most `max_items` items of at most `item` bytes each.
pub const fn array(max_items: Option<u64>, item: Option<u64>) -> Option<u64> {
    match (max_items, item) {
        (Some(n), Some(item)) => Some(4 + 1 + n * (2 + item) + index_key_bytes(n)),
        (Some(0), None) => Some(5),
        _ => None,
    }
}

/// A document of at most `max_properties` entries with keys of at most `key_chars` code
/// points and values of at most `value` bytes.
pub const fn map(max_properties: Option<u64>, key_chars: Option<u64>, value: Option<u64>) -> Option<u64> {
    match (max_properties, key_chars, value) {
        (Some(n), Some(k), Some(v)) => Some(4 + 1 + n * (2 + 4 * k + v)),
        (Some(0), _, _) => Some(5),
        _ => None,
    }
}

/// `a + b` when both are bounded.
pub const fn add(a: Option<u64>, b: Option<u64>) -> Option<u64> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a + b),
        _ => None,
    }
}

/// The larger of two bounds; unbounded wins.
pub const fn max(a: Option<u64>, b: Option<u64>) -> Option<u64> {
    match (a, b) {
        (Some(a), Some(b)) => Some(if a > b { a } else { b }),
        _ => None,
    }
}

/// The larger of two depths.
pub const fn max_depth(a: u32, b: u32) -> u32 {
    if a > b {
        a
    } else {
        b
    }
}
