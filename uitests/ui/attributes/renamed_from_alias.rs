use mongo_schema::bson::oid::ObjectId;
use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(db = "db_billing", collection = "t_plan")]
struct Plan {
    #[serde(rename = "_id")]
    id: ObjectId,
    /// No alias: this release could not read the documents the previous one writes.
    #[mongo(minimum = 1, renamed_from = "maxSeats")]
    seat_limit: i32,
    /// An alias, but of another key.
    #[serde(alias = "owner_name")]
    #[mongo(renamed_from = "ownerName")]
    holder_name: String,
    /// Passes: serde reads the old key too.
    #[serde(alias = "planTitle")]
    #[mongo(max_length = 40, renamed_from = "planTitle")]
    plan_name: String,
}

fn main() {}
