//! The PCRE2 that mongo-schema's local validator runs: PCRE2 10.46, vendored in `upstream/`
//! and compiled by this crate's build script, never a system library (see README.md).
//!
//! Every external symbol of the C library is renamed with the prefix `mongo_schema_`
//! (`mongo_schema_pcre2_compile_8`, ...), so another PCRE2 in the same binary (a system
//! libpcre2-8 that pcre2-sys links, or pcre2-sys's own static copy) can neither clash with it
//! nor be called in its place.
//!
//! The API is what the validator needs and no more: compile a pattern ([`RegexBuilder`]), in
//! UTF mode or not, with the JIT if available, and ask whether it matches somewhere in a
//! subject ([`Regex::is_match`]).

#![deny(unsafe_op_in_unsafe_fn, clippy::undocumented_unsafe_blocks)]
#![warn(missing_docs)]

use std::cell::RefCell;
use std::ffi::c_int;
use std::fmt;
use std::ptr::{self, NonNull};

/// The declarations of the prefixed C functions this crate calls (from `upstream/include/pcre2.h`).
mod ffi {
    use std::ffi::{c_int, c_void};

    /// `pcre2_code_8`.
    #[repr(C)]
    pub struct Code {
        _opaque: [u8; 0],
    }

    /// `pcre2_match_data_8`.
    #[repr(C)]
    pub struct MatchData {
        _opaque: [u8; 0],
    }

    /// `pcre2_match_context_8`.
    #[repr(C)]
    pub struct MatchContext {
        _opaque: [u8; 0],
    }

    /// `pcre2_jit_stack_8`.
    #[repr(C)]
    pub struct JitStack {
        _opaque: [u8; 0],
    }

    /// `pcre2_general_context_8` and `pcre2_compile_context_8`: always passed as NULL here.
    #[repr(C)]
    pub struct Context {
        _opaque: [u8; 0],
    }

    /// `pcre2_jit_callback_8`.
    pub type JitCallback = Option<unsafe extern "C" fn(*mut c_void) -> *mut JitStack>;

    pub const PCRE2_UTF: u32 = 0x0008_0000;
    pub const PCRE2_JIT_COMPLETE: u32 = 0x0000_0001;
    pub const PCRE2_ERROR_NOMATCH: c_int = -1;
    pub const PCRE2_CONFIG_VERSION: u32 = 11;

    unsafe extern "C" {
        #[link_name = "mongo_schema_pcre2_compile_8"]
        pub fn compile(
            pattern: *const u8,
            length: usize,
            options: u32,
            error_code: *mut c_int,
            error_offset: *mut usize,
            context: *mut Context,
        ) -> *mut Code;
        #[link_name = "mongo_schema_pcre2_code_free_8"]
        pub fn code_free(code: *mut Code);
        #[link_name = "mongo_schema_pcre2_jit_compile_8"]
        pub fn jit_compile(code: *mut Code, options: u32) -> c_int;
        #[link_name = "mongo_schema_pcre2_get_error_message_8"]
        pub fn get_error_message(error_code: c_int, buffer: *mut u8, length: usize) -> c_int;
        #[link_name = "mongo_schema_pcre2_config_8"]
        pub fn config(what: u32, where_: *mut c_void) -> c_int;
        #[link_name = "mongo_schema_pcre2_match_data_create_8"]
        pub fn match_data_create(pairs: u32, context: *mut Context) -> *mut MatchData;
        #[link_name = "mongo_schema_pcre2_match_data_free_8"]
        pub fn match_data_free(data: *mut MatchData);
        #[link_name = "mongo_schema_pcre2_match_context_create_8"]
        pub fn match_context_create(context: *mut Context) -> *mut MatchContext;
        #[link_name = "mongo_schema_pcre2_match_context_free_8"]
        pub fn match_context_free(context: *mut MatchContext);
        #[link_name = "mongo_schema_pcre2_jit_stack_create_8"]
        pub fn jit_stack_create(start: usize, max: usize, context: *mut Context) -> *mut JitStack;
        #[link_name = "mongo_schema_pcre2_jit_stack_free_8"]
        pub fn jit_stack_free(stack: *mut JitStack);
        #[link_name = "mongo_schema_pcre2_jit_stack_assign_8"]
        pub fn jit_stack_assign(context: *mut MatchContext, callback: JitCallback, data: *mut c_void);
        #[link_name = "mongo_schema_pcre2_match_8"]
        pub fn match_(
            code: *const Code,
            subject: *const u8,
            length: usize,
            start: usize,
            options: u32,
            data: *mut MatchData,
            context: *mut MatchContext,
        ) -> c_int;
    }
}

/// The version of the vendored PCRE2, as [`version`] reports it ("10.46 2025-08-27"): taken from
/// `upstream/include/pcre2.h` at build time.
pub const VENDORED_VERSION: &str = env!("MONGO_SCHEMA_PCRE2_VENDORED_VERSION");

/// The version of the PCRE2 linked into this binary, as its `pcre2_config(PCRE2_CONFIG_VERSION)`
/// reports it: always [`VENDORED_VERSION`].
pub fn version() -> String {
    let mut buffer = [0u8; 64];
    // SAFETY: PCRE2_CONFIG_VERSION writes a NUL-terminated string of at most 24 code units
    // (PCRE2's documented bound) into `where`; the buffer holds 64.
    let written = unsafe { ffi::config(ffi::PCRE2_CONFIG_VERSION, buffer.as_mut_ptr().cast()) };
    let written = usize::try_from(written).expect("PCRE2_CONFIG_VERSION is a known option");
    // `written` counts the terminating NUL.
    String::from_utf8_lossy(&buffer[..written.saturating_sub(1)]).into_owned()
}

/// When to compile a pattern with PCRE2's JIT.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Jit {
    Never,
    /// When the JIT is available (a pattern the JIT refuses is interpreted).
    Attempt,
    /// Always: a JIT failure is a build error.
    Always,
}

/// How to compile a pattern: UTF mode, JIT, JIT stack. No other option is set, so PCRE2's
/// defaults hold (no flags; newline LF; PCRE2's built-in match and heap limits, which a pattern
/// may lower with `(*LIMIT_MATCH=...)` and `(*LIMIT_HEAP=...)`).
#[derive(Clone, Debug)]
pub struct RegexBuilder {
    utf: bool,
    jit: Jit,
    max_jit_stack_size: Option<usize>,
}

impl Default for RegexBuilder {
    fn default() -> Self {
        RegexBuilder::new()
    }
}

impl RegexBuilder {
    /// No UTF mode, no JIT, PCRE2's default JIT stack (32 KiB of the machine stack).
    pub fn new() -> RegexBuilder {
        RegexBuilder { utf: false, jit: Jit::Never, max_jit_stack_size: None }
    }

    /// UTF mode (`PCRE2_UTF`): the pattern and subjects are UTF-8 and `.` is one character;
    /// otherwise they are bytes.
    pub fn utf(&mut self, yes: bool) -> &mut RegexBuilder {
        self.utf = yes;
        self
    }

    /// Compiles with the JIT (`yes`), failing the build when the JIT cannot, or without it.
    pub fn jit(&mut self, yes: bool) -> &mut RegexBuilder {
        self.jit = if yes { Jit::Always } else { Jit::Never };
        self
    }

    /// Compiles with the JIT when it is available and accepts the pattern, otherwise
    /// interprets (`yes`); or never uses the JIT.
    pub fn jit_if_available(&mut self, yes: bool) -> &mut RegexBuilder {
        self.jit = if yes { Jit::Attempt } else { Jit::Never };
        self
    }

    /// The largest JIT stack a match of a JIT-compiled pattern may grow to, in bytes (`None`:
    /// PCRE2's 32 KiB on the machine stack). Each thread has its own stack.
    pub fn max_jit_stack_size(&mut self, bytes: Option<usize>) -> &mut RegexBuilder {
        self.max_jit_stack_size = bytes;
        self
    }

    /// Compiles `pattern`. The error is PCRE2's, with the offset in `pattern` where it stopped.
    pub fn build(&self, pattern: &str) -> Result<Regex, Error> {
        let options = if self.utf { ffi::PCRE2_UTF } else { 0 };
        let (mut error_code, mut error_offset): (c_int, usize) = (0, 0);
        // SAFETY: `pattern` is valid for `pattern.len()` bytes (PCRE2 reads no further: the
        // length is given, so no NUL is needed); the error out-pointers are valid locals; a NULL
        // compile context means PCRE2's defaults.
        let code = unsafe {
            ffi::compile(pattern.as_ptr(), pattern.len(), options, &mut error_code, &mut error_offset, ptr::null_mut())
        };
        let Some(code) = NonNull::new(code) else {
            return Err(Error::new(ErrorKind::Compile, error_code, Some(error_offset)));
        };
        let mut regex = Regex { code, jit: false, max_jit_stack_size: self.max_jit_stack_size };
        if self.jit != Jit::Never {
            // SAFETY: `regex.code` is a live compiled pattern that nothing else uses yet (JIT
            // compilation modifies it, so it must not run while another thread matches).
            let rc = unsafe { ffi::jit_compile(regex.code.as_ptr(), ffi::PCRE2_JIT_COMPLETE) };
            match rc {
                0 => regex.jit = true,
                _ if self.jit == Jit::Always => return Err(Error::new(ErrorKind::Jit, rc, None)),
                _ => {}
            }
        }
        Ok(regex)
    }
}

/// A compiled pattern. Matching takes `&self` and may run on many threads at once: each thread
/// matches with its own scratch space (match data, match context, JIT stack).
pub struct Regex {
    code: NonNull<ffi::Code>,
    /// Whether the JIT compiled the pattern.
    jit: bool,
    max_jit_stack_size: Option<usize>,
}

// SAFETY: a compiled pattern (JIT code included) is read-only once `build` returns; PCRE2
// documents that it may be shared by threads that match with it concurrently ("MULTITHREADING"
// in pcre2api), each with its own match data, match context and JIT stack, as `is_match`
// does. `Drop` frees it only when no reference is left.
unsafe impl Send for Regex {}
// SAFETY: as for `Send`: `&Regex` only ever matches, which reads the compiled pattern.
unsafe impl Sync for Regex {}

impl Drop for Regex {
    fn drop(&mut self) {
        // SAFETY: `code` came from `pcre2_compile` and is freed once, here; no match can be
        // running, since matching borrows `self`.
        unsafe { ffi::code_free(self.code.as_ptr()) }
    }
}

impl fmt::Debug for Regex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Regex").field("jit", &self.jit).finish_non_exhaustive()
    }
}

impl Regex {
    /// Whether the pattern matches somewhere in `subject` (an unanchored search from its
    /// start). An error is a match error of PCRE2's: a match or heap limit hit, a JIT stack
    /// exhausted, or, in UTF mode, a subject that is not valid UTF-8.
    pub fn is_match(&self, subject: &[u8]) -> Result<bool, Error> {
        let stack = if self.jit { self.max_jit_stack_size } else { None };
        let run = |scratch: &Scratch| self.run(scratch, subject);
        // One scratch per thread and JIT stack size, made on first use and kept for the
        // thread's lifetime (PCRE2 keeps its interpreter's heap frames in the match data).
        SCRATCH
            .try_with(|cell| match cell.try_borrow_mut() {
                Ok(mut all) => {
                    let at = match all.iter().position(|scratch| scratch.stack_max == stack) {
                        Some(at) => at,
                        None => {
                            all.push(Scratch::new(stack));
                            all.len() - 1
                        }
                    };
                    run(&all[at])
                }
                // Unreachable (nothing matches from inside a match), but never a panic.
                Err(_) => run(&Scratch::new(stack)),
            })
            // The thread's storage is being torn down.
            .unwrap_or_else(|_| run(&Scratch::new(stack)))
    }

    fn run(&self, scratch: &Scratch, subject: &[u8]) -> Result<bool, Error> {
        // Some PCRE2 versions read through the subject pointer even for an empty subject: give
        // them a real byte (the length stays 0).
        static EMPTY: [u8; 1] = [0];
        let pointer = if subject.is_empty() { EMPTY.as_ptr() } else { subject.as_ptr() };
        // SAFETY: `code` is a live compiled pattern, only read here; `pointer` is valid for
        // `subject.len()` bytes; `scratch`'s match data and context belong to this thread
        // (a `Scratch` is never shared between threads) and live until it is dropped, and its
        // JIT stack, if any, is assigned to its context. No option bypasses PCRE2's checks
        // (the UTF check in UTF mode included).
        let rc = unsafe {
            ffi::match_(
                self.code.as_ptr(),
                pointer,
                subject.len(),
                0,
                0,
                scratch.data.as_ptr(),
                scratch.context.as_ptr(),
            )
        };
        match rc {
            // 0: a match whose captures do not fit the one-pair match data.
            0.. => Ok(true),
            ffi::PCRE2_ERROR_NOMATCH => Ok(false),
            _ => Err(Error::new(ErrorKind::Match, rc, None)),
        }
    }
}

thread_local! {
    static SCRATCH: RefCell<Vec<Scratch>> = const { RefCell::new(Vec::new()) };
}

/// One thread's mutable state for matching: match data with one pair (`is_match` reads no
/// captures), a match context, and the JIT stack assigned to it.
struct Scratch {
    /// The JIT stack's maximum size (`None`: no JIT stack, PCRE2's default).
    stack_max: Option<usize>,
    data: NonNull<ffi::MatchData>,
    context: NonNull<ffi::MatchContext>,
    stack: Option<NonNull<ffi::JitStack>>,
}

impl Scratch {
    fn new(stack_max: Option<usize>) -> Scratch {
        // SAFETY: a NULL general context means malloc/free; a NULL result is handled.
        let data = unsafe { ffi::match_data_create(1, ptr::null_mut()) };
        let data = NonNull::new(data).expect("PCRE2 could not allocate match data");
        // SAFETY: as above.
        let context = unsafe { ffi::match_context_create(ptr::null_mut()) };
        let context = NonNull::new(context).expect("PCRE2 could not allocate a match context");
        let stack = stack_max.map(|max| {
            // SAFETY: as above; PCRE2 rounds the sizes itself and refuses a start above max.
            let stack = unsafe { ffi::jit_stack_create(max.min(32 * 1024), max, ptr::null_mut()) };
            let stack = NonNull::new(stack).expect("PCRE2 could not allocate a JIT stack");
            // SAFETY: `context` and `stack` are live and are freed together (`Drop`), the stack
            // after the context is no longer used; a NULL callback makes `data` the stack itself.
            unsafe { ffi::jit_stack_assign(context.as_ptr(), None, stack.as_ptr().cast()) };
            stack
        });
        Scratch { stack_max, data, context, stack }
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        // SAFETY: each pointer came from its `create` function and is freed once, here; no
        // match is running with them (a `Scratch` is used by one thread, within a borrow).
        unsafe {
            ffi::match_context_free(self.context.as_ptr());
            ffi::match_data_free(self.data.as_ptr());
            if let Some(stack) = self.stack {
                ffi::jit_stack_free(stack.as_ptr());
            }
        }
    }
}

/// What failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// PCRE2 refused the pattern.
    Compile,
    /// The JIT could not compile the pattern (with [`RegexBuilder::jit`]).
    Jit,
    /// A match failed: a limit was hit, or the subject is not valid UTF-8 in UTF mode.
    Match,
}

/// An error of PCRE2's: its code, its message and, for a compile error, the offset in the
/// pattern where it stopped.
#[derive(Clone)]
pub struct Error {
    kind: ErrorKind,
    code: c_int,
    offset: Option<usize>,
    message: String,
}

impl Error {
    fn new(kind: ErrorKind, code: c_int, offset: Option<usize>) -> Error {
        let mut buffer = [0u8; 256];
        // SAFETY: the buffer is valid for its length, which PCRE2 never writes past; a negative
        // result (an unknown code, or a message cut short) is handled.
        let length = unsafe { ffi::get_error_message(code, buffer.as_mut_ptr(), buffer.len()) };
        let message = match usize::try_from(length) {
            Ok(length) => String::from_utf8_lossy(&buffer[..length]).into_owned(),
            Err(_) => format!("PCRE2 error {code}"),
        };
        Error { kind, code, offset, message }
    }

    /// What failed.
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// PCRE2's error code (negative for match errors, positive for compile errors).
    pub fn code(&self) -> i32 {
        self.code
    }

    /// For a compile error, the offset in the pattern (in code units) where PCRE2 stopped.
    pub fn offset(&self) -> Option<usize> {
        self.offset
    }

    /// PCRE2's message for the code ("missing terminating ] for character class").
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.kind, self.offset) {
            (ErrorKind::Compile, Some(offset)) => {
                write!(f, "PCRE2: error compiling pattern at offset {offset}: {}", self.message)
            }
            (ErrorKind::Compile, None) => write!(f, "PCRE2: error compiling pattern: {}", self.message),
            (ErrorKind::Jit, _) => write!(f, "PCRE2: error JIT compiling pattern: {}", self.message),
            (ErrorKind::Match, _) => write!(f, "PCRE2: error matching: {}", self.message),
        }
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Error")
            .field("kind", &self.kind)
            .field("code", &self.code)
            .field("offset", &self.offset)
            .field("message", &self.message)
            .finish()
    }
}

impl std::error::Error for Error {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn version_is_the_vendored_one() {
        assert_eq!(version(), VENDORED_VERSION);
        assert!(VENDORED_VERSION.starts_with("10.46 "), "{VENDORED_VERSION}");
    }

    #[test]
    fn matches_in_both_modes_with_and_without_jit() {
        for jit in [false, true] {
            let utf = RegexBuilder::new().utf(true).jit_if_available(jit).build("^.$").unwrap();
            assert!(utf.is_match("é".as_bytes()).unwrap());
            let bytes = RegexBuilder::new().jit_if_available(jit).build("^.$").unwrap();
            assert!(!bytes.is_match("é".as_bytes()).unwrap());
            let search = RegexBuilder::new().jit(jit).max_jit_stack_size(Some(1 << 20)).build("b+").unwrap();
            assert!(search.is_match(b"abbc").unwrap());
            assert!(!search.is_match(b"").unwrap());
            assert!(!search.is_match(b"ac").unwrap());
            // A match whose captures do not fit the scratch's one pair is still a match.
            let groups = RegexBuilder::new().jit(jit).build("(a)(b)(c)").unwrap();
            assert!(groups.is_match(b"xabc").unwrap());
        }
    }

    #[test]
    fn compile_errors_have_an_offset_and_a_message() {
        let err = RegexBuilder::new().build("ab[").unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Compile);
        assert_eq!(err.offset(), Some(3));
        assert_eq!(err.message(), "missing terminating ] for character class");
        assert_eq!(
            err.to_string(),
            "PCRE2: error compiling pattern at offset 3: missing terminating ] for character class"
        );
    }

    #[test]
    fn limits_and_invalid_utf_are_match_errors() {
        for jit in [false, true] {
            let hostile = RegexBuilder::new().jit(jit).build("(*LIMIT_MATCH=1000)^(a+)+$").unwrap();
            let err = hostile.is_match(&[b'a'; 40].iter().chain(b"b").copied().collect::<Vec<u8>>()).unwrap_err();
            assert_eq!(err.kind(), ErrorKind::Match);
            assert_eq!(err.message(), "match limit exceeded");
        }
        let utf = RegexBuilder::new().utf(true).build("a").unwrap();
        assert_eq!(utf.is_match(b"\xff").unwrap_err().kind(), ErrorKind::Match);
    }

    #[test]
    fn threads_match_concurrently() {
        let regex = RegexBuilder::new().utf(true).jit_if_available(true).build("^[a-z]+@[a-z]+\\.com$").unwrap();
        std::thread::scope(|scope| {
            for n in 0..4 {
                let regex = &regex;
                scope.spawn(move || {
                    for i in 0..1000 {
                        let subject = format!("user{}@example.com", n * i);
                        assert!(!regex.is_match(subject.as_bytes()).unwrap());
                        assert!(regex.is_match(b"user@example.com").unwrap());
                    }
                });
            }
        });
    }

    /// Every symbol the archive defines or references with `pcre2` in its name carries the
    /// prefix, so no other PCRE2 in the binary can clash with this one or be called in its
    /// place (needs `nm`, from binutils or LLVM; skipped without it).
    #[test]
    #[cfg(unix)]
    fn every_symbol_is_prefixed() {
        let archive = concat!(env!("OUT_DIR"), "/libmongo_schema_pcre2.a");
        let output = match std::process::Command::new("nm").arg(archive).output() {
            Ok(output) if output.status.success() => output,
            _ => {
                eprintln!("skipped: no working `nm` for {archive}");
                return;
            }
        };
        let listing = String::from_utf8_lossy(&output.stdout);
        // `ADDRESS KIND NAME` for a definition, `U NAME` for a reference; an upper-case kind is
        // external. On Mach-O every C name has a leading underscore.
        let symbols: Vec<(&str, &str)> = listing
            .lines()
            .filter_map(|line| match line.split_whitespace().collect::<Vec<_>>()[..] {
                [_, kind, name] | [kind, name] if kind.len() == 1 => Some((kind, name)),
                _ => None,
            })
            .collect();
        let prefixed = |name: &str| name.trim_start_matches('_').starts_with("mongo_schema_");
        let defined: Vec<&str> = symbols
            .iter()
            .filter(|(kind, _)| *kind != "U" && kind.starts_with(|c: char| c.is_ascii_uppercase()))
            .map(|(_, name)| *name)
            .collect();
        assert!(defined.len() > 100, "{} external definitions in {archive}", defined.len());
        let unprefixed: Vec<&str> = defined.iter().copied().filter(|name| !prefixed(name)).collect();
        assert!(unprefixed.is_empty(), "external definitions without the prefix: {unprefixed:?}");
        let references: Vec<&str> = symbols
            .iter()
            .filter(|(kind, name)| *kind == "U" && name.to_ascii_lowercase().contains("pcre2") && !prefixed(name))
            .map(|(_, name)| *name)
            .collect();
        assert!(references.is_empty(), "references to an unprefixed PCRE2 name: {references:?}");
    }
}
