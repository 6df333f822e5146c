//! `query!` against a real mongod (`MONGODB_URI`, set by `scripts/with-mongod.sh`): every
//! form the macro accepts finds, counts, aggregates, updates and deletes the same documents
//! as the same filter written by hand with `doc!`, over seeded documents; and the shape the
//! macro writes matches the filter document it builds (a property test, which needs no
//! server). Without `MONGODB_URI` the mongod test says it was skipped and passes.

#![forbid(unsafe_code)]

use chrono::{TimeZone, Utc};
use mongo_schema::prelude::*;
use mongo_schema::query;
use mongo_schema::query::{Filter, Op, Shape};
use mongo_schema_tests::bson::{self, doc, oid::ObjectId, Bson, DateTime, Document};
use mongodb::options::{CountOptions, FindOptions};
use mongodb::sync::Collection;
use proptest::prelude::*;
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

use crate::support;
use support::client;

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, MongoSchema)]
enum Status {
    Paid,
    Shipped,
    Cancelled,
    /// Read from old documents, never written: a query's value of it matches no document.
    #[serde(skip_serializing)]
    Retired,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
struct Address {
    #[mongo(max_length = 20)]
    city: String,
    #[mongo(max_length = 10)]
    zip: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
struct Line {
    #[mongo(max_length = 10)]
    sku: String,
    quantity: i32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, MongoSchema)]
struct GeoPoint {
    #[serde(rename = "type")]
    #[mongo(max_length = 5)]
    kind: String,
    coordinates: [f64; 2],
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(
    db = "db_test_query",
    collection = "t_query_order",
    index(keys(location = "2dsphere")),
    index(keys(note = "text")),
    // the indexes the queries below need (each query is planned against them at compile time)
    index(keys(customerId = 1, status = 1, createTime = -1)),
    index(keys(status = 1, quantity = 1)),
    index(keys(paid = 1, quantity = 1)),
    index(keys(paid = 1, _id = 1)),
    index(keys(quantity = 1)),
    index(keys(paidTime = 1)),
    index(keys(note = 1, _id = 1)),
    index(keys("shipTo.city" = 1)),
    index(keys("shipTo.zip" = 1)),
    index(keys("lines.sku" = 1)),
    index(keys(tags = 1)),
    index(keys("labels.k0" = 1))
)]
struct QueryOrder {
    #[serde(rename = "_id")]
    id: i64,
    customer_id: ObjectId,
    status: Status,
    create_time: DateTime,
    #[serde(with = "mongo_schema::serde_helpers::chrono_datetime")]
    paid_time: chrono::DateTime<Utc>,
    #[serde(with = "mongo_schema::serde_helpers::decimal128")]
    total: Decimal,
    quantity: i32,
    weight: f64,
    paid: bool,
    #[mongo(max_length = 40)]
    note: Option<String>,
    ship_to: Address,
    #[mongo(max_items = 4)]
    lines: Vec<Line>,
    #[mongo(max_items = 4, items(max_length = 10))]
    tags: Vec<String>,
    #[mongo(max_properties = 4)]
    labels: BTreeMap<String, i64>,
    location: GeoPoint,
}

/// A typed projection: a subset of the model's keys, by key and type.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
struct Summary {
    #[serde(rename = "_id")]
    id: i64,
    status: Status,
    quantity: i32,
}

const CUSTOMERS: [&str; 3] = ["6592f1f8a1b2c3d4e5f6a7b0", "6592f1f8a1b2c3d4e5f6a7b1", "6592f1f8a1b2c3d4e5f6a7b2"];
const CITIES: [&str; 4] = ["Lyon", "Paris", "lyon", "Nantes"];
const SKUS: [&str; 4] = ["A-1", "A-2", "B-1", "C-9"];
const TAGS: [&str; 4] = ["gift", "rush", "fragile", "bulk"];

fn seeded(count: i64) -> Vec<QueryOrder> {
    let mut state: u64 = 0x5eed_0045;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut pick = move |n: u64| (next() % n) as usize;
    (0..count)
        .map(|id| {
            let lines = (0..pick(4)).map(|_| Line { sku: SKUS[pick(4)].into(), quantity: pick(6) as i32 }).collect();
            let tags: Vec<String> = (0..pick(4)).map(|_| TAGS[pick(4)].to_owned()).collect();
            let labels = (0..pick(3)).map(|i| (format!("k{i}"), pick(10) as i64)).collect();
            QueryOrder {
                id,
                customer_id: ObjectId::parse_str(CUSTOMERS[pick(3)]).expect("hex"),
                status: [Status::Paid, Status::Shipped, Status::Cancelled][pick(3)],
                create_time: DateTime::from_millis(1_767_225_600_000 + pick(1000) as i64 * 86_400_000 / 10),
                paid_time: Utc.timestamp_millis_opt(1_767_225_600_000 + pick(100) as i64 * 3_600_000).unwrap(),
                total: Decimal::new(pick(100_000) as i64, 2),
                quantity: pick(20) as i32,
                weight: pick(1000) as f64 / 10.0,
                paid: pick(2) == 0,
                note: (pick(3) != 0).then(|| format!("{} order {}", ["urgent", "gift", "plain"][pick(3)], id)),
                ship_to: Address {
                    city: CITIES[pick(4)].into(),
                    zip: (pick(2) == 0).then(|| format!("{:05}", pick(99999))),
                },
                lines,
                tags,
                labels,
                location: GeoPoint {
                    kind: "Point".into(),
                    coordinates: [pick(20) as f64 - 10.0, pick(20) as f64 - 10.0],
                },
            }
        })
        .collect()
}

fn ids(coll: &Collection<Document>, filter: Document, options: FindOptions) -> Vec<i64> {
    coll.find(filter)
        .with_options(options)
        .run()
        .expect("find")
        .map(|d| d.expect("document").get_i64("_id").expect("an i64 _id"))
        .collect()
}

/// The query and the hand-written filter find the same documents (in the same order when
/// sorted), and at least one: a filter matching nothing would prove nothing.
#[track_caller]
fn same<D>(coll: &Collection<Document>, q: &mongo_schema::query::Query<D>, filter: Document, options: FindOptions)
where
    D: mongo_schema::query::Driver<Find = FindOptions, Count = CountOptions>,
{
    assert_eq!(q.filter(), filter, "the query's filter is the hand-written one");
    let mut got = ids(coll, q.filter(), q.find_options());
    let mut want = ids(coll, filter, options);
    if q.sort().is_none() {
        // no order asked: the same set
        got.sort_unstable();
        want.sort_unstable();
    }
    assert!(!want.is_empty(), "the hand-written filter matches nothing: {:?}", q.filter());
    assert_eq!(got, want, "{:?}", q.filter());
}

fn sorted(sort: Document, limit: Option<i64>, skip: Option<u64>) -> FindOptions {
    let mut options = FindOptions::default();
    options.sort = Some(sort);
    options.limit = limit;
    options.skip = skip;
    options
}

fn by_id() -> FindOptions {
    sorted(doc! { "_id": 1 }, None, None)
}

#[test]
fn every_accepted_form_finds_what_the_hand_written_filter_finds() {
    let Some(client) = client("every_accepted_form_finds_what_the_hand_written_filter_finds") else { return };
    let db = client.database(QueryOrder::DB_NAME);
    db.collection::<Document>(QueryOrder::COLLECTION_NAME).drop().run().expect("drop");
    db.run_command(QueryOrder::create_collection_command()).run().expect("create");
    if let Some(indexes) = QueryOrder::create_indexes_command() {
        db.run_command(indexes).run().expect("indexes");
    }
    let typed = db.collection::<QueryOrder>(QueryOrder::COLLECTION_NAME);
    typed.insert_many(seeded(300)).run().expect("insert");
    let coll = db.collection::<Document>(QueryOrder::COLLECTION_NAME);

    let customer = ObjectId::parse_str(CUSTOMERS[1]).expect("hex");
    let since = DateTime::from_millis(1_767_225_600_000 + 40 * 86_400_000);
    let paid_since = Utc.timestamp_millis_opt(1_767_225_600_000 + 50 * 3_600_000).unwrap();
    let paid_since_bson = DateTime::from_millis(paid_since.timestamp_millis());
    let total = Decimal::new(50_000, 2);
    let total_bson: bson::Decimal128 = "500.00".parse().expect("decimal");
    let wanted = vec![Status::Paid, Status::Cancelled];
    let city = String::from("Lyon");

    // equality: an expression, a literal, an enum, a `null`; the fixed form of the issue
    let q = query!(QueryOrder, {
        "customerId": customer,
        "status": { "$in": [Status::Paid, Status::Shipped] },
        "createTime": { "$gte": since },
    }, sort = { "createTime": -1 }, limit = 50);
    same(
        &coll,
        &q,
        doc! { "customerId": customer, "status": { "$in": ["Paid", "Shipped"] }, "createTime": { "$gte": since } },
        sorted(doc! { "createTime": -1 }, Some(50), None),
    );
    let q = query!(QueryOrder, { "status": "Shipped", "paid": true });
    same(&coll, &q, doc! { "status": "Shipped", "paid": true }, by_id());
    let q = query!(QueryOrder, { "status": Status::Cancelled });
    same(&coll, &q, doc! { "status": "Cancelled" }, by_id());
    // references to the enum and to a string, the enum boxed (the runtime's one impl for
    // every type whose paths are a unit enum's), a string slice; a variant serde never
    // writes is the empty string, which no document holds
    let shipped = String::from("Shipped");
    let q = query!(QueryOrder, { "status": { "$in": [&wanted[1], &Status::Paid] } });
    same(&coll, &q, doc! { "status": { "$in": ["Cancelled", "Paid"] } }, by_id());
    let q = query!(QueryOrder, { "status": &shipped });
    same(&coll, &q, doc! { "status": "Shipped" }, by_id());
    let q = query!(QueryOrder, { "status": Box::new(Status::Cancelled), "paid": true });
    same(&coll, &q, doc! { "status": "Cancelled", "paid": true }, by_id());
    let q = query!(QueryOrder, { "status": { "$in": [shipped.as_str(), "Paid"] } });
    same(&coll, &q, doc! { "status": { "$in": ["Shipped", "Paid"] } }, by_id());
    let q = query!(QueryOrder, { "status": Status::Retired });
    assert_eq!(q.filter(), doc! { "status": "" });
    assert!(ids(&coll, q.filter(), q.find_options()).is_empty(), "a never written variant matched");
    let q = query!(QueryOrder, { "note": null });
    same(&coll, &q, doc! { "note": null }, by_id());
    let no_note: Option<String> = None;
    let q = query!(QueryOrder, { "note": no_note });
    same(&coll, &q, doc! { "note": null }, by_id());
    let q = query!(QueryOrder, { "status": Some(Status::Paid), "quantity": Bson::Int64(4) });
    same(&coll, &q, doc! { "status": "Paid", "quantity": 4_i64 }, by_id());
    let q = query!(QueryOrder, { "note": { "$eq": null } }, sort = { "_id": -1 });
    same(&coll, &q, doc! { "note": { "$eq": null } }, sorted(doc! { "_id": -1 }, None, None));

    // comparisons, written as the model writes them: a chrono date, a rust_decimal
    let q = query!(QueryOrder, { "paidTime": { "$gte": paid_since }, "total": { "$lt": total } });
    same(&coll, &q, doc! { "paidTime": { "$gte": paid_since_bson }, "total": { "$lt": total_bson } }, by_id());
    let q = query!(QueryOrder, { "quantity": { "$gt": 3, "$lte": 12 }, "weight": { "$lt": 50 } });
    same(&coll, &q, doc! { "quantity": { "$gt": 3, "$lte": 12 }, "weight": { "$lt": 50 } }, by_id());
    let q = query!(QueryOrder, { "status": { "$ne": Status::Paid }, "quantity": { "$nin": [1, 2, 3] } }, allow(query_unindexed, reason = "the operator against mongod is under test, not its plan"));
    same(&coll, &q, doc! { "status": { "$ne": "Paid" }, "quantity": { "$nin": [1, 2, 3] } }, by_id());
    let q = query!(QueryOrder, { "status": { "$in": wanted.clone() } });
    same(&coll, &q, doc! { "status": { "$in": ["Paid", "Cancelled"] } }, by_id());
    let q = query!(QueryOrder, { "status": { "$in": &wanted } });
    same(&coll, &q, doc! { "status": { "$in": ["Paid", "Cancelled"] } }, by_id());

    // $exists, $type, $regex (with options), $not, $mod
    let q = query!(QueryOrder, { "labels.k1": { "$exists": false } }, allow(query_unindexed, reason = "the operator against mongod is under test, not its plan"));
    same(&coll, &q, doc! { "labels.k1": { "$exists": false } }, by_id());
    let q = query!(QueryOrder, { "note": { "$exists": true, "$type": "string" } }, allow(query_unindexed, reason = "the operator against mongod is under test, not its plan"));
    same(&coll, &q, doc! { "note": { "$exists": true, "$type": "string" } }, by_id());
    let q = query!(QueryOrder, { "shipTo.city": { "$regex": "^ly", "$options": "i" } }, allow(query_unindexed, reason = "the operator against mongod is under test, not its plan"));
    same(&coll, &q, doc! { "shipTo.city": { "$regex": "^ly", "$options": "i" } }, by_id());
    let q = query!(QueryOrder, { "shipTo.city": { "$not": { "$regex": "^L" } } }, allow(query_unindexed, reason = "the operator against mongod is under test, not its plan"));
    same(&coll, &q, doc! { "shipTo.city": { "$not": { "$regex": "^L" } } }, by_id());
    let q = query!(QueryOrder, { "quantity": { "$not": { "$gt": 5 } } }, allow(query_unindexed, reason = "the operator against mongod is under test, not its plan"));
    same(&coll, &q, doc! { "quantity": { "$not": { "$gt": 5 } } }, by_id());
    let q = query!(QueryOrder, { "quantity": { "$mod": [4, 1] } }, allow(query_unindexed, reason = "the operator against mongod is under test, not its plan"));
    same(&coll, &q, doc! { "quantity": { "$mod": [4, 1] } }, by_id());

    // embedded documents and arrays, dotted as mongosh writes them; maps
    let q = query!(QueryOrder, { "shipTo.city": &city });
    same(&coll, &q, doc! { "shipTo.city": "Lyon" }, by_id());
    let q = query!(QueryOrder, { "lines.sku": "A-2", "lines.0.quantity": { "$gte": 2 } });
    same(&coll, &q, doc! { "lines.sku": "A-2", "lines.0.quantity": { "$gte": 2 } }, by_id());
    let q = query!(QueryOrder, { "tags": "rush" });
    same(&coll, &q, doc! { "tags": "rush" }, by_id());
    let q = query!(QueryOrder, { "tags": { "$all": ["rush", "gift"] } });
    same(&coll, &q, doc! { "tags": { "$all": ["rush", "gift"] } }, by_id());
    let q = query!(QueryOrder, { "tags": { "$size": 2 } }, allow(query_unindexed, reason = "the operator against mongod is under test, not its plan"));
    same(&coll, &q, doc! { "tags": { "$size": 2 } }, by_id());
    let q = query!(QueryOrder, { "lines": { "$elemMatch": { "sku": "B-1", "quantity": { "$gt": 2 } } } });
    same(&coll, &q, doc! { "lines": { "$elemMatch": { "sku": "B-1", "quantity": { "$gt": 2 } } } }, by_id());
    let q = query!(QueryOrder, { "tags": { "$elemMatch": { "$gte": "f", "$lt": "h" } } });
    same(&coll, &q, doc! { "tags": { "$elemMatch": { "$gte": "f", "$lt": "h" } } }, by_id());
    let q = query!(QueryOrder, { "labels.k0": { "$gte": 5 } });
    same(&coll, &q, doc! { "labels.k0": { "$gte": 5 } }, by_id());
    let q = query!(QueryOrder, { "shipTo": { "city": "Paris", "zip": null } }, allow(query_unindexed, reason = "the operator against mongod is under test, not its plan"));
    same(&coll, &q, doc! { "shipTo": { "city": "Paris", "zip": null } }, by_id());

    // logical operators, `$expr` taken as written
    let q = query!(QueryOrder, { "$or": [{ "status": Status::Paid }, { "quantity": { "$lt": 3 } }], "paid": false });
    same(&coll, &q, doc! { "$or": [{ "status": "Paid" }, { "quantity": { "$lt": 3 } }], "paid": false }, by_id());
    let q = query!(QueryOrder, { "$and": [{ "quantity": { "$gte": 5 } }, { "quantity": { "$lt": 9 } }] });
    same(&coll, &q, doc! { "$and": [{ "quantity": { "$gte": 5 } }, { "quantity": { "$lt": 9 } }] }, by_id());
    let q = query!(QueryOrder, { "$nor": [{ "paid": true }, { "status": "Shipped" }] });
    same(&coll, &q, doc! { "$nor": [{ "paid": true }, { "status": "Shipped" }] }, by_id());
    let q = query!(QueryOrder, { "$expr": { "$gt": ["$quantity", { "$size": "$tags" }] } });
    same(&coll, &q, doc! { "$expr": { "$gt": ["$quantity", { "$size": "$tags" }] } }, by_id());

    // text and geo, on the model's text and 2dsphere indexes
    let q = query!(QueryOrder, { "$text": { "$search": "urgent" } });
    same(&coll, &q, doc! { "$text": { "$search": "urgent" } }, by_id());
    let q = query!(QueryOrder, { "location": { "$near": { "$geometry": { "type": "Point", "coordinates": [0.0, 0.0] }, "$maxDistance": 500_000.0 } } }, limit = 20);
    same(
        &coll,
        &q,
        doc! { "location": { "$near": { "$geometry": { "type": "Point", "coordinates": [0.0, 0.0] }, "$maxDistance": 500_000.0 } } },
        sorted(doc! {}, Some(20), None).tap_no_sort(),
    );
    let q = query!(QueryOrder, { "location": { "$geoWithin": { "$box": [[-5.0, -5.0], [5.0, 5.0]] } } });
    same(&coll, &q, doc! { "location": { "$geoWithin": { "$box": [[-5.0, -5.0], [5.0, 5.0]] } } }, by_id());

    // options: sort, skip, limit, a projection document, a typed projection
    let q = query!(QueryOrder, { "paid": true }, sort = { "quantity": 1, "_id": -1 }, skip = 5, limit = 10);
    same(&coll, &q, doc! { "paid": true }, sorted(doc! { "quantity": 1, "_id": -1 }, Some(10), Some(5)));
    let q = query!(QueryOrder, { "paid": true }, projection = { "status": 1, "quantity": 1 }, sort = { "_id": 1 });
    let projected: Vec<Document> =
        coll.find(q.filter()).with_options(q.find_options()).run().expect("find").map(|d| d.expect("doc")).collect();
    assert!(
        !projected.is_empty()
            && projected.iter().all(|d| d.keys().collect::<Vec<_>>() == ["_id", "status", "quantity"]),
        "{projected:?}"
    );
    let q = query!(QueryOrder, { "paid": true }, projection = Summary, sort = { "_id": 1 });
    assert_eq!(q.projection(), Some(doc! { "_id": 1, "status": 1, "quantity": 1 }));
    let summaries: Vec<Summary> = db
        .collection::<Summary>(QueryOrder::COLLECTION_NAME)
        .find(q.filter())
        .with_options(q.find_options())
        .run()
        .expect("find")
        .map(|s| s.expect("a Summary reads back"))
        .collect();
    let all = seeded(300);
    let want: Vec<Summary> =
        all.iter().filter(|o| o.paid).map(|o| Summary { id: o.id, status: o.status, quantity: o.quantity }).collect();
    assert_eq!(summaries, want);

    // the same query through count_documents, aggregate, update_many and delete_many
    let q = query!(QueryOrder, { "status": Status::Shipped, "quantity": { "$gte": 4 } }, sort = { "quantity": -1 }, skip = 2, limit = 7);
    let filter = doc! { "status": "Shipped", "quantity": { "$gte": 4 } };
    let counted = coll.count_documents(q.filter()).with_options(q.count_options()).run().expect("count");
    let by_hand = coll.count_documents(filter.clone()).run().expect("count");
    assert_eq!(counted, by_hand.saturating_sub(2).min(7), "count with the query's skip and limit");
    let aggregated: Vec<i64> = coll
        .aggregate(q.pipeline())
        .run()
        .expect("aggregate")
        .map(|d| d.expect("doc").get_i64("_id").expect("_id"))
        .collect();
    let found = ids(&coll, filter.clone(), sorted(doc! { "quantity": -1 }, Some(7), Some(2)));
    assert_eq!(aggregated.len(), found.len());
    let marked = coll.update_many(q.filter(), doc! { "$set": { "weight": -1.0 } }).run().expect("update");
    assert_eq!(marked.matched_count, by_hand);
    let deleted = coll.delete_many(q.filter()).run().expect("delete");
    assert_eq!(deleted.deleted_count, by_hand);
    assert_eq!(coll.count_documents(filter).run().expect("count"), 0);
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
struct Carrier {
    #[mongo(max_length = 20)]
    carrier_name: String,
}

/// Written beside the tag by the newtype variant `Contact::Sms`: its own names and its
/// flattened struct's keys.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
struct SmsInfo {
    #[mongo(max_length = 20)]
    phone_number: String,
    segments: i32,
    #[serde(flatten)]
    carrier: Carrier,
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, MongoSchema)]
enum Tone {
    Loud,
    Quiet,
}

/// Internally tagged: a struct variant, a newtype variant, a unit variant; `priority` is an
/// int in `Email`, a string in `Push`; `tone` an enum in `Email`, any string in `Push`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, MongoSchema)]
#[serde(tag = "kind", rename_all = "camelCase")]
enum Contact {
    Email {
        #[mongo(max_length = 40)]
        inbox: String,
        priority: i32,
        tone: Tone,
    },
    Push {
        #[mongo(max_length = 10)]
        priority: String,
        #[mongo(max_length = 10)]
        tone: String,
    },
    Sms(SmsInfo),
    Off,
}

/// Untagged: its keys are any variant's, not checked.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, MongoSchema)]
#[serde(untagged)]
enum Extra {
    Ref {
        code: i64,
    },
    Note {
        #[mongo(max_length = 20)]
        text: String,
    },
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(db = "db_test_query", collection = "t_query_notice", index(keys("contact.kind" = 1)))]
struct Notice {
    #[serde(rename = "_id")]
    id: i64,
    contact: Contact,
    #[mongo(max_items = 3)]
    past: Vec<Contact>,
    extra: Extra,
    /// a flattened map: any key beside the model's
    #[serde(flatten)]
    #[mongo(max_properties = 6)]
    meta: BTreeMap<String, String>,
}

fn notices(count: i64) -> Vec<Notice> {
    let mut state: u64 = 0x5eed_0046;
    let mut pick = move |n: u64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n) as usize
    };
    (0..count)
        .map(|id| {
            let contact = |pick: &mut dyn FnMut(u64) -> usize| match pick(4) {
                0 => Contact::Email {
                    inbox: ["ops", "support"][pick(2)].into(),
                    priority: pick(4) as i32,
                    tone: [Tone::Loud, Tone::Quiet][pick(2)],
                },
                1 => Contact::Push {
                    priority: ["high", "low", "2"][pick(3)].into(),
                    tone: ["Loud", "silent"][pick(2)].into(),
                },
                2 => Contact::Sms(SmsInfo {
                    phone_number: ["+33 600", "+44 700"][pick(2)].into(),
                    segments: pick(4) as i32,
                    carrier: Carrier { carrier_name: ["Orange", "Vodafone"][pick(2)].into() },
                }),
                _ => Contact::Off,
            };
            let past = (0..pick(3)).map(|_| contact(&mut pick)).collect();
            let contact = contact(&mut pick);
            let extra = match pick(2) {
                0 => Extra::Ref { code: pick(10) as i64 },
                _ => Extra::Note { text: ["urgent", "later"][pick(2)].into() },
            };
            let meta = match pick(3) {
                0 => BTreeMap::new(),
                n => [("source".to_owned(), ["web", "app"][n - 1].to_owned())].into_iter().collect(),
            };
            Notice { id, contact, past, extra, meta }
        })
        .collect()
}

/// Keys through an internally tagged enum's newtype variant (its struct's names, its
/// flattened struct's), a key two variants store as different types (each type's values
/// accepted), an untagged enum's and a flattened map's keys (any): each query finds what
/// the filter written by hand finds.
#[test]
fn tagged_enum_keys_find_what_the_hand_written_filter_finds() {
    let Some(client) = client("tagged_enum_keys_find_what_the_hand_written_filter_finds") else { return };
    let db = client.database(Notice::DB_NAME);
    db.collection::<Document>(Notice::COLLECTION_NAME).drop().run().expect("drop");
    db.run_command(Notice::create_collection_command()).run().expect("create");
    db.collection::<Notice>(Notice::COLLECTION_NAME)
        .insert_many(notices(120))
        .run()
        .expect("insert: the validator takes every variant");
    let coll = db.collection::<Document>(Notice::COLLECTION_NAME);
    let priority: i32 = 2;
    let level = String::from("high");

    // the newtype variant's keys, its flattened struct's
    let q = query!(Notice, { "contact.phoneNumber": "+33 600" }, allow(query_unindexed, reason = "the keys are under test"));
    same(&coll, &q, doc! { "contact.phoneNumber": "+33 600" }, by_id());
    let q =
        query!(Notice, { "contact.kind": "sms", "contact.carrierName": "Orange", "contact.segments": { "$gte": 2 } });
    same(
        &coll,
        &q,
        doc! { "contact.kind": "sms", "contact.carrierName": "Orange", "contact.segments": { "$gte": 2 } },
        by_id(),
    );
    // a key an int in `Email`, a string in `Push`: either type's values
    let q = query!(Notice, { "contact.priority": 2 }, allow(query_unindexed, reason = "the keys are under test"));
    same(&coll, &q, doc! { "contact.priority": 2 }, by_id());
    let q = query!(Notice, { "contact.priority": "high" }, allow(query_unindexed, reason = "the keys are under test"));
    same(&coll, &q, doc! { "contact.priority": "high" }, by_id());
    let q = query!(Notice, { "contact.priority": { "$in": [3, "low", "2"] } }, allow(query_unindexed, reason = "the keys are under test"));
    same(&coll, &q, doc! { "contact.priority": { "$in": [3, "low", "2"] } }, by_id());
    let q =
        query!(Notice, { "contact.priority": priority }, allow(query_unindexed, reason = "the keys are under test"));
    same(&coll, &q, doc! { "contact.priority": 2 }, by_id());
    let q = query!(Notice, { "contact.priority": &level }, allow(query_unindexed, reason = "the keys are under test"));
    same(&coll, &q, doc! { "contact.priority": "high" }, by_id());
    // an enum in `Email`, a string in `Push`: the enum, or any string
    let q = query!(Notice, { "contact.tone": Tone::Loud }, allow(query_unindexed, reason = "the keys are under test"));
    same(&coll, &q, doc! { "contact.tone": "Loud" }, by_id());
    let q = query!(Notice, { "contact.tone": "silent" }, allow(query_unindexed, reason = "the keys are under test"));
    same(&coll, &q, doc! { "contact.tone": "silent" }, by_id());
    // inside `$elemMatch` on an array of the enum: the same keys, either type's values
    let q = query!(Notice, { "past": { "$elemMatch": { "priority": "high" } } }, allow(query_unindexed, reason = "the keys are under test"));
    same(&coll, &q, doc! { "past": { "$elemMatch": { "priority": "high" } } }, by_id());
    let q = query!(Notice, { "past": { "$elemMatch": { "kind": "sms", "carrierName": "Orange" } } }, allow(query_unindexed, reason = "the keys are under test"));
    same(&coll, &q, doc! { "past": { "$elemMatch": { "kind": "sms", "carrierName": "Orange" } } }, by_id());
    let q = query!(Notice, { "past.priority": { "$in": [1, "low"] } }, allow(query_unindexed, reason = "the keys are under test"));
    same(&coll, &q, doc! { "past.priority": { "$in": [1, "low"] } }, by_id());
    // an untagged enum's keys and a flattened map's: any key
    let q =
        query!(Notice, { "extra.code": { "$lt": 5i64 } }, allow(query_unindexed, reason = "the keys are under test"));
    same(&coll, &q, doc! { "extra.code": { "$lt": 5i64 } }, by_id());
    let q = query!(Notice, { "source": "web", "extra.text": "urgent" }, allow(query_unindexed, reason = "the keys are under test"));
    same(&coll, &q, doc! { "source": "web", "extra.text": "urgent" }, by_id());
}

/// `$near` returns documents by distance: no sort to add.
trait NoSort {
    fn tap_no_sort(self) -> Self;
}

impl NoSort for FindOptions {
    fn tap_no_sort(mut self) -> Self {
        self.sort = None;
        self
    }
}

/// The predicates of a filter document as the shape names them: `(path, operator)`.
fn document_preds(filter: &Document, prefix: &str, out: &mut Vec<(String, String)>) {
    for (key, value) in filter {
        match key.as_str() {
            "$and" | "$or" | "$nor" => {
                for branch in value.as_array().expect("an array of branches") {
                    document_preds(branch.as_document().expect("a branch"), prefix, out);
                }
            }
            "$text" | "$expr" | "$where" => out.push((String::new(), key.clone())),
            _ => {
                let path = format!("{prefix}{key}");
                match value {
                    Bson::Document(ops) if ops.keys().next().is_some_and(|k| k.starts_with('$')) => {
                        for (op, arg) in ops {
                            match op.as_str() {
                                "$options" | "$maxDistance" | "$minDistance" => {}
                                "$eq" if *arg == Bson::Null => out.push((path.clone(), "EqNull".into())),
                                "$elemMatch" => {
                                    let inner = arg.as_document().expect("a document");
                                    if inner.keys().next().is_some_and(|k| k.starts_with('$')) {
                                        out.push((path.clone(), "ElemMatchValue".into()));
                                    } else {
                                        out.push((path.clone(), "ElemMatch".into()));
                                    }
                                }
                                op => out.push((path.clone(), shape_name(op).into())),
                            }
                        }
                    }
                    Bson::Null => out.push((path, "EqNull".into())),
                    _ => out.push((path, "Eq".into())),
                }
            }
        }
    }
}

fn shape_name(op: &str) -> &'static str {
    match op {
        "$eq" => "Eq",
        "$ne" => "Ne",
        "$gt" => "Gt",
        "$gte" => "Gte",
        "$lt" => "Lt",
        "$lte" => "Lte",
        "$in" => "In",
        "$nin" => "Nin",
        "$exists" => "Exists",
        "$type" => "Type",
        "$regex" => "Regex",
        "$size" => "Size",
        "$all" => "All",
        "$mod" => "Mod",
        "$not" => "Not",
        "$near" | "$nearSphere" => "Near",
        "$geoWithin" | "$geoIntersects" => "GeoWithin",
        other => panic!("an operator the shape does not name: {other}"),
    }
}

fn op_name(op: &Op) -> &'static str {
    match op {
        Op::Eq => "Eq",
        Op::EqNull => "EqNull",
        Op::Ne => "Ne",
        Op::Gt => "Gt",
        Op::Gte => "Gte",
        Op::Lt => "Lt",
        Op::Lte => "Lte",
        Op::In { .. } => "In",
        Op::Nin => "Nin",
        Op::Exists(_) => "Exists",
        Op::Type => "Type",
        Op::Regex { .. } => "Regex",
        Op::Size => "Size",
        Op::All => "All",
        Op::ElemMatch(_) => "ElemMatch",
        Op::ElemMatchValue(_) => "ElemMatchValue",
        Op::Mod => "Mod",
        Op::Not(_) => "Not",
        Op::Near => "Near",
        Op::GeoWithin => "GeoWithin",
    }
}

fn shape_preds(filter: &[Filter], out: &mut Vec<(String, String)>) {
    for node in filter {
        match node {
            Filter::Pred(pred) => out.push((pred.path.to_owned(), op_name(&pred.op).to_owned())),
            Filter::And(branches) | Filter::Or(branches) | Filter::Nor(branches) => {
                for branch in *branches {
                    shape_preds(branch, out);
                }
            }
            Filter::Text => out.push((String::new(), "$text".into())),
            Filter::Opaque(name) => out.push((String::new(), (*name).to_owned())),
        }
    }
}

#[track_caller]
fn agree(shape: &Shape, filter: &Document) {
    let (mut from_shape, mut from_document) = (Vec::new(), Vec::new());
    shape_preds(shape.filter, &mut from_shape);
    document_preds(filter, "", &mut from_document);
    from_shape.sort();
    from_document.sort();
    assert_eq!(from_shape, from_document, "{filter}");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, rng_seed: proptest::test_runner::RngSeed::Fixed(45), ..ProptestConfig::default() })]

    /// Whatever the values, the shape names each key and operator of the filter document
    /// the query builds, and `$in`'s literal length and `null` are the document's.
    #[test]
    fn the_shape_matches_the_filter_document(
        quantity in any::<i32>(),
        low in any::<i32>(),
        weight in any::<f64>().prop_filter("not NaN", |w| !w.is_nan()),
        city in "[a-zA-Z]{0,8}",
        statuses in proptest::collection::vec(prop_oneof![Just(Status::Paid), Just(Status::Shipped)], 0..4),
        skus in proptest::collection::vec("[A-Z]-[0-9]", 1..4),
    ) {
        let queries = [
            (query!(QueryOrder, { "quantity": quantity, "weight": { "$gte": weight } }).into_filter(), query!(QueryOrder, { "quantity": quantity, "weight": { "$gte": weight } }).shape()),
            (query!(QueryOrder, { "shipTo.city": &city, "note": null }).into_filter(), query!(QueryOrder, { "shipTo.city": &city, "note": null }).shape()),
            (query!(QueryOrder, { "status": { "$in": statuses.clone() }, "tags": { "$all": skus.clone() } }).into_filter(), query!(QueryOrder, { "status": { "$in": statuses.clone() }, "tags": { "$all": skus.clone() } }).shape()),
            (query!(QueryOrder, { "$or": [{ "quantity": { "$lt": low } }, { "lines": { "$elemMatch": { "sku": &city, "quantity": { "$gt": low } } } }] }).into_filter(),
             query!(QueryOrder, { "$or": [{ "quantity": { "$lt": low } }, { "lines": { "$elemMatch": { "sku": &city, "quantity": { "$gt": low } } } }] }).shape()),
            (query!(QueryOrder, { "note": { "$exists": true, "$regex": "^a" }, "quantity": { "$not": { "$gte": low } }, "$text": { "$search": "x" } }).into_filter(),
             query!(QueryOrder, { "note": { "$exists": true, "$regex": "^a" }, "quantity": { "$not": { "$gte": low } }, "$text": { "$search": "x" } }).shape()),
        ];
        for (filter, shape) in &queries {
            agree(shape, filter);
        }
        let q = query!(QueryOrder, { "quantity": { "$in": [1, quantity, 3] }, "note": { "$in": [null, "a"] } });
        let (first, second) = (&q.shape().filter[0], &q.shape().filter[1]);
        prop_assert!(matches!(first, Filter::Pred(p) if matches!(p.op, Op::In { len: Some(3), null: false })), "{:?}", q.shape());
        prop_assert!(matches!(second, Filter::Pred(p) if matches!(p.op, Op::In { len: Some(2), null: true })), "{:?}", q.shape());
        let q = query!(QueryOrder, { "shipTo.zip": { "$exists": true } }, allow(query_unindexed, reason = "the operator against mongod is under test, not its plan"));
        let r = query!(QueryOrder, { "shipTo.zip": { "$exists": false } });
        prop_assert!(matches!(&q.shape().filter[0], Filter::Pred(p) if matches!(p.op, Op::Exists(true))), "{:?}", q.shape());
        prop_assert!(matches!(&r.shape().filter[0], Filter::Pred(p) if matches!(p.op, Op::Exists(false))), "{:?}", q.shape());
    }
}

#[test]
fn a_regex_gives_bounds_only_anchored_and_case_sensitive() {
    let prefix = |q: &Shape| match &q.filter[0] {
        Filter::Pred(p) => matches!(p.op, Op::Regex { prefix: true }),
        _ => false,
    };
    assert!(prefix(query!(QueryOrder, { "note": { "$regex": "^urg" } }).shape()));
    assert!(!prefix(query!(QueryOrder, { "note": { "$regex": "^urg", "$options": "i" } }, allow(query_unindexed, reason = "the operator against mongod is under test, not its plan")).shape()));
    assert!(!prefix(query!(QueryOrder, { "note": { "$regex": "urg" } }, allow(query_unindexed, reason = "the operator against mongod is under test, not its plan")).shape()));
    assert!(!prefix(query!(QueryOrder, { "note": { "$regex": "^.rg" } }, allow(query_unindexed, reason = "the operator against mongod is under test, not its plan")).shape()));
    let pattern = String::from("^urg");
    assert!(
        !prefix(query!(QueryOrder, { "note": { "$regex": pattern } }, allow(query_unindexed, reason = "the operator against mongod is under test, not its plan")).shape()),
        "an expression's pattern is not known"
    );
}

#[test]
fn every_query_registers_itself_with_its_model() {
    let (q, line) = (query!(QueryOrder, { "paid": true }, name = "paid orders", limit = 3), line!());
    let found: Vec<_> =
        mongo_schema::query::registered_queries().filter(|r| r.shape.name == Some("paid orders")).collect();
    assert_eq!(found.len(), 1);
    // the query's own static where the linker gathers a section by name (ELF); a copy of it
    // elsewhere, registered through linkme's section macro
    if cfg!(any(target_os = "linux", target_os = "android", target_os = "fuchsia")) {
        assert!(std::ptr::eq(&found[0].shape, q.shape()));
    }
    assert_eq!(found[0].rust_type, "QueryOrder");
    let model = (found[0].model)(found[0].rust_type);
    assert_eq!((model.db, model.collection), ("db_test_query", "t_query_order"));
    assert_eq!(found[0].shape.line, line);
    assert_eq!(found[0].shape.file, file!());
    assert!(mongo_schema::query::registered_queries().count() > 40);
}

/// A sharded model for the planner's waivers: one index per query shape below.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(
    db = "db_test_query",
    collection = "t_query_sharded_order",
    index(keys(customerId = 1, createTime = -1)),
    index(keys(createTime = -1)),
    shard_key(customerId = 1)
)]
struct ShardedOrder {
    #[serde(rename = "_id")]
    id: i64,
    customer_id: ObjectId,
    status: Status,
    create_time: DateTime,
}

/// The passing side of `query_unindexed`, `query_sort_in_memory` and `query_broadcast`
/// (the failing side is `uitests/ui/query_*/`): each query below breaks its rule and
/// compiles because it waives it with a reason; the same shape without its waivers is
/// refused by the same planner, and the waiver is kept in the shape for `schema queries`.
#[test]
fn each_planner_rule_is_waived_on_the_query_with_its_reason() {
    use mongo_schema::query::plan::{plan, problem, Rule};
    let (customer, since) = (ObjectId::parse_str(CUSTOMERS[0]).expect("hex"), DateTime::from_millis(1_767_225_600_000));
    let model = mongo_schema::Registration::of::<ShardedOrder>("ShardedOrder");
    let waived = [
        (
            query!(ShardedOrder, { "status": Status::Paid }, limit = 20,
                allow(query_unindexed, reason = "an admin screen over a few hundred orders"),
                allow(query_broadcast, reason = "an admin screen reads every shard"))
            .shape(),
            Rule::Unindexed,
        ),
        (
            query!(ShardedOrder, { "customerId": customer }, sort = { "status": 1 },
                allow(query_sort_in_memory, reason = "a customer has at most a few dozen orders"))
            .shape(),
            Rule::SortInMemory,
        ),
        (
            query!(ShardedOrder, { "createTime": { "$gte": since } }, limit = 100,
                allow(query_broadcast, reason = "the daily report reads every shard"))
            .shape(),
            Rule::Broadcast,
        ),
    ];
    for (shape, rule) in waived {
        assert_eq!(problem(shape, &plan(shape, &model)), None, "{shape:?}");
        assert!(shape.allow.iter().any(|(id, reason)| *id == rule.id() && !reason.is_empty()), "{shape:?}");
        let unwaived = Shape { allow: &[], ..*shape };
        assert_eq!(problem(&unwaived, &plan(&unwaived, &model)), Some(rule), "{shape:?}");
    }
    // and a query the indexes serve needs no waiver
    let served =
        query!(ShardedOrder, { "customerId": customer, "createTime": { "$gte": since } }, sort = { "createTime": -1 });
    assert_eq!(problem(served.shape(), &plan(served.shape(), &model)), None);
}

// ---------------------------------------------------------------------------------------
// Held-out style: models written as a user writes them (serde renames, `Option`s skipped
// when `None`, nested structs, arrays of documents, `flatten`, an internally tagged enum, a
// map, `renamed_from`, Decimal / DateTime / ObjectId / Uuid through their helpers, a unit
// enum) with an index of every kind the derive takes, and queries in the issue's fixed
// form: each compiled verdict against mongod's `explain` of the very filter and options the
// query builds (its own values, not representative ones), on collections created by the
// models' own commands.

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, MongoSchema)]
enum TicketState {
    Open,
    Pending,
    Solved,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
struct Org {
    #[mongo(max_length = 40)]
    org_name: String,
    tier: i32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
struct Requester {
    #[mongo(max_length = 80)]
    email_address: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[mongo(max_length = 20)]
    phone: Option<String>,
    org: Org,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
struct Reaction {
    #[mongo(max_length = 8)]
    emoji: String,
    count: i32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
struct Reply {
    author_id: ObjectId,
    posted_at: DateTime,
    votes: i32,
    #[mongo(max_length = 200)]
    body: String,
    #[mongo(max_items = 5)]
    reactions: Vec<Reaction>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
struct Stamp {
    #[mongo(max_length = 40)]
    created_by: String,
    #[serde(with = "mongo_schema::serde_helpers::chrono_datetime")]
    created_at: chrono::DateTime<Utc>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, MongoSchema)]
#[serde(tag = "kind", rename_all = "camelCase")]
enum Channel {
    Email {
        #[mongo(max_length = 80)]
        inbox: String,
    },
    Phone {
        #[mongo(max_length = 20)]
        number: String,
        minutes: i32,
    },
    Chat,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(
    db = "db_test_query_heldout",
    collection = "t_ticket",
    index(keys(tenant = 1, state = 1, openedAt = -1)),
    index(keys(number = 1), unique),
    index(keys(assignee = 1, priority = -1), partial = r#"{"assignee": {"$exists": true}}"#),
    index(keys(priority = 1), name = "urgent_priority", partial = r#"{"priority": {"$gte": 3}}"#),
    index(keys(externalRef = 1), sparse),
    index(keys(slug = "hashed")),
    index(keys(subject = "text", "replies.body" = "text")),
    index(keys(place = "2dsphere")),
    index(keys("requester.emailAddress" = 1), collation(locale = "en", strength = 2)),
    index(keys("attributes.$**" = 1)),
    index(keys(legacyCode = 1), hidden),
    index(keys(expiresAt = 1), ttl = 86400),
    index(keys("replies.authorId" = 1, "replies.postedAt" = -1)),
    index(keys("replies.reactions.emoji" = 1)),
    index(keys(amount = -1)),
    index(keys(labels = 1)),
    index(keys("channel.kind" = 1, createdAt = -1))
)]
struct Ticket {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[mongo(max_length = 40)]
    tenant: String,
    number: i64,
    #[mongo(max_length = 40)]
    slug: String,
    state: TicketState,
    priority: i32,
    #[mongo(max_length = 200)]
    subject: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[mongo(max_length = 40)]
    assignee: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[mongo(max_length = 40)]
    external_ref: Option<String>,
    opened_at: DateTime,
    #[serde(with = "mongo_schema::serde_helpers::decimal128")]
    amount: Decimal,
    #[serde(with = "mongo_schema::serde_helpers::uuid_binary")]
    trace_id: uuid::Uuid,
    #[mongo(renamed_from = "customer")]
    #[serde(alias = "customer")]
    requester: Requester,
    #[mongo(max_items = 20)]
    replies: Vec<Reply>,
    #[mongo(max_items = 10, items(max_length = 20))]
    labels: Vec<String>,
    #[mongo(max_properties = 10)]
    attributes: BTreeMap<String, String>,
    #[serde(flatten)]
    stamp: Stamp,
    channel: Channel,
    place: GeoPoint,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[mongo(max_length = 10)]
    legacy_code: Option<String>,
    expires_at: DateTime,
    open: bool,
}

/// Sharded on `account`, with a default collation every index without its own inherits.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(
    db = "db_test_query_heldout",
    collection = "t_invoice",
    collation(locale = "fr", strength = 1),
    index(keys(account = 1, issuedAt = -1)),
    index(keys(customerName = 1)),
    index(keys(code = 1), collation(locale = "simple")),
    index(keys(total = 1)),
    index(keys(issuedAt = 1), name = "unpaid_by_date", partial = r#"{"paid": false}"#),
    shard_key(account = 1)
)]
struct Invoice {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[mongo(max_length = 40)]
    account: String,
    issued_at: DateTime,
    #[mongo(max_length = 80)]
    customer_name: String,
    #[mongo(max_length = 20)]
    code: String,
    total: i64,
    paid: bool,
}

fn a_ticket() -> Ticket {
    let reply = |n: u8| Reply {
        author_id: ObjectId::from_bytes([n; 12]),
        posted_at: DateTime::from_millis(1_767_225_600_000),
        votes: i32::from(n),
        body: "a reply".into(),
        reactions: vec![Reaction { emoji: "+1".into(), count: 1 }, Reaction { emoji: "ok".into(), count: 2 }],
    };
    Ticket {
        id: ObjectId::from_bytes([9; 12]),
        tenant: "acme".into(),
        number: 1,
        slug: "printer-jam".into(),
        state: TicketState::Open,
        priority: 3,
        subject: "printer jam".into(),
        assignee: Some("ann".into()),
        external_ref: Some("EXT-1".into()),
        opened_at: DateTime::from_millis(1_767_225_600_000),
        amount: Decimal::new(1250, 2),
        trace_id: uuid::Uuid::from_bytes([7; 16]),
        requester: Requester {
            email_address: "bob@example.com".into(),
            phone: None,
            org: Org { org_name: "Acme".into(), tier: 2 },
        },
        replies: vec![reply(1), reply(2)],
        labels: vec!["vip".into(), "hardware".into()],
        attributes: [("color".to_owned(), "red".to_owned())].into_iter().collect(),
        stamp: Stamp { created_by: "bot".into(), created_at: Utc.timestamp_millis_opt(1_767_225_600_000).unwrap() },
        channel: Channel::Email { inbox: "support".into() },
        place: GeoPoint { kind: "Point".into(), coordinates: [2.35, 48.85] },
        legacy_code: None,
        expires_at: DateTime::from_millis(1_767_225_600_000),
        open: true,
    }
}

/// One query of the held-out set: its verdict's inputs and what it sends to mongod.
struct Heldout {
    line: u32,
    model: mongo_schema::Registration,
    shape: &'static Shape,
    find: Document,
}

macro_rules! heldout {
    ($out:ident, $model:ident, $q:expr) => {{
        let q = $q;
        let mut find = doc! { "find": $model::COLLECTION_NAME, "filter": q.filter() };
        find.extend(q.find_options_document());
        $out.push(Heldout {
            line: line!(),
            model: mongo_schema::Registration::of::<$model>(stringify!($model)),
            shape: q.shape(),
            find,
        });
    }};
}

fn heldout_queries() -> Vec<Heldout> {
    let tenant = String::from("acme");
    let since = DateTime::from_millis(1_767_225_600_000);
    let now = Utc.timestamp_millis_opt(1_767_225_600_000).unwrap();
    let states = vec![TicketState::Open, TicketState::Pending];
    let author = ObjectId::from_bytes([1; 12]);
    let amount = Decimal::new(1000, 2);
    let trace = uuid::Uuid::from_bytes([7; 16]);
    let mut out = Vec::new();
    // ESR, its reverse, a wrong order, `$in` with a sort
    heldout! { out, Ticket, query!(Ticket, { "tenant": &tenant, "state": TicketState::Open, "openedAt": { "$gte": since } }, sort = { "openedAt": -1 }, limit = 20) }
    heldout! { out, Ticket, query!(Ticket, { "tenant": &tenant, "state": TicketState::Open, "openedAt": { "$gte": since } }, sort = { "openedAt": 1 }, limit = 20) }
    heldout! { out, Ticket, query!(Ticket, { "tenant": &tenant, "openedAt": { "$gte": since } }, sort = { "state": 1 }, limit = 5) }
    heldout! { out, Ticket, query!(Ticket, { "tenant": &tenant, "openedAt": { "$gte": since } }, sort = { "openedAt": -1 }, limit = 5) }
    heldout! { out, Ticket, query!(Ticket, { "tenant": &tenant, "state": { "$in": [TicketState::Open, TicketState::Pending] } }, sort = { "openedAt": -1 }, limit = 10) }
    heldout! { out, Ticket, query!(Ticket, { "tenant": &tenant, "state": { "$in": &states } }, sort = { "openedAt": -1 }, limit = 10) }
    heldout! { out, Ticket, query!(Ticket, { "tenant": { "$in": ["acme", "globex"] }, "state": "Open" }, sort = { "openedAt": -1 }, limit = 10) }
    heldout! { out, Ticket, query!(Ticket, { "tenant": &tenant }, sort = { "state": 1, "openedAt": -1 }, skip = 20, limit = 10) }
    heldout! { out, Ticket, query!(Ticket, { "tenant": &tenant }, sort = { "state": -1, "openedAt": 1 }, limit = 10) }
    heldout! { out, Ticket, query!(Ticket, { "tenant": &tenant }, sort = { "state": 1, "openedAt": 1 }, limit = 10) }
    heldout! { out, Ticket, query!(Ticket, { "state": TicketState::Open }, allow(query_unindexed, reason = "held-out: no index leads with state")) }
    // unique, partial (implied or not), sparse with `$exists`, hashed
    heldout! { out, Ticket, query!(Ticket, { "number": 42i64 }) }
    heldout! { out, Ticket, query!(Ticket, { "number": 42 }, projection = { "number": 1, "_id": 0 }) }
    heldout! { out, Ticket, query!(Ticket, { "assignee": "ann" }, sort = { "priority": -1 }) }
    heldout! { out, Ticket, query!(Ticket, { "assignee": { "$in": ["ann", "bob"] } }, sort = { "priority": -1 }, limit = 3) }
    heldout! { out, Ticket, query!(Ticket, { "assignee": null }, allow(query_unindexed, reason = "held-out: partial not implied")) }
    heldout! { out, Ticket, query!(Ticket, { "assignee": { "$exists": false } }, allow(query_unindexed, reason = "held-out: partial not implied")) }
    heldout! { out, Ticket, query!(Ticket, { "priority": { "$gte": 4 } }) }
    heldout! { out, Ticket, query!(Ticket, { "priority": 5 }) }
    heldout! { out, Ticket, query!(Ticket, { "priority": { "$gt": 3 } }) }
    heldout! { out, Ticket, query!(Ticket, { "priority": { "$lt": 3 } }, allow(query_unindexed, reason = "held-out: partial not implied")) }
    // a literal outside the partial expression: mongod does not use the index
    heldout! { out, Ticket, query!(Ticket, { "priority": { "$gte": 1 } }, allow(query_unindexed, reason = "held-out: partial not implied")) }
    heldout! { out, Ticket, query!(Ticket, { "priority": 2 }, allow(query_unindexed, reason = "held-out: partial not implied")) }
    heldout! { out, Ticket, query!(Ticket, { "priority": { "$gt": 2 } }, allow(query_unindexed, reason = "held-out: partial not implied")) }
    heldout! { out, Ticket, query!(Ticket, { "priority": { "$gte": 3, "$lt": 9 } }) }
    heldout! { out, Ticket, query!(Ticket, { "externalRef": "EXT-1" }) }
    heldout! { out, Ticket, query!(Ticket, { "externalRef": { "$exists": true } }, allow(query_unindexed, reason = "held-out: unselective")) }
    heldout! { out, Ticket, query!(Ticket, { "externalRef": { "$exists": false } }, allow(query_unindexed, reason = "held-out: sparse")) }
    heldout! { out, Ticket, query!(Ticket, { "externalRef": null }, allow(query_unindexed, reason = "held-out: sparse")) }
    heldout! { out, Ticket, query!(Ticket, { "slug": "printer-jam" }) }
    heldout! { out, Ticket, query!(Ticket, { "slug": { "$in": ["a", "b"] } }) }
    heldout! { out, Ticket, query!(Ticket, { "slug": { "$gt": "p" } }, allow(query_unindexed, reason = "held-out: hashed range")) }
    heldout! { out, Ticket, query!(Ticket, { "slug": "printer-jam" }, sort = { "slug": 1 }, limit = 3, allow(query_sort_in_memory, reason = "held-out")) }
    // text, geo, collation, wildcard, hidden, TTL
    heldout! { out, Ticket, query!(Ticket, { "$text": { "$search": "printer" } }) }
    heldout! { out, Ticket, query!(Ticket, { "$text": { "$search": "printer" }, "tenant": &tenant }) }
    heldout! { out, Ticket, query!(Ticket, { "place": { "$near": { "$geometry": { "type": "Point", "coordinates": [2.3, 48.8] }, "$maxDistance": 5000.0 } } }, limit = 10) }
    heldout! { out, Ticket, query!(Ticket, { "place": { "$geoWithin": { "$centerSphere": [[2.3, 48.8], 0.01] } } }) }
    heldout! { out, Ticket, query!(Ticket, { "requester.emailAddress": "bob@example.com" }, allow(query_unindexed, reason = "held-out: collation")) }
    heldout! { out, Ticket, query!(Ticket, { "requester.emailAddress": { "$regex": "^bob" } }, allow(query_unindexed, reason = "held-out: collation")) }
    heldout! { out, Ticket, query!(Ticket, { "attributes.color": "red" }) }
    heldout! { out, Ticket, query!(Ticket, { "attributes.color": { "$gt": "a" } }, sort = { "attributes.color": 1 }) }
    heldout! { out, Ticket, query!(Ticket, { "attributes.color": "red" }, projection = { "attributes.color": 1, "_id": 0 }) }
    heldout! { out, Ticket, query!(Ticket, { "legacyCode": "L1" }, allow(query_unindexed, reason = "held-out: hidden")) }
    heldout! { out, Ticket, query!(Ticket, { "expiresAt": { "$lt": since } }, limit = 100) }
    // arrays: bounds, no covering, no sort on a bounded array key, `$elemMatch`, positions
    heldout! { out, Ticket, query!(Ticket, { "replies.authorId": author }, sort = { "replies.postedAt": -1 }, limit = 10) }
    heldout! { out, Ticket, query!(Ticket, { "replies.authorId": author, "replies.postedAt": { "$gte": since } }) }
    heldout! { out, Ticket, query!(Ticket, { "replies": { "$elemMatch": { "authorId": author, "postedAt": { "$gte": since } } } }) }
    heldout! { out, Ticket, query!(Ticket, { "replies": { "$elemMatch": { "reactions": { "$elemMatch": { "emoji": "+1", "count": { "$gt": 1 } } } } } }) }
    heldout! { out, Ticket, query!(Ticket, { "replies.reactions.emoji": "+1" }, projection = { "replies.reactions.emoji": 1, "_id": 0 }) }
    heldout! { out, Ticket, query!(Ticket, { "replies.0.authorId": author }, allow(query_unindexed, reason = "held-out: a position")) }
    heldout! { out, Ticket, query!(Ticket, { "replies.votes": { "$gt": 10 } }, allow(query_unindexed, reason = "held-out: no index")) }
    heldout! { out, Ticket, query!(Ticket, { "labels": "vip" }, projection = { "labels": 1, "_id": 0 }) }
    heldout! { out, Ticket, query!(Ticket, { "labels": { "$all": ["vip", "hardware"] } }) }
    heldout! { out, Ticket, query!(Ticket, { "labels": { "$size": 2 } }, allow(query_unindexed, reason = "held-out: $size")) }
    heldout! { out, Ticket, query!(Ticket, { "labels": { "$nin": ["spam"] } }, allow(query_unindexed, reason = "held-out: unselective")) }
    heldout! { out, Ticket, query!(Ticket, { "labels": { "$elemMatch": { "$gte": "h", "$lt": "w" } } }) }
    heldout! { out, Ticket, query!(Ticket, {}, sort = { "labels": 1 }, limit = 5) }
    // `$or`, negations, `$exists`, `$regex`, `$type`, `$mod`
    heldout! { out, Ticket, query!(Ticket, { "$or": [{ "number": 1 }, { "slug": "x" }] }) }
    heldout! { out, Ticket, query!(Ticket, { "$or": [{ "tenant": &tenant, "state": "Open" }, { "assignee": "ann" }] }, limit = 10) }
    heldout! { out, Ticket, query!(Ticket, { "_id": ObjectId::from_bytes([8; 12]) }, projection = { "subject": 1 }) }
    heldout! { out, Ticket, query!(Ticket, { "$or": [{ "number": 1 }, { "subject": "x" }] }, allow(query_unindexed, reason = "held-out: a branch unindexed")) }
    heldout! { out, Ticket, query!(Ticket, { "tenant": &tenant, "$or": [{ "state": "Open" }, { "number": 3 }] }, limit = 5) }
    heldout! { out, Ticket, query!(Ticket, { "amount": { "$ne": amount } }, allow(query_unindexed, reason = "held-out: unselective")) }
    heldout! { out, Ticket, query!(Ticket, { "amount": { "$gt": amount } }, sort = { "amount": -1 }) }
    heldout! { out, Ticket, query!(Ticket, { "number": { "$not": { "$gt": 5 } } }, allow(query_unindexed, reason = "held-out: unselective")) }
    heldout! { out, Ticket, query!(Ticket, { "number": { "$exists": true } }, allow(query_unindexed, reason = "held-out: unselective")) }
    heldout! { out, Ticket, query!(Ticket, { "number": { "$exists": false } }) }
    heldout! { out, Ticket, query!(Ticket, { "tenant": { "$regex": "^ac" } }) }
    heldout! { out, Ticket, query!(Ticket, { "tenant": { "$regex": "^ac", "$options": "i" } }, allow(query_unindexed, reason = "held-out: case-insensitive")) }
    heldout! { out, Ticket, query!(Ticket, { "tenant": { "$regex": "cm" } }, allow(query_unindexed, reason = "held-out: unanchored")) }
    heldout! { out, Ticket, query!(Ticket, { "number": { "$type": "long" } }, allow(query_unindexed, reason = "held-out: $type")) }
    heldout! { out, Ticket, query!(Ticket, { "number": { "$mod": [2, 0] } }, allow(query_unindexed, reason = "held-out: $mod")) }
    // sort-only index walks, `_id`, skip/limit, flatten, tag, Option, uuid
    heldout! { out, Ticket, query!(Ticket, { "subject": "x" }, sort = { "number": 1 }, limit = 10, allow(query_unindexed, reason = "held-out: a walk")) }
    heldout! { out, Ticket, query!(Ticket, {}, sort = { "expiresAt": 1 }, limit = 10) }
    heldout! { out, Ticket, query!(Ticket, {}, sort = { "subject": 1 }, limit = 10, allow(query_sort_in_memory, reason = "held-out")) }
    heldout! { out, Ticket, query!(Ticket, { "_id": ObjectId::from_bytes([9; 12]) }) }
    heldout! { out, Ticket, query!(Ticket, { "_id": { "$in": [ObjectId::from_bytes([9; 12])] } }) }
    heldout! { out, Ticket, query!(Ticket, { "_id": { "$gt": ObjectId::from_bytes([9; 12]) } }, sort = { "_id": -1 }, limit = 10) }
    heldout! { out, Ticket, query!(Ticket, { "_id": ObjectId::from_bytes([9; 12]), "open": true }) }
    heldout! { out, Ticket, query!(Ticket, { "tenant": &tenant, "state": "Open" }, projection = { "tenant": 1, "state": 1, "openedAt": 1, "_id": 0 }, sort = { "openedAt": -1 }, limit = 5) }
    heldout! { out, Ticket, query!(Ticket, { "tenant": &tenant, "state": "Open" }, projection = { "tenant": 1, "openedAt": 1 }, limit = 5) }
    heldout! { out, Ticket, query!(Ticket, { "channel.kind": "email" }, sort = { "createdAt": -1 }, limit = 10) }
    heldout! { out, Ticket, query!(Ticket, { "channel.kind": "phone", "channel.minutes": { "$gte": 3 } }, sort = { "createdAt": -1 }, limit = 10) }
    heldout! { out, Ticket, query!(Ticket, { "channel.inbox": "support" }, allow(query_unindexed, reason = "held-out: no index")) }
    heldout! { out, Ticket, query!(Ticket, { "createdBy": "bot" }, allow(query_unindexed, reason = "held-out: no index")) }
    heldout! { out, Ticket, query!(Ticket, { "createdAt": { "$gte": now } }, allow(query_unindexed, reason = "held-out: no index")) }
    heldout! { out, Ticket, query!(Ticket, { "traceId": trace }, allow(query_unindexed, reason = "held-out: no index")) }
    heldout! { out, Ticket, query!(Ticket, { "requester.org.tier": { "$gte": 2 } }, allow(query_unindexed, reason = "held-out: no index")) }
    heldout! { out, Ticket, query!(Ticket, { "assignee": Some("ann") }, limit = 1) }
    // a sharded model with a default collation
    let account = String::from("A-1");
    heldout! { out, Invoice, query!(Invoice, { "account": &account, "issuedAt": { "$gte": since } }, sort = { "issuedAt": -1 }, limit = 50) }
    heldout! { out, Invoice, query!(Invoice, { "account": { "$in": ["A-1", "A-2"] } }, sort = { "issuedAt": -1 }, limit = 50) }
    heldout! { out, Invoice, query!(Invoice, { "account": &account, "total": { "$gt": 100 } }) }
    heldout! { out, Invoice, query!(Invoice, { "account": &account }, sort = { "customerName": 1 }, limit = 10) }
    heldout! { out, Invoice, query!(Invoice, { "paid": false, "issuedAt": { "$lt": since } }, allow(query_broadcast, reason = "held-out")) }
    heldout! { out, Invoice, query!(Invoice, { "paid": true, "issuedAt": { "$lt": since } }, allow(query_broadcast, reason = "held-out"), allow(query_unindexed, reason = "held-out: partial not implied")) }
    heldout! { out, Invoice, query!(Invoice, { "customerName": "Zoé" }, allow(query_broadcast, reason = "held-out")) }
    heldout! { out, Invoice, query!(Invoice, { "code": "A1" }, allow(query_unindexed, reason = "held-out: collation"), allow(query_broadcast, reason = "held-out")) }
    heldout! { out, Invoice, query!(Invoice, { "code": { "$regex": "^A" } }, allow(query_unindexed, reason = "held-out: collation"), allow(query_broadcast, reason = "held-out")) }
    heldout! { out, Invoice, query!(Invoice, { "total": { "$gte": 5 } }, sort = { "code": 1 }, limit = 5, allow(query_broadcast, reason = "held-out")) }
    heldout! { out, Invoice, query!(Invoice, { "total": { "$gte": 5 } }, projection = { "total": 1, "_id": 0 }, allow(query_broadcast, reason = "held-out")) }
    heldout! { out, Invoice, query!(Invoice, { "account": &account, "paid": false }, projection = { "account": 1, "_id": 0 }) }
    out
}

#[test]
fn heldout_queries_plan_as_mongod_explains_them() {
    use mongo_schema::query::explain::{differences, Observed};
    use mongo_schema::query::plan::plan;
    let Some(client) = client("heldout_queries_plan_as_mongod_explains_them") else { return };
    let db = client.database(Ticket::DB_NAME);
    db.drop().run().expect("drop");
    for (create, indexes) in [
        (Ticket::create_collection_command(), Ticket::create_indexes_command()),
        (Invoice::create_collection_command(), Invoice::create_indexes_command()),
    ] {
        db.run_command(create).run().expect("create");
        db.run_command(indexes.expect("indexes")).run().expect("indexes");
    }
    // one document makes the array paths multikey, as the model says; then gone, so that
    // every plan ties (as in the differential test)
    let tickets = db.collection::<Ticket>(Ticket::COLLECTION_NAME);
    tickets.insert_one(a_ticket()).run().expect("insert");
    tickets.delete_many(doc! {}).run().expect("delete");
    let mut failures = Vec::new();
    let cases = heldout_queries();
    let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
    for case in &cases {
        let verdict = plan(case.shape, &case.model);
        for (kind, yes) in [
            ("COLLSCAN", verdict.index.is_none() && !verdict.no_filter),
            ("IDHACK", verdict.id_hack),
            ("OR", verdict.or),
            ("whole index", verdict.whole_index),
            ("sort in memory", verdict.sort_in_memory),
            ("sort from the index", !case.shape.sort.is_empty() && verdict.index.is_some() && !verdict.sort_in_memory),
            ("merged $in", verdict.fit.merge_sort),
            ("covered", verdict.covered()),
            ("unselective", matches!(verdict.unindexed, Some(mongo_schema::query::plan::Unindexed::Unselective))),
            ("broadcast", verdict.broadcast),
        ] {
            *seen.entry(kind).or_default() += usize::from(yes);
        }
        let explain = doc! { "explain": case.find.clone(), "verbosity": "queryPlanner" };
        let reply = db.run_command(explain).run();
        let line = format!("line {}: {}", case.line, case.find);
        match reply {
            Ok(reply) => {
                let observed = Observed::read(&reply).expect("an explain");
                let diffs = differences(case.shape, &case.model, &verdict, &observed, true);
                eprintln!(
                    "{line}\n  verdict {:?} unindexed {:?} sort_in_memory {} covered {}\n  mongod {:?} {:?}",
                    verdict.index.map(|r| r.index(&case.model).name),
                    verdict.unindexed,
                    verdict.sort_in_memory,
                    verdict.covered(),
                    observed.winning.stages,
                    observed.winning.indexes
                );
                if !diffs.is_empty() {
                    failures.push(format!("{line}: {}", diffs.join("; ")));
                }
            }
            Err(e) => failures.push(format!("{line}: mongod refused it: {e}")),
        }
    }
    eprintln!("{} held-out queries, {} disagreements; verdicts {seen:?}", cases.len(), failures.len());
    assert!(failures.is_empty(), "{} disagreements:\n{}", failures.len(), failures.join("\n"));
    // every kind of verdict was put to mongod, more than once
    assert!(seen.values().all(|&n| n >= 2), "{seen:?}");
}

/// The facts `query!` reads once per model and key (`Key::<Model, A, B>::FACTS`, a
/// generic constant) give every key the verdict the check per query gives: for each key
/// the models store (and keys they do not: misses, positions, map keys, past a scalar),
/// with each operator and literal the macro encodes, a key the facts let through is one
/// the check per query accepts, with the same class of values, and an operator they refuse
/// is one it refuses. Needs no server.
#[test]
fn memoized_key_facts_give_the_verdicts_of_the_check_per_query() {
    use mongo_schema::__private::query_check;
    use mongo_schema::schema::FieldFacts;
    use mongo_schema_contract::query as q;

    fn paths(list: &'static [FieldFacts], prefix: &str, depth: usize, out: &mut Vec<String>) {
        for field in list {
            if field.flatten {
                match field.fields.or(field.tagged) {
                    Some(inner) => paths(inner, prefix, depth, out),
                    None => out.push(format!("{prefix}anyKey")),
                }
                continue;
            }
            let path = format!("{prefix}{}", field.name);
            out.extend([path.clone(), format!("{path}.0"), format!("{path}.k0"), format!("{path}.nope")]);
            if let (Some(inner), true) = (field.fields.or(field.tagged), depth < 3) {
                paths(inner, &format!("{path}."), depth + 1, out);
                paths(inner, &format!("{path}.0."), depth + 1, out);
            }
        }
    }

    const NAMES: &[&str] = &[
        "",
        "$regex",
        "$size",
        "$all",
        "$elemMatch",
        "$elemMatch-values",
        "$gt",
        "$lte",
        "$mod",
        "$near",
        "$nearSphere",
        "@$regex",
        "@$size",
        "@$gt",
        "@$mod",
        "@$near",
        "=Loud",
        "=Paid",
        "=Open",
        "=free text",
        "#i",
        "#f",
        "#b",
    ];

    fn agree<M: MongoCollection>(counts: &mut [usize; 3]) {
        let mut keys = vec!["_id".to_owned(), "nope".to_owned(), "a.b.c".to_owned(), "0".to_owned()];
        paths(M::FIELDS.expect("a struct"), "", 0, &mut keys);
        for key in keys {
            let Some((lo, hi)) = q::key_words(&key) else { continue };
            let facts = query_check::key_facts::<M>(lo, hi);
            let path: &'static str = Box::leak(key.clone().into_boxed_str());
            for name in NAMES {
                let bit = match name.as_bytes().first() {
                    Some(b'=') => q::STRING_LITERAL,
                    Some(b'#') => q::OTHER_LITERAL,
                    _ => q::op_bit(name),
                };
                QUIET.set(true);
                let per_query = std::panic::catch_unwind(|| query_check::key_ops::<M>(path, name)).ok();
                QUIET.set(false);
                let context = format!("`{key}` of {} with {name:?}", M::NAME);
                if !facts.found {
                    assert_eq!(per_query, None, "{context}: the facts miss the key, the check per query takes it");
                    counts[0] += 1;
                } else if let Some(class) = query_check::passed(facts, name, bit) {
                    assert_eq!(per_query, Some(class), "{context}: the facts let it through");
                    counts[1] += 1;
                } else {
                    // an operator the facts refuse is refused; a literal they do not let
                    // through (an enum's string) is the check per query's to judge
                    if bit & (q::STRING_LITERAL | q::OTHER_LITERAL) == 0 {
                        assert_eq!(per_query, None, "{context}: the facts refuse it, the check per query takes it");
                    }
                    counts[2] += 1;
                }
            }
        }
    }

    // the checks' refusals are panics: silenced while this thread runs one
    thread_local!(static QUIET: std::cell::Cell<bool> = const { std::cell::Cell::new(false) });
    let previous = std::sync::Arc::new(std::panic::take_hook());
    let hook = previous.clone();
    std::panic::set_hook(Box::new(move |info| {
        if !QUIET.get() {
            hook(info)
        }
    }));
    let mut counts = [0; 3];
    agree::<QueryOrder>(&mut counts);
    agree::<Notice>(&mut counts);
    agree::<Ticket>(&mut counts);
    agree::<Invoice>(&mut counts);
    drop(std::panic::take_hook());
    std::panic::set_hook(Box::new(move |info| previous(info)));
    // misses, keys let through, operators refused: each seen many times
    assert!(counts.iter().all(|&n| n > 200), "{counts:?}");
    // an enum's string literal is judged by the facts too: a variant passes, another string
    // is left to the check per query (which refuses it)
    let (lo, hi) = q::key_words("status").unwrap();
    let status = query_check::key_facts::<QueryOrder>(lo, hi);
    assert_eq!(
        query_check::passed(status, "=Paid", q::STRING_LITERAL),
        Some(query_check::key_ops::<QueryOrder>("status", "=Paid"))
    );
    assert_eq!(
        query_check::passed(status, "$gt\u{1f}=Paid\u{1f}=Shipped", q::RANGE | q::STRING_LITERAL),
        Some(status.class)
    );
    assert_eq!(query_check::passed(status, "=Paid\u{1f}=Lost", q::STRING_LITERAL), None);
}
