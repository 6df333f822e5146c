//! The official driver (sync API) behind [`Server`]. Feature `driver`.

use super::apply::{CommandError, Server};
use crate::bson::Document;
use mongodb::error::ErrorKind;
use mongodb::sync::Client;
use std::sync::Arc;

/// A deployment reached through `mongodb::sync::Client`.
pub struct MongoServer {
    client: Client,
}

impl MongoServer {
    /// A client for `uri` (`mongodb://...`); the connection opens on the first command.
    pub fn connect(uri: &str) -> Result<Self, CommandError> {
        Client::with_uri_str(uri).map(|client| MongoServer { client }).map_err(command_error)
    }
}

impl Server for MongoServer {
    /// The command goes to the driver as bytes and its reply comes back as bytes: the driver's
    /// bson major (`mongodb::bson`, the user's choice) and ours (`crate::bson`) may differ,
    /// and BSON bytes are the same in both.
    fn run_command(&mut self, db: &str, command: Document) -> Result<Document, CommandError> {
        let mut bytes = Vec::new();
        command.to_writer(&mut bytes).map_err(|e| CommandError::Driver(Arc::new(e)))?;
        let command =
            mongodb::bson::RawDocumentBuf::from_bytes(bytes).map_err(|e| CommandError::Driver(Arc::new(e)))?;
        let reply = self.client.database(db).run_raw_command(command).run().map_err(command_error)?;
        let mut bytes = Vec::new();
        reply.to_writer(&mut bytes).map_err(|e| CommandError::Reply(e.to_string()))?;
        Document::from_reader(&mut &bytes[..]).map_err(|e| CommandError::Reply(e.to_string()))
    }
}

/// The server's code and message when it refused the command; the driver's error otherwise.
fn command_error(e: mongodb::error::Error) -> CommandError {
    match e.kind.as_ref() {
        ErrorKind::Command(c) => CommandError::Refused { code: c.code, message: c.message.clone() },
        _ => CommandError::Driver(Arc::new(e)),
    }
}
