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
    assert!(std::ptr::eq(found[0].shape, q.shape()));
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
