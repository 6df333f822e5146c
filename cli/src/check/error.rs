//! How a check stops.

use std::error::Error;
use std::fmt;

/// Why a check stopped: an input that cannot be read or holds no documents, inputs that
/// match no collection, or a validator that does not compile. What was read before counts.
#[derive(Debug)]
pub struct CheckError {
    message: String,
    source: Option<Box<dyn Error + Send + Sync>>,
}

impl CheckError {
    pub(super) fn new(message: String) -> Self {
        CheckError { message, source: None }
    }

    /// `source`, met in `what` (an input's name).
    pub(super) fn caused(what: &str, source: impl Error + Send + Sync + 'static) -> Self {
        CheckError { message: what.to_owned(), source: Some(Box::new(source)) }
    }
}

impl fmt::Display for CheckError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl Error for CheckError {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        self.source.as_deref().map(|e| e as &(dyn Error + 'static))
    }
}
