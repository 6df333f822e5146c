use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, MongoSchema)]
#[mongo(db = "db.user.center", collection = "t_user_account", allow(db_name, reason = "cannot waive MongoDB's forbidden characters"))]
struct UserAccount {
    #[serde(rename = "_id")]
    id: bson::oid::ObjectId,
}

fn main() {}
