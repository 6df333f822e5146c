//! The official driver's values and ours: commands and replies carried as BSON bytes (the
//! driver's bson major, the user's choice, and ours may differ; BSON bytes are the same in
//! both), and the driver's errors as [`CommandError`]. Feature `migrate`.

use super::server::CommandError;
use mongo_schema_core::bson::Document;
use mongodb::error::ErrorKind;
use std::sync::Arc;

/// A command as the driver's bson (its major may differ from ours: BSON bytes are the same).
pub(crate) fn to_driver(command: &Document) -> Result<mongodb::bson::RawDocumentBuf, CommandError> {
    let mut bytes = Vec::new();
    command.to_writer(&mut bytes).map_err(CommandError::bson)?;
    mongodb::bson::RawDocumentBuf::from_bytes(bytes).map_err(CommandError::bson)
}

/// A reply of the driver's bson as ours.
pub(crate) fn from_driver(reply: &mongodb::bson::Document) -> Result<Document, CommandError> {
    let mut bytes = Vec::new();
    reply.to_writer(&mut bytes).map_err(CommandError::bson)?;
    Document::from_reader(&mut &bytes[..]).map_err(CommandError::bson)
}

/// The server's code and message when it refused the command; the driver's error otherwise.
pub(crate) fn command_error(e: mongodb::error::Error) -> CommandError {
    match e.kind.as_ref() {
        ErrorKind::Command(c) => CommandError::Refused { code: c.code, message: c.message.clone() },
        _ => CommandError::Driver(Arc::new(e)),
    }
}
