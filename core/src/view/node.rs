//! One subschema and what its keywords say, read from the `$jsonSchema` document it borrows.

use crate::bson::{Bson, Document};
use mongo_schema_contract::bson::{NUMBER, NUMBER_ALIASES};

use super::number::Number;

/// A `$jsonSchema` document (or one of its subschemas), read through its keywords. It
/// borrows the document and copies nothing; every accessor reads the keyword as mongod does
/// and says what a value of the wrong BSON type means (mostly: as if absent, a schema mongod
/// would refuse to install).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SchemaView<'a> {
    doc: &'a Document,
}

/// `anyOf`, `oneOf` or `allOf`: a keyword whose value is a list of subschemas.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Combinator {
    /// `anyOf`: at least one branch.
    AnyOf,
    /// `oneOf`: exactly one branch.
    OneOf,
    /// `allOf`: every branch.
    AllOf,
}

impl Combinator {
    /// The three, in the order the readers visit them.
    pub const ALL: [Combinator; 3] = [Combinator::AnyOf, Combinator::OneOf, Combinator::AllOf];

    /// The keyword (`anyOf`).
    pub fn keyword(self) -> &'static str {
        match self {
            Combinator::AnyOf => "anyOf",
            Combinator::OneOf => "oneOf",
            Combinator::AllOf => "allOf",
        }
    }
}

/// What `items` says.
#[non_exhaustive]
#[derive(Clone, Debug, PartialEq)]
pub enum Items<'a> {
    /// No `items`: any elements.
    Absent,
    /// One schema for every element.
    One(SchemaView<'a>),
    /// A tuple: one schema a position (the list's subschemas; entries that are not documents
    /// left out).
    Tuple(Vec<SchemaView<'a>>),
    /// Something else (mongod refuses it).
    Other(&'a Bson),
}

/// What `additionalProperties` says about the keys `properties` does not declare.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Additional<'a> {
    /// No `additionalProperties`: allowed.
    Absent,
    /// `true` or `false`.
    Allowed(bool),
    /// A schema every undeclared value must match: a map, whose keys are data.
    Schema(SchemaView<'a>),
    /// Something else (mongod refuses it).
    Other(&'a Bson),
}

/// `properties`: the declared fields and their subschemas.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Properties<'a> {
    doc: &'a Document,
}

impl<'a> Properties<'a> {
    /// The declared fields whose schema is a document, with it, in declaration order.
    pub fn iter(&self) -> impl Iterator<Item = (&'a str, SchemaView<'a>)> + 'a {
        self.doc.iter().filter_map(|(name, sub)| Some((name.as_str(), SchemaView::new(sub.as_document()?))))
    }

    /// Every declared field with its value as written (a schema, or what mongod would
    /// refuse), in declaration order.
    pub fn entries(&self) -> impl Iterator<Item = (&'a str, &'a Bson)> + 'a {
        self.doc.iter().map(|(name, value)| (name.as_str(), value))
    }

    /// Every declared name, whatever its value, in declaration order.
    pub fn names(&self) -> impl Iterator<Item = &'a str> + 'a {
        self.doc.keys().map(String::as_str)
    }

    /// The schema of the field `name`, when it is declared with a document.
    pub fn get(&self, name: &str) -> Option<SchemaView<'a>> {
        self.doc.get_document(name).ok().map(SchemaView::new)
    }

    /// Whether `name` is declared (with any value).
    pub fn contains(&self, name: &str) -> bool {
        self.doc.contains_key(name)
    }
}

impl<'a> SchemaView<'a> {
    /// The view of a `$jsonSchema` value (or of any of its subschemas).
    pub fn new(doc: &'a Document) -> Self {
        SchemaView { doc }
    }

    /// The `$jsonSchema` of a validator (`{"$jsonSchema": {...}}`); `None` when it has none.
    pub fn of_validator(validator: &'a Document) -> Option<Self> {
        validator.get_document("$jsonSchema").ok().map(SchemaView::new)
    }

    /// The document the view reads.
    pub fn document(&self) -> &'a Document {
        self.doc
    }

    /// A keyword's value as written.
    pub fn get(&self, keyword: &str) -> Option<&'a Bson> {
        self.doc.get(keyword)
    }

    /// Whether the schema has `keyword`, whatever its value.
    pub fn has(&self, keyword: &str) -> bool {
        self.doc.contains_key(keyword)
    }

    /// The keywords and their values, in the order written.
    pub fn keywords(&self) -> impl Iterator<Item = (&'a str, &'a Bson)> + 'a {
        self.doc.iter().map(|(k, v)| (k.as_str(), v))
    }

    /// The aliases `bsonType` names, as written (`"number"` stays `"number"`); `None` when
    /// absent or neither a string nor a list. A list's entries that are not strings are left
    /// out.
    pub fn bson_type(&self) -> Option<Vec<&'a str>> {
        names(self.get("bsonType")?)
    }

    /// The JSON Schema names `type` lists, as written; as [`SchemaView::bson_type`].
    pub fn json_type(&self) -> Option<Vec<&'a str>> {
        names(self.get("type")?)
    }

    /// The BSON types the schema admits by its type keyword: `bsonType`, else `type`, with
    /// the aliases of several types spelt out ([`expand_aliases`]); `None`: any type (or a
    /// type keyword that is neither a string nor a list).
    pub fn admitted(&self) -> Option<Vec<&'a str>> {
        names(self.get("bsonType").or_else(|| self.get("type"))?).map(expand_aliases)
    }

    /// The names `required` lists (entries that are not strings left out).
    pub fn required(&self) -> Vec<&'a str> {
        self.doc.get_array("required").map(|r| r.iter().filter_map(Bson::as_str).collect()).unwrap_or_default()
    }

    /// Whether `required` lists `name`.
    pub fn requires(&self, name: &str) -> bool {
        self.doc.get_array("required").is_ok_and(|r| r.iter().any(|n| n.as_str() == Some(name)))
    }

    /// `properties`, when it is a document.
    pub fn properties(&self) -> Option<Properties<'a>> {
        self.doc.get_document("properties").ok().map(|doc| Properties { doc })
    }

    /// The schema `properties` gives the field `name`.
    pub fn property(&self, name: &str) -> Option<SchemaView<'a>> {
        self.properties()?.get(name)
    }

    /// What `additionalProperties` says.
    pub fn additional_properties(&self) -> Additional<'a> {
        match self.get("additionalProperties") {
            None => Additional::Absent,
            Some(Bson::Boolean(allowed)) => Additional::Allowed(*allowed),
            Some(Bson::Document(sub)) => Additional::Schema(SchemaView::new(sub)),
            Some(other) => Additional::Other(other),
        }
    }

    /// What `items` says.
    pub fn items(&self) -> Items<'a> {
        match self.get("items") {
            None => Items::Absent,
            Some(Bson::Document(sub)) => Items::One(SchemaView::new(sub)),
            Some(Bson::Array(subs)) => {
                Items::Tuple(subs.iter().filter_map(Bson::as_document).map(SchemaView::new).collect())
            }
            Some(other) => Items::Other(other),
        }
    }

    /// The branches of one combinator (entries that are not documents left out); `None` when
    /// the schema does not have it as a list.
    pub fn branches_of(&self, combinator: Combinator) -> Option<Vec<SchemaView<'a>>> {
        let list = self.doc.get_array(combinator.keyword()).ok()?;
        Some(list.iter().filter_map(Bson::as_document).map(SchemaView::new).collect())
    }

    /// The direct branches of `anyOf`, then `oneOf`, then `allOf`: one level, not the
    /// branches' own.
    pub fn branches(&self) -> Vec<SchemaView<'a>> {
        Combinator::ALL.into_iter().filter_map(|c| self.branches_of(c)).flatten().collect()
    }

    /// Whether the schema has any of `anyOf`, `oneOf`, `allOf` (whatever their value).
    pub fn is_combined(&self) -> bool {
        Combinator::ALL.iter().any(|c| self.has(c.keyword()))
    }

    /// The schema and, depth first, every branch under its `anyOf`, `oneOf` and `allOf`
    /// (and theirs): every schema a value here may be held to.
    pub fn with_branches(&self) -> Vec<SchemaView<'a>> {
        let mut all = vec![*self];
        for branch in self.branches() {
            all.extend(branch.with_branches());
        }
        all
    }

    /// The values `enum` lists, when it is a list.
    pub fn enum_values(&self) -> Option<&'a [Bson]> {
        self.doc.get_array("enum").ok().map(Vec::as_slice)
    }

    /// `pattern`, when it is a string.
    pub fn pattern(&self) -> Option<&'a str> {
        self.doc.get_str("pattern").ok()
    }

    /// A numeric keyword (`minimum`, `maximum`, `multipleOf`, or a length or count read as
    /// a number), exact whatever its BSON type; `None` when absent or not a number.
    pub fn number(&self, keyword: &str) -> Option<Number> {
        Number::of(self.get(keyword)?)
    }

    /// A length or count keyword (`maxLength`, `minItems`, `maxProperties`, ...) as mongod
    /// reads it: a number of any BSON type with a non-negative integral value that fits an
    /// int64 (`10`, `10.0`, `Decimal128("10")`); `None` when absent or not such a number.
    pub fn count(&self, keyword: &str) -> Option<u64> {
        self.number(keyword)?.count()
    }

    /// `maxLength`, read by [`SchemaView::count`].
    pub fn max_length(&self) -> Option<u64> {
        self.count("maxLength")
    }

    /// `maxItems`, read by [`SchemaView::count`].
    pub fn max_items(&self) -> Option<u64> {
        self.count("maxItems")
    }

    /// `maxProperties`, read by [`SchemaView::count`].
    pub fn max_properties(&self) -> Option<u64> {
        self.count("maxProperties")
    }

    /// A boolean keyword (`uniqueItems`, `exclusiveMaximum`): `true` only when it is `true`.
    pub fn flag(&self, keyword: &str) -> bool {
        self.get(keyword).and_then(Bson::as_bool).unwrap_or(false)
    }
}

/// A type keyword's names: a string, or a list's strings.
fn names(value: &Bson) -> Option<Vec<&str>> {
    match value {
        Bson::String(name) => Some(vec![name.as_str()]),
        Bson::Array(list) => Some(list.iter().filter_map(Bson::as_str).collect()),
        _ => None,
    }
}

/// Type names with the aliases of several types spelt out: `number` as `int`, `long`,
/// `double` and `decimal`; `integer` (JSON Schema's, which mongod refuses) as `int` and
/// `long`. The others as they are.
pub fn expand_aliases(names: Vec<&str>) -> Vec<&str> {
    let mut out = Vec::with_capacity(names.len());
    for name in names {
        match name {
            NUMBER => out.extend(NUMBER_ALIASES),
            "integer" => out.extend(["int", "long"]),
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bson::{doc, Decimal128};

    fn decimal(text: &str) -> Bson {
        Bson::Decimal128(text.parse::<Decimal128>().unwrap())
    }

    #[test]
    fn counts_are_read_exactly_whatever_their_bson_type() {
        for written in
            [Bson::Int32(10), Bson::Int64(10), Bson::Double(10.0), decimal("10"), decimal("1.0E+1"), decimal("10.000")]
        {
            let schema =
                doc! { "maxItems": written.clone(), "maxLength": written.clone(), "maxProperties": written.clone() };
            let view = SchemaView::new(&schema);
            assert_eq!(
                (view.max_items(), view.max_length(), view.max_properties()),
                (Some(10), Some(10), Some(10)),
                "{written}"
            );
        }
        // what mongod refuses as a count is no bound
        for written in [
            Bson::Double(10.5),
            Bson::Int32(-1),
            Bson::Int64(-1),
            decimal("10.5"),
            decimal("NaN"),
            Bson::Double(f64::INFINITY),
            Bson::String("10".into()),
            Bson::Double(1e19),
        ] {
            let schema = doc! { "maxItems": written.clone() };
            assert_eq!(SchemaView::new(&schema).max_items(), None, "{written}");
        }
        // an int64 above 2^53 is kept whole (a double would round it)
        let big = (1_i64 << 53) + 1;
        let schema = doc! { "maxLength": big };
        assert_eq!(SchemaView::new(&schema).max_length(), Some(big as u64));
        assert_eq!(SchemaView::new(&doc! {}).max_length(), None);
    }

    #[test]
    fn numbers_compare_on_one_exact_line() {
        let n = |v: Bson| Number::of(&v).unwrap();
        let two53 = 1_i64 << 53;
        // an int64 one above 2^53 is above the double 2^53, which f64 cannot tell apart
        assert!(n(Bson::Int64(two53 + 1)) > n(Bson::Double(two53 as f64)));
        assert!(n(Bson::Int64(two53 + 1)) > n(Bson::Int64(two53)));
        // the double 0.1 is 0.1000000000000000055511151231257827...: above the decimal 0.1
        assert!(n(decimal("0.1")) < n(Bson::Double(0.1)));
        assert!(n(decimal("0.1000000000000000055511151231257828")) > n(Bson::Double(0.1)));
        // the same value written four ways is equal
        let five = [Bson::Int32(5), Bson::Int64(5), Bson::Double(5.0), decimal("5.00")];
        for a in &five {
            for b in &five {
                assert!(n(a.clone()) == n(b.clone()), "{a} == {b}");
            }
        }
        assert!(n(decimal("-1E+400")) < n(Bson::Int32(i32::MIN)));
        // NaN orders against nothing, itself included
        let nan = n(Bson::Double(f64::NAN));
        assert!(nan.partial_cmp(&nan).is_none() && nan != nan);
        assert!(Number::of(&Bson::String("5".into())).is_none());
        let schema = doc! { "minimum": decimal("2.5"), "maximum": 2.5 };
        let view = SchemaView::new(&schema);
        assert!(view.number("minimum") == view.number("maximum"));
        assert_eq!(view.number("multipleOf"), None);
    }

    #[test]
    fn keywords_are_read_as_written() {
        let schema = doc! {
            "bsonType": ["object", "null", 3],
            "required": ["a", 1, "b"],
            "properties": { "a": { "type": "number" }, "b": { "bsonType": "string" }, "c": true },
            "additionalProperties": false,
            "items": [{ "bsonType": "int" }, 7, { "bsonType": "long" }],
            "enum": [1, "x"],
            "pattern": "^a$",
            "uniqueItems": true,
        };
        let view = SchemaView::new(&schema);
        assert_eq!(view.bson_type(), Some(vec!["object", "null"]));
        assert_eq!(view.admitted(), Some(vec!["object", "null"]));
        assert_eq!(view.required(), vec!["a", "b"]);
        assert!(view.requires("b") && !view.requires("c"));
        let properties = view.properties().unwrap();
        assert_eq!(properties.names().collect::<Vec<_>>(), ["a", "b", "c"]);
        assert_eq!(properties.iter().map(|(name, _)| name).collect::<Vec<_>>(), ["a", "b"]);
        assert!(properties.contains("c") && properties.get("c").is_none());
        let a = view.property("a").unwrap();
        assert_eq!((a.bson_type(), a.json_type()), (None, Some(vec!["number"])));
        assert_eq!(a.admitted(), Some(vec!["int", "long", "double", "decimal"]));
        assert_eq!(view.additional_properties(), Additional::Allowed(false));
        let tuple = match view.items() {
            Items::Tuple(items) => items.iter().map(|i| i.bson_type()).collect::<Vec<_>>(),
            other => panic!("{other:?}"),
        };
        assert_eq!(tuple, [Some(vec!["int"]), Some(vec!["long"])]);
        assert_eq!(view.enum_values().map(<[Bson]>::len), Some(2));
        assert_eq!(view.pattern(), Some("^a$"));
        assert!(view.flag("uniqueItems") && !view.flag("exclusiveMaximum"));
        // a type keyword of another BSON type admits any type, and so does none
        let odd = doc! { "bsonType": 5, "type": "string" };
        assert_eq!(SchemaView::new(&odd).admitted(), None);
        assert_eq!(SchemaView::new(&doc! { "type": "string" }).admitted(), Some(vec!["string"]));
        assert_eq!(SchemaView::new(&doc! {}).admitted(), None);
        let map = doc! { "additionalProperties": { "bsonType": "int" }, "items": "x" };
        let map = SchemaView::new(&map);
        assert!(matches!(map.additional_properties(), Additional::Schema(s) if s.bson_type() == Some(vec!["int"])));
        assert_eq!(map.items(), Items::Other(&Bson::String("x".into())));
        assert_eq!(SchemaView::new(&doc! {}).items(), Items::Absent);
        assert_eq!(SchemaView::new(&doc! {}).additional_properties(), Additional::Absent);
    }

    #[test]
    fn branches_are_listed_anyof_then_oneof_then_allof() {
        let schema = doc! {
            "allOf": [{ "title": "all" }],
            "oneOf": [{ "title": "one", "anyOf": [{ "title": "nested" }] }, 5],
            "anyOf": [{ "title": "any" }],
        };
        let view = SchemaView::new(&schema);
        let titles = |views: Vec<SchemaView<'_>>| {
            views.iter().map(|v| v.document().get_str("title").unwrap_or("(root)").to_owned()).collect::<Vec<_>>()
        };
        assert_eq!(titles(view.branches()), ["any", "one", "all"]);
        assert_eq!(titles(view.with_branches()), ["(root)", "any", "one", "nested", "all"]);
        assert_eq!(titles(view.branches_of(Combinator::OneOf).unwrap()), ["one"]);
        assert!(view.is_combined() && !SchemaView::new(&doc! { "not": {} }).is_combined());
        assert_eq!(SchemaView::new(&doc! {}).branches_of(Combinator::AnyOf), None);
        let validator = doc! { "$jsonSchema": schema.clone() };
        assert_eq!(SchemaView::of_validator(&validator), Some(view));
        assert_eq!(SchemaView::of_validator(&schema), None);
    }
}
