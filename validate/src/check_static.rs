//! The static update lint for a derived type.

use crate::{lint_update, lint_upsert, Finding};
use mongo_schema_core::bson::Document;

use mongo_schema_core::schema::MongoSchema;

/// What `update` can do wrong to some document of `T`, found without a document
/// ([`lint_update`] over `T::json_schema()`): paths that name no field of `T`, values that
/// break a field's rules, `$inc`/`$mul` results of a type the field refuses, a `$push`
/// without `$slice` on an array with `max_items`, `$unset` or `$rename` of a required field,
/// and updates mongod refuses whatever the document.
///
/// Call it in your tests over every update your code builds, and assert that it finds
/// nothing:
///
/// ```
/// use mongo_schema::{bson::doc, check_update_static, validate::FindingKind, MongoSchema};
/// use serde::{Deserialize, Serialize};
///
/// #[derive(Serialize, Deserialize, MongoSchema)]
/// #[serde(rename_all = "camelCase")]
/// struct Post {
///     title: String,
///     #[mongo(max_items = 20)]
///     comments: Vec<String>,
/// }
///
/// // the update the application sends
/// fn add_comment(text: &str) -> mongo_schema::bson::Document {
///     doc! { "$push": { "comments": { "$each": [text], "$slice": -20 } } }
/// }
///
/// assert_eq!(check_update_static::<Post>(&add_comment("nice")), []);
///
/// let findings = check_update_static::<Post>(&doc! { "$push": { "coments": "nice" } });
/// assert_eq!((findings[0].path.as_str(), findings[0].kind), ("coments", FindingKind::UnknownPath));
/// assert!(findings[0].message.contains("did you mean `comments`?")); // for people
/// ```
pub fn check_update_static<T: MongoSchema + ?Sized>(update: &Document) -> Vec<Finding> {
    lint_update(&T::json_schema(), update)
}

/// [`check_update_static`] for an upsert with `filter`: also what the document an upsert
/// inserts lacks (a required field neither the filter's equalities nor the update set:
/// mongod refuses that insert with 121). See [`lint_upsert`].
///
/// ```
/// use mongo_schema::{bson::doc, check_upsert_static, validate::FindingKind, MongoSchema};
/// use serde::{Deserialize, Serialize};
///
/// #[derive(Serialize, Deserialize, MongoSchema)]
/// #[serde(rename_all = "camelCase")]
/// struct Counter {
///     page: String,
///     hits: i64,
///     #[mongo(max_length = 40)]
///     owner: String,
/// }
///
/// let bump = doc! { "$inc": { "hits": 1 } };
/// let findings = check_upsert_static::<Counter>(&doc! { "page": "/" }, &bump);
/// assert_eq!(findings[0].kind, FindingKind::UpsertMissing, "{}", findings[0]);
/// assert!(findings[0].message.contains("without `owner`"), "{}", findings[0]);
/// let complete = doc! { "$inc": { "hits": 1 }, "$setOnInsert": { "owner": "ops" } };
/// assert_eq!(check_upsert_static::<Counter>(&doc! { "page": "/" }, &complete), []);
/// ```
pub fn check_upsert_static<T: MongoSchema + ?Sized>(filter: &Document, update: &Document) -> Vec<Finding> {
    lint_upsert(&T::json_schema(), filter, update)
}
