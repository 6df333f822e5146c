//! A realistic collection for the benchmark and the allocation test: orders of ~1.5 KB,
//! nested three levels (order → customer → address), an array of line subdocuments, a few
//! patterns, enums, bounds, and `additionalProperties: false` at every level.

#![forbid(unsafe_code)]

use mongo_schema::bson::{doc, oid::ObjectId, Bson, DateTime, Decimal128, Document};

/// The order collection's `$jsonSchema`.
pub fn schema() -> Document {
    doc! {
        "bsonType": "object",
        "required": ["_id", "orderNo", "status", "createTime", "customer", "lines", "total"],
        "additionalProperties": false,
        "properties": {
            "_id": { "bsonType": "objectId" },
            "orderNo": { "bsonType": "string", "pattern": "^ORD-[0-9]{4}-[0-9]{6}$" },
            "status": { "enum": ["pending", "paid", "shipped", "delivered", "cancelled"] },
            "createTime": { "bsonType": "date" },
            "customer": {
                "bsonType": "object",
                "required": ["userName", "email", "address"],
                "additionalProperties": false,
                "properties": {
                    "userName": { "bsonType": "string", "minLength": 2, "maxLength": 50 },
                    "email": { "bsonType": "string", "pattern": "^[a-zA-Z0-9._%+-]+@[a-zA-Z0-9.-]+\\.[a-zA-Z]{2,}$" },
                    "phone": { "bsonType": "string", "maxLength": 20 },
                    "age": { "bsonType": "int", "minimum": 0, "maximum": 150 },
                    "address": {
                        "bsonType": "object",
                        "required": ["street", "city", "zip", "country"],
                        "additionalProperties": false,
                        "properties": {
                            "street": { "bsonType": "string", "maxLength": 200 },
                            "city": { "bsonType": "string", "maxLength": 100 },
                            "zip": { "bsonType": "string", "pattern": "^[0-9]{5}$" },
                            "country": { "bsonType": "string", "minLength": 2, "maxLength": 2 },
                        },
                    },
                },
            },
            "lines": {
                "bsonType": "array",
                "minItems": 1,
                "maxItems": 100,
                "items": {
                    "bsonType": "object",
                    "required": ["sku", "name", "quantity", "unitPrice"],
                    "additionalProperties": false,
                    "properties": {
                        "sku": { "bsonType": "string", "pattern": "^[A-Z]{3}-[0-9]{4}$" },
                        "name": { "bsonType": "string", "maxLength": 120 },
                        "quantity": { "bsonType": "int", "minimum": 1, "maximum": 1000 },
                        "unitPrice": { "bsonType": "decimal" },
                        "tags": { "bsonType": "array", "maxItems": 10, "items": { "bsonType": "string", "maxLength": 20 } },
                    },
                },
            },
            "total": { "bsonType": "decimal" },
            "notes": { "bsonType": "string", "maxLength": 500 },
            "gift": { "bsonType": "bool" },
        },
    }
}

fn dec(s: &str) -> Bson {
    Bson::Decimal128(s.parse::<Decimal128>().unwrap())
}

/// The `i`-th order; valid against `schema()`.
pub fn order(i: u32) -> Document {
    let lines: Vec<Bson> = (0..5)
        .map(|j| {
            Bson::Document(doc! {
                "sku": format!("SKU-{:04}", (i * 7 + j) % 10_000),
                "name": format!("Stainless steel water bottle, 750 ml, model {j}"),
                "quantity": (j as i32) + 1,
                "unitPrice": dec(&format!("{}.{:02}", 10 + j, i % 100)),
                "tags": ["kitchen", "outdoor", "gift"],
            })
        })
        .collect();
    let id = ObjectId::from_bytes([(i % 251) as u8; 12]);
    let status = ["pending", "paid", "shipped"][(i % 3) as usize];
    doc! {
        "_id": id,
        "orderNo": format!("ORD-2024-{:06}", i % 1_000_000),
        "status": status,
        "createTime": DateTime::from_millis(1_700_000_000_000 + i64::from(i)),
        "customer": {
            "userName": format!("customer_{i}"),
            "email": format!("customer.{i}@example-shop.com"),
            "phone": "+49 30 1234567",
            "age": (20 + i % 60) as i32,
            "address": { "street": format!("{} Friedrichstrasse", i % 300), "city": "Berlin", "zip": "10117", "country": "DE" },
        },
        "lines": lines,
        "total": dec("123.45"),
        "notes": "Please deliver between 9 and 17 o'clock; leave at the reception if nobody answers.",
        "gift": i.is_multiple_of(2),
    }
}

/// An order that breaks three rules (a pattern, a bound, an extra field).
pub fn bad_order(i: u32) -> Document {
    let mut d = order(i);
    d.get_document_mut("customer").unwrap().insert("email", "not-an-email");
    d.get_array_mut("lines").unwrap()[2].as_document_mut().unwrap().insert("quantity", 0);
    d.insert("coupon", "SAVE10");
    d
}
