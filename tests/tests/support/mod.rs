//! What the mongod tests of this crate share (`mod support;` in each): the client of
//! `MONGODB_URI`, and the code of a command or write mongod refused.

pub mod index_models;

use mongodb::error::{ErrorKind, WriteFailure};
use mongodb::sync::Client;

/// `db_app` holds the migration records of more than one module's tests on the same servers
/// (index_change_mongod, shard_migrate): they take turns, as when each file was a binary.
pub static DB_APP: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// A client of `MONGODB_URI`, or `None` when it is unset: the test is then noted as
/// skipped, as `file::test` (the caller's file, `mongod::every_model_inserts`), and returns
/// (scripts/test.sh counts the skips).
#[track_caller]
pub fn client(test: &str) -> Option<Client> {
    match std::env::var("MONGODB_URI") {
        Ok(uri) => Some(Client::with_uri_str(uri).expect("MONGODB_URI is a valid connection string")),
        Err(_) => {
            let file = std::path::Path::new(std::panic::Location::caller().file());
            let module = file.file_stem().and_then(|s| s.to_str()).unwrap_or_default();
            mongo_schema_tests::skipped(&format!("{module}::{test}"));
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
