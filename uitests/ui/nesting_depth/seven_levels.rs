use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

// Seven levels: one error, where the limit of 5 is crossed (at `Level1::level2`, through
// which a `Level1` nests 6 levels), not a second one at every enclosing type.
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
    level6: Level6,
}
#[derive(Serialize, Deserialize, MongoSchema)]
struct Level6 {
    #[mongo(max_length = 100)]
    data: String,
}

fn main() {}
