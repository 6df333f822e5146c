//! Updates checked before they are sent, as a service on the driver's defaults writes them:
//! the lint over an update the code builds, and `check_update` over a stored document, on
//! bson 2's types.

use mongo_schema::{check_update_static, MongoSchema, Validator};
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(db = "db_shop", collection = "t_cart")]
pub struct Cart {
    #[serde(rename = "_id")]
    pub id: bson::oid::ObjectId,
    pub owner: Owner,
    #[mongo(max_items = 3)]
    pub items: Vec<String>,
    pub login_count: i64,
}

#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
pub struct Owner {
    pub user_name: String,
}

#[test]
fn the_lint_names_a_misspelled_path_and_an_unbounded_push() {
    let update = bson::doc! { "$set": { "owner.username": "x" }, "$push": { "items": "b" } };
    let findings = check_update_static::<Cart>(&update);
    let paths: Vec<&str> = findings.iter().map(|f| f.path.as_str()).collect();
    assert_eq!(paths, ["owner.username", "items"], "{findings:#?}");
    assert!(findings[0].message.contains("did you mean `userName`?"), "{}", findings[0].message);
    assert!(findings[1].message.contains("$slice: -3"), "{}", findings[1].message);
}

#[test]
fn check_update_applies_then_validates() {
    let validator = Validator::new(&Cart::json_schema()).expect("the schema compiles");
    let id = bson::oid::ObjectId::new();
    let current = bson::doc! { "_id": id, "owner": { "userName": "ada" }, "items": [], "loginCount": 1_i64 };
    let after = validator.check_update(&current, &bson::doc! { "$inc": { "loginCount": 1 } }).expect("valid");
    assert_eq!(after.get("loginCount"), Some(&bson::Bson::Int64(2)), "an int32 $inc keeps the long");
    let refused = validator.check_update(&current, &bson::doc! { "$set": { "loginCount": "x" } });
    assert!(refused.is_err(), "a string where a long is declared: {refused:?}");
}
