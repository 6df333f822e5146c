use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, MongoSchema)]
struct Wallet {
    /// Not named like money, but it is.
    #[mongo(money)]
    credits: f64,
}

fn main() {}
