//! What the mongod tests of this crate share (`mod support;` in each): the client of
//! `MONGODB_URI`, and the code of a command or write mongod refused.

#![allow(dead_code)] // each test binary uses what it needs

use mongodb::error::{ErrorKind, WriteFailure};
use mongodb::sync::Client;

/// A client of `MONGODB_URI`, or `None` when it is unset: the test is then noted as
/// skipped, as `binary::test`, and returns (scripts/test.sh counts the skips).
pub fn client(test: &str) -> Option<Client> {
    match std::env::var("MONGODB_URI") {
        Ok(uri) => Some(Client::with_uri_str(uri).expect("MONGODB_URI is a valid connection string")),
        Err(_) => {
            // the test binary is `<name>-<hash>`
            let exe = std::env::current_exe().ok();
            let stem = exe.as_deref().and_then(|p| p.file_stem()).and_then(|s| s.to_str()).unwrap_or_default();
            let binary = stem.rsplit_once('-').map_or(stem, |(name, _)| name);
            mongo_schema_tests::skipped(&format!("{binary}::{test}"));
            None
        }
    }
}

/// The code of a refused command, write, or the first write of a refused `insertMany`.
pub fn code(error: &mongodb::error::Error) -> Option<i32> {
    match error.kind.as_ref() {
        ErrorKind::Command(e) => Some(e.code),
        ErrorKind::Write(WriteFailure::WriteError(e)) => Some(e.code),
        ErrorKind::InsertMany(e) => e.write_errors.as_ref().and_then(|w| w.first()).map(|w| w.code),
        _ => None,
    }
}
