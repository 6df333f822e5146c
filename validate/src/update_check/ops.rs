//! The update operators: each parsed with mongod's checks (its error codes and wording), and
//! applied to the value at its path, or to a path that does not exist yet.

use std::cell::{Cell, RefCell};
use std::cmp::Ordering;
use std::collections::HashMap;

use mongo_schema_contract::codes::{BAD_VALUE, FAILED_TO_PARSE, TYPE_MISMATCH};
use mongo_schema_core::bson::{Bson, DateTime, Document, Timestamp};

use super::arith::{self, ArithError};
use super::format::{element, type_name, value_text};
use super::matcher;
use super::order::{compare, identical, same};
use super::UpdateError;

/// An operator with its operand, at its path.
#[derive(Clone, Debug)]
pub(crate) struct Leaf {
    pub(crate) op: Op,
    /// The path as written in the update.
    pub(crate) path: String,
}

#[derive(Clone, Debug)]
pub(crate) enum Op {
    Set(Bson),
    SetOnInsert(Bson),
    Unset,
    Inc(Bson),
    Mul(Bson),
    Min(Bson),
    Max(Bson),
    CurrentDate {
        timestamp: bool,
    },
    Push(Push),
    AddToSet(Vec<Bson>),
    Pop {
        front: bool,
    },
    Pull(Bson),
    PullAll(Vec<Bson>),
    /// The destination of a `$rename`, whose value comes from `from`.
    Rename {
        from: String,
    },
    /// The source of a `$rename`: holds its path against conflicts, removed after the rest.
    Placeholder,
}

/// `$push` with its modifiers.
#[derive(Clone, Debug)]
pub(crate) struct Push {
    values: Vec<Bson>,
    slice: Option<i64>,
    sort: Option<Sort>,
    position: Option<i64>,
}

#[derive(Clone, Debug)]
enum Sort {
    Whole(bool),
    Fields(Vec<(String, bool)>),
}

fn bad(message: impl Into<String>) -> UpdateError {
    UpdateError::refused(BAD_VALUE, message)
}

impl Leaf {
    pub(crate) fn new(op: Op, path: &str) -> Leaf {
        Leaf { op, path: path.to_owned() }
    }

    /// Parses one `path: operand` of `operator`, refusing what mongod refuses.
    pub(crate) fn parse(operator: &str, path: &str, arg: &Bson) -> Result<Leaf, UpdateError> {
        let op = match operator {
            "$set" => Op::Set(arg.clone()),
            "$setOnInsert" => Op::SetOnInsert(arg.clone()),
            "$unset" => Op::Unset,
            "$inc" | "$mul" if !arith::is_number(arg) => {
                let verb = if operator == "$inc" { "increment" } else { "multiply" };
                return Err(UpdateError::refused(
                    TYPE_MISMATCH,
                    format!("Cannot {verb} with non-numeric argument: {{{}}}", element(path, arg)),
                ));
            }
            "$inc" => Op::Inc(arg.clone()),
            "$mul" => Op::Mul(arg.clone()),
            "$min" => Op::Min(arg.clone()),
            "$max" => Op::Max(arg.clone()),
            "$currentDate" => Op::CurrentDate { timestamp: current_date(arg)? },
            "$push" => Op::Push(Push::parse(arg)?),
            "$addToSet" => Op::AddToSet(add_to_set(arg)?),
            "$pop" => Op::Pop { front: pop(path, arg)? },
            "$pull" => {
                check_pull(arg)?;
                Op::Pull(arg.clone())
            }
            "$pullAll" => match arg {
                Bson::Array(items) => Op::PullAll(items.clone()),
                other => {
                    return Err(bad(format!(
                        "$pullAll requires an array argument but was given a {}",
                        type_name(other)
                    )))
                }
            },
            other => unreachable!("operator {other} is checked before its fields"),
        };
        Ok(Leaf::new(op, path))
    }

    /// The destination of `$rename: {path: arg}`, checked as mongod checks it.
    pub(crate) fn rename(path: &str, arg: &Bson) -> Result<String, UpdateError> {
        let Bson::String(to) = arg else {
            return Err(bad(format!("The 'to' field for $rename must be a string: {}", element(path, arg))));
        };
        super::path::check_path(path)?;
        super::path::check_path(to)?;
        if path == to {
            return Err(bad(format!("The source and target field for $rename must differ: {}", element(path, arg))));
        }
        let prefix = |a: &str, b: &str| b.strip_prefix(a).is_some_and(|rest| rest.starts_with('.'));
        if prefix(path, to) || prefix(to, path) {
            return Err(bad(format!(
                "The source and target field for $rename must not be on the same path: {}",
                element(path, arg)
            )));
        }
        if super::path::is_dynamic(path) {
            return Err(bad(format!("The source field for $rename may not be dynamic: {path}")));
        }
        if super::path::is_dynamic(to) {
            return Err(bad(format!("The destination field for $rename may not be dynamic: {to}")));
        }
        Ok(to.clone())
    }

    /// Applies the operator to the value at its path, noting in `ctx` whether it changed
    /// anything (mongod writes, and validates, only then). `Ok(true)` asks the caller to
    /// remove the value (`$unset`).
    pub(crate) fn apply(&self, value: &mut Bson, ctx: &Apply) -> Result<bool, UpdateError> {
        let changed = match &self.op {
            Op::Unset => return Ok(true),
            Op::Set(v) => replace(value, v),
            Op::SetOnInsert(v) if ctx.inserting => replace(value, v),
            Op::SetOnInsert(_) | Op::Placeholder => false,
            Op::Inc(v) => self.compute(value, arith::Op::Add, v, ctx)?,
            Op::Mul(v) => self.compute(value, arith::Op::Mul, v, ctx)?,
            Op::Min(v) => compare(v, value) == Ordering::Less && replace(value, v),
            Op::Max(v) => compare(v, value) == Ordering::Greater && replace(value, v),
            Op::CurrentDate { timestamp } => {
                *value = ctx.now(*timestamp);
                true
            }
            Op::Rename { .. } => match ctx.renamed.get(&self.path) {
                Some(Ok(_)) if ctx.id_renamed.contains(&self.path) => return Err(UpdateError::immutable_id()),
                Some(Ok(v)) => {
                    *value = v.clone();
                    true
                }
                Some(Err(e)) => return Err(e.clone()),
                None => false,
            },
            Op::Push(push) => push.apply(self.array(value, ctx, "$push")?),
            Op::AddToSet(values) => {
                let items = self.array(value, ctx, "$addToSet")?;
                let before = items.len();
                for v in values {
                    if !items.iter().any(|item| same(item, v)) {
                        items.push(v.clone());
                    }
                }
                items.len() != before
            }
            Op::Pop { front } => {
                let items = self.array(value, ctx, "$pop")?;
                match (items.is_empty(), front) {
                    (true, _) => false,
                    (false, true) => {
                        items.remove(0);
                        true
                    }
                    (false, false) => items.pop().is_some(),
                }
            }
            Op::Pull(condition) => {
                let items = self.array(value, ctx, "$pull")?;
                let before = items.len();
                let mut kept = Vec::with_capacity(items.len());
                for item in items.drain(..) {
                    if !pulls(condition, &item)? {
                        kept.push(item);
                    }
                }
                *items = kept;
                items.len() != before
            }
            Op::PullAll(values) => {
                let items = self.array(value, ctx, "$pullAll")?;
                let before = items.len();
                items.retain(|item| !values.iter().any(|v| same(item, v)));
                items.len() != before
            }
        };
        if changed {
            ctx.modified.set(true);
        }
        Ok(false)
    }

    /// The value the operator gives a path that does not exist; `None` when it leaves the
    /// path alone (`$unset`, `$pop`, `$pull`, `$pullAll`, a `$rename` whose source is
    /// missing): then a path that cannot be created is no error either.
    pub(crate) fn create(&self, ctx: &Apply) -> Result<Option<Bson>, UpdateError> {
        Ok(Some(match &self.op {
            Op::Set(v) | Op::Min(v) | Op::Max(v) => v.clone(),
            Op::SetOnInsert(v) if ctx.inserting => v.clone(),
            Op::Inc(v) => v.clone(),
            Op::Mul(v) => self.arithmetic(arith::Op::Mul, &Bson::Int32(0), v, ctx)?,
            Op::CurrentDate { timestamp } => ctx.now(*timestamp),
            Op::Push(push) => {
                let mut items = Vec::new();
                let _ = push.apply(&mut items);
                Bson::Array(items)
            }
            Op::AddToSet(values) => {
                let mut items: Vec<Bson> = Vec::new();
                for v in values {
                    if !items.iter().any(|item| same(item, v)) {
                        items.push(v.clone());
                    }
                }
                Bson::Array(items)
            }
            Op::Rename { .. } => match ctx.renamed.get(&self.path) {
                Some(Ok(_)) if ctx.id_renamed.contains(&self.path) => return Err(UpdateError::immutable_id()),
                Some(Ok(v)) => v.clone(),
                Some(Err(e)) => return Err(e.clone()),
                None => return Ok(None),
            },
            Op::SetOnInsert(_) | Op::Unset | Op::Pop { .. } | Op::Pull(_) | Op::PullAll(_) | Op::Placeholder => {
                return Ok(None)
            }
        }))
    }

    /// `$inc`/`$mul` on an existing value; a result mongod deems identical leaves it alone.
    fn compute(&self, value: &mut Bson, op: arith::Op, operand: &Bson, ctx: &Apply) -> Result<bool, UpdateError> {
        let result = self.arithmetic(op, value, operand, ctx)?;
        if arith::identical(&result, value) {
            return Ok(false);
        }
        *value = result;
        Ok(true)
    }

    fn arithmetic(&self, op: arith::Op, current: &Bson, operand: &Bson, ctx: &Apply) -> Result<Bson, UpdateError> {
        let name = match op {
            arith::Op::Add => "$inc",
            arith::Op::Mul => "$mul",
        };
        if !arith::is_number(current) {
            return Err(UpdateError::refused(
                TYPE_MISMATCH,
                format!(
                    "Cannot apply {name} to a value of non-numeric type. {} has the field '{}' of non-numeric type {}",
                    ctx.id_text(),
                    ctx.at.borrow().0,
                    type_name(current)
                ),
            ));
        }
        arith::apply(op, current, operand).map_err(|e| match e {
            ArithError::Overflow => bad(format!(
                "Failed to apply {name} operations to current value (({}){}) for document {}",
                if matches!(current, Bson::Int32(_)) { "NumberInt" } else { "NumberLong" },
                value_text(current),
                ctx.id_text()
            )),
            ArithError::Decimal => UpdateError::Unsupported(format!(
                "{name} at '{}': a decimal result beyond 128-bit exact arithmetic",
                self.path
            )),
        })
    }

    fn array<'v>(&self, value: &'v mut Bson, ctx: &Apply, operator: &str) -> Result<&'v mut Vec<Bson>, UpdateError> {
        if let Bson::Array(items) = value {
            return Ok(items);
        }
        let at = ctx.at.borrow();
        let (field, path, kind) = (&at.0, &at.1, type_name(value));
        Err(match operator {
            "$push" => {
                bad(format!("The field '{path}' must be an array but is of type {kind} in document {}", ctx.id_text()))
            }
            "$addToSet" => bad(format!(
                "Cannot apply $addToSet to non-array field. Field named '{field}' has non-array type {kind}"
            )),
            "$pop" => UpdateError::refused(
                TYPE_MISMATCH,
                format!("Path '{path}' contains an element of non-array type '{kind}'"),
            ),
            _ => bad("Cannot apply $pull to a non-array value"),
        })
    }
}

/// What applying an update needs besides the tree.
pub(crate) struct Apply {
    /// The array position the filter matched (what `$` stands for).
    pub(super) matched: Option<usize>,
    /// The array filters, by identifier.
    pub(super) filters: HashMap<String, Document>,
    pub(super) inserting: bool,
    /// The document's `_id`, as messages show it.
    pub(super) id: Option<Bson>,
    pub(super) now_millis: i64,
    /// `$rename` destinations with the source values they receive.
    /// (The source's value, or why mongod refuses to move it.)
    pub(super) renamed: HashMap<String, Result<Bson, UpdateError>>,
    /// `$rename` destinations whose source is `_id` (refused once the value is set).
    pub(super) id_renamed: Vec<String>,
    /// Whether any operator changed anything (mongod's no-op detection, per operator).
    pub(super) modified: Cell<bool>,
    /// The name and path (positions resolved) of the value an operator is applied to, as
    /// mongod's messages name it.
    pub(super) at: RefCell<(String, String)>,
}

impl Apply {
    pub(super) fn id_text(&self) -> String {
        format!("{{{}}}", self.id_element())
    }

    /// `_id: 1`, as mongod's messages name the document.
    pub(super) fn id_element(&self) -> String {
        self.id.as_ref().map(|id| element("_id", id)).unwrap_or_default()
    }
}

impl Apply {
    fn now(&self, timestamp: bool) -> Bson {
        if timestamp {
            Bson::Timestamp(Timestamp { time: (self.now_millis / 1000) as u32, increment: 1 })
        } else {
            Bson::DateTime(DateTime::from_millis(self.now_millis))
        }
    }
}

/// Sets `value` to `new` unless it already is that (same type, same bytes).
fn replace(value: &mut Bson, new: &Bson) -> bool {
    if identical(value, new) {
        return false;
    }
    *value = new.clone();
    true
}

fn current_date(arg: &Bson) -> Result<bool, UpdateError> {
    match arg {
        Bson::Boolean(_) => Ok(false),
        Bson::Document(d) => {
            if d.len() != 1 || !d.contains_key("$type") {
                return Err(bad(
                    "The only valid field of the option is '$type': {$currentDate: {field : {$type: 'date/timestamp'}}}",
                ));
            }
            match d.get("$type") {
                Some(Bson::String(t)) if t == "date" => Ok(false),
                Some(Bson::String(t)) if t == "timestamp" => Ok(true),
                _ => Err(bad(
                    "The '$type' string field is required to be 'date' or 'timestamp': {$currentDate: {field : {$type: 'date'}}}",
                )),
            }
        }
        other => Err(bad(format!(
            "{} is not valid type for $currentDate. Please use a boolean ('true') or a $type expression ({{$type: 'timestamp/date'}}).",
            type_name(other)
        ))),
    }
}

fn add_to_set(arg: &Bson) -> Result<Vec<Bson>, UpdateError> {
    let Bson::Document(d) = arg else { return Ok(vec![arg.clone()]) };
    let Some((first, each)) = d.iter().next() else { return Ok(vec![arg.clone()]) };
    if first != "$each" {
        return Ok(vec![arg.clone()]);
    }
    let Bson::Array(items) = each else {
        return Err(bad(format!(
            "The argument to $each in $addToSet must be an array but it was of type {}",
            type_name(each)
        )));
    };
    if d.len() > 1 {
        return Err(bad(format!("Found unexpected fields after $each in $addToSet: {}", super::format::document(d))));
    }
    Ok(items.clone())
}

fn pop(path: &str, arg: &Bson) -> Result<bool, UpdateError> {
    let number = match arg {
        Bson::Int32(v) => f64::from(*v),
        Bson::Int64(v) => *v as f64,
        Bson::Double(v) => *v,
        _ => {
            return Err(UpdateError::refused(FAILED_TO_PARSE, format!("Expected a number in: {}", element(path, arg))))
        }
    };
    if number != 1.0 && number != -1.0 {
        return Err(UpdateError::refused(FAILED_TO_PARSE, format!("$pop expects 1 or -1, found: {}", value_text(arg))));
    }
    Ok(number < 0.0)
}

/// Whether `$pull`'s condition removes `item`: a query on document elements, an operator
/// condition on any element, or equality.
fn pulls(condition: &Bson, item: &Bson) -> Result<bool, UpdateError> {
    match condition {
        Bson::Document(query) if !query.keys().next().is_some_and(|k| path_operator(k)) => match item {
            Bson::Document(d) => Ok(matcher::matches(d, query)?.0),
            _ => Ok(false),
        },
        Bson::Document(_) | Bson::RegularExpression(_) => matcher::value_matches(item, condition),
        value => Ok(same(item, value)),
    }
}

/// Operators that follow a path in a query (`{a: {$gt: 1}}`), as opposed to a query.
fn path_operator(name: &str) -> bool {
    matcher::is_path_operator(name)
}

/// mongod parses a `$pull` condition with the update: a query on document elements, or a
/// condition on any element.
fn check_pull(condition: &Bson) -> Result<(), UpdateError> {
    match condition {
        Bson::Document(query) if !query.keys().next().is_some_and(|k| path_operator(k)) => matcher::check_query(query),
        Bson::Document(_) | Bson::RegularExpression(_) => matcher::check_condition(condition),
        _ => Ok(()),
    }
}

impl Push {
    fn parse(arg: &Bson) -> Result<Push, UpdateError> {
        let mut push = Push { values: vec![arg.clone()], slice: None, sort: None, position: None };
        let Bson::Document(clauses) = arg else { return Ok(push) };
        if !clauses.contains_key("$each") {
            return Ok(push);
        }
        let mut seen = Vec::new();
        for (name, _) in clauses {
            if !matches!(name.as_str(), "$each" | "$slice" | "$sort" | "$position") {
                return Err(bad(format!("Unrecognized clause in $push: {name}")));
            }
            if seen.contains(&name.as_str()) {
                return Err(bad(format!("Only one {name} is supported.")));
            }
            seen.push(name.as_str());
        }
        push.values = match clauses.get("$each") {
            Some(Bson::Array(items)) => items.clone(),
            Some(other) => {
                return Err(bad(format!(
                    "The argument to $each in $push must be an array but it was of type: {}",
                    type_name(other)
                )))
            }
            None => Vec::new(),
        };
        if let Some(slice) = clauses.get("$slice") {
            push.slice = Some(integer(slice).ok_or_else(|| {
                bad(format!("The value for $slice must be an integer value but was given type: {}", type_name(slice)))
            })?);
        }
        if let Some(sort) = clauses.get("$sort") {
            push.sort = Some(Sort::parse(sort)?);
        }
        if let Some(position) = clauses.get("$position") {
            push.position = Some(integer(position).ok_or_else(|| {
                bad(format!("The value for $position must be an integer value, not of type: {}", type_name(position)))
            })?);
        }
        Ok(push)
    }

    /// `$position` (insert), then `$sort`, then `$slice`, as mongod orders them; whether
    /// mongod counts it as a change (any value pushed, any `$sort`, any element sliced off).
    fn apply(&self, items: &mut Vec<Bson>) -> bool {
        let mut changed = !self.values.is_empty() || self.sort.is_some();
        let len = items.len() as i64;
        let at = match self.position {
            None => len,
            Some(p) if p < 0 => (len + p).max(0),
            Some(p) => p.min(len),
        } as usize;
        items.splice(at..at, self.values.iter().cloned());
        if let Some(sort) = &self.sort {
            items.sort_by(|a, b| sort.compare(a, b));
        }
        match self.slice {
            Some(n) if n >= 0 => {
                changed |= items.len() > n as usize;
                items.truncate(n as usize);
            }
            Some(n) => {
                let keep = n.unsigned_abs() as usize;
                if items.len() > keep {
                    items.drain(..items.len() - keep);
                    changed = true;
                }
            }
            None => {}
        }
        changed
    }
}

/// An integer as mongod's `parseIntegerElementToLong` reads it (doubles and decimals only
/// when whole).
fn integer(value: &Bson) -> Option<i64> {
    match value {
        Bson::Int32(v) => Some(i64::from(*v)),
        Bson::Int64(v) => Some(*v),
        Bson::Double(v) if v.fract() == 0.0 && v.abs() < 9.2e18 => Some(*v as i64),
        _ => None,
    }
}

impl Sort {
    fn parse(sort: &Bson) -> Result<Sort, UpdateError> {
        let direction = |v: &Bson| match integer(v) {
            Some(1) => Ok(true),
            Some(-1) => Ok(false),
            _ => Err(bad("The $sort element value must be either 1 or -1")),
        };
        match sort {
            Bson::Document(fields) => {
                if fields.is_empty() {
                    return Err(bad("The $sort pattern is empty when it should be a set of fields."));
                }
                let mut out = Vec::new();
                for (name, v) in fields {
                    if name.split('.').any(str::is_empty) {
                        return Err(bad(format!("The $sort field is a dotted field but has an empty part: {name}")));
                    }
                    out.push((name.clone(), direction(v)?));
                }
                Ok(Sort::Fields(out))
            }
            v if arith::is_number(v) => Ok(Sort::Whole(direction(v)?)),
            _ => Err(bad(
                "The $sort is invalid: use 1/-1 to sort the whole element, or {field:1/-1} to sort embedded fields",
            )),
        }
    }

    fn compare(&self, a: &Bson, b: &Bson) -> Ordering {
        match self {
            Sort::Whole(ascending) => directed(compare(a, b), *ascending),
            Sort::Fields(fields) => {
                for (path, ascending) in fields {
                    let by = directed(compare(&dotted(a, path), &dotted(b, path)), *ascending);
                    if by != Ordering::Equal {
                        return by;
                    }
                }
                Ordering::Equal
            }
        }
    }
}

fn directed(by: Ordering, ascending: bool) -> Ordering {
    if ascending {
        by
    } else {
        by.reverse()
    }
}

/// The value at a dotted path (`getFieldDotted`: through documents, and arrays by index),
/// null when missing.
fn dotted(value: &Bson, path: &str) -> Bson {
    let mut current = value;
    for part in path.split('.') {
        current = match current {
            Bson::Document(d) => match d.get(part) {
                Some(v) => v,
                None => return Bson::Null,
            },
            Bson::Array(items) => match super::path::index(part).and_then(|i| items.get(i)) {
                Some(v) => v,
                None => return Bson::Null,
            },
            _ => return Bson::Null,
        };
    }
    current.clone()
}
