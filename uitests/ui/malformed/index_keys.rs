// Generated from the `#[mongo(...)]` grammar's table (macros/src/attr/grammar.rs) by
// `UPDATE_UI_CASES=1 cargo test -p mongo-schema-macros`: one malformed value per key, each
// in an attribute of its own so that one build reports every one. Do not edit.

use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, MongoSchema)]
#[mongo(db = "db_ui", collection = "t_cases")]
#[mongo(index(keys = "email"))]
#[mongo(index(keys(email = 1), unique = "yes"))]
#[mongo(index(keys(email = 1), name = ux_email))]
#[mongo(index(keys(createTime = 1), ttl = "1h"))]
#[mongo(index(keys(email = 1), partial = {"status": "active"}))]
#[mongo(index(keys(nickname = 1), sparse = "yes"))]
#[mongo(index(keys(email = 1), hidden = 1))]
#[mongo(index(keys(email = 1), unique, collation = r#"{"locale": "en", "strength": 2}"#))]
#[mongo(index(keys(bio = "text"), weights = r#"{"bio": 3}"#))]
#[mongo(index(keys(bio = "text"), default_language = french))]
#[mongo(index(keys(bio = "text"), language_override = lang))]
#[mongo(index(keys("$**" = 1), wildcard_projection = r#"{"attributes": 1}"#))]
struct Cases {
    name: String,
}

fn main() {}
