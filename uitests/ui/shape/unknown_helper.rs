use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize, Serializer};

fn as_text<S: Serializer>(value: &i64, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&value.to_string())
}

#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
struct Counter {
    #[serde(serialize_with = "as_text")]
    visit_count: i64,
}

fn main() {}
