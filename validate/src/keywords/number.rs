//! `multipleOf`, `maximum`/`exclusiveMaximum`, `minimum`/`exclusiveMinimum`: restrictions
//! that apply to numbers only (int, long, double, decimal).

use std::cmp::Ordering;

use mongo_schema_core::bson::{doc, Bson, Document};

use crate::error::SchemaError;
use crate::report::{leaf, spec, Explain};
use crate::schema::{Ctx, Keywords};
use mongo_schema_core::view::number::{compare, divisor_of, is_multiple_of, number_of, BsonNumber, Dec};

#[derive(Debug)]
pub(crate) struct NumberRules {
    multiple_of: Option<(Dec, Bson)>,
    maximum: Option<Bound>,
    minimum: Option<Bound>,
    /// The inclusive range of longs (and ints) these rules admit, when they are only
    /// integral bounds: such a value is decided by two comparisons.
    long_range: Option<(i64, i64)>,
}

/// `maximum` or `minimum` with its `exclusive*` flag.
#[derive(Debug)]
struct Bound {
    value: BsonNumber,
    exclusive: bool,
    spec: Bson,
}

impl NumberRules {
    pub(crate) fn parse(kw: &Keywords<'_>, ctx: Ctx<'_>) -> Result<Option<Box<NumberRules>>, SchemaError> {
        let multiple_of = parse_multiple_of(kw, ctx)?;
        let maximum = parse_bound(kw, ctx, "maximum", "exclusiveMaximum")?;
        let minimum = parse_bound(kw, ctx, "minimum", "exclusiveMinimum")?;
        let empty = multiple_of.is_none() && maximum.is_none() && minimum.is_none();
        let long_range = if multiple_of.is_none() { long_range(minimum.as_ref(), maximum.as_ref()) } else { None };
        Ok((!ctx.top && !empty).then(|| Box::new(NumberRules { multiple_of, maximum, minimum, long_range })))
    }

    #[inline]
    pub(crate) fn matches(&self, n: BsonNumber) -> bool {
        if let (BsonNumber::Long(v), Some((low, high))) = (n, self.long_range) {
            return low <= v && v <= high;
        }
        self.matches_any(n)
    }

    fn matches_any(&self, n: BsonNumber) -> bool {
        self.multiple_of.as_ref().is_none_or(|(d, _)| is_multiple_of(n, *d))
            && self.maximum.as_ref().is_none_or(|b| b.admits(n, Ordering::Less))
            && self.minimum.as_ref().is_none_or(|b| b.admits(n, Ordering::Greater))
    }

    pub(crate) fn explain(
        &self,
        n: BsonNumber,
        considered: &Bson,
        at: &str,
        ex: &mut Explain<'_>,
        out: &mut Vec<Document>,
    ) {
        if let Some((_, written)) = self.multiple_of.as_ref().filter(|(d, _)| !is_multiple_of(n, *d)) {
            let reason = "considered value is not a multiple of the specified value";
            ex.violation(at, "multipleOf", reason);
            out.push(leaf("multipleOf", spec("multipleOf", written.clone()), reason, considered.clone()));
        }
        for (bound, keyword, side) in
            [(&self.maximum, "maximum", Ordering::Less), (&self.minimum, "minimum", Ordering::Greater)]
        {
            if let Some(b) = bound.as_ref().filter(|b| !b.admits(n, side)) {
                ex.violation(at, keyword, "comparison failed");
                out.push(leaf(keyword, b.specified_as(keyword), "comparison failed", considered.clone()));
            }
        }
    }
}

/// `[low, high]` such that a long `v` passes both bounds exactly when `low <= v <= high`, if
/// every present bound is itself a long (`minimum: 1` is `1 <= v`, exclusive `1 < v` is
/// `2 <= v`); `None` when a bound is not a long or an exclusive bound leaves no long.
fn long_range(minimum: Option<&Bound>, maximum: Option<&Bound>) -> Option<(i64, i64)> {
    let low = match minimum {
        None => i64::MIN,
        Some(Bound { value: BsonNumber::Long(v), exclusive, .. }) => {
            if *exclusive {
                v.checked_add(1)?
            } else {
                *v
            }
        }
        Some(_) => return None,
    };
    let high = match maximum {
        None => i64::MAX,
        Some(Bound { value: BsonNumber::Long(v), exclusive, .. }) => {
            if *exclusive {
                v.checked_sub(1)?
            } else {
                *v
            }
        }
        Some(_) => return None,
    };
    Some((low, high))
}

/// `multipleOf`: a number whose decimal value (`numberDecimal()`) is positive.
fn parse_multiple_of(kw: &Keywords<'_>, ctx: Ctx<'_>) -> Result<Option<(Dec, Bson)>, SchemaError> {
    let Some(value) = kw.get("multipleOf") else { return Ok(None) };
    let n =
        number_of(value).ok_or_else(|| ctx.err("multipleOf", "$jsonSchema keyword 'multipleOf' must be a number"))?;
    let divisor = divisor_of(n);
    if divisor.is_negative() || divisor.is_zero() {
        return Err(ctx.err("multipleOf", "$jsonSchema keyword 'multipleOf' must have a positive value"));
    }
    Ok(Some((divisor, value.clone())))
}

/// `maximum` (a number) with `exclusiveMaximum` (a boolean, only alongside `maximum`).
fn parse_bound(
    kw: &Keywords<'_>,
    ctx: Ctx<'_>,
    name: &str,
    exclusive_name: &str,
) -> Result<Option<Bound>, SchemaError> {
    let exclusive = match kw.get(exclusive_name) {
        None => false,
        Some(Bson::Boolean(b)) if kw.get(name).is_some() => *b,
        Some(_) if kw.get(name).is_some() => {
            return Err(ctx.err(exclusive_name, format!("$jsonSchema keyword '{exclusive_name}' must be a boolean")))
        }
        Some(_) => {
            return Err(ctx.err(
                exclusive_name,
                format!("$jsonSchema keyword '{name}' must be a present if {exclusive_name} is present"),
            ))
        }
    };
    let Some(value) = kw.get(name) else { return Ok(None) };
    let n = number_of(value).ok_or_else(|| ctx.err(name, format!("$jsonSchema keyword '{name}' must be a number")))?;
    Ok(Some(Bound { value: n, exclusive, spec: value.clone() }))
}

impl Bound {
    /// `$lte`/`$lt` (maximum) or `$gte`/`$gt` (minimum) as mongod's comparison expressions
    /// decide them: NaN only equals NaN and is never strictly ordered.
    fn admits(&self, n: BsonNumber, side: Ordering) -> bool {
        if n.is_nan() || self.value.is_nan() {
            return !self.exclusive && n.is_nan() && self.value.is_nan();
        }
        match compare(n, self.value) {
            Some(Ordering::Equal) => !self.exclusive,
            Some(order) => order == side,
            None => false,
        }
    }

    fn specified_as(&self, keyword: &str) -> Document {
        if self.exclusive {
            let flag = if keyword == "maximum" { "exclusiveMaximum" } else { "exclusiveMinimum" };
            doc! { keyword: self.spec.clone(), flag: true }
        } else {
            spec(keyword, self.spec.clone())
        }
    }
}
