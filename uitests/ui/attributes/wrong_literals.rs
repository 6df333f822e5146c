use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, MongoSchema)]
#[mongo(max_depth = "3")]
#[mongo(field_case = "PascalCase")]
struct User {
    #[mongo(max_length = "50")]
    name: String,
    #[mongo(money = 1)]
    fee: bson::Decimal128,
}

fn main() {}
