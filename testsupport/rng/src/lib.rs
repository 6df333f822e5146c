//! The seeded generator of mongo-schema's tests: the same values on every run, no dependency.
#![forbid(unsafe_code)]

/// A seeded xorshift64 stream for generated inputs: the same values on every run.
pub fn xorshift(mut state: u64) -> impl FnMut() -> u64 {
    move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    }
}
