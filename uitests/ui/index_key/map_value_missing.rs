use bson::oid::ObjectId;
use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
struct Price {
    amount_cents: i64,
}

/// `prices.<currency>.amount` is checked through the map's values, `Price`, which writes
/// `amountCents`: the key between is any currency.
#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(db = "db_shop", collection = "t_product", index(keys("prices.eur.amount" = 1)))]
struct Product {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[mongo(max_properties = 20)]
    prices: HashMap<String, Price>,
}

fn main() {}
