//! The update tree applied to a document, level by level, as mongod's `UpdateObjectNode` and
//! `UpdateArrayNode` apply it; replacement documents; the fields an upsert starts from.

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};

use mongo_schema_contract::codes::{
    BAD_VALUE, DOLLAR_PREFIXED_FIELD_NAME, FAILED_TO_PARSE, IMMUTABLE_FIELD, INVALID_ID_FIELD, NOT_SINGLE_VALUE_FIELD,
    PATH_NOT_VIABLE,
};
use mongo_schema_core::bson::{oid::ObjectId, Bson, Document};

use super::format::{document, element};
use super::matcher;
use super::ops::{Apply, Leaf, Op};
use super::path::{identifiers, index};
use super::tree::{operators, Key, Node};
use super::UpdateError;

fn bad(message: impl Into<String>) -> UpdateError {
    UpdateError::refused(BAD_VALUE, message)
}

/// The updated copy of `current`.
pub(crate) fn run(current: &Document, tree: &Node, ctx: &mut Apply) -> Result<Document, UpdateError> {
    let mut doc = current.clone();
    let Node::Object { children, .. } = tree else { return Ok(doc) };
    for (key, child) in children {
        // mongod reads a `$rename` source when it reaches the destination: after the fields
        // before it were updated (at this level; deeper, in the order of the whole tree).
        let mut sources = Vec::new();
        collect_renames(child, &doc, current, ctx, &mut sources)?;
        let one = vec![(key.clone(), Cow::Borrowed(child))];
        apply_ordered(&mut Container::Doc(&mut doc), "", one, "", ctx, None)?;
        for source in sources {
            remove_path(&mut doc, &source);
            ctx.modified.set(true);
        }
    }
    Ok(doc)
}

/// Finds each `$rename` source in `current` (or why mongod refuses it).
fn collect_renames(
    node: &Node,
    current: &Document,
    original: &Document,
    ctx: &mut Apply,
    sources: &mut Vec<String>,
) -> Result<(), UpdateError> {
    match node {
        Node::Leaf(Leaf { op: Op::Rename { from }, path }) => {
            // An error finding the source is mongod's only when it reaches the destination.
            let found = lookup_for_rename(current, original, from, &ctx.id_element());
            if matches!(found, Ok(Some(_))) && (from == "_id" || from.starts_with("_id.")) {
                ctx.id_renamed.push(path.clone());
            }
            if matches!(found, Ok(Some(_))) {
                sources.push(from.clone());
            }
            if !matches!(found, Ok(None)) {
                ctx.renamed.insert(path.clone(), found.map(Option::unwrap_or_default));
            }
        }
        Node::Leaf(_) => {}
        Node::Object { children, positional } => {
            for child in children.values().chain(positional.as_deref()) {
                collect_renames(child, current, original, ctx, sources)?;
            }
        }
        Node::Array { children } => {
            for child in children.values() {
                collect_renames(child, current, original, ctx, sources)?;
            }
        }
    }
    Ok(())
}

/// The value `$rename` moves, found as mongod's `findLongestPrefix` finds it: a path through
/// a scalar, or through an array by a name that is not an index, is refused (28); one that
/// reaches its end through an array is refused as a source under an array (2).
fn lookup_for_rename(
    current: &Document,
    original: &Document,
    from: &str,
    id: &str,
) -> Result<Option<Bson>, UpdateError> {
    let parts: Vec<&str> = from.split('.').collect();
    let Some(mut value) = current.get(parts[0]) else { return Ok(None) };
    // The part that reached `value`, the name mongod shows for it, and the same place in the
    // document before the update (mongod shows an element this update created by no name).
    let (mut part_name, mut shown) = (parts[0], parts[0]);
    let mut before = original.get(parts[0]);
    let mut through_array = None;
    for part in &parts[1..] {
        let next = match value {
            Bson::Document(d) => d.get(*part),
            Bson::Array(items) => {
                through_array.get_or_insert(shown);
                match index(part) {
                    Some(i) => items.get(i),
                    None => return Err(cannot_traverse(part_name, from, shown, value)),
                }
            }
            scalar => return Err(cannot_traverse(part_name, from, shown, scalar)),
        };
        let Some(next) = next else { return Ok(None) };
        before = match before {
            Some(Bson::Document(d)) => d.get(*part),
            Some(Bson::Array(items)) => index(part).and_then(|i| items.get(i)),
            _ => None,
        };
        shown = if matches!(value, Bson::Array(_)) && before.is_none() { "" } else { part };
        (value, part_name) = (next, part);
    }
    if let Some(array_name) = through_array {
        return Err(bad(format!(
            "The source field cannot be an array element, '{from}' in doc with {id} has an array field called '{array_name}'"
        )));
    }
    Ok(Some(value.clone()))
}

fn cannot_traverse(part: &str, path: &str, shown: &str, value: &Bson) -> UpdateError {
    UpdateError::refused(
        PATH_NOT_VIABLE,
        format!("cannot use the part ({part} of {path}) to traverse the element ({{{}}})", element(shown, value)),
    )
}

fn remove_path(doc: &mut Document, path: &str) {
    match path.split_once('.') {
        None => {
            doc.remove(path);
        }
        Some((first, rest)) => {
            if let Some(Bson::Document(d)) = doc.get_mut(first) {
                remove_path(d, rest);
            }
        }
    }
}

/// A document or an array whose children an object node updates.
enum Container<'a> {
    Doc(&'a mut Document),
    Arr(&'a mut Vec<Bson>),
}

fn join(prefix: &str, key: &str) -> String {
    if prefix.is_empty() {
        key.to_owned()
    } else {
        format!("{prefix}.{key}")
    }
}

/// Applies an object node's children (with the positional child under the name of the
/// matched position) to `container`, the value named `name` at `prefix`.
fn apply_children(
    container: &mut Container<'_>,
    name: &str,
    children: &BTreeMap<Key, Node>,
    positional: Option<&Node>,
    prefix: &str,
    ctx: &Apply,
    in_array: Option<&str>,
) -> Result<(), UpdateError> {
    let mut ordered: Vec<(Key, Cow<'_, Node>)> = children.iter().map(|(k, n)| (k.clone(), Cow::Borrowed(n))).collect();
    if let Some(node) = positional {
        let key = Key(positional_match(ctx)?.to_string());
        match ordered.iter_mut().find(|(k, _)| *k == key) {
            // The position is also named outright: mongod merges the two, and refuses
            // where both update one path.
            Some((_, named)) => *named = Cow::Owned(super::tree::merge(named, node, &join(prefix, &key.0))?),
            None => {
                ordered.push((key, Cow::Borrowed(node)));
                ordered.sort_by(|a, b| a.0.cmp(&b.0));
            }
        }
    }
    apply_ordered(container, name, ordered, prefix, ctx, in_array)
}

/// Applies `ordered` (children in mongod's order) to `container`.
fn apply_ordered(
    container: &mut Container<'_>,
    name: &str,
    ordered: Vec<(Key, Cow<'_, Node>)>,
    prefix: &str,
    ctx: &Apply,
    in_array: Option<&str>,
) -> Result<(), UpdateError> {
    for (key, node) in ordered {
        let node: &Node = &node;
        let path = join(prefix, &key.0);
        if path == "_id" {
            if let Container::Doc(d) = container {
                apply_to_id(d, node, ctx)?;
                continue;
            }
        }
        match container {
            Container::Doc(d) => match d.get_mut(&key.0) {
                Some(value) => {
                    if apply_existing(value, node, &key.0, &path, ctx, in_array)? {
                        d.remove(&key.0);
                        ctx.modified.set(true);
                    }
                }
                None => {
                    if let Some(value) = create(node, &path, ctx, in_array)? {
                        d.insert(key.0.clone(), value);
                        ctx.modified.set(true);
                    }
                }
            },
            Container::Arr(items) => apply_element(items, &key.0, node, name, &path, ctx, in_array.or(Some(name)))?,
        }
    }
    Ok(())
}

/// Applies `node` to the element `key` of the array `name` (creating it past the end,
/// padding with nulls); a key that is not an index is a path mongod cannot follow.
fn apply_element(
    items: &mut Vec<Bson>,
    key: &str,
    node: &Node,
    name: &str,
    path: &str,
    ctx: &Apply,
    in_array: Option<&str>,
) -> Result<(), UpdateError> {
    let Some(i) = index(key) else {
        if !creates(node, ctx) {
            return Ok(());
        }
        rename_error(node, ctx)?;
        if let Node::Leaf(leaf) = node {
            rename_target_check(leaf, ctx, in_array)?;
        }
        return Err(not_viable(node, key, path, name, &Bson::Array(items.clone())));
    };
    if i < items.len() {
        if apply_existing(&mut items[i], node, key, path, ctx, in_array)? {
            // `$unset` of an element nulls it, a change even when it was null.
            items[i] = Bson::Null;
            ctx.modified.set(true);
        }
    } else if let Some(value) = create(node, path, ctx, in_array)? {
        items.resize(i, Bson::Null);
        items.push(value);
        ctx.modified.set(true);
    }
    Ok(())
}

/// Applies `node` to `_id`, which no update may change (mongod checks it as soon as the
/// operator on `_id` has run, before the operators on later paths).
fn apply_to_id(doc: &mut Document, node: &Node, ctx: &Apply) -> Result<(), UpdateError> {
    let before = doc.get("_id").cloned();
    match doc.get_mut("_id") {
        Some(value) => {
            if apply_existing(value, node, "_id", "_id", ctx, None)? {
                doc.remove("_id");
            }
        }
        None => {
            if let Some(value) = create(node, "_id", ctx, None)? {
                doc.insert("_id", value);
                ctx.modified.set(true);
            }
        }
    }
    let unchanged = match (&before, doc.get("_id")) {
        (Some(a), Some(b)) => super::order::identical(a, b),
        (None, _) => true,
        (Some(_), None) => false,
    };
    if !unchanged {
        return Err(UpdateError::immutable_id());
    }
    Ok(())
}

/// The position `$` stands for; mongod refuses an update that uses `$` where the filter
/// matched no array element, whatever the rest of the path holds.
fn positional_match(ctx: &Apply) -> Result<usize, UpdateError> {
    ctx.matched.ok_or_else(|| bad("The positional operator did not find the match needed from the query."))
}

/// mongod's error for a path through a value that is neither a document nor (by index) an
/// array: worded by the operators that look the path up (`$pop`, `$pull`, `$pullAll`) as
/// "Cannot use the part", by the others as "Cannot create field".
fn not_viable(node: &Node, field: &str, path: &str, name: &str, value: &Bson) -> UpdateError {
    let leaf = first_leaf(node);
    let message = match leaf.map(|l| &l.op) {
        Some(Op::Pop { .. } | Op::Pull(_) | Op::PullAll(_)) => format!(
            "Cannot use the part ({field}) of ({}) to traverse the element ({{{}}})",
            if matches!(node, Node::Leaf(_)) { path } else { leaf.map_or(path, |l| l.path.as_str()) },
            element(name, value)
        ),
        _ => format!("Cannot create field '{field}' in element {{{}}}", element(name, value)),
    };
    UpdateError::refused(PATH_NOT_VIABLE, message)
}

/// A `$rename` whose source mongod refuses reports that before its destination's path.
fn rename_error(node: &Node, ctx: &Apply) -> Result<(), UpdateError> {
    match first_leaf(node).and_then(|leaf| ctx.renamed.get(&leaf.path).filter(|_| matches!(leaf.op, Op::Rename { .. })))
    {
        Some(Err(e)) => Err(e.clone()),
        _ => Ok(()),
    }
}

fn first_leaf(node: &Node) -> Option<&Leaf> {
    match node {
        Node::Leaf(leaf) => Some(leaf),
        Node::Object { children, positional } => children.values().chain(positional.as_deref()).find_map(first_leaf),
        Node::Array { children } => children.values().find_map(first_leaf),
    }
}

/// Applies `node` to the existing `value`; `Ok(true)` when the value is to be removed.
fn apply_existing(
    value: &mut Bson,
    node: &Node,
    name: &str,
    path: &str,
    ctx: &Apply,
    in_array: Option<&str>,
) -> Result<bool, UpdateError> {
    match node {
        Node::Leaf(leaf) => {
            rename_target_check(leaf, ctx, in_array)?;
            *ctx.at.borrow_mut() = (name.to_owned(), path.to_owned());
            leaf.apply(value, ctx)
        }
        Node::Object { children, positional } => {
            if positional.is_some() {
                positional_match(ctx)?;
            }
            match value {
                Bson::Document(d) => {
                    apply_children(&mut Container::Doc(d), name, children, positional.as_deref(), path, ctx, in_array)?
                }
                Bson::Array(items) => apply_children(
                    &mut Container::Arr(items),
                    name,
                    children,
                    positional.as_deref(),
                    path,
                    ctx,
                    in_array.or(Some(name)),
                )?,
                scalar => {
                    let first = children.iter().find(|(_, child)| creates(child, ctx)).map(|(k, c)| (k.0.as_str(), c));
                    let first = first.or(positional.as_deref().filter(|p| creates(p, ctx)).map(|p| ("$", p)));
                    if let Some((field, child)) = first {
                        rename_error(child, ctx)?;
                        return Err(not_viable(child, field, &join(path, field), name, scalar));
                    }
                }
            }
            Ok(false)
        }
        Node::Array { children } => {
            let Bson::Array(items) = value else {
                return Err(bad(format!("Cannot apply array updates to non-array element {}", element(name, value))));
            };
            apply_each(items, children, path, ctx)?;
            Ok(false)
        }
    }
}

/// `$[]` and `$[<id>]`: each child on every element its filter matches (decided on the
/// elements before any is updated).
fn apply_each(
    items: &mut [Bson],
    children: &BTreeMap<String, Node>,
    path: &str,
    ctx: &Apply,
) -> Result<(), UpdateError> {
    let mut chosen: Vec<Vec<&Node>> = Vec::new();
    for item in items.iter() {
        let mut matching = Vec::new();
        for (id, child) in children {
            if id.is_empty() || filter_matches(id, item, ctx)? {
                matching.push(child);
            }
        }
        chosen.push(matching);
    }
    for (i, matching) in chosen.into_iter().enumerate() {
        let name = i.to_string();
        let at = join(path, &name);
        let merged;
        let child = match matching.as_slice() {
            [] => continue,
            [one] => *one,
            [first, rest @ ..] => {
                let mut acc = (*first).clone();
                for next in rest {
                    acc = super::tree::merge(&acc, next, &at)?;
                }
                merged = acc;
                &merged
            }
        };
        if apply_existing(&mut items[i], child, &name, &at, ctx, Some(path))? {
            items[i] = Bson::Null;
            ctx.modified.set(true);
        }
    }
    Ok(())
}

fn filter_matches(id: &str, item: &Bson, ctx: &Apply) -> Result<bool, UpdateError> {
    let Some(filter) = ctx.filters.get(id) else { return Ok(false) };
    let mut wrapped = Document::new();
    wrapped.insert(id, item.clone());
    Ok(matcher::matches(&wrapped, filter)?.0)
}

/// `$rename` into an array element is refused (once there is something to move); `in_array`
/// names the first array on the destination's path.
fn rename_target_check(leaf: &Leaf, ctx: &Apply, in_array: Option<&str>) -> Result<(), UpdateError> {
    let Some(array) = in_array else { return Ok(()) };
    if matches!(leaf.op, Op::Rename { .. }) && matches!(ctx.renamed.get(&leaf.path), Some(Ok(_))) {
        return Err(bad(format!(
            "The destination field cannot be an array element, '{}' in doc with {} has an array field called '{array}'",
            leaf.path,
            ctx.id_element()
        )));
    }
    Ok(())
}

/// The value `node` creates where nothing is; `None` when it creates nothing.
fn create(node: &Node, path: &str, ctx: &Apply, in_array: Option<&str>) -> Result<Option<Bson>, UpdateError> {
    match node {
        Node::Leaf(leaf) => {
            rename_target_check(leaf, ctx, in_array)?;
            leaf.create(ctx)
        }
        Node::Object { children, positional } => {
            let mut d = Document::new();
            let name = path.rsplit('.').next().unwrap_or(path);
            apply_children(&mut Container::Doc(&mut d), name, children, positional.as_deref(), path, ctx, in_array)?;
            Ok(if d.is_empty() { None } else { Some(Bson::Document(d)) })
        }
        Node::Array { .. } => {
            Err(bad(format!("The path '{path}' must exist in the document in order to apply array updates.")))
        }
    }
}

/// Whether a path that cannot be reached (through a scalar, or an array by a name that is not
/// an index) is an error for `node`: for every operator but `$unset`, a `$setOnInsert` that
/// does not insert and a `$rename` with nothing to move.
fn creates(node: &Node, ctx: &Apply) -> bool {
    match node {
        Node::Leaf(leaf) => match &leaf.op {
            Op::Unset => false,
            Op::SetOnInsert(_) => ctx.inserting,
            Op::Rename { .. } => ctx.renamed.contains_key(&leaf.path),
            Op::Placeholder => false,
            _ => true,
        },
        Node::Object { children, positional } => {
            children.values().any(|c| creates(c, ctx)) || positional.as_deref().is_some_and(|p| creates(p, ctx))
        }
        Node::Array { .. } => true,
    }
}

/// A replacement document: its fields, with `_id` first (the current one when it has none).
pub(crate) fn replace(current: &Document, replacement: &Document) -> Result<Document, UpdateError> {
    if let Some(name) = replacement.keys().find(|k| k.starts_with('$')) {
        return Err(dollar_field(name));
    }
    let mut doc = Document::new();
    if let Some(id) = replacement.get("_id").or_else(|| current.get("_id")) {
        doc.insert("_id", id.clone());
    }
    for (k, v) in replacement {
        if k != "_id" {
            doc.insert(k.clone(), v.clone());
        }
    }
    Ok(doc)
}

fn dollar_field(name: &str) -> UpdateError {
    UpdateError::refused(DOLLAR_PREFIXED_FIELD_NAME, format!(
            "The dollar ($) prefixed field '{name}' in '{name}' is not allowed in the context of an update's replacement document. Consider using an aggregation pipeline with $replaceWith."
        ),
    )
}

/// The checks mongod makes on every updated document: `_id` unchanged (an update) or first
/// (an insert), no top-level `$` names.
pub(crate) fn finish(current: &Document, doc: &mut Document, inserting: bool) -> Result<(), UpdateError> {
    // An upsert's `_id` from the filter is as immutable as a stored document's.
    let same = match (current.get("_id"), doc.get("_id")) {
        (Some(a), Some(b)) => super::order::identical(a, b),
        (None, _) => inserting,
        (Some(_), None) => false,
    };
    if !same {
        return Err(UpdateError::refused(
            IMMUTABLE_FIELD,
            "Performing an update on the path '_id' would modify the immutable field '_id'",
        ));
    }
    if inserting {
        let id = doc.remove("_id").unwrap_or_else(|| Bson::ObjectId(ObjectId::new()));
        let mut first = Document::new();
        first.insert("_id", id);
        first.extend(std::mem::take(doc));
        *doc = first;
    }
    if let Some(name) = doc.keys().find(|k| k.starts_with('$')) {
        return Err(dollar_field(name));
    }
    if let Some(id @ (Bson::Array(_) | Bson::RegularExpression(_) | Bson::Undefined)) = doc.get("_id") {
        return Err(UpdateError::refused(
            INVALID_ID_FIELD,
            format!("The '_id' value cannot be of type {}", super::format::type_name(id)),
        ));
    }
    Ok(())
}

/// The `arrayFilters`, by identifier, checked as mongod checks them before the update.
pub(crate) fn array_filters(filters: &[Document]) -> Result<HashMap<String, Document>, UpdateError> {
    let mut out = HashMap::new();
    for filter in filters {
        let mut id: Option<&str> = None;
        for key in filter.keys() {
            let top = key.split('.').next().unwrap_or(key);
            if top.starts_with('$') {
                return Err(UpdateError::Unsupported(format!("an array filter with {top}")));
            }
            match id {
                Some(seen) if seen != top => {
                    return Err(UpdateError::refused(FAILED_TO_PARSE, format!("Error parsing array filter :: caused by :: Expected a single top-level field name, found '{seen}' and '{top}'"),
                    ))
                }
                _ => id = Some(top),
            }
        }
        let Some(id) = id else {
            return Err(UpdateError::refused(
                FAILED_TO_PARSE,
                "Cannot use an expression without a top-level field name in arrayFilters",
            ));
        };
        matcher::check_query(filter)?;
        let valid = id.starts_with(|c: char| c.is_ascii_lowercase()) && id.chars().all(|c| c.is_ascii_alphanumeric());
        if !valid {
            return Err(bad(format!(
                "Error parsing array filter :: caused by :: The top-level field name must be an alphanumeric string beginning with a lowercase letter, found '{id}'"
            )));
        }
        if out.insert(id.to_owned(), filter.clone()).is_some() {
            return Err(UpdateError::refused(
                FAILED_TO_PARSE,
                format!("Found multiple array filters with the same top-level field name {id}"),
            ));
        }
    }
    Ok(out)
}

/// Every array filter must be used by the update (mongod refuses one that is not).
pub(crate) fn all_filters_used(filters: &HashMap<String, Document>, update: &Document) -> Result<(), UpdateError> {
    let out = filters;
    let mut used = Vec::new();
    for (operator, fields) in operators(update)? {
        for (path, _) in fields {
            if operator != "$rename" {
                used.extend(identifiers(path).into_iter().map(str::to_owned));
            }
        }
    }
    for id in out.keys() {
        if !used.contains(id) {
            return Err(UpdateError::refused(
                FAILED_TO_PARSE,
                format!("The array filter for identifier '{id}' was not used in the update {}", document(update)),
            ));
        }
    }
    Ok(())
}

/// The document an upsert starts from: the filter's equality conditions (`{a: 1}`,
/// `{a: {$eq: 1}}`, inside `$and`), dotted paths as embedded documents.
pub(crate) fn upsert_base(filter: &Document) -> Result<Document, UpdateError> {
    let mut equalities = Vec::new();
    equalities_of(filter, &mut equalities);
    // mongod adds them in path order, not the filter's.
    let parts = |path: &str| path.split('.').map(|p| Key(p.to_owned())).collect::<Vec<_>>();
    equalities.sort_by_key(|a| parts(a.0));
    let mut doc = Document::new();
    let mut paths: Vec<&str> = Vec::new();
    for (path, value) in &equalities {
        for seen in &paths {
            let nested = |a: &str, b: &str| b.strip_prefix(a).is_some_and(|r| r.starts_with('.'));
            if seen == path {
                return Err(UpdateError::refused(
                    NOT_SINGLE_VALUE_FIELD,
                    format!("cannot infer query fields to set, path '{path}' is matched twice"),
                ));
            }
            if nested(seen, path) || nested(path, seen) {
                return Err(UpdateError::refused(
                    NOT_SINGLE_VALUE_FIELD,
                    format!("cannot infer query fields to set, both paths '{seen}' and '{path}' are matched"),
                ));
            }
        }
        paths.push(path);
        set_path(&mut doc, path, (*value).clone());
    }
    Ok(doc)
}

fn equalities_of<'a>(filter: &'a Document, out: &mut Vec<(&'a str, &'a Bson)>) {
    for (key, condition) in filter {
        if key == "$and" {
            if let Bson::Array(clauses) = condition {
                for clause in clauses.iter().filter_map(Bson::as_document) {
                    equalities_of(clause, out);
                }
            }
            continue;
        }
        if key.starts_with('$') {
            continue;
        }
        match condition {
            Bson::Document(ops) if ops.keys().next().is_some_and(|k| k.starts_with('$')) => {
                if let Some(value) = ops.get("$eq") {
                    out.push((key, value));
                }
            }
            Bson::RegularExpression(_) => {}
            value => out.push((key, value)),
        }
    }
}

fn set_path(doc: &mut Document, path: &str, value: Bson) {
    match path.split_once('.') {
        None => {
            doc.insert(path, value);
        }
        Some((first, rest)) => {
            if !matches!(doc.get(first), Some(Bson::Document(_))) {
                doc.insert(first, Document::new());
            }
            if let Some(Bson::Document(d)) = doc.get_mut(first) {
                set_path(d, rest, value);
            }
        }
    }
}
