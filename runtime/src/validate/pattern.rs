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
        Ok(Pattern { source: source.into(), regex })
    }

    pub(crate) fn source(&self) -> &str {
        &self.source
    }

    /// Searches `subject` (valid UTF-8, as every BSON string decoded here is).
    pub(crate) fn find(&self, subject: &str) -> Found {
        match self.regex.is_match(subject.as_bytes()) {
            Ok(true) => Found::Yes,
            Ok(false) => Found::No,
            Err(_) => Found::LimitHit,
        }
    }

    pub(crate) fn is_match(&self, subject: &str) -> bool {
        self.find(subject) == Found::Yes
    }
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
