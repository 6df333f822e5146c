//! The decisions of a draft that weigh a level's keys together rather than one path's
//! values: which of two keys never seen together is the new one (a rename's direction), and
//! which root key tags a polymorphic collection. Each reads the inference state and what the
//! deployment and the rest of the database say, and returns what it decided with the
//! evidence that decided it; `decide` types the fields, the report's candidates and the
//! anomalies from that.

use super::stats::{Field, Kind, Object};
use mongo_schema_contract::naming::{self, FieldCase};
use mongo_schema_core::bson::{Bson, Document};
use std::collections::BTreeMap;

/// Keys written in each case: one-word keys (`status`, `email`) fit both and count in neither.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct Cases {
    pub camel: u64,
    pub snake: u64,
}

impl Cases {
    pub fn of_keys<'a>(keys: impl IntoIterator<Item = &'a str>) -> Cases {
        let mut cases = Cases::default();
        for key in keys {
            match naming::infer_case(key) {
                Some(FieldCase::Camel) => cases.camel += 1,
                Some(FieldCase::Snake) => cases.snake += 1,
                None => {}
            }
        }
        cases
    }

    /// The keys of `object` and of the documents below it (embedded, in arrays), `_id` aside.
    pub fn of_object(object: &Object) -> Cases {
        let mut cases = Cases::of_keys(object.fields.iter().map(|f| f.key.as_str()).filter(|k| *k != "_id"));
        for field in &object.fields {
            let mut values = Some(&field.values);
            while let Some(v) = values {
                if let Some(inner) = v.object.as_deref() {
                    cases = cases + Cases::of_object(inner);
                }
                values = v.items.as_deref();
            }
        }
        cases
    }

    /// The case most keys are written in, when one is.
    pub fn case(self) -> Option<FieldCase> {
        match self.camel.cmp(&self.snake) {
            std::cmp::Ordering::Greater => Some(FieldCase::Camel),
            std::cmp::Ordering::Less => Some(FieldCase::Snake),
            std::cmp::Ordering::Equal => None,
        }
    }

    fn said(self) -> String {
        format!("{} camelCase, {} snake_case", self.camel, self.snake)
    }
}

impl std::ops::Add for Cases {
    type Output = Cases;
    fn add(self, other: Cases) -> Cases {
        Cases { camel: self.camel + other.camel, snake: self.snake + other.snake }
    }
}

/// The paths the deployment names, each with what names it: the keys of its indexes
/// (`the index \`createTime_1\``) and the fields its validator states (`$jsonSchema`'s
/// `properties` and `required`, a query validator's paths).
pub(super) fn deployed_names(indexes: &[Document], validator: Option<&Document>) -> BTreeMap<String, Vec<String>> {
    let mut named: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut add = |path: String, by: String| {
        let namers = named.entry(path).or_default();
        if !namers.contains(&by) {
            namers.push(by);
        }
    };
    for index in indexes {
        let name = index.get_str("name").unwrap_or_default();
        if let Ok(key) = index.get_document("key") {
            for path in key.keys().filter(|p| *p != "_id") {
                add(path.clone(), format!("the index `{name}`"));
            }
        }
    }
    if let Some(validator) = validator {
        let mut paths = Vec::new();
        query_paths(validator, &mut paths);
        for path in paths {
            add(path, "the validator".to_owned());
        }
    }
    named
}

/// The paths a query validator names (`{"a.b": ..., "$or": [...], "$jsonSchema": {...}}`).
fn query_paths(query: &Document, out: &mut Vec<String>) {
    for (key, value) in query {
        match (key.as_str(), value) {
            ("$jsonSchema", Bson::Document(schema)) => schema_paths(schema, "", out),
            ("$and" | "$or" | "$nor", Bson::Array(items)) => {
                for item in items {
                    if let Bson::Document(d) = item {
                        query_paths(d, out);
                    }
                }
            }
            (k, _) if k.starts_with('$') => {}
            (path, _) => out.push(path.to_owned()),
        }
    }
}

/// The paths a `$jsonSchema` states: its `properties` and `required`, nested, through
/// `items` and the combinators.
fn schema_paths(schema: &Document, prefix: &str, out: &mut Vec<String>) {
    let at = |key: &str| if prefix.is_empty() { key.to_owned() } else { format!("{prefix}.{key}") };
    if let Ok(properties) = schema.get_document("properties") {
        for (key, sub) in properties {
            out.push(at(key));
            if let Bson::Document(sub) = sub {
                schema_paths(sub, &at(key), out);
            }
        }
    }
    if let Ok(required) = schema.get_array("required") {
        out.extend(required.iter().filter_map(Bson::as_str).map(at));
    }
    if let Ok(items) = schema.get_document("items") {
        schema_paths(items, prefix, out);
    }
    for combinator in ["allOf", "anyOf", "oneOf"] {
        for sub in schema.get_array(combinator).into_iter().flatten() {
            if let Bson::Document(sub) = sub {
                schema_paths(sub, prefix, out);
            }
        }
    }
}

/// A rename at one level: the positions of the new and the old key, and what decided
/// which of the two is the new one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Rename {
    pub new: usize,
    pub old: usize,
    pub why: String,
}

/// Pairs of keys of `object` never seen together whose counts add up to every document
/// there (an old and a new name), with their direction. Pairs whose sides hold the same
/// documents are one release's rename (`eventType`, `customerId`, `createTime` replacing
/// `event_type`, `customer_id`, `created_at`) and are turned the same way. In order, the
/// new side is the one the deployment names (`deployed`: an index or the validator), the
/// one written in the case of the level's other keys, the one written in the case of the
/// database's other collections (`database`), the more frequent. `skip`: positions that
/// are no rename (a tag and the keys it explains; data keys).
pub(super) fn renames(
    object: &Object,
    path: &str,
    skip: impl Fn(usize) -> bool,
    deployed: &BTreeMap<String, Vec<String>>,
    database: Cases,
) -> Vec<Rename> {
    let fields = &object.fields;
    let met = |a: usize, b: usize| fields[a].seen_with & (1 << b) != 0 || fields[b].seen_with & (1 << a) != 0;
    // every candidate pair, the likeliest first: the same words (`eventType`, `event_type`),
    // then the same kinds of values; a key the new release added (`sessionId`, in the new
    // documents only) pairs with an old key only when nothing likelier does
    let mut candidates: Vec<(u8, usize, usize)> = Vec::new();
    for i in 0..fields.len().min(64) {
        for j in i + 1..fields.len().min(64) {
            let (a, b) = (&fields[i], &fields[j]);
            if met(i, j) || a.present + b.present != object.count {
                continue;
            }
            if a.key == "_id" || b.key == "_id" || skip(i) || skip(j) {
                continue;
            }
            candidates.push((likeness(a, b), i, j));
        }
    }
    candidates.sort_by_key(|(likeness, i, j)| (std::cmp::Reverse(*likeness), *i, *j));
    let mut pairs: Vec<(usize, usize)> = Vec::new();
    let mut used = vec![false; fields.len()];
    for (_, i, j) in candidates {
        if !used[i] && !used[j] {
            used[i] = true;
            used[j] = true;
            pairs.push((i, j));
        }
    }
    pairs.sort_unstable();
    // a and c hold the same documents when a never meets d nor c meets b (pairs (a, b), (c, d))
    let mut generations: Vec<Vec<(usize, usize)>> = Vec::new();
    'pairs: for &(a, b) in &pairs {
        for generation in &mut generations {
            let (c, d) = generation[0];
            if !met(a, d) && !met(c, b) {
                generation.push((a, b));
                continue 'pairs;
            }
            if !met(b, d) && !met(c, a) {
                generation.push((b, a));
                continue 'pairs;
            }
        }
        generations.push(vec![(a, b)]);
    }
    let key = |p: usize| fields[p].key.as_str();
    let at = |p: usize| if path.is_empty() { key(p).to_owned() } else { format!("{path}.{}", key(p)) };
    // the level's other keys: those of no pair
    let level = Cases::of_keys((0..fields.len()).filter(|p| !used.get(*p).copied().unwrap_or(false)).map(key));
    let mut out = Vec::new();
    for generation in generations {
        let first: Vec<usize> = generation.iter().map(|(a, _)| *a).collect();
        let second: Vec<usize> = generation.iter().map(|(_, b)| *b).collect();
        // what the deployment says of a side: `the index \`x_1\` names \`x\`; the validator names \`x\`, \`y\``
        let named = |side: &[usize]| {
            let mut by: Vec<(&str, Vec<String>)> = Vec::new();
            for p in side {
                for namer in deployed.get(&at(*p).replace(".$[]", "")).into_iter().flatten() {
                    match by.iter_mut().find(|(n, _)| n == namer) {
                        Some((_, keys)) => keys.push(format!("`{}`", key(*p))),
                        None => by.push((namer, vec![format!("`{}`", key(*p))])),
                    }
                }
            }
            let said: Vec<String> =
                by.iter().map(|(namer, keys)| format!("{namer} names {}", keys.join(", "))).collect();
            (!said.is_empty()).then(|| said.join("; "))
        };
        let fits = |side: &[usize], case: FieldCase| -> i64 {
            side.iter()
                .map(|p| match naming::infer_case(key(*p)) {
                    Some(c) if c == case => 1,
                    Some(_) => -1,
                    None => 0,
                })
                .sum()
        };
        let by_case = |cases: Cases| {
            let case = cases.case()?;
            match fits(&first, case).cmp(&fits(&second, case)) {
                std::cmp::Ordering::Greater => Some((true, case)),
                std::cmp::Ordering::Less => Some((false, case)),
                std::cmp::Ordering::Equal => None,
            }
        };
        let (first_new, why) = match (named(&first), named(&second)) {
            (Some(by), None) => (true, format!("the deployment ({by})")),
            (None, Some(by)) => (false, format!("the deployment ({by})")),
            _ => match by_case(level) {
                Some((first_new, case)) => {
                    (first_new, format!("the level's case (its other keys are {}: {})", case.name(), level.said()))
                }
                None => match by_case(database) {
                    Some((first_new, case)) => (
                        first_new,
                        format!(
                            "the database's case (the keys of its other collections are {}: {})",
                            case.name(),
                            database.said()
                        ),
                    ),
                    None => {
                        let (x, y) = (fields[first[0]].present, fields[second[0]].present);
                        // as many: the key seen later is the newer
                        let first_new = x > y || (x == y && first[0] > second[0]);
                        let (new, old) = if first_new { (x, y) } else { (y, x) };
                        (first_new, format!("frequency ({new} documents against {old}; nothing deployed names either side, no case tells them apart)"))
                    }
                },
            },
        };
        for (a, b) in generation {
            let (new, old) = if first_new { (a, b) } else { (b, a) };
            out.push(Rename { new, old, why: why.clone() });
        }
    }
    out
}

/// How alike two keys are, for pairing a rename's keys: 4 for the same words in another case
/// (`eventType`, `event_type`), 2 for the same kinds of values, 1 for the same most frequent
/// kind.
fn likeness(a: &Field, b: &Field) -> u8 {
    let kinds = |f: &Field| -> Vec<Kind> { f.values.kinds.keys().copied().filter(|k| *k != Kind::Null).collect() };
    let top = |f: &Field| {
        f.values.kinds.iter().filter(|(k, _)| **k != Kind::Null).max_by_key(|(_, s)| s.values).map(|(k, _)| *k)
    };
    let words = u8::from(naming::words(&a.key) == naming::words(&b.key)) * 4;
    let same_kinds = u8::from(kinds(a) == kinds(b)) * 2;
    words + same_kinds + u8::from(top(a) == top(b))
}

/// A root key that tags a polymorphic collection, with a variant per value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Tag {
    pub position: usize,
    /// Per value: (value, documents, keys every one has, keys any has), bits by position.
    pub values: Vec<(String, u64, u64, u64)>,
    /// Keys the tag explains: some values' documents always hold them, others' never.
    pub shaped: u64,
    /// Keys every document holds.
    pub universal: u64,
    /// Documents whose tag is missing or not a string.
    pub untagged: u64,
}

/// The root keys that could tag `object`, most keys explained first (the first seen among
/// as many). A key is a tag when it holds a string in every document (but for at most 1 in
/// 50: the tag's own anomalies), at most `DISCRIMINATOR_VALUES` distinct ones (16), and at
/// least two of its values come with keys
/// the tag explains: keys that every document of some values holds and no document of some
/// other value. A key shared by several values (`speedKmh` in `position` and `overspeed`)
/// is explained as well as one of a single value's; keys every document holds, whatever
/// their values (a common `ts` with anomalies), and keys optional in every value say nothing.
pub(super) fn tags(object: &Object) -> Vec<Tag> {
    let tracked = object.fields.len().min(64);
    let universal = (0..tracked).filter(|p| object.fields[*p].present == object.count).fold(0u64, |m, p| m | (1 << p));
    let mut found = Vec::new();
    for (position, field) in object.fields.iter().enumerate().take(tracked) {
        if object.many_values & (1 << position) != 0 || field.key == "_id" {
            continue;
        }
        let values: Vec<(String, u64, u64, u64)> = object
            .by_value
            .iter()
            .filter(|((p, _), _)| usize::from(*p) == position)
            .map(|((_, v), t)| (v.clone(), t.documents, t.all, t.any))
            .collect();
        // a string in every document, but for at most 1 in 50 (missing, null, a number: the
        // anomalies of the tag, which no variant reads)
        let tagged: u64 = values.iter().map(|v| v.1).sum();
        if values.len() < 2 || tagged * 50 < object.count * 49 {
            continue;
        }
        let mut shaped = 0u64;
        for other in (0..tracked).filter(|p| *p != position && universal & (1 << p) == 0) {
            let bit = 1u64 << other;
            let required_somewhere = values.iter().any(|v| v.2 & bit != 0);
            let absent_somewhere = values.iter().any(|v| v.3 & bit == 0);
            if required_somewhere && absent_somewhere {
                shaped |= bit;
            }
        }
        if values.iter().filter(|v| v.3 & shaped != 0).count() < 2 {
            continue;
        }
        found.push(Tag { position, values, shaped, universal, untagged: object.count - tagged });
    }
    // stable: the first seen among those explaining as many keys
    found.sort_by_key(|t| std::cmp::Reverse(t.shaped.count_ones()));
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use mongo_schema_core::bson::doc;

    #[test]
    fn the_deployment_names_index_keys_and_validator_fields() {
        let indexes = [
            doc! { "key": { "_id": 1 }, "name": "_id_" },
            doc! { "key": { "createTime": 1 }, "name": "createTime_1", "expireAfterSeconds": 60 },
        ];
        let validator = doc! {
            "$jsonSchema": { "properties": { "a": { "properties": { "b": {} } } }, "required": ["c"] },
            "$or": [{ "d.e": { "$exists": true } }],
        };
        let named = deployed_names(&indexes, Some(&validator));
        let paths: Vec<&str> = named.keys().map(String::as_str).collect();
        assert_eq!(paths, ["a", "a.b", "c", "createTime", "d.e"]);
        assert_eq!(named["createTime"], ["the index `createTime_1`"]);
        assert_eq!(named["a.b"], ["the validator"]);
    }

    #[test]
    fn cases_count_keys_of_one_case_only() {
        let cases = Cases::of_keys(["eventType", "customer_id", "status", "_id", "createTime"]);
        assert_eq!(cases, Cases { camel: 2, snake: 1 });
        assert_eq!(cases.case(), Some(FieldCase::Camel));
        assert_eq!(Cases::of_keys(["status", "email"]).case(), None);
    }
}
