use mongo_schema::bson::oid::ObjectId;
use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

/// Embedded: migrations rename only a collection root's own fields.
#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
struct Seats {
    #[mongo(renamed_from = "max")]
    seat_limit: i32,
}

#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(db = "db_billing", collection = "t_plan")]
struct Plan {
    #[serde(rename = "_id")]
    id: ObjectId,
    /// The same key as now: nothing to rename.
    #[mongo(renamed_from = "planName")]
    plan_name: String,
    /// The key of another field of the model.
    #[mongo(renamed_from = "planName")]
    title: String,
    /// Not a top-level key.
    #[mongo(renamed_from = "limits.seats")]
    seat_limit: i32,
    /// Two fields from one old key.
    #[serde(alias = "owner")]
    #[mongo(renamed_from = "owner")]
    owner_id: ObjectId,
    #[mongo(renamed_from = "owner")]
    owner_name: String,
    seats: Seats,
}

fn main() {}
