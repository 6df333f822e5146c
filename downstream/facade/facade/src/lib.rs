//! A company's shared crate: its services depend on it, not on mongo-schema.
pub use mongo_schema as schema;
