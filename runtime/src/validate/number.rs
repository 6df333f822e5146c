//! BSON numbers compared the way mongod compares them: int, long, double and decimal on one
//! number line, with decimal arithmetic for `multipleOf`.

use std::cmp::Ordering;
use std::fmt::Write;

/// A numeric BSON value (int is widened to long).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum BsonNumber {
    Long(i64),
    Double(f64),
    Decimal(Dec),
}

/// An IEEE 754-2008 decimal128 value: `(-1)^neg * coef * 10^exp`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Dec {
    Finite { neg: bool, coef: u128, exp: i32 },
    Inf { neg: bool },
    NaN,
}

const MAX_COEF: u128 = 9_999_999_999_999_999_999_999_999_999_999_999;
const EXP_BIAS: i32 = 6176;

impl Dec {
    /// Decodes the BID encoding stored in BSON (little-endian, 16 bytes).
    pub(crate) fn from_bytes(bytes: [u8; 16]) -> Dec {
        let bits = u128::from_le_bytes(bytes);
        let neg = bits >> 127 == 1;
        let combination = (bits >> 122) & 0x1f;
        if combination == 0x1f {
            return Dec::NaN;
        }
        if combination == 0x1e {
            return Dec::Inf { neg };
        }
        // The "11" form has an implied 100 prefix: always above MAX_COEF, so non-canonical zero.
        let (exp, coef) = if (bits >> 125) & 0b11 == 0b11 {
            ((bits >> 111) & 0x3fff, 0)
        } else {
            ((bits >> 113) & 0x3fff, bits & ((1u128 << 113) - 1))
        };
        let coef = if coef > MAX_COEF { 0 } else { coef };
        Dec::Finite { neg, coef, exp: exp as i32 - EXP_BIAS }
    }

    pub(crate) fn from_i64(v: i64) -> Dec {
        Dec::Finite { neg: v < 0, coef: u128::from(v.unsigned_abs()), exp: 0 }
    }

    /// The double rounded to `digits` significant digits, half to even (mongod's
    /// `Decimal128(double, kRoundTo34Digits)`; 15 digits is its default conversion, which
    /// first rounds to 34 digits then quantizes, so we do the same double rounding).
    pub(crate) fn from_f64(v: f64, digits: usize) -> Dec {
        if v.is_nan() {
            return Dec::NaN;
        }
        if v.is_infinite() {
            return Dec::Inf { neg: v < 0.0 };
        }
        let (neg, coef, exp) = round_f64_34(v);
        if digits >= 34 || coef == 0 {
            return Dec::Finite { neg, coef, exp };
        }
        let (coef, exp) = round_coef(coef, exp, digits);
        Dec::Finite { neg, coef, exp }
    }

    pub(crate) fn is_nan(self) -> bool {
        matches!(self, Dec::NaN)
    }

    /// The BID encoding stored in BSON; `None` when the exponent is out of range.
    pub(crate) fn to_bytes(self) -> Option<[u8; 16]> {
        let bits = match self {
            Dec::NaN => 0x1fu128 << 122,
            Dec::Inf { neg } => (u128::from(neg) << 127) | (0x1eu128 << 122),
            Dec::Finite { neg, coef, exp } => {
                let biased = exp + EXP_BIAS;
                if !(0..=0x2fff).contains(&biased) || coef > MAX_COEF {
                    return None;
                }
                (u128::from(neg) << 127) | ((biased as u128) << 113) | coef
            }
        };
        Some(bits.to_le_bytes())
    }

    /// `self + other` rounded to 34 digits half to even, as IEEE 754 decimal arithmetic
    /// gives it; `None` when the exact sum does not fit this crate's 128-bit arithmetic.
    pub(crate) fn add(self, other: Dec) -> Option<Dec> {
        let (Dec::Finite { neg: na, coef: ca, exp: ea }, Dec::Finite { neg: nb, coef: cb, exp: eb }) = (self, other)
        else {
            return Some(match (self, other) {
                (Dec::NaN, _) | (_, Dec::NaN) => Dec::NaN,
                (Dec::Inf { neg: x }, Dec::Inf { neg: y }) if x != y => Dec::NaN,
                (Dec::Inf { neg }, _) | (_, Dec::Inf { neg }) => Dec::Inf { neg },
                _ => Dec::NaN,
            });
        };
        let exp = ea.min(eb);
        let scale = |c: u128, e: i32| 10u128.checked_pow((e - exp) as u32).and_then(|p| c.checked_mul(p));
        let (sa, sb) = (scale(ca, ea)?, scale(cb, eb)?);
        if sa >= 1 << 126 || sb >= 1 << 126 {
            return None;
        }
        let (neg, coef) = match (na, nb) {
            (x, y) if x == y => (x, sa + sb),
            (x, _) if sa >= sb => (x && sa != sb, sa - sb),
            (_, y) => (y, sb - sa),
        };
        // An exact zero sum of opposite signs is +0 (round half even); equal signs keep theirs.
        let neg = if coef == 0 { na && nb } else { neg };
        let (coef, exp) = round_coef(coef, exp, 34);
        Some(Dec::Finite { neg, coef, exp })
    }

    /// `self * other` rounded to 34 digits half to even; `None` when the exact product does
    /// not fit 128 bits.
    pub(crate) fn mul(self, other: Dec) -> Option<Dec> {
        match (self, other) {
            (Dec::NaN, _) | (_, Dec::NaN) => Some(Dec::NaN),
            (Dec::Inf { neg: x }, Dec::Inf { neg: y }) => Some(Dec::Inf { neg: x != y }),
            (Dec::Inf { neg: x }, Dec::Finite { neg: y, coef, .. })
            | (Dec::Finite { neg: y, coef, .. }, Dec::Inf { neg: x }) => {
                Some(if coef == 0 { Dec::NaN } else { Dec::Inf { neg: x != y } })
            }
            (Dec::Finite { neg: na, coef: ca, exp: ea }, Dec::Finite { neg: nb, coef: cb, exp: eb }) => {
                let (coef, exp) = round_coef(ca.checked_mul(cb)?, ea + eb, 34);
                Some(Dec::Finite { neg: na != nb, coef, exp })
            }
        }
    }

    pub(crate) fn is_zero(self) -> bool {
        matches!(self, Dec::Finite { coef: 0, .. })
    }

    pub(crate) fn is_negative(self) -> bool {
        matches!(self, Dec::Finite { neg: true, .. } | Dec::Inf { neg: true })
    }
}

/// A finite double written out exactly to 34 significant digits: (sign, coefficient, exponent).
fn round_f64_34(v: f64) -> (bool, u128, i32) {
    let mut buf = StackStr::<64>::new();
    // Rust prints the exact binary value rounded half-to-even, like the BID library.
    let _ = write!(buf, "{:.33e}", v.abs());
    let text = buf.as_str();
    let (mantissa, exponent) = text.split_once('e').unwrap_or((text, "0"));
    let coef = mantissa.bytes().filter(u8::is_ascii_digit).fold(0u128, |c, d| c * 10 + u128::from(d - b'0'));
    let exp = exponent.parse::<i32>().unwrap_or(0) - 33;
    (v.is_sign_negative(), coef, exp)
}

/// Rounds a coefficient to `digits` significant digits, half to even.
fn round_coef(coef: u128, exp: i32, digits: usize) -> (u128, i32) {
    let count = digit_count(coef);
    if count <= digits {
        return (coef, exp);
    }
    let dropped = (count - digits) as u32;
    let divisor = 10u128.pow(dropped);
    let (quotient, remainder) = (coef / divisor, coef % divisor);
    let half = divisor / 2;
    let up = remainder > half || (remainder == half && quotient % 2 == 1);
    let rounded = quotient + u128::from(up);
    if rounded == 10u128.pow(digits as u32) {
        return (rounded / 10, exp + dropped as i32 + 1);
    }
    (rounded, exp + dropped as i32)
}

fn digit_count(mut v: u128) -> usize {
    let mut count = 1;
    while v >= 10 {
        v /= 10;
        count += 1;
    }
    count
}

impl BsonNumber {
    /// mongod's `numberDecimal()`: exact for integers, 15 significant digits for doubles.
    fn to_dec15(self) -> Dec {
        match self {
            BsonNumber::Long(v) => Dec::from_i64(v),
            BsonNumber::Double(v) => Dec::from_f64(v, 15),
            BsonNumber::Decimal(d) => d,
        }
    }

    /// Whether the value is NaN (double or decimal).
    pub(crate) fn is_nan(self) -> bool {
        match self {
            BsonNumber::Long(_) => false,
            BsonNumber::Double(v) => v.is_nan(),
            BsonNumber::Decimal(d) => d.is_nan(),
        }
    }
}

/// Orders two numbers across types; `None` when either is NaN.
pub(crate) fn compare(a: BsonNumber, b: BsonNumber) -> Option<Ordering> {
    match (a, b) {
        (BsonNumber::Long(x), BsonNumber::Long(y)) => Some(x.cmp(&y)),
        (BsonNumber::Double(x), BsonNumber::Double(y)) => x.partial_cmp(&y),
        (BsonNumber::Long(x), BsonNumber::Double(y)) => cmp_long_double(x, y),
        (BsonNumber::Double(x), BsonNumber::Long(y)) => cmp_long_double(y, x).map(Ordering::reverse),
        (BsonNumber::Decimal(x), BsonNumber::Decimal(y)) => cmp_dec(x, y),
        (BsonNumber::Decimal(x), BsonNumber::Long(y)) => cmp_dec(x, Dec::from_i64(y)),
        (BsonNumber::Long(x), BsonNumber::Decimal(y)) => cmp_dec(Dec::from_i64(x), y),
        (BsonNumber::Decimal(x), BsonNumber::Double(y)) => cmp_dec_double(x, y),
        (BsonNumber::Double(x), BsonNumber::Decimal(y)) => cmp_dec_double(y, x).map(Ordering::reverse),
    }
}

/// A decimal against a double's exact binary value, as mongod compares them: `0.1` is above
/// `Decimal128("0.1000000000000000055511151231257827")`, its 34-digit rounding, and equals
/// no decimal (its exact value has 55 digits).
pub(crate) fn cmp_dec_double(d: Dec, v: f64) -> Option<Ordering> {
    if !v.is_finite() {
        return cmp_dec(d, Dec::from_f64(v, 34));
    }
    let (cut, dropped) = f64_cut_34(v);
    let order = cmp_dec(d, cut)?;
    if !dropped {
        return Some(order);
    }
    // The double lies strictly between `cut` and the next 34-digit value away from zero, in
    // `cut`'s decade, where every decimal (34 digits at most) is a multiple of that step: no
    // decimal lies between them, so one beyond `cut` is beyond the double too.
    Some(match (v < 0.0, order) {
        (false, Ordering::Greater) | (true, Ordering::Greater | Ordering::Equal) => Ordering::Greater,
        _ => Ordering::Less,
    })
}

/// A finite double's exact value cut toward zero to 34 significant digits, and whether a
/// nonzero digit was dropped (a double's exact expansion has at most 767 digits).
fn f64_cut_34(v: f64) -> (Dec, bool) {
    let mut buf = StackStr::<800>::new();
    let _ = write!(buf, "{:.766e}", v.abs());
    let text = buf.as_str();
    let (mantissa, exponent) = text.split_once('e').unwrap_or((text, "0"));
    let mut digits = mantissa.bytes().filter(u8::is_ascii_digit);
    let coef = digits.by_ref().take(34).fold(0u128, |c, d| c * 10 + u128::from(d - b'0'));
    let dropped = digits.any(|d| d != b'0');
    let exp = exponent.parse::<i32>().unwrap_or(0) - 33;
    (Dec::Finite { neg: v.is_sign_negative(), coef, exp }, dropped)
}

/// BSON equality of numbers: NaN equals NaN, otherwise numeric equality across types.
pub(crate) fn num_eq(a: BsonNumber, b: BsonNumber) -> bool {
    if a.is_nan() || b.is_nan() {
        return a.is_nan() && b.is_nan();
    }
    compare(a, b) == Some(Ordering::Equal)
}

fn cmp_long_double(x: i64, y: f64) -> Option<Ordering> {
    if y.is_nan() {
        return None;
    }
    if y >= 9_223_372_036_854_775_808.0 {
        return Some(Ordering::Less);
    }
    if y < -9_223_372_036_854_775_808.0 {
        return Some(Ordering::Greater);
    }
    let whole = y.trunc();
    let by_whole = x.cmp(&(whole as i64));
    Some(by_whole.then_with(|| 0.0f64.partial_cmp(&(y - whole)).unwrap_or(Ordering::Equal)))
}

fn cmp_dec(a: Dec, b: Dec) -> Option<Ordering> {
    match (a, b) {
        (Dec::NaN, _) | (_, Dec::NaN) => None,
        (Dec::Inf { neg: x }, Dec::Inf { neg: y }) => Some(y.cmp(&x)),
        (Dec::Inf { neg }, _) => Some(if neg { Ordering::Less } else { Ordering::Greater }),
        (_, Dec::Inf { neg }) => Some(if neg { Ordering::Greater } else { Ordering::Less }),
        (Dec::Finite { neg: na, coef: ca, exp: ea }, Dec::Finite { neg: nb, coef: cb, exp: eb }) => {
            Some(cmp_finite((na && ca != 0, ca, ea), (nb && cb != 0, cb, eb)))
        }
    }
}

fn cmp_finite(a: (bool, u128, i32), b: (bool, u128, i32)) -> Ordering {
    let sign = |(neg, coef, _): (bool, u128, i32)| {
        if coef == 0 {
            0
        } else if neg {
            -1
        } else {
            1
        }
    };
    let by_sign = sign(a).cmp(&sign(b));
    if by_sign != Ordering::Equal || sign(a) == 0 {
        return by_sign;
    }
    let magnitude = cmp_magnitude((a.1, a.2), (b.1, b.2));
    if a.0 {
        magnitude.reverse()
    } else {
        magnitude
    }
}

/// Compares `ca * 10^ea` with `cb * 10^eb`, both coefficients non-zero.
fn cmp_magnitude((ca, ea): (u128, i32), (cb, eb): (u128, i32)) -> Ordering {
    let adjusted_a = digit_count(ca) as i32 + ea;
    let adjusted_b = digit_count(cb) as i32 + eb;
    if adjusted_a != adjusted_b {
        return adjusted_a.cmp(&adjusted_b);
    }
    // Same leading position: at most 33 digits apart, so scaling stays below 10^34.
    if ea > eb {
        (ca * 10u128.pow((ea - eb) as u32)).cmp(&cb)
    } else {
        ca.cmp(&(cb * 10u128.pow((eb - ea) as u32)))
    }
}

/// `multipleOf` as mongod evaluates it: decimal remainder of the value's `numberDecimal()` by
/// the divisor is exactly zero, and no IEEE flag was raised.
pub(crate) fn is_multiple_of(value: BsonNumber, divisor: Dec) -> bool {
    match (value.to_dec15(), divisor) {
        (Dec::NaN | Dec::Inf { .. }, _) | (_, Dec::NaN) => false,
        (Dec::Finite { coef, .. }, Dec::Inf { .. }) => coef == 0,
        (Dec::Finite { coef: 0, .. }, _) => true,
        (Dec::Finite { coef: ca, exp: ea, .. }, Dec::Finite { coef: cb, exp: eb, .. }) => {
            cb != 0 && divides(ca, ea, cb, eb)
        }
    }
}

/// The decimal divisor of `multipleOf`, as mongod converts the keyword's value.
pub(crate) fn divisor_of(n: BsonNumber) -> Dec {
    n.to_dec15()
}

/// Whether `cb * 10^eb` divides `ca * 10^ea` exactly.
fn divides(ca: u128, ea: i32, cb: u128, eb: i32) -> bool {
    if ea >= eb {
        let scale = pow_mod(10, (ea - eb) as u32, cb);
        return mul_mod(ca % cb, scale, cb) == 0;
    }
    match 10u128.checked_pow((eb - ea) as u32).and_then(|p| p.checked_mul(cb)) {
        Some(step) => ca.is_multiple_of(step),
        None => false,
    }
}

/// `a * b mod m` for `a, b < m < 2^114`, without overflow (double and add).
fn mul_mod(a: u128, mut b: u128, m: u128) -> u128 {
    let (mut acc, mut base) = (0u128, a % m);
    while b > 0 {
        if b & 1 == 1 {
            acc = (acc + base) % m;
        }
        base = (base << 1) % m;
        b >>= 1;
    }
    acc
}

fn pow_mod(base: u128, mut exp: u32, m: u128) -> u128 {
    let (mut acc, mut base) = (1 % m, base % m);
    while exp > 0 {
        if exp & 1 == 1 {
            acc = mul_mod(acc, base, m);
        }
        base = mul_mod(base, base, m);
        exp >>= 1;
    }
    acc
}

/// A fixed-capacity string on the stack, so number formatting never allocates.
pub(crate) struct StackStr<const N: usize> {
    buf: [u8; N],
    len: usize,
}

impl<const N: usize> StackStr<N> {
    pub(crate) fn new() -> Self {
        StackStr { buf: [0; N], len: 0 }
    }

    pub(crate) fn as_str(&self) -> &str {
        std::str::from_utf8(&self.buf[..self.len]).unwrap_or("")
    }
}

impl<const N: usize> Write for StackStr<N> {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        let end = self.len + s.len();
        if end > N {
            return Err(std::fmt::Error);
        }
        self.buf[self.len..end].copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}
