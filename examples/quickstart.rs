//! The modelling standard's `t_users` collection and an orders collection with embedded
//! items, printed as the `createCollection` commands that install their validators, then
//! a query and two updates written with `path!` (field paths checked at compile time), one
//! of them a bounded `$push` that keeps `items` within its `max_items`.
//!
//! Run: `cargo run -p mongo-schema-examples --example quickstart`. The output is
//! committed beside this file as `quickstart.out`; a test keeps it current.

use mongo_schema::bson::{doc, oid::ObjectId, DateTime};
use mongo_schema::{path, render, MongoCollection, MongoSchema};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use std::str::FromStr;

/// Users of the user center.
#[derive(Debug, Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(db = "db_user_center", collection = "t_users", validation_level = "strict", validation_action = "error")]
pub struct User {
    /// Username, required, 2-50 characters
    #[mongo(min_length = 2, max_length = 50)]
    pub user_name: String,
    /// Email, required, must conform to email format
    #[mongo(pattern = r"^[a-zA-Z0-9._%+-]+@[a-zA-Z0-9.-]+\.[a-zA-Z]{2,}$")]
    pub email: String,
    /// Age, optional, an integer from 0 to 150
    #[mongo(minimum = 0, maximum = 150)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub age: Option<i32>,
    /// Status, enumeration value
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<UserStatus>,
    /// Creation time, required
    pub create_time: DateTime,
}

#[derive(Debug, Clone, Copy, Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "lowercase")]
pub enum UserStatus {
    Active,
    Inactive,
    Deleted,
}

/// Orders, with their items embedded: always read together (the embedding pattern).
#[derive(Debug, Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(db = "db_order", collection = "t_order")]
pub struct Order {
    #[serde(rename = "_id")]
    pub id: ObjectId,
    /// Business order number
    #[mongo(min_length = 1, max_length = 32)]
    pub order_no: String,
    /// The customer (reference to t_users)
    pub user_id: ObjectId,
    /// Order lines, at most 100
    #[mongo(min_items = 1, max_items = 100)]
    pub items: Vec<OrderItem>,
    /// Order total, Decimal128
    #[serde(with = "mongo_schema::serde_helpers::decimal128")]
    pub total_amount: Decimal,
    /// Order status
    pub status: OrderStatus,
    /// Creation time
    pub create_time: DateTime,
}

/// One order line: a reference to the product plus a snapshot of what was sold.
#[derive(Debug, Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
pub struct OrderItem {
    /// Reference to the product, for its latest details
    pub product_id: ObjectId,
    /// Product name when ordered (snapshot)
    #[mongo(min_length = 1, max_length = 200)]
    pub name: String,
    /// Unit price when ordered (snapshot), Decimal128
    #[serde(with = "mongo_schema::serde_helpers::decimal128")]
    pub price: Decimal,
    /// Units ordered
    #[mongo(minimum = 1, maximum = 10000)]
    pub quantity: i32,
}

#[derive(Debug, Clone, Copy, Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "lowercase")]
pub enum OrderStatus {
    Pending,
    Paid,
    Shipped,
    Completed,
    Cancelled,
}

/// One collection's `createCollection` command, as relaxed Extended JSON and as mongosh.
fn section<T: MongoCollection>() -> String {
    let command = T::create_collection_command();
    format!(
        "// {db}.{coll}: createCollection command (relaxed Extended JSON)\n{json}\n\n// {db}.{coll}: the same in mongosh\n{js}\n",
        db = T::DB_NAME,
        coll = T::COLLECTION_NAME,
        json = render::relaxed_json(&command),
        js = render::mongosh_create_collection(T::DB_NAME, &command),
    )
}

/// A query and updates named through `path!`: a renamed or removed field would be a
/// compile error here, not a query that silently matches nothing.
fn writes() -> String {
    let filter = doc! {
        path!(Order.order_no).as_str(): "A-1001",
        path!(Order.items.quantity).as_str(): { "$gte": 10 },
    };
    // every line of at least 10 units: 5% off its price (arrayFilters names `big`)
    let discount = doc! { "$mul": { path!(Order.items.$[big].price).as_str(): 0.95 } };
    // an arrayFilters condition names a path inside one item: the item type's own path
    let array_filters = [doc! { format!("big.{}", path!(OrderItem.quantity)): { "$gte": 10 } }];
    // one more line, the array kept at its `max_items = 100`, serialized as the driver writes
    let line = OrderItem {
        product_id: ObjectId::from_str("65a1b2c3d4e5f60718293a4b").expect("a valid ObjectId"),
        name: "Green tea".to_owned(),
        price: Decimal::new(1250, 2),
        quantity: 3,
    };
    let push = path!(Order.items).push([line]).update().expect("an order line serializes");
    format!(
        "// db_order.t_order: a filter, an update with arrayFilters, a bounded push (typed paths)\nfilter: {}\nupdate: {}\narrayFilters: {}\nupdate: {}\n",
        render::relaxed_json(&filter),
        render::relaxed_json(&discount),
        render::relaxed_json(&array_filters[0]),
        render::relaxed_json(&push),
    )
}

/// Everything this example prints.
pub fn output() -> String {
    [section::<User>(), section::<Order>(), writes()].join("\n")
}

fn main() {
    print!("{}", output());
}

#[test]
fn committed_output_is_current() {
    let committed = include_str!("quickstart.out");
    if committed != output() {
        if std::env::var_os("UPDATE_EXAMPLES").is_some() {
            std::fs::write(concat!(env!("CARGO_MANIFEST_DIR"), "/quickstart.out"), output()).unwrap();
            return;
        }
        panic!("examples/quickstart.out is stale: rerun with UPDATE_EXAMPLES=1 and review the diff");
    }
}

/// The validator of the standard's `t_users` example, transcribed from it, minus
/// the descriptions (ours come from the doc comments).
#[test]
fn t_users_matches_the_standard() {
    let standard = mongo_schema::bson::doc! {
        "bsonType": "object",
        "required": ["userName", "email", "createTime"],
        "properties": {
            "userName": { "bsonType": "string", "minLength": 2, "maxLength": 50 },
            "email": { "bsonType": "string", "pattern": "^[a-zA-Z0-9._%+-]+@[a-zA-Z0-9.-]+\\.[a-zA-Z]{2,}$" },
            // the standard says `int`; an `i32` also reads back a `long` in its range, which
            // other clients write (README.md's number table), so both are admitted
            "age": { "bsonType": ["int", "long"], "minimum": 0, "maximum": 150 },
            "status": { "enum": ["active", "inactive", "deleted"] },
            "createTime": { "bsonType": "date" },
        }
    };
    let mut ours = User::json_schema();
    ours.remove("description");
    for (_, property) in ours.get_document_mut("properties").unwrap().iter_mut() {
        property.as_document_mut().unwrap().remove("description");
    }
    assert_eq!(ours, standard);
    let command = User::create_collection_command();
    assert_eq!(
        (command.get_str("validationLevel").ok(), command.get_str("validationAction").ok()),
        (Some("strict"), Some("error"))
    );
}

#[test]
fn both_roots_are_registered_in_order() {
    let names: Vec<(&str, &str)> = mongo_schema::registered().iter().map(|r| (r.db, r.collection)).collect();
    assert_eq!(names, [("db_order", "t_order"), ("db_user_center", "t_users")]);
}
