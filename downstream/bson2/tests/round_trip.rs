//! The shared round trip (downstream/round_trip.rs) under bson 2.

#[path = "../../round_trip.rs"]
mod shared;

/// The bytes the driver writes for a model (bson 2's raw serializer).
fn driver_bytes<T: serde::Serialize>(value: &T) -> Vec<u8> {
    mongodb::bson::to_vec(value).expect("a model")
}

#[test]
fn the_users_own_bson_code_compiles_beside_mongo_schema() {
    #[derive(serde::Serialize)]
    struct Name {
        name: &'static str,
    }
    let filter = downstream_bson2::filter(&Name { name: "Ada" });
    assert_eq!(filter, bson::doc! { "deleted": false, "name": "Ada" });
}
