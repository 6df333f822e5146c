//! BSON numbers compared the way mongod compares them: int, long, double and decimal on one
//! number line, with decimal arithmetic for `multipleOf`. The one number reader of a
//! `$jsonSchema`: the validator compiles its bounds with it, and the view reads them with it.

use std::cmp::Ordering;
use std::fmt::Write;

use crate::bson::Bson;

/// A number a `$jsonSchema` keyword holds (`maximum: 100`, `maxItems: 10`), read exactly
/// whatever its BSON type: an int32, an int64, a double or a Decimal128, compared on mongod's
/// one number line (`Decimal128("0.1")` is below the double `0.1`, whose exact value is
/// `0.1000000000000000055511151231257827...`; the int64 `2^53 + 1` is above the double
/// `2^53`). NaN equals and orders against nothing.
#[derive(Clone, Copy, Debug)]
pub struct Number(BsonNumber);

impl Number {
    /// The number `value` holds; `None` when it is not a number.
    pub fn of(value: &Bson) -> Option<Number> {
        number_of(value).map(Number)
    }

    /// The integer it denotes exactly, when it has one that fits an int64 (`10`, `10.0`,
    /// `Decimal128("1.0E+1")`; not `10.5`, NaN or infinity).
    pub fn integer(self) -> Option<i64> {
        integral(self.0)
    }

    /// A length or a count, as mongod reads `maxLength`, `maxItems`, `maxProperties` and their
    /// minimums: an integer that is not negative.
    pub fn count(self) -> Option<u64> {
        self.integer().and_then(|n| u64::try_from(n).ok())
    }
}

impl PartialEq for Number {
    fn eq(&self, other: &Number) -> bool {
        compare(self.0, other.0) == Some(Ordering::Equal)
    }
}

impl PartialOrd for Number {
    fn partial_cmp(&self, other: &Number) -> Option<Ordering> {
        compare(self.0, other.0)
    }
}

/// A numeric BSON value (int is widened to long).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum BsonNumber {
    Long(i64),
    Double(f64),
    Decimal(Dec),
}

/// An IEEE 754-2008 decimal128 value: `(-1)^neg * coef * 10^exp`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Dec {
    Finite { neg: bool, coef: u128, exp: i32 },
    Inf { neg: bool },
    NaN,
}

const MAX_COEF: u128 = 9_999_999_999_999_999_999_999_999_999_999_999;
const EXP_BIAS: i32 = 6176;

impl Dec {
    /// Decodes the BID encoding stored in BSON (little-endian, 16 bytes).
    pub fn from_bytes(bytes: [u8; 16]) -> Dec {
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

    pub fn from_i64(v: i64) -> Dec {
        Dec::Finite { neg: v < 0, coef: u128::from(v.unsigned_abs()), exp: 0 }
    }

    /// The double rounded to `digits` significant digits, half to even (mongod's
    /// `Decimal128(double, kRoundTo34Digits)`; 15 digits is its default conversion, which
    /// first rounds to 34 digits then quantizes, so we do the same double rounding).
    pub fn from_f64(v: f64, digits: usize) -> Dec {
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

    pub fn is_nan(self) -> bool {
        matches!(self, Dec::NaN)
    }

    /// The BID encoding stored in BSON; `None` when the exponent is out of range.
    pub fn to_bytes(self) -> Option<[u8; 16]> {
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
    pub fn checked_add(self, other: Dec) -> Option<Dec> {
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
    pub fn checked_mul(self, other: Dec) -> Option<Dec> {
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

    pub fn is_zero(self) -> bool {
        matches!(self, Dec::Finite { coef: 0, .. })
    }

    pub fn is_negative(self) -> bool {
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
    pub fn is_nan(self) -> bool {
        match self {
            BsonNumber::Long(_) => false,
            BsonNumber::Double(v) => v.is_nan(),
            BsonNumber::Decimal(d) => d.is_nan(),
        }
    }
}

/// A numeric keyword value (int, long, double or decimal).
pub fn number_of(value: &Bson) -> Option<BsonNumber> {
    match value {
        Bson::Int32(v) => Some(BsonNumber::Long(i64::from(*v))),
        Bson::Int64(v) => Some(BsonNumber::Long(*v)),
        Bson::Double(v) => Some(BsonNumber::Double(*v)),
        Bson::Decimal128(d) => Some(BsonNumber::Decimal(Dec::from_bytes(d.bytes()))),
        _ => None,
    }
}

/// The integer a number denotes exactly, if it has one that fits a long.
pub fn integral(number: BsonNumber) -> Option<i64> {
    match number {
        BsonNumber::Long(v) => Some(v),
        BsonNumber::Double(v) => {
            (v.trunc() == v && (-9.223_372_036_854_776e18..9.223_372_036_854_776e18).contains(&v)).then_some(v as i64)
        }
        BsonNumber::Decimal(d) => decimal_integral(d),
    }
}

fn decimal_integral(d: Dec) -> Option<i64> {
    let Dec::Finite { neg, coef, exp } = d else { return None };
    let magnitude = if exp >= 0 {
        coef.checked_mul(10u128.checked_pow(exp as u32)?)?
    } else {
        let divisor = 10u128.checked_pow(exp.unsigned_abs()).unwrap_or(u128::MAX);
        if coef % divisor != 0 && coef != 0 {
            return None;
        }
        coef / divisor
    };
    let signed = i128::try_from(magnitude).ok()?;
    i64::try_from(if neg { -signed } else { signed }).ok()
}

/// Orders two numbers across types; `None` when either is NaN.
pub fn compare(a: BsonNumber, b: BsonNumber) -> Option<Ordering> {
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
/// no decimal (its exact value has 55 digits). Integer arithmetic decides but for a decimal
/// that is no double and whose nearest double is `v`, which needs `v`'s digits.
pub fn cmp_dec_double(d: Dec, v: f64) -> Option<Ordering> {
    if v.is_nan() {
        return None;
    }
    let Dec::Finite { neg, coef, exp } = d else {
        return match d {
            Dec::Inf { neg: true } => f64::NEG_INFINITY.partial_cmp(&v),
            Dec::Inf { neg: false } => f64::INFINITY.partial_cmp(&v),
            _ => None,
        };
    };
    if let Some(x) = dec_exact_f64(d) {
        return x.partial_cmp(&v);
    }
    // Not a double: the double nearest it orders it against every other double.
    let sign = if neg { "-" } else { "" };
    let mut text = StackStr::<64>::new();
    let _ = write!(text, "{sign}{coef}e{exp}");
    let nearest = text.as_str().parse::<f64>().unwrap_or(f64::NAN);
    if nearest != v {
        return nearest.partial_cmp(&v);
    }
    if v == 0.0 {
        // a decimal too small for any double, and not zero (zero is a double)
        return Some(if neg { Ordering::Less } else { Ordering::Greater });
    }
    // `v` is the double nearest the decimal: rounded to `digits` significant digits (at
    // least the decimal's 34), `v` differs from the decimal unless the two are within half a
    // step of those digits, so more digits are asked for only then; 767 are `v` exactly.
    let magnitude = [40, 100, 767]
        .into_iter()
        .map(|digits| cmp_digits(v.abs(), digits, coef, exp))
        .find(|order| *order != Ordering::Equal)
        .unwrap_or(Ordering::Equal);
    // `magnitude` is |v| against |d|, both of `v`'s sign
    Some(if neg { magnitude } else { magnitude.reverse() })
}

/// The double equal to a finite decimal, if one is: its value is an odd integer under 2^53
/// times a power of two (a decimal's 34 digits hold no more than 48 factors of five).
pub fn dec_exact_f64(d: Dec) -> Option<f64> {
    let Dec::Finite { neg, mut coef, mut exp } = d else { return None };
    let signed = |x: f64| if neg { -x } else { x };
    if coef == 0 {
        return Some(signed(0.0));
    }
    while coef % 10 == 0 {
        coef /= 10;
        exp += 1;
    }
    // coef * 10^exp = odd * 2^twos
    let mut twos = coef.trailing_zeros() as i32;
    let mut odd = coef >> twos;
    if exp >= 0 {
        for _ in 0..exp {
            odd = odd.checked_mul(5).filter(|m| *m < 1 << 53)?;
        }
        twos += exp;
    } else {
        for _ in 0..-exp {
            if !odd.is_multiple_of(5) {
                return None;
            }
            odd /= 5;
        }
        twos += exp;
    }
    if odd >= 1 << 53 {
        return None;
    }
    // odd < 2^53 and |twos| < 2^8: the product is exact
    Some(signed(odd as f64 * 2f64.powi(twos)))
}

/// `x` (finite, positive) rounded to `digits` significant digits, against `coef * 10^exp`
/// (a decimal's coefficient, non-zero): by their leading digit's place, then digit by digit.
fn cmp_digits(x: f64, digits: usize, coef: u128, exp: i32) -> Ordering {
    let mut text = StackStr::<800>::new();
    let _ = write!(text, "{:.*e}", digits - 1, x);
    let (mantissa, exponent) = text.as_str().split_once('e').unwrap_or((text.as_str(), "0"));
    let mut ours = StackStr::<64>::new();
    let _ = write!(ours, "{coef}");
    let theirs_lead = exponent.parse::<i32>().unwrap_or(0);
    let ours_lead = exp + ours.as_str().len() as i32 - 1;
    if theirs_lead != ours_lead {
        return theirs_lead.cmp(&ours_lead);
    }
    let mut a = mantissa.bytes().filter(u8::is_ascii_digit);
    let mut b = ours.as_str().bytes();
    loop {
        match (a.next(), b.next()) {
            (None, None) => return Ordering::Equal,
            (x, y) => match x.unwrap_or(b'0').cmp(&y.unwrap_or(b'0')) {
                Ordering::Equal => continue,
                order => return order,
            },
        }
    }
}

/// BSON equality of numbers: NaN equals NaN, otherwise numeric equality across types.
pub fn num_eq(a: BsonNumber, b: BsonNumber) -> bool {
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
pub fn is_multiple_of(value: BsonNumber, divisor: Dec) -> bool {
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
pub fn divisor_of(n: BsonNumber) -> Dec {
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
pub struct StackStr<const N: usize> {
    buf: [u8; N],
    len: usize,
}

impl<const N: usize> Default for StackStr<N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const N: usize> StackStr<N> {
    pub fn new() -> Self {
        StackStr { buf: [0; N], len: 0 }
    }

    pub fn as_str(&self) -> &str {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// `d` against `v` by `v`'s whole expansion (767 digits hold any double exactly).
    fn by_every_digit(d: Dec, v: f64) -> Ordering {
        let Dec::Finite { neg, coef, exp } = d else { unreachable!("finite decimals only") };
        let sign = |zero: bool, negative: bool| {
            if zero {
                0
            } else if negative {
                -1
            } else {
                1
            }
        };
        let (ds, vs) = (sign(coef == 0, neg), sign(v == 0.0, v < 0.0));
        if ds != vs || ds == 0 {
            return ds.cmp(&vs);
        }
        let magnitude = cmp_digits(v.abs(), 767, coef, exp);
        if neg {
            magnitude
        } else {
            magnitude.reverse()
        }
    }

    fn finite(neg: bool, coef: u128, exp: i32) -> Dec {
        Dec::Finite { neg, coef, exp }
    }

    /// The decimals nearest a double: its 34-digit rounding and the decimals one step on
    /// either side, its shortest form, and its first 17 digits.
    fn near(v: f64) -> Vec<Dec> {
        let Dec::Finite { neg, coef, exp } = Dec::from_f64(v, 34) else { return vec![] };
        let mut out =
            vec![finite(neg, coef, exp), finite(neg, coef + 1, exp), finite(neg, coef.saturating_sub(1), exp)];
        for digits in [17, 0] {
            let text = if digits == 0 { format!("{:e}", v.abs()) } else { format!("{:.*e}", digits - 1, v.abs()) };
            let (mantissa, exponent) = text.split_once('e').unwrap();
            let coef: u128 = mantissa.replace('.', "").parse().unwrap();
            let places = mantissa.split_once('.').map_or(0, |(_, f)| f.len() as i32);
            out.push(finite(neg, coef, exponent.parse::<i32>().unwrap() - places));
        }
        out
    }

    #[test]
    fn a_decimal_against_a_double_is_ordered_by_the_doubles_exact_value() {
        // seeded (xorshift): the same doubles every run
        let mut next = mongo_schema_test_rng::xorshift(0x2026_1126_u64);
        let mut checked = 0;
        for round in 0..20_000 {
            let v = match round % 3 {
                // any finite double, subnormals and the extremes included
                0 => f64::from_bits(next()),
                // an ordinary magnitude
                1 => f64::from_bits(next()).abs().fract() * 10f64.powi((next() % 30) as i32 - 15),
                // a short dyadic value: exactly a decimal of 34 digits or fewer
                _ => (next() % (1 << 20)) as f64 * 2f64.powi((next() % 40) as i32 - 20),
            };
            if !v.is_finite() {
                continue;
            }
            let v = if next().is_multiple_of(2) { -v } else { v };
            for d in near(v) {
                assert_eq!(cmp_dec_double(d, v), Some(by_every_digit(d, v)), "{d:?} against {v:e}");
                checked += 1;
            }
        }
        assert!(checked > 50_000, "{checked} comparisons");
    }

    #[test]
    fn known_orders_and_equalities() {
        let dec = |neg, coef, exp| finite(neg, coef, exp);
        let tenth_34 = dec(false, 1_000_000_000_000_000_055_511_151_231_257_827, -34);
        assert_eq!(cmp_dec_double(tenth_34, 0.1), Some(Ordering::Less));
        assert_eq!(cmp_dec_double(dec(false, 1, -1), 0.1), Some(Ordering::Less));
        assert_eq!(cmp_dec_double(dec(true, 1, -1), -0.1), Some(Ordering::Greater));
        assert_eq!(cmp_dec_double(dec(false, 50, -2), 0.5), Some(Ordering::Equal));
        assert_eq!(cmp_dec_double(dec(false, 1, 300), 1e300), Some(Ordering::Less));
        assert_eq!(cmp_dec_double(dec(false, 1_180_591_620_717_411_303_424, 0), 2f64.powi(70)), Some(Ordering::Equal));
        assert_eq!(cmp_dec_double(dec(true, 0, 5), 0.0), Some(Ordering::Equal));
        assert_eq!(cmp_dec_double(dec(false, 1, -400), 0.0), Some(Ordering::Greater));
        assert_eq!(cmp_dec_double(dec(false, 1, 400), f64::MAX), Some(Ordering::Greater));
        assert_eq!(cmp_dec_double(Dec::Inf { neg: false }, f64::INFINITY), Some(Ordering::Equal));
        assert_eq!(cmp_dec_double(dec(false, 1, 0), f64::NAN), None);
        assert_eq!(dec_exact_f64(dec(false, 5, -1)), Some(0.5));
        assert_eq!(dec_exact_f64(dec(false, 1, -1)), None);
        assert_eq!(dec_exact_f64(dec(true, 9_007_199_254_740_993, 0)), None, "2^53 + 1 is no double");
        assert_eq!(dec_exact_f64(dec(false, 9_007_199_254_740_992_000, -3)), Some(9_007_199_254_740_992.0));
    }
}
