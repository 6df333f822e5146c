use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, MongoSchema)]
struct Rate {
    #[mongo(allow(money_double, reason = "  "))]
    fee: f64,
}

fn main() {}
