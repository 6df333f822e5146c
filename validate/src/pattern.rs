//! `pattern` and `patternProperties` regexes, compiled with PCRE2 the way mongod 6.0 compiles
//! them with PCRE: no flags, unanchored search; `pattern` in UTF mode, `patternProperties` byte
//! by byte (see [`Dialect`]).
//!
//! Simple anchored patterns (`^[0-9]{5}$`, `^[a-z0-9._%+-]+@[a-z0-9.-]+\.[a-z]{2,}$`) are
//! decided without PCRE2, by [`Fast`]: a fixed-width comparison when every count is fixed, a
//! bit-parallel NFA when some are not. The unit tests hold both to PCRE2's verdicts.

use mongo_schema_pcre2::{Regex, RegexBuilder};

/// Backtracking budget per match: the `MATCH_LIMIT` mongod 6.0 is built with (200,000, in its
/// vendored PCRE 8.42's `build_posix/config.h`; pcrecpp, which mongod 6.0 matches through,
/// passes no limit of its own, so the build's defaults hold), not PCRE's stock 10 million.
/// A pattern that backtracks catastrophically (`^(a+)+$` on `"aaa…ab"`) therefore gives up,
/// and answers "no match", where mongod does, at a fiftieth of the stock budget.
pub const MATCH_LIMIT: u32 = 200_000;

/// Nesting budget per match: mongod 6.0's `MATCH_LIMIT_RECURSION` (4,000, same file; PCRE 8.42
/// is built `NO_RECURSE`, so this bounds its heap-allocated frames, not the machine stack).
/// PCRE2's interpreter counts nested backtracking frames the same way: `^(a|b)*$` stops
/// matching after 1,998 characters in both (mongod 6.0.5 measured). PCRE2's JIT ignores this
/// limit, so a pattern that can nest (one with a group) is confirmed by the interpreter.
pub const DEPTH_LIMIT: u32 = 4_000;

/// Heap budget per match, in KiB (PCRE2's default is 20 GB; 16 MiB keeps memory bounded).
pub const HEAP_LIMIT_KIB: u32 = 16 * 1024;

/// JIT stack ceiling per thread.
const JIT_STACK: usize = 1 << 20;

/// A compiled regex and the source it came from.
#[repr(C)]
pub(crate) struct Pattern {
    /// The same pattern as a sequence of repeated ASCII sets, when it is that simple. First, so
    /// that a string's rules and their fast pattern share a cache line: after the ~100-byte
    /// `Regex` of the pcre2 crate (the one now used is four words), `validate_raw` on the
    /// benchmark's orders was ~8% slower.
    fast: Option<Fast>,
    source: Box<str>,
    regex: Regex,
    /// The same pattern, interpreted, when it has a group: the interpreter honours
    /// [`DEPTH_LIMIT`], which the JIT (`regex`) ignores, so a match the JIT finds is confirmed
    /// here (see [`Pattern::find`]).
    nested: Option<Regex>,
}

/// How mongod 6.0 compiles a regex, which differs by keyword.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Dialect {
    /// `pattern`: PCRE's UTF mode (`.` is one character; `\x{100}` is allowed).
    Utf,
    /// `patternProperties`: no UTF mode, so the regex and the field names are bytes (`^.$`
    /// does not match the name `é`, `^..$` does; `\x{100}` is refused as too large).
    Bytes,
}

/// The prefix `Pattern::new` puts before every pattern, which compile errors must not count.
const LIMITS: &str = "(*LIMIT_MATCH=200000)(*LIMIT_DEPTH=4000)(*LIMIT_HEAP=16384)";

/// The outcome of one match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Found {
    Yes,
    No,
    /// A match, depth or heap limit was hit; mongod's PCRE wrapper (pcrecpp) reads any error
    /// of `pcre_exec` as "no match".
    LimitHit,
}

impl Pattern {
    /// Compiles `source` as mongod compiles it for a keyword of `dialect`; the limits are set as
    /// start-of-pattern items, which PCRE2 lets only lower the caller's limits, so a pattern's
    /// own `(*LIMIT_MATCH=...)` cannot raise them. The error is PCRE2's reason with its offset
    /// in `source` (not in the prefixed pattern PCRE2 compiled).
    pub(crate) fn new(source: &str, dialect: Dialect) -> Result<Pattern, String> {
        debug_assert_eq!(
            LIMITS,
            format!("(*LIMIT_MATCH={MATCH_LIMIT})(*LIMIT_DEPTH={DEPTH_LIMIT})(*LIMIT_HEAP={HEAP_LIMIT_KIB})")
        );
        if source.contains('\0') {
            return Err("Regular expression cannot contain an embedded null byte".into());
        }
        if has_named_char_escape(source) {
            return Err("PCRE does not support \\L, \\l, \\N{name}, \\U, or \\u".into());
        }
        let regex = RegexBuilder::new()
            .utf(dialect == Dialect::Utf)
            .jit_if_available(true)
            .max_jit_stack_size(Some(JIT_STACK))
            .build(&format!("{LIMITS}{source}"))
            .map_err(|err| compile_error(&err))?;
        let nested = if may_nest(source) {
            let interpreted = RegexBuilder::new().utf(dialect == Dialect::Utf).build(&format!("{LIMITS}{source}"));
            Some(interpreted.map_err(|err| compile_error(&err))?)
        } else {
            None
        };
        Ok(Pattern { source: source.into(), regex, nested, fast: atoms(source).and_then(|atoms| Fast::new(&atoms)) })
    }

    pub(crate) fn source(&self) -> &str {
        &self.source
    }

    /// Searches `subject` (valid UTF-8, as every BSON string decoded here is; in the `Bytes`
    /// dialect its bytes are the subject).
    ///
    /// The JIT decides first. Its "no match" is final: the search was exhaustive, so no
    /// budget could find a match. Its "match" is final for a pattern without a group, whose
    /// nesting is bounded by its own length; a pattern with a group may nest once per
    /// repetition, so the interpreter, which honours [`DEPTH_LIMIT`] as mongod's PCRE honours
    /// its recursion limit, confirms it. A limit the JIT hits is "no match", as in mongod.
    #[inline]
    pub(crate) fn find(&self, subject: &str) -> Found {
        let verdict = |result: Result<bool, mongo_schema_pcre2::Error>| match result {
            Ok(true) => Found::Yes,
            Ok(false) => Found::No,
            Err(_) => Found::LimitHit,
        };
        match self.fast.as_ref().and_then(|fast| fast.decide(subject.as_bytes())) {
            Some(true) => Found::Yes,
            Some(false) => Found::No,
            None => match (verdict(self.regex.is_match(subject.as_bytes())), &self.nested) {
                (Found::Yes, Some(nested)) => verdict(nested.is_match(subject.as_bytes())),
                (found, _) => found,
            },
        }
    }

    #[inline]
    pub(crate) fn is_match(&self, subject: &str) -> bool {
        self.find(subject) == Found::Yes
    }
}

/// PCRE2's reason for refusing a pattern, with the offset counted in the user's pattern: PCRE2
/// counts from the start of the `LIMITS` prefix.
fn compile_error(err: &mongo_schema_pcre2::Error) -> String {
    let reason = err.message();
    match err.offset() {
        Some(offset) => format!("{reason} (at offset {} of the pattern)", offset.saturating_sub(LIMITS.len())),
        None => reason.to_owned(),
    }
}

/// A pattern `^A1A2...An$` where each atom is an ASCII set (a literal, an escaped ASCII
/// punctuation character such as `\.`, `\d`, `\w`, or a bracketed class of those and of
/// ranges) followed by an optional greedy quantifier (`?`, `*`, `+`, `{k}`, `{k,}`, `{k,m}`).
///
/// PCRE (no flags) reads such a pattern as a regular expression in the textbook sense: greedy
/// quantifiers without lazy or possessive suffixes, no groups, no assertions other than the
/// leading `^` (which anchors the search at the start) and the final `$` (end of subject, or
/// before one final `\n`). Backtracking tries every way to split the subject among the atoms,
/// so, short of a limit, it matches exactly the subjects in that language, and that is what
/// [`Fast::decide`] computes. Every set holds only ASCII characters (`\d` and `\w` are ASCII:
/// mongod's PCRE runs without UCP, and PCRE's built-in tables have no letters past ASCII), so
/// a multi-byte character never matches, as in PCRE's UTF mode. Anything else (`\s`, `\b`,
/// `\D`, `.`, negated or POSIX classes, alternation, groups, verbs, lazy or possessive
/// quantifiers, non-ASCII characters) leaves the pattern to PCRE2, and so does a subject long
/// enough that PCRE2 might hit its match limit on it (see [`pcre_work_bound`]).
enum Fast {
    /// Every atom has a fixed count.
    Fixed(Fixed),
    /// Some atom has a variable count, and there are at most 63 positions.
    Narrow(Box<Linear<u64>>),
    /// Some atom has a variable count, and there are 64 to 127 positions.
    Wide(Box<Linear<u128>>),
}

impl Fast {
    fn new(atoms: &[Atom]) -> Option<Fast> {
        let variable = atoms.iter().filter(|atom| atom.is_variable()).count();
        if variable == 0 {
            return Fixed::new(atoms).map(Fast::Fixed);
        }
        // The positions of `atoms`, counted before they are expanded.
        let count =
            atoms.iter().map(|atom| atom.max.unwrap_or(atom.min.max(1))).try_fold(0usize, usize::checked_add)?;
        if count > LINEAR_MAX {
            return None;
        }
        let positions = positions(atoms);
        Linear::new(&positions, variable)
            .map(|narrow| Fast::Narrow(Box::new(narrow)))
            .or_else(|| Linear::new(&positions, variable).map(|wide| Fast::Wide(Box::new(wide))))
    }

    /// PCRE2's verdict on `subject`, or `None` when PCRE2 itself must decide.
    #[inline]
    fn decide(&self, subject: &[u8]) -> Option<bool> {
        match self {
            Fast::Fixed(fixed) => Some(fixed.matches(subject)),
            Fast::Narrow(linear) => linear.decide(subject),
            Fast::Wide(linear) => linear.decide(subject),
        }
    }
}

/// One atom: an ASCII set (bit `c` for byte `c`) repeated `min` to `max` times (`None`: no
/// upper bound).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Atom {
    set: u128,
    min: usize,
    max: Option<usize>,
}

impl Atom {
    fn is_variable(&self) -> bool {
        self.max != Some(self.min)
    }
}

/// The atoms of `source` when it has the shape [`Fast`] decides; `None` otherwise.
fn atoms(source: &str) -> Option<Vec<Atom>> {
    let body = source.strip_prefix('^')?.strip_suffix('$')?.as_bytes();
    let mut atoms = Vec::new();
    let mut at = 0;
    while at < body.len() {
        let (set, next) = atom_set(body, at)?;
        let ((min, max), next) = quantifier(body, next)?;
        atoms.push(Atom { set, min, max });
        at = next;
    }
    Some(atoms)
}

/// The set of the atom starting at `at`, and the offset after it.
fn atom_set(body: &[u8], at: usize) -> Option<(u128, usize)> {
    match *body.get(at)? {
        b'[' => class(body, at + 1),
        b'\\' => Some((escape(*body.get(at + 1)?)?, at + 2)),
        c if plain_literal(c) => Some((1 << c, at + 1)),
        _ => None,
    }
}

/// `[0-9]`.
const DIGITS: u128 = ((1 << 10) - 1) << b'0';
/// `[A-Za-z0-9_]`: `\w` without UCP, with PCRE's built-in (C locale) character tables.
const WORD: u128 = DIGITS | (((1 << 26) - 1) << b'A') | (((1 << 26) - 1) << b'a') | (1 << b'_');

/// The set of the escape `\c`, in or out of a class: `\d`, `\w`, or an ASCII punctuation
/// character, which a backslash makes literal whatever its meaning unescaped. Other escapes
/// (`\s`, `\D`, `\b`, `\n`, `\x..`, back references, ...) are refused.
fn escape(c: u8) -> Option<u128> {
    match c {
        b'd' => Some(DIGITS),
        b'w' => Some(WORD),
        c if c.is_ascii_punctuation() => Some(1 << c),
        _ => None,
    }
}

/// A character that stands for itself outside a class, in PCRE without flags (`#` and space
/// are special only in extended mode, `]` and `}` only after their openers).
fn plain_literal(c: u8) -> bool {
    c.is_ascii_alphanumeric() || b" !\"#%&',-/:;<=>@]_`}~".contains(&c)
}

/// A character that stands for itself inside a class (other than `-`, placed by `class`):
/// anything printable but `\`, `]`, `[` (POSIX classes) and `^` (negation when first).
fn class_literal(c: u8) -> bool {
    c == b' ' || (c.is_ascii_graphic() && !b"\\][^-".contains(&c))
}

/// The set of a class whose content starts at `at` (after `[`), and the offset after its `]`.
/// Accepts alphanumeric ranges within one kind (`0-9`, `A-Z`, `a-f`), the literals of
/// `class_literal`, the escapes of `escape`, and `-` first or last; refuses `^`, `[`, an empty
/// class, and a `-` after an escape unless it closes the class (`[\d-z]`, `[\.-/]`).
fn class(body: &[u8], mut at: usize) -> Option<(u128, usize)> {
    let start = at;
    let mut set = 0u128;
    loop {
        let c = *body.get(at)?;
        let closes_after = |at: usize| body.get(at) != Some(&b'-') || body.get(at + 1) == Some(&b']');
        match c {
            b']' if at > start => return Some((set, at + 1)),
            b'-' if at == start || body.get(at + 1) == Some(&b']') => {
                set |= 1 << b'-';
                at += 1;
            }
            b'\\' => {
                set |= escape(*body.get(at + 1)?)?;
                at += 2;
                if !closes_after(at) {
                    return None;
                }
            }
            c if class_literal(c) => {
                if closes_after(at + 1) {
                    set |= 1 << c;
                    at += 1;
                } else {
                    set |= range(c, *body.get(at + 2)?)?;
                    at += 3;
                }
            }
            _ => return None,
        }
    }
}

/// The range `start-end` inside a class, when both ends are alphanumerics of one kind.
fn range(start: u8, end: u8) -> Option<u128> {
    let same_kind = (start.is_ascii_digit() && end.is_ascii_digit())
        || (start.is_ascii_uppercase() && end.is_ascii_uppercase())
        || (start.is_ascii_lowercase() && end.is_ascii_lowercase());
    if !same_kind || start > end {
        return None;
    }
    Some((start..=end).fold(0, |set, b| set | 1 << b))
}

/// The greedy quantifier after an atom (`?`, `*`, `+`, `{k}`, `{k,}`, `{k,m}` with numbers of 1
/// to 3 digits, or none): its bounds, and the offset after it. A quantifier followed by `?`
/// (lazy), `+` (possessive), `*` or `{` is refused, as is a `{` that is not a quantifier.
fn quantifier(body: &[u8], at: usize) -> Option<((usize, Option<usize>), usize)> {
    let (bounds, next) = match body.get(at) {
        Some(b'?') => ((0, Some(1)), at + 1),
        Some(b'*') => ((0, None), at + 1),
        Some(b'+') => ((1, None), at + 1),
        Some(b'{') => braces(body, at + 1)?,
        _ => return Some(((1, Some(1)), at)),
    };
    if matches!(body.get(next), Some(b'?' | b'+' | b'*' | b'{')) {
        return None;
    }
    Some((bounds, next))
}

/// The bounds of `{k}`, `{k,}` or `{k,m}` (k <= m) whose content starts at `at` (after `{`),
/// and the offset after its `}`.
fn braces(body: &[u8], at: usize) -> Option<((usize, Option<usize>), usize)> {
    let (min, at) = number(body, at)?;
    match *body.get(at)? {
        b'}' => Some(((min, Some(min)), at + 1)),
        b',' if body.get(at + 1) == Some(&b'}') => Some(((min, None), at + 2)),
        b',' => {
            let (max, at) = number(body, at + 1)?;
            (min <= max && body.get(at) == Some(&b'}')).then_some(((min, Some(max)), at + 1))
        }
        _ => None,
    }
}

/// A decimal number of 1 to 3 digits at `at`, and the offset after it.
fn number(body: &[u8], at: usize) -> Option<(usize, usize)> {
    let digits = body.get(at..)?.iter().take_while(|c| c.is_ascii_digit()).count();
    if !(1..=3).contains(&digits) {
        return None;
    }
    let value = body[at..at + digits].iter().fold(0, |n, &c| n * 10 + usize::from(c - b'0'));
    Some((value, at + digits))
}

/// A pattern whose atoms all have fixed counts: PCRE matches exactly the subjects of n
/// characters, each in its position's set, and, since `$` also matches before a final
/// newline, those followed by one `\n`. No backtracking, no limit to hit.
struct Fixed {
    /// One 128-bit ASCII set per character position.
    sets: Box<[u128]>,
}

/// Most positions a fixed pattern may have (longer ones go to PCRE2).
const FIXED_MAX: usize = 256;

impl Fixed {
    fn new(atoms: &[Atom]) -> Option<Fixed> {
        let count: usize = atoms.iter().map(|atom| atom.min).sum();
        if count > FIXED_MAX {
            return None;
        }
        let sets = atoms.iter().flat_map(|atom| std::iter::repeat_n(atom.set, atom.min)).collect();
        Some(Fixed { sets })
    }

    #[inline]
    fn matches(&self, subject: &[u8]) -> bool {
        let n = self.sets.len();
        let subject = match subject {
            [head @ .., b'\n'] if head.len() == n => head,
            _ => subject,
        };
        // A set as its two 64-bit halves: a `u128` shift by a variable amount is several
        // instructions and a branch where a `u64` one is one (~2% of `validate_raw` on the
        // benchmark's orders).
        let admits = |b: u8, set: u128| b < 128 && ((set >> (b & 64)) as u64) >> (b & 63) & 1 != 0;
        subject.len() == n && subject.iter().zip(self.sets.iter()).all(|(&b, &set)| admits(b, set))
    }
}

/// A pattern with some variable count, decided by a bit-parallel NFA over its positions.
///
/// Each atom expands into positions: `x{2,4}` into two mandatory and two optional positions,
/// `x+` into one mandatory position that repeats, `x*` into one optional position that
/// repeats, `x{2,}` into a mandatory position and a mandatory one that repeats. Bit `p` of the
/// state means "the first `p` positions are matched"; a byte moves bit `p` to `p + 1` when it
/// is in position `p`'s set, and keeps bit `p` when position `p - 1` repeats and the byte is
/// in its set; optional positions are then skipped (the epsilon closure). The subject matches
/// when bit `P` (all positions) is set at its end, or just before a final `\n`, where `$`
/// also matches. The state is a `u64` for up to 63 positions (the common case, and half the
/// work per byte), a `u128` for up to 127.
struct Linear<W> {
    /// Per ASCII byte, its moves.
    moves: [Moves<W>; 128],
    /// Bit `p` when position `p` is optional.
    optional: W,
    /// The closure of the empty prefix.
    start: W,
    /// Bit `P`.
    accept: W,
    /// The longest subject, in bytes, on which PCRE2 surely stays far below [`MATCH_LIMIT`]
    /// (see [`pcre_work_bound`]); longer subjects go to PCRE2, which may report the limit.
    max_len: usize,
}

/// What one byte does to the state of a [`Linear`].
#[derive(Clone, Copy, Default)]
struct Moves<W> {
    /// Bit `p` when the byte is in position `p`'s set.
    advance: W,
    /// Bit `p` when position `p - 1` repeats and the byte is in its set.
    stay: W,
}

/// The state word of a [`Linear`]: `u64` or `u128`.
trait Word:
    Copy
    + Default
    + Eq
    + std::ops::BitAnd<Output = Self>
    + std::ops::BitOr<Output = Self>
    + std::ops::BitOrAssign
    + std::ops::BitXor<Output = Self>
    + std::ops::Shl<u32, Output = Self>
    + std::ops::Add<Output = Self>
    + From<bool>
{
    /// The number of bits.
    const BITS: u32;
}

impl Word for u64 {
    const BITS: u32 = u64::BITS;
}

impl Word for u128 {
    const BITS: u32 = u128::BITS;
}

/// Most positions a linear pattern may have: bit `P` of the state must fit in a `u128`.
const LINEAR_MAX: usize = 127;

/// One position of a linear pattern.
#[derive(Clone, Copy)]
struct Position {
    set: u128,
    optional: bool,
    repeats: bool,
}

/// The positions `atoms` expand into (see [`Linear`]).
fn positions(atoms: &[Atom]) -> Vec<Position> {
    let mut out = Vec::new();
    for atom in atoms {
        let mandatory = Position { set: atom.set, optional: false, repeats: false };
        out.extend(std::iter::repeat_n(mandatory, atom.min));
        match atom.max {
            Some(max) => out.extend(std::iter::repeat_n(Position { optional: true, ..mandatory }, max - atom.min)),
            None => match out.last_mut() {
                Some(last) if atom.min > 0 => last.repeats = true,
                _ => out.push(Position { optional: true, repeats: true, ..mandatory }),
            },
        }
    }
    out
}

impl<W: Word> Linear<W> {
    /// The NFA of `positions`, when bit `P` fits in `W`.
    fn new(positions: &[Position], variable: usize) -> Option<Linear<W>> {
        let count = u32::try_from(positions.len()).ok().filter(|&count| count < W::BITS)?;
        let bit = |p: u32| W::from(true) << p;
        let mut linear = Linear {
            moves: [Moves::default(); 128],
            optional: W::default(),
            start: W::default(),
            accept: bit(count),
            max_len: max_len(variable, positions.len()),
        };
        for (p, position) in (0..count).zip(positions) {
            for (c, moves) in linear.moves.iter_mut().enumerate() {
                if position.set & (1 << c) != 0 {
                    moves.advance |= bit(p);
                    if position.repeats {
                        moves.stay |= bit(p + 1);
                    }
                }
            }
            if position.optional {
                linear.optional |= bit(p);
            }
        }
        linear.start = linear.closure(bit(0));
        Some(linear)
    }

    /// `state` plus every state reachable from it by skipping optional positions. Within a
    /// run of optional positions `[a, e)`, adding the state's lowest bit `b` of the run to the
    /// run carries through `b..e` and sets `e`: the xor with the run leaves `b..=e` (bits of
    /// the state above `b` in the run are cleared by the carry, and restored by the `|`). The
    /// highest optional position is below bit `P`, so the sum does not overflow.
    #[inline]
    fn closure(&self, state: W) -> W {
        state | ((self.optional + (state & self.optional)) ^ self.optional)
    }

    /// PCRE2's verdict on `subject`, or `None` when the subject is too long to be sure that
    /// PCRE2 would not hit its match limit.
    #[inline]
    fn decide(&self, subject: &[u8]) -> Option<bool> {
        if subject.len() > self.max_len {
            return None;
        }
        // Two copies of the loop, so that patterns without optional positions skip the closure.
        Some(if self.optional == W::default() {
            self.run(subject, |state| state)
        } else {
            self.run(subject, |state| self.closure(state))
        })
    }

    /// Runs the NFA over `subject`, applying `closure` after each byte.
    #[inline]
    fn run(&self, subject: &[u8], closure: impl Fn(W) -> W) -> bool {
        let step = |state: W, byte: u8| match self.moves.get(usize::from(byte)) {
            Some(moves) => closure(((state & moves.advance) << 1) | (state & moves.stay)),
            None => W::default(),
        };
        let (body, newline) = match subject {
            [body @ .., b'\n'] => (body, true),
            _ => (subject, false),
        };
        let mut state = self.start;
        for &byte in body {
            state = step(state, byte);
            if state == W::default() {
                return false;
            }
        }
        let accepted = |state: W| state & self.accept != W::default();
        (newline && accepted(state)) || accepted(if newline { step(state, b'\n') } else { state })
    }
}

/// The budget [`pcre_work_bound`] must stay within for the NFA to decide instead of PCRE2: an
/// half of [`MATCH_LIMIT`], a margin for the constant factors of step counting (PCRE2's JIT,
/// its interpreter and mongod's PCRE 8.42 charge the same search within a factor of about 3
/// of each other; the bound itself is already several times their counts).
const FAST_WORK: u64 = MATCH_LIMIT as u64 / 2;

/// The longest subject length `n` with `pcre_work_bound(n, variable, positions) <= FAST_WORK`
/// (the bound grows with `n`, so a binary search finds it).
fn max_len(variable: usize, positions: usize) -> usize {
    let (k, p) = (variable as u64, positions as u64);
    let (mut low, mut high) = (0u64, FAST_WORK);
    if pcre_work_bound(low, k, p) > FAST_WORK {
        return 0;
    }
    while low < high {
        let mid = low + (high - low).div_ceil(2);
        if pcre_work_bound(mid, k, p) <= FAST_WORK {
            low = mid;
        } else {
            high = mid - 1;
        }
    }
    usize::try_from(low).unwrap_or(usize::MAX)
}

/// An upper bound on the steps PCRE2 (interpreter or JIT) spends matching a linear pattern
/// with `k` variable-count atoms and `p` positions against a subject of `n` bytes, saturating.
///
/// The NFA never hits a limit, while PCRE2 reports [`Found::LimitHit`] past [`MATCH_LIMIT`]
/// backtracking steps, so the NFA may only decide where PCRE2 surely stays under it. PCRE2
/// anchors the search at the start (`^`), matches fixed-count atoms without choices, and for
/// each variable atom scans greedily, then backtracks through each count it may take. A point
/// of its search is thus a prefix `(c1, ..., cj)` of counts for the first `j` variable atoms,
/// and, since the counts sum to at most `n`, there are `C(n + j, j)` prefixes of length `j`:
/// `C(n + k, k - 1)` entries into a variable atom (prefixes of length `j < k`), each scanning
/// at most `n + 1` characters, and `C(n + k + 1, k)` prefixes in all, each followed by at most
/// `p + 1` steps on fixed positions and `$` (hockey-stick sums). So PCRE2 takes at most
/// `C(n + k, k - 1) * (n + 1) + C(n + k + 1, k) * (p + 1)` steps, a count that includes each
/// backtracking point PCRE2 charges to the limit (`n` counts bytes, at least the characters
/// PCRE2 counts). Auto-possessification (`[a-z]+@`) and PCRE2's start-up checks only remove
/// work. The test `pcre2_steps_stay_within_the_bound` measures PCRE2's own counts (the least
/// `(*LIMIT_MATCH=...)` that lets it finish, interpreted and JIT) on backtracking-heavy
/// subjects: they stay well within this bound, which [`FAST_WORK`] then divides by 2 more.
/// Heap and JIT stack stay small too: a single-character repeat keeps one backtracking frame
/// per variable atom on the current path, not one per character.
///
/// For `k = 1` the bound is linear in `n` (about `n * (p + 2)`); for the e-mail pattern
/// (`k = 3`, `p = 6`) it is about 89,000 at `n = 35` and stays under [`FAST_WORK`] up to
/// `n = 36`; longer addresses go to PCRE2's JIT, which settles them in a few steps.
fn pcre_work_bound(n: u64, k: u64, p: u64) -> u64 {
    if k == 0 {
        return n.saturating_add(p).saturating_add(1);
    }
    let scans = binomial(n + k, k - 1).saturating_mul(n + 1);
    let tails = binomial(n + k + 1, k).saturating_mul(p + 1);
    scans.saturating_add(tails)
}

/// `C(a, b)` for `b <= a`, saturating at `u64::MAX`. The partial products `C(a - b + i, i)`
/// grow with `i`, so once one passes `u64::MAX` the result does too.
fn binomial(a: u64, b: u64) -> u64 {
    let base = u128::from(a - b.min(a));
    let mut value: u128 = 1;
    for i in 1..=u128::from(b.min(a)) {
        value = value * (base + i) / i;
        if value > u128::from(u64::MAX) {
            return u64::MAX;
        }
    }
    u64::try_from(value).unwrap_or(u64::MAX)
}

/// Whether `source` may nest backtracking frames once per repetition, past any bound its own
/// length sets: whether it has a group (or lookaround, recursion, verb: anything opened by
/// `(`). Conservative: an escaped `\(` counts too, which only costs an interpreted check.
fn may_nest(source: &str) -> bool {
    source.contains('(')
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
    /// position, one character more and less, and the line endings `$` might accept. The
    /// Latin-1 letters would be `\w` under a Latin-1 locale's tables.
    fn subjects(example: &str) -> Vec<String> {
        let mut out = vec![String::new(), "\n".into(), "\r\n".into(), example.into()];
        for end in ["\n", "\r\n", "\r", "\n\n", "\u{2028}", "\u{85}", " ", "\0"] {
            out.push(format!("{example}{end}"));
            out.push(format!("{end}{example}"));
        }
        let chars: Vec<char> = example.chars().collect();
        for i in 0..chars.len() {
            let others = ['é', '€', '𝄞', '٣', 'Ａ', 'ª', 'µ', 'º', 'À', 'ß'];
            let replacement = (0u8..128).map(char::from).chain(others);
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

    /// The members of an ASCII set.
    fn members(set: u128) -> Vec<char> {
        (0u8..128).filter(|&c| set & (1 << c) != 0).map(char::from).collect()
    }

    /// `count` characters of `atom`'s set, cycling through its members.
    fn fill(atom: &Atom, count: usize) -> String {
        let members = members(atom.set);
        (0..count).map(|i| members[i % members.len()]).collect()
    }

    /// The counts at and around an atom's bounds (an unbounded atom's "max" is `min + 4`).
    fn counts(atom: &Atom) -> Vec<usize> {
        let max = atom.max.unwrap_or(atom.min + 4);
        let mut out = vec![0, atom.min.saturating_sub(1), atom.min, atom.min + 1, max.saturating_sub(1), max, max + 1];
        out.sort_unstable();
        out.dedup();
        out
    }

    /// Subjects that repeat each atom at and around its bounds while the others take their
    /// least or greatest counts, each alone and followed by `\n`, `\n\n` or `x`.
    fn count_subjects(atoms: &[Atom]) -> Vec<String> {
        let mut out = Vec::new();
        for (i, atom) in atoms.iter().enumerate() {
            for count in counts(atom) {
                for others_at_max in [false, true] {
                    let body: String = atoms
                        .iter()
                        .enumerate()
                        .map(|(j, other)| {
                            let n = match (j == i, others_at_max) {
                                (true, _) => count,
                                (false, false) => other.min,
                                (false, true) => other.max.unwrap_or(other.min + 3),
                            };
                            fill(other, n)
                        })
                        .collect();
                    for end in ["", "\n", "\n\n", "x"] {
                        out.push(format!("{body}{end}"));
                    }
                }
            }
        }
        out
    }

    /// The longest subject the fast path of `pattern` decides.
    fn max_len_of(pattern: &Pattern) -> usize {
        match &pattern.fast {
            Some(Fast::Fixed(_)) => usize::MAX,
            Some(Fast::Narrow(linear)) => linear.max_len,
            Some(Fast::Wide(linear)) => linear.max_len,
            None => 0,
        }
    }

    /// The fast path's verdict, when it takes the subject.
    fn fast_verdict(pattern: &Pattern, subject: &str) -> Option<bool> {
        pattern.fast.as_ref().and_then(|fast| fast.decide(subject.as_bytes()))
    }

    /// Holds `source`'s fast path to PCRE2 on the subjects around `example` and around its
    /// atoms' bounds; returns how many subjects were compared.
    fn assert_fast_as_pcre2(source: &str, example: &str) -> usize {
        let pattern = Pattern::new(source, Dialect::Utf).unwrap();
        assert!(pattern.fast.is_some(), "{source} should take the fast path");
        let all = subjects(example).into_iter().chain(count_subjects(&atoms(source).unwrap()));
        let mut compared = 0;
        for subject in all {
            let pcre = pattern.regex.is_match(subject.as_bytes()).unwrap();
            let Some(fast) = fast_verdict(&pattern, &subject) else {
                // Only a subject longer than the bound of `pcre_work_bound` is left to PCRE2.
                assert!(subject.len() > max_len_of(&pattern), "{source} should decide {subject:?}");
                continue;
            };
            assert_eq!(fast, pcre, "{source} on {subject:?}");
            compared += 1;
        }
        compared
    }

    /// The fast path decides as PCRE2 does, on the patterns it takes.
    #[test]
    fn fast_patterns_match_as_pcre2_does() {
        let cases = [
            // Fixed counts.
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
            ("^\\d{3}-\\d{4}$", "555-1234"),
            ("^\\d$", "7"),
            ("^\\$\\\\\\/\\^\\*\\.\\-\\+\\?\\(\\)\\[\\]\\{\\}\\|$", "$\\/^*.-+?()[]{}|"),
            ("^ !\"#%&',/:;<=>@]_`}~$", " !\"#%&',/:;<=>@]_`}~"),
            ("^[\\]\\[\\\\\\-\\^][!\"#$%&'()*+,./:;<=>?@_`{|}~ ]{2}$", "]!~"),
            ("^\\w{3}[\\w.]{0,0}$", "a_9"),
            ("^a{2,2}b{0,0}$", "aa"),
            // Variable counts.
            ("^[a-zA-Z0-9._%+-]+@[a-zA-Z0-9.-]+\\.[a-zA-Z]{2,}$", "user1234@example.com"),
            ("^[a-zA-Z0-9._%+-]+@[a-zA-Z0-9.-]+\\.[a-zA-Z]{2,}$", "first.last+tag@mail.example.co.uk"),
            ("^[A-Z][a-z]*$", "Hello"),
            ("^a?b?c?$", "abc"),
            ("^a?b?c?$", "b"),
            ("^[0-9]{2,4}x{0,2}$", "123x"),
            ("^\\+?[0-9]{7,15}$", "+4930123456"),
            ("^a?$", "a"),
            ("^a*$", "aaa"),
            ("^a+$", "aa"),
            ("^a{1,2}$", "a"),
            ("^a{2,}$", "aaa"),
            ("^a{0,}b{1,}$", "abb"),
            ("^\\d+$", "123"),
            ("^\\w+$", "snake_case9"),
            ("^[\\w.-]+$", "a.b-c"),
            ("^[\\d\\-\\.]{3,}$", "1.2-3"),
            ("^a*a*a*$", "aaa"),
            ("^[ab]*b[ab]{2}$", "abab"),
            ("^x{0,3}y+z?$", "xxyz"),
            ("^a{0,5}a{2,3}$", "aaaa"),
            ("^[a-z]+-?[a-z]*-?\\d{0,3}$", "abc-de-12"),
            ("^[0-9]{1,3}\\.[0-9]{1,3}\\.[0-9]{1,3}\\.[0-9]{1,3}$", "192.168.0.1"),
            ("^[a-f0-9]{8}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{12}$", "0123abcd-0123-4567-89ab-0123456789ab"),
            ("^[ ]*[a-z]+[ ]*$", " ab "),
            ("^[a-z&&b]+$", "a&b"),
        ];
        let mut compared = 0;
        for (source, example) in cases {
            compared += assert_fast_as_pcre2(source, example);
        }
        assert!(compared > 40_000, "{compared} comparisons");
    }

    /// Both state widths, around the 63-position boundary and at the 127-position maximum.
    #[test]
    fn wide_patterns_match_as_pcre2_does() {
        for (fixed, narrow) in [(61, true), (62, true), (63, false), (100, false), (126, false)] {
            let source = format!("^a{{{fixed}}}[ab]?$");
            let pattern = Pattern::new(&source, Dialect::Utf).unwrap();
            assert_eq!(matches!(pattern.fast, Some(Fast::Narrow(_))), narrow, "{source}");
            assert_eq!(matches!(pattern.fast, Some(Fast::Wide(_))), !narrow, "{source}");
            assert_fast_as_pcre2(&source, &"a".repeat(fixed + 1));
        }
        let mixed = "^[a-z]{30}[0-9]{0,40}x+\\.[A-Z]{3}$";
        assert!(matches!(Pattern::new(mixed, Dialect::Utf).unwrap().fast, Some(Fast::Wide(_))));
        assert_fast_as_pcre2(mixed, &("abcdefghijklmnopqrstuvwxyzabcd".to_owned() + "0123" + "xx.ABC"));
    }

    /// Everything else is left to PCRE2.
    #[test]
    fn other_patterns_are_not_fast() {
        let others = [
            "[0-9]{5}",
            "^[0-9]{5}",
            "[0-9]{5}$",
            "^[^0-9]$",
            "^a|b$",
            "^(a)$",
            "^.$",
            "^[]a]$",
            "^[a-z-0]$",
            "^[z-a]$",
            "^[0-z]$",
            "^[[:alpha:]]$",
            "^a{1000}$",
            "^é$",
            "^[é]$",
            "^a{}$",
            "^a{2}{3}$",
            "^[a$",
            "^a\\$",
            "^(*CR)a$",
            "^a{0001}$",
            // Groups, alternation, lazy and possessive quantifiers.
            "^[a-z0-9-]+(\\.x)?$",
            "^(?:a)+$",
            "^a*|b$",
            "^[a-z]+?$",
            "^a*?$",
            "^a??$",
            "^a{2,3}?$",
            "^a{2}?$",
            "^a{2,}?$",
            "^a++$",
            "^a*+$",
            "^a?+$",
            "^a{2}+$",
            "^a{1,3}+$",
            "^a**$",
            "^a+*$",
            "^a?{2}$",
            "^a{2}*$",
            // Escapes and classes outside the shapes.
            "^\\s+$",
            "^\\S$",
            "^\\b$",
            "^a\\b$",
            "^\\B$",
            "^\\D$",
            "^\\W+$",
            "^\\n+$",
            "^\\t$",
            "^\\x41*$",
            "^\\101$",
            "^(a)\\1*$",
            "^\\Qa\\E*$",
            "^\\Aa*$",
            "^a*\\z$",
            "^a*\\Z$",
            "^\\p{L}+$",
            "^\\h$",
            "^\\R$",
            "^\\X$",
            "^\\K$",
            "^\\e$",
            "^\\cA$",
            "^[a\\s]+$",
            "^[\\D]$",
            "^[\\W]$",
            "^[\\d-z]+$",
            "^[\\.-/]+$",
            "^[a-\\z]+$",
            "^[!-/]$",
            "^[^a]*$",
            "^[[:digit:]]+$",
            "^[[.a.]]$",
            "^a.b*$",
            "^.*$",
            "^é*$",
            "^a*é$",
            "^[aé]+$",
            "^a*\n$",
            "^a*\\\n$",
            "^\\",
            "^a*\\$",
            "^\\$",
            "a*$",
            "^a*",
            "^^a*$",
            "^a*$$",
            "^$a*$",
            "^|a*$",
            // Quantifiers outside the shapes.
            "^a{,3}$",
            "^a{1, 2}$",
            "^a{ 1}$",
            "^a{1,2,3}$",
            "^a{1000,}$",
            "^a{0,1000}$",
            "^a{1,}{2}$",
            "^a{3,2}$",
            "^a{x}$",
            "^a{1$",
            "^a{1,$",
            "^a{1,2$",
            "^{1}$",
            "^*a$",
            "^+a$",
            "^?a$",
            // Too many positions.
            "^a{0,200}$",
            "^a{100}b{100}c?$",
            "^a{127}b?$",
            "^a{126}b{0,2}$",
            "^[a-z]{257}$",
            "^a{128}b*$",
            "^a{64}b{0,64}$",
            // Verbs and options.
            "^(*UTF)a*$",
            "^(?i)a*$",
            "^a*(?#x)$",
            "^(*ACCEPT)a*$",
        ];
        for source in others {
            if let Ok(pattern) = Pattern::new(source, Dialect::Utf) {
                assert!(pattern.fast.is_none(), "{source} should be left to PCRE2");
            }
        }
    }

    #[test]
    fn work_bound() {
        assert_eq!(binomial(5, 2), 10);
        assert_eq!(binomial(0, 0), 1);
        assert_eq!(binomial(7, 0), 1);
        assert_eq!(binomial(7, 7), 1);
        assert_eq!(binomial(40, 20), 137_846_528_820);
        assert_eq!(binomial(1_000_000, 100), u64::MAX);
        // One variable atom: linear in n.
        assert_eq!(pcre_work_bound(10, 1, 3), 11 + 12 * 4);
        // The e-mail pattern: 3 variable atoms, 6 positions.
        assert_eq!(pcre_work_bound(35, 3, 6), 703 * 36 + 9139 * 7);
        assert_eq!(max_len(3, 6), 36);
        assert!(pcre_work_bound(36, 3, 6) <= FAST_WORK && pcre_work_bound(37, 3, 6) > FAST_WORK);
        assert_eq!(pcre_work_bound(u64::from(MATCH_LIMIT), 50, 127), u64::MAX);
        assert_eq!(max_len(120, 127), 0);
        assert!(pcre_work_bound(1, 120, 127) > FAST_WORK);
    }

    /// mongod 6.0.5's thresholds, measured by inserting under `{pattern: P}`: its PCRE 8.42
    /// stops nesting at 4,000 frames (`MATCH_LIMIT_RECURSION`), and a repeated group nests
    /// once or twice per repetition. The interpreter confirming a group's JIT match stops there.
    #[test]
    fn group_depth_stops_where_mongod_stops() {
        for (source, unit, longest) in [("^(a|b)*$", "a", 1998), ("^(?:a|b)*$", "a", 1998), ("^(ab)*$", "ab", 1998)] {
            let pattern = Pattern::new(source, Dialect::Utf).unwrap();
            assert_eq!(pattern.find(&unit.repeat(longest)), Found::Yes, "{source}");
            assert_eq!(pattern.find(&unit.repeat(longest + 1)), Found::LimitHit, "{source}");
        }
        // Without a group nothing nests: the JIT's verdict stands.
        assert!(Pattern::new("^[ab]*$", Dialect::Utf).unwrap().nested.is_none());
        assert_eq!(Pattern::new("^[ab]*$", Dialect::Utf).unwrap().find(&"a".repeat(100_000)), Found::Yes);
        // `^(a+)+$` on "aaa…ab" gives up at the match limit, as mongod does.
        let catastrophic = Pattern::new("^(a+)+$", Dialect::Utf).unwrap();
        assert_eq!(catastrophic.find(&("a".repeat(27) + "b")), Found::LimitHit);
    }

    /// Subjects past the bound go to PCRE2, which may hit its limit where the NFA would not.
    #[test]
    fn long_subjects_go_to_pcre2() {
        let email = Pattern::new("^[a-zA-Z0-9._%+-]+@[a-zA-Z0-9.-]+\\.[a-zA-Z]{2,}$", Dialect::Utf).unwrap();
        for length in 20..=35 {
            let subject = format!("{}@example.com", "u".repeat(length - 12));
            assert_eq!(fast_verdict(&email, &subject), Some(true), "{subject}");
        }
        let long = format!("{}@example.com", "u".repeat(200));
        assert_eq!(fast_verdict(&email, &long), None);
        assert_eq!(email.find(&long), Found::Yes);

        let hostile = Pattern::new("^a*a*a*a*a*a*a*a*a*a*a*a*b$", Dialect::Utf).unwrap();
        let subject = format!("{}ba", "a".repeat(60));
        assert_eq!(fast_verdict(&hostile, &subject), None);
        assert_eq!(hostile.find(&subject), Found::LimitHit);
        assert_eq!(fast_verdict(&hostile, "aab"), Some(true));
    }

    /// At the longest subject the NFA takes, PCRE2, interpreted or JIT, with the limits of
    /// `Pattern::new`, still decides without hitting a limit, and agrees.
    #[test]
    fn pcre2_finishes_at_the_longest_fast_subject() {
        let source = "^\\w*[ab]{2}$";
        let pattern = Pattern::new(source, Dialect::Utf).unwrap();
        let Some(Fast::Narrow(linear)) = &pattern.fast else { panic!("{source} should be narrow") };
        let longest = linear.max_len;
        assert!(longest > 15_000, "{longest}");
        let limited = format!("(*LIMIT_MATCH={MATCH_LIMIT})(*LIMIT_HEAP={HEAP_LIMIT_KIB}){source}");
        let interpreted = RegexBuilder::new().utf(true).build(&limited).unwrap();
        for subject in ["a".repeat(longest), "a".repeat(longest - 1) + "c", "a".repeat(longest - 2) + "_\n"] {
            let fast = fast_verdict(&pattern, &subject).unwrap();
            assert_eq!(pattern.regex.is_match(subject.as_bytes()).ok(), Some(fast));
            assert_eq!(interpreted.is_match(subject.as_bytes()).ok(), Some(fast));
        }
        assert_eq!(fast_verdict(&pattern, &"a".repeat(longest + 1)), None);
    }

    /// The least `(*LIMIT_MATCH=...)` under which PCRE2 finishes `source` on `subject`.
    fn steps_needed(source: &str, subject: &str, jit: bool) -> u64 {
        let finishes = |limit: u64| {
            let limited = format!("(*LIMIT_MATCH={limit}){source}");
            let regex = RegexBuilder::new().utf(true).jit(jit).build(&limited).unwrap();
            regex.is_match(subject.as_bytes()).is_ok()
        };
        let (mut low, mut high) = (1u64, u64::from(MATCH_LIMIT));
        assert!(finishes(high), "{source} on {subject:?}");
        while low < high {
            let mid = low + (high - low) / 2;
            if finishes(mid) {
                high = mid;
            } else {
                low = mid + 1;
            }
        }
        low
    }

    /// PCRE2's own step counts, interpreted and JIT, stay within `pcre_work_bound` on
    /// subjects built to make it backtrack.
    #[test]
    fn pcre2_steps_stay_within_the_bound() {
        let cases = [
            ("^a*a*a*b$", "a".repeat(30) + "c"),
            ("^a*a*a*b$", "a".repeat(30) + "ba"),
            ("^[ab]+[ab]+[ab]{2,}c$", "ab".repeat(15)),
            ("^a?a?a?a?a?a*a{2,5}a+$", "a".repeat(25) + "b"),
            ("^[a-zA-Z0-9._%+-]+@[a-zA-Z0-9.-]+\\.[a-zA-Z]{2,}$", "a@".to_owned() + &"a.".repeat(17) + "a"),
            ("^[a-zA-Z0-9._%+-]+@[a-zA-Z0-9.-]+\\.[a-zA-Z]{2,}$", "a.".repeat(17) + "@a"),
            ("^\\d+\\d+$", "1".repeat(100) + "x"),
            ("^[a-z]*[a-z]*[a-z]*[a-z]*$", "abcdefghij".repeat(2) + "0"),
            ("^a*a*a*a*a*$", "a".repeat(16) + "b"),
            ("^\\w*[ab]{2}$", "a".repeat(300) + "c"),
            ("^[ab]*a[ab]{0,3}$", "ab".repeat(100) + "bbbbb"),
        ];
        for (source, subject) in cases {
            let atoms = atoms(source).unwrap();
            let variable = atoms.iter().filter(|atom| atom.is_variable()).count() as u64;
            let bound = pcre_work_bound(subject.len() as u64, variable, positions(&atoms).len() as u64);
            for jit in [false, true] {
                let steps = steps_needed(source, &subject, jit);
                assert!(steps <= bound, "{source} on {subject:?} (jit {jit}): {steps} steps, bound {bound}");
            }
        }
    }

    /// A deterministic xorshift generator.
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }

        fn pick<'a, T: ?Sized>(&mut self, items: &[&'a T]) -> &'a T {
            items[(self.next() % items.len() as u64) as usize]
        }
    }

    /// Random linear patterns over a small alphabet, on random subjects and on subjects drawn
    /// from the pattern itself: the fast path agrees with PCRE2 whenever it decides.
    #[test]
    fn random_linear_patterns_match_as_pcre2_does() {
        let sets = ["a", "b", "[ab]", "\\.", "[a.]", "\\d", "[0-9a]", "\\w", "[b-]", "[\\-\\\\]"];
        let quantifiers = ["", "", "?", "*", "+", "{2}", "{0,2}", "{1,3}", "{2,}", "{0}", "{0,}"];
        let alphabet = ["a", "b", "1", ".", "-", "_", "\\", "\n", "é", "c"];
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let (mut compared, mut matched) = (0, 0);
        for _ in 0..1500 {
            let atom_count = 1 + rng.next() % 5;
            let body: String =
                (0..atom_count).map(|_| format!("{}{}", rng.pick(&sets), rng.pick(&quantifiers))).collect();
            let source = format!("^{body}$");
            let pattern = Pattern::new(&source, Dialect::Utf).unwrap();
            assert!(pattern.fast.is_some(), "{source} should take the fast path");
            let atoms = atoms(&source).unwrap();
            for round in 0..16 {
                let subject: String = if round % 2 == 0 {
                    (0..rng.next() % 9).map(|_| rng.pick(&alphabet)).collect()
                } else {
                    let drawn: String = atoms
                        .iter()
                        .map(|atom| {
                            let members = members(atom.set);
                            let count = atom.min + (rng.next() % 3) as usize;
                            let count = atom.max.map_or(count, |max| count.min(max));
                            let pick = |rng: &mut Rng| members[(rng.next() % members.len() as u64) as usize];
                            (0..count).map(|_| pick(&mut rng)).collect::<String>()
                        })
                        .collect();
                    if round % 4 == 1 {
                        drawn
                    } else {
                        drawn + rng.pick(&["\n", "\n\n", "a", ""])
                    }
                };
                let pcre = pattern.regex.is_match(subject.as_bytes()).unwrap();
                if let Some(fast) = fast_verdict(&pattern, &subject) {
                    assert_eq!(fast, pcre, "{source} on {subject:?}");
                    compared += 1;
                    matched += usize::from(pcre);
                }
            }
        }
        assert!(compared >= 20_000, "{compared} comparisons");
        assert!(matched >= compared / 5, "{matched} of {compared} matched");
    }

    /// mongod 6.0 matches `patternProperties` byte by byte and `pattern` by characters.
    #[test]
    fn dialects_match_bytes_or_characters() {
        let one = |dialect| Pattern::new("^.$", dialect).unwrap();
        assert!(!one(Dialect::Bytes).is_match("é"));
        assert!(Pattern::new("^..$", Dialect::Bytes).unwrap().is_match("é"));
        assert!(one(Dialect::Utf).is_match("é"));
        assert!(!Pattern::new("^..$", Dialect::Utf).unwrap().is_match("é"));
        let big = Pattern::new("\\x{100}", Dialect::Bytes).expect_err("refused byte by byte");
        assert!(big.contains("too large"), "{big}");
        assert!(Pattern::new("^\\x{100}$", Dialect::Utf).unwrap().is_match("\u{100}"));
    }

    /// The regexes run on the vendored PCRE2 (the dialect the differential tests prove against
    /// mongod), whatever libpcre2-8 the build machine has.
    #[test]
    fn patterns_run_on_the_vendored_pcre2() {
        assert_eq!(mongo_schema_pcre2::version(), mongo_schema_pcre2::VENDORED_VERSION);
        assert!(mongo_schema_pcre2::VENDORED_VERSION.starts_with("10.46 "), "{}", mongo_schema_pcre2::VENDORED_VERSION);
    }

    /// Compile errors count offsets in the user's pattern, not in the prefixed one PCRE2 saw.
    #[test]
    fn compile_error_offsets_are_the_users() {
        for (source, offset) in [("([", 2), ("ab)", 2), ("a{2,1}", 5), ("(?<n>a)(?<n>b)", 12)] {
            for dialect in [Dialect::Utf, Dialect::Bytes] {
                let err = Pattern::new(source, dialect).expect_err("refused");
                assert!(err.ends_with(&format!("(at offset {offset} of the pattern)")), "{source}: {err}");
                assert!(!err.contains("PCRE2:"), "{err}");
            }
        }
    }
}
