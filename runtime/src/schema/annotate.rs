//! A derived type's validator, with each subschema annotated with the Rust type and field
//! that produced it, so a violation says `Address::city` beside `address.city`.

use bson::{Bson, Document};

use super::{FieldFacts, MongoSchema};
use crate::validate::{SchemaError, Validator};

impl Validator {
    /// The validator of `T::json_schema()`, each violation carrying in
    /// [`Violation::note`](crate::validate::Violation::note) the Rust field behind its
    /// schema path (`User::email`, `Address::city`; the type's name for the whole document).
    ///
    /// ```
    /// use mongo_schema::{bson::doc, MongoSchema, Validator};
    /// use serde::Serialize;
    ///
    /// #[derive(Serialize, MongoSchema)]
    /// struct Address {
    ///     #[mongo(max_length = 40)]
    ///     city: String,
    /// }
    ///
    /// #[derive(Serialize, MongoSchema)]
    /// #[serde(rename_all = "camelCase")]
    /// struct Customer {
    ///     #[mongo(max_length = 40)]
    ///     full_name: String,
    ///     home_address: Address,
    /// }
    ///
    /// let validator = Validator::for_type::<Customer>()?;
    /// let failure = validator.validate(&doc! { "fullName": "Ada", "homeAddress": { "city": 7 } }).unwrap_err();
    /// let violation = &failure.failure().unwrap().violations()[0];
    /// assert_eq!(violation.path, "homeAddress.city");
    /// assert_eq!(violation.note.as_deref(), Some("Address::city"));
    /// # Ok::<(), mongo_schema::SchemaError>(())
    /// ```
    pub fn for_type<T: MongoSchema + ?Sized>() -> Result<Validator, SchemaError> {
        let schema = T::json_schema();
        let mut validator = Validator::new(&schema)?;
        let at = Site { owner: rust_name(std::any::type_name::<T>()), fields: T::FIELDS };
        let root = at.owner.clone();
        annotate(&mut validator, &schema, "", &at, &root);
        Ok(validator)
    }
}

/// The struct whose fields a subschema's `properties` are.
struct Site {
    owner: String,
    fields: Option<&'static [FieldFacts]>,
}

/// Notes `schema` (at `path`) with `note`, and its properties with their fields.
fn annotate(validator: &mut Validator, schema: &Document, path: &str, at: &Site, note: &str) {
    validator.annotate(path, note);
    for (key, value) in schema {
        match (key.as_str(), value) {
            ("properties", Bson::Document(properties)) => {
                for (name, sub) in properties {
                    let Bson::Document(sub) = sub else { continue };
                    let sub_path = join(path, &format!("properties.{name}"));
                    match at.fields.and_then(|fields| find(fields, name, &at.owner)) {
                        Some((owner, field)) => {
                            let nested = Site { owner: field.type_name.map_or_else(String::new, |t| rust_name(t())), fields: field.fields };
                            annotate(validator, sub, &sub_path, &nested, &format!("{owner}::{}", field.ident));
                        }
                        None => annotate(validator, sub, &sub_path, &Site { owner: String::new(), fields: None }, note),
                    }
                }
            }
            // the same value seen through a container or a branch: the same field
            ("items" | "additionalProperties" | "not", Bson::Document(sub)) => annotate(validator, sub, &join(path, key), at, note),
            ("items" | "anyOf" | "oneOf" | "allOf", Bson::Array(subs)) => {
                for (i, sub) in subs.iter().enumerate() {
                    if let Bson::Document(sub) = sub {
                        annotate(validator, sub, &join(path, &format!("{key}.{i}")), at, note);
                    }
                }
            }
            _ => {}
        }
    }
}

/// The field written under `name`, looking into flattened fields, with its struct's name.
fn find(fields: &'static [FieldFacts], name: &str, owner: &str) -> Option<(String, &'static FieldFacts)> {
    fields.iter().find_map(|field| match (field.flatten, field.fields) {
        (true, Some(inner)) => find(inner, name, &field.type_name.map_or_else(String::new, |t| rust_name(t()))),
        (false, _) if field.name == name => Some((owner.to_owned(), field)),
        _ => None,
    })
}

fn join(path: &str, segment: &str) -> String {
    match path {
        "" => segment.to_owned(),
        _ => format!("{path}.{segment}"),
    }
}

/// Containers whose fields are their item's (`FIELDS` passes through them).
const WRAPPERS: &[&str] = &["Option", "Box", "Vec", "VecDeque", "LinkedList", "HashSet", "BTreeSet", "HashMap", "BTreeMap", "IndexMap", "Arc", "Rc"];

/// A type's name as its user writes it: `Address` for `alloc::vec::Vec<my_app::Address>`,
/// `Page<User>` for `my_app::Page<my_app::User>`.
fn rust_name(type_name: &str) -> String {
    let mut name = type_name.trim_start_matches('&').trim();
    while let Some(open) = name.find('<') {
        let outer = name[..open].rsplit("::").next().unwrap_or_default();
        if !WRAPPERS.contains(&outer) || !name.ends_with('>') {
            break;
        }
        // the last generic argument: a map's value, a container's item
        let args = &name[open + 1..name.len() - 1];
        name = last_argument(args).trim();
    }
    if let Some(inner) = name.strip_prefix('[').and_then(|n| n.strip_suffix(']')) {
        return rust_name(inner.split(';').next().unwrap_or_default());
    }
    // drop module paths from every segment
    let mut out = String::with_capacity(name.len());
    let mut word = String::new();
    for c in name.chars().chain(std::iter::once(' ')) {
        if c.is_alphanumeric() || c == '_' || c == ':' {
            word.push(c);
            continue;
        }
        out.push_str(word.rsplit("::").next().unwrap_or_default());
        word.clear();
        if c != ' ' || !out.is_empty() {
            out.push(c);
        }
    }
    out.trim_end().to_owned()
}

/// The last top-level argument of `A, B<C, D>, E`.
fn last_argument(args: &str) -> &str {
    let mut depth = 0;
    let mut start = 0;
    for (i, c) in args.char_indices() {
        match c {
            '<' | '(' | '[' => depth += 1,
            '>' | ')' | ']' => depth -= 1,
            ',' if depth == 0 => start = i + 1,
            _ => {}
        }
    }
    &args[start..]
}

#[cfg(test)]
mod tests {
    use super::rust_name;

    #[test]
    fn rust_names_drop_paths_and_containers() {
        assert_eq!(rust_name("my_app::models::Address"), "Address");
        assert_eq!(rust_name("alloc::vec::Vec<my_app::Line>"), "Line");
        assert_eq!(rust_name("core::option::Option<alloc::boxed::Box<my_app::Address>>"), "Address");
        assert_eq!(rust_name("std::collections::hash::map::HashMap<alloc::string::String, my_app::Tag>"), "Tag");
        assert_eq!(rust_name("my_app::Page<my_app::User>"), "Page<User>");
        assert_eq!(rust_name("[my_app::Point; 3]"), "Point");
        assert_eq!(rust_name("my_app::Pair<my_app::A, core::option::Option<my_app::B>>"), "Pair<A, Option<B>>");
    }
}
