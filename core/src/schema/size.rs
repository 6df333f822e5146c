//! Worst-case encoded BSON sizes, as `const fn`s so the derive can bound a document at
//! compile time: the contract crate's, tested here against bson's
//! encoder.

pub use mongo_schema_contract::size::*;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn array_bound_matches_the_encoder() {
        for n in [0u64, 1, 9, 10, 11, 100, 101, 1000] {
            let values: Vec<i64> = (0..n as i64).collect();
            let encoded = crate::compat::to_vec(&crate::bson::doc! { "a": values }).unwrap();
            // document: len + element header("a") + array + NUL
            assert_eq!(array(Some(n), Some(8)).unwrap(), encoded.len() as u64 - 4 - 3 - 1, "n = {n}");
        }
    }

    #[test]
    fn fixed_sizes_match_the_encoder() {
        let header = 4 + 3 + 1; // document: len + element header("a") + NUL
        let values: [(crate::bson::Bson, crate::schema::BsonKind); 7] = [
            (crate::bson::Bson::Double(1.5), crate::schema::BsonKind::Double),
            (crate::bson::Bson::Int32(1), crate::schema::BsonKind::Int),
            (crate::bson::Bson::Int64(1), crate::schema::BsonKind::Long),
            (crate::bson::Bson::Boolean(true), crate::schema::BsonKind::Bool),
            (crate::bson::Bson::Null, crate::schema::BsonKind::Null),
            (crate::bson::Bson::ObjectId(crate::bson::oid::ObjectId::new()), crate::schema::BsonKind::ObjectId),
            (crate::bson::Bson::DateTime(crate::bson::DateTime::now()), crate::schema::BsonKind::Date),
        ];
        for (value, kind) in values {
            let encoded = crate::compat::to_vec(&crate::bson::doc! { "a": value }).unwrap();
            assert_eq!(kind.fixed_size(), Some(encoded.len() as u64 - header), "{kind:?}");
        }
        let uuid = crate::bson::Bson::Binary(crate::bson::Binary::from_uuid(crate::bson::Uuid::new()));
        let encoded = crate::compat::to_vec(&crate::bson::doc! { "a": uuid }).unwrap();
        assert_eq!(binary(16), encoded.len() as u64 - header);
        let encoded = crate::compat::to_vec(&crate::bson::doc! { "a": "abc" }).unwrap();
        assert_eq!(str_bytes(3), encoded.len() as u64 - header);
        assert_eq!(DOCUMENT_OVERHEAD, crate::compat::to_vec(&crate::bson::doc! {}).unwrap().len() as u64);
        assert_eq!(element_header(1), 3);
    }

    #[test]
    fn string_bound_covers_four_byte_code_points() {
        let s = "\u{1F600}".repeat(5);
        let encoded = crate::compat::to_vec(&crate::bson::doc! { "s": &s }).unwrap();
        assert_eq!(string(Some(5)).unwrap(), encoded.len() as u64 - 4 - 3 - 1);
    }
}
