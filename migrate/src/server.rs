//! The deployment port: [`Server`], one method to run a command, and [`CommandError`], what
//! a command that failed says. Migrations, drift, `schema check --uri` and `schema review`
//! talk to MongoDB only through it, so every failure path is tested with a recording fake;
//! the official driver implements it twice: over an application's own async client for
//! `Migrator` (feature `migrate`), and as [`driver::MongoServer`](super::driver::MongoServer), a
//! sync client of its own for the CLI and the review (feature `sync`).

use mongo_schema_contract::codes::ServerCode;
use mongo_schema_core::bson::{doc, Bson, Document, RawDocumentBuf};
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
    /// 50738); the driver's implementation (`MongoServer`, feature `sync`)
    /// uses the driver's cursor, which does.
    fn cursor(
        &mut self,
        db: &str,
        command: Document,
        each: &mut dyn FnMut(RawDocumentBuf) -> bool,
    ) -> Result<(), CommandError> {
        let mut name = command.keys().next().cloned().unwrap_or_default();
        let mut reply = self.run_command(db, command)?;
        let mut batch_key = "firstBatch";
        loop {
            let odd = |expected| CommandError::reply(&name, expected, &reply);
            let cursor = reply.get_document("cursor").map_err(|_| odd("a `cursor`"))?;
            let id = cursor.get_i64("id").map_err(|_| odd("a cursor `id`"))?;
            let ns = cursor.get_str("ns").unwrap_or_default().to_owned();
            let batch = cursor.get_array(batch_key).map_err(|_| odd("a batch"))?;
            for document in batch {
                let Bson::Document(document) = document else {
                    return Err(odd("only documents in its batch"));
                };
                let mut bytes = Vec::new();
                document.to_writer(&mut bytes).map_err(CommandError::bson)?;
                let raw = RawDocumentBuf::from_bytes(bytes).map_err(CommandError::bson)?;
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
            "getMore".clone_into(&mut name);
            batch_key = "nextBatch";
        }
    }
}

/// A command that failed: refused by the server, answered oddly, or never sent.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum CommandError {
    /// The server refused the command: its error code and message (`errmsg`).
    Refused {
        /// The server's error code (48 NamespaceExists, 13 Unauthorized, ...:
        /// [`codes`](mongo_schema_contract::codes)).
        code: i32,
        /// The server's message.
        message: String,
    },
    /// The command ran (`ok: 1`) but a write in it failed: the first of `writeErrors`, or
    /// the `writeConcernError`.
    Write {
        /// The write error's code (11000 DuplicateKey, ...).
        code: i32,
        /// The write error's message (`errmsg`).
        message: String,
    },
    /// The server answered, but not with the reply the command promises.
    Reply {
        /// The command (`find`, `count`, `aggregate`).
        command: String,
        /// What the reply lacks: a `cursor`, a count at `n`, ...
        expected: &'static str,
        /// The reply.
        reply: Box<Document>,
    },
    /// A document could not be carried between BSON's bytes and a `Document` (the driver's
    /// bson and this crate's may be different majors); the BSON library's error is the
    /// [`source`](std::error::Error::source).
    Bson(Arc<dyn Error + Send + Sync>),
    /// The command got no reply: the driver failed (network, TLS, authentication, the URI).
    /// `Display` says only that; the driver's error, its words, is the
    /// [`source`](std::error::Error::source) ([`chain`] prints both).
    Driver(Arc<dyn Error + Send + Sync>),
}

impl CommandError {
    /// The server's error code, when the server refused the command or a write in it.
    pub fn code(&self) -> Option<i32> {
        match self {
            CommandError::Refused { code, .. } | CommandError::Write { code, .. } => Some(*code),
            _ => None,
        }
    }

    /// Whether the server refused the command, or a write in it, with `code`
    /// (`e.is(mongo_schema::codes::UNAUTHORIZED)`).
    pub fn is(&self, code: ServerCode) -> bool {
        self.code() == Some(code.code)
    }

    /// A reply to `command` (its name) without what it promises (`expected`).
    pub fn reply(command: &str, expected: &'static str, reply: &Document) -> CommandError {
        CommandError::Reply { command: command.to_owned(), expected, reply: Box::new(reply.clone()) }
    }

    /// A BSON library's error, as [`CommandError::Bson`].
    pub(crate) fn bson(error: impl Error + Send + Sync + 'static) -> CommandError {
        CommandError::Bson(Arc::new(error))
    }
}

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CommandError::Refused { code, message } => write!(f, "{message} (code {code})"),
            CommandError::Write { code, message } => write!(f, "write failed: {message} (code {code})"),
            CommandError::Reply { command, expected, reply } => {
                write!(f, "`{command}` replied without {expected}: {reply}")
            }
            CommandError::Bson(_) => f.write_str("a document is not valid BSON"),
            CommandError::Driver(_) => f.write_str("the driver failed"),
        }
    }
}

impl Error for CommandError {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        match self {
            CommandError::Driver(e) | CommandError::Bson(e) => Some(&**e),
            _ => None,
        }
    }
}

/// An error and its causes: the library's errors say their context in `Display` and leave the
/// cause to `source()`, never both, so whatever prints one goes through this.
pub fn causes(error: &dyn Error) -> Vec<String> {
    let mut said = vec![error.to_string()];
    let mut cause = error.source();
    while let Some(e) = cause {
        said.push(e.to_string());
        cause = e.source();
    }
    said
}

/// An error and its causes on one line, `: ` between them, for a line of a report (a
/// review's evidence, a tracing event).
pub fn chain(error: &dyn Error) -> String {
    causes(error).join(": ")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An error about a command, whose cause is the command's error.
    #[derive(Debug)]
    struct Failed(CommandError);

    impl fmt::Display for Failed {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("`hello` failed")
        }
    }

    impl Error for Failed {
        fn source(&self) -> Option<&(dyn Error + 'static)> {
            Some(&self.0)
        }
    }

    #[test]
    fn the_drivers_cause_is_said_once_and_kept_as_the_source() {
        let reset = std::io::Error::new(std::io::ErrorKind::ConnectionReset, "connection reset by peer");
        let driver = CommandError::Driver(Arc::new(reset));
        assert_eq!(driver.to_string(), "the driver failed");
        assert_eq!(driver.source().map(ToString::to_string).as_deref(), Some("connection reset by peer"));
        let failed = Failed(driver);
        assert_eq!(causes(&failed), ["`hello` failed", "the driver failed", "connection reset by peer"]);
        assert_eq!(chain(&failed), "`hello` failed: the driver failed: connection reset by peer");
    }

    #[test]
    fn an_odd_reply_names_the_command_and_what_it_lacks() {
        let e = CommandError::reply("count", "a count at `n`", &doc! { "ok": 1 });
        assert!(matches!(&e, CommandError::Reply { command, .. } if command == "count"));
        assert_eq!(e.to_string(), "`count` replied without a count at `n`: { \"ok\": 1 }");
        let write = CommandError::Write { code: 11000, message: "E11000 duplicate key".to_owned() };
        assert!(write.is(mongo_schema_contract::codes::DUPLICATE_KEY));
    }
}
