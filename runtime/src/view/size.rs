//! Where a schema leaves a document's size unbounded, in the contract's words: a string is
//! bounded by `maxLength` or a fixed-width `pattern` (`contract::size::string`,
//! `contract::size::pattern_max_bytes`), an array by `maxItems` over bounded items
//! (`contract::size::array`), a map never (its keys are data no schema bounds:
//! `contract::size::map` needs their length).

use mongo_schema_contract::size;

use super::node::{Additional, Items, SchemaView};

/// Why a part of a document has no size bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unbounded {
    /// A string with neither `maxLength` nor a fixed-width `pattern`.
    String,
    /// An array without `maxItems`.
    Array,
    /// A map (`additionalProperties` with a schema): its keys are data.
    Map,
    /// A document whose fields are not declared (no `properties`).
    Undeclared,
    /// Binary data, which no keyword bounds (only a Rust type can).
    Binary,
    /// A value of any BSON type (no `bsonType`).
    Any,
}

impl Unbounded {
    /// What the part is, as `schema print` says it (after "`path` is").
    pub fn text(self) -> &'static str {
        match self {
            Unbounded::String => "a string with neither `max_length` nor a fixed-width `pattern`",
            Unbounded::Array => "an array without `max_items`",
            Unbounded::Map => "a map, whose keys no schema bounds",
            Unbounded::Undeclared => "a document whose fields are not declared",
            Unbounded::Binary => "binary data, which the schema does not bound",
            Unbounded::Any => "a value of any BSON type, which no schema bounds",
        }
    }
}

/// Which parts [`SchemaView::unbounded`] looks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unbounds {
    /// What a keyword could bound and the schema leaves open: strings, arrays, maps,
    /// undeclared documents.
    ByKeywords,
    /// Those, and what only a Rust type bounds (a UUID's 16 bytes): binary data, and values
    /// of any type (but `_id`).
    AlsoByTypes,
}

impl SchemaView<'_> {
    /// The first part of a document of this schema, depth first in the order written (the
    /// branches of `anyOf`, `oneOf`, `allOf` first, then the types `bsonType` lists), that
    /// has no size bound, with its document path (`""` for the document itself; a tuple's
    /// positions as `path.0`). A schema with `enum` is bounded by its values.
    pub fn unbounded(&self, looking: Unbounds) -> Option<(String, Unbounded)> {
        self.unbounded_at(String::new(), looking)
    }

    fn unbounded_at(&self, path: String, looking: Unbounds) -> Option<(String, Unbounded)> {
        let loose = looking == Unbounds::AlsoByTypes;
        if let Some(found) = self.branches().into_iter().find_map(|b| b.unbounded_at(path.clone(), looking)) {
            return Some(found);
        }
        if self.has("enum") {
            return None;
        }
        let mut types = self.bson_type().unwrap_or_default();
        if types.is_empty() && self.has("properties") {
            types.push("object");
        }
        if types.is_empty() && !self.is_combined() && !path.is_empty() && path != "_id" && loose {
            return Some((path, Unbounded::Any));
        }
        for kind in types {
            match kind {
                "string" => {
                    let by_length = size::string(self.max_length());
                    if by_length.or_else(|| self.pattern().and_then(size::pattern_max_bytes)).is_none() {
                        return Some((path, Unbounded::String));
                    }
                }
                "binData" if loose => return Some((path, Unbounded::Binary)),
                "array" => match self.items() {
                    _ if self.max_items().is_none() => return Some((path, Unbounded::Array)),
                    Items::One(items) => return items.unbounded_at(path, looking),
                    Items::Tuple(items) => {
                        return items
                            .iter()
                            .enumerate()
                            .find_map(|(i, item)| item.unbounded_at(joined(&path, &i.to_string()), looking))
                    }
                    Items::Absent | Items::Other(_) => {}
                },
                "object" => {
                    if let Additional::Schema(_) = self.additional_properties() {
                        return Some((path, Unbounded::Map));
                    }
                    let Some(properties) = self.properties() else {
                        return Some((path, Unbounded::Undeclared));
                    };
                    let found = properties.iter().find_map(|(key, sub)| sub.unbounded_at(joined(&path, key), looking));
                    if found.is_some() {
                        return found;
                    }
                }
                _ => {}
            }
        }
        None
    }
}

/// `path.key`, or `key` at the root.
fn joined(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_owned()
    } else {
        format!("{path}.{key}")
    }
}
