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

/// A seeded xorshift64* generator, for tests that draw many kinds of values from one stream.
pub struct XorShiftStar(pub u64);

impl XorShiftStar {
    /// The next value of the stream.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// Uniform enough in `0..n`.
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }
}
