use mongo_schema::prelude::*;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
struct Address {
    #[mongo(max_length = 60)]
    city_name: String,
}

#[derive(Serialize, Deserialize, MongoSchema)]
#[mongo(db = "db_shop", collection = "t_customer")]
struct Customer {
    #[serde(rename = "_id")]
    id: i64,
    address: Address,
}

/// A field renamed in the model (`city` became `city_name`) is a compile error wherever
/// a query or an update still names it.
fn main() {
    let filter = mongo_schema::bson::doc! { Customer::fields().address().city().as_str(): "Lyon" };
    println!("{filter}");
}
