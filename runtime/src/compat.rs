//! The few names that differ between bson 2 and bson 3, for the winning major
//! (`crate::bson`); everything else in the crate is spelled the same in both.

/// The error of reading a raw document.
#[cfg(all(any(feature = "dump", feature = "validator"), feature = "bson-3"))]
pub(crate) type RawError = crate::bson::error::Error;
/// The error of reading a raw document.
#[cfg(all(any(feature = "dump", feature = "validator"), not(feature = "bson-3")))]
pub(crate) type RawError = crate::bson::raw::Error;

/// The error of turning extended JSON into BSON (`Bson::try_from(serde_json::Value)`).
#[cfg(all(any(feature = "cli", feature = "migrate"), feature = "bson-3"))]
pub(crate) type ExtJsonError = crate::bson::error::Error;
/// The error of turning extended JSON into BSON (`Bson::try_from(serde_json::Value)`).
#[cfg(all(any(feature = "cli", feature = "migrate"), not(feature = "bson-3")))]
pub(crate) type ExtJsonError = crate::bson::extjson::de::Error;

/// A value serialized as a whole BSON document, in bytes.
#[cfg(all(test, feature = "bson-3"))]
pub(crate) use crate::bson::serialize_to_vec as to_vec;
/// A value serialized as a whole BSON document, in bytes.
#[cfg(all(test, not(feature = "bson-3")))]
pub(crate) use crate::bson::to_vec;

/// A value serialized as the driver serializes a document: bson's raw serializer.
#[cfg(feature = "bson-3")]
pub(crate) use crate::bson::serialize_to_raw_document_buf as to_raw_document_buf;
/// A value serialized as the driver serializes a document: bson's raw serializer.
#[cfg(not(feature = "bson-3"))]
pub(crate) use crate::bson::to_raw_document_buf;
