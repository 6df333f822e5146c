use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

mod money {
    pub type Amount = f32;
}

mod reexport {
    pub use crate::money::Amount as Cash;
}

#[derive(Serialize, Deserialize, MongoSchema)]
struct Invoice {
    tax: ::core::primitive::f64,
    fee: money::Amount,
    #[serde(skip_serializing_if = "Option::is_none")]
    balance: Option<reexport::Cash>,
}

fn main() {}
