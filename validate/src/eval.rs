//! Deciding (`matches`, allocation-free) and explaining (`explain`) one subschema against one
//! value, dispatching to the keyword family the value's type selects.

use mongo_schema_core::bson::{doc, Bson, Document};

use super::equal::as_num;
use super::report::Explain;
use super::schema::{Restriction, Schema};
use super::types::{alias_of, TypeSet};
use super::value::{Res, Value, View};
use mongo_schema_core::bson::spec::ElementType;

impl Schema {
    /// Whether `v` satisfies this subschema.
    #[inline(always)]
    pub(crate) fn matches<'a, V: Value<'a>>(&self, v: V) -> Res<bool> {
        self.matches_ref(&v)
    }

    /// `matches` for a value already in memory (a field or item just read). The type test is
    /// inline, and so are schemas with only string or only numeric keywords (their other
    /// families do not apply, as in `family_matches`); a schema with more to check goes on to
    /// `matches_rules`. By reference and always inline: moving the value into a call's
    /// argument slot copies it with wide loads that stall on store forwarding.
    #[inline(always)]
    pub(crate) fn matches_ref<'a, V: Value<'a>>(&self, v: &V) -> Res<bool> {
        if !self.admits.contains(v.element_type()) {
            return Ok(false);
        }
        match self.restriction {
            Restriction::Bare => Ok(true),
            Restriction::String => Ok(v.text().is_none_or(|s| self.string.as_ref().is_none_or(|r| r.matches(s)))),
            Restriction::Number => Ok(v.num().is_none_or(|n| self.number.as_ref().is_none_or(|r| r.matches(n)))),
            Restriction::Rules => self.matches_rules(v),
        }
    }

    fn matches_rules<'a, V: Value<'a>>(&self, v: &V) -> Res<bool> {
        let view = v.view();
        if !self.family_matches::<V>(&view)? {
            return Ok(false);
        }
        if self.encrypt.as_ref().is_some_and(|e| !e.matches(&view)) {
            return Ok(false);
        }
        self.logic.as_ref().map_or(Ok(true), |l| l.matches(*v))
    }

    /// The restriction keywords of the value's type family; the other families do not apply.
    fn family_matches<'a, V: Value<'a>>(&self, view: &View<'a, V::Doc, V::Arr>) -> Res<bool> {
        match *view {
            View::String(s) => Ok(self.string.as_ref().is_none_or(|r| r.matches(s))),
            View::Document(d) => self.object.as_ref().map_or(Ok(true), |r| r.matches(d)),
            View::Array(a) => self.array.as_ref().map_or(Ok(true), |r| r.matches(a)),
            _ => Ok(match (&self.number, as_num(view)) {
                (Some(rules), Some(n)) => rules.matches(n),
                _ => true,
            }),
        }
    }

    /// mongod's `details` for `v` failing this subschema, recording violations in `ex`: the
    /// array of entries for every keyword `v` breaks, or (for a `never` schema) the one
    /// always-false entry.
    pub(crate) fn explain<'a, V: Value<'a>>(&self, v: V, ex: &mut Explain<'_>) -> Res<Bson> {
        if self.never {
            ex.violation(&self.at, "$jsonSchema", "the root schema's type excludes documents");
            return Ok(Bson::Document(self.always_false()));
        }
        let mut out = Vec::new();
        let view = v.view();
        // mongod's order: string, number and array keywords, `encrypt`, object keywords,
        // logic keywords, then the type. A value has one family, so only an object puts
        // `encrypt` before its family's entries.
        let object = matches!(view, View::Document(_));
        if let Some(e) = self.encrypt.as_ref().filter(|_| object) {
            e.explain(&view, &self.at, ex, &mut out);
        }
        if self.family_applies(&view) {
            self.explain_family::<V>(v, &view, ex, &mut out)?;
        }
        if let Some(e) = self.encrypt.as_ref().filter(|_| !object) {
            e.explain(&view, &self.at, ex, &mut out);
        }
        if let Some(logic) = &self.logic {
            logic.explain(v, &self.at, ex, &mut out)?;
        }
        self.explain_type(v, ex, &mut out)?;
        Ok(Bson::Array(out.into_iter().map(Bson::Document).collect()))
    }

    /// Whether mongod's expression for this subschema fails on a missing value (a required
    /// property that is absent): a type keyword (or `encrypt`'s binData) and `enum` do, restriction
    /// keywords do not (they only restrict values of their type), combinators as their clauses
    /// decide.
    pub(crate) fn fails_on_missing(&self) -> bool {
        self.types.is_some() || self.logic.as_ref().is_some_and(|l| l.fails_on_missing())
    }

    /// mongod's `details` for a missing value failing this subschema: only `encrypt` and the
    /// combinators explain themselves on a missing value; the other keywords fail silently.
    pub(crate) fn explain_missing(&self) -> Vec<Document> {
        let mut out = Vec::new();
        if self.encrypt.is_some() {
            out.push(doc! { "operatorName": "encrypt", "reason": "value was not encrypted" });
        }
        if let Some(logic) = &self.logic {
            logic.explain_missing(&mut out);
        }
        out
    }

    /// A `never` schema is mongod's always-false expression, reported with the whole schema.
    fn always_false(&self) -> Document {
        let written = self.written.clone().unwrap_or_default();
        doc! {
            "operatorName": "$jsonSchema",
            "specifiedAs": { "$jsonSchema": written },
            "reason": "expression always evaluates to false",
        }
    }

    /// Whether the keywords of `view`'s type family are in mongod's expression at all: with a
    /// single stated type (one alias, or `encrypt`'s binData) mongod drops the restriction
    /// keywords of every other type (`makeRestriction`), so they never explain a failure.
    fn family_applies<D, A>(&self, view: &View<'_, D, A>) -> bool {
        let Some(types) = self.types.as_ref().filter(|t| t.single) else { return true };
        let family = match view {
            View::String(_) => TypeSet::of(ElementType::String),
            View::Document(_) => TypeSet::of(ElementType::EmbeddedDocument),
            View::Array(_) => TypeSet::of(ElementType::Array),
            _ => TypeSet::NUMBERS,
        };
        types.set.intersects(family)
    }

    fn explain_family<'a, V: Value<'a>>(
        &self,
        v: V,
        view: &View<'a, V::Doc, V::Arr>,
        ex: &mut Explain<'_>,
        out: &mut Vec<Document>,
    ) -> Res<()> {
        match *view {
            View::String(s) => self.string.iter().for_each(|r| r.explain(s, &self.at, ex, out)),
            View::Document(d) => self.object.as_ref().map_or(Ok(()), |r| r.explain(d, &self.at, ex, out))?,
            View::Array(a) => self.array.as_ref().map_or(Ok(()), |r| r.explain(a, &self.at, ex, out))?,
            _ => {
                if let (Some(rules), Some(n)) = (&self.number, as_num(view)) {
                    rules.explain(n, &v.to_bson()?, &self.at, ex, out);
                }
            }
        }
        Ok(())
    }

    /// `bsonType` / `type`: `{operatorName, specifiedAs, reason, consideredValue, consideredType}`.
    fn explain_type<'a, V: Value<'a>>(&self, v: V, ex: &mut Explain<'_>, out: &mut Vec<Document>) -> Res<()> {
        let Some(types) = self.types.as_ref().filter(|t| !t.set.contains(v.element_type())) else { return Ok(()) };
        if types.keyword == "encrypt" {
            return Ok(());
        }
        let reason = "type did not match";
        ex.violation(&self.at, types.keyword, reason);
        let mut specified = Document::new();
        specified.insert(types.keyword, types.spec.clone());
        out.push(doc! {
            "operatorName": types.keyword,
            "specifiedAs": specified,
            "reason": reason,
            "consideredValue": v.to_bson()?,
            "consideredType": alias_of(v.element_type()),
        });
        Ok(())
    }
}

/// The root entry of `errInfo.details`: `{operatorName: "$jsonSchema", title, description,
/// schemaRulesNotSatisfied}`; a root schema whose type excludes documents is mongod's
/// always-false expression, which reports the whole schema instead.
pub(crate) fn root_details(schema: &Schema, rules: Bson) -> Document {
    if let Bson::Document(always_false) = rules {
        return always_false;
    }
    let mut details = doc! { "operatorName": "$jsonSchema" };
    schema.annotate(&mut details);
    details.insert("schemaRulesNotSatisfied", rules);
    details
}

impl Schema {
    /// Appends this subschema's `title` and `description` (in that order, as mongod's
    /// schema annotations) to an `errInfo` entry; a `never` schema has none (mongod replaces
    /// it with an expression that carries no annotations).
    pub(crate) fn annotate(&self, entry: &mut Document) {
        if self.never {
            return;
        }
        if let Some(title) = &self.title {
            entry.insert("title", title);
        }
        if let Some(description) = &self.description {
            entry.insert("description", description);
        }
    }
}
