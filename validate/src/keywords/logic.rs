//! `allOf`, `anyOf`, `oneOf`, `not`, `enum`: apply to values of every type.

use mongo_schema_core::bson::{doc, Bson, Document};

use super::array::count_of;
use crate::equal::bson_eq;
use crate::error::SchemaError;
use crate::report::{leaf, spec, Explain};
use crate::schema::{Ctx, Keywords, Schema};
use crate::value::{Decoded, Res, Value, View};

#[derive(Debug, Default)]
pub(crate) struct LogicRules {
    all_of: Vec<Schema>,
    any_of: Vec<Schema>,
    one_of: Vec<Schema>,
    not: Option<Box<Schema>>,
    enumeration: Option<Enumeration>,
}

#[derive(Debug)]
struct Enumeration {
    /// The strings and symbols among `values`, sorted: all a string or symbol can equal, found
    /// by binary search (`O(log E)` per value, not a scan of the `E` values).
    texts: Vec<Box<str>>,
    /// The int, long and (non-NaN) double values, sorted by their value as an `f64`: a number
    /// equal to one of them (BSON equality, exact across types) has the same `f64`, so only
    /// the values with that `f64` are compared (`O(log E)` per number, not a scan).
    numbers: Vec<(f64, Bson)>,
    /// The other values (not strings, symbols or such numbers): decimals, NaN, documents, ...
    others: Vec<Bson>,
    spec: Bson,
    /// At the root with no document among its values: mongod's always-false expression.
    never: bool,
}

impl LogicRules {
    pub(crate) fn parse(kw: &Keywords<'_>, ctx: Ctx<'_>) -> Result<Option<Box<LogicRules>>, SchemaError> {
        let rules = LogicRules {
            all_of: parse_list(kw, ctx, "allOf")?,
            any_of: parse_list(kw, ctx, "anyOf")?,
            one_of: parse_list(kw, ctx, "oneOf")?,
            not: parse_not(kw, ctx)?,
            enumeration: kw.get("enum").map(|v| parse_enum(v, ctx)).transpose()?,
        };
        let empty = rules.all_of.is_empty()
            && rules.any_of.is_empty()
            && rules.one_of.is_empty()
            && rules.not.is_none()
            && rules.enumeration.is_none();
        Ok((!empty).then(|| Box::new(rules)))
    }

    pub(crate) fn matches<'a, V: Value<'a>>(&self, v: V) -> Res<bool> {
        for schema in &self.all_of {
            if !schema.matches(v)? {
                return Ok(false);
            }
        }
        if !self.any_of.is_empty() && !any_matches(&self.any_of, v)? {
            return Ok(false);
        }
        if !self.one_of.is_empty() && count_matches(&self.one_of, v)? != 1 {
            return Ok(false);
        }
        if let Some(not) = &self.not {
            if not.matches(v)? {
                return Ok(false);
            }
        }
        self.enumeration.as_ref().map_or(Ok(true), |e| e.contains(v))
    }
}

fn any_matches<'a, V: Value<'a>>(schemas: &[Schema], v: V) -> Res<bool> {
    for schema in schemas {
        if schema.matches(v)? {
            return Ok(true);
        }
    }
    Ok(false)
}

/// How many schemas match, stopping at two (all `oneOf` needs to know).
fn count_matches<'a, V: Value<'a>>(schemas: &[Schema], v: V) -> Res<usize> {
    let mut count = 0;
    for schema in schemas {
        if schema.matches(v)? {
            count += 1;
            if count == 2 {
                break;
            }
        }
    }
    Ok(count)
}

impl Enumeration {
    /// `enum`: equal to one of the values, by BSON equality ignoring field order.
    fn contains<'a, V: Value<'a>>(&self, v: V) -> Res<bool> {
        if let View::String(s) | View::Symbol(s) = v.view() {
            return Ok(self.texts.binary_search_by(|t| (**t).cmp(s)).is_ok());
        }
        let key = match v.view() {
            View::Int32(n) => Some(f64::from(n)),
            View::Int64(n) => Some(n as f64),
            View::Double(x) if !x.is_nan() => Some(x),
            _ => None,
        };
        let candidates = match key {
            Some(x) => {
                let at = self.numbers.partition_point(|(f, _)| *f < x);
                &self.numbers[at..at + self.numbers[at..].iter().take_while(|(f, _)| *f == x).count()]
            }
            None => &self.numbers[..],
        };
        for (_, value) in candidates {
            if bson_eq(v, Decoded::Bson(value))? {
                return Ok(true);
            }
        }
        for value in &self.others {
            if bson_eq(v, Decoded::Bson(value))? {
                return Ok(true);
            }
        }
        Ok(false)
    }
}

/// `allOf` / `anyOf` / `oneOf`: a non-empty array of subschemas.
fn parse_list(kw: &Keywords<'_>, ctx: Ctx<'_>, keyword: &str) -> Result<Vec<Schema>, SchemaError> {
    let Some(value) = kw.get(keyword) else { return Ok(Vec::new()) };
    let Bson::Array(list) = value else {
        return Err(ctx.err(keyword, format!("$jsonSchema keyword '{keyword}' must be an array")));
    };
    if list.is_empty() {
        return Err(ctx.err(keyword, format!("$jsonSchema keyword '{keyword}' must be a non-empty array")));
    }
    let entry = |(i, sub): (usize, &Bson)| {
        let at = ctx.path(&format!("{keyword}.{i}"));
        let what = || {
            ctx.err(
                keyword,
                format!(
                    "$jsonSchema keyword '{keyword}' must be an array of objects, but found an element of type {}",
                    sub.element_type() as u8
                ),
            )
        };
        Schema::parse_nested(sub, &at, ctx.top, what)
    };
    list.iter().enumerate().map(entry).collect()
}

/// `not`: a subschema.
fn parse_not(kw: &Keywords<'_>, ctx: Ctx<'_>) -> Result<Option<Box<Schema>>, SchemaError> {
    let Some(value) = kw.get("not") else { return Ok(None) };
    let at = ctx.path("not");
    let what = || ctx.err("not", "$jsonSchema keyword 'not' must be an object");
    Schema::parse_nested(value, &at, ctx.top, what).map(|s| Some(Box::new(s)))
}

/// `enum`: a non-empty array without duplicates; at the root only documents can ever match.
fn parse_enum(value: &Bson, ctx: Ctx<'_>) -> Result<Enumeration, SchemaError> {
    let Bson::Array(list) = value else {
        return Err(ctx.err("enum", "$jsonSchema keyword 'enum' must be an array"));
    };
    if list.is_empty() {
        return Err(ctx.err("enum", "$jsonSchema keyword 'enum' cannot be an empty array"));
    }
    // Duplicates: two strings are equal when their bytes are (sorted, neighbours compared);
    // every other pair by BSON equality. Quadratic only in the values that are not strings.
    let duplicate = || ctx.err("enum", "$jsonSchema keyword 'enum' array cannot contain duplicate values.");
    let mut strings: Vec<&str> =
        list.iter().filter_map(|v| if let Bson::String(s) = v { Some(s.as_str()) } else { None }).collect();
    strings.sort_unstable();
    if strings.windows(2).any(|pair| pair[0] == pair[1]) {
        return Err(duplicate());
    }
    let not_string: Vec<&Bson> = list.iter().filter(|v| !matches!(v, Bson::String(_))).collect();
    for (i, a) in not_string.iter().enumerate() {
        for b in not_string[..i]
            .iter()
            .copied()
            .chain(list.iter().filter(|v| matches!(v, Bson::String(_)) && matches!(a, Bson::Symbol(_))))
        {
            if bson_eq(Decoded::Bson(a), Decoded::Bson(b)).unwrap_or(false) {
                return Err(duplicate());
            }
        }
    }
    let values: Vec<Bson> = list.iter().filter(|v| !ctx.top || matches!(v, Bson::Document(_))).cloned().collect();
    let mut texts: Vec<Box<str>> = values
        .iter()
        .filter_map(|v| match v {
            Bson::String(s) | Bson::Symbol(s) => Some(s.as_str().into()),
            _ => None,
        })
        .collect();
    texts.sort_unstable();
    let number = |v: &Bson| match v {
        Bson::Int32(n) => Some(f64::from(*n)),
        Bson::Int64(n) => Some(*n as f64),
        Bson::Double(x) if !x.is_nan() => Some(*x),
        _ => None,
    };
    let mut numbers: Vec<(f64, Bson)> = values.iter().filter_map(|v| number(v).map(|f| (f, v.clone()))).collect();
    numbers.sort_by(|a, b| a.0.total_cmp(&b.0));
    let others = values
        .iter()
        .filter(|v| !matches!(v, Bson::String(_) | Bson::Symbol(_)) && number(v).is_none())
        .cloned()
        .collect();
    // The values compared against (at the root: only the documents among them), split
    // into `texts` and `others`.
    Ok(Enumeration { never: ctx.top && values.is_empty(), texts, numbers, others, spec: value.clone() })
}

impl LogicRules {
    /// Whether `v` fails this schema's `enum` (`false` without one).
    pub(crate) fn enum_refuses<'a, V: Value<'a>>(&self, v: V) -> Res<bool> {
        match &self.enumeration {
            Some(e) => Ok(!e.contains(v)?),
            None => Ok(false),
        }
    }

    pub(crate) fn explain<'a, V: Value<'a>>(
        &self,
        v: V,
        at: &str,
        ex: &mut Explain<'_>,
        out: &mut Vec<Document>,
    ) -> Res<()> {
        self.explain_all_of(v, ex, out)?;
        if !self.any_of.is_empty() && !any_matches(&self.any_of, v)? {
            let failures = explain_each(&self.any_of, v, ex)?;
            out.push(doc! { "operatorName": "anyOf", "schemasNotSatisfied": failures });
        }
        self.explain_one_of(v, at, ex, out)?;
        if self.not.as_ref().map_or(Ok(false), |n| n.matches(v))? {
            ex.violation(at, "not", "child expression matched");
            out.push(doc! { "operatorName": "not", "reason": "child expression matched" });
        }
        if let Some(e) = self.enumeration.as_ref() {
            if !e.contains(v)? {
                ex.violation(at, "enum", "value was not found in enum");
                let specified = spec("enum", e.spec.clone());
                out.push(if e.never {
                    doc! { "operatorName": "enum", "specifiedAs": specified, "reason": "expression always evaluates to false" }
                } else {
                    leaf("enum", specified, "value was not found in enum", v.to_bson()?)
                });
            }
        }
        Ok(())
    }

    fn explain_all_of<'a, V: Value<'a>>(&self, v: V, ex: &mut Explain<'_>, out: &mut Vec<Document>) -> Res<()> {
        let mut failures = Vec::new();
        for (i, schema) in self.all_of.iter().enumerate() {
            if !schema.matches(v)? {
                failures.push(clause_failure(i, schema, v, ex)?);
            }
        }
        if !failures.is_empty() {
            out.push(doc! { "operatorName": "allOf", "schemasNotSatisfied": failures });
        }
        Ok(())
    }

    fn explain_one_of<'a, V: Value<'a>>(
        &self,
        v: V,
        at: &str,
        ex: &mut Explain<'_>,
        out: &mut Vec<Document>,
    ) -> Res<()> {
        if self.one_of.is_empty() {
            return Ok(());
        }
        let mut matching = Vec::new();
        for (i, schema) in self.one_of.iter().enumerate() {
            if schema.matches(v)? {
                matching.push(Bson::Int32(i as i32));
            }
        }
        match matching.len() {
            1 => {}
            0 => out.push(doc! { "operatorName": "oneOf", "schemasNotSatisfied": explain_each(&self.one_of, v, ex)? }),
            _ => {
                ex.violation(at, "oneOf", "more than one subschema matched");
                out.push(doc! { "operatorName": "oneOf", "reason": "more than one subschema matched", "matchingSchemaIndexes": matching });
            }
        }
        Ok(())
    }
}

/// Every clause's failure, as mongod reports them. The violations recorded (the report's
/// paths) are those of the clauses `v`'s tag selects: when some clauses require a key whose
/// `enum` `v` fails (the variants another tag names) and others do not, only the others'
/// count, so a variant's wrong field is reported once, at its own path, and not as every
/// other variant's missing fields and wrong tag.
fn explain_each<'a, V: Value<'a>>(schemas: &[Schema], v: V, ex: &mut Explain<'_>) -> Res<Vec<Document>> {
    let excluded: Vec<bool> = match v.view() {
        View::Document(d) => {
            schemas.iter().map(|s| s.object.as_ref().map_or(Ok(false), |o| o.tag_excludes(d))).collect::<Res<_>>()?
        }
        _ => vec![false; schemas.len()],
    };
    let selective = excluded.iter().any(|e| *e) && excluded.iter().any(|e| !*e);
    let mut out = Vec::with_capacity(schemas.len());
    for (i, schema) in schemas.iter().enumerate() {
        let recorded = ex.violations.len();
        out.push(clause_failure(i, schema, v, ex)?);
        if selective && excluded[i] {
            ex.violations.truncate(recorded);
        }
    }
    Ok(out)
}

/// One failed clause of `allOf` / `anyOf` / `oneOf`: `{index, title, description, details}`.
fn clause_failure<'a, V: Value<'a>>(index: usize, schema: &Schema, v: V, ex: &mut Explain<'_>) -> Res<Document> {
    let mut entry = doc! { "index": count_of(index as u64) };
    schema.annotate(&mut entry);
    entry.insert("details", schema.explain(v, ex)?);
    Ok(entry)
}

impl LogicRules {
    /// Whether these keywords fail on a missing value (see `Schema::fails_on_missing`).
    pub(crate) fn fails_on_missing(&self) -> bool {
        self.enumeration.is_some()
            || self.all_of.iter().any(Schema::fails_on_missing)
            || (!self.any_of.is_empty() && self.any_of.iter().all(Schema::fails_on_missing))
            || (!self.one_of.is_empty() && self.one_of.iter().filter(|s| !s.fails_on_missing()).count() != 1)
            || self.not.as_ref().is_some_and(|n| !n.fails_on_missing())
    }

    /// The entries of the combinators a missing value fails (`enum` fails without one).
    pub(crate) fn explain_missing(&self, out: &mut Vec<Document>) {
        let failing = |schemas: &[Schema]| -> Vec<Document> {
            schemas
                .iter()
                .enumerate()
                .filter(|(_, s)| s.fails_on_missing())
                .map(|(i, s)| {
                    let mut entry = doc! { "index": count_of(i as u64) };
                    s.annotate(&mut entry);
                    entry.insert("details", s.explain_missing());
                    entry
                })
                .collect()
        };
        let all_of = failing(&self.all_of);
        if !all_of.is_empty() {
            out.push(doc! { "operatorName": "allOf", "schemasNotSatisfied": all_of });
        }
        if !self.any_of.is_empty() && self.any_of.iter().all(Schema::fails_on_missing) {
            out.push(doc! { "operatorName": "anyOf", "schemasNotSatisfied": failing(&self.any_of) });
        }
        if !self.one_of.is_empty() {
            let matching: Vec<Bson> = (0..self.one_of.len())
                .filter(|&i| !self.one_of[i].fails_on_missing())
                .map(|i| Bson::Int32(i as i32))
                .collect();
            match matching.len() {
                1 => {}
                0 => out.push(doc! { "operatorName": "oneOf", "schemasNotSatisfied": failing(&self.one_of) }),
                _ => out.push(doc! {
                    "operatorName": "oneOf",
                    "reason": "more than one subschema matched",
                    "matchingSchemaIndexes": matching,
                }),
            }
        }
        if self.not.as_ref().is_some_and(|n| !n.fails_on_missing()) {
            out.push(doc! { "operatorName": "not", "reason": "child expression matched" });
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::Validator;
    use mongo_schema_core::bson::doc;

    /// The paths a failing document's violations name.
    fn paths(validator: &Validator, d: mongo_schema_core::bson::Document) -> Vec<(String, &'static str)> {
        let failure = validator.validate(&d).unwrap_err();
        failure.failure().unwrap().violations().iter().map(|v| (v.path.clone(), v.keyword)).collect()
    }

    #[test]
    fn a_tagged_branch_alone_reports_its_violations() {
        // an internally tagged enum as the derive writes it: the tag in the common part, each
        // variant under `oneOf` fixing it with an `enum` of one value
        let schema = doc! {
            "bsonType": "object",
            "required": ["type"],
            "properties": { "type": { "enum": ["click", "buy"] } },
            "oneOf": [
                { "required": ["type", "x"], "properties": { "type": { "enum": ["click"] }, "x": { "bsonType": "int" } } },
                { "required": ["type", "price"], "properties": { "type": { "enum": ["buy"] }, "price": { "bsonType": "decimal" } } },
            ],
        };
        let validator = Validator::new(&schema).unwrap();
        // a buy with a double price: only the buy variant speaks, once, at `price`
        assert_eq!(
            paths(&validator, doc! { "_id": 1, "type": "buy", "price": 1.5 }),
            [("price".to_owned(), "bsonType")]
        );
        // an unknown tag: no variant is selected, so every one reports (with the common enum)
        let unknown = paths(&validator, doc! { "_id": 2, "type": "view" });
        assert!(unknown.contains(&("type".to_owned(), "enum")), "{unknown:?}");
        assert!(unknown.contains(&("x".to_owned(), "required")), "{unknown:?}");
        assert!(unknown.contains(&("price".to_owned(), "required")), "{unknown:?}");
        // the errInfo still explains every branch, as mongod does
        let failure = validator.validate(&doc! { "_id": 1, "type": "buy", "price": 1.5 }).unwrap_err();
        let info = failure.failure().unwrap().err_info().to_string();
        assert!(info.contains("\"index\": 0") && info.contains("\"index\": 1"), "{info}");
    }
}
