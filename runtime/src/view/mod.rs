//! A typed view of a `$jsonSchema` document: the one reader of schemas outside the
//! validator's compiler. The update lint, `schema check`'s fixes, `schema review`, the
//! migrations' tightening check, the validator's field notes and `schema print` read a
//! schema through it, so a keyword means the same to each: its subschemas (`properties`,
//! `items`, `additionalProperties`, the branches of `anyOf` / `oneOf` / `allOf`), its types
//! (`bsonType`, `type`), its bounds read exactly whatever their BSON type ([`Number`]: int32,
//! int64, double and Decimal128 on mongod's one number line), `required`, `enum`.
//!
//! Paths come in two kinds, named apart: a **document path** (`address.zip`, with array
//! elements as [`Step::Element`]) is followed either to the one subschema the schema plainly
//! gives it ([`SchemaView::resolve`], which stops at a combinator) or to every subschema it
//! may meet through the branches ([`SchemaView::reach`]); a **schema path**
//! (`properties.address.anyOf.0`, as the validator's reports name a rule) is followed by
//! [`SchemaView::at`], and [`SchemaView::subschemas`] lists a schema's children with theirs.
//!
//! It needs no feature: derive-only builds compile it (it reads what they write), and the
//! validator, compiled with the `validator` feature, reads its numbers with the same reader.
//!
//! ```
//! use mongo_schema::bson::doc;
//! use mongo_schema::view::{SchemaView, Step};
//!
//! let schema = doc! {
//!     "bsonType": "object",
//!     "required": ["tags"],
//!     "properties": { "tags": { "bsonType": "array", "maxItems": 10.0, "items": { "bsonType": "string" } } },
//! };
//! let view = SchemaView::new(&schema);
//! let tags = view.property("tags").unwrap();
//! assert_eq!(tags.max_items(), Some(10));
//! assert_eq!(view.reach([Step::Field("tags"), Step::Element]).schemas[0].bson_type(), Some(vec!["string"]));
//! ```

mod node;
pub(crate) mod number;
mod size;
mod walk;

pub use node::{expand_aliases, Additional, Combinator, Items, Properties, SchemaView};
pub use number::Number;
pub use size::{Unbounded, Unbounds};
pub use walk::{Field, Reach, Resolved, Step, Subschema};
