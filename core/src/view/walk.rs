//! Paths through a schema: a document path to the subschemas that hold its values, two ways
//! (the one subschema a path plainly has, [`SchemaView::resolve`]; every subschema it may
//! meet through the branches, [`SchemaView::reach`]), and a schema path (`properties.a.anyOf.0`,
//! as the validator's reports name a rule) to its subschema and back.

use crate::bson::Bson;

use super::node::{Additional, Items, SchemaView};

/// One step of a document path: into a field, or into an array's elements (whichever
/// position: `$`, `$[]`, `$[id]`, `3`, or the `[]` of a path that names no position).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step<'p> {
    /// The field of this name.
    Field(&'p str),
    /// An element of an array.
    Element,
}

/// What a schema says of a field name, in the order mongod asks: `properties`, then
/// `additionalProperties`, then `patternProperties`.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Field<'a> {
    /// `properties` declares it, with this schema.
    Declared(SchemaView<'a>),
    /// `properties` does not; `additionalProperties` holds the value to this schema (a map,
    /// whose keys are data).
    Map(SchemaView<'a>),
    /// `properties` does not, and `additionalProperties: false` refuses it.
    Refused,
    /// `properties` does not; `patternProperties` may hold it to a schema.
    Patterned,
    /// `properties` declares other names and nothing else speaks of it: any value.
    Undeclared,
    /// The schema declares no fields (no `properties`): any value.
    Open,
}

/// The one subschema a document path has, where the schema says it plainly
/// ([`SchemaView::resolve`]).
#[non_exhaustive]
#[derive(Clone, Debug, PartialEq)]
pub enum Resolved<'a> {
    /// The subschema of the path's last step, and whether its parent requires that field
    /// (never for an element).
    Known(SchemaView<'a>, bool),
    /// The schema does not say plainly: a combinator, `not`, a tuple, `patternProperties`,
    /// no `properties`: any value may be there.
    Open,
    /// The step at this position names no field where the schema there (whose declared names
    /// follow) declares its fields and admits no other.
    Unknown(usize, Vec<&'a str>),
}

/// Every subschema a document path may meet, through every branch ([`SchemaView::reach`]).
#[non_exhaustive]
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Reach<'a> {
    /// The subschemas that hold the path's values (several through `anyOf`/`oneOf`/`allOf`
    /// and tuples; none where no schema speaks of it).
    pub schemas: Vec<SchemaView<'a>>,
    /// Some step went through `additionalProperties` with a schema: the path is a map's key
    /// (or under one), whose name is data.
    pub in_map: bool,
    /// At some step no branch declared the name, and one declares its fields (`properties`).
    pub undeclared: bool,
}

/// A subschema and where it is, as a schema path ([`SchemaView::subschemas`]).
#[non_exhaustive]
#[derive(Clone, Debug, PartialEq)]
pub struct Subschema<'a> {
    /// Its schema path below the parent (`properties.zip`, `items`, `anyOf.1`).
    pub path: String,
    /// The field it declares, for a subschema of `properties`; `None` for the same value
    /// seen through a container or a branch (`items`, `additionalProperties`, `not`, the
    /// combinators).
    pub property: Option<&'a str>,
    /// The subschema.
    pub schema: SchemaView<'a>,
}

impl<'a> SchemaView<'a> {
    /// What the schema says of the field `name` ([`Field`]).
    pub fn field(&self, name: &str) -> Field<'a> {
        if let Some(sub) = self.property(name) {
            return Field::Declared(sub);
        }
        match self.additional_properties() {
            Additional::Schema(sub) => Field::Map(sub),
            Additional::Allowed(false) => Field::Refused,
            _ if self.has("patternProperties") => Field::Patterned,
            _ if self.properties().is_some() => Field::Undeclared,
            _ => Field::Open,
        }
    }

    /// The one subschema at a document path, as far as the schema says it plainly: into a
    /// declared field or a map's values, into the items of an array with one items schema;
    /// [`Resolved::Open`] at a tuple, an array without `items`, `patternProperties`, a schema
    /// without `properties`, and at a step whose subschema has `anyOf`, `oneOf`, `allOf` or
    /// `not` (its branches are not followed). The root's own combinators are not looked at.
    pub fn resolve<'p>(&self, steps: impl IntoIterator<Item = Step<'p>>) -> Resolved<'a> {
        let mut current = *self;
        let mut required = false;
        for (i, step) in steps.into_iter().enumerate() {
            let next = match step {
                Step::Element => {
                    required = false;
                    match current.items() {
                        Items::One(items) => Some(items),
                        _ => return Resolved::Open,
                    }
                }
                Step::Field(name) => {
                    required = current.requires(name);
                    match current.field(name) {
                        Field::Declared(sub) | Field::Map(sub) => Some(sub),
                        Field::Refused | Field::Undeclared => None,
                        Field::Patterned | Field::Open => return Resolved::Open,
                    }
                }
            };
            let Some(next) = next else {
                let known = current.properties().map(|p| p.names().collect()).unwrap_or_default();
                return Resolved::Unknown(i, known);
            };
            current = next;
            if current.is_combined() || current.has("not") {
                return Resolved::Open;
            }
        }
        Resolved::Known(current, required)
    }

    /// Every subschema at a document path, through every branch: at each step, each schema
    /// reached and every branch under its `anyOf`, `oneOf` and `allOf`
    /// ([`SchemaView::with_branches`]) is followed into a declared field, a map's values,
    /// or the items of an array (one schema, or each of a tuple's).
    pub fn reach<'p>(&self, steps: impl IntoIterator<Item = Step<'p>>) -> Reach<'a> {
        let mut reach = Reach { schemas: vec![*self], ..Reach::default() };
        for step in steps {
            let mut next = Vec::new();
            let (mut declared, mut closed) = (false, false);
            for schema in reach.schemas.iter().flat_map(SchemaView::with_branches) {
                match step {
                    Step::Element => {
                        match schema.items() {
                            Items::One(items) => next.push(items),
                            Items::Tuple(items) => next.extend(items),
                            Items::Absent | Items::Other(_) => {}
                        }
                        declared = true;
                    }
                    Step::Field(name) => match schema.field(name) {
                        Field::Declared(sub) => {
                            next.push(sub);
                            declared = true;
                        }
                        Field::Map(sub) => {
                            next.push(sub);
                            declared = true;
                            reach.in_map = true;
                        }
                        _ => closed |= schema.has("properties"),
                    },
                }
            }
            reach.undeclared |= !declared && closed;
            reach.schemas = next;
        }
        reach
    }

    /// The subschema at a schema path (`properties.address.properties.zip`, `anyOf.0`,
    /// `items.2`): each segment a keyword whose value is a schema, or a keyword whose value is
    /// a list and then a position in it. `""` is the schema itself.
    pub fn at(&self, schema_path: &str) -> Option<SchemaView<'a>> {
        let mut at = self.document();
        let mut segments = schema_path.split('.').filter(|s| !s.is_empty());
        while let Some(segment) = segments.next() {
            at = match at.get(segment)? {
                Bson::Document(d) => d,
                Bson::Array(items) => items.get(segments.next()?.parse::<usize>().ok()?)?.as_document()?,
                _ => return None,
            };
        }
        Some(SchemaView::new(at))
    }

    /// The schema's direct subschemas, in the order its keywords are written: those of
    /// `properties` (one a field), of `items` (one, or each of a tuple), of
    /// `additionalProperties` and `not`, and the branches of `anyOf`, `oneOf` and `allOf`;
    /// each with its schema path below this schema ([`SchemaView::at`] finds it there).
    pub fn subschemas(&self) -> Vec<Subschema<'a>> {
        let mut out = Vec::new();
        for (key, value) in self.keywords() {
            match (key, value) {
                ("properties", Bson::Document(_)) => {
                    for (name, schema) in self.properties().into_iter().flat_map(|p| p.iter()) {
                        out.push(Subschema { path: format!("properties.{name}"), property: Some(name), schema });
                    }
                }
                ("items" | "additionalProperties" | "not", Bson::Document(sub)) => {
                    out.push(Subschema { path: key.to_owned(), property: None, schema: SchemaView::new(sub) })
                }
                ("items" | "anyOf" | "oneOf" | "allOf", Bson::Array(subs)) => {
                    for (i, sub) in subs.iter().enumerate() {
                        if let Bson::Document(sub) = sub {
                            let path = format!("{key}.{i}");
                            out.push(Subschema { path, property: None, schema: SchemaView::new(sub) });
                        }
                    }
                }
                _ => {}
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bson::{doc, Document};

    fn steps(path: &str) -> Vec<Step<'_>> {
        path.split('.').map(|s| if s == "[]" { Step::Element } else { Step::Field(s) }).collect()
    }

    fn order() -> Document {
        doc! {
            "bsonType": "object",
            "required": ["lines", "payment"],
            "properties": {
                "lines": { "bsonType": "array", "items": { "bsonType": "object", "required": ["sku"], "properties": { "sku": { "bsonType": "string" } }, "additionalProperties": false } },
                "scores": { "bsonType": "object", "additionalProperties": { "bsonType": "int" } },
                "payment": { "anyOf": [
                    { "bsonType": "object", "properties": { "card": { "bsonType": "string" } } },
                    { "bsonType": "object", "properties": { "iban": { "bsonType": "string" } } },
                ] },
                "pair": { "bsonType": "array", "items": [{ "bsonType": "int" }, { "bsonType": "string" }] },
                "loose": { "bsonType": "object" },
                "patterned": { "bsonType": "object", "properties": {}, "patternProperties": { "^x": {} } },
            },
        }
    }

    #[test]
    fn a_field_is_declared_a_map_value_refused_patterned_undeclared_or_open() {
        let schema = order();
        let view = SchemaView::new(&schema);
        assert!(matches!(view.field("lines"), Field::Declared(_)));
        assert!(matches!(view.field("nope"), Field::Undeclared));
        assert!(matches!(view.property("scores").unwrap().field("math"), Field::Map(_)));
        let line = view.reach(steps("lines.[]")).schemas[0];
        assert_eq!(line.field("qty"), Field::Refused);
        assert_eq!(view.property("patterned").unwrap().field("xy"), Field::Patterned);
        assert_eq!(view.property("loose").unwrap().field("any"), Field::Open);
    }

    #[test]
    fn resolve_follows_what_the_schema_says_plainly_and_stops_at_branches() {
        let schema = order();
        let view = SchemaView::new(&schema);
        let resolved = |path: &str| view.resolve(steps(path));
        match resolved("lines.[].sku") {
            Resolved::Known(sku, required) => assert!(sku.bson_type() == Some(vec!["string"]) && required),
            other => panic!("{other:?}"),
        }
        assert!(matches!(resolved("lines"), Resolved::Known(_, true)));
        assert!(matches!(resolved("lines.[]"), Resolved::Known(_, false)), "an element is never required");
        assert!(matches!(resolved("scores.math"), Resolved::Known(s, false) if s.bson_type() == Some(vec!["int"])));
        assert_eq!(resolved("lines.[].qty"), Resolved::Unknown(2, vec!["sku"]));
        assert_eq!(
            resolved("nope.deeper"),
            Resolved::Unknown(0, vec!["lines", "scores", "payment", "pair", "loose", "patterned"])
        );
        // a combinator, a tuple, patternProperties, no properties: anything goes
        for open in ["payment", "payment.card", "pair.[]", "patterned.xy", "loose.any.thing"] {
            assert_eq!(resolved(open), Resolved::Open, "{open}");
        }
    }

    #[test]
    fn reach_follows_every_branch_map_and_tuple() {
        let schema = order();
        let view = SchemaView::new(&schema);
        let reach = |path: &str| view.reach(steps(path));
        let types = |r: Reach<'_>| -> Vec<Vec<String>> {
            r.schemas
                .iter()
                .map(|s| s.bson_type().unwrap_or_default().into_iter().map(str::to_owned).collect())
                .collect()
        };
        assert_eq!(types(reach("payment.card")), [vec!["string"]]);
        assert_eq!(types(reach("payment")), [Vec::<String>::new()]);
        assert_eq!(types(reach("pair.[]")), [vec!["int"], vec!["string"]]);
        assert!(reach("scores.math").in_map && !reach("lines").in_map);
        assert!(reach("nope").undeclared && reach("nope").schemas.is_empty());
        assert!(reach("lines.[].qty").undeclared);
        // declared by one branch: not undeclared; declared by none of them: undeclared
        assert!(!reach("payment.iban").undeclared && reach("payment.bic").undeclared);
        // a schema that declares no fields says nothing of a name
        assert!(!reach("loose.any").undeclared);
    }

    #[test]
    fn schema_paths_lead_to_the_subschemas_that_list_them() {
        let schema = order();
        let view = SchemaView::new(&schema);
        assert_eq!(view.at(""), Some(view));
        let card = view.at("properties.payment.anyOf.0.properties.card").unwrap();
        assert_eq!(card.bson_type(), Some(vec!["string"]));
        assert_eq!(view.at("properties.pair.items.1").and_then(|s| s.bson_type()), Some(vec!["string"]));
        assert_eq!(view.at("properties.payment.anyOf.2"), None);
        assert_eq!(view.at("properties.payment.anyOf.x"), None);
        assert_eq!(view.at("required"), None);
        let children: Vec<(String, Option<&str>)> =
            view.property("payment").unwrap().subschemas().into_iter().map(|s| (s.path, s.property)).collect();
        assert_eq!(children, [("anyOf.0".to_owned(), None), ("anyOf.1".to_owned(), None)]);
        let top: Vec<Option<&str>> = view.subschemas().into_iter().map(|s| s.property).collect();
        assert_eq!(top.len(), 6);
        assert!(top.iter().all(Option::is_some));
    }

    /// Schemas of every shape the readers follow, a few levels deep.
    fn schemas() -> impl proptest::strategy::Strategy<Value = Document> {
        use proptest::prelude::*;
        let leaf = prop_oneof![
            Just(doc! { "bsonType": "string" }),
            Just(doc! { "bsonType": "int", "maximum": 5 }),
            Just(doc! {}),
            Just(doc! { "enum": [1, 2] }),
        ];
        leaf.prop_recursive(4, 32, 4, |inner| {
            let name = prop::sample::select(vec!["a", "b", "c"]);
            prop_oneof![
                prop::collection::vec((name, inner.clone()), 0..4).prop_map(|fields| {
                    let properties: Document =
                        fields.into_iter().map(|(k, v)| (k.to_owned(), Bson::Document(v))).collect();
                    doc! { "bsonType": "object", "properties": properties }
                }),
                inner.clone().prop_map(|items| doc! { "bsonType": "array", "items": items }),
                prop::collection::vec(inner.clone(), 1..3)
                    .prop_map(|items| doc! { "bsonType": "array", "items": items }),
                inner.clone().prop_map(|map| doc! { "bsonType": "object", "additionalProperties": map }),
                inner.clone().prop_map(|not| doc! { "not": not }),
                (prop::sample::select(vec!["anyOf", "oneOf", "allOf"]), prop::collection::vec(inner, 1..3))
                    .prop_map(|(key, branches)| doc! { key: branches }),
            ]
        })
    }

    /// Every subschema, with its schema path from the root, depth first.
    fn every_subschema<'a>(view: SchemaView<'a>, path: &str, out: &mut Vec<(String, SchemaView<'a>)>) {
        for sub in view.subschemas() {
            let at = if path.is_empty() { sub.path.clone() } else { format!("{path}.{}", sub.path) };
            out.push((at.clone(), sub.schema));
            every_subschema(sub.schema, &at, out);
        }
    }

    /// The document path of a schema path made of `properties.<name>` and `items` (one
    /// schema) only, with the schema paths of the subschemas it passes; `None` for others.
    fn document_path(path: &str) -> Option<(Vec<Step<'_>>, Vec<String>)> {
        let segments: Vec<&str> = path.split('.').collect();
        let (mut steps, mut passed, mut i) = (Vec::new(), Vec::new(), 0);
        while i < segments.len() {
            match (segments[i], segments.get(i + 1)) {
                ("properties", Some(name)) => {
                    steps.push(Step::Field(name));
                    i += 2;
                }
                ("items", next) if next.is_none_or(|n| n.parse::<usize>().is_err()) => {
                    steps.push(Step::Element);
                    i += 1;
                }
                _ => return None,
            }
            passed.push(segments[..i].join("."));
        }
        Some((steps, passed))
    }

    proptest::proptest! {
        /// `at` finds each subschema where `subschemas` says it is. Along a document path of
        /// fields and items, `resolve` finds that subschema unless a combinator or `not` is on
        /// the way (then it answers `Open`), and `reach` meets it whatever is on the way.
        #[test]
        fn schema_paths_and_document_paths_agree(schema in schemas()) {
            let view = SchemaView::new(&schema);
            let mut all = Vec::new();
            every_subschema(view, "", &mut all);
            for (path, sub) in &all {
                proptest::prop_assert_eq!(view.at(path), Some(*sub), "{}", path);
                let Some((steps, passed)) = document_path(path) else { continue };
                let branching = passed.iter().any(|p| view.at(p).is_some_and(|s| s.is_combined() || s.has("not")));
                let resolved = view.resolve(steps.iter().copied());
                if branching {
                    proptest::prop_assert_eq!(resolved, Resolved::Open, "{}", path);
                } else {
                    proptest::prop_assert!(matches!(resolved, Resolved::Known(found, _) if found == *sub), "{}", path);
                }
                proptest::prop_assert!(view.reach(steps.iter().copied()).schemas.contains(sub), "{}", path);
            }
        }
    }
}
