//! The deployment port: [`Server`], one method to run a command, and [`CommandError`], what
//! a command that failed says. Migrations, drift, `schema check --uri` and `schema review`
//! talk to MongoDB only through it, so every failure path is tested with a recording fake;
//! the `migrate` feature implements it with the official driver ([`driver`](super::driver)).

use crate::bson::{doc, Bson, Document, RawDocumentBuf};
use mongo_schema_contract::codes::ServerCode;
use std::error::Error;
use std::fmt;
use std::sync::Arc;

/// A MongoDB deployment, as far as migrations and `schema check --uri` need one.
pub trait Server {
    /// Runs `command` on database `db`: the reply, or the server's error.
    fn run_command(&mut self, db: &str, command: Document) -> Result<Document, CommandError>;

    /// A second handle on the same deployment, usable from another thread: the migration
    /// lease is renewed through it while a long step (an index build) runs. `None` (this
    /// default): the lease is renewed between steps only, so a step must end within the
    /// lease ([`LockOptions::lease`](super::lock::LockOptions::lease)).
    fn handle(&self) -> Option<Box<dyn Server + Send>> {
        None
    }

    /// Runs `command`, which opens a cursor (`aggregate`, `find`), and hands `each` every
    /// document of every batch in order, as the server's bytes, until the cursor is exhausted
    /// or `each` returns `false` (the cursor is then killed). This default drives `getMore`
    /// through [`run_command`](Server::run_command), which must then run every command in
    /// one session and on one server (mongod refuses a `getMore` from another session, code
    /// 50738); the driver's implementation (`MongoServer`, feature `driver`)
    /// uses the driver's cursor, which does.
    fn cursor(
        &mut self,
        db: &str,
        command: Document,
        each: &mut dyn FnMut(RawDocumentBuf) -> bool,
    ) -> Result<(), CommandError> {
        let mut reply = self.run_command(db, command)?;
        let mut batch_key = "firstBatch";
        loop {
            let cursor = reply.get_document("cursor").map_err(|_| reply_error("no `cursor` in the reply", &reply))?;
            let id = cursor.get_i64("id").map_err(|_| reply_error("no cursor `id` in the reply", &reply))?;
            let ns = cursor.get_str("ns").unwrap_or_default().to_owned();
            let batch = cursor.get_array(batch_key).map_err(|_| reply_error("no batch in the reply", &reply))?;
            for document in batch {
                let Bson::Document(document) = document else {
                    return Err(reply_error("a batch holds a value that is not a document", &reply));
                };
                let mut bytes = Vec::new();
                document.to_writer(&mut bytes).map_err(|e| CommandError::Reply(e.to_string()))?;
                let raw = RawDocumentBuf::from_bytes(bytes).map_err(|e| CommandError::Reply(e.to_string()))?;
                if !each(raw) {
                    if id != 0 {
                        let collection = ns.split_once('.').map_or(ns.as_str(), |(_, c)| c);
                        // the cursor would time out anyway: a failure to kill it changes nothing
                        let _ = self.run_command(db, doc! { "killCursors": collection, "cursors": [id] });
                    }
                    return Ok(());
                }
            }
            if id == 0 {
                return Ok(());
            }
            let collection = ns.split_once('.').map_or(ns.as_str(), |(_, c)| c).to_owned();
            reply = self.run_command(db, doc! { "getMore": id, "collection": collection })?;
            batch_key = "nextBatch";
        }
    }
}

fn reply_error(what: &str, reply: &Document) -> CommandError {
    CommandError::Reply(format!("{what}: {reply}"))
}

/// A command that failed: refused by the server, answered oddly, or never sent.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum CommandError {
    /// The server refused the command: its error code and message (`errmsg`).
    Refused {
        /// The server's error code (48 NamespaceExists, 13 Unauthorized, ...).
        code: i32,
        /// The server's message.
        message: String,
    },
    /// The server answered, but not with the reply the command promises.
    Reply(String),
    /// The command got no reply: the driver failed (network, TLS, authentication, the URI).
    /// The driver's error is the [`source`](std::error::Error::source): `Display` says only
    /// "the driver failed", so print it with its `source()` chain, as the `schema` commands do.
    Driver(Arc<dyn Error + Send + Sync>),
}

impl CommandError {
    /// The server's error code, when the server refused the command.
    pub fn code(&self) -> Option<i32> {
        match self {
            CommandError::Refused { code, .. } => Some(*code),
            _ => None,
        }
    }

    /// Whether the server refused the command with `code`
    /// (`e.is(mongo_schema::codes::UNAUTHORIZED)`).
    pub fn is(&self, code: ServerCode) -> bool {
        self.code() == Some(code.code)
    }
}

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CommandError::Refused { code, message } => write!(f, "{message} (code {code})"),
            CommandError::Reply(message) => f.write_str(message),
            CommandError::Driver(_) => f.write_str("the driver failed"),
        }
    }
}

impl Error for CommandError {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        match self {
            CommandError::Driver(e) => Some(&**e),
            _ => None,
        }
    }
}

/// An error and its causes on one line, `: ` between them: the library's errors say their
/// context in `Display` and leave the cause to `source()`, so whatever prints one (a command's
/// exit message, a review's evidence) prints it through this, and a [`CommandError::Driver`]
/// names the driver's cause (`invalid peer certificate: UnknownIssuer`) instead of only "the
/// driver failed". (Its users, the commands and the review, all come with feature `cli`.)
#[cfg(feature = "cli")]
pub(crate) fn chain(error: &dyn Error) -> String {
    let mut text = error.to_string();
    let mut cause = error.source();
    while let Some(e) = cause {
        text = format!("{text}: {e}");
        cause = e.source();
    }
    text
}
