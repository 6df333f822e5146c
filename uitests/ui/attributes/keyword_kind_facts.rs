use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

type Sku = String;
type Stock = i32;
type Labels = Vec<String>;
type Counts = Vec<i64>;

/// Where the syntax does not show the kind (an alias, a generic parameter), the field's
/// const check reads it from the type's facts.
#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
struct Product {
    #[mongo(max_length = 20)]
    sku: Sku,
    #[mongo(pattern = "^[0-9]+$")]
    stock_level: Stock,
    #[mongo(max_items = 10, max_length = 30)]
    labels: Labels,
    #[mongo(max_items = 10, items(max_length = 30))]
    counts: Counts,
    #[mongo(items(max_length = 30))]
    stock: Stock,
    #[mongo(max_items = 10, items(enum_values = ["a"]))]
    ranks: Vec<Stock>,
}

/// A generic field: checked when an instance's facts are known.
#[derive(Serialize, Deserialize, MongoSchema)]
struct Labelled<T> {
    #[mongo(max_length = 20)]
    value: T,
}

#[derive(Serialize, Deserialize, MongoSchema)]
struct Order {
    labelled: Labelled<i64>,
}

/// A variant's field is checked through a one-field table.
#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(tag = "type")]
enum Event {
    Renamed {
        #[mongo(minimum = 0)]
        sku: Sku,
    },
}

fn main() {}
