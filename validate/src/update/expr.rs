//! Aggregation expressions as a pipeline update evaluates them (mongod 6.0): field paths,
//! `$$NOW`/`$$ROOT`/`$$CURRENT`/`$$REMOVE`, and the operators listed in [`Fun`]. A value is
//! `Option<Bson>`: `None` is mongod's "missing".

use std::cmp::Ordering;

use crate::bson::{Bson, DateTime, Decimal128, Document};
use mongo_schema_contract::codes::{
    ServerCode, BAD_VALUE, CONVERSION_FAILURE, FAILED_TO_PARSE, INVALID_PIPELINE_OPERATOR, TYPE_MISMATCH,
};
use mongo_schema_contract::location_code;

use super::format::type_name;
use super::order;
use super::UpdateError;
use crate::view::number::Dec;

pub(crate) type Val = Option<Bson>;

#[derive(Clone, Debug)]
pub(crate) enum Var {
    Current,
    Root,
    Now,
    Remove,
    User(String),
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Target {
    Double,
    String,
    Int,
    Long,
    Decimal,
    Date,
    Bool,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Fun {
    Add,
    Subtract,
    Multiply,
    Concat,
    IfNull,
    Cond,
    MergeObjects,
    To(Target),
    Cmp(&'static str),
    And,
    Or,
    Not,
    Type,
    IsNumber,
    Trunc,
    Size,
    ArrayElemAt,
    ConcatArrays,
}

#[derive(Clone, Debug)]
pub(crate) enum Expr {
    Const(Bson),
    Path { var: Var, fields: Vec<String> },
    Object(Vec<(String, Expr)>),
    Array(Vec<Expr>),
    Call(Fun, Vec<Expr>),
    Convert { input: Box<Expr>, to: Box<Expr>, on_error: Option<Box<Expr>>, on_null: Option<Box<Expr>> },
    Map { input: Box<Expr>, var: String, body: Box<Expr> },
    Filter { input: Box<Expr>, var: String, cond: Box<Expr> },
}

fn unsupported(what: impl Into<String>) -> UpdateError {
    UpdateError::Unsupported(what.into())
}

/// The expression operators mongod 6.0 knows (a known one this crate does not model is
/// `Unsupported`, an unknown one mongod's error 168).
const KNOWN: &[&str] = &[
    "$abs",
    "$accumulator",
    "$acos",
    "$acosh",
    "$add",
    "$allElementsTrue",
    "$and",
    "$anyElementTrue",
    "$arrayElemAt",
    "$arrayToObject",
    "$asin",
    "$asinh",
    "$atan",
    "$atan2",
    "$atanh",
    "$avg",
    "$binarySize",
    "$bsonSize",
    "$ceil",
    "$cmp",
    "$concat",
    "$concatArrays",
    "$cond",
    "$convert",
    "$cos",
    "$cosh",
    "$dateAdd",
    "$dateDiff",
    "$dateFromParts",
    "$dateFromString",
    "$dateSubtract",
    "$dateToParts",
    "$dateToString",
    "$dateTrunc",
    "$dayOfMonth",
    "$dayOfWeek",
    "$dayOfYear",
    "$degreesToRadians",
    "$divide",
    "$eq",
    "$exp",
    "$filter",
    "$first",
    "$floor",
    "$function",
    "$getField",
    "$gt",
    "$gte",
    "$hour",
    "$ifNull",
    "$in",
    "$indexOfArray",
    "$indexOfBytes",
    "$indexOfCP",
    "$isArray",
    "$isNumber",
    "$isoDayOfWeek",
    "$isoWeek",
    "$isoWeekYear",
    "$last",
    "$let",
    "$literal",
    "$ln",
    "$log",
    "$log10",
    "$lt",
    "$lte",
    "$ltrim",
    "$map",
    "$max",
    "$maxN",
    "$mergeObjects",
    "$meta",
    "$min",
    "$minN",
    "$millisecond",
    "$minute",
    "$mod",
    "$month",
    "$multiply",
    "$ne",
    "$not",
    "$objectToArray",
    "$or",
    "$pow",
    "$radiansToDegrees",
    "$rand",
    "$range",
    "$reduce",
    "$regexFind",
    "$regexFindAll",
    "$regexMatch",
    "$replaceAll",
    "$replaceOne",
    "$reverseArray",
    "$round",
    "$rtrim",
    "$sampleRate",
    "$second",
    "$setDifference",
    "$setEquals",
    "$setField",
    "$setIntersection",
    "$setIsSubset",
    "$setUnion",
    "$sin",
    "$sinh",
    "$size",
    "$slice",
    "$sortArray",
    "$split",
    "$sqrt",
    "$stdDevPop",
    "$stdDevSamp",
    "$strLenBytes",
    "$strLenCP",
    "$strcasecmp",
    "$substr",
    "$substrBytes",
    "$substrCP",
    "$subtract",
    "$sum",
    "$switch",
    "$tan",
    "$tanh",
    "$toBool",
    "$toDate",
    "$toDecimal",
    "$toDouble",
    "$toInt",
    "$toLong",
    "$toLower",
    "$toObjectId",
    "$toString",
    "$toUpper",
    "$trim",
    "$trunc",
    "$tsIncrement",
    "$tsSecond",
    "$type",
    "$unsetField",
    "$week",
    "$year",
    "$zip",
    "$firstN",
    "$lastN",
    "$top",
    "$topN",
    "$bottom",
    "$bottomN",
    "$median",
    "$percentile",
    "$getField",
    "$dateFromString",
];

/// Parses an expression; `vars` are the user variables in scope ($map/$filter's `as`).
pub(crate) fn parse(value: &Bson, vars: &[String]) -> Result<Expr, UpdateError> {
    match value {
        Bson::String(s) if s.starts_with('$') => parse_path(s, vars),
        Bson::Array(items) => Ok(Expr::Array(items.iter().map(|v| parse(v, vars)).collect::<Result<_, _>>()?)),
        Bson::Document(d) => parse_object(d, vars),
        other => Ok(Expr::Const(other.clone())),
    }
}

fn parse_path(s: &str, vars: &[String]) -> Result<Expr, UpdateError> {
    if let Some(rest) = s.strip_prefix("$$") {
        let mut parts = rest.split('.');
        let name = parts.next().unwrap_or_default();
        let fields: Vec<String> = parts.map(str::to_owned).collect();
        if name.is_empty() || fields.iter().any(|f| f.is_empty() || f.starts_with('$')) {
            return Err(unsupported(format!("the variable reference {s}")));
        }
        let var = match name {
            "CURRENT" => Var::Current,
            "ROOT" => Var::Root,
            "NOW" => Var::Now,
            "REMOVE" => Var::Remove,
            _ if vars.iter().any(|v| v == name) => Var::User(name.to_owned()),
            _ if name.starts_with(|c: char| c.is_ascii_uppercase()) => {
                return Err(unsupported(format!("the variable $${name}")))
            }
            _ if name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') => {
                return Err(UpdateError::refused(location_code!(17276), format!("Use of undefined variable: {name}")))
            }
            _ => return Err(unsupported(format!("the variable $${name}"))),
        };
        return Ok(Expr::Path { var, fields });
    }
    let fields: Vec<String> = s[1..].split('.').map(str::to_owned).collect();
    if fields.iter().any(|f| f.is_empty() || f.starts_with('$')) {
        return Err(unsupported(format!("the field path {s}")));
    }
    Ok(Expr::Path { var: Var::Current, fields })
}

fn parse_object(d: &Document, vars: &[String]) -> Result<Expr, UpdateError> {
    let Some(first) = d.keys().next() else { return Ok(Expr::Object(Vec::new())) };
    if !first.starts_with('$') {
        let mut fields = Vec::new();
        for (k, v) in d {
            if k.starts_with('$') || k.contains('.') || k.is_empty() {
                return Err(unsupported(format!("the field name {k} in an expression object")));
            }
            fields.push((k.clone(), parse(v, vars)?));
        }
        return Ok(Expr::Object(fields));
    }
    if d.len() != 1 {
        return Err(unsupported("an expression object with several operators"));
    }
    let (name, arg) = d.iter().next().expect("one field");
    operator(name, arg, vars)
}

fn args(arg: &Bson, vars: &[String]) -> Result<Vec<Expr>, UpdateError> {
    match arg {
        Bson::Array(items) => items.iter().map(|v| parse(v, vars)).collect(),
        other => Ok(vec![parse(other, vars)?]),
    }
}

fn exactly(name: &str, args: Vec<Expr>, n: usize) -> Result<Vec<Expr>, UpdateError> {
    if args.len() != n {
        return Err(UpdateError::refused(
            location_code!(16020),
            format!("Expression {name} takes exactly {n} arguments. {} were passed in.", args.len()),
        ));
    }
    Ok(args)
}

fn operator(name: &str, arg: &Bson, vars: &[String]) -> Result<Expr, UpdateError> {
    let call = |fun: Fun, n: Option<usize>| -> Result<Expr, UpdateError> {
        let a = args(arg, vars)?;
        let a = match n {
            Some(n) => exactly(name, a, n)?,
            None => a,
        };
        Ok(Expr::Call(fun, a))
    };
    let target = match name {
        "$toString" => Some(Target::String),
        "$toInt" => Some(Target::Int),
        "$toLong" => Some(Target::Long),
        "$toDouble" => Some(Target::Double),
        "$toDecimal" => Some(Target::Decimal),
        "$toDate" => Some(Target::Date),
        _ => None,
    };
    if let Some(target) = target {
        let a = args(arg, vars)?;
        if a.len() != 1 {
            return Err(UpdateError::refused(
                location_code!(50723),
                format!("{name} requires a single argument, got {}", a.len()),
            ));
        }
        return Ok(Expr::Call(Fun::To(target), a));
    }
    match name {
        "$literal" => Ok(Expr::Const(arg.clone())),
        "$add" => call(Fun::Add, None),
        "$multiply" => call(Fun::Multiply, None),
        "$concat" => call(Fun::Concat, None),
        "$and" => call(Fun::And, None),
        "$or" => call(Fun::Or, None),
        "$concatArrays" => call(Fun::ConcatArrays, None),
        "$mergeObjects" => call(Fun::MergeObjects, None),
        "$subtract" => call(Fun::Subtract, Some(2)),
        "$arrayElemAt" => call(Fun::ArrayElemAt, Some(2)),
        "$eq" | "$ne" | "$gt" | "$gte" | "$lt" | "$lte" => {
            let op = ["$eq", "$ne", "$gt", "$gte", "$lt", "$lte"].into_iter().find(|o| *o == name).expect("listed");
            call(Fun::Cmp(op), Some(2))
        }
        "$not" => call(Fun::Not, Some(1)),
        "$type" => call(Fun::Type, Some(1)),
        "$isNumber" => call(Fun::IsNumber, Some(1)),
        "$size" => call(Fun::Size, Some(1)),
        "$trunc" => {
            let a = args(arg, vars)?;
            if a.len() != 1 {
                return Err(unsupported("$trunc with a place or without an argument"));
            }
            Ok(Expr::Call(Fun::Trunc, a))
        }
        "$ifNull" => {
            let a = args(arg, vars)?;
            if a.len() < 2 {
                return Err(UpdateError::refused(
                    location_code!(1257300),
                    format!("$ifNull needs at least two arguments, had: {}", a.len()),
                ));
            }
            Ok(Expr::Call(Fun::IfNull, a))
        }
        "$cond" => match arg {
            Bson::Document(d) => {
                let (mut i, mut t, mut e) = (None, None, None);
                for (k, v) in d {
                    let slot = match k.as_str() {
                        "if" => &mut i,
                        "then" => &mut t,
                        "else" => &mut e,
                        _ => {
                            return Err(UpdateError::refused(
                                location_code!(17083),
                                format!("Unrecognized parameter to $cond: {k}"),
                            ))
                        }
                    };
                    *slot = Some(parse(v, vars)?);
                }
                let missing = |code: ServerCode, what: &str| {
                    UpdateError::refused(code, format!("Missing '{what}' parameter to $cond"))
                };
                let i = i.ok_or_else(|| missing(location_code!(17080), "if"))?;
                let t = t.ok_or_else(|| missing(location_code!(17081), "then"))?;
                let e = e.ok_or_else(|| missing(location_code!(17082), "else"))?;
                Ok(Expr::Call(Fun::Cond, vec![i, t, e]))
            }
            _ => call(Fun::Cond, Some(3)),
        },
        "$convert" => {
            let Bson::Document(d) = arg else { return Err(unsupported("$convert of a non-object")) };
            let (mut input, mut to, mut on_error, mut on_null) = (None, None, None, None);
            for (k, v) in d {
                let slot = match k.as_str() {
                    "input" => &mut input,
                    "to" => &mut to,
                    "onError" => &mut on_error,
                    "onNull" => &mut on_null,
                    _ => {
                        return Err(UpdateError::refused(
                            FAILED_TO_PARSE,
                            format!("$convert found an unknown argument: {k}"),
                        ))
                    }
                };
                *slot = Some(Box::new(parse(v, vars)?));
            }
            let missing =
                |what: &str| UpdateError::refused(FAILED_TO_PARSE, format!("Missing '{what}' parameter to $convert"));
            let input = input.ok_or_else(|| missing("input"))?;
            let to = to.ok_or_else(|| missing("to"))?;
            Ok(Expr::Convert { input, to, on_error, on_null })
        }
        "$map" | "$filter" => {
            let Bson::Document(d) = arg else { return Err(unsupported(format!("{name} of a non-object"))) };
            let body_name = if name == "$map" { "in" } else { "cond" };
            if d.keys().any(|k| k != "input" && k != "as" && k != body_name) {
                return Err(unsupported(format!("{name} with other arguments")));
            }
            let var = match d.get("as") {
                None => "this".to_owned(),
                Some(Bson::String(s)) if s.chars().all(|c| c.is_ascii_lowercase()) && !s.is_empty() => s.clone(),
                Some(_) => return Err(unsupported(format!("{name} with this `as`"))),
            };
            let (Some(input), Some(body)) = (d.get("input"), d.get(body_name)) else {
                return Err(unsupported(format!("{name} without input or {body_name}")));
            };
            let input = Box::new(parse(input, vars)?);
            let mut inner = vars.to_vec();
            inner.push(var.clone());
            let body = Box::new(parse(body, &inner)?);
            Ok(if name == "$map" { Expr::Map { input, var, body } } else { Expr::Filter { input, var, cond: body } })
        }
        _ if KNOWN.contains(&name) => Err(unsupported(format!("the expression {name}"))),
        _ => Err(UpdateError::refused(INVALID_PIPELINE_OPERATOR, format!("Unrecognized expression '{name}'"))),
    }
}

/// What an expression is evaluated against.
#[derive(Clone)]
pub(crate) struct Env {
    pub(crate) root: Bson,
    pub(crate) now: i64,
    pub(crate) vars: Vec<(String, Bson)>,
}

fn is_number(v: &Bson) -> bool {
    matches!(v, Bson::Int32(_) | Bson::Int64(_) | Bson::Double(_) | Bson::Decimal128(_))
}

fn nullish(v: &Val) -> bool {
    matches!(v, None | Some(Bson::Null | Bson::Undefined))
}

fn type_of(v: &Val) -> &'static str {
    v.as_ref().map_or("missing", type_name)
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

fn path_in(value: &Bson, fields: &[String]) -> Val {
    let Some((first, rest)) = fields.split_first() else { return Some(value.clone()) };
    match value {
        Bson::Document(d) => {
            let next = d.get(first)?;
            if rest.is_empty() {
                Some(next.clone())
            } else {
                match next {
                    Bson::Document(_) => path_in(next, rest),
                    Bson::Array(items) => Some(path_array(items, rest)),
                    _ => None,
                }
            }
        }
        Bson::Array(items) => Some(path_array(items, fields)),
        _ => None,
    }
}

fn path_array(items: &[Bson], fields: &[String]) -> Bson {
    let mut out = Vec::new();
    for item in items {
        match item {
            Bson::Document(_) => {
                if let Some(v) = path_in(item, fields) {
                    out.push(v);
                }
            }
            Bson::Array(inner) => out.push(path_array(inner, fields)),
            _ => {}
        }
    }
    Bson::Array(out)
}

fn dec_of(d: &Decimal128) -> Dec {
    Dec::from_bytes(d.bytes())
}

fn dec_bson(d: Option<Dec>) -> Result<Bson, UpdateError> {
    let bytes = d.and_then(Dec::to_bytes).ok_or_else(|| unsupported("a decimal result beyond 128-bit arithmetic"))?;
    Ok(Bson::Decimal128(Decimal128::from_bytes(bytes)))
}

/// A double as `Decimal128(double, kRoundTo15Digits)` (mongod's `coerceToDecimal`).
fn dec15(v: f64) -> Dec {
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

fn num_dec(v: &Bson, wide: bool) -> Dec {
    match v {
        Bson::Int32(i) => Dec::from_i64(i64::from(*i)),
        Bson::Int64(i) => Dec::from_i64(*i),
        Bson::Double(d) if wide => dec34(*d),
        Bson::Double(d) => dec15(*d),
        Bson::Decimal128(d) => dec_of(d),
        _ => Dec::NaN,
    }
}

fn num_f64(v: &Bson) -> f64 {
    match v {
        Bson::Int32(i) => f64::from(*i),
        Bson::Int64(i) => *i as f64,
        Bson::Double(d) => *d,
        Bson::Decimal128(d) => d.to_string().parse().unwrap_or(f64::NAN),
        _ => 0.0,
    }
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

/// mongod's ordering of values in expressions (missing sorts before null).
fn compare(a: &Val, b: &Val) -> Ordering {
    match (a, b) {
        (None, None) => Ordering::Equal,
        (None, Some(Bson::MinKey)) => Ordering::Greater,
        (None, Some(_)) => Ordering::Less,
        (Some(Bson::MinKey), None) => Ordering::Less,
        (Some(_), None) => Ordering::Greater,
        (Some(x), Some(y)) => order::compare(x, y),
    }
}

impl Expr {
    pub(crate) fn eval(&self, env: &Env) -> Result<Val, UpdateError> {
        match self {
            Expr::Const(v) => Ok(Some(v.clone())),
            Expr::Path { var, fields } => {
                let base = match var {
                    Var::Current | Var::Root => env.root.clone(),
                    Var::Now => Bson::DateTime(DateTime::from_millis(env.now)),
                    Var::Remove => return Ok(None),
                    Var::User(name) => {
                        env.vars.iter().rev().find(|(n, _)| n == name).map(|(_, v)| v.clone()).unwrap_or(Bson::Null)
                    }
                };
                if fields.is_empty() {
                    return Ok(Some(base));
                }
                Ok(match &base {
                    Bson::Document(_) => path_in(&base, fields),
                    Bson::Array(items) => Some(path_array(items, fields)),
                    _ => None,
                })
            }
            Expr::Object(fields) => {
                let mut d = Document::new();
                for (k, e) in fields {
                    if let Some(v) = e.eval(env)? {
                        d.insert(k.clone(), v);
                    }
                }
                Ok(Some(Bson::Document(d)))
            }
            Expr::Array(items) => {
                let mut out = Vec::new();
                for e in items {
                    out.push(e.eval(env)?.unwrap_or(Bson::Null));
                }
                Ok(Some(Bson::Array(out)))
            }
            Expr::Call(fun, args) => call(*fun, args, env),
            Expr::Convert { input, to, on_error, on_null } => {
                let value = input.eval(env)?;
                let to_value = to.eval(env)?;
                let target = match &to_value {
                    v if nullish(v) => return Ok(Some(Bson::Null)),
                    Some(Bson::String(s)) => match s.as_str() {
                        "double" => Target::Double,
                        "string" => Target::String,
                        "int" => Target::Int,
                        "long" => Target::Long,
                        "decimal" => Target::Decimal,
                        "date" => Target::Date,
                        "bool" => Target::Bool,
                        "objectId" => return Err(unsupported("$convert to objectId")),
                        other => return Err(UpdateError::refused(BAD_VALUE, format!("Unknown type name: {other}"))),
                    },
                    Some(Bson::Int32(n)) => match n {
                        1 => Target::Double,
                        2 => Target::String,
                        8 => Target::Bool,
                        9 => Target::Date,
                        16 => Target::Int,
                        18 => Target::Long,
                        19 => Target::Decimal,
                        _ => return Err(unsupported("$convert to this type number")),
                    },
                    _ => return Err(unsupported("$convert with this `to`")),
                };
                if nullish(&value) {
                    return match on_null {
                        Some(e) => e.eval(env),
                        None => Ok(Some(Bson::Null)),
                    };
                }
                match convert(value.as_ref().expect("not nullish"), target) {
                    Ok(v) => Ok(Some(v)),
                    Err(Conv::Fail(message)) => match on_error {
                        Some(e) => e.eval(env),
                        None => Err(UpdateError::refused(CONVERSION_FAILURE, message)),
                    },
                    Err(Conv::Unsupported(what)) => Err(unsupported(what)),
                }
            }
            Expr::Map { input, var, body } | Expr::Filter { input, var, cond: body } => {
                let value = input.eval(env)?;
                if nullish(&value) {
                    return Ok(Some(Bson::Null));
                }
                let is_map = matches!(self, Expr::Map { .. });
                let items = match value {
                    Some(Bson::Array(items)) => items,
                    other => {
                        let (code, name) =
                            if is_map { (location_code!(16883), "$map") } else { (location_code!(28651), "$filter") };
                        return Err(UpdateError::refused(
                            code,
                            format!("input to {name} must be an array not {}", type_of(&other)),
                        ));
                    }
                };
                let mut out = Vec::new();
                for item in items {
                    let mut inner = env.clone();
                    inner.vars.push((var.clone(), item.clone()));
                    let result = body.eval(&inner)?;
                    if is_map {
                        out.push(result.unwrap_or(Bson::Null));
                    } else if truthy(&result) {
                        out.push(item);
                    }
                }
                Ok(Some(Bson::Array(out)))
            }
        }
    }
}

fn eval_all(args: &[Expr], env: &Env) -> Result<Vec<Val>, UpdateError> {
    args.iter().map(|a| a.eval(env)).collect()
}

fn call(fun: Fun, args: &[Expr], env: &Env) -> Result<Val, UpdateError> {
    match fun {
        Fun::Add => add(args, env),
        Fun::Multiply => multiply(args, env),
        Fun::Subtract => {
            // mongod 6.0 (built with GCC) evaluates the subtrahend first.
            let rhs = args[1].eval(env)?;
            let lhs = args[0].eval(env)?;
            subtract(&lhs, &rhs)
        }
        Fun::Concat => {
            let mut out = String::new();
            for a in args {
                match a.eval(env)? {
                    v if nullish(&v) => return Ok(Some(Bson::Null)),
                    Some(Bson::String(s)) => out.push_str(&s),
                    v => {
                        return Err(UpdateError::refused(
                            location_code!(16702),
                            format!("$concat only supports strings, not {}", type_of(&v)),
                        ))
                    }
                }
            }
            Ok(Some(Bson::String(out)))
        }
        Fun::IfNull => {
            let (last, rest) = args.split_last().expect("two or more");
            for a in rest {
                let v = a.eval(env)?;
                if !nullish(&v) {
                    return Ok(v);
                }
            }
            last.eval(env)
        }
        Fun::Cond => {
            if truthy(&args[0].eval(env)?) {
                args[1].eval(env)
            } else {
                args[2].eval(env)
            }
        }
        Fun::MergeObjects => {
            let mut out = Document::new();
            for a in args {
                match a.eval(env)? {
                    v if nullish(&v) => {}
                    Some(Bson::Array(_)) => return Err(unsupported("$mergeObjects of an array")),
                    Some(Bson::Document(d)) => {
                        for (k, v) in d {
                            out.insert(k, v);
                        }
                    }
                    v => {
                        return Err(UpdateError::refused(
                            location_code!(40400),
                            format!(
                                "$mergeObjects requires object inputs, but input {} is of type {}",
                                value_string(&v),
                                type_of(&v)
                            ),
                        ))
                    }
                }
            }
            Ok(Some(Bson::Document(out)))
        }
        Fun::To(target) => {
            let v = args[0].eval(env)?;
            if nullish(&v) {
                return Ok(Some(Bson::Null));
            }
            match convert(v.as_ref().expect("not nullish"), target) {
                Ok(v) => Ok(Some(v)),
                Err(Conv::Fail(message)) => Err(UpdateError::refused(CONVERSION_FAILURE, message)),
                Err(Conv::Unsupported(what)) => Err(unsupported(what)),
            }
        }
        Fun::Cmp(op) => {
            let v = eval_all(args, env)?;
            let c = compare(&v[0], &v[1]);
            let r = match op {
                "$eq" => c == Ordering::Equal,
                "$ne" => c != Ordering::Equal,
                "$gt" => c == Ordering::Greater,
                "$gte" => c != Ordering::Less,
                "$lt" => c == Ordering::Less,
                _ => c != Ordering::Greater,
            };
            Ok(Some(Bson::Boolean(r)))
        }
        Fun::And => {
            for a in args {
                if !truthy(&a.eval(env)?) {
                    return Ok(Some(Bson::Boolean(false)));
                }
            }
            Ok(Some(Bson::Boolean(true)))
        }
        Fun::Or => {
            for a in args {
                if truthy(&a.eval(env)?) {
                    return Ok(Some(Bson::Boolean(true)));
                }
            }
            Ok(Some(Bson::Boolean(false)))
        }
        Fun::Not => Ok(Some(Bson::Boolean(!truthy(&args[0].eval(env)?)))),
        Fun::Type => Ok(Some(Bson::String(type_of(&args[0].eval(env)?).to_owned()))),
        Fun::IsNumber => Ok(Some(Bson::Boolean(args[0].eval(env)?.as_ref().is_some_and(is_number)))),
        Fun::Trunc => match args[0].eval(env)? {
            v if nullish(&v) => Ok(Some(Bson::Null)),
            Some(Bson::Double(d)) => Ok(Some(Bson::Double(d.trunc()))),
            Some(v @ (Bson::Int32(_) | Bson::Int64(_))) => Ok(Some(v)),
            Some(Bson::Decimal128(_)) => Err(unsupported("$trunc of a decimal")),
            v => Err(UpdateError::refused(
                location_code!(51081),
                format!("$trunc only supports numeric types, not {}", type_of(&v)),
            )),
        },
        Fun::Size => match args[0].eval(env)? {
            Some(Bson::Array(items)) => Ok(Some(Bson::Int32(items.len() as i32))),
            v => Err(UpdateError::refused(
                location_code!(17124),
                format!("The argument to $size must be an array, but was of type: {}", type_of(&v)),
            )),
        },
        Fun::ArrayElemAt => {
            let v = eval_all(args, env)?;
            if nullish(&v[0]) || nullish(&v[1]) {
                return Ok(Some(Bson::Null));
            }
            let Some(Bson::Array(items)) = &v[0] else {
                return Err(UpdateError::refused(
                    location_code!(28689),
                    format!("$arrayElemAt's first argument must be an array, but is {}", type_of(&v[0])),
                ));
            };
            let index = v[1].as_ref().expect("not nullish");
            if !is_number(index) {
                return Err(UpdateError::refused(
                    location_code!(28690),
                    format!("$arrayElemAt's second argument must be a numeric value, but is {}", type_of(&v[1])),
                ));
            }
            let i = match index {
                Bson::Int32(i) => i64::from(*i),
                Bson::Int64(i) if i32::try_from(*i).is_ok() => *i,
                Bson::Double(d) if d.fract() == 0.0 && *d >= f64::from(i32::MIN) && *d <= f64::from(i32::MAX) => {
                    *d as i64
                }
                Bson::Decimal128(_) => return Err(unsupported("$arrayElemAt with a decimal index")),
                _ => {
                    return Err(UpdateError::refused(
                        location_code!(28691),
                        format!(
                            "$arrayElemAt's second argument must be representable as a 32-bit integer: {}",
                            value_string(&v[1])
                        ),
                    ))
                }
            };
            let len = items.len() as i64;
            let at = if i < 0 { len + i } else { i };
            Ok(if (0..len).contains(&at) { Some(items[at as usize].clone()) } else { None })
        }
        Fun::ConcatArrays => {
            let mut out = Vec::new();
            for a in args {
                match a.eval(env)? {
                    v if nullish(&v) => return Ok(Some(Bson::Null)),
                    Some(Bson::Array(items)) => out.extend(items),
                    v => {
                        return Err(UpdateError::refused(
                            location_code!(28664),
                            format!("$concatArrays only supports arrays, not {}", type_of(&v)),
                        ))
                    }
                }
            }
            Ok(Some(Bson::Array(out)))
        }
    }
}

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

fn add(args: &[Expr], env: &Env) -> Result<Val, UpdateError> {
    let mut widest = Widest::Int;
    let (mut long, mut double, mut decimal) = (0i64, 0f64, Dec::from_i64(0));
    let mut date = false;
    for a in args {
        let v = a.eval(env)?;
        if nullish(&v) {
            return Ok(Some(Bson::Null));
        }
        let v = v.expect("not nullish");
        let operand = match &v {
            Bson::DateTime(d) => {
                if date {
                    return Err(UpdateError::refused(
                        location_code!(16612),
                        "only one date allowed in an $add expression",
                    ));
                }
                date = true;
                Bson::Int64(d.timestamp_millis())
            }
            n if is_number(n) => {
                let old = widest;
                if widest_of(n) > widest {
                    widest = widest_of(n);
                }
                if old != widest {
                    match (widest, old) {
                        (Widest::Double, _) => double = long as f64,
                        (Widest::Decimal, Widest::Double) => decimal = dec34(double),
                        (Widest::Decimal, _) => decimal = Dec::from_i64(long),
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
        match widest {
            Widest::Int | Widest::Long => {
                let x = match operand {
                    Bson::Int32(i) => i64::from(i),
                    Bson::Int64(i) => i,
                    _ => 0,
                };
                match long.checked_add(x) {
                    Some(t) => long = t,
                    None => {
                        widest = Widest::Double;
                        double = long as f64 + x as f64;
                    }
                }
            }
            Widest::Double => double += num_f64(&operand),
            Widest::Decimal => {
                decimal = decimal
                    .checked_add(num_dec(&operand, true))
                    .ok_or_else(|| unsupported("a decimal beyond 128-bit arithmetic"))?
            }
        }
    }
    if date {
        let ms = match widest {
            Widest::Int | Widest::Long => long,
            Widest::Double => {
                if !double.is_finite() || double.abs() >= 9.2e18 {
                    return Err(unsupported("a date overflow in $add"));
                }
                double.trunc() as i64
            }
            Widest::Decimal => return Err(unsupported("$add of a date and a decimal")),
        };
        return Ok(Some(Bson::DateTime(DateTime::from_millis(ms))));
    }
    Ok(Some(match widest {
        Widest::Int => int_or_long(long),
        Widest::Long => Bson::Int64(long),
        Widest::Double => Bson::Double(double),
        Widest::Decimal => dec_bson(Some(decimal))?,
    }))
}

fn multiply(args: &[Expr], env: &Env) -> Result<Val, UpdateError> {
    let mut widest = Widest::Int;
    let (mut long, mut double, mut decimal) = (1i64, 1f64, Some(Dec::from_i64(1)));
    for a in args {
        let v = a.eval(env)?;
        if nullish(&v) {
            return Ok(Some(Bson::Null));
        }
        let v = v.expect("not nullish");
        if !is_number(&v) {
            return Err(UpdateError::refused(
                TYPE_MISMATCH,
                format!("$multiply only supports numeric types, not {}", type_name(&v)),
            ));
        }
        if widest_of(&v) > widest {
            widest = widest_of(&v);
        }
        decimal = decimal.and_then(|d| d.checked_mul(num_dec(&v, false)));
        if widest != Widest::Decimal {
            let f = num_f64(&v);
            double *= f;
            let as_long = match v {
                Bson::Int32(i) => Some(i64::from(i)),
                Bson::Int64(i) => Some(i),
                _ => None,
            };
            match as_long.and_then(|x| long.checked_mul(x)) {
                Some(p) => long = p,
                None if as_long.is_some() => widest = Widest::Double,
                None => {}
            }
        }
    }
    Ok(Some(match widest {
        Widest::Int => int_or_long(long),
        Widest::Long => Bson::Int64(long),
        Widest::Double => Bson::Double(double),
        Widest::Decimal => dec_bson(decimal)?,
    }))
}

fn subtract(lhs: &Val, rhs: &Val) -> Result<Val, UpdateError> {
    if nullish(lhs) || nullish(rhs) {
        return Ok(Some(Bson::Null));
    }
    let (l, r) = (lhs.as_ref().expect("not nullish"), rhs.as_ref().expect("not nullish"));
    if is_number(l) && is_number(r) {
        let widest = if widest_of(l) > widest_of(r) { widest_of(l) } else { widest_of(r) };
        return Ok(Some(match widest {
            Widest::Decimal => dec_bson(num_dec(l, false).checked_add(negate(num_dec(r, false))))?,
            Widest::Double => Bson::Double(num_f64(l) - num_f64(r)),
            _ => {
                let (x, y) = (int_of(l).unwrap_or_default(), int_of(r).unwrap_or_default());
                match x.checked_sub(y) {
                    Some(d) if widest == Widest::Int => int_or_long(d),
                    Some(d) => Bson::Int64(d),
                    None => Bson::Double(x as f64 - y as f64),
                }
            }
        }));
    }
    if let Bson::DateTime(d) = l {
        return match r {
            Bson::DateTime(e) => Ok(Some(Bson::Int64(d.timestamp_millis().wrapping_sub(e.timestamp_millis())))),
            n if is_number(n) => {
                let ms = match n {
                    Bson::Int32(i) => i64::from(*i),
                    Bson::Int64(i) => *i,
                    Bson::Double(f) if f.is_finite() && f.abs() < 9.2e18 => f.trunc() as i64,
                    _ => return Err(unsupported("$subtract of this number from a date")),
                };
                Ok(Some(Bson::DateTime(DateTime::from_millis(d.timestamp_millis().wrapping_sub(ms)))))
            }
            other => {
                Err(UpdateError::refused(TYPE_MISMATCH, format!("can't $subtract {} from Date", type_name(other))))
            }
        };
    }
    Err(UpdateError::refused(TYPE_MISMATCH, format!("can't $subtract {} from {}", type_name(r), type_name(l))))
}

fn int_of(v: &Bson) -> Option<i64> {
    match v {
        Bson::Int32(i) => Some(i64::from(*i)),
        Bson::Int64(i) => Some(*i),
        _ => None,
    }
}

enum Conv {
    Fail(String),
    Unsupported(String),
}

fn target_name(t: Target) -> &'static str {
    match t {
        Target::Double => "double",
        Target::String => "string",
        Target::Int => "int",
        Target::Long => "long",
        Target::Decimal => "decimal",
        Target::Date => "date",
        Target::Bool => "bool",
    }
}

const SUFFIX: &str = "in $convert with no onError value";

fn no_conversion(from: &Bson, to: Target) -> Conv {
    Conv::Fail(format!("Unsupported conversion from {} to {} {SUFFIX}", type_name(from), target_name(to)))
}

fn overflow(shown: String) -> Conv {
    Conv::Fail(format!("Conversion would overflow target type {SUFFIX}: {shown}"))
}

/// `value` (neither null nor missing) converted as `$convert` converts it.
fn convert(value: &Bson, to: Target) -> Result<Bson, Conv> {
    let unsupported = |what: &str| Conv::Unsupported(format!("$convert {what}"));
    match (to, value) {
        (Target::String, Bson::String(_)) => Ok(value.clone()),
        (Target::String, Bson::Int32(i)) => Ok(Bson::String(i.to_string())),
        (Target::String, Bson::Int64(i)) => Ok(Bson::String(i.to_string())),
        (Target::String, Bson::Double(d)) => Ok(Bson::String(g(*d, 6))),
        (Target::String, Bson::Decimal128(d)) => Ok(Bson::String(d.to_string())),
        (Target::String, Bson::Boolean(b)) => Ok(Bson::String(b.to_string())),
        (Target::String, Bson::DateTime(d)) if formattable(d.timestamp_millis()) => {
            Ok(Bson::String(iso_date(d.timestamp_millis())))
        }
        (Target::String, Bson::DateTime(_)) => Err(unsupported("to string of a date outside years 0 to 9999")),
        (Target::String, Bson::ObjectId(o)) => Ok(Bson::String(o.to_hex())),
        (Target::String, Bson::Document(_) | Bson::Array(_)) => Err(no_conversion(value, to)),

        (Target::Bool, Bson::Boolean(_)) => Ok(value.clone()),
        (Target::Bool, n) if is_number(n) => Ok(Bson::Boolean(truthy(&Some(n.clone())))),
        (Target::Bool, Bson::String(_) | Bson::DateTime(_) | Bson::ObjectId(_)) => Ok(Bson::Boolean(true)),

        (Target::Double, Bson::Double(_)) => Ok(value.clone()),
        (Target::Double, Bson::Int32(i)) => Ok(Bson::Double(f64::from(*i))),
        (Target::Double, Bson::Int64(i)) => Ok(Bson::Double(*i as f64)),
        (Target::Double, Bson::Boolean(b)) => Ok(Bson::Double(if *b { 1.0 } else { 0.0 })),
        (Target::Double, Bson::DateTime(d)) => Ok(Bson::Double(d.timestamp_millis() as f64)),
        (Target::Double, Bson::Decimal128(d)) => match dec_of(d) {
            Dec::Finite { .. } => {
                let f = num_f64(value);
                if f.is_finite() {
                    Ok(Bson::Double(f))
                } else {
                    Err(unsupported("of a decimal beyond double's range"))
                }
            }
            _ => Err(unsupported("of a non-finite decimal")),
        },
        (Target::Double, Bson::String(s)) => {
            if is_simple_number(s) {
                Ok(Bson::Double(s.parse().map_err(|_| unsupported("of this string"))?))
            } else if !s.is_empty() && s.chars().all(|c| c.is_ascii_alphabetic()) && !is_special(s) {
                Err(Conv::Fail(format!("Failed to parse number '{s}' {SUFFIX}: Did not consume any digits")))
            } else {
                Err(unsupported("of this string to double"))
            }
        }

        (Target::Int | Target::Long, Bson::Int32(i)) => Ok(int_target(to, i64::from(*i))),
        (Target::Int, Bson::Int64(i)) => i32::try_from(*i).map(Bson::Int32).map_err(|_| overflow(String::new())),
        (Target::Long, Bson::Int64(_)) => Ok(value.clone()),
        (Target::Int | Target::Long, Bson::Boolean(b)) => Ok(int_target(to, i64::from(*b))),
        (Target::Long, Bson::DateTime(d)) => Ok(Bson::Int64(d.timestamp_millis())),
        (Target::Int | Target::Long, Bson::Double(d)) => {
            if !d.is_finite() {
                return Err(unsupported("of a non-finite double to an integer"));
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
        (Target::Int | Target::Long, Bson::Decimal128(d)) => match dec_of(d) {
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
            _ => Err(unsupported("of a non-finite decimal to an integer")),
        },
        (Target::Int | Target::Long, Bson::String(s)) => {
            let digits = s.strip_prefix('-').unwrap_or(s);
            if !digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit()) {
                match s.parse::<i64>().ok().filter(|v| to == Target::Long || i32::try_from(*v).is_ok()) {
                    Some(v) => Ok(int_target(to, v)),
                    None => Err(unsupported("of an out-of-range string")),
                }
            } else if s.chars().any(|c| c.is_ascii_digit()) && s.chars().all(|c| c.is_ascii_digit() || c == '.')
                || !s.is_empty() && s.chars().all(|c| c.is_ascii_alphabetic())
            {
                Err(Conv::Fail(format!("Failed to parse number '{s}' {SUFFIX}: Did not consume whole string.")))
            } else {
                Err(unsupported("of this string to an integer"))
            }
        }

        (Target::Decimal, Bson::Decimal128(_)) => Ok(value.clone()),
        (Target::Decimal, Bson::Int32(_) | Bson::Int64(_)) => {
            dec_bson(Some(num_dec(value, false))).map_err(|_| unsupported(""))
        }
        (Target::Decimal, Bson::Double(d)) if d.is_finite() => dec_bson(Some(dec15(*d))).map_err(|_| unsupported("")),
        (Target::Decimal, Bson::Boolean(b)) => {
            dec_bson(Some(Dec::from_i64(i64::from(*b)))).map_err(|_| unsupported(""))
        }
        (Target::Decimal, Bson::DateTime(d)) => {
            dec_bson(Some(Dec::from_i64(d.timestamp_millis()))).map_err(|_| unsupported(""))
        }
        (Target::Decimal, Bson::String(s)) => {
            if is_simple_number(s) {
                s.parse::<Decimal128>().map(Bson::Decimal128).map_err(|_| unsupported("of this string"))
            } else if !s.is_empty() && s.chars().all(|c| c.is_ascii_alphabetic()) && !is_special(s) {
                Err(Conv::Fail(format!("Failed to parse number '{s}' {SUFFIX}: Failed to parse string to decimal")))
            } else {
                Err(unsupported("of this string to decimal"))
            }
        }

        (Target::Date, Bson::DateTime(_)) => Ok(value.clone()),
        (Target::Date, Bson::Int64(i)) => Ok(Bson::DateTime(DateTime::from_millis(*i))),
        (Target::Date, Bson::Double(d)) if d.is_finite() && d.abs() < 9.2e18 => {
            Ok(Bson::DateTime(DateTime::from_millis(d.trunc() as i64)))
        }
        (Target::Date, Bson::ObjectId(o)) => Ok(Bson::DateTime(DateTime::from_millis(
            i64::from(u32::from_be_bytes(o.bytes()[..4].try_into().expect("four bytes"))) * 1000,
        ))),
        (Target::Date, Bson::Int32(_) | Bson::Boolean(_)) => Err(no_conversion(value, to)),
        (Target::Date, _) => Err(unsupported("to date of this value")),

        (Target::Int | Target::Double | Target::Decimal, Bson::ObjectId(_) | Bson::Document(_) | Bson::Array(_)) => {
            Err(no_conversion(value, to))
        }
        (Target::Int, Bson::DateTime(_)) => Err(no_conversion(value, to)),
        (Target::Long, Bson::ObjectId(_) | Bson::Document(_) | Bson::Array(_)) => Err(no_conversion(value, to)),
        _ => Err(unsupported(&format!("from {} to {}", type_name(value), target_name(to)))),
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

/// C's `%.{precision}g`.
pub(crate) fn g(d: f64, precision: usize) -> String {
    if d.is_nan() {
        return "nan".to_owned();
    }
    if d.is_infinite() {
        return if d > 0.0 { "inf".to_owned() } else { "-inf".to_owned() };
    }
    if d == 0.0 {
        return if d.is_sign_negative() { "-0".to_owned() } else { "0".to_owned() };
    }
    let p = precision.max(1);
    let scientific = format!("{d:.*e}", p - 1);
    let (mantissa, exponent) = scientific.split_once('e').unwrap_or((&scientific, "0"));
    let exponent: i32 = exponent.parse().unwrap_or(0);
    if exponent >= -4 && exponent < p as i32 {
        let decimals = (p as i32 - 1 - exponent).max(0) as usize;
        return trim(format!("{d:.decimals$}"));
    }
    let mantissa = trim(mantissa.to_owned());
    let sign = if exponent < 0 { '-' } else { '+' };
    format!("{mantissa}e{sign}{:02}", exponent.abs())
}

fn trim(text: String) -> String {
    if !text.contains('.') {
        return text;
    }
    text.trim_end_matches('0').trim_end_matches('.').to_owned()
}

/// Whether mongod can write the date (years 0 to 9999).
fn formattable(ms: i64) -> bool {
    (-62_167_219_200_000..253_402_300_800_000).contains(&ms)
}

/// `2020-01-01T00:00:00.000Z`.
pub(crate) fn iso_date(ms: i64) -> String {
    let days = ms.div_euclid(86_400_000);
    let rem = ms.rem_euclid(86_400_000);
    // Howard Hinnant's civil_from_days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:03}Z",
        rem / 3_600_000,
        rem / 60_000 % 60,
        rem / 1000 % 60,
        rem % 1000
    )
}

/// A value as mongod's aggregation `Value` prints it in messages (`{a: 1, b: "x"}`).
pub(crate) fn value_string(v: &Val) -> String {
    let Some(v) = v else { return "MISSING".to_owned() };
    match v {
        Bson::Double(d) => g(*d, 6),
        Bson::String(s) => format!("\"{s}\""),
        Bson::Document(d) => document_string(d),
        Bson::Array(items) => {
            let parts: Vec<String> = items.iter().map(|i| value_string(&Some(i.clone()))).collect();
            format!("[{}]", parts.join(", "))
        }
        Bson::Int32(i) => i.to_string(),
        Bson::Int64(i) => i.to_string(),
        Bson::Boolean(b) => b.to_string(),
        Bson::Null => "null".to_owned(),
        Bson::Undefined => "undefined".to_owned(),
        Bson::Decimal128(d) => d.to_string(),
        Bson::DateTime(d) if formattable(d.timestamp_millis()) => iso_date(d.timestamp_millis()),
        Bson::DateTime(_) => "illegal date".to_owned(),
        Bson::ObjectId(o) => o.to_hex(),
        other => other.to_string(),
    }
}

pub(crate) fn document_string(d: &Document) -> String {
    let parts: Vec<String> = d.iter().map(|(k, v)| format!("{k}: {}", value_string(&Some(v.clone())))).collect();
    format!("{{{}}}", parts.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bson::doc;

    fn run(e: Bson, root: Document) -> Result<Val, UpdateError> {
        parse(&e, &[])?.eval(&Env { root: Bson::Document(root), now: 0, vars: Vec::new() })
    }

    #[test]
    fn arithmetic_widens_as_mongod() {
        let r = |e: Bson| run(e, doc! {}).unwrap();
        assert_eq!(r(Bson::Document(doc! { "$add": [i32::MAX, 1] })), Some(Bson::Int64(2_147_483_648)));
        assert_eq!(r(Bson::Document(doc! { "$add": [1, 1.5] })), Some(Bson::Double(2.5)));
        assert_eq!(r(Bson::Document(doc! { "$add": [i64::MAX, 1] })), Some(Bson::Double(9.223372036854776e18)));
        assert_eq!(r(Bson::Document(doc! { "$concat": ["a", null] })), Some(Bson::Null));
        assert_eq!(r(Bson::Document(doc! { "$subtract": [i32::MIN, 1] })), Some(Bson::Int64(-2_147_483_649)));
        assert_eq!(r(Bson::Document(doc! { "$multiply": [i64::MAX, 2] })), Some(Bson::Double(1.8446744073709552e19)));
    }

    #[test]
    fn strings_as_mongod_writes_them() {
        assert_eq!(g(1.234_567_89, 6), "1.23457");
        assert_eq!(g(1e20, 6), "1e+20");
        assert_eq!(g(0.00001, 6), "1e-05");
        assert_eq!(g(-0.0, 6), "-0");
        assert_eq!(iso_date(1_577_836_800_500), "2020-01-01T00:00:00.500Z");
        assert_eq!(document_string(&doc! { "_id": 1, "a": [1, "x"] }), "{_id: 1, a: [1, \"x\"]}");
    }

    #[test]
    fn refusals_word_for_word() {
        let e = run(Bson::Document(doc! { "$concat": ["x", 1] }), doc! {}).unwrap_err();
        assert_eq!(e, UpdateError::refused(location_code!(16702), "$concat only supports strings, not int"));
        let e = run(Bson::Document(doc! { "$foo": 1 }), doc! {}).unwrap_err();
        assert_eq!(e.server_code(), Some(INVALID_PIPELINE_OPERATOR));
        let e = run(Bson::Document(doc! { "$dateToString": 1 }), doc! {}).unwrap_err();
        assert!(matches!(e, UpdateError::Unsupported(_)));
    }
}
