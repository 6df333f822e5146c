use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, MongoSchema)]
struct Rate {
    #[mongo(allow(money_double))]
    fee: f64,
}

fn main() {}
