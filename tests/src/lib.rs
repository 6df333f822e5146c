//! Test models covering every Rust → BSON mapping of the runtime's impls, every honoured serde
//! attribute and every field keyword, each with sample values: `Some` and `None`, every
//! enum variant, strings and arrays at their declared bounds.

/// `mongo_schema::bson` (the major the build picked) with bson 3's serializer names, so the
/// suite reads the same under either major.
pub mod bson {
    pub use mongo_schema::bson::*;
    #[cfg(not(feature = "bson-3"))]
    pub use mongo_schema::bson::{
        from_slice as deserialize_from_slice, to_bson as serialize_to_bson, to_document as serialize_to_document,
        to_raw_document_buf as serialize_to_raw_document_buf, to_vec as serialize_to_vec,
    };
}
pub mod models;

/// Values of a model that exercise its schema.
pub trait Samples: Sized {
    fn samples() -> Vec<Self>;
}

pub mod conform;
pub mod violations;

use mongo_schema::bson::RawDocumentBuf;
use mongo_schema::MongoCollection;
use serde::Serialize;

/// The bytes the official driver writes for a value: bson's raw serializer, which is not
/// "human readable" (so `uuid::Uuid` goes out as binData, unlike `to_document`).
pub fn driver_bytes<T: Serialize>(value: &T) -> RawDocumentBuf {
    bson::serialize_to_raw_document_buf(value).expect("the driver can serialize every sample")
}

/// A collection root of the corpus, type-erased for table-driven tests.
pub struct Root {
    pub rust_type: &'static str,
    pub db: &'static str,
    pub collection: &'static str,
    pub json_schema: bson::Document,
    pub create: bson::Document,
    pub coll_mod: bson::Document,
    pub samples: Vec<RawDocumentBuf>,
}

impl Root {
    pub fn of<T: MongoCollection + Samples + Serialize>() -> Root {
        Root {
            rust_type: std::any::type_name::<T>(),
            db: T::DB_NAME,
            collection: T::COLLECTION_NAME,
            json_schema: T::json_schema(),
            create: T::create_collection_command(),
            coll_mod: T::coll_mod_command(),
            samples: T::samples().iter().map(driver_bytes).collect(),
        }
    }
}

/// Every collection root of the corpus.
pub fn roots() -> Vec<Root> {
    use models::*;
    vec![
        Root::of::<Scalars>(),
        Root::of::<Containers>(),
        Root::of::<Enums>(),
        Root::of::<SerdeAttributes>(),
        Root::of::<Flattened>(),
        Root::of::<Keywords>(),
        Root::of::<Numbers>(),
        Root::of::<Counter>(),
    ]
}

/// Says on the terminal that a server test was skipped. Written to the stderr handle,
/// not through `eprintln!`, so libtest's capture does not hide it from `cargo test`.
pub fn skipped(test: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr().lock(), "skipped (no MONGODB_URI): {test}");
}
