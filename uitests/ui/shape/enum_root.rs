use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "lowercase")]
#[mongo(db = "db_shop", collection = "t_shop_state")]
enum ShopState {
    Open,
    Closed,
}

fn main() {}
