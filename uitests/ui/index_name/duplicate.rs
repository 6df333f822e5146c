use bson::DateTime;
use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(db = "db_order", collection = "t_order", index(keys(userId = 1), name = "ix_user"), index(keys(createTime = -1), name = "ix_user"))]
struct Order {
    user_id: i64,
    create_time: DateTime,
}

fn main() {}
