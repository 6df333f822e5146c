use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

// adjacently tagged: `{type: "...", data: ...}`, the variant's fields one level down;
// an internally tagged enum (`tag` without `content`) can be a root
#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(tag = "type", content = "data", rename_all = "snake_case")]
#[mongo(db = "db_shop", collection = "t_shop_event")]
enum ShopEvent {
    Opened { by_user: String },
    Closed,
}

fn main() {}
