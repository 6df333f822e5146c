//! The part of mongod's query language updates lean on: the filter that decides the position
//! `$` stands for (and the fields an upsert starts from), `$pull` conditions and
//! `arrayFilters`. Comparisons, `$in`/`$nin`, `$exists`, `$size`, `$elemMatch`, `$not`,
//! `$and`/`$or`/`$nor`, with mongod's array semantics (a predicate on a path holds when it
//! holds for the array or any of its elements). Anything else is reported as unsupported.

use std::cmp::Ordering;

use mongo_schema_contract::bson;
use mongo_schema_contract::codes::BAD_VALUE;
use mongo_schema_core::bson::{Bson, Document};

use super::order::{compare, rank};
use super::UpdateError;

/// Whether `doc` matches `filter`; `Some(index)` in the second place is the position `$`
/// stands for. mongod evaluates the filter's conjuncts (nested `$and`s and one-clause `$or`s
/// flattened, each operator of `{a: {$gt: 1, $lt: 5}}` on its own) sorted by kind then path,
/// and the last one to match through an array element sets the position.
pub(crate) fn matches(doc: &Document, filter: &Document) -> Result<(bool, Option<usize>), UpdateError> {
    let mut conjuncts = Vec::new();
    flatten(filter, &mut conjuncts)?;
    conjuncts.sort_by(|a, b| (a.0, a.1).cmp(&(b.0, b.1)));
    let mut position = None;
    for (_, path, condition) in conjuncts {
        let mut found = None;
        let ok = match path {
            "$or" => any_clause(doc, &condition, path, &mut None)?,
            "$nor" => !any_clause(doc, &condition, path, &mut None)?,
            _ => path_matches(doc, path, &condition, &mut found)?,
        };
        if !ok {
            return Ok((false, None));
        }
        if found.is_some() {
            position = found;
        }
    }
    Ok((true, position))
}

/// One conjunct: mongod's kind order (`MatchExpression::MatchType`), the path, the condition.
type Conjunct<'f> = (u8, &'f str, Bson);

fn flatten<'f>(filter: &'f Document, out: &mut Vec<Conjunct<'f>>) -> Result<(), UpdateError> {
    for (key, condition) in filter {
        match key.as_str() {
            "$and" => {
                for clause in clauses(condition, key)? {
                    flatten(clause, out)?;
                }
            }
            "$or" if matches!(condition, Bson::Array(c) if c.len() == 1) => flatten(clauses(condition, key)?[0], out)?,
            "$or" => out.push((1, key, condition.clone())),
            "$nor" => out.push((20, key, condition.clone())),
            name if name.starts_with('$') => return Err(unsupported(name)),
            path => match condition {
                Bson::Document(ops) if ops.keys().next().is_some_and(|k| k.starts_with('$')) => {
                    for (op, arg) in ops {
                        let mut one = Document::new();
                        one.insert(op.clone(), arg.clone());
                        out.push((kind(op), path, Bson::Document(one)));
                    }
                }
                value => out.push((kind("$eq"), path, value.clone())),
            },
        }
    }
    Ok(())
}

/// The rank of an operator's kind in mongod's `MatchType` order.
fn kind(op: &str) -> u8 {
    match op {
        "$elemMatch" => 3,
        "$size" => 4,
        "$eq" => 5,
        "$lte" => 6,
        "$lt" => 7,
        "$gt" => 8,
        "$gte" => 9,
        "$regex" => 10,
        "$mod" => 11,
        "$exists" => 12,
        "$in" => 13,
        "$not" | "$ne" | "$nin" => 19,
        "$type" => 21,
        _ => 30,
    }
}

fn doc_matches(doc: &Document, filter: &Document, position: &mut Option<usize>) -> Result<bool, UpdateError> {
    for (key, condition) in filter {
        let ok = match key.as_str() {
            "$and" => clauses(condition, key)?
                .iter()
                .try_fold(true, |all, c| Ok::<bool, UpdateError>(all && doc_matches(doc, c, position)?))?,
            // mongod keeps no position from inside `$or`, unless it has one clause (which it
            // reads as the clause itself).
            "$or" if matches!(condition, Bson::Array(c) if c.len() == 1) => any_clause(doc, condition, key, position)?,
            "$or" => any_clause(doc, condition, key, &mut None)?,
            "$nor" => !any_clause(doc, condition, key, &mut None)?,
            name if name.starts_with('$') => return Err(unsupported(name)),
            path => path_matches(doc, path, condition, position)?,
        };
        if !ok {
            return Ok(false);
        }
    }
    Ok(true)
}

fn any_clause(doc: &Document, value: &Bson, key: &str, position: &mut Option<usize>) -> Result<bool, UpdateError> {
    for clause in clauses(value, key)? {
        if doc_matches(doc, clause, position)? {
            return Ok(true);
        }
    }
    Ok(false)
}

fn clauses<'a>(value: &'a Bson, key: &str) -> Result<Vec<&'a Document>, UpdateError> {
    let bad = || UpdateError::refused(BAD_VALUE, format!("{key} must be an array of objects"));
    let Bson::Array(items) = value else { return Err(bad()) };
    if items.is_empty() {
        return Err(UpdateError::refused(BAD_VALUE, format!("{key}/$or/$nor must be a nonempty array")));
    }
    items.iter().map(|c| c.as_document().ok_or_else(bad)).collect()
}

/// The operators that follow a path (`{a: {$gt: 1}}`), as mongod's
/// `parsePathAcceptingKeyword` knows them; `$not` is not one of them at the top of a query.
pub(crate) const PATH_OPERATORS: &[&str] = &[
    "$eq",
    "$lt",
    "$lte",
    "$gte",
    "$gt",
    "$in",
    "$ne",
    "$size",
    "$all",
    "$nin",
    "$exists",
    "$mod",
    "$type",
    "$regex",
    "$options",
    "$elemMatch",
    "$near",
    "$nearSphere",
    "$geoWithin",
    "$geoIntersects",
    "$within",
    "$geoNear",
    "$bitsAllSet",
    "$bitsAllClear",
    "$bitsAnySet",
    "$bitsAnyClear",
    "$not",
];

/// The operators a query may have at its top besides field names.
const TOP_OPERATORS: &[&str] = &[
    "$and",
    "$or",
    "$nor",
    "$expr",
    "$where",
    "$comment",
    "$text",
    "$jsonSchema",
    "$alwaysTrue",
    "$alwaysFalse",
    "$sampleRate",
];

/// Whether `{name: ...}` opens a condition on a value rather than a query on a document.
pub(crate) fn is_path_operator(name: &str) -> bool {
    name != "$not" && PATH_OPERATORS.contains(&name)
}

/// Parses a query as mongod does before running it: an unknown operator is refused in
/// mongod's words; one this crate does not evaluate is reported as unsupported.
pub(crate) fn check_query(query: &Document) -> Result<(), UpdateError> {
    for (key, condition) in query {
        match key.as_str() {
            "$and" | "$or" | "$nor" => {
                for clause in clauses(condition, key)? {
                    check_query(clause)?;
                }
            }
            top if TOP_OPERATORS.contains(&top) => return Err(unsupported(top)),
            unknown if unknown.starts_with('$') => {
                return Err(UpdateError::refused(BAD_VALUE, format!("unknown top level operator: {unknown}. If you are trying to negate an entire expression, use $nor."),
                ))
            }
            _ => check_condition(condition)?,
        }
    }
    Ok(())
}

/// Parses a condition on a value (`{$gte: 2}`, or a value to equal).
pub(crate) fn check_condition(condition: &Bson) -> Result<(), UpdateError> {
    Predicate::parse(condition).map(|_| ())
}

fn unsupported(what: &str) -> UpdateError {
    UpdateError::Unsupported(format!("the query operator {what} is not modelled by check_update"))
}

/// Whether the value at `path` in `doc` satisfies `condition` (an operator object or a value
/// to equal).
pub(crate) fn path_matches(
    doc: &Document,
    path: &str,
    condition: &Bson,
    position: &mut Option<usize>,
) -> Result<bool, UpdateError> {
    let predicate = Predicate::parse(condition)?;
    let parts: Vec<&str> = path.split('.').collect();
    // The root is a document: its first component is a plain field lookup.
    Ok(walk(doc.get(parts[0]), &parts[1..], &predicate, position))
}

/// Whether `value` itself (an array element, for `$pull` and arrayFilters) satisfies an
/// operator object such as `{$gte: 5}`.
pub(crate) fn value_matches(value: &Bson, condition: &Bson) -> Result<bool, UpdateError> {
    let predicate = Predicate::parse(condition)?;
    Ok(predicate.test_with_elements(Some(value), &mut None))
}

fn walk(value: Option<&Bson>, parts: &[&str], predicate: &Predicate, position: &mut Option<usize>) -> bool {
    let Some((first, rest)) = parts.split_first() else {
        return predicate.test_with_elements(value, position);
    };
    match value {
        Some(Bson::Document(d)) => walk(d.get(*first), rest, predicate, position),
        Some(Bson::Array(items)) => {
            if let Ok(index) = first.parse::<usize>() {
                // Reached by its index, an element gives `$` no position (nor do arrays inside it).
                if walk(items.get(index), rest, predicate, &mut None) {
                    return true;
                }
            }
            let mut missing_everywhere = true;
            for (i, item) in items.iter().enumerate() {
                if let Bson::Document(d) = item {
                    if d.contains_key(*first) {
                        missing_everywhere = false;
                    }
                    if walk(d.get(*first), rest, predicate, &mut None) {
                        position.get_or_insert(i);
                        return true;
                    }
                }
            }
            missing_everywhere && first.parse::<usize>().is_err() && predicate.test(None)
        }
        _ => predicate.test(None),
    }
}

/// One condition on a value.
enum Predicate {
    All(Vec<Predicate>),
    Eq(Bson),
    Ne(Bson),
    Cmp(Ordering, bool, Bson),
    In(Vec<Bson>),
    Nin(Vec<Bson>),
    Exists(bool),
    Size(usize),
    /// `$type`: BSON type codes (`number` stands for the four numeric ones).
    Type(Vec<i32>),
    ElemMatch(Document),
    Not(Box<Predicate>),
}

impl Predicate {
    fn parse(condition: &Bson) -> Result<Predicate, UpdateError> {
        match condition {
            Bson::Document(ops) if ops.keys().next().is_some_and(|k| k.starts_with('$')) => {
                ops.iter().map(|(op, arg)| Predicate::operator(op, arg)).collect::<Result<_, _>>().map(Predicate::All)
            }
            Bson::RegularExpression(_) => Err(unsupported("regex")),
            value => Ok(Predicate::Eq(value.clone())),
        }
    }

    fn operator(op: &str, arg: &Bson) -> Result<Predicate, UpdateError> {
        let list = |arg: &Bson| match arg {
            Bson::Array(items) if items.iter().all(|i| !matches!(i, Bson::RegularExpression(_))) => Ok(items.clone()),
            Bson::Array(_) => Err(unsupported("regex in $in")),
            _ => Err(UpdateError::refused(BAD_VALUE, format!("{op} needs an array"))),
        };
        Ok(match op {
            "$eq" => Predicate::Eq(arg.clone()),
            "$ne" => Predicate::Ne(arg.clone()),
            "$gt" => Predicate::Cmp(Ordering::Greater, false, arg.clone()),
            "$gte" => Predicate::Cmp(Ordering::Greater, true, arg.clone()),
            "$lt" => Predicate::Cmp(Ordering::Less, false, arg.clone()),
            "$lte" => Predicate::Cmp(Ordering::Less, true, arg.clone()),
            "$in" => Predicate::In(list(arg)?),
            "$nin" => Predicate::Nin(list(arg)?),
            "$exists" => Predicate::Exists(truthy(arg)),
            "$type" => Predicate::Type(type_codes(arg)?),
            "$size" => match arg {
                Bson::Int32(n) if *n >= 0 => Predicate::Size(*n as usize),
                Bson::Int64(n) if *n >= 0 => Predicate::Size(*n as usize),
                _ => return Err(unsupported("$size with a value other than a non-negative integer")),
            },
            "$elemMatch" => match arg {
                Bson::Document(d) => {
                    match d.keys().next() {
                        Some(k) if is_path_operator(k) || k == "$not" => check_condition(arg)?,
                        _ => check_query(d)?,
                    }
                    Predicate::ElemMatch(d.clone())
                }
                _ => return Err(UpdateError::refused(BAD_VALUE, "$elemMatch needs an Object")),
            },
            "$not" => match arg {
                Bson::Document(_) => Predicate::Not(Box::new(Predicate::parse(arg)?)),
                _ => return Err(unsupported("$not with a regex")),
            },
            known if PATH_OPERATORS.contains(&known) => return Err(unsupported(known)),
            unknown => return Err(UpdateError::refused(BAD_VALUE, format!("unknown operator: {unknown}"))),
        })
    }

    /// The predicate on the value or, for an array, on any of its elements (what a path
    /// condition means in mongod); negations hold only when no element breaks them.
    /// `position` gets the index of the element that matched, when one did.
    fn test_with_elements(&self, value: Option<&Bson>, position: &mut Option<usize>) -> bool {
        match self {
            Predicate::All(all) => all.iter().all(|p| p.test_with_elements(value, position)),
            Predicate::Ne(v) => !Predicate::Eq(v.clone()).test_with_elements(value, &mut None),
            Predicate::Nin(vs) => !Predicate::In(vs.clone()).test_with_elements(value, &mut None),
            Predicate::Not(p) => !p.test_with_elements(value, &mut None),
            Predicate::Size(_) => self.test(value),
            Predicate::ElemMatch(query) => match value {
                Some(Bson::Array(items)) => match items.iter().position(|item| elem_match(item, query)) {
                    Some(i) => {
                        position.get_or_insert(i);
                        true
                    }
                    None => false,
                },
                _ => false,
            },
            // mongod tries an array's elements first (the first match is the position `$`
            // stands for), then the array itself.
            _ => {
                if let Some(Bson::Array(items)) = value {
                    if let Some(i) = items.iter().position(|item| self.test(Some(item))) {
                        position.get_or_insert(i);
                        return true;
                    }
                }
                self.test(value)
            }
        }
    }

    fn test(&self, value: Option<&Bson>) -> bool {
        match self {
            Predicate::All(all) => all.iter().all(|p| p.test(value)),
            Predicate::Eq(expected) => equals(value, expected),
            Predicate::Ne(expected) => !equals(value, expected),
            Predicate::Cmp(side, inclusive, bound) => value.is_some_and(|v| ordered(v, bound, *side, *inclusive)),
            Predicate::In(list) => list.iter().any(|expected| equals(value, expected)),
            Predicate::Nin(list) => !list.iter().any(|expected| equals(value, expected)),
            Predicate::Exists(wanted) => value.is_some() == *wanted,
            Predicate::Type(codes) => value.is_some_and(|v| codes.contains(&type_code(v))),
            Predicate::Size(n) => matches!(value, Some(Bson::Array(items)) if items.len() == *n),
            Predicate::ElemMatch(query) => {
                matches!(value, Some(Bson::Array(items)) if items.iter().any(|item| elem_match(item, query)))
            }
            Predicate::Not(p) => !p.test(value),
        }
    }
}

/// mongod's code for a value's BSON type (`minKey` is -1).
fn type_code(value: &Bson) -> i32 {
    match value {
        Bson::MinKey => -1,
        other => other.element_type() as i32,
    }
}

/// The codes `$type` names: numbers, aliases, or an array of them.
fn type_codes(arg: &Bson) -> Result<Vec<i32>, UpdateError> {
    let one = |v: &Bson| -> Result<Vec<i32>, UpdateError> {
        match v {
            Bson::String(alias) if alias == bson::NUMBER => {
                Ok(bson::NUMBER_ALIASES.iter().filter_map(|n| bson::type_code(n)).collect())
            }
            Bson::String(alias) => match bson::type_code(alias) {
                Some(code) => Ok(vec![code]),
                None => Err(UpdateError::refused(BAD_VALUE, format!("Unknown type name alias: {alias}"))),
            },
            Bson::Int32(code) => Ok(vec![*code]),
            Bson::Int64(code) => Ok(vec![*code as i32]),
            Bson::Double(code) if code.fract() == 0.0 => Ok(vec![*code as i32]),
            _ => Err(unsupported("$type with an operand other than type names and codes")),
        }
    };
    match arg {
        Bson::Array(items) => items.iter().map(one).collect::<Result<Vec<_>, _>>().map(|v| v.concat()),
        single => one(single),
    }
}

fn elem_match(item: &Bson, query: &Document) -> bool {
    if query.keys().next().is_some_and(|k| k.starts_with('$') && !matches!(k.as_str(), "$and" | "$or" | "$nor")) {
        return Predicate::parse(&Bson::Document(query.clone())).is_ok_and(|p| p.test(Some(item)));
    }
    matches!(item, Bson::Document(d) if doc_matches(d, query, &mut None).unwrap_or(false))
}

fn truthy(value: &Bson) -> bool {
    !matches!(value, Bson::Boolean(false) | Bson::Null | Bson::Undefined)
        && !matches!(value, Bson::Int32(0) | Bson::Int64(0))
        && !matches!(value, Bson::Double(d) if *d == 0.0)
}

/// Query equality: `null` also matches a missing value and `undefined`.
fn equals(value: Option<&Bson>, expected: &Bson) -> bool {
    match (value, expected) {
        (None | Some(Bson::Null | Bson::Undefined), Bson::Null) => true,
        (None, _) => false,
        (Some(v), e) => compare(v, e) == Ordering::Equal,
    }
}

/// `$gt`-style comparisons hold only between values of the same type bracket (`MinKey` and
/// `MaxKey` bounds compare with everything).
fn ordered(value: &Bson, bound: &Bson, side: Ordering, inclusive: bool) -> bool {
    let brackets = rank(value) == rank(bound) || matches!(bound, Bson::MinKey | Bson::MaxKey);
    if !brackets {
        return false;
    }
    if matches!(bound, Bson::Null) {
        return inclusive && matches!(value, Bson::Null);
    }
    let by = compare(value, bound);
    by == side || (inclusive && by == Ordering::Equal)
}
