use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, MongoSchema)]
struct Rate {
    #[mongo(allow(money_dbl, reason = "typo in the rule id"))]
    fee: f64,
}

fn main() {}
