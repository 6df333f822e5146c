//! A derived type's validator, with each subschema annotated with the Rust type and field
//! that produced it, so a violation says `Address::city` beside `address.city`.

use mongo_schema_core::bson::Document;

use crate::{join, SchemaError, Validator};
use mongo_schema_core::schema::{FieldFacts, MongoSchema};
use mongo_schema_core::view::SchemaView;

impl Validator {
    /// The validator of `T::json_schema()`, each violation carrying in
    /// [`Violation::note`](crate::Violation::note) the Rust field behind its
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
        Validator::annotated(&T::json_schema(), T::NAME, T::FIELDS)
    }

    /// The validator of `schema`, the `$jsonSchema` of the type `name` whose fields are
    /// `fields` (`MongoSchema::NAME` and `MongoSchema::FIELDS`), annotated as by
    /// [`Validator::for_type`].
    #[doc(hidden)]
    pub fn annotated(
        schema: &Document,
        name: &'static str,
        fields: Option<&'static [FieldFacts]>,
    ) -> Result<Validator, SchemaError> {
        let mut validator = Validator::new(schema)?;
        annotate(&mut validator, SchemaView::new(schema), "", &Site { owner: name, fields }, name);
        Ok(validator)
    }
}

/// The struct whose fields a subschema's `properties` are.
struct Site {
    owner: &'static str,
    fields: Option<&'static [FieldFacts]>,
}

/// Notes `schema` (at `path`) with `note`, and its properties with their fields.
fn annotate(validator: &mut Validator, schema: SchemaView<'_>, path: &str, at: &Site, note: &str) {
    if !note.is_empty() {
        validator.annotate(path, note);
    }
    for sub in schema.subschemas() {
        let sub_path = join(path, &sub.path);
        match sub.property {
            Some(name) => match at.fields.and_then(|fields| FieldFacts::written(fields, name.as_bytes(), at.owner)) {
                Some((owner, field)) => {
                    let nested = Site { owner: field.type_name, fields: field.fields };
                    annotate(validator, sub.schema, &sub_path, &nested, &format!("{owner}::{}", field.rust_name()));
                }
                None => annotate(validator, sub.schema, &sub_path, &Site { owner: "", fields: None }, note),
            },
            // the same value seen through a container or a branch: the same field
            None => annotate(validator, sub.schema, &sub_path, at, note),
        }
    }
}
