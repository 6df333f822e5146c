// Generated from the `#[mongo(...)]` grammar's table (macros/src/attr/grammar.rs) by
// `UPDATE_UI_CASES=1 cargo test -p mongo-schema-macros`: one malformed value per key, each
// in an attribute of its own so that one build reports every one. Do not edit.

use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, MongoSchema)]
#[mongo(db = "db_ui", collection = "t_cases")]
#[mongo(db = db_user_center)]
#[mongo(collection = t_users)]
#[mongo(crate = my_facade::mongo_schema)]
#[mongo(validation_level = moderate)]
#[mongo(validation_action = Warn)]
#[mongo(max_depth = "3")]
#[mongo(field_case = snake_case)]
#[mongo(max_items_limit = "100")]
#[mongo(timeseries = "timestamp")]
#[mongo(index = "userId_1")]
#[mongo(shard_key(email))]
#[mongo(capped = 1048576)]
#[mongo(collation = r#"{"locale": "en", "strength": 2}"#)]
#[mongo(clustered = "_id")]
#[mongo(allow = "field_name")]
#[mongo(timeseries(time_field = timestamp))]
#[mongo(timeseries(time_field = "timestamp", meta_field = device_id))]
#[mongo(timeseries(time_field = "timestamp", granularity = minutes))]
#[mongo(timeseries(time_field = "timestamp", expire_after_seconds = "1d"))]
#[mongo(collation(locale = en))]
#[mongo(collation(locale = "en", strength = "2"))]
#[mongo(collation(locale = "en", case_level = "yes"))]
#[mongo(collation(locale = "en", case_first = upper))]
#[mongo(collation(locale = "en", numeric_ordering = 1))]
#[mongo(collation(locale = "en", alternate = shifted))]
#[mongo(collation(locale = "en", max_variable = punct))]
#[mongo(collation(locale = "en", normalization = "true"))]
#[mongo(collation(locale = "fr_CA", backwards = 1))]
#[mongo(capped(size = "1MB"))]
#[mongo(capped(size = 1048576, max = "1000"))]
#[mongo(clustered(expire_after_seconds = "1d"))]
struct Cases {
    name: String,
}

fn main() {}
