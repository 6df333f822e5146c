//! Byte helpers shared by the BSON reader (`walk`) and the value views (`value`): short
//! equality, ASCII and UTF-8 checks, and a C string's length, each a word at a time where
//! the standard library would loop byte by byte over the short text BSON keys are.
//!
//! The only `unsafe` is [`known_str`], which makes a `str` of bytes its callers have just
//! checked to be ASCII or equal to a `str`'s.

const LOW: u64 = 0x0101_0101_0101_0101;
const HIGH: u64 = 0x8080_8080_8080_8080;

/// Where the first 0 byte of `bytes` is, and whether every byte before it is ASCII; eight
/// bytes at a time (a key is usually found, and checked, with one or two words).
#[inline(always)]
pub(crate) fn cstring_len(bytes: &[u8]) -> Option<(usize, bool)> {
    let mut high = 0;
    let mut words = bytes.chunks_exact(8);
    for (i, word) in words.by_ref().enumerate() {
        let w = u64::from_le_bytes(array(word));
        // The lowest byte flagged here is the first 0 byte exactly (borrows only run upward).
        let zeros = w.wrapping_sub(LOW) & !w & HIGH;
        if zeros != 0 {
            let n = (zeros.trailing_zeros() / 8) as usize;
            let before = w & ((1u64 << (n * 8)) - 1);
            return Some((i * 8 + n, (high | before) & HIGH == 0));
        }
        high |= w;
    }
    let tail = words.remainder();
    let n = tail.iter().position(|&b| b == 0)?;
    let len = bytes.len() - tail.len() + n;
    Some((len, high & HIGH == 0 && tail[..n].is_ascii()))
}

/// Text already known to be valid UTF-8, without checking it again.
///
/// # Safety
///
/// `bytes` must be valid UTF-8: checked to be ASCII, or equal to the bytes of a `str`.
#[inline(always)]
pub(crate) unsafe fn known_str(bytes: &[u8]) -> &str {
    debug_assert!(std::str::from_utf8(bytes).is_ok());
    // SAFETY: the caller guarantees valid UTF-8.
    unsafe { std::str::from_utf8_unchecked(bytes) }
}

/// Byte equality, inline for the short strings field names are (`==` calls `memcmp`).
#[inline(always)]
pub(crate) fn same(a: &[u8], b: &[u8]) -> bool {
    let n = a.len();
    if n != b.len() {
        return false;
    }
    match n {
        // Two overlapping loads cover the whole name.
        8..=16 => word(a, 0) == word(b, 0) && word(a, n - 8) == word(b, n - 8),
        4..=7 => half(a, 0) == half(b, 0) && half(a, n - 4) == half(b, n - 4),
        1..=3 => a[0] == b[0] && a[n / 2] == b[n / 2] && a[n - 1] == b[n - 1],
        0 => true,
        _ => a == b,
    }
}

#[inline(always)]
fn word(s: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(array(&s[at..]))
}

#[inline(always)]
fn half(s: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(array(&s[at..]))
}

/// `str::from_utf8`, with an inline path for ASCII (keys and most values): the library call
/// costs more than the check itself on such short text.
#[inline(always)]
pub(crate) fn utf8(bytes: &[u8]) -> Option<&str> {
    if is_ascii(bytes) {
        // SAFETY: just checked to be ASCII.
        return Some(unsafe { known_str(bytes) });
    }
    std::str::from_utf8(bytes).ok()
}

/// `<[u8]>::is_ascii` without a loop for text under 16 bytes (overlapping loads cover it), and
/// a word at a time above: the library's loop goes byte by byte on short text, and each exit
/// at a different length is a mispredicted branch.
#[inline(always)]
pub(crate) fn is_ascii(bytes: &[u8]) -> bool {
    let n = bytes.len();
    let high = match n {
        0 => 0,
        1..=3 => u64::from(bytes[0] | bytes[n / 2] | bytes[n - 1]) << 56,
        4..=7 => u64::from(half(bytes, 0) | half(bytes, n - 4)) << 32,
        8..=16 => word(bytes, 0) | word(bytes, n - 8),
        // Whole words, and the last eight bytes for the remainder.
        _ => bytes.chunks_exact(8).fold(word(bytes, n - 8), |high, chunk| high | u64::from_le_bytes(array(chunk))),
    };
    high & HIGH == 0
}

/// The first `N` bytes of `bytes` as an array (`bytes` holds at least `N`).
pub(crate) fn array<const N: usize>(bytes: &[u8]) -> [u8; N] {
    let mut out = [0; N];
    out.copy_from_slice(&bytes[..N]);
    out
}

#[cfg(test)]
mod tests {
    use super::{is_ascii, same};

    #[test]
    fn same_agrees_with_eq() {
        for n in 0..40 {
            let a = vec![b'k'; n];
            let mut b = a.clone();
            assert!(same(&a, &b));
            if n > 0 {
                assert!(!same(&a, &b[..n - 1]), "lengths {n} and {}", n - 1);
            }
            for i in 0..n {
                b[i] = b'x';
                assert!(!same(&a, &b), "length {n}, differing at {i}");
                b[i] = b'k';
            }
        }
    }

    #[test]
    fn is_ascii_agrees_with_std() {
        for n in 0..40 {
            let mut text = vec![b'a'; n];
            assert!(is_ascii(&text));
            for i in 0..n {
                for byte in [0x80, 0xc3, 0xff, 0x7f, 0] {
                    text[i] = byte;
                    assert_eq!(is_ascii(&text), text.is_ascii(), "{text:?}");
                }
                text[i] = b'a';
            }
        }
    }
}
