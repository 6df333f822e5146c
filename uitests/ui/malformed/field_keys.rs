// Generated from the `#[mongo(...)]` grammar's table (macros/src/attr/grammar.rs) by
// `UPDATE_UI_CASES=1 cargo test -p mongo-schema-macros`: one malformed value per key, each
// in an attribute of its own so that one build reports every one. Do not edit.

use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, MongoSchema)]
struct Cases {
    #[mongo(items = 30)]
    #[mongo(money = "yes")]
    #[mongo(date = 1)]
    #[mongo(auto_increment = "yes")]
    #[mongo(nullable = "true")]
    #[mongo(renamed_from = old_name)]
    #[mongo(allow = "money_double")]
    #[mongo(allow(money_double, reason = exchange_rates))]
    #[mongo(bson_type = String)]
    #[mongo(min_length = -1)]
    #[mongo(max_length = "50")]
    #[mongo(pattern = regex("^[a-z]+$"))]
    #[mongo(minimum = "0")]
    #[mongo(maximum = "150")]
    #[mongo(exclusive_minimum = true)]
    #[mongo(exclusive_maximum = true)]
    #[mongo(multiple_of = "0.01")]
    #[mongo(min_items = 1.5)]
    #[mongo(max_items = "20")]
    #[mongo(unique_items = "yes")]
    #[mongo(min_properties = -1)]
    #[mongo(max_properties = "10")]
    #[mongo(enum_values("active", "inactive"))]
    #[mongo(title = User)]
    #[mongo(description("Username"))]
    name: String,
}

fn main() {}
