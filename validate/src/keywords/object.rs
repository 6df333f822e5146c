//! `properties`, `required`, `patternProperties`, `additionalProperties`, `minProperties`,
//! `maxProperties`, `dependencies`: restrictions that apply to embedded documents (and to the
//! root document).

use mongo_schema_core::bson::{doc, Bson, Document};

use super::array::{count_of, Additional};
use crate::bytes::same;
use crate::error::SchemaError;
use crate::pattern::{Dialect, Pattern};
use crate::report::{spec, Explain};
use crate::schema::{limit, Ctx, Keywords, Limit, Schema};
use crate::value::{Doc, FieldIter, Res, Value};

#[derive(Debug, Default)]
pub(crate) struct ObjectRules {
    /// Every name `properties` or `required` mentions, sorted (the order `explain` reports in).
    named: Vec<Named>,
    /// Finds a field's entry in `named`.
    lookup: Lookup,
    /// The `required` entries of `named`, as a mask over their indexes (when there are <= 64).
    required_mask: u64,
    /// `required` as written (for `specifiedAs`).
    required: Option<Bson>,
    has_properties: bool,
    /// The indexes in `named` of the `properties` entries, in the order written (the order
    /// mongod reports them in).
    written_order: Vec<usize>,
    allowed: Option<Allowed>,
    min_properties: Option<Limit>,
    max_properties: Option<Limit>,
    dependencies: Vec<Dependency>,
}

#[derive(Debug)]
struct Named {
    name: Box<str>,
    schema: Option<Schema>,
    required: bool,
}

/// `patternProperties` with `additionalProperties`: mongod's `$_internalSchemaAllowedProperties`.
#[derive(Debug)]
struct Allowed {
    patterns: Vec<(Pattern, Schema)>,
    otherwise: Additional,
}

#[derive(Debug)]
struct Dependency {
    name: Box<str>,
    then: Then,
}

#[derive(Debug)]
enum Then {
    /// `dependencies: {a: ["b", "c"]}`: with `a`, `b` and `c` must exist.
    Properties(Vec<String>),
    /// `dependencies: {a: {schema}}`: with `a`, the object matches the schema.
    Schema(Box<Schema>),
}

impl ObjectRules {
    pub(crate) fn parse(kw: &Keywords<'_>, ctx: Ctx<'_>) -> Result<Option<Box<ObjectRules>>, SchemaError> {
        let required = kw.get("required").map(|v| parse_required(v, ctx)).transpose()?.unwrap_or_default();
        let mut rules = ObjectRules { required: kw.get("required").cloned(), ..ObjectRules::default() };
        if let Some(properties) = kw.get("properties") {
            rules.named = parse_properties(properties, ctx)?;
            rules.has_properties = true;
        }
        rules.add_required(required);
        rules.allowed = parse_allowed(kw, ctx)?;
        rules.min_properties = limit(kw, ctx, "minProperties")?;
        rules.max_properties = limit(kw, ctx, "maxProperties")?;
        rules.dependencies =
            kw.get("dependencies").map(|v| parse_dependencies(v, ctx)).transpose()?.unwrap_or_default();
        Ok((!rules.is_empty()).then(|| Box::new(rules)))
    }

    fn is_empty(&self) -> bool {
        self.named.is_empty()
            && self.allowed.is_none()
            && self.min_properties.is_none()
            && self.max_properties.is_none()
            && self.dependencies.is_empty()
    }

    fn add_required(&mut self, required: Vec<String>) {
        // The first entry of each name, found through a map: linear in the names, not
        // quadratic (`required` of 5,000 names).
        let mut first: std::collections::HashMap<Box<str>, usize> = std::collections::HashMap::new();
        for (i, named) in self.named.iter().enumerate() {
            first.entry(named.name.clone()).or_insert(i);
        }
        for name in required {
            match first.get(name.as_str()) {
                Some(&i) => self.named[i].required = true,
                None => {
                    first.insert(name.as_str().into(), self.named.len());
                    self.named.push(Named { name: name.into(), schema: None, required: true });
                }
            }
        }
        let declared: Vec<Box<str>> = self.named.iter().map(|n| n.name.clone()).collect();
        self.named.sort_by(|a, b| a.name.cmp(&b.name));
        self.lookup = Lookup::new(&self.named, &declared);
        self.written_order =
            declared.iter().filter_map(|name| self.find(name)).filter(|&i| self.named[i].schema.is_some()).collect();
        self.required_mask =
            self.named.iter().enumerate().filter(|(i, n)| n.required && *i < 64).fold(0, |m, (i, _)| m | 1 << i);
    }

    /// The (first) entry of `named` called `name`: a binary search, `named` being sorted by
    /// name (bytewise, as `str` orders), so `O(log N)` per field rather than a scan.
    fn find(&self, name: &str) -> Option<usize> {
        let name = name.as_bytes();
        let at = self.named.partition_point(|n| n.name.as_bytes() < name);
        self.named.get(at).filter(|n| same(n.name.as_bytes(), name)).map(|_| at)
    }

    pub(crate) fn matches<'a, D: Doc<'a>>(&self, d: D) -> Res<bool> {
        let mut seen = Seen::new(self.named.len());
        let mut count = 0u64;
        let mut guess = self.lookup.first;
        let mut fields = d.fields();
        while let Some(field) = fields.next_expecting(self.lookup.guide(guess)) {
            let (name, value, hit) = field?;
            count += 1;
            let index = if hit { Some(guess) } else { self.find(name) };
            if let Some(i) = index {
                guess = self.lookup.after[i];
            }
            if !self.field_ok(name, index, &value, &mut seen)? {
                return Ok(false);
            }
        }
        let required_ok = match &seen {
            Seen::Small(bits) => bits & self.required_mask == self.required_mask,
            Seen::Large(_) => self.named.iter().enumerate().all(|(i, n)| !n.required || seen.has(i)),
        };
        Ok(required_ok && self.count_ok(count) && self.dependencies_ok(d)?)
    }

    /// `properties` and `patternProperties`/`additionalProperties` for one field, whose
    /// entry in `named` is `index`.
    #[inline]
    fn field_ok<'a, V: Value<'a>>(&self, name: &str, index: Option<usize>, value: &V, seen: &mut Seen) -> Res<bool> {
        // A repeated name (possible in raw BSON) is judged by its first occurrence, as
        // mongod's `getField` does for `properties`.
        let listed = match index.map(|i| (i, &self.named[i])) {
            Some((i, named)) => {
                if !seen.has(i) {
                    seen.set(i);
                    if let Some(schema) = &named.schema {
                        if !schema.matches_ref(value)? {
                            return Ok(false);
                        }
                    }
                }
                named.schema.is_some()
            }
            None => false,
        };
        match &self.allowed {
            None => Ok(true),
            Some(allowed) if allowed.patterns.is_empty() => Ok(listed || allowed.otherwise.admits(*value)?),
            Some(allowed) => allowed.admits(name, *value, listed),
        }
    }

    fn count_ok(&self, count: u64) -> bool {
        self.min_properties.as_ref().is_none_or(|m| count >= m.n)
            && self.max_properties.as_ref().is_none_or(|m| count <= m.n)
    }

    fn dependencies_ok<'a, D: Doc<'a>>(&self, d: D) -> Res<bool> {
        for dependency in &self.dependencies {
            if d.get(&dependency.name)?.is_some() && !dependency.holds(d)? {
                return Ok(false);
            }
        }
        Ok(true)
    }
}

impl Allowed {
    /// mongod's allowed-properties rule: every pattern matching the name applies; a name no
    /// pattern matches and `properties` does not list falls to `additionalProperties`.
    fn admits<'a, V: Value<'a>>(&self, name: &str, value: V, listed: bool) -> Res<bool> {
        let mut matched = false;
        for (pattern, schema) in &self.patterns {
            if pattern.is_match(name) {
                matched = true;
                if !schema.matches(value)? {
                    return Ok(false);
                }
            }
        }
        if matched || listed {
            return Ok(true);
        }
        self.otherwise.admits(value)
    }
}

impl Dependency {
    fn holds<'a, D: Doc<'a>>(&self, d: D) -> Res<bool> {
        match &self.then {
            Then::Properties(names) => {
                for name in names {
                    if d.get(name)?.is_none() {
                        return Ok(false);
                    }
                }
                Ok(true)
            }
            Then::Schema(schema) => schema.matches(d.as_value()),
        }
    }
}

/// The order fields are expected in. Documents written from one struct keep its field order,
/// so the reader is told to expect the name declared after the previous field's, which it
/// compares in place; otherwise `ObjectRules::find` scans the names, lengths before bytes.
#[derive(Debug, Default)]
struct Lookup {
    /// For each index of `named`, the index of the name declared after it (the first name after
    /// the last).
    after: Vec<usize>,
    /// The index of the first name declared.
    first: usize,
    /// For each index, the name to expect there: `None` for a name holding a NUL (possible in
    /// `required`), which no key can equal, as a key ends at its first NUL.
    guides: Vec<Option<Box<str>>>,
}

impl Lookup {
    fn new(named: &[Named], declared: &[Box<str>]) -> Lookup {
        // `named` is sorted: a binary search finds each name's (first) entry.
        let index_of = |name: &str| {
            let at = named.partition_point(|n| *n.name < *name);
            named.get(at).filter(|n| *n.name == *name).map_or(0, |_| at)
        };
        let mut after = vec![0; named.len()];
        for (k, name) in declared.iter().enumerate() {
            after[index_of(name)] = index_of(&declared[(k + 1) % declared.len()]);
        }
        let first = declared.first().map_or(0, |name| index_of(name));
        let guides = named.iter().map(|n| (!n.name.contains('\0')).then(|| n.name.clone())).collect();
        Lookup { after, first, guides }
    }

    /// The name expected at entry `guess`, if any.
    #[inline(always)]
    fn guide(&self, guess: usize) -> Option<&str> {
        self.guides.get(guess).and_then(|g| g.as_deref())
    }
}

/// Which named fields were present; a bitmask for up to 64 names.
enum Seen {
    Small(u64),
    Large(Vec<bool>),
}

impl Seen {
    fn new(len: usize) -> Seen {
        if len <= 64 {
            Seen::Small(0)
        } else {
            Seen::Large(vec![false; len])
        }
    }

    fn set(&mut self, i: usize) {
        match self {
            Seen::Small(bits) => *bits |= 1 << i,
            Seen::Large(flags) => flags[i] = true,
        }
    }

    fn has(&self, i: usize) -> bool {
        match self {
            Seen::Small(bits) => bits & (1 << i) != 0,
            Seen::Large(flags) => flags[i],
        }
    }
}

/// `required`: a non-empty array of unique strings.
fn parse_required(value: &Bson, ctx: Ctx<'_>) -> Result<Vec<String>, SchemaError> {
    let Bson::Array(names) = value else {
        return Err(ctx.err("required", "$jsonSchema keyword 'required' must be an array"));
    };
    let mut out: Vec<String> = Vec::with_capacity(names.len());
    for name in names {
        let Bson::String(name) = name else {
            return Err(ctx.err("required", "$jsonSchema keyword 'required' must be an array of strings"));
        };
        if out.contains(name) {
            return Err(ctx.err("required", "$jsonSchema keyword 'required' array cannot contain duplicate values"));
        }
        out.push(name.clone());
    }
    if out.is_empty() {
        return Err(ctx.err("required", "$jsonSchema keyword 'required' cannot be an empty array"));
    }
    Ok(out)
}

/// `properties`: a document of subschemas.
fn parse_properties(value: &Bson, ctx: Ctx<'_>) -> Result<Vec<Named>, SchemaError> {
    let Bson::Document(properties) = value else {
        return Err(ctx.err("properties", "$jsonSchema keyword 'properties' must be an object"));
    };
    let mut named = Vec::with_capacity(properties.len());
    for (name, sub) in properties {
        let at = ctx.path(&format!("properties.{name}"));
        let schema = Schema::parse_nested(sub, &at, false, || {
            ctx.err(
                &format!("properties.{name}"),
                format!("Nested schema for $jsonSchema property '{name}' must be an object"),
            )
        })?;
        named.push(Named { name: name.as_str().into(), schema: Some(schema), required: false });
    }
    Ok(named)
}

/// `patternProperties` (a document of regex → subschema) and `additionalProperties`
/// (a boolean or a subschema); absent both, no rule.
fn parse_allowed(kw: &Keywords<'_>, ctx: Ctx<'_>) -> Result<Option<Allowed>, SchemaError> {
    let (patterns, additional) = (kw.get("patternProperties"), kw.get("additionalProperties"));
    if patterns.is_none() && additional.is_none() {
        return Ok(None);
    }
    let patterns = patterns.map(|p| parse_patterns(p, ctx)).transpose()?.unwrap_or_default();
    let message = "$jsonSchema keyword 'additionalProperties' must be an object or a boolean";
    let otherwise = additional
        .map(|v| Additional::parse(v, ctx, "additionalProperties", message))
        .transpose()?
        .unwrap_or(Additional::Allow);
    Ok(Some(Allowed { patterns, otherwise }))
}

fn parse_patterns(value: &Bson, ctx: Ctx<'_>) -> Result<Vec<(Pattern, Schema)>, SchemaError> {
    let Bson::Document(entries) = value else {
        return Err(ctx.err("patternProperties", "$jsonSchema keyword 'patternProperties' must be an object"));
    };
    let mut out = Vec::with_capacity(entries.len());
    for (source, sub) in entries {
        let at = ctx.path(&format!("patternProperties.{source}"));
        let schema = Schema::parse_nested(sub, &at, false, || {
            ctx.err(
                "patternProperties",
                format!("$jsonSchema keyword 'patternProperties' has property '{source}' which is not an object"),
            )
        })?;
        // Byte by byte, as mongod 6.0 compiles `patternProperties` (and worded as it words it).
        let pattern = Pattern::new(source, Dialect::Bytes)
            .map_err(|m| ctx.err(&format!("patternProperties.{source}"), format!("Invalid regular expression: {m}")))?;
        out.push((pattern, schema));
    }
    Ok(out)
}

/// `dependencies`: a document whose values are subschemas or non-empty arrays of unique strings.
fn parse_dependencies(value: &Bson, ctx: Ctx<'_>) -> Result<Vec<Dependency>, SchemaError> {
    let Bson::Document(entries) = value else {
        return Err(ctx.err("dependencies", "$jsonSchema keyword 'dependencies' must be an object"));
    };
    // mongod lets `title` / `description` annotate the dependencies document itself.
    let annotation =
        |name: &str, then: &Bson| matches!(then, Bson::String(_)) && (name == "title" || name == "description");
    entries
        .iter()
        .filter(|(name, then)| !annotation(name, then))
        .map(|(name, then)| parse_dependency(name, then, ctx))
        .collect()
}

fn parse_dependency(name: &str, then: &Bson, ctx: Ctx<'_>) -> Result<Dependency, SchemaError> {
    let at = ctx.path(&format!("dependencies.{name}"));
    let then = match then {
        Bson::Document(doc) => Then::Schema(Box::new(Schema::parse(doc, Ctx { at: &at, top: ctx.top })?)),
        Bson::Array(list) => Then::Properties(property_list(name, list, ctx)?),
        _ => {
            return Err(ctx.err(
                &format!("dependencies.{name}"),
                format!("property '{name}' in $jsonSchema keyword 'dependencies' must be either an object or an array"),
            ))
        }
    };
    Ok(Dependency { name: name.into(), then })
}

fn property_list(name: &str, list: &[Bson], ctx: Ctx<'_>) -> Result<Vec<String>, SchemaError> {
    let at = format!("dependencies.{name}");
    if list.is_empty() {
        return Err(
            ctx.err(&at, format!("property '{name}' in $jsonSchema keyword 'dependencies' cannot be an empty array"))
        );
    }
    let mut out: Vec<String> = Vec::with_capacity(list.len());
    for entry in list {
        let Bson::String(entry) = entry else {
            return Err(
                ctx.err(&at, format!("array '{name}' in $jsonSchema keyword 'dependencies' can only contain strings"))
            );
        };
        if out.contains(entry) {
            return Err(ctx.err(
                &at,
                format!("array '{name}' in $jsonSchema keyword 'dependencies' contains duplicate element: {entry}"),
            ));
        }
        out.push(entry.clone());
    }
    Ok(out)
}

impl ObjectRules {
    /// Whether a required key of `d` fails its `enum` (a tag that names another variant):
    /// the branch of a `oneOf` / `anyOf` this is cannot be the one `d` was written as.
    pub(crate) fn tag_excludes<'a, D: Doc<'a>>(&self, d: D) -> Res<bool> {
        for named in self.named.iter().filter(|n| n.required) {
            let Some(logic) = named.schema.as_ref().and_then(|s| s.logic.as_deref()) else { continue };
            if let Some(value) = d.get(&named.name)? {
                if logic.enum_refuses(value)? {
                    return Ok(true);
                }
            }
        }
        Ok(false)
    }

    /// Appends mongod's entries for every object keyword `d` breaks.
    pub(crate) fn explain<'a, D: Doc<'a>>(
        &self,
        d: D,
        at: &str,
        ex: &mut Explain<'_>,
        out: &mut Vec<Document>,
    ) -> Res<()> {
        if self.has_properties {
            self.explain_properties(d, ex, out)?;
        }
        if let Some(allowed) = &self.allowed {
            allowed.explain(self, d, at, ex, out)?;
        }
        self.explain_required(d, at, ex, out)?;
        self.explain_counts(d, at, ex, out)?;
        self.explain_dependencies(d, at, ex, out)
    }

    fn explain_properties<'a, D: Doc<'a>>(&self, d: D, ex: &mut Explain<'_>, out: &mut Vec<Document>) -> Res<()> {
        let mut failed = Vec::new();
        for named in self.written_order.iter().map(|&i| &self.named[i]) {
            let Some(schema) = &named.schema else { continue };
            let Some(value) = d.get(&named.name)? else {
                // A required property that is missing: mongod applies its subschema to the
                // missing value too, and lists it when that explains anything.
                let details =
                    if named.required && schema.fails_on_missing() { schema.explain_missing() } else { Vec::new() };
                if !details.is_empty() {
                    let mut entry = doc! { "propertyName": &*named.name };
                    schema.annotate(&mut entry);
                    entry.insert("details", details);
                    failed.push(entry);
                }
                continue;
            };
            if schema.matches(value)? {
                continue;
            }
            let details = ex.at(&named.name, |ex| schema.explain(value, ex))?;
            let mut entry = doc! { "propertyName": &*named.name };
            schema.annotate(&mut entry);
            entry.insert("details", details);
            failed.push(entry);
        }
        if !failed.is_empty() {
            out.push(doc! { "operatorName": "properties", "propertiesNotSatisfied": failed });
        }
        Ok(())
    }

    fn explain_required<'a, D: Doc<'a>>(
        &self,
        d: D,
        at: &str,
        ex: &mut Explain<'_>,
        out: &mut Vec<Document>,
    ) -> Res<()> {
        let mut missing = Vec::new();
        for named in self.named.iter().filter(|n| n.required) {
            if d.get(&named.name)?.is_none() {
                missing.push(Bson::String(named.name.to_string()));
                ex.at(&named.name, |ex| ex.violation(at, "required", "missing required property"));
            }
        }
        if !missing.is_empty() {
            let spec = spec("required", self.required.clone().unwrap_or(Bson::Null));
            out.push(doc! { "operatorName": "required", "specifiedAs": spec, "missingProperties": missing });
        }
        Ok(())
    }

    fn explain_counts<'a, D: Doc<'a>>(&self, d: D, at: &str, ex: &mut Explain<'_>, out: &mut Vec<Document>) -> Res<()> {
        let mut count = 0i64;
        for field in d.fields() {
            field?;
            count += 1;
        }
        for (bound, keyword) in [(&self.min_properties, "minProperties"), (&self.max_properties, "maxProperties")] {
            let Some(b) = bound else { continue };
            let broken = if keyword == "minProperties" { (count as u64) < b.n } else { count as u64 > b.n };
            if broken {
                let reason = "specified number of properties was not satisfied";
                ex.violation(at, keyword, reason);
                out.push(doc! { "operatorName": keyword, "specifiedAs": spec(keyword, b.spec.clone()), "reason": reason, "numberOfProperties": count_of(count as u64) });
            }
        }
        Ok(())
    }

    fn explain_dependencies<'a, D: Doc<'a>>(
        &self,
        d: D,
        at: &str,
        ex: &mut Explain<'_>,
        out: &mut Vec<Document>,
    ) -> Res<()> {
        let mut failing = Vec::new();
        for dependency in &self.dependencies {
            if d.get(&dependency.name)?.is_none() || dependency.holds(d)? {
                continue;
            }
            failing.push(dependency.explain(d, at, ex)?);
        }
        if !failing.is_empty() {
            out.push(doc! { "operatorName": "dependencies", "failingDependencies": failing });
        }
        Ok(())
    }
}

impl Dependency {
    fn explain<'a, D: Doc<'a>>(&self, d: D, at: &str, ex: &mut Explain<'_>) -> Res<Document> {
        let mut entry = doc! { "conditionalProperty": &*self.name };
        match &self.then {
            Then::Properties(names) => {
                let mut missing = Vec::new();
                for name in names {
                    if d.get(name)?.is_none() {
                        missing.push(Bson::String(name.clone()));
                        ex.at(name, |ex| {
                            ex.violation(at, "dependencies", format!("missing property required by '{}'", self.name))
                        });
                    }
                }
                entry.insert("missingProperties", missing);
            }
            Then::Schema(schema) => {
                entry.insert("details", schema.explain(d.as_value(), ex)?);
            }
        }
        Ok(entry)
    }
}

impl Allowed {
    /// mongod's `$_internalSchemaAllowedProperties`: first `additionalProperties` (`false`:
    /// every additional name; a schema: the first additional property failing it), then, for
    /// each pattern in turn, the first property whose name it matches and whose value fails its
    /// schema.
    fn explain<'a, D: Doc<'a>>(
        &self,
        rules: &ObjectRules,
        d: D,
        at: &str,
        ex: &mut Explain<'_>,
        out: &mut Vec<Document>,
    ) -> Res<()> {
        let mut extra = Vec::new();
        let mut failing: Option<Document> = None;
        for field in d.fields() {
            let (name, value) = field?;
            let listed = rules.find(name).is_some_and(|i| rules.named[i].schema.is_some());
            if listed || self.patterns.iter().any(|(pattern, _)| pattern.is_match(name)) {
                continue;
            }
            match &self.otherwise {
                Additional::Allow => {}
                Additional::Deny => {
                    extra.push(Bson::String(name.to_owned()));
                    ex.at(name, |ex| {
                        ex.violation(at, "additionalProperties", "property not allowed by additionalProperties: false")
                    });
                }
                // Every failing property is explained (for `violations()`); mongod's errInfo
                // reports the first.
                Additional::Schema(schema) => {
                    if schema.matches(value)? {
                        continue;
                    }
                    let details = ex.at(name, |ex| schema.explain(value, ex))?;
                    if failing.is_none() {
                        let mut entry = doc! { "operatorName": "additionalProperties" };
                        schema.annotate(&mut entry);
                        entry.insert("reason", "at least one additional property did not match the subschema");
                        entry.insert("failingProperty", name);
                        entry.insert("details", details);
                        failing = Some(entry);
                    }
                }
            }
        }
        if !extra.is_empty() {
            out.push(doc! {
                "operatorName": "additionalProperties",
                "specifiedAs": { "additionalProperties": false },
                "additionalProperties": extra,
            });
        }
        out.extend(failing);
        let mut pattern_failures = Vec::new();
        for (pattern, schema) in &self.patterns {
            let mut first = true;
            for field in d.fields() {
                let (name, value) = field?;
                if !pattern.is_match(name) || schema.matches(value)? {
                    continue;
                }
                let details = ex.at(name, |ex| schema.explain(value, ex))?;
                if std::mem::take(&mut first) {
                    let mut entry = doc! { "propertyName": name };
                    schema.annotate(&mut entry);
                    entry.insert("regexMatched", pattern.source());
                    entry.insert("details", details);
                    pattern_failures.push(entry);
                }
            }
        }
        if !pattern_failures.is_empty() {
            out.push(doc! { "operatorName": "patternProperties", "details": pattern_failures });
        }
        Ok(())
    }
}
