//! How `query!` hands a key to the runtime's memoized check: its operators as bits and
//! its bytes as const generic words, so that what depends on the model and the key only
//! is computed once per crate (`query_check::Key<Model, A, B>::FACTS`), not per query.

/// `$regex`.
pub const REGEX: u32 = 1 << 0;
/// `$size`.
pub const SIZE: u32 = 1 << 1;
/// `$all`.
pub const ALL: u32 = 1 << 2;
/// `$elemMatch` with keys.
pub const ELEM_MATCH: u32 = 1 << 3;
/// `$elemMatch` with operators on the elements.
pub const ELEM_MATCH_VALUES: u32 = 1 << 4;
/// `$gt`, `$gte`, `$lt`, `$lte`.
pub const RANGE: u32 = 1 << 5;
/// `$mod`.
pub const MOD: u32 = 1 << 6;
/// `$near`, `$nearSphere`.
pub const NEAR: u32 = 1 << 7;
/// The shift of an operator's bit when it applies to an array's elements (inside
/// `$elemMatch`).
pub const ITEM: u32 = 8;
/// A string literal compared with the key.
pub const STRING_LITERAL: u32 = 1 << 16;
/// An integer, float or bool literal compared with the key.
pub const OTHER_LITERAL: u32 = 1 << 17;

/// The bit of the operator `name` as the key check names it (`@` before one on an
/// array's elements; `$elemMatch-values` for `$elemMatch` with operators), `0` for an
/// operator the check lets through whatever the key stores.
pub fn op_bit(name: &str) -> u32 {
    if let Some(inner) = name.strip_prefix('@') {
        return op_bit(inner) << ITEM;
    }
    match name {
        "$regex" => REGEX,
        "$size" => SIZE,
        "$all" => ALL,
        "$elemMatch" => ELEM_MATCH,
        "$elemMatch-values" => ELEM_MATCH_VALUES,
        "$gt" | "$gte" | "$lt" | "$lte" => RANGE,
        "$mod" => MOD,
        "$near" | "$nearSphere" => NEAR,
        _ => 0,
    }
}

/// The longest key passed as words: longer keys are checked per query.
pub const WORDS_LEN: usize = 32;

/// `key`'s bytes as two little-endian words (zero past its end), when it is at most
/// [`WORDS_LEN`] bytes and holds no NUL.
pub fn key_words(key: &str) -> Option<(u128, u128)> {
    let bytes = key.as_bytes();
    if bytes.len() > WORDS_LEN || bytes.contains(&0) {
        return None;
    }
    let mut buf = [0u8; WORDS_LEN];
    buf[..bytes.len()].copy_from_slice(bytes);
    let (lo, hi) = buf.split_at(16);
    Some((u128::from_le_bytes(lo.try_into().unwrap()), u128::from_le_bytes(hi.try_into().unwrap())))
}

/// The key [`key_words`] encoded, in `buf`: its length (a `const fn`, run by the runtime's
/// check at compile time).
pub const fn key_of_words(lo: u128, hi: u128, buf: &mut [u8; WORDS_LEN]) -> usize {
    let (lo, hi) = (lo.to_le_bytes(), hi.to_le_bytes());
    let mut len = 0;
    while len < WORDS_LEN {
        let byte = if len < 16 { lo[len] } else { hi[len - 16] };
        if byte == 0 {
            break;
        }
        buf[len] = byte;
        len += 1;
    }
    len
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_round_trip() {
        for key in ["a", "shipTo.city", "lines.0.sku", "exactly_thirty_two_bytes_long_ok", "ключ.é"] {
            let (lo, hi) = key_words(key).unwrap();
            let mut buf = [0u8; WORDS_LEN];
            let len = key_of_words(lo, hi, &mut buf);
            assert_eq!(&buf[..len], key.as_bytes());
        }
        assert_eq!(key_words("thirty_three_bytes_long_key_xyzw!"), None);
        assert_eq!(key_words(&"k".repeat(33)), None);
    }

    #[test]
    fn bits() {
        assert_eq!(op_bit("$gte"), RANGE);
        assert_eq!(op_bit("@$regex"), REGEX << ITEM);
        assert_eq!(op_bit("$in"), 0);
        assert_eq!((NEAR << ITEM) & (STRING_LITERAL | OTHER_LITERAL), 0);
    }
}
