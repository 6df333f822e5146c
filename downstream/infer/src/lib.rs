//! The drafted models as a module of a user's crate, compiled unchanged.

// exactly as drafted: `schema infer` writes it, rustfmt does not rewrite it
#[rustfmt::skip]
pub mod drafted;

// the fleet's models: a tagged enum, a nested rename, maps and UUIDs (drivertests/tests/infer_legacy.rs)
#[rustfmt::skip]
pub mod fleet;

// keys that are keywords or not ASCII, odd tag values, nesting past the rules' depth
// (drivertests/tests/infer_legacy.rs, `hostile_keys_and_values_draft_a_file_that_compiles`)
#[rustfmt::skip]
pub mod edges;

// issue 46's samples, generated: a rename drafted forward with its TTL index, a tag whose
// values share a key (drivertests/tests/infer_legacy.rs, `the_issue_samples_draft_the_rename_forward_and_the_tag`)
#[rustfmt::skip]
pub mod events;

#[cfg(test)]
mod tests {
    use super::drafted::{Customers, Order};
    use mongo_schema::{MongoCollection, MongoSchema};

    /// The roots are registered as collections of the legacy database, each with a validator.
    #[test]
    fn the_drafted_roots_are_collections() {
        assert_eq!((Order::DB_NAME, Order::COLLECTION_NAME), ("db_legacy", "t_order"));
        assert_eq!((Customers::DB_NAME, Customers::COLLECTION_NAME), ("db_legacy", "customers"));
        let schema = Order::json_schema();
        let required = schema.get_array("required").unwrap();
        assert!(required.iter().any(|r| r.as_str() == Some("shippingAddress")), "{schema}");
        assert!(!required.iter().any(|r| r.as_str() == Some("remark")), "{schema}");
    }
}
