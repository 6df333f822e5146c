//! Numbers as mongod computes them, in the two places an update does arithmetic, with one
//! coercion of a double to Decimal128 for both:
//!
//! * `$inc` and `$mul`, as mongod's `SafeNum` does them: int32 results that overflow widen to
//!   int64, int64 results that overflow are refused, any double makes a double, any decimal a
//!   decimal (doubles converted to 15 significant digits first).
//! * The expressions `$add`, `$multiply` and `$subtract` of a pipeline update ([`Sum`],
//!   [`Product`], [`subtract`]), as mongod's `ExpressionAdd`, `ExpressionMultiply` and
//!   `ExpressionSubtract` do them: the widest operand type wins, an integer overflow gives a
//!   double, `$add` keeps a running double exactly as 34 digits when a decimal arrives.

use mongo_schema_contract::codes::TYPE_MISMATCH;
use mongo_schema_contract::location_code;
use mongo_schema_core::bson::{Bson, DateTime, Decimal128};

use super::format::type_name;
use super::UpdateError;
use mongo_schema_core::view::number::{compare, BsonNumber, Dec};

#[derive(Clone, Copy)]
pub(crate) enum Op {
    Add,
    Mul,
}

/// Why a result could not be computed.
pub(crate) enum ArithError {
    /// The int64 result overflows: mongod refuses the update.
    Overflow,
    /// A decimal result this crate's 128-bit arithmetic cannot compute exactly.
    Decimal,
}

/// Whether `value` is one of the four number types.
pub(crate) fn is_number(value: &Bson) -> bool {
    matches!(value, Bson::Int32(_) | Bson::Int64(_) | Bson::Double(_) | Bson::Decimal128(_))
}

/// `a op b` for two numbers (the caller checks that both are numbers).
pub(crate) fn apply(op: Op, a: &Bson, b: &Bson) -> Result<Bson, ArithError> {
    match (a, b) {
        (Bson::Int32(x), Bson::Int32(y)) => Ok(match int32(op, *x, *y) {
            Some(v) => Bson::Int32(v),
            None => Bson::Int64(int64(op, i64::from(*x), i64::from(*y)).ok_or(ArithError::Overflow)?),
        }),
        (Bson::Decimal128(_), _) | (_, Bson::Decimal128(_)) => decimal(op, to_dec(a, dec15), to_dec(b, dec15)),
        (Bson::Double(_), _) | (_, Bson::Double(_)) => Ok(Bson::Double(float(op, to_f64(a), to_f64(b)))),
        _ => Ok(Bson::Int64(int64(op, to_i64(a), to_i64(b)).ok_or(ArithError::Overflow)?)),
    }
}

/// mongod's `SafeNum::isIdentical`: the same type and the same value (`-0.0` is `0.0`,
/// decimal `1.0` is `1.00`, NaN is never identical), so the stored value stays as it was.
pub(crate) fn identical(a: &Bson, b: &Bson) -> bool {
    match (a, b) {
        (Bson::Int32(x), Bson::Int32(y)) => x == y,
        (Bson::Int64(x), Bson::Int64(y)) => x == y,
        (Bson::Double(x), Bson::Double(y)) => x == y,
        (Bson::Decimal128(x), Bson::Decimal128(y)) => {
            let (x, y) = (Dec::from_bytes(x.bytes()), Dec::from_bytes(y.bytes()));
            compare(BsonNumber::Decimal(x), BsonNumber::Decimal(y)) == Some(std::cmp::Ordering::Equal)
        }
        _ => false,
    }
}

fn int32(op: Op, x: i32, y: i32) -> Option<i32> {
    match op {
        Op::Add => x.checked_add(y),
        Op::Mul => x.checked_mul(y),
    }
}

fn int64(op: Op, x: i64, y: i64) -> Option<i64> {
    match op {
        Op::Add => x.checked_add(y),
        Op::Mul => x.checked_mul(y),
    }
}

fn float(op: Op, x: f64, y: f64) -> f64 {
    match op {
        Op::Add => x + y,
        Op::Mul => x * y,
    }
}

fn decimal(op: Op, x: Dec, y: Dec) -> Result<Bson, ArithError> {
    let result = match op {
        Op::Add => x.checked_add(y),
        Op::Mul => x.checked_mul(y),
    };
    result.and_then(decimal_bson).ok_or(ArithError::Decimal)
}

/// An integer's value, zero for any other type.
fn to_i64(value: &Bson) -> i64 {
    match value {
        Bson::Int32(v) => i64::from(*v),
        Bson::Int64(v) => *v,
        _ => 0,
    }
}

/// A number as a double (a decimal through its text), zero for any other type.
pub(crate) fn to_f64(value: &Bson) -> f64 {
    match value {
        Bson::Int32(v) => f64::from(*v),
        Bson::Int64(v) => *v as f64,
        Bson::Double(v) => *v,
        Bson::Decimal128(d) => d.to_string().parse().unwrap_or(f64::NAN),
        _ => 0.0,
    }
}

/// A number as a decimal, a double through `double` ([`dec15`] or [`dec34`]); NaN for any
/// other type.
pub(crate) fn to_dec(value: &Bson, double: fn(f64) -> Dec) -> Dec {
    match value {
        Bson::Int32(v) => Dec::from_i64(i64::from(*v)),
        Bson::Int64(v) => Dec::from_i64(*v),
        Bson::Double(v) => double(*v),
        Bson::Decimal128(d) => Dec::from_bytes(d.bytes()),
        _ => Dec::NaN,
    }
}

/// A double as `Decimal128(double, kRoundTo15Digits)`, mongod's `coerceToDecimal` (and
/// `SafeNum`'s): a zero converts to a zero with exponent 0 (its 34-digit form is 0E-33).
pub(crate) fn dec15(v: f64) -> Dec {
    if v == 0.0 {
        return Dec::Finite { neg: v.is_sign_negative(), coef: 0, exp: 0 };
    }
    Dec::from_f64(v, 15)
}

/// A double as `Decimal128(double, kRoundTo34Digits)`: exact when it fits, trailing zeros
/// of the fraction dropped.
fn dec34(v: f64) -> Dec {
    if v == 0.0 {
        return Dec::Finite { neg: v.is_sign_negative(), coef: 0, exp: 0 };
    }
    match Dec::from_f64(v, 34) {
        Dec::Finite { neg, mut coef, mut exp } => {
            while exp < 0 && coef % 10 == 0 && coef != 0 {
                coef /= 10;
                exp += 1;
            }
            Dec::Finite { neg, coef, exp }
        }
        other => other,
    }
}

/// A decimal as a BSON value, if it fits Decimal128.
pub(crate) fn decimal_bson(d: Dec) -> Option<Bson> {
    d.to_bytes().map(|bytes| Bson::Decimal128(Decimal128::from_bytes(bytes)))
}

/// A decimal result, or `Unsupported` where 128-bit arithmetic could not compute it.
fn decimal_result(d: Option<Dec>) -> Result<Bson, UpdateError> {
    d.and_then(decimal_bson)
        .ok_or_else(|| UpdateError::Unsupported("a decimal result beyond 128-bit arithmetic".to_owned()))
}

fn int_or_long(v: i64) -> Bson {
    i32::try_from(v).map_or(Bson::Int64(v), Bson::Int32)
}

fn negate(d: Dec) -> Dec {
    match d {
        Dec::Finite { neg, coef, exp } => Dec::Finite { neg: !neg, coef, exp },
        Dec::Inf { neg } => Dec::Inf { neg: !neg },
        Dec::NaN => Dec::NaN,
    }
}

/// The widest number type among an expression's operands: its result's type.
#[derive(Clone, Copy, PartialEq, PartialOrd)]
enum Widest {
    Int,
    Long,
    Double,
    Decimal,
}

fn widest_of(v: &Bson) -> Widest {
    match v {
        Bson::Int32(_) => Widest::Int,
        Bson::Int64(_) => Widest::Long,
        Bson::Double(_) => Widest::Double,
        _ => Widest::Decimal,
    }
}

/// `$add`'s running total: its operands are added one by one ([`Sum::add`]), in the type of
/// the widest so far; one of them may be a date, which makes the total a date.
pub(crate) struct Sum {
    widest: Widest,
    long: i64,
    double: f64,
    decimal: Dec,
    date: bool,
}

impl Default for Sum {
    fn default() -> Self {
        Sum { widest: Widest::Int, long: 0, double: 0.0, decimal: Dec::from_i64(0), date: false }
    }
}

impl Sum {
    /// Adds one operand (neither null nor missing: those make the whole `$add` null).
    pub(crate) fn add(&mut self, v: &Bson) -> Result<(), UpdateError> {
        let operand = match v {
            Bson::DateTime(d) => {
                if self.date {
                    return Err(UpdateError::refused(
                        location_code!(16612),
                        "only one date allowed in an $add expression",
                    ));
                }
                self.date = true;
                Bson::Int64(d.timestamp_millis())
            }
            n if is_number(n) => {
                let old = self.widest;
                if widest_of(n) > self.widest {
                    self.widest = widest_of(n);
                }
                if old != self.widest {
                    match (self.widest, old) {
                        (Widest::Double, _) => self.double = self.long as f64,
                        (Widest::Decimal, Widest::Double) => self.decimal = dec34(self.double),
                        (Widest::Decimal, _) => self.decimal = Dec::from_i64(self.long),
                        _ => {}
                    }
                }
                n.clone()
            }
            other => {
                return Err(UpdateError::refused(
                    location_code!(16554),
                    format!("$add only supports numeric or date types, not {}", type_name(other)),
                ))
            }
        };
        match self.widest {
            Widest::Int | Widest::Long => {
                let x = to_i64(&operand);
                match self.long.checked_add(x) {
                    Some(t) => self.long = t,
                    None => {
                        self.widest = Widest::Double;
                        self.double = self.long as f64 + x as f64;
                    }
                }
            }
            Widest::Double => self.double += to_f64(&operand),
            Widest::Decimal => {
                self.decimal = self
                    .decimal
                    .checked_add(to_dec(&operand, dec34))
                    .ok_or_else(|| UpdateError::Unsupported("a decimal beyond 128-bit arithmetic".to_owned()))?
            }
        }
        Ok(())
    }

    /// The total: a date if an operand was one, else a number of the widest type.
    pub(crate) fn total(self) -> Result<Bson, UpdateError> {
        if self.date {
            let ms = match self.widest {
                Widest::Int | Widest::Long => self.long,
                Widest::Double => {
                    if !self.double.is_finite() || self.double.abs() >= 9.2e18 {
                        return Err(UpdateError::Unsupported("a date overflow in $add".to_owned()));
                    }
                    self.double.trunc() as i64
                }
                Widest::Decimal => return Err(UpdateError::Unsupported("$add of a date and a decimal".to_owned())),
            };
            return Ok(Bson::DateTime(DateTime::from_millis(ms)));
        }
        Ok(match self.widest {
            Widest::Int => int_or_long(self.long),
            Widest::Long => Bson::Int64(self.long),
            Widest::Double => Bson::Double(self.double),
            Widest::Decimal => decimal_result(Some(self.decimal))?,
        })
    }
}

/// `$multiply`'s running product, kept in every type at once until the widest is known.
pub(crate) struct Product {
    widest: Widest,
    long: i64,
    double: f64,
    decimal: Option<Dec>,
}

impl Default for Product {
    fn default() -> Self {
        Product { widest: Widest::Int, long: 1, double: 1.0, decimal: Some(Dec::from_i64(1)) }
    }
}

impl Product {
    /// Multiplies by one operand (neither null nor missing: those make the whole
    /// `$multiply` null).
    pub(crate) fn multiply(&mut self, v: &Bson) -> Result<(), UpdateError> {
        if !is_number(v) {
            return Err(UpdateError::refused(
                TYPE_MISMATCH,
                format!("$multiply only supports numeric types, not {}", type_name(v)),
            ));
        }
        if widest_of(v) > self.widest {
            self.widest = widest_of(v);
        }
        self.decimal = self.decimal.and_then(|d| d.checked_mul(to_dec(v, dec15)));
        if self.widest != Widest::Decimal {
            self.double *= to_f64(v);
            let as_long = match v {
                Bson::Int32(i) => Some(i64::from(*i)),
                Bson::Int64(i) => Some(*i),
                _ => None,
            };
            match as_long.and_then(|x| self.long.checked_mul(x)) {
                Some(p) => self.long = p,
                None if as_long.is_some() => self.widest = Widest::Double,
                None => {}
            }
        }
        Ok(())
    }

    /// The product, of the widest operand type.
    pub(crate) fn total(self) -> Result<Bson, UpdateError> {
        Ok(match self.widest {
            Widest::Int => int_or_long(self.long),
            Widest::Long => Bson::Int64(self.long),
            Widest::Double => Bson::Double(self.double),
            Widest::Decimal => decimal_result(self.decimal)?,
        })
    }
}

/// `$subtract` of two values, neither null nor missing: numbers, a date and a number, or two
/// dates (their difference in milliseconds).
pub(crate) fn subtract(l: &Bson, r: &Bson) -> Result<Bson, UpdateError> {
    if is_number(l) && is_number(r) {
        let widest = if widest_of(l) > widest_of(r) { widest_of(l) } else { widest_of(r) };
        return Ok(match widest {
            Widest::Decimal => decimal_result(to_dec(l, dec15).checked_add(negate(to_dec(r, dec15))))?,
            Widest::Double => Bson::Double(to_f64(l) - to_f64(r)),
            _ => {
                let (x, y) = (to_i64(l), to_i64(r));
                match x.checked_sub(y) {
                    Some(d) if widest == Widest::Int => int_or_long(d),
                    Some(d) => Bson::Int64(d),
                    None => Bson::Double(x as f64 - y as f64),
                }
            }
        });
    }
    if let Bson::DateTime(d) = l {
        return match r {
            Bson::DateTime(e) => Ok(Bson::Int64(d.timestamp_millis().wrapping_sub(e.timestamp_millis()))),
            n if is_number(n) => {
                let ms = match n {
                    Bson::Int32(i) => i64::from(*i),
                    Bson::Int64(i) => *i,
                    Bson::Double(f) if f.is_finite() && f.abs() < 9.2e18 => f.trunc() as i64,
                    _ => return Err(UpdateError::Unsupported("$subtract of this number from a date".to_owned())),
                };
                Ok(Bson::DateTime(DateTime::from_millis(d.timestamp_millis().wrapping_sub(ms))))
            }
            other => {
                Err(UpdateError::refused(TYPE_MISMATCH, format!("can't $subtract {} from Date", type_name(other))))
            }
        };
    }
    Err(UpdateError::refused(TYPE_MISMATCH, format!("can't $subtract {} from {}", type_name(r), type_name(l))))
}
