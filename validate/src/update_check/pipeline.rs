//! Pipeline updates (`u: [stages]`) as mongod 6.0 applies them: `$set`/`$addFields`,
//! `$unset`, `$project`, `$replaceRoot`/`$replaceWith`, each stage evaluating its expressions
//! against the document it receives; the result replaces the document (its `_id` kept).

use mongo_schema_contract::codes::{IMMUTABLE_FIELD, INVALID_ID_FIELD, INVALID_OPTIONS};
use mongo_schema_contract::location_code;
use mongo_schema_core::bson::{oid::ObjectId, Bson, Document};

use super::expr::{self, Env, Expr};
use super::format::{document_string, element, type_name, value_string};
use super::order;
use super::UpdateError;

/// A field a stage removed: mongod's `Document` keeps its slot, so a later stage that sets it
/// again puts it back in its old place. Never seen by expressions nor stored.
fn tombstone() -> Bson {
    Bson::Symbol("\u{0}mongo-schema:missing".to_owned())
}

fn is_tombstone(v: &Bson) -> bool {
    matches!(v, Bson::Symbol(s) if s == "\u{0}mongo-schema:missing")
}

/// `doc` without its tombstones, at every depth.
fn strip(doc: &Document) -> Document {
    doc.iter().filter(|(_, v)| !is_tombstone(v)).map(|(k, v)| (k.clone(), strip_value(v))).collect()
}

fn strip_value(v: &Bson) -> Bson {
    match v {
        Bson::Document(d) => Bson::Document(strip(d)),
        Bson::Array(items) => Bson::Array(items.iter().map(strip_value).collect()),
        other => other.clone(),
    }
}

fn unsupported(what: impl Into<String>) -> UpdateError {
    UpdateError::Unsupported(what.into())
}

/// A `$set` spec: fields in the order they are applied.
#[derive(Debug, Default)]
struct Node {
    order: Vec<(String, Child)>,
}

#[derive(Debug)]
enum Child {
    Expr(Expr),
    Node(Node),
}

/// Paths to remove (`$unset`, exclusion `$project`): `None` removes the field.
#[derive(Debug, Default)]
struct Exclude {
    fields: Vec<(String, Option<Exclude>)>,
}

#[derive(Debug)]
enum Stage {
    Set(Node),
    Exclude(Exclude),
    Include { id: bool, fields: Vec<String>, computed: Vec<(String, Expr)> },
    Replace { expr: Expr, what: &'static str },
}

/// A parsed pipeline.
#[derive(Debug)]
pub(crate) struct Pipeline {
    stages: Vec<Stage>,
}

fn caused_by(stage: &str, e: UpdateError) -> UpdateError {
    match e {
        UpdateError::Refused { code, code_name, message } => {
            UpdateError::Refused { code, code_name, message: format!("Invalid {stage} :: caused by :: {message}") }
        }
        other => other,
    }
}

impl Pipeline {
    /// Parses every stage, as mongod does before it looks at a document.
    pub(crate) fn parse(stages: &[Document]) -> Result<Pipeline, UpdateError> {
        if stages.iter().any(|s| s.len() != 1) {
            return Err(UpdateError::refused(
                location_code!(40323),
                "A pipeline stage specification object must contain exactly one field.",
            ));
        }
        let mut out = Vec::new();
        // mongod refuses a stage an update may not use once the whole pipeline is parsed.
        let mut refused_stage = None;
        for stage in stages {
            let (name, spec) = stage.iter().next().expect("one field");
            out.push(match name.as_str() {
                "$set" | "$addFields" => {
                    let Bson::Document(d) = spec else {
                        return Err(UpdateError::refused(
                            location_code!(40272),
                            format!("{name} specification stage must be an object, got {}", type_name(spec)),
                        ));
                    };
                    let mut node = Node::default();
                    for (k, v) in d {
                        add_field(&mut node, k, k, v).map_err(|e| caused_by(name, e))?;
                    }
                    Stage::Set(node)
                }
                "$unset" => {
                    let paths = match spec {
                        Bson::String(s) => vec![s.clone()],
                        Bson::Array(items) if !items.is_empty() => items
                            .iter()
                            .map(|i| i.as_str().map(str::to_owned))
                            .collect::<Option<Vec<_>>>()
                            .ok_or_else(|| unsupported("$unset with a non-string"))?,
                        Bson::Array(_) => return Err(unsupported("$unset of an empty array")),
                        _ => {
                            return Err(UpdateError::refused(
                                location_code!(31002),
                                "$unset specification must be a string or an array",
                            ))
                        }
                    };
                    let mut exclude = Exclude::default();
                    for p in &paths {
                        exclude.add(p)?;
                    }
                    Stage::Exclude(exclude)
                }
                "$project" => project(spec)?,
                "$replaceWith" => Stage::Replace { expr: expr::parse(spec, &[])?, what: "'replacement document' " },
                "$replaceRoot" => {
                    let Bson::Document(d) = spec else { return Err(unsupported("$replaceRoot of a non-object")) };
                    if let Some(k) = d.keys().find(|k| *k != "newRoot") {
                        return Err(UpdateError::refused(
                            location_code!(40415),
                            format!("BSON field '$replaceRoot.{k}' is an unknown field."),
                        ));
                    }
                    let Some(root) = d.get("newRoot") else { return Err(unsupported("$replaceRoot without newRoot")) };
                    Stage::Replace { expr: expr::parse(root, &[])?, what: "'newRoot' expression " }
                }
                "$match" if matches!(spec, Bson::Document(d) if d.keys().all(|k| !k.starts_with('$'))) => {
                    refused_stage.get_or_insert("$match");
                    continue;
                }
                other => return Err(unsupported(format!("the stage {other}"))),
            });
        }
        if let Some(name) = refused_stage {
            return Err(UpdateError::refused(
                INVALID_OPTIONS,
                format!("{name} is not allowed to be used within an update"),
            ));
        }
        Ok(Pipeline { stages: out })
    }

    /// The pipeline's output for `current` (before the update restores `_id`).
    pub(crate) fn run(&self, current: &Document, now: i64) -> Result<Document, UpdateError> {
        let mut doc = current.clone();
        for stage in &self.stages {
            let clean = strip(&doc);
            let env = Env { root: Bson::Document(clean.clone()), now, vars: Vec::new() };
            doc = match stage {
                Stage::Set(node) => {
                    let mut out = doc.clone();
                    apply_node(node, &env, &mut out)?;
                    out
                }
                Stage::Exclude(ex) => {
                    let mut out = doc.clone();
                    ex.apply(&mut out);
                    out
                }
                Stage::Include { id, fields, computed } => {
                    let mut out = Document::new();
                    for (k, v) in &clean {
                        if (k == "_id" && *id) || fields.contains(k) {
                            out.insert(k.clone(), v.clone());
                        }
                    }
                    for (k, e) in computed {
                        if let Some(v) = e.eval(&env)? {
                            out.insert(k.clone(), v);
                        }
                    }
                    out
                }
                Stage::Replace { expr, what } => match expr.eval(&env)? {
                    Some(Bson::Document(d)) => d,
                    other => {
                        return Err(UpdateError::refused(location_code!(40228), format!(
                                "{what} must evaluate to an object, but resulting value was: {}. Type of resulting value: '{}'. Input document: {}",
                                value_string(&other),
                                other.as_ref().map_or("missing", type_name),
                                document_string(&clean)
                            ),
                        ))
                    }
                },
            };
        }
        Ok(strip(&doc))
    }
}

fn add_field(node: &mut Node, key: &str, full: &str, value: &Bson) -> Result<(), UpdateError> {
    if key.starts_with('$') {
        return Err(UpdateError::refused(
            location_code!(16410),
            "FieldPath field names may not start with '$'. Consider using $getField or $setField.",
        ));
    }
    let parts: Vec<&str> = key.split('.').collect();
    if parts.iter().any(|p| p.is_empty() || p.starts_with('$')) {
        return Err(unsupported(format!("the $set path {full}")));
    }
    let mut at = node;
    for part in &parts[..parts.len() - 1] {
        let i = match at.order.iter().position(|(k, _)| k == part) {
            Some(i) => i,
            None => {
                at.order.push(((*part).to_owned(), Child::Node(Node::default())));
                at.order.len() - 1
            }
        };
        match &mut at.order[i].1 {
            Child::Node(n) => at = n,
            Child::Expr(_) => return Err(unsupported("conflicting $set paths")),
        }
    }
    let last = parts[parts.len() - 1];
    if at.order.iter().any(|(k, _)| k == last) {
        // A field set twice (`a.b` and `a: {b: ...}`) or a conflict: mongod's wording varies.
        return Err(unsupported("conflicting $set paths"));
    }
    let child = match value {
        Bson::Document(d) if d.is_empty() => {
            return Err(UpdateError::refused(
                location_code!(40180),
                format!("an empty object is not a valid value. Found empty object at path {full}"),
            ))
        }
        Bson::Document(d) if !d.keys().next().is_some_and(|k| k.starts_with('$')) => {
            let mut inner = Node::default();
            for (k, v) in d {
                if k.contains('.') || k.starts_with('$') {
                    return Err(unsupported("a nested $set field with a dot or a $"));
                }
                add_field(&mut inner, k, &format!("{full}.{k}"), v)?;
            }
            Child::Node(inner)
        }
        other => Child::Expr(expr::parse(other, &[])?),
    };
    at.order.push((last.to_owned(), child));
    Ok(())
}

fn apply_node(node: &Node, env: &Env, doc: &mut Document) -> Result<(), UpdateError> {
    for (name, child) in &node.order {
        match child {
            Child::Expr(e) => match e.eval(env)? {
                Some(v) => {
                    doc.insert(name.clone(), v);
                }
                None => {
                    doc.insert(name.clone(), tombstone());
                }
            },
            Child::Node(n) => {
                let v = apply_value(n, env, doc.get(name).filter(|v| !is_tombstone(v)).cloned())?;
                doc.insert(name.clone(), v);
            }
        }
    }
    Ok(())
}

fn apply_value(node: &Node, env: &Env, value: Option<Bson>) -> Result<Bson, UpdateError> {
    Ok(match value {
        Some(Bson::Document(mut d)) => {
            apply_node(node, env, &mut d)?;
            Bson::Document(d)
        }
        Some(Bson::Array(items)) => {
            Bson::Array(items.into_iter().map(|i| apply_value(node, env, Some(i))).collect::<Result<_, _>>()?)
        }
        _ => {
            let mut d = Document::new();
            apply_node(node, env, &mut d)?;
            Bson::Document(d)
        }
    })
}

impl Exclude {
    fn add(&mut self, path: &str) -> Result<(), UpdateError> {
        let parts: Vec<&str> = path.split('.').collect();
        if parts.iter().any(|p| p.is_empty() || p.starts_with('$')) {
            return Err(unsupported(format!("the excluded path {path}")));
        }
        let mut at = self;
        for (i, part) in parts.iter().enumerate() {
            let last = i == parts.len() - 1;
            let found = at.fields.iter().position(|(k, _)| k == part);
            match (found, last) {
                (Some(_), true) => return Err(unsupported("conflicting excluded paths")),
                (None, true) => at.fields.push(((*part).to_owned(), None)),
                (Some(j), false) => match &mut at.fields[j].1 {
                    Some(_) => {}
                    None => return Err(unsupported("conflicting excluded paths")),
                },
                (None, false) => at.fields.push(((*part).to_owned(), Some(Exclude::default()))),
            }
            if !last {
                let j = at.fields.iter().position(|(k, _)| k == part).expect("added");
                at = at.fields[j].1.as_mut().expect("a node");
            }
        }
        Ok(())
    }

    fn apply(&self, doc: &mut Document) {
        for (name, sub) in &self.fields {
            match sub {
                None => {
                    if doc.contains_key(name) {
                        doc.insert(name.clone(), tombstone());
                    }
                }
                Some(sub) => {
                    if let Some(v) = doc.get_mut(name) {
                        sub.apply_value(v);
                    }
                }
            }
        }
    }

    fn apply_value(&self, value: &mut Bson) {
        match value {
            Bson::Document(d) => self.apply(d),
            Bson::Array(items) => items.iter_mut().for_each(|i| self.apply_value(i)),
            _ => {}
        }
    }
}

fn project(spec: &Bson) -> Result<Stage, UpdateError> {
    let Bson::Document(d) = spec else { return Err(unsupported("$project of a non-object")) };
    if d.is_empty() {
        return Err(unsupported("an empty $project"));
    }
    let flag = |v: &Bson| match v {
        Bson::Boolean(b) => Some(*b),
        Bson::Int32(i) => Some(*i != 0),
        Bson::Int64(i) => Some(*i != 0),
        Bson::Double(f) => Some(*f != 0.0),
        Bson::Decimal128(_) => Some(expr::truthy(&Some(v.clone()))),
        _ => None,
    };
    let mut id = true;
    let mut fields = Vec::new();
    let mut computed = Vec::new();
    let mut excluded = Vec::new();
    let mut inclusion = false;
    for (k, v) in d {
        if k.starts_with('$') || k.contains('.') || k.is_empty() {
            return Err(unsupported("a $project path with a dot or a $"));
        }
        match flag(v) {
            Some(false) if k == "_id" => id = false,
            Some(false) if inclusion => {
                return Err(UpdateError::refused(
                    location_code!(31254),
                    format!(
                        "Invalid $project :: caused by :: Cannot do exclusion on field {k} in inclusion projection"
                    ),
                ))
            }
            Some(false) => excluded.push(k.clone()),
            Some(true) | None if !excluded.is_empty() => {
                return Err(unsupported("an inclusion after an exclusion in $project"))
            }
            Some(true) => {
                inclusion |= k != "_id";
                if k != "_id" {
                    fields.push(k.clone());
                }
            }
            None => {
                if matches!(v, Bson::Document(sub) if !sub.keys().next().is_some_and(|s| s.starts_with('$'))) {
                    return Err(unsupported("a nested $project"));
                }
                if matches!(v, Bson::Array(_) | Bson::Null) {
                    return Err(unsupported("a $project value of this type"));
                }
                let e = expr::parse(v, &[]).map_err(|e| match e {
                    UpdateError::Refused { .. } => unsupported("a $project expression mongod refuses"),
                    other => other,
                })?;
                inclusion = true;
                if k == "_id" {
                    id = false;
                }
                computed.push((k.clone(), e));
            }
        }
    }
    if inclusion {
        return Ok(Stage::Include { id, fields, computed });
    }
    let mut exclude = Exclude::default();
    if !id {
        exclude.fields.push(("_id".to_owned(), None));
    }
    for k in excluded {
        exclude.fields.push((k, None));
    }
    if exclude.fields.is_empty() {
        // Only `_id: 1`: an inclusion of `_id` alone.
        return Ok(Stage::Include { id: true, fields: Vec::new(), computed: Vec::new() });
    }
    Ok(Stage::Exclude(exclude))
}

/// The document mongod stores from the pipeline's output: `_id` unchanged (restored when the
/// pipeline dropped it) and first; and whether this is a change (an insert always is).
pub(crate) fn finish(current: &Document, out: Document, inserting: bool) -> Result<(Document, bool), UpdateError> {
    let modified = inserting || !order::bytes_equal(&out, current);
    let id = match (current.get("_id"), out.get("_id")) {
        (Some(a), Some(b)) if !order::identical(a, b) => {
            return Err(UpdateError::refused(
                IMMUTABLE_FIELD,
                format!(
                    "After applying the update, the (immutable) field '_id' was found to have been altered to {}",
                    element("_id", b)
                ),
            ))
        }
        (Some(a), _) => Some(a.clone()),
        (None, Some(b)) => Some(b.clone()),
        (None, None) if inserting => Some(Bson::ObjectId(ObjectId::new())),
        (None, None) => None,
    };
    let mut doc = Document::new();
    if let Some(id) = id {
        doc.insert("_id", id);
    }
    for (k, v) in out {
        if k != "_id" {
            doc.insert(k, v);
        }
    }
    if doc.keys().any(|k| k.starts_with('$')) {
        return Err(unsupported("a top-level field name starting with $"));
    }
    if let Some(id @ (Bson::Array(_) | Bson::RegularExpression(_) | Bson::Undefined)) = doc.get("_id") {
        return Err(UpdateError::refused(
            INVALID_ID_FIELD,
            format!("The '_id' value cannot be of type {}", type_name(id)),
        ));
    }
    Ok((doc, modified))
}

#[cfg(test)]
mod tests {
    use super::*;
    use mongo_schema_core::bson::doc;

    fn run(current: Document, stages: Vec<Document>) -> Result<Document, UpdateError> {
        let p = Pipeline::parse(&stages)?;
        Ok(finish(&current, p.run(&current, 0)?, false)?.0)
    }

    #[test]
    fn set_merges_into_documents_and_arrays() {
        let out = run(doc! { "_id": 1, "a": [1, { "x": 5 }] }, vec![doc! { "$set": { "a.b": 1 } }]).unwrap();
        assert_eq!(out, doc! { "_id": 1, "a": [{ "b": 1 }, { "x": 5, "b": 1 }] });
        let out = run(doc! { "_id": 1, "a": { "x": 5 } }, vec![doc! { "$set": { "a": { "b": "$a.x" } } }]).unwrap();
        assert_eq!(out, doc! { "_id": 1, "a": { "x": 5, "b": 5 } });
    }

    #[test]
    fn id_is_restored_and_first() {
        let out = run(doc! { "_id": 1, "a": 1 }, vec![doc! { "$replaceWith": { "x": 1, "_id": 1 } }]).unwrap();
        assert_eq!(out, doc! { "_id": 1, "x": 1 });
        let err = run(doc! { "_id": 1 }, vec![doc! { "$replaceWith": { "_id": 2 } }]).unwrap_err();
        assert_eq!(err.server_code(), Some(IMMUTABLE_FIELD));
        let out =
            run(doc! { "_id": 1, "a": 1, "b": 2 }, vec![doc! { "$project": { "b": 1, "c": "$a", "a": 1 } }]).unwrap();
        assert_eq!(out, doc! { "_id": 1, "a": 1, "b": 2, "c": 1 });
    }
}
