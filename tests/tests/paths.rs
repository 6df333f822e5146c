//! Typed field paths (`Model::fields()`): the dotted paths serde writes, through renames,
//! `rename_all`, flatten, embedded types, `Option`, arrays (with the positional forms),
//! maps, newtypes and generics; and the bounded `$push` of a `max_items` array.

#![forbid(unsafe_code)]

use mongo_schema::paths::{Leaf, Order};
use mongo_schema::prelude::*;
use mongo_schema_tests::bson::{self, doc, oid::ObjectId, Bson};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};

#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
struct Geo {
    #[mongo(minimum = -90, maximum = 90)]
    lat_deg: f64,
    #[mongo(minimum = -180, maximum = 180)]
    lng_deg: f64,
}

#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
struct Address {
    #[mongo(max_length = 60)]
    city_name: String,
    #[serde(rename = "zip")]
    #[mongo(max_length = 10)]
    postal_code: String,
    geo: Option<Geo>,
}

#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
struct Audit {
    created_at: bson::DateTime,
    #[mongo(max_length = 40)]
    created_by: String,
}

/// A newtype: serde writes the inner value, so are its paths.
#[derive(Serialize, Deserialize, MongoSchema)]
struct Home(Address);

#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
struct Line {
    #[mongo(max_length = 20)]
    sku: String,
    qty: i32,
}

#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum Payment {
    Card {
        #[mongo(max_length = 4)]
        last4: String,
    },
    Cash,
}

#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(db = "db_test_paths", collection = "t_customer")]
struct Customer {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "addr")]
    home_address: Address,
    second_home: Option<Home>,
    #[mongo(max_items = 3)]
    previous_addresses: Vec<Address>,
    #[mongo(max_items = 50, items(max_length = 12))]
    tags: Vec<String>,
    #[mongo(max_properties = 20)]
    labels: BTreeMap<String, Address>,
    #[mongo(max_items = 10)]
    lines: Option<Vec<Line>>,
    #[mongo(max_properties = 5)]
    scores: HashMap<String, i64>,
    payment: Payment,
    #[serde(flatten)]
    audit: Audit,
    #[serde(skip)]
    #[allow(dead_code)]
    cache: u8,
    #[mongo(max_length = 20)]
    r#type: String,
}

#[test]
fn renames_and_rename_all_are_what_serde_writes() {
    let f = Customer::fields();
    assert_eq!(f.id().as_str(), "_id");
    assert_eq!(f.home_address().as_str(), "addr");
    assert_eq!(f.home_address().city_name().as_str(), "addr.cityName");
    assert_eq!(f.home_address().postal_code().as_str(), "addr.zip");
    assert_eq!(f.r#type().as_str(), "type");
}

#[test]
fn nesting_goes_through_embedded_types_options_and_newtypes() {
    let f = Customer::fields();
    assert_eq!(f.home_address().geo().lat_deg().as_str(), "addr.geo.latDeg");
    assert_eq!(f.second_home().as_str(), "secondHome");
    assert_eq!(f.second_home().geo().lng_deg().as_str(), "secondHome.geo.lngDeg");
    assert_eq!(Address::fields().geo().lat_deg().as_str(), "geo.latDeg");
}

#[test]
fn a_flattened_structs_fields_are_at_the_parent_level() {
    let f = Customer::fields();
    assert_eq!(f.audit().created_at().as_str(), "createdAt");
    assert_eq!(f.audit().created_by().as_str(), "createdBy");
    // they are in the schema where the path says
    let schema = Customer::json_schema();
    assert!(schema.get_document("properties").expect("properties").contains_key("createdAt"));
}

#[test]
fn arrays_give_the_positional_forms() {
    let f = Customer::fields();
    let previous = f.previous_addresses();
    assert_eq!(previous.as_str(), "previousAddresses");
    assert_eq!(previous.items().city_name().as_str(), "previousAddresses.cityName");
    assert_eq!(previous.matched().city_name().as_str(), "previousAddresses.$.cityName");
    assert_eq!(previous.all().geo().lat_deg().as_str(), "previousAddresses.$[].geo.latDeg");
    assert_eq!(previous.filtered("old").postal_code().as_str(), "previousAddresses.$[old].zip");
    assert_eq!(previous.at(0).city_name().as_str(), "previousAddresses.0.cityName");
    // through an Option
    assert_eq!(f.lines().all().qty().as_str(), "lines.$[].qty");
    // items that are scalars end the path
    let tag: Leaf = f.tags().matched();
    assert_eq!(tag.as_str(), "tags.$");
}

#[test]
fn maps_give_keyed_paths() {
    let f = Customer::fields();
    assert_eq!(f.labels().key("work").city_name().as_str(), "labels.work.cityName");
    assert_eq!(f.scores().key("math").as_str(), "scores.math");
}

#[test]
fn enums_end_a_path_and_keys_go_on() {
    let payment: Leaf = Customer::fields().payment();
    assert_eq!(payment.as_str(), "payment");
    assert_eq!(payment.key("last4").as_str(), "payment.last4");
}

#[test]
fn paths_convert_as_strings_do() {
    let city = Customer::fields().home_address().city_name();
    assert_eq!(city.to_string(), "addr.cityName");
    assert_eq!(format!("{city}"), "addr.cityName");
    assert_eq!(format!("{:?}", Customer::fields().home_address()), "\"addr\"");
    let owned: String = city.into();
    assert_eq!(owned, "addr.cityName");
    let street: String = Customer::fields().home_address().into();
    assert_eq!(street, "addr");
    // in a filter and an update
    let filter = doc! { Customer::fields().home_address().city_name().as_str(): "Lyon" };
    assert_eq!(filter, doc! { "addr.cityName": "Lyon" });
}

#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
struct Page<T> {
    #[mongo(max_items = 100)]
    page_items: Vec<T>,
}

#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
struct Catalog {
    first_page: Page<Line>,
}

#[test]
fn a_generic_struct_ends_the_path() {
    let page: Leaf = Catalog::fields().first_page();
    assert_eq!(page.key("pageItems").as_str(), "firstPage.pageItems");
}

#[test]
fn a_bounded_push_is_typed_by_the_items_and_keeps_the_bound() {
    let lines = Customer::fields().lines();
    assert_eq!(lines.max_items(), 10);
    let update = lines.push([Line { sku: "tea".into(), qty: 2 }]).update().expect("a line serializes");
    assert_eq!(update, doc! { "$push": { "lines": { "$each": [{ "sku": "tea", "qty": 2 }], "$slice": -10 } } });
    let update = Customer::fields()
        .previous_addresses()
        .push(&[Address { city_name: "Nice".into(), postal_code: "06000".into(), geo: None }])
        .sort_by(Address::fields().city_name(), Order::Ascending)
        .update()
        .expect("an address serializes");
    assert_eq!(
        update,
        doc! { "$push": { "previousAddresses": {
            "$each": [{ "cityName": "Nice", "zip": "06000", "geo": Bson::Null }],
            "$sort": { "cityName": 1 },
            "$slice": -3,
        } } }
    );
    let (path, modifiers) = Customer::fields()
        .tags()
        .push(["new"].map(String::from))
        .position(0)
        .keep_first()
        .into_parts()
        .expect("serializes");
    assert_eq!(path, "tags");
    assert_eq!(modifiers, doc! { "$each": ["new"], "$position": 0, "$slice": 50 });
}

/// `path!` and the method chains name the same paths: each pair is one path written both
/// ways, computed by the two implementations (the chains' generated methods, `path!`'s
/// walk of the fields table).
#[test]
fn path_macro_agrees_with_the_method_chains() {
    let f = Customer::fields();
    let pairs: Vec<(mongo_schema::paths::FieldPath, String)> = vec![
        (mongo_schema::path!(Customer.id), f.id().to_string()),
        (mongo_schema::path!(Customer.home_address), f.home_address().to_string()),
        (mongo_schema::path!(Customer.home_address.city_name), f.home_address().city_name().to_string()),
        (mongo_schema::path!(Customer.home_address.postal_code), f.home_address().postal_code().to_string()),
        (mongo_schema::path!(Customer.home_address.geo.lat_deg), f.home_address().geo().lat_deg().to_string()),
        (mongo_schema::path!(Customer.second_home.geo.lng_deg), f.second_home().geo().lng_deg().to_string()),
        (mongo_schema::path!(Customer.r#type), f.r#type().to_string()),
        (mongo_schema::path!(Customer.audit.created_at), f.audit().created_at().to_string()),
        (
            mongo_schema::path!(Customer.previous_addresses.city_name),
            f.previous_addresses().items().city_name().to_string(),
        ),
        (
            mongo_schema::path!(Customer.previous_addresses.$.city_name),
            f.previous_addresses().matched().city_name().to_string(),
        ),
        (
            mongo_schema::path!(Customer.previous_addresses.$[].geo.lat_deg),
            f.previous_addresses().all().geo().lat_deg().to_string(),
        ),
        (
            mongo_schema::path!(Customer.previous_addresses.$[old].postal_code),
            f.previous_addresses().filtered("old").postal_code().to_string(),
        ),
        (
            mongo_schema::path!(Customer.previous_addresses.0.city_name),
            f.previous_addresses().at(0).city_name().to_string(),
        ),
        (mongo_schema::path!(Customer.lines.$[].qty), f.lines().all().qty().to_string()),
        (mongo_schema::path!(Customer.tags.$), f.tags().matched().to_string()),
        (mongo_schema::path!(Customer.labels."work"), f.labels().key("work").to_string()),
        (mongo_schema::path!(Customer.labels."work".city_name), f.labels().key("work").city_name().to_string()),
        (mongo_schema::path!(Customer.labels."home".geo.lat_deg), f.labels().key("home").geo().lat_deg().to_string()),
        (mongo_schema::path!(Customer.scores."math"), f.scores().key("math").to_string()),
        (mongo_schema::path!(Customer.payment."last4"), f.payment().key("last4").to_string()),
    ];
    for (macro_path, chain) in &pairs {
        assert_eq!(macro_path.as_str(), chain);
    }
}

#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
struct Price {
    amount_cents: i64,
}

/// Index keys through maps: a map's key is any name, its values' fields follow it
/// (`prices.eur.amountCents`, checked through `Price`); the keys of a map inside an array
/// or a map are not known, so paths through them are taken as written.
#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(
    db = "db_test_paths",
    collection = "t_product",
    index(keys("prices.eur.amountCents" = 1)),
    index(keys("history.anyKey.anything" = 1)),
    index(keys("regions.eu.fr.amountCents" = 1))
)]
struct Product {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[mongo(max_properties = 20)]
    prices: HashMap<String, Price>,
    #[mongo(max_items = 10, items(max_properties = 5))]
    history: Vec<HashMap<String, Price>>,
    #[mongo(max_properties = 5, items(max_properties = 5))]
    regions: HashMap<String, HashMap<String, Price>>,
    #[mongo(max_properties = 5, items(max_items = 3))]
    tiers: HashMap<String, Vec<Price>>,
}

#[test]
fn paths_go_through_maps_to_their_values_fields() {
    assert_eq!(mongo_schema::path!(Product.prices."eur".amount_cents), "prices.eur.amountCents");
    assert_eq!(mongo_schema::path!(Product.history.$[]."k"."x"), "history.$[].k.x");
    assert_eq!(mongo_schema::path!(Product.regions."eu"."fr"."amountCents"), "regions.eu.fr.amountCents");
    assert_eq!(mongo_schema::path!(Product.tiers."gold".$[].amount_cents), "tiers.gold.$[].amountCents");
    assert_eq!(mongo_schema::path!(Product.tiers."gold".amount_cents), "tiers.gold.amountCents");
    assert_eq!(Product::INDEXES.len(), 3);
}
