//! `$inc` and `$mul` arithmetic as mongod's `SafeNum` does it: int32 results that overflow
//! widen to int64, int64 results that overflow are refused, any double makes a double, any
//! decimal a decimal (doubles converted to 15 significant digits first).

use crate::bson::{Bson, Decimal128};

use crate::view::number::{compare, BsonNumber, Dec};

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
        (Bson::Decimal128(_), _) | (_, Bson::Decimal128(_)) => decimal(op, to_dec(a), to_dec(b)),
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
    let bytes = result.and_then(Dec::to_bytes).ok_or(ArithError::Decimal)?;
    Ok(Bson::Decimal128(Decimal128::from_bytes(bytes)))
}

fn to_i64(value: &Bson) -> i64 {
    match value {
        Bson::Int32(v) => i64::from(*v),
        Bson::Int64(v) => *v,
        _ => 0,
    }
}

fn to_f64(value: &Bson) -> f64 {
    match value {
        Bson::Int32(v) => f64::from(*v),
        Bson::Int64(v) => *v as f64,
        Bson::Double(v) => *v,
        _ => 0.0,
    }
}

fn to_dec(value: &Bson) -> Dec {
    match value {
        Bson::Int32(v) => Dec::from_i64(i64::from(*v)),
        Bson::Int64(v) => Dec::from_i64(*v),
        // A zero double converts to a zero with exponent 0 (its 34-digit form is 0E-33).
        Bson::Double(v) if *v == 0.0 => Dec::Finite { neg: v.is_sign_negative(), coef: 0, exp: 0 },
        Bson::Double(v) => Dec::from_f64(*v, 15),
        Bson::Decimal128(d) => Dec::from_bytes(d.bytes()),
        _ => Dec::NaN,
    }
}
