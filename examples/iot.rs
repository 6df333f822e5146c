//! The modelling standard's IoT case: the readings of every device in one native
//! time-series collection (not one collection per device), a `deviceId + timestamp`
//! compound index, and expiry of old readings (TTL). Printed as the commands that create
//! them and as the migration that installs them.
//!
//! Run: `cargo run -p mongo-schema-examples --example iot`. The output is committed beside
//! this file as `iot.out`; a test keeps it current.

use mongo_schema::bson;
use mongo_schema::bson::DateTime;
use mongo_schema::migrate::{MigrateOptions, Model, Naming, Snapshot};
use mongo_schema::{render, MongoCollection, MongoSchema};
use serde::{Deserialize, Serialize};

/// One measurement of one device.
#[derive(Debug, Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(
    db = "db_iot",
    collection = "t_device_reading",
    timeseries(time_field = "timestamp", meta_field = "deviceId", granularity = "seconds", expire_after_seconds = 2592000),
    index(keys(deviceId = 1, timestamp = -1))
)]
pub struct DeviceReading {
    /// When the device measured
    pub timestamp: DateTime,
    /// The device: the series this reading belongs to
    #[mongo(min_length = 1, max_length = 64)]
    pub device_id: String,
    /// Degrees Celsius
    #[mongo(minimum = -60, maximum = 150)]
    pub temperature: f64,
    /// Relative humidity, percent
    #[mongo(minimum = 0, maximum = 100)]
    pub humidity: f64,
}

/// Everything this example prints.
pub fn output() -> String {
    let json = |doc: Option<bson::Document>| doc.map_or_else(|| "none".to_owned(), |d| render::relaxed_json(&d));
    let model = Model::of::<DeviceReading>("iot::DeviceReading");
    let migration = Snapshot::default()
        .next_migration(&[model], &MigrateOptions { naming: Naming::Sequence, ..MigrateOptions::default() })
        .expect("one collection passes collection_count")
        .expect("a new collection is a change");
    format!(
        "// createCollection: a time-series collection expiring readings after 30 days (no validator: mongod refuses one here)\n{}\n\n\
         // createIndexes: the deviceId + timestamp compound index\n{}\n\n\
         // the validator kept for checking readings before they are written (mongo_schema::Validator)\n{}\n\n\
         // the migration that installs all of it (schema migrate writes the same as 0001_*.js)\n{}",
        json(Some(DeviceReading::create_collection_command())),
        json(DeviceReading::create_indexes_command()),
        render::relaxed_json(&DeviceReading::json_schema()),
        migration.up_js(),
    )
}

fn main() {
    print!("{}", output());
}

#[test]
fn committed_output_is_current() {
    let committed = include_str!("iot.out");
    if committed != output() {
        if std::env::var_os("UPDATE_EXAMPLES").is_some() {
            std::fs::write(concat!(env!("CARGO_MANIFEST_DIR"), "/iot.out"), output()).unwrap();
            return;
        }
        panic!("examples/iot.out is stale: rerun with UPDATE_EXAMPLES=1 and review the diff");
    }
}

/// Readings are checked locally, since the collection itself has no validator.
#[test]
fn readings_are_validated_before_writing() {
    let validator = mongo_schema::Validator::new(&DeviceReading::json_schema()).expect("the schema compiles");
    let reading = |temperature| DeviceReading {
        timestamp: DateTime::now(),
        device_id: "sensor-17".into(),
        temperature,
        humidity: 40.0,
    };
    // what the driver writes: bson's raw serializer (bson 3's name; bson 2's is `to_raw_document_buf`)
    #[cfg(feature = "bson-3")]
    use bson::serialize_to_raw_document_buf as raw;
    #[cfg(not(feature = "bson-3"))]
    use bson::to_raw_document_buf as raw;
    let ok = raw(&reading(21.5)).unwrap();
    let hot = raw(&reading(400.0)).unwrap();
    assert!(validator.validate_raw(&ok).is_ok());
    assert!(validator.validate_raw(&hot).is_err(), "400 °C is above the declared maximum");
}

#[test]
fn the_collection_is_time_series_with_expiry_and_the_compound_index() {
    let create = DeviceReading::create_collection_command();
    assert_eq!(create.get_document("timeseries").unwrap().get_str("metaField").ok(), Some("deviceId"));
    assert_eq!(create.get_i32("expireAfterSeconds").ok(), Some(30 * 24 * 3600));
    assert!(!create.contains_key("validator"));
    let indexes = DeviceReading::create_indexes_command().expect("one index");
    let key = indexes.get_array("indexes").unwrap()[0].as_document().unwrap().get_document("key").unwrap().clone();
    assert_eq!(key, bson::doc! { "deviceId": 1, "timestamp": -1 });
}
