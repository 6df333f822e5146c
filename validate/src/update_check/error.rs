//! Why an update is refused: mongod's error for it, or the schema's.

use std::fmt;

use mongo_schema_contract::codes::{ServerCode, DOCUMENT_VALIDATION_FAILURE, IMMUTABLE_FIELD};
use mongo_schema_core::bson::Document;

use super::super::report::Failure;

/// Why [`Validator::check_update`](super::super::Validator::check_update) says mongod would not store the update's result.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum UpdateError {
    /// mongod refuses the update itself, with this error (e.g. 14 TypeMismatch for `$inc`
    /// of a string, 40 ConflictingUpdateOperators, 28 PathNotViable).
    Refused {
        /// mongod's error code.
        code: i32,
        /// mongod's name for the code.
        code_name: &'static str,
        /// mongod's message, as the server words it.
        message: String,
    },
    /// The updated document breaks the schema: mongod's write error 121 "Document failed
    /// validation", whose `errInfo` is [`Failure::err_info`].
    Invalid {
        /// The document the update would have written.
        document: Box<Document>,
        /// What breaks the schema.
        failure: Box<Failure>,
    },
    /// The filter given in [`UpdateOptions::filter`](super::UpdateOptions::filter) does not match the current document:
    /// mongod would update nothing.
    NotMatched,
    /// The update uses something this checker does not model (see the module docs); mongod
    /// may well accept it. Says what.
    Unsupported(String),
}

impl UpdateError {
    pub(crate) fn refused(code: ServerCode, message: impl Into<String>) -> UpdateError {
        UpdateError::Refused { code: code.code, code_name: code.name, message: message.into() }
    }

    /// mongod's refusal of an update that changes `_id`.
    pub(crate) fn immutable_id() -> UpdateError {
        UpdateError::refused(
            IMMUTABLE_FIELD,
            "Performing an update on the path '_id' would modify the immutable field '_id'",
        )
    }

    /// mongod's error code with its name: the refusal's, or 121 DocumentValidationFailure
    /// for a document that fails validation; `None` when the update was not modelled.
    pub fn server_code(&self) -> Option<ServerCode> {
        match self {
            UpdateError::Refused { code, code_name, .. } => Some(ServerCode { code: *code, name: code_name }),
            UpdateError::Invalid { .. } => Some(DOCUMENT_VALIDATION_FAILURE),
            UpdateError::NotMatched | UpdateError::Unsupported(_) => None,
        }
    }

    /// mongod's error code: the refusal's, or 121 for a document that fails validation;
    /// `None` when the update was not modelled.
    pub fn code(&self) -> Option<i32> {
        self.server_code().map(|c| c.code)
    }

    /// The failure, for an updated document that breaks the schema.
    pub fn failure(&self) -> Option<&Failure> {
        match self {
            UpdateError::Invalid { failure, .. } => Some(failure),
            _ => None,
        }
    }
}

impl fmt::Display for UpdateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UpdateError::Refused { code, code_name, message } => {
                write!(f, "mongod refuses this update ({code} {code_name}): {message}")
            }
            UpdateError::Invalid { failure, .. } => {
                write!(f, "the updated document fails validation (121): ")?;
                for (i, v) in failure.violations().iter().enumerate() {
                    let sep = if i == 0 { "" } else { "; " };
                    write!(f, "{sep}`{}` breaks {}: {}", v.path, v.keyword, v.reason)?;
                }
                Ok(())
            }
            UpdateError::NotMatched => write!(f, "the filter does not match the document: nothing would be updated"),
            UpdateError::Unsupported(what) => write!(f, "update not checked: {what}"),
        }
    }
}

impl std::error::Error for UpdateError {}
