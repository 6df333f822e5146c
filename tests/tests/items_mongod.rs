//! `#[mongo(items(...))]` against a real mongod (`MONGODB_URI`, set by
//! `scripts/with-mongod.sh`), with the local validator's verdict beside mongod's: the
//! keywords constrain each item of an array (`tags`), each value of a map (`labels`), each
//! item of an optional array (`aliases`) and, nested, the items of inner arrays (`grid`).
//! A driver-written document passes; one item breaking its bound is rejected with 121.
//! Without `MONGODB_URI` each test says it was skipped and passes.

#![forbid(unsafe_code)]

use mongo_schema::prelude::*;
use mongo_schema::Validator;
use mongo_schema_tests::bson;
use mongo_schema_tests::bson::{doc, Bson, Document};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

use crate::support;
use support::{client, code};

/// DocumentValidationFailure.
const VALIDATION_FAILED: i32 = 121;

type Word = String;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(db = "db_test_items", collection = "t_tagged_product")]
struct TaggedProduct {
    #[serde(rename = "_id")]
    id: i64,
    /// Each tag: lowercase, at most 12 characters.
    #[mongo(max_items = 20, items(max_length = 12, pattern = "^[a-z]+$"))]
    tags: Vec<String>,
    /// Each label value: at most 30 characters (through an alias: the facts decide).
    #[mongo(max_properties = 10, items(max_length = 30))]
    labels: BTreeMap<String, Word>,
    /// Each rating between 1 and 5.
    #[mongo(max_items = 10, items(minimum = 1, maximum = 5))]
    ratings: Vec<i32>,
    /// An optional list: its items bounded when present.
    #[mongo(max_items = 5, items(enum_values = ["red", "green", "blue"]))]
    aliases: Option<Vec<String>>,
    /// Rows of at most 3 cells, each cell at most 2 characters.
    #[mongo(max_items = 3, items(max_items = 3, items(max_length = 2)))]
    grid: Vec<Vec<String>>,
}

fn sample() -> TaggedProduct {
    TaggedProduct {
        id: 1,
        tags: vec!["tea".into(), "green".into()],
        labels: BTreeMap::from([("en".into(), "Green tea".into())]),
        ratings: vec![4, 5],
        aliases: Some(vec!["green".into()]),
        grid: vec![vec!["a1".into(), "b2".into()]],
    }
}

#[test]
fn the_schema_constrains_items_and_values() {
    let schema = TaggedProduct::json_schema();
    let properties = schema.get_document("properties").expect("properties");
    let tags = properties.get_document("tags").expect("tags");
    assert_eq!(
        tags.get_document("items").expect("items"),
        &doc! { "bsonType": "string", "maxLength": 12, "pattern": "^[a-z]+$" }
    );
    assert_eq!(tags.get("maxLength"), None, "the array itself takes no string keyword");
    let labels = properties.get_document("labels").expect("labels");
    assert_eq!(labels.get_document("additionalProperties").expect("values").get("maxLength"), Some(&Bson::Int32(30)));
    let grid = properties.get_document("grid").expect("grid");
    let row = grid.get_document("items").expect("rows");
    assert_eq!(row.get("maxItems"), Some(&Bson::Int32(3)));
    assert_eq!(row.get_document("items").expect("cells").get("maxLength"), Some(&Bson::Int32(2)));
    // the items' bound bounds the document: every string, array and map is bounded
    assert!(TaggedProduct::FACTS.max_size.is_none(), "the map's values are bounded, the map's keys are not");
}

#[test]
fn mongod_and_the_local_validator_enforce_each_item() {
    let Some(client) = client("mongod_and_the_local_validator_enforce_each_item") else { return };
    let db = client.database(TaggedProduct::DB_NAME);
    let name = TaggedProduct::COLLECTION_NAME;
    db.collection::<Document>(name).drop().run().expect("drop");
    let mut create = TaggedProduct::create_collection_command();
    create.insert("validationAction", "error");
    db.run_command(create).run().expect("createCollection accepted");
    let local = Validator::new(&TaggedProduct::json_schema()).expect("the local validator compiles the schema");

    // the driver's write passes both, and reads back
    let typed = db.collection::<TaggedProduct>(name);
    let good = sample();
    assert!(local.is_valid_raw(&bson::serialize_to_raw_document_buf(&good).unwrap()));
    typed.insert_one(&good).run().expect("a document within every item bound is accepted");
    assert_eq!(typed.find_one(doc! { "_id": 1 }).run().expect("find").as_ref(), Some(&good));

    // one item breaking its bound, each way
    type Breaks = fn(&mut TaggedProduct);
    let broken: [(&str, Breaks); 6] = [
        ("a tag over 12 characters", |p| p.tags.push("verylongtagname".into())),
        ("a tag outside the pattern", |p| p.tags.push("Tea".into())),
        ("a label value over 30 characters", |p| {
            p.labels.insert("de".into(), "Grüner Tee aus dem Hochland von Darjeeling".into());
        }),
        ("a rating above 5", |p| p.ratings.push(6)),
        ("an alias outside the enum", |p| p.aliases = Some(vec!["purple".into()])),
        ("a cell over 2 characters", |p| p.grid[0].push("abc".into())),
    ];
    for (i, (what, breaks)) in broken.iter().enumerate() {
        let mut product = sample();
        product.id = 10 + i as i64;
        breaks(&mut product);
        let bytes = bson::serialize_to_raw_document_buf(&product).unwrap();
        assert!(!local.is_valid_raw(&bytes), "{what}: the local validator accepted it");
        let error = typed.insert_one(&product).run().expect_err(what);
        assert_eq!(code(&error), Some(VALIDATION_FAILED), "{what}: {error}");
    }
    // `None` for the optional list is accepted
    let mut none = sample();
    none.id = 2;
    none.aliases = None;
    typed.insert_one(&none).run().expect("no aliases is accepted");
}
