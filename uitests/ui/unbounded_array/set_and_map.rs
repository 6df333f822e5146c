use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

use std::collections::{BTreeMap, HashSet};

#[derive(Serialize, Deserialize, MongoSchema)]
struct Device {
    owners: HashSet<String>,
    readings: BTreeMap<String, i64>,
}

fn main() {}
