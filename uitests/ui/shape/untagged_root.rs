use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

// untagged: serde writes whatever the variant writes, here a bare string for `Closed`;
// an internally or adjacently tagged enum can be a root
#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(untagged)]
#[mongo(db = "db_shop", collection = "t_shop_event")]
enum ShopEvent {
    Opened { by_user: String },
    Closed(String),
}

fn main() {}
