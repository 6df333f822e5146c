//! A service that knows mongo-schema only as `facade::schema`.
use facade::schema::bson::oid::ObjectId;
use facade::schema::MongoSchema;
use serde::{Deserialize, Serialize};

/// A ticket of the help desk.
#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(crate = "facade::schema", db = "db_desk", collection = "t_ticket")]
pub struct Ticket {
    #[serde(rename = "_id")]
    pub id: ObjectId,
    #[mongo(max_length = 120)]
    pub subject: String,
    pub author: Author,
}

/// Embedded: the same attribute.
#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(crate = "facade::schema")]
pub struct Author {
    #[mongo(max_length = 60)]
    pub user_name: String,
}
