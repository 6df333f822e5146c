//! mongod's error codes, each with the name mongod reports beside it (`code` and `codeName`
//! of a reply), as `src/mongo/base/error_codes.yml` of the server declares them. The update
//! checker answers with them word for word; the migrations and the review read them from
//! the server's replies.
//!
//! An assertion without a named code reports its location instead: code `N`, name
//! `"LocationN"`; [`location_code!`](crate::location_code) builds one.

/// One of mongod's error codes: the number and the name a reply carries with it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ServerCode {
    /// The number (`code`).
    pub code: i32,
    /// The name (`codeName`).
    pub name: &'static str,
}

/// A [`ServerCode`] for an assertion mongod reports by its location: `location_code!(40323)`
/// is code 40323 named `"Location40323"`.
#[macro_export]
macro_rules! location_code {
    ($code:literal) => {
        $crate::codes::ServerCode { code: $code, name: concat!("Location", $code) }
    };
}

macro_rules! codes {
    ($($(#[$doc:meta])* $constant:ident = $code:literal $name:ident;)*) => {
        $($(#[$doc])* pub const $constant: ServerCode = ServerCode { code: $code, name: stringify!($name) };)*

        /// Every named code above, in the order of their numbers.
        pub const ALL: &[ServerCode] = &[$($constant),*];
    };
}

codes! {
    /// A value the command does not take.
    BAD_VALUE = 2 BadValue;
    /// A host of the deployment could not be reached.
    HOST_UNREACHABLE = 6 HostUnreachable;
    /// A host name did not resolve.
    HOST_NOT_FOUND = 7 HostNotFound;
    /// A malformed command, operator or expression.
    FAILED_TO_PARSE = 9 FailedToParse;
    /// The user lacks a privilege the command needs.
    UNAUTHORIZED = 13 Unauthorized;
    /// A value of the wrong BSON type.
    TYPE_MISMATCH = 14 TypeMismatch;
    /// The credentials were refused.
    AUTHENTICATION_FAILED = 18 AuthenticationFailed;
    /// The collection (or database) does not exist.
    NAMESPACE_NOT_FOUND = 26 NamespaceNotFound;
    /// The index does not exist (`dropIndexes`).
    INDEX_NOT_FOUND = 27 IndexNotFound;
    /// An update path runs through a value that cannot hold it.
    PATH_NOT_VIABLE = 28 PathNotViable;
    /// Two update operators change the same path.
    CONFLICTING_UPDATE_OPERATORS = 40 ConflictingUpdateOperators;
    /// The collection already exists (`create`).
    NAMESPACE_EXISTS = 48 NamespaceExists;
    /// A field name starting with `$` where one may not.
    DOLLAR_PREFIXED_FIELD_NAME = 52 DollarPrefixedFieldName;
    /// An `_id` that is an array, a regex or undefined.
    INVALID_ID_FIELD = 53 InvalidIdField;
    /// An operator applied to a field holding another kind of value.
    NOT_SINGLE_VALUE_FIELD = 54 NotSingleValueField;
    /// An empty field name in an update path.
    EMPTY_FIELD_NAME = 56 EmptyFieldName;
    /// An update that changes `_id` (or a shard key field).
    IMMUTABLE_FIELD = 66 ImmutableField;
    /// Options the command does not take together.
    INVALID_OPTIONS = 72 InvalidOptions;
    /// The network timed out.
    NETWORK_TIMEOUT = 89 NetworkTimeout;
    /// The server is shutting down.
    SHUTDOWN_IN_PROGRESS = 91 ShutdownInProgress;
    /// A document failed the collection's validator.
    DOCUMENT_VALIDATION_FAILURE = 121 DocumentValidationFailure;
    /// An unknown aggregation expression or stage.
    INVALID_PIPELINE_OPERATOR = 168 InvalidPipelineOperator;
    /// The primary stepped down during the command.
    PRIMARY_STEPPED_DOWN = 189 PrimarySteppedDown;
    /// `$convert` could not convert a value.
    CONVERSION_FAILURE = 241 ConversionFailure;
    /// `collMod` to `unique: true` while duplicates exist.
    CANNOT_CONVERT_INDEX_TO_UNIQUE = 359 CannotConvertIndexToUnique;
    /// A socket failed.
    SOCKET_EXCEPTION = 9001 SocketException;
    /// The node is no longer the primary.
    NOT_WRITABLE_PRIMARY = 10107 NotWritablePrimary;
    /// A write met a unique index's existing key.
    DUPLICATE_KEY = 11000 DuplicateKey;
}

impl ServerCode {
    /// The named code with this number, if it is one of [`ALL`].
    pub const fn named(code: i32) -> Option<ServerCode> {
        let mut i = 0;
        while i < ALL.len() {
            if ALL[i].code == code {
                return Some(ALL[i]);
            }
            i += 1;
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_rise_and_names_are_unique() {
        for pair in ALL.windows(2) {
            assert!(pair[0].code < pair[1].code, "{pair:?}");
        }
        let mut names: Vec<&str> = ALL.iter().map(|c| c.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), ALL.len());
    }

    #[test]
    fn names_and_locations() {
        assert_eq!(BAD_VALUE, ServerCode { code: 2, name: "BadValue" });
        assert_eq!(ServerCode::named(11000), Some(DUPLICATE_KEY));
        assert_eq!(ServerCode::named(40323), None);
        assert_eq!(location_code!(40323), ServerCode { code: 40323, name: "Location40323" });
    }
}
