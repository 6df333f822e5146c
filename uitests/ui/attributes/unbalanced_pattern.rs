use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

/// Every PCRE refuses a group that is never closed; valid PCRE (`(?>a)`, `\Q(\E`) is not.
#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
struct Sku {
    #[mongo(max_length = 16, pattern = r"^(?>[A-Z]+\Q(\E-(\d+$")]
    code: String,
}

fn main() {}
