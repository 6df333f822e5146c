//! Updates checked before they are sent, as a service on the driver's defaults writes them:
//! the lint over an update the code builds, and `check_update` over a stored document, on
//! bson 2's types.

use mongo_schema::{check_update_static, validate::FindingKind, MongoSchema, Validator};
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
    let found: Vec<(&str, FindingKind)> = findings.iter().map(|f| (f.path.as_str(), f.kind)).collect();
    assert_eq!(
        found,
        [("owner.username", FindingKind::UnknownPath), ("items", FindingKind::Unbounded)],
        "{findings:#?}"
    );
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

#[test]
fn the_derive_registers_the_root_for_the_cli_and_migrations() {
    // what `schema` and the migrations enumerate: the roots the user's binary links
    let registered = mongo_schema::registered();
    let cart = registered.iter().find(|r| r.collection == "t_cart").expect("Cart is registered");
    assert_eq!((cart.db, cart.rust_type), ("db_shop", "writes::Cart"));
    let fields: Vec<&str> = cart.fields.expect("a struct's fields").iter().map(|f| f.name).collect();
    assert_eq!(fields, ["_id", "owner", "items", "loginCount"]);
    let create = cart.create_collection_command();
    assert_eq!(create.get_str("create"), Ok("t_cart"));
    assert!(create.get_document("validator").is_ok(), "{create}");
    // the same value on every call
    assert!(std::ptr::eq(*cart, *mongo_schema::registered().iter().find(|r| r.collection == "t_cart").unwrap()));
}

#[test]
fn a_bounded_push_through_path_passes_the_lint_and_the_validator() {
    // the user's own bson 2 `doc!` takes the path as a key; the push keeps `max_items`
    let filter = bson::doc! { mongo_schema::path!(Cart.owner.user_name).as_str(): "ada" };
    assert_eq!(filter, bson::doc! { "owner.userName": "ada" });
    let push = mongo_schema::path!(Cart.items).push(["b"]).update().expect("a string serializes");
    assert_eq!(check_update_static::<Cart>(&push), [], "{push}");
    let validator = Validator::new(&Cart::json_schema()).expect("the schema compiles");
    let full = bson::doc! { "_id": bson::oid::ObjectId::new(), "owner": { "userName": "ada" }, "items": ["x", "y", "z"], "loginCount": 1_i64 };
    let after = validator.check_update(&full, &push).expect("the push keeps 3 items");
    assert_eq!(after.get_array("items").expect("items").len(), 3);
}
