//! Models covering every mapping row and serde attribute.
