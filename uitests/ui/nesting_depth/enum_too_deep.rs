use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

// An enum's variants nest too: externally tagged, `{"Deep": {"inner": ...}}` adds two
// levels above `Level1`'s four.
#[derive(Serialize, Deserialize, MongoSchema)]
enum Payload {
    Deep { inner: Level1 },
    Flat,
}
#[derive(Serialize, Deserialize, MongoSchema)]
struct Level1 {
    level2: Level2,
}
#[derive(Serialize, Deserialize, MongoSchema)]
struct Level2 {
    level3: Level3,
}
#[derive(Serialize, Deserialize, MongoSchema)]
struct Level3 {
    level4: Level4,
}
#[derive(Serialize, Deserialize, MongoSchema)]
struct Level4 {
    #[mongo(max_length = 10)]
    data: String,
}

fn main() {}
