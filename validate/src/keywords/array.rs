//! `minItems`, `maxItems`, `uniqueItems`, `items`, `additionalItems`: restrictions that
//! apply to arrays only.

use mongo_schema_core::bson::{doc, Bson, Document};

use crate::error::SchemaError;
use crate::report::{leaf, spec, Explain};
use crate::schema::{limit, Ctx, Keywords, Limit, Schema};
use crate::unique::first_duplicate;
use crate::value::{Arr, Res, Value};

#[derive(Debug)]
pub(crate) struct ArrayRules {
    min_items: Option<Limit>,
    max_items: Option<Limit>,
    unique: bool,
    items: Option<Items>,
    /// `additionalItems`, only in effect after a tuple `items`.
    additional: Option<Additional>,
}

#[derive(Debug)]
enum Items {
    /// `items: {schema}`: every element matches.
    Each(Box<Schema>),
    /// `items: [schemas]`: element i matches schema i when present.
    Tuple(Vec<Schema>),
}

/// `additionalItems` / `additionalProperties`: a boolean or a schema.
#[derive(Debug)]
pub(crate) enum Additional {
    Allow,
    Deny,
    Schema(Box<Schema>),
}

impl Additional {
    /// `keyword` is a boolean or a subschema document.
    pub(crate) fn parse(value: &Bson, ctx: Ctx<'_>, keyword: &str, message: &str) -> Result<Additional, SchemaError> {
        match value {
            Bson::Boolean(true) => Ok(Additional::Allow),
            Bson::Boolean(false) => Ok(Additional::Deny),
            Bson::Document(doc) => {
                let at = ctx.path(keyword);
                let schema = Schema::parse(doc, Ctx { at: &at, top: false })?;
                Ok(Additional::Schema(Box::new(schema)))
            }
            _ => Err(ctx.err(keyword, message)),
        }
    }

    pub(crate) fn admits<'a, V: Value<'a>>(&self, v: V) -> Res<bool> {
        match self {
            Additional::Allow => Ok(true),
            Additional::Deny => Ok(false),
            Additional::Schema(schema) => schema.matches(v),
        }
    }
}

impl ArrayRules {
    pub(crate) fn parse(kw: &Keywords<'_>, ctx: Ctx<'_>) -> Result<Option<Box<ArrayRules>>, SchemaError> {
        let min_items = limit(kw, ctx, "minItems")?;
        let max_items = limit(kw, ctx, "maxItems")?;
        let unique = parse_unique(kw, ctx)?;
        let items = kw.get("items").map(|v| parse_items(v, ctx)).transpose()?;
        let additional = kw
            .get("additionalItems")
            .map(|v| {
                Additional::parse(
                    v,
                    ctx,
                    "additionalItems",
                    "$jsonSchema keyword 'additionalItems' must be either an object or a boolean",
                )
            })
            .transpose()?;
        let additional = additional.filter(|_| matches!(items, Some(Items::Tuple(_))));
        let rules = ArrayRules { min_items, max_items, unique, items, additional };
        let empty = rules.min_items.is_none() && rules.max_items.is_none() && !rules.unique && rules.items.is_none();
        Ok((!ctx.top && !empty).then(|| Box::new(rules)))
    }

    pub(crate) fn matches<'a, A: Arr<'a>>(&self, a: A) -> Res<bool> {
        let mut count = 0usize;
        for item in a.items() {
            if !self.item_ok(count, &item?)? {
                return Ok(false);
            }
            count += 1;
        }
        if !self.count_ok(count as u64) {
            return Ok(false);
        }
        Ok(!self.unique || first_duplicate(a)?.is_none())
    }

    fn count_ok(&self, count: u64) -> bool {
        self.min_items.as_ref().is_none_or(|m| count >= m.n) && self.max_items.as_ref().is_none_or(|m| count <= m.n)
    }

    /// `items` / `additionalItems` for the element at `index`.
    #[inline(always)]
    fn item_ok<'a, V: Value<'a>>(&self, index: usize, item: &V) -> Res<bool> {
        match &self.items {
            None => Ok(true),
            Some(Items::Each(schema)) => schema.matches_ref(item),
            Some(Items::Tuple(schemas)) => match schemas.get(index) {
                Some(schema) => schema.matches_ref(item),
                None => self.additional.as_ref().map_or(Ok(true), |extra| extra.admits(*item)),
            },
        }
    }
}

/// `uniqueItems`: a boolean.
fn parse_unique(kw: &Keywords<'_>, ctx: Ctx<'_>) -> Result<bool, SchemaError> {
    match kw.get("uniqueItems") {
        None => Ok(false),
        Some(Bson::Boolean(b)) => Ok(*b),
        Some(_) => Err(ctx.err("uniqueItems", "$jsonSchema keyword 'uniqueItems' must be a boolean")),
    }
}

/// `items`: a subschema, or an array of subschemas.
fn parse_items(value: &Bson, ctx: Ctx<'_>) -> Result<Items, SchemaError> {
    let at = ctx.path("items");
    match value {
        Bson::Document(doc) => Ok(Items::Each(Box::new(Schema::parse(doc, Ctx { at: &at, top: false })?))),
        Bson::Array(list) => list
            .iter()
            .enumerate()
            .map(|(i, s)| tuple_entry(s, &at, i, ctx))
            .collect::<Result<_, _>>()
            .map(Items::Tuple),
        _ => Err(ctx.err("items", "$jsonSchema keyword 'items' must be an array or an object")),
    }
}

fn tuple_entry(value: &Bson, at: &str, index: usize, ctx: Ctx<'_>) -> Result<Schema, SchemaError> {
    let at = format!("{at}.{index}");
    Schema::parse_nested(value, &at, false, || {
        ctx.err("items", "$jsonSchema keyword 'items' requires that each element of the array is an object")
    })
}

impl ArrayRules {
    pub(crate) fn explain<'a, A: Arr<'a>>(
        &self,
        a: A,
        at: &str,
        ex: &mut Explain<'_>,
        out: &mut Vec<Document>,
    ) -> Res<()> {
        let considered = || -> Res<Bson> { Ok(Bson::Array(a.items().map(|v| v?.to_bson()).collect::<Res<_>>()?)) };
        let count = a.items().count() as u64;
        for (bound, keyword) in [(&self.min_items, "minItems"), (&self.max_items, "maxItems")] {
            if bound.as_ref().is_some_and(|b| if keyword == "minItems" { count < b.n } else { count > b.n }) {
                ex.violation(at, keyword, "array did not match specified length");
                let b = bound.as_ref().map(|b| b.spec.clone()).unwrap_or(Bson::Null);
                let mut detail = leaf(keyword, spec(keyword, b), "array did not match specified length", considered()?);
                detail.insert("numberOfItems", count_of(count));
                out.push(detail);
            }
        }
        if let Some(index) = self.unique.then(|| first_duplicate(a)).transpose()?.flatten() {
            let duplicate = a.items().nth(index).transpose()?.map(|v| v.to_bson()).transpose()?.unwrap_or(Bson::Null);
            ex.violation(at, "uniqueItems", "found a duplicate item");
            let mut detail = leaf("uniqueItems", spec("uniqueItems", true), "found a duplicate item", considered()?);
            detail.insert("duplicatedValue", duplicate);
            out.push(detail);
        }
        match &self.items {
            None => {}
            Some(Items::Each(schema)) => {
                Self::explain_from(a, 0, schema, "items", ex, out)?;
            }
            Some(Items::Tuple(schemas)) => {
                Self::explain_tuple(a, schemas, ex, out)?;
                match &self.additional {
                    Some(Additional::Schema(schema)) => {
                        Self::explain_from(a, schemas.len(), schema, "additionalItems", ex, out)?;
                    }
                    Some(Additional::Deny) => explain_no_more(a, schemas.len(), at, ex, out)?,
                    Some(Additional::Allow) | None => {}
                }
            }
        }
        Ok(())
    }

    /// `items: {schema}` or `additionalItems: {schema}`: the first element from `start` on
    /// that fails the schema, `{operatorName, title, description, reason, itemIndex, details}`.
    fn explain_from<'a, A: Arr<'a>>(
        a: A,
        start: usize,
        schema: &Schema,
        keyword: &'static str,
        ex: &mut Explain<'_>,
        out: &mut Vec<Document>,
    ) -> Res<()> {
        for (index, item) in a.items().enumerate().skip(start) {
            let item = item?;
            if schema.matches_ref(&item)? {
                continue;
            }
            let details = ex.at(&index.to_string(), |ex| schema.explain(item, ex))?;
            let reason = if keyword == "items" {
                "At least one item did not match the sub-schema"
            } else {
                "At least one additional item did not match the sub-schema"
            };
            let mut entry = doc! { "operatorName": keyword };
            schema.annotate(&mut entry);
            entry.insert("reason", reason);
            entry.insert("itemIndex", count_of(index as u64));
            entry.insert("details", details);
            out.push(entry);
            return Ok(());
        }
        Ok(())
    }

    /// `items: [schemas]`: every element that fails its schema, `{itemIndex, details}` each.
    fn explain_tuple<'a, A: Arr<'a>>(
        a: A,
        schemas: &[Schema],
        ex: &mut Explain<'_>,
        out: &mut Vec<Document>,
    ) -> Res<()> {
        let mut failures = Vec::new();
        for ((index, item), schema) in a.items().enumerate().zip(schemas) {
            let item = item?;
            if schema.matches_ref(&item)? {
                continue;
            }
            let details = ex.at(&index.to_string(), |ex| schema.explain(item, ex))?;
            // mongod appends the tuple index as it stores it: a long.
            failures.push(doc! { "itemIndex": index as i64, "details": details });
        }
        if !failures.is_empty() {
            out.push(doc! { "operatorName": "items", "details": failures });
        }
        Ok(())
    }
}

/// `additionalItems: false` after a tuple of `start` schemas: the elements past it.
fn explain_no_more<'a, A: Arr<'a>>(
    a: A,
    start: usize,
    at: &str,
    ex: &mut Explain<'_>,
    out: &mut Vec<Document>,
) -> Res<()> {
    let mut extra = Vec::new();
    for (index, item) in a.items().enumerate().skip(start) {
        extra.push(item?.to_bson()?);
        ex.at(&index.to_string(), |ex| ex.violation(at, "additionalItems", "found additional items"));
    }
    if !extra.is_empty() {
        out.push(doc! {
            "operatorName": "additionalItems",
            "specifiedAs": { "additionalItems": false },
            "reason": "found additional items",
            "additionalItems": extra,
        });
    }
    Ok(())
}

/// A count or index as mongod's `appendNumber` writes it: an int when it fits, else a long.
pub(crate) fn count_of(n: u64) -> Bson {
    match i32::try_from(n) {
        Ok(n) => Bson::Int32(n),
        Err(_) => Bson::Int64(n as i64),
    }
}
