//! The passing side of `renamed_from`'s alias rule: with `#[serde(alias = "<old key>")]`
//! the release after a rename reads the documents the release before it still writes
//! (old key) and its own (new key), writes only the new key, and refuses a document that
//! holds both (serde's duplicate field), which is why a rename moves the value rather than
//! leaving a copy. The refusal of a missing alias: `uitests/ui/attributes/renamed_from_alias.rs`.

#![forbid(unsafe_code)]

use mongo_schema::MongoCollection;
use mongo_schema_tests::bson::{self, doc, oid::ObjectId, Document};
use serde::{Deserialize, Serialize};

#[derive(Debug, PartialEq, Serialize, Deserialize, mongo_schema::MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(db = "db_test_rename", collection = "t_plan")]
struct Plan {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(alias = "maxSeats")]
    #[mongo(minimum = 1, renamed_from = "maxSeats")]
    seat_limit: i32,
}

fn read(document: &Document) -> Result<Plan, String> {
    let mut bytes = Vec::new();
    document.to_writer(&mut bytes).map_err(|e| e.to_string())?;
    bson::deserialize_from_slice(&bytes).map_err(|e| e.to_string())
}

#[test]
fn a_renamed_field_reads_either_key_and_writes_the_new_one() {
    assert_eq!(Plan::RENAMES, [("seatLimit", "maxSeats")]);
    let id = ObjectId::from_bytes([7; 12]);
    let plan = Plan { id, seat_limit: 12 };
    assert_eq!(read(&doc! { "_id": id, "maxSeats": 12 }), Ok(Plan { id, seat_limit: 12 }), "the old release's write");
    assert_eq!(read(&doc! { "_id": id, "seatLimit": 12 }), Ok(Plan { id, seat_limit: 12 }));
    let both = read(&doc! { "_id": id, "maxSeats": 12, "seatLimit": 12 }).unwrap_err();
    assert!(both.contains("duplicate field `seatLimit`"), "{both}");
    let written: Document = bson::deserialize_from_slice(mongo_schema_tests::driver_bytes(&plan).as_bytes()).unwrap();
    assert_eq!(written, doc! { "_id": id, "seatLimit": 12 });
}
