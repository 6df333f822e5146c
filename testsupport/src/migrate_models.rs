//! Successive versions of two models, as a team would edit them, for the migration tests.

use mongo_schema::migrate::apply::{apply_with, ApplyError, ApplyOptions, Outcome};
use mongo_schema::migrate::file::MigrationFile;
use mongo_schema::migrate::server::Server;
use mongo_schema::migrate::Model;

/// `apply` with the contract phase too: every step of every migration, as once the previous
/// release no longer writes.
pub fn apply_all(server: &mut dyn Server, files: &[MigrationFile], state_db: &str) -> Result<Vec<Outcome>, ApplyError> {
    apply_with(server, files, &ApplyOptions { contract: true, ..ApplyOptions::new(state_db) }, &mut |_| {})
}

pub mod v1 {
    use mongo_schema::bson::{oid::ObjectId, DateTime};
    use mongo_schema::MongoSchema;
    use serde::{Deserialize, Serialize};

    /// Shop customers.
    #[derive(Serialize, Deserialize, MongoSchema)]
    #[serde(rename_all = "camelCase")]
    #[mongo(db = "db_shop", collection = "t_user")]
    pub struct User {
        #[serde(rename = "_id")]
        pub id: ObjectId,
        /// Display name
        #[mongo(min_length = 2, max_length = 50)]
        pub user_name: String,
        pub status: UserStatus,
    }

    #[derive(Serialize, Deserialize, MongoSchema)]
    #[serde(rename_all = "lowercase")]
    pub enum UserStatus {
        Active,
        Closed,
    }

    /// Orders.
    #[derive(Serialize, Deserialize, MongoSchema)]
    #[serde(rename_all = "camelCase")]
    #[mongo(db = "db_shop", collection = "t_order")]
    pub struct Order {
        #[serde(rename = "_id")]
        pub id: ObjectId,
        #[mongo(max_length = 32)]
        pub order_no: String,
        pub create_time: DateTime,
    }
}

/// v1 loosened: a longer name, a new optional field, one more status.
pub mod v2 {
    use mongo_schema::bson::oid::ObjectId;
    use mongo_schema::MongoSchema;
    use serde::{Deserialize, Serialize};

    /// Shop customers.
    #[derive(Serialize, Deserialize, MongoSchema)]
    #[serde(rename_all = "camelCase")]
    #[mongo(db = "db_shop", collection = "t_user")]
    pub struct User {
        #[serde(rename = "_id")]
        pub id: ObjectId,
        /// Display name
        #[mongo(min_length = 2, max_length = 80)]
        pub user_name: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub nick_name: Option<String>,
        pub status: UserStatus,
    }

    #[derive(Serialize, Deserialize, MongoSchema)]
    #[serde(rename_all = "lowercase")]
    pub enum UserStatus {
        Active,
        Suspended,
        Closed,
    }
}

/// v2 tightened: a new required field with a pattern.
pub mod v3 {
    use super::v2::UserStatus;
    use mongo_schema::bson::oid::ObjectId;
    use mongo_schema::MongoSchema;
    use serde::{Deserialize, Serialize};

    /// Shop customers.
    #[derive(Serialize, Deserialize, MongoSchema)]
    #[serde(rename_all = "camelCase")]
    #[mongo(db = "db_shop", collection = "t_user")]
    pub struct User {
        #[serde(rename = "_id")]
        pub id: ObjectId,
        /// Display name
        #[mongo(min_length = 2, max_length = 80)]
        pub user_name: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub nick_name: Option<String>,
        /// Contact email
        #[mongo(pattern = r"^[^@\s]+@[^@\s]+$")]
        pub email: String,
        pub status: UserStatus,
    }
}

pub fn v1() -> Vec<Model> {
    vec![Model::of::<v1::Order>("app::Order"), Model::of::<v1::User>("app::User")]
}

pub fn v2() -> Vec<Model> {
    vec![Model::of::<v1::Order>("app::Order"), Model::of::<v2::User>("app::User")]
}

pub fn v3() -> Vec<Model> {
    vec![Model::of::<v1::Order>("app::Order"), Model::of::<v3::User>("app::User")]
}

/// v3 without the orders model.
pub fn v3_without_orders() -> Vec<Model> {
    vec![Model::of::<v3::User>("app::User")]
}
