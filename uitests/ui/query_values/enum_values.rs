use mongo_schema::bson::oid::ObjectId;
use mongo_schema::prelude::*;
use mongo_schema::query;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, MongoSchema, Clone, Copy)]
enum OrderStatus {
    Paid,
    Shipped,
}

/// Derived, but never written by serde: its value cannot be written into a query.
#[derive(Deserialize, MongoSchema)]
enum Imported {
    Paid,
}

/// A newtype over the enum: serde writes the enum's strings, and so takes its values.
#[derive(Serialize, Deserialize, MongoSchema)]
struct Previous(OrderStatus);

#[derive(Serialize, Deserialize, MongoSchema)]
#[mongo(db = "db_shop", collection = "t_order", index(keys(status = 1)), index(keys(previous = 1)))]
struct Order {
    #[serde(rename = "_id")]
    id: ObjectId,
    status: OrderStatus,
    previous: Previous,
}

/// Values of a key storing a derived enum of unit variants: what is not the enum (nor a
/// reference or an `Option` of it) nor a string. One function each: rustc reports an
/// integer literal's type only when the function has no other error.
fn number() {
    let _ = query!(Order, { "status": 3 });
}

fn typed_number() {
    let _ = query!(Order, { "status": 3u8 });
}

fn several() {
    let _ = query!(Order, { "status": vec![OrderStatus::Paid] });
    let _ = query!(Order, { "status": Some(3u8) });
    let _ = query!(Order, { "status": Imported::Paid });
}

fn newtype() {
    let _ = query!(Order, { "previous": "Pending" });
}

/// The accepted forms.
fn accepted(status: OrderStatus, name: String, names: Vec<&str>) {
    let _ = query!(Order, { "status": OrderStatus::Paid });
    let _ = query!(Order, { "status": &status });
    let _ = query!(Order, { "status": Some(status) });
    let _ = query!(Order, { "status": Box::new(status) });
    let _ = query!(Order, { "status": "Paid" });
    let _ = query!(Order, { "status": &name });
    let _ = query!(Order, { "status": name.as_str() });
    let _ = query!(Order, { "status": Some(name.as_str()) });
    let _ = query!(Order, { "status": { "$in": [OrderStatus::Paid, OrderStatus::Shipped] } });
    let _ = query!(Order, { "status": { "$in": names } });
    let _ = query!(Order, { "status": mongo_schema::bson::Bson::String(name) });
    let _ = query!(Order, { "previous": Previous(status) });
    let _ = query!(Order, { "previous": "Shipped" });
}

fn main() {
    number();
    typed_number();
    several();
    newtype();
    accepted(OrderStatus::Paid, String::new(), Vec::new());
}
