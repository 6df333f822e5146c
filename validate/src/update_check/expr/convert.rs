//! `$convert` and the `$to...` operators: a value (neither null nor missing) converted to a
//! [`Target`] as mongod 6.0 converts it, or mongod's conversion failure (which `onError`
//! may replace), or `Unsupported` for a conversion this crate does not model; and mongod's
//! `coerceToBool` ([`truthy`]), which `$convert` to bool and the logical operators share.

use mongo_schema_contract::codes::BAD_VALUE;
use mongo_schema_core::bson::{Bson, DateTime, Decimal128};

use super::super::arith::{self, is_number};
use super::super::format::{formattable, g, iso_date, type_name};
use super::super::UpdateError;
use super::{unsupported, Target, Val};
use mongo_schema_core::view::number::Dec;

/// Why a value did not convert.
pub(crate) enum Conv {
    /// mongod's conversion failure (241, ConversionFailure), with its message.
    Fail(String),
    /// A conversion this crate does not model.
    Unsupported(String),
}

/// mongod's `Value::coerceToBool`.
pub(crate) fn truthy(v: &Val) -> bool {
    match v {
        None | Some(Bson::Null | Bson::Undefined) => false,
        Some(Bson::Boolean(b)) => *b,
        Some(Bson::Int32(i)) => *i != 0,
        Some(Bson::Int64(i)) => *i != 0,
        Some(Bson::Double(d)) => *d != 0.0,
        Some(Bson::Decimal128(d)) => !Dec::from_bytes(d.bytes()).is_zero(),
        Some(_) => true,
    }
}

impl Target {
    /// The target `$convert`'s `to` names (neither null nor missing: those make the
    /// conversion null), by type name or number.
    pub(crate) fn named(to: &Bson) -> Result<Target, UpdateError> {
        match to {
            Bson::String(s) => match s.as_str() {
                "double" => Ok(Target::Double),
                "string" => Ok(Target::String),
                "int" => Ok(Target::Int),
                "long" => Ok(Target::Long),
                "decimal" => Ok(Target::Decimal),
                "date" => Ok(Target::Date),
                "bool" => Ok(Target::Bool),
                "objectId" => Err(unsupported("$convert to objectId")),
                other => Err(UpdateError::refused(BAD_VALUE, format!("Unknown type name: {other}"))),
            },
            Bson::Int32(n) => match n {
                1 => Ok(Target::Double),
                2 => Ok(Target::String),
                8 => Ok(Target::Bool),
                9 => Ok(Target::Date),
                16 => Ok(Target::Int),
                18 => Ok(Target::Long),
                19 => Ok(Target::Decimal),
                _ => Err(unsupported("$convert to this type number")),
            },
            _ => Err(unsupported("$convert with this `to`")),
        }
    }

    fn name(self) -> &'static str {
        match self {
            Target::Double => "double",
            Target::String => "string",
            Target::Int => "int",
            Target::Long => "long",
            Target::Decimal => "decimal",
            Target::Date => "date",
            Target::Bool => "bool",
        }
    }
}

const SUFFIX: &str = "in $convert with no onError value";

fn no_conversion(from: &Bson, to: Target) -> Conv {
    Conv::Fail(format!("Unsupported conversion from {} to {} {SUFFIX}", type_name(from), to.name()))
}

fn overflow(shown: String) -> Conv {
    Conv::Fail(format!("Conversion would overflow target type {SUFFIX}: {shown}"))
}

fn not_modelled(what: &str) -> Conv {
    Conv::Unsupported(format!("$convert {what}"))
}

/// Any conversion a target's own function does not list: mongod's refusal for the values no
/// target but string and bool takes, else `Unsupported`.
fn other(value: &Bson, to: Target) -> Result<Bson, Conv> {
    match (to, value) {
        (Target::String | Target::Bool | Target::Date, _) => {}
        (_, Bson::ObjectId(_) | Bson::Document(_) | Bson::Array(_)) => return Err(no_conversion(value, to)),
        _ => {}
    }
    Err(not_modelled(&format!("from {} to {}", type_name(value), to.name())))
}

/// `value` (neither null nor missing) converted as `$convert` converts it.
pub(crate) fn convert(value: &Bson, to: Target) -> Result<Bson, Conv> {
    match to {
        Target::String => to_string(value),
        Target::Bool => to_bool(value),
        Target::Double => to_double(value),
        Target::Int | Target::Long => to_integer(value, to),
        Target::Decimal => to_decimal(value),
        Target::Date => to_date(value),
    }
}

fn to_string(value: &Bson) -> Result<Bson, Conv> {
    match value {
        Bson::String(_) => Ok(value.clone()),
        Bson::Int32(i) => Ok(Bson::String(i.to_string())),
        Bson::Int64(i) => Ok(Bson::String(i.to_string())),
        Bson::Double(d) => Ok(Bson::String(g(*d, 6))),
        Bson::Decimal128(d) => Ok(Bson::String(d.to_string())),
        Bson::Boolean(b) => Ok(Bson::String(b.to_string())),
        Bson::DateTime(d) if formattable(d.timestamp_millis()) => Ok(Bson::String(iso_date(d.timestamp_millis()))),
        Bson::DateTime(_) => Err(not_modelled("to string of a date outside years 0 to 9999")),
        Bson::ObjectId(o) => Ok(Bson::String(o.to_hex())),
        Bson::Document(_) | Bson::Array(_) => Err(no_conversion(value, Target::String)),
        _ => other(value, Target::String),
    }
}

fn to_bool(value: &Bson) -> Result<Bson, Conv> {
    match value {
        Bson::Boolean(_) => Ok(value.clone()),
        n if is_number(n) => Ok(Bson::Boolean(truthy(&Some(n.clone())))),
        Bson::String(_) | Bson::DateTime(_) | Bson::ObjectId(_) => Ok(Bson::Boolean(true)),
        _ => other(value, Target::Bool),
    }
}

fn to_double(value: &Bson) -> Result<Bson, Conv> {
    match value {
        Bson::Double(_) => Ok(value.clone()),
        Bson::Int32(i) => Ok(Bson::Double(f64::from(*i))),
        Bson::Int64(i) => Ok(Bson::Double(*i as f64)),
        Bson::Boolean(b) => Ok(Bson::Double(if *b { 1.0 } else { 0.0 })),
        Bson::DateTime(d) => Ok(Bson::Double(d.timestamp_millis() as f64)),
        Bson::Decimal128(d) => match Dec::from_bytes(d.bytes()) {
            Dec::Finite { .. } => {
                let f = arith::to_f64(value);
                if f.is_finite() {
                    Ok(Bson::Double(f))
                } else {
                    Err(not_modelled("of a decimal beyond double's range"))
                }
            }
            _ => Err(not_modelled("of a non-finite decimal")),
        },
        Bson::String(s) => {
            if is_simple_number(s) {
                Ok(Bson::Double(s.parse().map_err(|_| not_modelled("of this string"))?))
            } else if !s.is_empty() && s.chars().all(|c| c.is_ascii_alphabetic()) && !is_special(s) {
                Err(Conv::Fail(format!("Failed to parse number '{s}' {SUFFIX}: Did not consume any digits")))
            } else {
                Err(not_modelled("of this string to double"))
            }
        }
        _ => other(value, Target::Double),
    }
}

/// To `int` or `long` (`to`).
fn to_integer(value: &Bson, to: Target) -> Result<Bson, Conv> {
    match value {
        Bson::Int32(i) => Ok(int_target(to, i64::from(*i))),
        Bson::Int64(i) if to == Target::Int => i32::try_from(*i).map(Bson::Int32).map_err(|_| overflow(String::new())),
        Bson::Int64(_) => Ok(value.clone()),
        Bson::Boolean(b) => Ok(int_target(to, i64::from(*b))),
        Bson::DateTime(d) if to == Target::Long => Ok(Bson::Int64(d.timestamp_millis())),
        Bson::DateTime(_) => Err(no_conversion(value, to)),
        Bson::Double(d) => {
            if !d.is_finite() {
                return Err(not_modelled("of a non-finite double to an integer"));
            }
            let t = d.trunc();
            let (lo, hi) = if to == Target::Int {
                (-2147483648.0, 2147483648.0)
            } else {
                (-9.223372036854776e18, 9.223372036854776e18)
            };
            if t < lo || t >= hi {
                return Err(overflow(g(*d, 6)));
            }
            Ok(int_target(to, t as i64))
        }
        Bson::Decimal128(d) => decimal_to_integer(d, to),
        Bson::String(s) => string_to_integer(s, to),
        _ => other(value, to),
    }
}

fn decimal_to_integer(d: &Decimal128, to: Target) -> Result<Bson, Conv> {
    match Dec::from_bytes(d.bytes()) {
        Dec::Finite { neg, coef, exp } => {
            let magnitude = if exp >= 0 {
                10u128.checked_pow(exp as u32).and_then(|p| coef.checked_mul(p))
            } else {
                Some(10u128.checked_pow((-exp) as u32).map_or(0, |p| coef / p))
            };
            let v = magnitude.and_then(|m| i128::try_from(m).ok()).map(|m| if neg { -m } else { m });
            let fits = v.and_then(|v| {
                if to == Target::Int {
                    i32::try_from(v).ok().map(i64::from)
                } else {
                    i64::try_from(v).ok()
                }
            });
            match fits {
                Some(v) => Ok(int_target(to, v)),
                None => Err(overflow(d.to_string())),
            }
        }
        _ => Err(not_modelled("of a non-finite decimal to an integer")),
    }
}

fn string_to_integer(s: &str, to: Target) -> Result<Bson, Conv> {
    let digits = s.strip_prefix('-').unwrap_or(s);
    if !digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit()) {
        match s.parse::<i64>().ok().filter(|v| to == Target::Long || i32::try_from(*v).is_ok()) {
            Some(v) => Ok(int_target(to, v)),
            None => Err(not_modelled("of an out-of-range string")),
        }
    } else if s.chars().any(|c| c.is_ascii_digit()) && s.chars().all(|c| c.is_ascii_digit() || c == '.')
        || !s.is_empty() && s.chars().all(|c| c.is_ascii_alphabetic())
    {
        Err(Conv::Fail(format!("Failed to parse number '{s}' {SUFFIX}: Did not consume whole string.")))
    } else {
        Err(not_modelled("of this string to an integer"))
    }
}

fn to_decimal(value: &Bson) -> Result<Bson, Conv> {
    let exact = |d: Dec| arith::decimal_bson(d).ok_or_else(|| not_modelled(""));
    match value {
        Bson::Decimal128(_) => Ok(value.clone()),
        Bson::Int32(_) | Bson::Int64(_) => exact(arith::to_dec(value, arith::dec15)),
        Bson::Double(d) if d.is_finite() => exact(arith::dec15(*d)),
        Bson::Boolean(b) => exact(Dec::from_i64(i64::from(*b))),
        Bson::DateTime(d) => exact(Dec::from_i64(d.timestamp_millis())),
        Bson::String(s) => {
            if is_simple_number(s) {
                s.parse::<Decimal128>().map(Bson::Decimal128).map_err(|_| not_modelled("of this string"))
            } else if !s.is_empty() && s.chars().all(|c| c.is_ascii_alphabetic()) && !is_special(s) {
                Err(Conv::Fail(format!("Failed to parse number '{s}' {SUFFIX}: Failed to parse string to decimal")))
            } else {
                Err(not_modelled("of this string to decimal"))
            }
        }
        _ => other(value, Target::Decimal),
    }
}

fn to_date(value: &Bson) -> Result<Bson, Conv> {
    match value {
        Bson::DateTime(_) => Ok(value.clone()),
        Bson::Int64(i) => Ok(Bson::DateTime(DateTime::from_millis(*i))),
        Bson::Double(d) if d.is_finite() && d.abs() < 9.2e18 => {
            Ok(Bson::DateTime(DateTime::from_millis(d.trunc() as i64)))
        }
        Bson::ObjectId(o) => Ok(Bson::DateTime(DateTime::from_millis(
            i64::from(u32::from_be_bytes(o.bytes()[..4].try_into().expect("four bytes"))) * 1000,
        ))),
        Bson::Int32(_) | Bson::Boolean(_) => Err(no_conversion(value, Target::Date)),
        _ => Err(not_modelled("to date of this value")),
    }
}

fn is_special(s: &str) -> bool {
    let l = s.to_ascii_lowercase();
    ["inf", "infinity", "nan", "snan"].contains(&l.as_str())
}

fn is_simple_number(s: &str) -> bool {
    let body = s.strip_prefix('-').unwrap_or(s);
    let (whole, frac) = body.split_once('.').unwrap_or((body, "0"));
    !whole.is_empty() && !frac.is_empty() && (whole.chars().chain(frac.chars())).all(|c| c.is_ascii_digit())
}

fn int_target(to: Target, v: i64) -> Bson {
    if to == Target::Int {
        Bson::Int32(v as i32)
    } else {
        Bson::Int64(v)
    }
}
