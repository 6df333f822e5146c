//! How a check stops.

use std::error::Error;
use std::fmt;

/// Why a check stopped: an input that cannot be read or holds no documents, inputs that
/// match no collection, or a validator that does not compile ([`kind`](Self::kind) says
/// which). What was read before counts.
#[derive(Debug)]
pub struct CheckError {
    kind: CheckErrorKind,
    message: String,
    source: Option<Box<dyn Error + Send + Sync>>,
}

/// Which way a check stopped ([`CheckError::kind`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum CheckErrorKind {
    /// An input cannot be read: it does not open, or a document in it does not decode (the
    /// I/O error or the [`DumpError`](crate::dump::DumpError) is the source).
    Unreadable,
    /// An input holds no document: checking nothing proves nothing.
    Empty,
    /// A directory given is not a mongodump output directory, its database cannot be told
    /// from its name, or it cannot be listed.
    NotADump,
    /// Two files of the dump directories hold the same collection: checking both would
    /// count every document twice.
    DuplicateCollection,
    /// The inputs match no collection: a file given without `--collection`, or no dumped
    /// collection with a registered model.
    NoMatch,
    /// The model has no `$jsonSchema` validator to check documents against.
    NoValidator,
    /// The model's validator does not compile.
    InvalidValidator,
}

impl CheckError {
    pub(super) fn new(kind: CheckErrorKind, message: String) -> Self {
        CheckError { kind, message, source: None }
    }

    /// `source`, met in `what` (an input's name).
    pub(super) fn caused(kind: CheckErrorKind, what: &str, source: impl Error + Send + Sync + 'static) -> Self {
        CheckError { kind, message: what.to_owned(), source: Some(Box::new(source)) }
    }

    /// Which way the check stopped.
    pub fn kind(&self) -> CheckErrorKind {
        self.kind
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
