//! Where a schema leaves a document's size unbounded, in the contract's words: a string is
//! bounded by `maxLength` or a fixed-width `pattern` (`contract::size::string`,
//! `contract::size::pattern_max_bytes`), an array by `maxItems` over bounded items
//! (`contract::size::array`), a map never (its keys are data no schema bounds:
//! `contract::size::map` needs their length).

use mongo_schema_contract::size;

use super::node::{Additional, Items, SchemaView};

/// Why a part of a document has no size bound.
#[non_exhaustive]
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bson::doc;

    fn first(schema: &crate::bson::Document, looking: Unbounds) -> Option<(String, Unbounded)> {
        SchemaView::new(schema).unbounded(looking)
    }

    #[test]
    fn strings_are_bounded_by_max_length_or_a_fixed_width_pattern() {
        let bounded = doc! { "bsonType": "object", "properties": {
            "a": { "bsonType": "string", "maxLength": 5.0 },
            "b": { "bsonType": "string", "pattern": "^[0-9]{4}$" },
            "c": { "bsonType": "string", "enum": ["x", "y"] },
            "d": { "bsonType": "array", "maxItems": 3, "items": { "bsonType": "string", "maxLength": 2 } },
        } };
        assert_eq!(first(&bounded, Unbounds::AlsoByTypes), None);
        let open = doc! { "properties": { "a": { "bsonType": "string", "maxLength": 5 }, "b": { "bsonType": "string", "pattern": "^[0-9]+$" } } };
        assert_eq!(first(&open, Unbounds::ByKeywords), Some(("b".to_owned(), Unbounded::String)));
    }

    #[test]
    fn each_unbounded_part_is_named_with_its_path() {
        let cases = [
            (
                doc! { "properties": { "tags": { "bsonType": "array", "items": { "bsonType": "int" } } } },
                "tags",
                Unbounded::Array,
            ),
            (
                doc! { "properties": { "t": { "bsonType": "array", "maxItems": 2, "items": [{ "bsonType": "int" }, { "bsonType": "string" }] } } },
                "t.1",
                Unbounded::String,
            ),
            (
                doc! { "properties": { "m": { "bsonType": "object", "additionalProperties": { "bsonType": "int" } } } },
                "m",
                Unbounded::Map,
            ),
            (doc! { "properties": { "o": { "bsonType": "object" } } }, "o", Unbounded::Undeclared),
            (
                doc! { "properties": { "v": { "oneOf": [{ "bsonType": "int" }, { "bsonType": "string" }] } } },
                "v",
                Unbounded::String,
            ),
        ];
        for (schema, path, why) in cases {
            assert_eq!(first(&schema, Unbounds::ByKeywords), Some((path.to_owned(), why)), "{schema}");
        }
    }

    #[test]
    fn what_only_a_type_bounds_is_looked_for_apart() {
        let schema = doc! { "properties": { "_id": {}, "id": { "bsonType": "binData" }, "any": {} } };
        assert_eq!(first(&schema, Unbounds::ByKeywords), None);
        assert_eq!(first(&schema, Unbounds::AlsoByTypes), Some(("id".to_owned(), Unbounded::Binary)));
        let schema = doc! { "properties": { "_id": {}, "any": {} } };
        assert_eq!(first(&schema, Unbounds::AlsoByTypes), Some(("any".to_owned(), Unbounded::Any)));
        assert_eq!(Unbounded::Any.text(), "a value of any BSON type, which no schema bounds");
    }
}
