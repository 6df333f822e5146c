//! `pattern` and `patternProperties` regexes, compiled with PCRE2 the way mongod compiles them
//! with PCRE: UTF mode, no flags, unanchored search.

use pcre2::bytes::{Regex, RegexBuilder};

/// Backtracking budget per match: PCRE's built-in default (10 million), which is also the
/// budget mongod 6.0 runs with, so hostile patterns stop where the server stops.
pub const MATCH_LIMIT: u32 = 10_000_000;

/// Heap budget per match, in KiB (PCRE2's default is 20 GB; 16 MiB keeps memory bounded).
pub const HEAP_LIMIT_KIB: u32 = 16 * 1024;

/// JIT stack ceiling per thread.
const JIT_STACK: usize = 1 << 20;

/// A compiled regex and the source it came from.
pub(crate) struct Pattern {
    source: Box<str>,
    regex: Regex,
    /// The same pattern as a fixed sequence of ASCII sets, when it is that simple.
    fixed: Option<Fixed>,
}

/// The outcome of one match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Found {
    Yes,
    No,
    /// A match or heap limit was hit; mongod's PCRE wrapper reads this as "no match".
    LimitHit,
}

impl Pattern {
    /// Compiles `source`; the limits are set as start-of-pattern items, which PCRE2 lets
    /// only lower the caller's limits, so a pattern's own `(*LIMIT_MATCH=...)` cannot raise them.
    pub(crate) fn new(source: &str) -> Result<Pattern, String> {
        if source.contains('\0') {
            return Err("Regular expression cannot contain an embedded null byte".into());
        }
        if has_named_char_escape(source) {
            return Err("Regular expression is invalid: PCRE does not support \\L, \\l, \\N{name}, \\U, or \\u".into());
        }
        let limited = format!("(*LIMIT_MATCH={MATCH_LIMIT})(*LIMIT_HEAP={HEAP_LIMIT_KIB}){source}");
        let regex = RegexBuilder::new()
            .utf(true)
            .jit_if_available(true)
            .max_jit_stack_size(Some(JIT_STACK))
            .build(&limited)
            .map_err(|err| format!("Regular expression is invalid: {err}"))?;
        Ok(Pattern { source: source.into(), regex, fixed: Fixed::parse(source) })
    }

    pub(crate) fn source(&self) -> &str {
        &self.source
    }

    /// Searches `subject` (valid UTF-8, as every BSON string decoded here is).
    #[inline]
    pub(crate) fn find(&self, subject: &str) -> Found {
        if let Some(fixed) = &self.fixed {
            return if fixed.matches(subject.as_bytes()) { Found::Yes } else { Found::No };
        }
        match self.regex.is_match(subject.as_bytes()) {
            Ok(true) => Found::Yes,
            Ok(false) => Found::No,
            Err(_) => Found::LimitHit,
        }
    }

    #[inline]
    pub(crate) fn is_match(&self, subject: &str) -> bool {
        self.find(subject) == Found::Yes
    }
}

/// A pattern of the form `^A1A2...An$` where each atom is an ASCII literal or a bracketed
/// class of ASCII characters and ranges, optionally repeated `{k}` times: the shape of most
/// code and number formats (`^[0-9]{5}$`, `^[A-Z]{3}-[0-9]{4}$`). PCRE (no flags) matches such
/// a pattern against exactly the subjects of n characters, each in its atom's set, and, since
/// `$` also matches before a final newline, those followed by one `\n`; no backtracking, no
/// limit to hit. Non-ASCII bytes are in no set, so a multi-byte character never matches, as
/// in PCRE's UTF mode. Anything else in the source (escapes, negated classes, alternation,
/// other quantifiers, `.`, groups, POSIX classes, verbs) leaves the pattern to PCRE2.
struct Fixed {
    /// One 128-bit ASCII set per character position.
    sets: Box<[u128]>,
}

/// Most positions a fixed pattern may have (longer ones go to PCRE2).
const FIXED_MAX: usize = 256;

impl Fixed {
    fn parse(source: &str) -> Option<Fixed> {
        let body = source.strip_prefix('^')?.strip_suffix('$')?.as_bytes();
        let mut sets = Vec::new();
        let mut at = 0;
        while at < body.len() {
            let (set, next) = match body[at] {
                b'[' => class(body, at + 1)?,
                c if plain_literal(c) => (1u128 << c, at + 1),
                _ => return None,
            };
            let (count, next) = repeat(body, next)?;
            if sets.len() + count > FIXED_MAX {
                return None;
            }
            sets.extend(std::iter::repeat_n(set, count));
            at = next;
        }
        Some(Fixed { sets: sets.into() })
    }

    #[inline]
    fn matches(&self, subject: &[u8]) -> bool {
        let n = self.sets.len();
        let subject = match subject {
            [head @ .., b'\n'] if head.len() == n => head,
            _ => subject,
        };
        subject.len() == n && subject.iter().zip(self.sets.iter()).all(|(&b, &set)| b < 128 && set & (1u128 << b) != 0)
    }
}

/// A character that stands for itself outside a class, in PCRE without flags.
fn plain_literal(c: u8) -> bool {
    c.is_ascii_alphanumeric() || b"-_@,:/ ".contains(&c)
}

/// A character that stands for itself inside a class (other than `-`, placed by `class`).
fn class_literal(c: u8) -> bool {
    c.is_ascii_alphanumeric() || b"._@,:/ +%".contains(&c)
}

/// The set of a class whose content starts at `at` (after `[`), and the offset after its `]`.
/// Accepts only alphanumeric ranges within one kind (`0-9`, `A-Z`, `a-f`), the literals of
/// `class_literal`, and `-` first or last; refuses `^`, `\`, `[`, an empty class.
fn class(body: &[u8], mut at: usize) -> Option<(u128, usize)> {
    let start = at;
    let mut set = 0u128;
    loop {
        let c = *body.get(at)?;
        match c {
            b']' if at > start => return Some((set, at + 1)),
            b'-' if at == start || body.get(at + 1) == Some(&b']') => {
                set |= 1 << b'-';
                at += 1;
            }
            c if class_literal(c) => {
                if body.get(at + 1) == Some(&b'-') && body.get(at + 2).is_some_and(|&e| e != b']') {
                    let end = body[at + 2];
                    let same_kind = |a: u8, b: u8| {
                        (a.is_ascii_digit() && b.is_ascii_digit())
                            || (a.is_ascii_uppercase() && b.is_ascii_uppercase())
                            || (a.is_ascii_lowercase() && b.is_ascii_lowercase())
                    };
                    if !same_kind(c, end) || c > end {
                        return None;
                    }
                    for b in c..=end {
                        set |= 1 << b;
                    }
                    at += 3;
                } else {
                    set |= 1 << c;
                    at += 1;
                }
            }
            _ => return None,
        }
    }
}

/// An optional `{k}` after an atom (k of 1 to 3 digits): the count, and the offset after it.
fn repeat(body: &[u8], at: usize) -> Option<(usize, usize)> {
    if body.get(at) != Some(&b'{') {
        return Some((1, at));
    }
    let digits = body[at + 1..].iter().take_while(|c| c.is_ascii_digit()).count();
    if !(1..=3).contains(&digits) || body.get(at + 1 + digits) != Some(&b'}') {
        return None;
    }
    let count = std::str::from_utf8(&body[at + 1..at + 1 + digits]).ok()?.parse().ok()?;
    Some((count, at + digits + 2))
}

/// `\N{...}`: PCRE2 reads it as a code point in UTF mode; PCRE 8 (mongod 6.0) refuses it.
fn has_named_char_escape(source: &str) -> bool {
    let mut chars = source.chars();
    while let Some(c) = chars.next() {
        if c == '\\' && chars.next() == Some('N') && chars.clone().next() == Some('{') {
            return true;
        }
    }
    false
}

impl std::fmt::Debug for Pattern {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("Pattern").field(&self.source).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Subjects around `example`: every ASCII byte and a multi-byte character at every
    /// position, one character more and less, and the line endings `$` might accept.
    fn subjects(example: &str) -> Vec<String> {
        let mut out = vec![String::new(), "\n".into(), "\r\n".into(), example.into()];
        for end in ["\n", "\r\n", "\r", "\n\n", "\u{2028}", "\u{85}", " ", "\0"] {
            out.push(format!("{example}{end}"));
            out.push(format!("{end}{example}"));
        }
        let chars: Vec<char> = example.chars().collect();
        for i in 0..chars.len() {
            let replacement = (0u8..128).map(char::from).chain(['é', '€', '𝄞', '٣', 'Ａ']);
            for c in replacement {
                let mut changed = chars.clone();
                changed[i] = c;
                out.push(changed.iter().collect());
            }
            out.push(chars.iter().enumerate().filter(|(j, _)| *j != i).map(|(_, c)| c).collect());
            let mut longer = chars.clone();
            longer.insert(i, chars[i]);
            out.push(longer.iter().collect());
        }
        out
    }

    /// The fixed matcher decides as PCRE2 does, on the patterns it takes.
    #[test]
    fn fixed_patterns_match_as_pcre2_does() {
        let cases = [
            ("^[0-9]{5}$", "10117"),
            ("^[A-Z]{3}-[0-9]{4}$", "SKU-0042"),
            ("^ORD-[0-9]{4}-[0-9]{6}$", "ORD-2024-000001"),
            ("^$", ""),
            ("^a$", "a"),
            ("^[a-]{2}[-a]$", "a--"),
            ("^[a-fA-F0-9]{8}$", "deadBEEF"),
            ("^[._@,:/ +%]{3}x{0}y$", "._@y"),
            ("^-_@,:/ $", "-_@,:/ "),
            ("^[0-9]{10}$", "0123456789"),
        ];
        for (source, example) in cases {
            let pattern = Pattern::new(source).unwrap();
            assert!(pattern.fixed.is_some(), "{source} should be fixed");
            for subject in subjects(example) {
                let pcre = pattern.regex.is_match(subject.as_bytes()).unwrap();
                assert_eq!(pattern.fixed.as_ref().unwrap().matches(subject.as_bytes()), pcre, "{source} on {subject:?}");
            }
        }
    }

    /// Everything else is left to PCRE2.
    #[test]
    fn other_patterns_are_not_fixed() {
        let others = [
            "[0-9]{5}", "^[0-9]{5}", "[0-9]{5}$", "^[^0-9]$", "^\\d$", "^a|b$", "^(a)$", "^a?$", "^a*$",
            "^a+$", "^a{1,2}$", "^a{2,}$", "^.$", "^[]a]$", "^[a-z-0]$", "^[z-a]$", "^[0-z]$", "^[[:alpha:]]$",
            "^a{1000}$", "^é$", "^[é]$", "^a{}$", "^a{2}{3}$", "^[a$", "^a\\$", "^(*CR)a$", "^a{0001}$",
        ];
        for source in others {
            if let Ok(pattern) = Pattern::new(source) {
                assert!(pattern.fixed.is_none(), "{source} should be left to PCRE2");
            }
        }
    }
}
