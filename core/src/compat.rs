//! The few names that differ between bson 2 and bson 3, for the winning major
//! (`crate::bson`); everything else in the crate is spelled the same in both.

/// The error of reading a raw document.
#[cfg(feature = "bson-3")]
pub type RawError = crate::bson::error::Error;
/// The error of reading a raw document.
#[cfg(not(feature = "bson-3"))]
pub type RawError = crate::bson::raw::Error;

/// The error of turning extended JSON into BSON (`Bson::try_from(serde_json::Value)`).
#[cfg(feature = "bson-3")]
pub type ExtJsonError = crate::bson::error::Error;
/// The error of turning extended JSON into BSON (`Bson::try_from(serde_json::Value)`).
#[cfg(not(feature = "bson-3"))]
pub type ExtJsonError = crate::bson::extjson::de::Error;

/// A value serialized as a whole BSON document, in bytes.
#[cfg(feature = "bson-3")]
pub use crate::bson::serialize_to_vec as to_vec;
/// A value serialized as a whole BSON document, in bytes.
#[cfg(not(feature = "bson-3"))]
pub use crate::bson::to_vec;

/// A value serialized as the driver serializes a document: bson's raw serializer.
#[cfg(feature = "bson-3")]
pub use crate::bson::serialize_to_raw_document_buf as to_raw_document_buf;
/// A value serialized as the driver serializes a document: bson's raw serializer.
#[cfg(not(feature = "bson-3"))]
pub use crate::bson::to_raw_document_buf;

/// A value serialized to a `Bson` value, as `doc!` would hold it.
#[cfg(feature = "bson-3")]
pub use crate::bson::serialize_to_bson as to_bson;
/// A value serialized to a `Bson` value, as `doc!` would hold it.
#[cfg(not(feature = "bson-3"))]
pub use crate::bson::to_bson;

/// A value read from a document.
#[cfg(feature = "bson-3")]
pub use crate::bson::deserialize_from_document as from_document;
/// A value read from a document.
#[cfg(not(feature = "bson-3"))]
pub use crate::bson::from_document;

/// A raw document's key as text (bson 3 hands out its own C string type).
#[cfg(feature = "bson-3")]
pub fn key_str(key: &crate::bson::raw::CStr) -> &str {
    key.as_str()
}

/// A raw document's key as text (bson 3 hands out its own C string type).
#[cfg(not(feature = "bson-3"))]
pub fn key_str(key: &str) -> &str {
    key
}

/// `$m! { path::to::bsonN }` once for each bson major this build has (`bson2`, `bson3`): for
/// the crates above this one, which must not name the `bson-*` features in a `cfg` (features
/// are per crate: theirs could disagree with this crate's).
#[cfg(all(feature = "bson-2", feature = "bson-3"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __each_bson_major {
    ($m:ident) => {
        $m! { $crate::bson2 }
        $m! { $crate::bson3 }
    };
}

/// `$m! { path::to::bsonN }` once for each bson major this build has.
#[cfg(all(feature = "bson-2", not(feature = "bson-3")))]
#[doc(hidden)]
#[macro_export]
macro_rules! __each_bson_major {
    ($m:ident) => {
        $m! { $crate::bson2 }
    };
}

/// `$m! { path::to::bsonN }` once for each bson major this build has.
#[cfg(all(feature = "bson-3", not(feature = "bson-2")))]
#[doc(hidden)]
#[macro_export]
macro_rules! __each_bson_major {
    ($m:ident) => {
        $m! { $crate::bson3 }
    };
}
