//! An update document parsed as mongod parses it: every operator's paths merged into one
//! tree, whose children are applied in mongod's order (names byte by byte, names that are
//! numbers by value), with the conflicts mongod refuses (error 40) found while merging.

use std::cmp::Ordering;
use std::collections::btree_map::Entry;
use std::collections::{BTreeMap, HashMap};

use mongo_schema_contract::codes::{BAD_VALUE, CONFLICTING_UPDATE_OPERATORS, FAILED_TO_PARSE};
use mongo_schema_core::bson::{Bson, Document};

use super::ops::{Leaf, Op};
use super::path::{check_path, identifiers, index, part, Part};
use super::UpdateError;

/// A child name ordered as mongod's `cmpPathsAndArrayIndexes` orders it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Key(pub(crate) String);

impl Ord for Key {
    fn cmp(&self, other: &Self) -> Ordering {
        match (index(&self.0), index(&other.0)) {
            (Some(a), Some(b)) => a.cmp(&b),
            _ => self.0.as_bytes().cmp(other.0.as_bytes()),
        }
    }
}

impl PartialOrd for Key {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// One level of the update tree.
#[derive(Clone, Debug)]
pub(crate) enum Node {
    /// Named children, and the child `$` stands for.
    Object {
        children: BTreeMap<Key, Node>,
        positional: Option<Box<Node>>,
    },
    /// Children of `$[]` (identifier `""`) and `$[<id>]`, by identifier.
    Array {
        children: BTreeMap<String, Node>,
    },
    Leaf(Leaf),
}

/// Adds `leaf` at `path` under `root`; a path that is, or runs through or into, one already
/// there is mongod's error 40.
pub(crate) fn insert(root: &mut Node, path: &str, leaf: Leaf) -> Result<(), UpdateError> {
    let parts = check_path(path)?;
    let conflict = |i: usize| {
        UpdateError::refused(
            CONFLICTING_UPDATE_OPERATORS,
            format!("Updating the path '{path}' would create a conflict at '{}'", parts[..=i].join(".")),
        )
    };
    insert_at(root, &parts, 0, leaf, &conflict)
}

fn insert_at(
    node: &mut Node,
    parts: &[&str],
    i: usize,
    leaf: Leaf,
    conflict: &dyn Fn(usize) -> UpdateError,
) -> Result<(), UpdateError> {
    let last = i + 1 == parts.len();
    let child: &mut Node = match (node, part(parts[i])) {
        (Node::Object { positional, .. }, Part::Positional) => {
            if positional.is_some() && last {
                return Err(conflict(i));
            }
            if positional.is_none() {
                if last {
                    *positional = Some(Box::new(Node::Leaf(leaf)));
                    return Ok(());
                }
                *positional = Some(Box::new(fresh(parts[i + 1])));
            }
            positional.as_deref_mut().expect("filled above")
        }
        (Node::Object { children, .. }, Part::Field(name)) => match children.entry(Key(name.to_owned())) {
            Entry::Occupied(_) if last => return Err(conflict(i)),
            Entry::Occupied(entry) => entry.into_mut(),
            Entry::Vacant(entry) if last => {
                entry.insert(Node::Leaf(leaf));
                return Ok(());
            }
            Entry::Vacant(entry) => entry.insert(fresh(parts[i + 1])),
        },
        (Node::Array { children }, Part::Each(id)) => match children.entry(id.to_owned()) {
            Entry::Occupied(_) if last => return Err(conflict(i)),
            Entry::Occupied(entry) => entry.into_mut(),
            Entry::Vacant(entry) if last => {
                entry.insert(Node::Leaf(leaf));
                return Ok(());
            }
            Entry::Vacant(entry) => entry.insert(fresh(parts[i + 1])),
        },
        _ => return Err(conflict(i.saturating_sub(1))),
    };
    if matches!(child, Node::Leaf(_)) || !fits(child, parts[i + 1]) {
        return Err(conflict(i));
    }
    insert_at(child, parts, i + 1, leaf, conflict)
}

/// Two children of `$[]`/`$[<id>]` that both apply to one element, merged as mongod merges
/// them; where both update the same path, mongod's error 40 names it.
pub(crate) fn merge(a: &Node, b: &Node, path: &str) -> Result<Node, UpdateError> {
    let conflict =
        || UpdateError::refused(CONFLICTING_UPDATE_OPERATORS, format!("Update created a conflict at '{path}'"));
    match (a, b) {
        (Node::Object { children: x, positional: p }, Node::Object { children: y, positional: q }) => {
            let mut children = x.clone();
            for (key, node) in y {
                let merged = match x.get(key) {
                    Some(existing) => merge(existing, node, &format!("{path}.{}", key.0))?,
                    None => node.clone(),
                };
                children.insert(key.clone(), merged);
            }
            let positional = match (p, q) {
                (Some(p), Some(q)) => Some(Box::new(merge(p, q, &format!("{path}.$"))?)),
                (p, q) => p.clone().or_else(|| q.clone()),
            };
            Ok(Node::Object { children, positional })
        }
        (Node::Array { children: x }, Node::Array { children: y }) => {
            let mut children = x.clone();
            for (id, node) in y {
                let merged = match x.get(id) {
                    Some(existing) => merge(existing, node, &format!("{path}.$[{id}]"))?,
                    None => node.clone(),
                };
                children.insert(id.clone(), merged);
            }
            Ok(Node::Array { children })
        }
        _ => Err(conflict()),
    }
}

/// An empty node of the kind `next` (the component below it) needs.
fn fresh(next: &str) -> Node {
    match part(next) {
        Part::Each(_) => Node::Array { children: BTreeMap::new() },
        _ => Node::Object { children: BTreeMap::new(), positional: None },
    }
}

fn fits(node: &Node, next: &str) -> bool {
    matches!(
        (node, part(next)),
        (Node::Array { .. }, Part::Each(_)) | (Node::Object { .. }, Part::Field(_) | Part::Positional)
    )
}

/// The update's operators in the order mongod reads them, each with its operand.
pub(crate) fn operators(update: &Document) -> Result<Vec<(&str, &Document)>, UpdateError> {
    let mut out = Vec::new();
    for (name, operand) in update {
        if !KNOWN.contains(&name.as_str()) {
            return Err(UpdateError::refused(FAILED_TO_PARSE, format!(
                    "Unknown modifier: {name}. Expected a valid update modifier or pipeline-style update specified as an array"
                ),
            ));
        }
        let Bson::Document(fields) = operand else {
            return Err(UpdateError::refused(FAILED_TO_PARSE, format!(
                    "Modifiers operate on fields but we found type {} instead. For example: {{$mod: {{<field>: ...}}}} not {{{name}: {}}}",
                    super::format::type_name(operand),
                    super::format::value_text(operand)
                ),
            ));
        };
        out.push((name.as_str(), fields));
    }
    Ok(out)
}

const KNOWN: &[&str] = &[
    "$set",
    "$unset",
    "$inc",
    "$mul",
    "$min",
    "$max",
    "$rename",
    "$setOnInsert",
    "$currentDate",
    "$push",
    "$addToSet",
    "$pop",
    "$pull",
    "$pullAll",
];

/// Every `$[<id>]` of `path` must have its array filter.
fn has_filters(path: &str, filters: &HashMap<String, Document>) -> Result<(), UpdateError> {
    match identifiers(path).into_iter().find(|id| !filters.contains_key(*id)) {
        Some(id) => Err(UpdateError::refused(
            BAD_VALUE,
            format!("No array filter found for identifier '{id}' in path '{path}'"),
        )),
        None => Ok(()),
    }
}

/// Builds the tree of a whole update document; each `$[<id>]` must have its array filter.
pub(crate) fn parse(update: &Document, filters: &HashMap<String, Document>) -> Result<Node, UpdateError> {
    let mut root = Node::Object { children: BTreeMap::new(), positional: None };
    for (operator, fields) in operators(update)? {
        for (path, arg) in fields {
            if operator == "$rename" {
                // The source holds its place in the tree before the operand is checked.
                insert(&mut root, path, Leaf::new(Op::Placeholder, path))?;
                has_filters(path, filters)?;
                let to = Leaf::rename(path, arg)?;
                insert(&mut root, &to, Leaf::new(Op::Rename { from: path.clone() }, &to))?;
                continue;
            }
            let leaf = Leaf::parse(operator, path, arg)?;
            insert(&mut root, path, leaf)?;
            has_filters(path, filters)?;
        }
    }
    Ok(root)
}
