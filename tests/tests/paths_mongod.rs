//! Bounded pushes against a real mongod (`MONGODB_URI`, set by `scripts/with-mongod.sh`):
//! the update `Model::fields().array().push(items)` builds keeps an array declared with
//! `max_items = N` at `N` items, the newest kept, under the model's own validator, where a
//! plain `$push` past `N` is refused (121). The typed paths name the fields of the filter.
//! Without `MONGODB_URI` each test says it was skipped and passes.

#![forbid(unsafe_code)]

use mongo_schema::paths::Order;
use mongo_schema::prelude::*;
use mongo_schema::Validator;
use mongo_schema_tests::bson::{doc, Document, RawDocumentBuf};
use mongodb::sync::{Client, Collection};
use serde::{Deserialize, Serialize};

use crate::support;
use support::{client, code};

/// DocumentValidationFailure.
const VALIDATION_FAILED: i32 = 121;
/// The bound of both arrays.
const BOUND: usize = 5;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
struct Event {
    seq_no: i32,
    #[mongo(max_length = 20)]
    note: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(db = "db_test_paths", collection = "t_activity_feed")]
struct ActivityFeed {
    #[serde(rename = "_id")]
    id: i64,
    /// The latest events, oldest first.
    #[mongo(max_items = 5)]
    recent_events: Vec<Event>,
    /// The highest sequence numbers seen, highest first.
    #[mongo(max_items = 5)]
    top_seq_nos: Vec<i32>,
}

fn event(seq_no: i32) -> Event {
    Event { seq_no, note: format!("event {seq_no}") }
}

/// A collection of the model's name plus `suffix` (one per test: they run in parallel),
/// created with the model's validator (`validationAction: "error"`), empty.
fn collection(client: &Client, suffix: &str) -> Collection<ActivityFeed> {
    let db = client.database(ActivityFeed::DB_NAME);
    let name = format!("{}{suffix}", ActivityFeed::COLLECTION_NAME);
    db.collection::<Document>(&name).drop().run().expect("drop");
    let mut create = ActivityFeed::create_collection_command();
    create.insert("create", name.as_str());
    create.insert("validationAction", "error");
    db.run_command(create).run().expect("createCollection accepted");
    db.collection(&name)
}

#[test]
fn repeated_bounded_pushes_keep_the_newest_items_under_the_validator() {
    let Some(client) = client("repeated_bounded_pushes_keep_the_newest_items_under_the_validator") else { return };
    let feeds = collection(&client, "_push");
    let raw = feeds.clone_with_type::<RawDocumentBuf>();
    let local = Validator::for_type::<ActivityFeed>().expect("the local validator compiles the schema");
    feeds.insert_one(ActivityFeed { id: 1, recent_events: vec![], top_seq_nos: vec![] }).run().expect("insert");
    let fields = ActivityFeed::fields();
    let by_id = doc! { fields.id().as_str(): 1 };

    let mut pushed = Vec::new();
    for round in 0..8 {
        // two events a round, in a shuffled order of sequence numbers for the sorted array
        let batch = [event(2 * round), event(2 * round + 1)];
        let seq_nos = [2 * round + 1, (2 * round) * 7 % 17];
        pushed.extend(batch.iter().cloned());
        let update = fields.recent_events().push(&batch).update().expect("events serialize");
        feeds.update_one(by_id.clone(), update).run().expect("a bounded push passes the validator");
        let update = fields
            .top_seq_nos()
            .push(seq_nos)
            .sort(Order::Descending)
            .keep_first()
            .update()
            .expect("integers serialize");
        feeds.update_one(by_id.clone(), update).run().expect("a sorted bounded push passes the validator");

        let stored = feeds.find_one(by_id.clone()).run().expect("find").expect("the feed");
        let newest: Vec<Event> = pushed[pushed.len().saturating_sub(BOUND)..].to_vec();
        assert_eq!(stored.recent_events, newest, "round {round}: the newest {BOUND} events, oldest first");
        assert!(stored.recent_events.len() <= BOUND);
        assert_eq!(stored.top_seq_nos.len(), stored.recent_events.len());
        let mut top = stored.top_seq_nos.clone();
        top.sort_by(|a, b| b.cmp(a));
        assert_eq!(stored.top_seq_nos, top, "round {round}: kept highest first");
        let bytes = raw.find_one(by_id.clone()).run().expect("find").expect("the feed");
        assert!(local.is_valid_raw(&bytes), "round {round}: the local validator agrees");
    }
    assert_eq!(pushed.len(), 16, "the arrays were pushed past their bound many times over");
}

#[test]
fn an_unbounded_push_past_max_items_is_refused() {
    let Some(client) = client("an_unbounded_push_past_max_items_is_refused") else { return };
    let feeds = collection(&client, "_plain");
    let full = ActivityFeed { id: 2, recent_events: (0..BOUND as i32).map(event).collect(), top_seq_nos: vec![] };
    feeds.insert_one(&full).run().expect("a full array is accepted");
    let fields = ActivityFeed::fields();
    let by_id = doc! { fields.id().as_str(): 2 };
    // what the bounded push replaces: `$push` without `$slice`
    let item = mongo_schema_tests::bson::serialize_to_bson(&event(99)).expect("serializes");
    let plain = doc! { "$push": { fields.recent_events().as_str(): item } };
    let error = feeds.update_one(by_id.clone(), plain).run().expect_err("the array would exceed max_items");
    assert_eq!(code(&error), Some(VALIDATION_FAILED), "{error}");
    // the bounded push of the same item passes and drops the oldest
    let update = fields.recent_events().push([event(99)]).update().expect("serializes");
    feeds.update_one(by_id.clone(), update).run().expect("the bounded push passes");
    let stored = feeds.find_one(by_id).run().expect("find").expect("the feed");
    let seq_nos: Vec<i32> = stored.recent_events.iter().map(|e| e.seq_no).collect();
    assert_eq!(seq_nos, [1, 2, 3, 4, 99]);
}

/// `path!`'s paths on the server: a bounded push through `path!(...).push`, and a `$set`
/// through an array filter (`$[old]`), whose identifier's condition is a `path!` of the item.
#[test]
fn path_macro_paths_update_what_they_name() {
    let Some(client) = client("path_macro_paths_update_what_they_name") else { return };
    let feeds = collection(&client, "_macro");
    feeds.insert_one(ActivityFeed { id: 3, recent_events: vec![], top_seq_nos: vec![] }).run().expect("insert");
    let by_id = doc! { mongo_schema::path!(ActivityFeed.id).as_str(): 3 };
    let events = mongo_schema::path!(ActivityFeed.recent_events);
    assert_eq!(events.max_items(), Some(BOUND as u64));
    for seq_no in 0..7 {
        let update = events.push([event(seq_no)]).update().expect("an event serializes");
        feeds.update_one(by_id.clone(), update).run().expect("a bounded push passes the validator");
    }
    let edit = doc! { "$set": { mongo_schema::path!(ActivityFeed.recent_events.$[old].note).as_str(): "old" } };
    let old = format!("old.{}", mongo_schema::path!(Event.seq_no));
    feeds.update_one(by_id.clone(), edit).array_filters([doc! { old: { "$lt": 4 } }]).run().expect("a filtered $set");
    let stored = feeds.find_one(by_id).run().expect("find").expect("the feed");
    let seen: Vec<(i32, &str)> = stored.recent_events.iter().map(|e| (e.seq_no, e.note.as_str())).collect();
    assert_eq!(seen, [(2, "old"), (3, "old"), (4, "event 4"), (5, "event 5"), (6, "event 6")]);
}
