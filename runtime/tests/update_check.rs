//! `Validator::check_update` on cases whose answers were read from mongod 6.0.5 (the
//! generated differential test, `update_mongod.rs`, covers the rest against a live server),
//! and the static lint (`check_update_static`) over a derived model.

#![forbid(unsafe_code)]

use mongo_schema::bson::{doc, Bson, Decimal128, Document};
use mongo_schema::validate::{UpdateError, UpdateOptions};
use mongo_schema::{check_update_static, MongoSchema, Validator};
use serde::{Deserialize, Serialize};

fn open() -> Validator {
    Validator::new(&doc! { "bsonType": "object" }).expect("schema")
}

fn code(result: Result<Document, UpdateError>) -> Option<i32> {
    result.err().and_then(|e| e.code())
}

fn dec(s: &str) -> Bson {
    Bson::Decimal128(s.parse::<Decimal128>().unwrap())
}

#[test]
fn new_fields_follow_path_order_and_existing_ones_keep_their_place() {
    let current = doc! { "_id": 1, "z": 1, "a": { "y": 1 } };
    let update = doc! { "$set": { "b": 1, "a.x": 1, "B": 1 }, "$inc": { "A": 1 } };
    let updated = open().check_update(&current, &update).unwrap();
    let order: Vec<&str> = updated.keys().map(String::as_str).collect();
    assert_eq!(order, ["_id", "z", "a", "A", "B", "b"]);
    assert_eq!(updated.get_document("a").unwrap(), &doc! { "y": 1, "x": 1 });
}

#[test]
fn numbers_promote_as_mongod_promotes_them() {
    let v = open();
    let updated = v.check_update(&doc! { "_id": 1, "a": i32::MAX }, &doc! { "$inc": { "a": 1 } }).unwrap();
    assert_eq!(updated.get("a"), Some(&Bson::Int64(2_147_483_648)));
    let updated = v.check_update(&doc! { "_id": 1, "a": 70000 }, &doc! { "$mul": { "a": 70000 } }).unwrap();
    assert_eq!(updated.get("a"), Some(&Bson::Int64(4_900_000_000)));
    assert_eq!(code(v.check_update(&doc! { "_id": 1, "a": i64::MAX }, &doc! { "$inc": { "a": 1 } })), Some(2));
    let current = doc! { "_id": 1, "a": 2, "b": dec("1.5"), "c": 0.1 };
    let updated = v.check_update(&current, &doc! { "$inc": { "a": 0.1, "b": 0.1, "c": dec("1") } }).unwrap();
    assert_eq!(updated.get("a"), Some(&Bson::Double(2.0 + 0.1)));
    assert_eq!(updated.get("b"), Some(&dec("1.600000000000000")));
    assert_eq!(updated.get("c"), Some(&dec("1.100000000000000")));
    // `$mul` on a missing field: zero of the operand's type; `$inc`: the operand itself.
    let updated = v
        .check_update(&doc! { "_id": 1 }, &doc! { "$mul": { "l": 5_i64, "c": dec("2.50") }, "$inc": { "d": -0.0 } })
        .unwrap();
    assert_eq!(updated.get("l"), Some(&Bson::Int64(0)));
    assert_eq!(updated.get("c"), Some(&dec("0.00")));
    assert!(matches!(updated.get("d"), Some(Bson::Double(d)) if d.is_sign_negative()));
}

#[test]
fn paths_pad_arrays_and_refuse_what_mongod_refuses() {
    let v = open();
    let updated = v.check_update(&doc! { "_id": 1, "a": [1] }, &doc! { "$set": { "a.3": 1 } }).unwrap();
    assert_eq!(updated.get_array("a").unwrap(), &vec![Bson::Int32(1), Bson::Null, Bson::Null, Bson::Int32(1)]);
    let updated = v.check_update(&doc! { "_id": 1, "a": [1] }, &doc! { "$unset": { "a.0": "" } }).unwrap();
    assert_eq!(updated.get_array("a").unwrap(), &vec![Bson::Null]);
    let cases = [
        (doc! { "_id": 1, "a": "x" }, doc! { "$inc": { "a": 1 } }, 14),
        (doc! { "_id": 1, "a": 1 }, doc! { "$inc": { "a": "x" } }, 14),
        (doc! { "_id": 1, "a": 1 }, doc! { "$set": { "a.b": 1 }, "$inc": { "a": 1 } }, 40),
        (doc! { "_id": 1, "a": 1 }, doc! { "$set": { "a.b": 1 } }, 28),
        (doc! { "_id": 1, "a": [1] }, doc! { "$set": { "a.b": 1 } }, 28),
        (doc! { "_id": 1, "a": 1 }, doc! { "$pull": { "a.x": 1 } }, 28),
        (doc! { "_id": 1, "a": 1 }, doc! { "$foo": { "a": 1 } }, 9),
        (doc! { "_id": 1, "a": 1 }, doc! { "$set": 1 }, 9),
        (doc! { "_id": 1, "a": 1 }, doc! { "$set": { "_id": 2 } }, 66),
        (doc! { "_id": 1, "a": 1 }, doc! { "$set": { "a..b": 1 } }, 56),
        (doc! { "_id": 1, "a": 1 }, doc! { "$set": { "b.$": 1 } }, 2),
    ];
    for (current, update, expected) in cases {
        assert_eq!(code(v.check_update(&current, &update)), Some(expected), "{update}");
    }
    // `$unset` through a scalar, and `$setOnInsert` outside an insert, change nothing.
    let current = doc! { "_id": 1, "n": 1 };
    assert_eq!(v.check_update(&current, &doc! { "$unset": { "n.x": 1 } }).unwrap(), current);
    assert_eq!(v.check_update(&current, &doc! { "$setOnInsert": { "n.x": 1 } }).unwrap(), current);
}

#[test]
fn array_operators_positional_paths_and_upserts() {
    let v = open();
    let current = doc! { "_id": 1, "arr": [3, 1, 2], "docs": [{ "k": 1 }, { "k": 5 }] };
    let push = doc! { "$push": { "arr": { "$each": [0, 9], "$position": 1, "$sort": -1, "$slice": 3 } } };
    assert_eq!(
        v.check_update(&current, &push).unwrap().get_array("arr").unwrap(),
        &vec![Bson::Int32(9), Bson::Int32(3), Bson::Int32(2)]
    );
    let pull = doc! { "$pull": { "docs": { "k": { "$gte": 2 } }, "arr": { "$lt": 3 } } };
    let updated = v.check_update(&current, &pull).unwrap();
    assert_eq!(updated.get_array("arr").unwrap(), &vec![Bson::Int32(3)]);
    assert_eq!(updated.get_array("docs").unwrap(), &vec![Bson::Document(doc! { "k": 1 })]);

    let options =
        UpdateOptions { filter: doc! { "_id": 1, "docs.k": 5 }, array_filters: vec![doc! { "e": { "$lt": 3 } }] };
    let update = doc! { "$set": { "docs.$.seen": true }, "$inc": { "arr.$[e]": 10, "arr.$[]": 1 } };
    assert_eq!(code(v.check_update_with(&current, &update, &options)), Some(40), "$[e] and $[] on one element");
    // Children of `$[]` and `$[<id>]` on one element are merged, their fields in path order.
    let docs = doc! { "_id": 1, "arr": [{ "a": 1 }, { "a": 2 }] };
    let options_a = UpdateOptions { filter: doc! {}, array_filters: vec![doc! { "e.a": 2 }] };
    let update = doc! { "$set": { "arr.$[e].b": 10, "arr.$[].c": 1 } };
    let updated = v.check_update_with(&docs, &update, &options_a).unwrap();
    assert_eq!(updated.get_array("arr").unwrap()[1], Bson::Document(doc! { "a": 2, "b": 10, "c": 1 }));
    let update = doc! { "$set": { "docs.$.seen": true }, "$inc": { "arr.$[e]": 10 } };
    let updated = v.check_update_with(&current, &update, &options).unwrap();
    assert_eq!(updated.get_array("arr").unwrap(), &vec![Bson::Int32(3), Bson::Int32(11), Bson::Int32(12)]);
    assert_eq!(updated.get_array("docs").unwrap()[1], Bson::Document(doc! { "k": 5, "seen": true }));

    // mongod keeps no position from inside an `$or` of several clauses, nor from an element
    // named by its index; a one-clause `$or` is the clause.
    for filter in [doc! { "$or": [{ "docs.k": 5 }, { "zz": 1 }] }, doc! { "docs.1.k": 5 }] {
        let options = UpdateOptions { filter, array_filters: Vec::new() };
        assert_eq!(code(v.check_update_with(&current, &doc! { "$set": { "docs.$.seen": true } }, &options)), Some(2));
    }
    let options = UpdateOptions { filter: doc! { "$or": [{ "docs.k": 5 }] }, array_filters: Vec::new() };
    let updated = v.check_update_with(&current, &doc! { "$set": { "docs.$.seen": true } }, &options).unwrap();
    assert_eq!(updated.get_array("docs").unwrap()[1], Bson::Document(doc! { "k": 5, "seen": true }));

    let options = UpdateOptions { filter: doc! { "_id": 7, "name": "x" }, array_filters: Vec::new() };
    let inserted = v.check_upsert(&doc! { "$setOnInsert": { "created": 1 }, "$set": { "n": 2 } }, &options).unwrap();
    assert_eq!(inserted, doc! { "_id": 7, "name": "x", "created": 1, "n": 2 });
}

#[test]
fn validation_failures_carry_mongods_err_info_and_no_ops_are_not_validated() {
    let schema = doc! { "bsonType": "object", "properties": { "n": { "bsonType": "int", "maximum": 10 } } };
    let v = Validator::new(&schema).unwrap();
    let err = v.check_update(&doc! { "_id": 1, "n": 9 }, &doc! { "$inc": { "n": 2 } }).unwrap_err();
    let UpdateError::Invalid { document, failure } = &err else { panic!("{err}") };
    assert_eq!(**document, doc! { "_id": 1, "n": 11 });
    assert_eq!(failure.err_info().get("failingDocumentId"), Some(&Bson::Int32(1)));
    assert_eq!(failure.violations()[0].keyword, "maximum");
    assert!(err.to_string().contains("maximum"), "{err}");
    // mongod writes nothing for a no-op, so an invalid stored document passes through it.
    let stored = doc! { "_id": 1, "n": 50 };
    assert_eq!(v.check_update(&stored, &doc! { "$set": { "n": 50 } }).unwrap(), stored);
    assert_eq!(code(v.check_update(&stored, &doc! { "$set": { "m": 1 } })), Some(121));
}

/// A model as applications have them, for the static lint.
#[derive(Debug, Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(db = "db_shop", collection = "t_orders")]
struct Order {
    #[mongo(min_length = 1, max_length = 32)]
    order_no: String,
    #[mongo(max_items = 5)]
    items: Vec<Item>,
    #[mongo(minimum = 0, maximum = 1000)]
    points: i64,
    #[serde(skip_serializing_if = "Option::is_none")]
    note: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    visits: Option<i64>,
    address: Address,
}

#[derive(Debug, Serialize, Deserialize, MongoSchema)]
struct Item {
    sku: String,
    #[mongo(minimum = 1)]
    quantity: i32,
}

#[derive(Debug, Serialize, Deserialize, MongoSchema)]
struct Address {
    city: String,
}

fn findings(update: Document) -> Vec<(String, String)> {
    check_update_static::<Order>(&update).into_iter().map(|f| (f.path.clone(), f.to_string())).collect()
}

#[test]
fn the_static_lint_passes_updates_that_keep_the_rules() {
    let good = [
        doc! { "$set": { "orderNo": "A-1", "address.city": "Oslo", "note": "fragile" } },
        doc! { "$inc": { "points": 5, "visits": 1_i64 } },
        doc! { "$push": { "items": { "$each": [{ "sku": "x", "quantity": 2 }], "$slice": -5 } } },
        doc! { "$set": { "items.$.quantity": 3 } },
        doc! { "$set": { "items.$[i].sku": "y" } },
        doc! { "$unset": { "note": "" } },
        doc! { "$pull": { "items": { "sku": "x" } } },
        doc! { "$setOnInsert": { "_id": 7 } },
    ];
    for update in good {
        assert_eq!(findings(update.clone()), Vec::<(String, String)>::new(), "{update}");
    }
}

#[test]
fn the_static_lint_finds_what_an_update_can_break() {
    use mongo_schema::validate::FindingKind::{self, *};
    let cases: [(Document, &str, FindingKind, &str); 15] = [
        (doc! { "$set": { "adress.city": "Oslo" } }, "adress.city", UnknownPath, "did you mean `address`"),
        (doc! { "$set": { "address.cty": "Oslo" } }, "address.cty", UnknownPath, "did you mean `city`"),
        (doc! { "$push": { "items": { "sku": "x", "quantity": 1 } } }, "items", Unbounded, "$slice: -5"),
        (doc! { "$push": { "items": { "$each": [], "$slice": -50 } } }, "items", Unbounded, "keeps more than maxItems"),
        (doc! { "$inc": { "visits": dec("1") } }, "visits", ArithmeticType, "leaves a decimal"),
        (doc! { "$inc": { "points": 1.5 } }, "points", ArithmeticType, "leaves a double"),
        (doc! { "$set": { "note": null } }, "note", Value, "`bsonType`"),
        (doc! { "$set": { "points": 5000_i64 } }, "points", Value, "`maximum`"),
        (doc! { "$set": { "items.0.quantity": 0 } }, "items.0.quantity", Value, "`minimum`"),
        (doc! { "$unset": { "orderNo": "" } }, "orderNo", RequiredRemoved, "removes a required field"),
        (doc! { "$rename": { "orderNo": "number" } }, "orderNo", RequiredRemoved, "moves a required field"),
        (doc! { "$currentDate": { "note": true } }, "note", Value, "the current date breaks `bsonType`"),
        (doc! { "$pop": { "orderNo": 1 } }, "orderNo", NotAnArray, "$pop needs an array"),
        (
            doc! { "$inc": { "items.0.quantity": 1 } },
            "items.0.quantity",
            Creation,
            "holding only `quantity`, without its required sku",
        ),
        (doc! { "$set": { "items.2.sku": "x" } }, "items.2.sku", Creation, "pads it with nulls"),
    ];
    for (update, path, kind, words) in cases {
        let found = check_update_static::<Order>(&update);
        assert!(
            found.iter().any(|f| f.path == path && f.kind == kind && f.to_string().contains(words)),
            "{update}: expected {kind:?} `{words}` at {path}, found {found:?}"
        );
    }
    let conflicting = doc! { "$set": { "points": 1_i64 }, "$inc": { "points": 1_i64 } };
    let refused = check_update_static::<Order>(&conflicting);
    assert_eq!(refused.iter().map(|f| f.kind).collect::<Vec<_>>(), [Refused], "{refused:?}");
    assert!(refused[0].message.contains("40 ConflictingUpdateOperators"), "{refused:?}");
}

/// The lint's promise, checked with `check_update` (itself held to mongod): an update the lint
/// passes never makes a valid document invalid. Generated valid `Order` documents and
/// `$set` / `$unset` / `$rename` / `$push` / `$inc` updates whose outcome does not depend on
/// the stored values' size (no `$push` into a full array is generated without `$slice`).
#[test]
fn an_update_the_lint_passes_keeps_valid_documents_valid() {
    use proptest::prelude::*;

    let validator = Validator::for_type::<Order>().unwrap();
    let item = (prop::sample::select(vec!["a", "b"]), 1..5i32).prop_map(|(sku, q)| doc! { "sku": sku, "quantity": q });
    let order = (
        prop::sample::select(vec!["A-1", "B-22"]),
        prop::collection::vec(item, 0..3),
        prop_oneof![(0..1000i64).prop_map(Bson::Int64), (0..1000i32).prop_map(Bson::Int32)],
        prop::option::of(0..9i64),
    )
        .prop_map(|(no, items, points, visits)| {
            let mut d =
                doc! { "_id": 1, "orderNo": no, "items": items, "points": points, "address": { "city": "Oslo" } };
            if let Some(v) = visits {
                d.insert("visits", v);
            }
            d
        });
    let value = prop::sample::select(vec![
        Bson::Int32(3),
        Bson::Int64(5000),
        Bson::Double(1.5),
        Bson::String("x".into()),
        Bson::String(String::new()),
        Bson::Null,
        Bson::Document(doc! { "sku": "c", "quantity": 0 }),
        Bson::Document(doc! { "sku": "c", "quantity": 2 }),
        Bson::Document(doc! { "city": "Rome" }),
    ]);
    let path = prop::sample::select(vec![
        "orderNo",
        "points",
        "visits",
        "note",
        "items",
        "items.0",
        "items.0.quantity",
        "items.$[].sku",
        "address",
        "address.city",
        "adress",
    ]);
    let operator = prop::sample::select(vec!["$set", "$unset", "$rename", "$push", "$inc"]);
    let update = (operator, path, value).prop_map(|(op, path, value)| match op {
        "$rename" => doc! { op: { path: "renamed" } },
        "$push" => doc! { op: { path: { "$each": [value], "$slice": -5 } } },
        "$inc" => doc! { op: { path: Bson::Int32(1) } },
        _ => doc! { op: { path: value } },
    });
    let mut runner = proptest::test_runner::TestRunner::new(proptest::test_runner::Config {
        cases: 400,
        failure_persistence: None,
        ..Default::default()
    });
    runner
        .run(&(order, update), |(current, update)| {
            prop_assert!(validator.validate(&current).is_ok(), "generated an invalid order {current}");
            let found = check_update_static::<Order>(&update);
            let applied = validator.check_update(&current, &update);
            if found.is_empty() {
                prop_assert!(
                    !matches!(applied, Err(UpdateError::Invalid { .. } | UpdateError::Refused { .. })),
                    "the lint passed {update}, but on {current} it gives {applied:?}"
                );
            }
            Ok(())
        })
        .unwrap();
}
