//! The official driver's sync API behind [`Server`], for commands that connect with a URI of
//! their own (the `schema` command, the launch review). Feature `sync` (mongo-schema's `review`
//! and `driver` turn it on); an application's start-up migrations ([`Migrator`](crate::Migrator),
//! feature `migrate`) run on the application's own async client and need none of it.

use super::server::{CommandError, Server};
use super::wire::{command_error, from_driver, to_driver};
use mongo_schema_core::bson::{Document, RawDocumentBuf};
use mongodb::action::Action;
use mongodb::options::{ReadPreference, SelectionCriteria};
use mongodb::sync::Client;

/// A deployment reached through `mongodb::sync::Client`.
pub struct MongoServer {
    client: Client,
    read_preference: Option<ReadPreference>,
}

impl MongoServer {
    /// A client for `uri` (`mongodb://...`); the connection opens on the first command.
    /// Commands go to the primary.
    pub fn connect(uri: &str) -> Result<Self, CommandError> {
        Client::with_uri_str(uri).map(|client| MongoServer { client, read_preference: None }).map_err(command_error)
    }

    /// Every command, cursors' `getMore`s included, goes where `read_preference` says (for
    /// reads that should spare the primary: `SecondaryPreferred`).
    pub fn reading_from(self, read_preference: ReadPreference) -> Self {
        MongoServer { read_preference: Some(read_preference), ..self }
    }

    fn selection(&self) -> Option<SelectionCriteria> {
        self.read_preference.clone().map(SelectionCriteria::ReadPreference)
    }
}

impl Server for MongoServer {
    /// The command goes to the driver as bytes and its reply comes back as bytes: the driver's
    /// bson major (`mongodb::bson`, the user's choice) and ours (`mongo_schema_core::bson`) may differ,
    /// and BSON bytes are the same in both.
    fn run_command(&mut self, db: &str, command: Document) -> Result<Document, CommandError> {
        let command = to_driver(&command)?;
        let reply = self
            .client
            .database(db)
            .run_raw_command(command)
            .optional(self.selection(), |run, selection| run.selection_criteria(selection))
            .run()
            .map_err(command_error)?;
        from_driver(&reply)
    }

    /// The same client (its pool), for the migration lease's heartbeat.
    fn handle(&self) -> Option<Box<dyn Server + Send>> {
        Some(Box::new(MongoServer { client: self.client.clone(), read_preference: self.read_preference.clone() }))
    }

    /// The driver's cursor: every `getMore` goes to the server that opened it, whatever the
    /// read preference; documents arrive as the server's bytes.
    fn cursor(
        &mut self,
        db: &str,
        command: Document,
        each: &mut dyn FnMut(RawDocumentBuf) -> bool,
    ) -> Result<(), CommandError> {
        let command = to_driver(&command)?;
        let mut cursor = self
            .client
            .database(db)
            .run_raw_cursor_command(command)
            .optional(self.selection(), |run, selection| run.selection_criteria(selection))
            .run()
            .map_err(command_error)?;
        // dropping the cursor early kills it on the server
        while cursor.advance().map_err(command_error)? {
            let raw = RawDocumentBuf::from_bytes(cursor.current().as_bytes().to_vec()).map_err(CommandError::bson)?;
            if !each(raw) {
                break;
            }
        }
        Ok(())
    }
}
