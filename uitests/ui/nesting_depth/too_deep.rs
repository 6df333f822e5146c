use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

/// The standard's "excessively deep" example: six levels.
#[derive(Serialize, Deserialize, MongoSchema)]
struct Config {
    level1: Level1,
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
    level5: Level5,
}
#[derive(Serialize, Deserialize, MongoSchema)]
struct Level5 {
    #[mongo(max_length = 100)]
    data: String,
}

fn main() {}
