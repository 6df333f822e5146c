//! An expression document read into an [`Expr`], as mongod parses it before it reads any
//! document: a malformed expression is refused with mongod's error, an operator mongod knows
//! and this crate does not model is `Unsupported`.

use mongo_schema_contract::codes::{ServerCode, FAILED_TO_PARSE, INVALID_PIPELINE_OPERATOR};
use mongo_schema_contract::location_code;
use mongo_schema_core::bson::{Bson, Document};

use super::super::UpdateError;
use super::{unsupported, Expr, Fun, Target, Var};

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
    if let Some(target) = to_target(name) {
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
            Bson::Document(d) => cond(d, vars),
            _ => call(Fun::Cond, Some(3)),
        },
        "$convert" => convert(arg, vars),
        "$map" | "$filter" => map_or_filter(name, arg, vars),
        _ if KNOWN.contains(&name) => Err(unsupported(format!("the expression {name}"))),
        _ => Err(UpdateError::refused(INVALID_PIPELINE_OPERATOR, format!("Unrecognized expression '{name}'"))),
    }
}

/// The type a `$to...` operator converts to.
fn to_target(name: &str) -> Option<Target> {
    match name {
        "$toString" => Some(Target::String),
        "$toInt" => Some(Target::Int),
        "$toLong" => Some(Target::Long),
        "$toDouble" => Some(Target::Double),
        "$toDecimal" => Some(Target::Decimal),
        "$toDate" => Some(Target::Date),
        _ => None,
    }
}

/// `$cond`'s object form, `{if, then, else}`.
fn cond(d: &Document, vars: &[String]) -> Result<Expr, UpdateError> {
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
    let missing =
        |code: ServerCode, what: &str| UpdateError::refused(code, format!("Missing '{what}' parameter to $cond"));
    let i = i.ok_or_else(|| missing(location_code!(17080), "if"))?;
    let t = t.ok_or_else(|| missing(location_code!(17081), "then"))?;
    let e = e.ok_or_else(|| missing(location_code!(17082), "else"))?;
    Ok(Expr::Call(Fun::Cond, vec![i, t, e]))
}

/// `$convert`'s `{input, to, onError, onNull}`.
fn convert(arg: &Bson, vars: &[String]) -> Result<Expr, UpdateError> {
    let Bson::Document(d) = arg else { return Err(unsupported("$convert of a non-object")) };
    let (mut input, mut to, mut on_error, mut on_null) = (None, None, None, None);
    for (k, v) in d {
        let slot = match k.as_str() {
            "input" => &mut input,
            "to" => &mut to,
            "onError" => &mut on_error,
            "onNull" => &mut on_null,
            _ => return Err(UpdateError::refused(FAILED_TO_PARSE, format!("$convert found an unknown argument: {k}"))),
        };
        *slot = Some(Box::new(parse(v, vars)?));
    }
    let missing = |what: &str| UpdateError::refused(FAILED_TO_PARSE, format!("Missing '{what}' parameter to $convert"));
    let input = input.ok_or_else(|| missing("input"))?;
    let to = to.ok_or_else(|| missing("to"))?;
    Ok(Expr::Convert { input, to, on_error, on_null })
}

/// `$map`'s `{input, as, in}` or `$filter`'s `{input, as, cond}`: the body sees the variable.
fn map_or_filter(name: &str, arg: &Bson, vars: &[String]) -> Result<Expr, UpdateError> {
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
