// Drafted by `schema infer` from the data: the target shape of each collection, what the
// modelling rules want, chosen from what the documents hold. Review every type, waiver and
// bound before adopting it (docs/INFER.md); `schema check` with these models lists the
// documents that must change.
#![allow(dead_code)]

use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

/// `db_edge.Self`: 60 documents read.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, MongoSchema)]
#[mongo(db = "db_edge", collection = "Self", allow(collection_name, reason = "the deployed names, kept as they are: renaming a database or collection is a move, not a model change"))]
pub struct Self2 {
    /// 60 of 60: objectId 100%.
    #[serde(rename = "_id")]
    pub id: mongo_schema::bson::oid::ObjectId,
    /// 60 of 60: string 100%.
    pub word: String,
    /// 60 of 60: int32 100%.
    #[mongo(allow(numeric_status, reason = "stored as numbers; a string enum needs a data migration"))]
    pub status: i32,
    /// 60 of 60: null 100%.
    pub nothing: Option<mongo_schema::bson::Bson>,
    /// 60 of 60: array 100%.
    #[mongo(max_items = 1)]
    pub empty: Vec<mongo_schema::bson::Bson>,
    /// 60 of 60: array 100%.
    #[mongo(max_items = 5)]
    pub mixed: Vec<f64>,
    /// 60 of 60: object 100%.
    pub deep: Self2Deep,
    /// 60 of 60: object 100%.
    #[mongo(max_properties = 200)]
    pub wide: std::collections::BTreeMap<String, i32>,
    /// 60 of 60: string 50%, int32 50%.
    pub when: String,
    /// 60 of 60: string 100%.
    pub league: Self2League,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, MongoSchema)]
#[mongo(allow(field_name, reason = "the keys as deployed; renaming them is a data migration (renamed_from)"))]
pub struct Self2DeepL6L5L4 {
    /// 60 of 60: object 100%.
    pub l3: mongo_schema::bson::Bson,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, MongoSchema)]
#[mongo(allow(field_name, reason = "the keys as deployed; renaming them is a data migration (renamed_from)"))]
pub struct Self2DeepL6L5 {
    /// 60 of 60: object 100%.
    pub l4: Self2DeepL6L5L4,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, MongoSchema)]
#[mongo(allow(field_name, reason = "the keys as deployed; renaming them is a data migration (renamed_from)"))]
pub struct Self2DeepL6 {
    /// 60 of 60: object 100%.
    pub l5: Self2DeepL6L5,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, MongoSchema)]
#[mongo(allow(field_name, reason = "the keys as deployed; renaming them is a data migration (renamed_from)"))]
pub struct Self2Deep {
    /// 60 of 60: object 100%.
    pub l6: Self2DeepL6,
}

/// The values of `league`: "Eredivisie" 12, "Ærøskøbing" 12, "Österreichische Bundesliga" 12, "Łódź" 12, "東京" 12.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, MongoSchema)]
pub enum Self2League {
    #[serde(rename = "Eredivisie")]
    Eredivisie,
    #[serde(rename = "Ærøskøbing")]
    Aeroskobing,
    #[serde(rename = "Österreichische Bundesliga")]
    OsterreichischeBundesliga,
    #[serde(rename = "Łódź")]
    Lodz,
    #[serde(rename = "東京")]
    U6771u4eac,
}

/// `db_edge.t_`: 30 documents read.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, MongoSchema)]
#[serde(tag = "kind")]
#[mongo(db = "db_edge", collection = "t_", allow(collection_name, reason = "the deployed names, kept as they are: renaming a database or collection is a move, not a model change"), allow(field_name, reason = "the keys as deployed; renaming them is a data migration (renamed_from)"))]
pub enum Document {
    /// `kind: "1"`: 10 documents, with one.
    #[serde(rename = "1")]
    V1 {
        /// 30 of 30: uuid 100%.
        #[serde(rename = "_id", with = "mongo_schema::serde_helpers::uuid_binary")]
        #[mongo(allow(random_id, reason = "the deployed `_id`s; changing them rewrites every document"))]
        id: uuid::Uuid,
        /// 30 of 30: int32 100%.
        #[serde(rename = "self")]
        self_: i32,
        /// 10 of 10: int32 100%.
        one: i32,
    },
    /// `kind: "a b"`: 10 documents, with ab, type.
    #[serde(rename = "a b")]
    AB {
        /// 30 of 30: uuid 100%.
        #[serde(rename = "_id", with = "mongo_schema::serde_helpers::uuid_binary")]
        #[mongo(allow(random_id, reason = "the deployed `_id`s; changing them rewrites every document"))]
        id: uuid::Uuid,
        /// 30 of 30: int32 100%.
        #[serde(rename = "self")]
        self_: i32,
        /// 10 of 10: string 100%.
        ab: String,
        /// 10 of 10: string 100%.
        /// Every string read is "inner": a String, not an enum of one variant.
        #[serde(rename = "type")]
        type_: String,
    },
    /// `kind: "self"`: 10 documents.
    #[serde(rename = "self")]
    VSelf {
        /// 30 of 30: uuid 100%.
        #[serde(rename = "_id", with = "mongo_schema::serde_helpers::uuid_binary")]
        #[mongo(allow(random_id, reason = "the deployed `_id`s; changing them rewrites every document"))]
        id: uuid::Uuid,
        /// 30 of 30: int32 100%.
        #[serde(rename = "self")]
        self_: i32,
    },
}

/// `db_edge.t_keys`: 40 documents read.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, MongoSchema)]
#[mongo(db = "db_edge", collection = "t_keys", allow(field_name, reason = "the keys as deployed; renaming them is a data migration (renamed_from)"))]
pub struct Keys {
    /// 40 of 40: string 50%, int64 50%.
    #[serde(rename = "_id")]
    #[mongo(allow(random_id, reason = "the deployed `_id`s; changing them rewrites every document"))]
    pub id: String,
    /// 40 of 40: string 100%.
    /// Every string read is "t": a String, not an enum of one variant.
    #[serde(rename = "type")]
    pub type_: String,
    /// 40 of 40: int32 100%.
    #[serde(rename = "self")]
    pub self_: i32,
    /// 40 of 40: bool 100%.
    #[serde(rename = "fn")]
    pub fn_: bool,
    /// 40 of 40: int32 100%.
    #[serde(rename = "gen")]
    pub gen_: i32,
    /// 40 of 40: int32 100%.
    #[serde(rename = "yield")]
    pub yield_: i32,
    /// 40 of 40: int32 100%.
    #[serde(rename = "box")]
    pub box_: i32,
    /// 40 of 40: int32 100%.
    #[serde(rename = "Self")]
    pub self_2: i32,
    /// 40 of 40: string 100%.
    /// Every string read is "n": a String, not an enum of one variant.
    #[serde(rename = "naïve")]
    pub naive: String,
    /// 40 of 40: int32 100%.
    #[serde(rename = "with space")]
    pub with_space: i32,
    /// 40 of 40: int32 100%.
    #[serde(rename = "line\nbreak")]
    pub line_break: i32,
    /// 40 of 40: bool 100%.
    #[serde(rename = "2fa")]
    pub f_2fa: bool,
    /// 40 of 40: int32 100%.
    #[serde(rename = "___")]
    pub field: i32,
    /// 40 of 40: int32 100%.
    #[serde(rename = "fooBar")]
    pub foo_bar: i32,
    /// 40 of 40: int32 100%.
    #[serde(rename = "foo_bar")]
    pub foo_bar_2: i32,
    /// 40 of 40: int32 100%.
    #[serde(rename = "a-b")]
    pub a_b: i32,
    /// 40 of 40: int32 100%.
    pub x: i32,
    /// 14 of 40: null 100%.
    /// Missing in some documents and null in others: both admitted (`nullable`), both read as `None`.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[mongo(nullable)]
    pub sometimes: Option<mongo_schema::bson::Bson>,
}

/// `db_edge.t_wide`: 150 documents read.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, MongoSchema)]
#[mongo(db = "db_edge", collection = "t_wide")]
pub struct Wide {
    /// 150 of 150: objectId 100%.
    #[serde(rename = "_id")]
    pub id: mongo_schema::bson::oid::ObjectId,
    /// The other keys: more than 256 distinct keys (int32 100%).
    #[serde(flatten)]
    pub entries: std::collections::BTreeMap<String, i32>,
}
