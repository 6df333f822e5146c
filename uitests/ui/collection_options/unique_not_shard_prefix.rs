use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

// `shardCollection` refuses a unique index that does not start with the shard key.
#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(
    db = "db_shop",
    collection = "t_customer",
    shard_key(tenantId = 1, region = 1),
    index(keys(email = 1), unique),
    index(keys(region = 1, tenantId = 1, email = 1), unique)
)]
struct Customer {
    #[mongo(max_length = 64)]
    tenant_id: String,
    #[mongo(max_length = 16)]
    region: String,
    #[mongo(max_length = 254)]
    email: String,
}

fn main() {}
