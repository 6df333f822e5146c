//! Worst-case encoded BSON sizes, as `const fn`s so the derive can bound a document at
//! compile time; the runtime's tests check them against bson's encoder. Every size counts the value alone; an element adds its
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

/// No bound: the pattern allows strings of any length, or uses syntax this reader does
/// not bound.
const UNBOUNDED: u64 = u64::MAX;

/// The greatest UTF-8 byte length of a string that `pattern` (a `$jsonSchema` `pattern`,
/// PCRE as mongod reads it) admits, when the pattern bounds it: anchored at both ends
/// (`^...$`, `\A...\z`), made of literals, `.`, classes (`[0-9]`, `\d`, `\p{L}`),
/// groups and alternations (`(?:a|bc)`, lookarounds count nothing) under fixed
/// quantifiers (`?`, `{n}`, `{n,m}`). `None` for anything else: `*`, `+`, `{n,}`, an
/// unanchored end, back-references, inline options, verbs. A class or `.` counts 4
/// bytes (any code point) unless it names ASCII characters only; a final `$` or `\Z`
/// also admits one trailing newline. An upper bound, never an under-estimate.
pub const fn pattern_max_bytes(pattern: &str) -> Option<u64> {
    let b = pattern.as_bytes();
    let newline;
    let (start, mut end) = match b {
        [b'^', ..] => (1, b.len()),
        [b'\\', b'A', ..] => (2, b.len()),
        _ => return None,
    };
    if end >= start + 2 && b[end - 2] == b'\\' && !escaped(b, end - 2) && (b[end - 1] == b'z' || b[end - 1] == b'Z') {
        newline = (b[end - 1] == b'Z') as u64;
        end -= 2;
    } else if end > start && b[end - 1] == b'$' && !escaped(b, end - 1) {
        newline = 1;
        end -= 1;
    } else {
        return None;
    }
    // a top-level `|` would leave the anchors to the first and last alternatives
    let (bytes, next, stop) = sequence(b, start, end);
    if next != end || !matches!(stop, Stop::End) || bytes == UNBOUNDED {
        return None;
    }
    Some(bytes + newline)
}

/// Whether the byte at `at` is escaped by an odd number of backslashes before it.
const fn escaped(b: &[u8], at: usize) -> bool {
    let (mut i, mut odd) = (at, false);
    while i > 0 && b[i - 1] == b'\\' {
        odd = !odd;
        i -= 1;
    }
    odd
}

#[derive(Clone, Copy)]
enum Stop {
    End,
    Bar,
    Close,
}

/// Items from `at` to the next `|`, `)` or `end`: (bytes, position of the stop, stop).
const fn sequence(b: &[u8], mut at: usize, end: usize) -> (u64, usize, Stop) {
    let mut total = 0u64;
    while at < end {
        match b[at] {
            b'|' => return (total, at, Stop::Bar),
            b')' => return (total, at, Stop::Close),
            _ => {}
        }
        let (atom, next) = atom(b, at, end);
        let (count, next) = quantifier(b, next, end);
        let item = if atom == 0 { 0 } else { atom.saturating_mul(count) };
        total = total.saturating_add(item);
        at = next;
    }
    (total, at, Stop::End)
}

/// Alternatives from `at` to the matching `)`: (the longest, position after the `)`).
const fn alternatives(b: &[u8], mut at: usize, end: usize) -> (u64, usize) {
    let mut longest = 0u64;
    loop {
        let (bytes, next, stop) = sequence(b, at, end);
        if bytes > longest {
            longest = bytes;
        }
        match stop {
            Stop::Bar => at = next + 1,
            Stop::Close => return (longest, next + 1),
            Stop::End => return (UNBOUNDED, end),
        }
    }
}

/// One atom at `at`: (its greatest bytes, the position after it).
const fn atom(b: &[u8], at: usize, end: usize) -> (u64, usize) {
    match b[at] {
        b'(' => group(b, at, end),
        b'[' => class(b, at, end),
        b'\\' if at + 1 < end => escape(b, at + 1, end),
        b'\\' => (UNBOUNDED, end),
        b'.' => (4, at + 1),
        b'^' | b'$' => (0, at + 1),
        b'*' | b'+' | b'?' => (UNBOUNDED, end),
        lead => {
            let width = utf8_width(lead);
            (width as u64, at + width)
        }
    }
}

const fn byte_at(b: &[u8], at: usize) -> Option<u8> {
    if at < b.len() {
        Some(b[at])
    } else {
        None
    }
}

const fn utf8_width(lead: u8) -> usize {
    match lead {
        0..=0x7F => 1,
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        _ => 4,
    }
}

/// `(...)`, `(?:...)`, `(?>...)`, `(?|...)`, named groups; lookarounds count nothing.
const fn group(b: &[u8], at: usize, end: usize) -> (u64, usize) {
    let at = at + 1;
    if at < end && b[at] == b'*' {
        return (UNBOUNDED, end); // verbs such as (*UCP) change what classes match
    }
    if at >= end || b[at] != b'?' {
        return alternatives(b, at, end);
    }
    let (zero_width, body) = match (byte_at(b, at + 1), byte_at(b, at + 2)) {
        (Some(b':' | b'>' | b'|'), _) => (false, at + 2),
        (Some(b'=' | b'!'), _) => (true, at + 2),
        (Some(b'<'), Some(b'=' | b'!')) => (true, at + 3),
        (Some(b'<' | b'\''), _) => (false, skip_name(b, at + 2, end)),
        (Some(b'P'), Some(b'<')) => (false, skip_name(b, at + 3, end)),
        _ => return (UNBOUNDED, end), // inline options, comments, conditionals, recursion
    };
    let (bytes, next) = alternatives(b, body, end);
    (if zero_width && bytes != UNBOUNDED { 0 } else { bytes }, next)
}

/// Past a group name and its closing `>` or `'`.
const fn skip_name(b: &[u8], mut at: usize, end: usize) -> usize {
    while at < end && b[at] != b'>' && b[at] != b'\'' {
        at += 1;
    }
    at + 1
}

/// `[...]`: 1 byte when it lists ASCII characters only, else 4.
const fn class(b: &[u8], at: usize, end: usize) -> (u64, usize) {
    let mut i = at + 1;
    let mut wide = false;
    if i < end && b[i] == b'^' {
        wide = true;
        i += 1;
    }
    if i < end && b[i] == b']' {
        i += 1;
    }
    while i < end && b[i] != b']' {
        match b[i] {
            b'\\' => {
                // an escaped punctuation mark is itself; `\d`, `\p{..}`, `\x{..}` may be wider
                wide = wide || (i + 1 < end && b[i + 1].is_ascii_alphanumeric());
                i += 2;
            }
            b'[' if i + 1 < end && b[i + 1] == b':' => {
                wide = true;
                i += 2;
                while i + 1 < end && !(b[i] == b':' && b[i + 1] == b']') {
                    i += 1;
                }
                i += 2;
            }
            byte => {
                wide = wide || byte >= 0x80;
                i += 1;
            }
        }
    }
    if i >= end {
        return (UNBOUNDED, end);
    }
    (if wide { 4 } else { 1 }, i + 1)
}

/// The escape whose letter is at `at`.
const fn escape(b: &[u8], at: usize, end: usize) -> (u64, usize) {
    match b[at] {
        b'b' | b'B' | b'A' | b'z' | b'Z' | b'G' | b'K' => (0, at + 1),
        b't' | b'n' | b'r' | b'f' | b'e' | b'a' => (1, at + 1),
        b'c' => (1, at + 2),
        b'd' | b'D' | b'w' | b'W' | b's' | b'S' | b'h' | b'H' | b'v' | b'V' | b'N' | b'R' => (4, at + 1),
        b'p' | b'P' | b'x' | b'o' => {
            // `\pL`, `\p{Greek}`, `\xhh`, `\x{hhhh}`, `\o{...}`: one code point
            let mut i = at + 1;
            if i < end && b[i] == b'{' {
                while i < end && b[i] != b'}' {
                    i += 1;
                }
                (4, i + 1)
            } else if b[at] == b'x' {
                while i < end && i < at + 3 && b[i].is_ascii_hexdigit() {
                    i += 1;
                }
                (4, i)
            } else {
                (4, i + 1)
            }
        }
        b'Q' => {
            // `\Q...\E`: literal bytes
            let mut i = at + 1;
            while i + 1 < end && !(b[i] == b'\\' && b[i + 1] == b'E') {
                i += 1;
            }
            if i + 1 < end {
                ((i - at - 1) as u64, i + 2)
            } else {
                ((end - at - 1) as u64, end)
            }
        }
        b'E' => (0, at + 1),
        byte if byte.is_ascii_alphanumeric() => (UNBOUNDED, end), // back-references, \X, ...
        lead => {
            let width = utf8_width(lead);
            (width as u64, at + width)
        }
    }
}

/// The quantifier at `at`, if any: (the greatest count, the position after it).
const fn quantifier(b: &[u8], at: usize, end: usize) -> (u64, usize) {
    if at >= end {
        return (1, at);
    }
    let (count, next) = match b[at] {
        b'?' => (1, at + 1),
        b'*' | b'+' => (UNBOUNDED, at + 1),
        b'{' => {
            let (low, after_low) = digits(b, at + 1, end);
            match (low, byte_at(b, after_low)) {
                (Some(n), Some(b'}')) => (n, after_low + 1),
                (Some(_), Some(b',')) => match digits(b, after_low + 1, end) {
                    (Some(m), close) if close < end && b[close] == b'}' => (m, close + 1),
                    (None, close) if close < end && b[close] == b'}' => (UNBOUNDED, close + 1),
                    _ => return (1, at), // not a quantifier: a literal `{`
                },
                (None, Some(b',')) => (UNBOUNDED, at + 1), // `{,m}`: read differently by PCRE versions
                _ => return (1, at),
            }
        }
        _ => return (1, at),
    };
    // lazy `?` or possessive `+`
    let next = if next < end && (b[next] == b'?' || b[next] == b'+') { next + 1 } else { next };
    (count, next)
}

/// Decimal digits at `at`: (their value, the position after them); `None` without digits.
const fn digits(b: &[u8], mut at: usize, end: usize) -> (Option<u64>, usize) {
    let (mut value, mut any) = (0u64, false);
    while at < end && b[at].is_ascii_digit() {
        value = value.saturating_mul(10).saturating_add((b[at] - b'0') as u64);
        any = true;
        at += 1;
    }
    (if any { Some(value) } else { None }, at)
}

#[cfg(test)]
mod tests {
    use super::pattern_max_bytes as max;

    #[test]
    fn fixed_width_patterns_bound_a_string() {
        // a final `$` also matches before one trailing newline
        assert_eq!(max("^[0-9]{6}$"), Some(7));
        assert_eq!(max("^[A-Z]{3}$"), Some(4));
        assert_eq!(max("\\A[A-Z]{3}\\z"), Some(3));
        assert_eq!(max("^\\d{4}-\\d{2}$"), Some(4 * 6 + 1 + 1));
        assert_eq!(max("^(?:ab|cde)?x{2,5}$"), Some(3 + 5 + 1));
        assert_eq!(max("^SKU-[0-9A-F]{8}$"), Some(4 + 8 + 1));
        assert_eq!(max("^é{2}$"), Some(5));
        assert_eq!(max("^[^,]{3}$"), Some(13));
        assert_eq!(max("^\\Q1.5\\E$"), Some(4));
        assert_eq!(max("^(?>ab|a)c$"), Some(4));
        assert_eq!(max("^(?=x)[a-z]{2}$"), Some(3));
        assert_eq!(max("^(?<year>[0-9]{4})$"), Some(5));
        assert_eq!(max("^a{2}+$"), Some(3));
        assert_eq!(max("^\\.{3}$"), Some(4));
        assert_eq!(max("^[[:alpha:]]{2}$"), Some(9));
        assert_eq!(max("^a{x}$"), Some(5)); // `{x}` is literal
    }

    #[test]
    fn anything_else_is_unbounded() {
        for pattern in [
            "[0-9]{6}",
            "^[0-9]{6}",
            "[0-9]{6}$",
            "^a+$",
            "^a*$",
            "^a{2,}$",
            "^a|b$",
            "^(a)\\1$",
            "^(?i)abc$",
            "(*UCP)^\\w{3}$",
            "^\\X$",
            "^a{,3}$",
            "^(ab$",
            "^[ab$",
            "^a\\$",
            "",
            "^",
        ] {
            assert_eq!(max(pattern), None, "{pattern}");
        }
    }

    #[test]
    fn it_is_usable_in_const_evaluation() {
        const BOUND: Option<u64> = max("^[0-9]{6}$");
        assert_eq!(BOUND, Some(7));
    }
}
