//! Deciding (`matches`, allocation-free) and explaining (`explain`) one subschema against one
//! value, dispatching to the keyword family the value's type selects.

use crate::bson::{doc, Document};

use super::equal::as_num;
use super::report::Explain;
use super::schema::{Restriction, Schema};
use super::types::alias_of;
use super::value::{Res, Value, View};

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

    /// mongod's `errInfo` entries for every keyword `v` breaks, recording violations in `ex`.
    pub(crate) fn explain<'a, V: Value<'a>>(&self, v: V, ex: &mut Explain<'_>) -> Res<Vec<Document>> {
        let mut out = Vec::new();
        if self.never {
            ex.violation(&self.at, "$jsonSchema", "the root schema's type excludes documents");
            out.push(doc! { "operatorName": "$jsonSchema", "reason": "schema type does not admit documents" });
            return Ok(out);
        }
        let view = v.view();
        self.explain_family::<V>(v, &view, ex, &mut out)?;
        if let Some(e) = &self.encrypt {
            e.explain(&view, &self.at, ex, &mut out);
        }
        if let Some(logic) = &self.logic {
            logic.explain(v, &self.at, ex, &mut out)?;
        }
        self.explain_type(v, ex, &mut out)?;
        Ok(out)
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

/// The root entry of `errInfo.details`.
pub(crate) fn root_details(schema: &Schema, rules: Vec<Document>) -> Document {
    let mut details = doc! { "operatorName": "$jsonSchema" };
    if let Some(title) = &schema.title {
        details.insert("title", title);
    }
    details.insert("schemaRulesNotSatisfied", rules);
    details
}
