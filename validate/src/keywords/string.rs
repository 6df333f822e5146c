//! `pattern`, `maxLength`, `minLength`: restrictions that apply to strings only
//! (MongoDB manual, "$jsonSchema" keyword table: "strings").

use mongo_schema_core::bson::{Bson, Document};

use crate::error::SchemaError;
use crate::pattern::{Dialect, Found, Pattern};
use crate::report::{leaf, spec, Explain};
use crate::schema::{limit, Ctx, Keywords, Limit};

/// `repr(C)`: the bounds `matches` reads come first, as plain numbers, ahead of the keywords
/// as written (for `explain`).
#[derive(Debug)]
#[repr(C)]
pub(crate) struct StringRules {
    /// `minLength`, or 0.
    min: u64,
    /// `maxLength`, or `u64::MAX`.
    max: u64,
    pattern: Option<Pattern>,
    max_length: Option<Limit>,
    min_length: Option<Limit>,
}

impl StringRules {
    /// Parses the string keywords; at the root they are checked but dropped, as mongod does.
    pub(crate) fn parse(kw: &Keywords<'_>, ctx: Ctx<'_>) -> Result<Option<Box<StringRules>>, SchemaError> {
        let pattern = parse_pattern(kw, ctx)?;
        let max_length = limit(kw, ctx, "maxLength")?;
        let min_length = limit(kw, ctx, "minLength")?;
        let min = min_length.as_ref().map_or(0, |l| l.n);
        let max = max_length.as_ref().map_or(u64::MAX, |l| l.n);
        let rules = StringRules { min, max, pattern, max_length, min_length };
        let empty = rules.pattern.is_none() && rules.max_length.is_none() && rules.min_length.is_none();
        Ok((!ctx.top && !empty).then(|| Box::new(rules)))
    }

    #[inline]
    pub(crate) fn matches(&self, s: &str) -> bool {
        self.length_ok(s) && self.pattern.as_ref().is_none_or(|p| p.is_match(s))
    }

    #[inline]
    fn length_ok(&self, s: &str) -> bool {
        // maxLength / minLength count code points (mongod's `lengthInUTF8CodePoints`). A string
        // has at most one code point per byte and at least one per four, which mostly settles it
        // without counting.
        let bytes = s.len() as u64;
        if bytes <= self.max && bytes.div_ceil(4) >= self.min {
            return true;
        }
        (self.min..=self.max).contains(&(s.chars().count() as u64))
    }

    pub(crate) fn explain(&self, s: &str, at: &str, ex: &mut Explain<'_>, out: &mut Vec<Document>) {
        if let Some(p) = &self.pattern {
            explain_pattern(p, s, at, ex, out);
        }
        let length = s.chars().count() as u64;
        if let Some(max) = self.max_length.as_ref().filter(|max| length > max.n) {
            out.push(length_failure("maxLength", max, s, at, ex));
        }
        if let Some(min) = self.min_length.as_ref().filter(|min| length < min.n) {
            out.push(length_failure("minLength", min, s, at, ex));
        }
    }
}

/// `pattern`: a string, compiled as PCRE (UTF mode, no flags; mongod's wording of errors); at the root mongod never
/// compiles it, so a broken regex is accepted there.
fn parse_pattern(kw: &Keywords<'_>, ctx: Ctx<'_>) -> Result<Option<Pattern>, SchemaError> {
    match kw.get("pattern") {
        None => Ok(None),
        Some(Bson::String(_)) if ctx.top => Ok(None),
        Some(Bson::String(source)) => Pattern::new(source, Dialect::Utf)
            .map(Some)
            .map_err(|m| ctx.err("pattern", format!("Regular expression is invalid: {m}"))),
        Some(_) => Err(ctx.err("pattern", "$jsonSchema keyword 'pattern' must be a string")),
    }
}

fn explain_pattern(p: &Pattern, s: &str, at: &str, ex: &mut Explain<'_>, out: &mut Vec<Document>) {
    let found = p.find(s);
    if found == Found::Yes {
        return;
    }
    let reason = "regular expression did not match";
    let note =
        if found == Found::LimitHit { " (PCRE match limit hit: counted as no match, as mongod does)" } else { "" };
    ex.violation(at, "pattern", format!("{reason}{note}"));
    out.push(leaf("pattern", spec("pattern", p.source()), reason, Bson::String(s.into())));
}

fn length_failure(keyword: &'static str, bound: &Limit, s: &str, at: &str, ex: &mut Explain<'_>) -> Document {
    let reason = "specified string length was not satisfied";
    ex.violation(at, keyword, reason);
    leaf(keyword, spec(keyword, bound.spec.clone()), reason, Bson::String(s.into()))
}
