//! The official driver (sync API) behind [`Server`]. Feature `driver`.

use super::apply::{CommandError, Server};
use bson::Document;
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
    fn run_command(&mut self, db: &str, command: Document) -> Result<Document, CommandError> {
        self.client.database(db).run_command(command).run().map_err(command_error)
    }
}

/// The server's code and message when it refused the command; the driver's error otherwise.
fn command_error(e: mongodb::error::Error) -> CommandError {
    match e.kind.as_ref() {
        ErrorKind::Command(c) => CommandError::Refused { code: c.code, message: c.message.clone() },
        _ => CommandError::Driver(Arc::new(e)),
    }
}
