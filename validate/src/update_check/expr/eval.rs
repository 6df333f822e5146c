//! An [`Expr`] evaluated against a document ([`Env`]), as mongod 6.0 evaluates it: operands in
//! mongod's order, a null or missing operand where mongod stops at one, mongod's refusals
//! word for word.

use std::cmp::Ordering;

use mongo_schema_contract::codes::CONVERSION_FAILURE;
use mongo_schema_contract::location_code;
use mongo_schema_core::bson::{Bson, DateTime, Document};

use super::super::arith::{self, is_number, Product, Sum};
use super::super::format::{type_name, value_string};
use super::super::order;
use super::super::UpdateError;
use super::convert::{convert, truthy, Conv};
use super::{unsupported, Expr, Fun, Target, Val, Var};

/// What an expression is evaluated against.
#[derive(Clone)]
pub(crate) struct Env {
    pub(crate) root: Bson,
    pub(crate) now: i64,
    pub(crate) vars: Vec<(String, Bson)>,
}

fn nullish(v: &Val) -> bool {
    matches!(v, None | Some(Bson::Null | Bson::Undefined))
}

/// The value unless it is null, undefined or missing.
fn present(v: Val) -> Option<Bson> {
    v.filter(|v| !matches!(v, Bson::Null | Bson::Undefined))
}

fn type_of(v: &Val) -> &'static str {
    v.as_ref().map_or("missing", type_name)
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
            Expr::Path { var, fields } => Ok(path(var, fields, env)),
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
                let Some(to) = present(to.eval(env)?) else { return Ok(Some(Bson::Null)) };
                let target = Target::named(&to)?;
                let Some(value) = present(value) else {
                    return match on_null {
                        Some(e) => e.eval(env),
                        None => Ok(Some(Bson::Null)),
                    };
                };
                match convert(&value, target) {
                    Ok(v) => Ok(Some(v)),
                    Err(Conv::Fail(message)) => match on_error {
                        Some(e) => e.eval(env),
                        None => Err(UpdateError::refused(CONVERSION_FAILURE, message)),
                    },
                    Err(Conv::Unsupported(what)) => Err(unsupported(what)),
                }
            }
            Expr::Map { input, var, body } => map_or_filter(true, input, var, body, env),
            Expr::Filter { input, var, cond } => map_or_filter(false, input, var, cond, env),
        }
    }
}

/// A field path from a variable (`$a.b` is `$$CURRENT.a.b`).
fn path(var: &Var, fields: &[String], env: &Env) -> Val {
    let base = match var {
        Var::Current | Var::Root => env.root.clone(),
        Var::Now => Bson::DateTime(DateTime::from_millis(env.now)),
        Var::Remove => return None,
        Var::User(name) => env.vars.iter().rev().find(|(n, _)| n == name).map(|(_, v)| v.clone()).unwrap_or(Bson::Null),
    };
    if fields.is_empty() {
        return Some(base);
    }
    match &base {
        Bson::Document(_) => path_in(&base, fields),
        Bson::Array(items) => Some(path_array(items, fields)),
        _ => None,
    }
}

/// `$map` (`is_map`) or `$filter`: `body` evaluated with `var` bound to each element.
fn map_or_filter(is_map: bool, input: &Expr, var: &str, body: &Expr, env: &Env) -> Result<Val, UpdateError> {
    let value = input.eval(env)?;
    if nullish(&value) {
        return Ok(Some(Bson::Null));
    }
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
        inner.vars.push((var.to_owned(), item.clone()));
        let result = body.eval(&inner)?;
        if is_map {
            out.push(result.unwrap_or(Bson::Null));
        } else if truthy(&result) {
            out.push(item);
        }
    }
    Ok(Some(Bson::Array(out)))
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
            match (present(lhs), present(rhs)) {
                (Some(l), Some(r)) => Ok(Some(arith::subtract(&l, &r)?)),
                _ => Ok(Some(Bson::Null)),
            }
        }
        Fun::Concat => concat(args, env),
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
        Fun::MergeObjects => merge_objects(args, env),
        Fun::To(target) => {
            let Some(v) = present(args[0].eval(env)?) else { return Ok(Some(Bson::Null)) };
            match convert(&v, target) {
                Ok(v) => Ok(Some(v)),
                Err(Conv::Fail(message)) => Err(UpdateError::refused(CONVERSION_FAILURE, message)),
                Err(Conv::Unsupported(what)) => Err(unsupported(what)),
            }
        }
        Fun::Cmp(op) => Ok(Some(Bson::Boolean(comparison(op, &eval_all(args, env)?)))),
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
        Fun::ArrayElemAt => array_elem_at(args, env),
        Fun::ConcatArrays => concat_arrays(args, env),
    }
}

/// `$eq`, `$ne`, `$gt`, `$gte`, `$lt` or `$lte` of two values, in mongod's order.
fn comparison(op: &str, v: &[Val]) -> bool {
    let c = compare(&v[0], &v[1]);
    match op {
        "$eq" => c == Ordering::Equal,
        "$ne" => c != Ordering::Equal,
        "$gt" => c == Ordering::Greater,
        "$gte" => c != Ordering::Less,
        "$lt" => c == Ordering::Less,
        _ => c != Ordering::Greater,
    }
}

/// `$concat`: strings only; a null or missing operand makes the result null.
fn concat(args: &[Expr], env: &Env) -> Result<Val, UpdateError> {
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

/// `$mergeObjects`: later fields win; null and missing operands are skipped.
fn merge_objects(args: &[Expr], env: &Env) -> Result<Val, UpdateError> {
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

/// `$arrayElemAt`: an index from the end when negative, missing past either end.
fn array_elem_at(args: &[Expr], env: &Env) -> Result<Val, UpdateError> {
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
        Bson::Double(d) if d.fract() == 0.0 && *d >= f64::from(i32::MIN) && *d <= f64::from(i32::MAX) => *d as i64,
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

/// `$concatArrays`: arrays only; a null or missing operand makes the result null.
fn concat_arrays(args: &[Expr], env: &Env) -> Result<Val, UpdateError> {
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

/// `$add`: a null or missing operand makes the result null, before later operands are read.
fn add(args: &[Expr], env: &Env) -> Result<Val, UpdateError> {
    let mut sum = Sum::default();
    for a in args {
        let Some(v) = present(a.eval(env)?) else { return Ok(Some(Bson::Null)) };
        sum.add(&v)?;
    }
    Ok(Some(sum.total()?))
}

/// `$multiply`: a null or missing operand makes the result null, before later operands are
/// read.
fn multiply(args: &[Expr], env: &Env) -> Result<Val, UpdateError> {
    let mut product = Product::default();
    for a in args {
        let Some(v) = present(a.eval(env)?) else { return Ok(Some(Bson::Null)) };
        product.multiply(&v)?;
    }
    Ok(Some(product.total()?))
}
