use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

type MaybeName = Option<String>;

fn no_tags(tags: &Option<Vec<String>>) -> bool {
    tags.as_ref().is_none_or(Vec::is_empty)
}

#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
struct Profile {
    /// Not an `Option`: serde cannot read null into a `String`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    #[mongo(nullable, max_length = 20)]
    nick_name: String,
    /// An alias of an `Option`: the derive reads the type as written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[mongo(nullable, max_length = 20)]
    middle_name: MaybeName,
    /// Written as null already, and required.
    #[mongo(nullable, max_length = 40)]
    city: Option<String>,
    /// Another predicate: `None` is written as null.
    #[serde(default, skip_serializing_if = "no_tags")]
    #[mongo(nullable, max_items = 3)]
    tags: Option<Vec<String>>,
    /// Read by a helper, without `default`: a document without it fails to read.
    #[serde(with = "mongo_schema::serde_helpers::decimal128_option", skip_serializing_if = "Option::is_none")]
    #[mongo(nullable)]
    tip_amount: Option<rust_decimal::Decimal>,
    /// Passes: may be missing, null or a string.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[mongo(nullable, max_length = 20)]
    title: Option<String>,
}

#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(tag = "kind")]
enum Contact {
    /// On a variant: a field's attribute.
    #[mongo(nullable)]
    Phone { number: String },
}

fn main() {}
