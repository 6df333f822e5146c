use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, MongoSchema)]
#[mongo(db = "UserCenter", collection = "t_user_account")]
struct UserAccount {
    #[serde(rename = "_id")]
    id: bson::oid::ObjectId,
}

fn main() {}
