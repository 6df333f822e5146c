//! `schema review`: the standard's two launch checklists, the data-modelling one and the
//! connection-and-security one, run against a live deployment (feature `driver`).
//!
//! Every item of both lists ends as pass, warn, fail or "not checkable here" (with the
//! reason), with its evidence and its fix. The review only reads: `hello`,
//! `connectionStatus`, `listDatabases`, `listCollections`, `serverStatus` (optional),
//! a `find` on `config.mongos` (mongos only) and one bounded `$sample` aggregation per
//! collection with `maxTimeMS`. It talks to the deployment through [`Server`], so tests
//! inject answers a deployment here cannot give (mongos, SRV).

mod connection;
mod data;
mod source;
pub mod uri;

use crate::migrate::apply::{CommandError, Server};
use crate::migrate::Model;
use serde_json::json;
use std::fmt;
use std::path::PathBuf;

pub use source::{scan_source, Scan, SourceFinding};

/// Evidence lines shown per item in the table; JSON has them all.
const SHOWN_EVIDENCE: usize = 30;

/// How one checklist item came out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Status {
    /// Meets the standard.
    Pass,
    /// "Not checkable here": the deployment cannot show it; the evidence says why.
    NotCheckable,
    /// Worth a look; does not fail the review.
    Warn,
    /// Breaks the standard: the review exits 1.
    Fail,
}

impl Status {
    /// `pass`, `warn`, `fail`, `not checkable here`.
    pub fn name(self) -> &'static str {
        match self {
            Status::Pass => "pass",
            Status::Warn => "warn",
            Status::Fail => "fail",
            Status::NotCheckable => "not checkable here",
        }
    }
}

/// Which of the standard's two lists an item belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum List {
    /// The data-modelling checklist (items 1 to 7).
    Data,
    /// The connection specifications (1 to 5) and the security self-check list.
    Connection,
}

impl List {
    fn name(self) -> &'static str {
        match self {
            List::Data => "data",
            List::Connection => "connection",
        }
    }
}

/// One checklist item: its verdict, what was measured, and what to do.
#[derive(Debug, Clone, PartialEq)]
pub struct Item {
    /// The list it belongs to.
    pub list: List,
    /// A stable id for CI (`document_size`, `auth`).
    pub id: &'static str,
    /// The checklist's wording, shortened.
    pub title: &'static str,
    /// The verdict.
    pub status: Status,
    /// What was found, one fact a line (never a password).
    pub evidence: Vec<String>,
    /// What to do; empty when it passes.
    pub fix: String,
}

impl Item {
    fn new(list: List, id: &'static str, title: &'static str) -> Self {
        Item { list, id, title, status: Status::Pass, evidence: Vec::new(), fix: String::new() }
    }

    /// Records a fact at `status`; the item's status is the worst recorded.
    fn note(&mut self, status: Status, line: impl Into<String>) {
        self.status = self.status.max(status);
        self.evidence.push(line.into());
    }

    /// The fix, shown when the item warns or fails (a "not checkable" item's evidence says
    /// what would make it checkable).
    fn fix(mut self, fix: impl Into<String>) -> Self {
        if matches!(self.status, Status::Warn | Status::Fail) {
            self.fix = fix.into();
        }
        self
    }

    fn not_checkable(list: List, id: &'static str, title: &'static str, why: impl Into<String>) -> Self {
        let mut item = Item::new(list, id, title);
        item.note(Status::NotCheckable, why);
        item
    }
}

/// What `schema review` is asked to look at, and the facts only the user knows.
#[derive(Debug, Clone)]
pub struct Options {
    /// The connection string the applications use.
    pub uri: String,
    /// Only these collections (`t_x` or `db_y.t_x`); all when empty.
    pub collections: Vec<String>,
    /// Documents sampled per collection (`$sample`).
    pub sample: u32,
    /// `maxTimeMS` of each aggregation.
    pub max_time_ms: u32,
    /// The nesting limit (the standard's 5).
    pub max_depth: u32,
    /// Application instances that connect with this URI.
    pub apps: Option<u32>,
    /// mongos nodes, when the deployment cannot tell (an SRV name read by a user without
    /// access to `config.mongos`).
    pub mongos: Option<u32>,
    /// The instance's connection limit, when the user may not run `serverStatus`.
    pub connection_limit: Option<u64>,
    /// Expected peak queries per second of one application.
    pub peak_qps: Option<f64>,
    /// Average database response time, milliseconds.
    pub latency_ms: Option<f64>,
    /// The application's sources and config files, scanned for hard-coded credentials.
    pub source: Option<PathBuf>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            uri: String::new(),
            collections: Vec::new(),
            sample: 1000,
            max_time_ms: 30_000,
            max_depth: mongo_schema_contract::rules::DEFAULT_MAX_DEPTH,
            apps: None,
            mongos: None,
            connection_limit: None,
            peak_qps: None,
            latency_ms: None,
            source: None,
        }
    }
}

/// The review's result: every item of both lists, in the checklists' order.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    /// The items.
    pub items: Vec<Item>,
}

/// The review could not run: the connection string does not parse or the deployment
/// does not answer.
#[derive(Debug)]
#[non_exhaustive]
pub enum ReviewError {
    /// The URI does not parse (the driver's message, password redacted by the caller).
    Uri(String),
    /// A command every review needs failed.
    Command {
        /// The command (`hello`).
        command: &'static str,
        /// Why.
        error: CommandError,
    },
}

impl fmt::Display for ReviewError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReviewError::Uri(message) => write!(f, "the connection string does not parse: {message}"),
            ReviewError::Command { command: "connect", error } => write!(f, "cannot connect: {error}"),
            ReviewError::Command { command, error } => write!(f, "`{command}` failed: {error}"),
        }
    }
}

impl std::error::Error for ReviewError {}

/// Runs both checklists. `server` is the deployment reached with `options.uri`;
/// `anonymous`, when the URI carries credentials, the same hosts reached without them
/// (to tell whether the deployment lets anyone in). `models` are the crate's registered
/// collections.
pub fn review(
    server: &mut dyn Server,
    anonymous: Option<&mut dyn Server>,
    models: &[Model],
    options: &Options,
) -> Result<Report, ReviewError> {
    let uri = uri::UriFacts::parse(&options.uri).map_err(ReviewError::Uri)?;
    let hello = server
        .run_command("admin", crate::bson::doc! { "hello": 1 })
        .map_err(|error| ReviewError::Command { command: "hello", error })?;
    let topology = connection::Topology::of(&hello);
    let mut items = data::review_data(server, models, options);
    items.extend(connection::review_connection(server, anonymous, &uri, &topology, options));
    Ok(Report { items })
}

/// Connects with `options.uri` (and, when it carries credentials, once more without
/// them) through the official driver, then runs [`review`].
pub fn review_uri(models: &[Model], options: &Options) -> Result<Report, ReviewError> {
    use crate::migrate::driver::MongoServer;
    uri::UriFacts::parse(&options.uri).map_err(ReviewError::Uri)?;
    let connect =
        |uri: &str| MongoServer::connect(uri).map_err(|error| ReviewError::Command { command: "connect", error });
    let mut server = connect(&options.uri)?;
    let mut anonymous = match anonymous_uri(&options.uri) {
        Some(uri) => Some(connect(&uri)?),
        None => None,
    };
    review(&mut server, anonymous.as_mut().map(|a| a as &mut dyn Server), models, options)
}

/// `uri` without its user and password and the `auth*` options, to ask whether the
/// deployment lets anyone in; `None` when the URI authenticates neither with a user nor
/// with an `authMechanism` (X.509 names no user in the URI).
pub fn anonymous_uri(uri: &str) -> Option<String> {
    let scheme_end = uri.find("://")? + 3;
    let authority_end = uri[scheme_end..].find(['/', '?']).map_or(uri.len(), |e| e + scheme_end);
    let at = uri[scheme_end..authority_end].rfind('@').map(|at| at + scheme_end);
    let tail = at.map_or(&uri[scheme_end..], |at| &uri[at + 1..]);
    let (base, query) = tail.split_once('?').unwrap_or((tail, ""));
    let is_auth = |o: &&str| o.split('=').next().unwrap_or_default().to_ascii_lowercase().starts_with("auth");
    let mechanism = query.split('&').any(|o| o.to_ascii_lowercase().starts_with("authmechanism="));
    if at.is_none() && !mechanism {
        return None;
    }
    let kept: Vec<&str> = query.split('&').filter(|o| !o.is_empty() && !is_auth(o)).collect();
    let head = &uri[..scheme_end];
    Some(match kept.is_empty() {
        true => format!("{head}{base}"),
        false => format!("{head}{base}?{}", kept.join("&")),
    })
}

impl Report {
    /// The item with this id (`auth`, `document_size`).
    pub fn item(&self, id: &str) -> Option<&Item> {
        self.items.iter().find(|i| i.id == id)
    }

    /// Exit code: 1 when any item fails.
    pub fn failed(&self) -> bool {
        self.items.iter().any(|i| i.status == Status::Fail)
    }

    fn count(&self, status: Status) -> usize {
        self.items.iter().filter(|i| i.status == status).count()
    }

    /// The summary line: `12 pass, 2 warn, 1 fail, 3 not checkable here`.
    pub fn summary(&self) -> String {
        format!(
            "{} pass, {} warn, {} fail, {} not checkable here",
            self.count(Status::Pass),
            self.count(Status::Warn),
            self.count(Status::Fail),
            self.count(Status::NotCheckable)
        )
    }

    /// For people: one block per item, its verdict first.
    pub fn render_text(&self) -> String {
        let mut text = String::new();
        for list in [List::Data, List::Connection] {
            text.push_str(match list {
                List::Data => "Data modelling checklist\n",
                List::Connection => "\nConnection and security checklist\n",
            });
            for item in self.items.iter().filter(|i| i.list == list) {
                text.push_str(&format!("{:<18} {} ({})\n", format!("[{}]", item.status.name()), item.title, item.id));
                for line in item.evidence.iter().take(SHOWN_EVIDENCE) {
                    text.push_str(&format!("    {line}\n"));
                }
                if let Some(more) = item.evidence.len().checked_sub(SHOWN_EVIDENCE).filter(|n| *n > 0) {
                    text.push_str(&format!("    ... and {more} more (`--format json` lists every one)\n"));
                }
                if !item.fix.is_empty() {
                    text.push_str(&format!("    fix: {}\n", item.fix));
                }
            }
        }
        text.push_str(&format!("\n{}\n", self.summary()));
        text
    }

    /// For CI: `{"items": [{list, id, title, status, evidence, fix}], "summary": {...}}`.
    pub fn to_json(&self) -> serde_json::Value {
        let items: Vec<serde_json::Value> = self
            .items
            .iter()
            .map(|i| {
                json!({ "list": i.list.name(), "id": i.id, "title": i.title, "status": i.status.name(),
                        "evidence": i.evidence, "fix": i.fix })
            })
            .collect();
        json!({
            "items": items,
            "summary": { "pass": self.count(Status::Pass), "warn": self.count(Status::Warn),
                         "fail": self.count(Status::Fail), "notCheckable": self.count(Status::NotCheckable) },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::anonymous_uri;

    #[test]
    fn the_anonymous_probe_drops_user_password_and_auth_options() {
        assert_eq!(
            anonymous_uri(
                "mongodb://app:p@ss@h1:1,h2/db_app?authSource=admin&replicaSet=rs0&authMechanism=SCRAM-SHA-256"
            ),
            Some("mongodb://h1:1,h2/db_app?replicaSet=rs0".to_owned())
        );
        assert_eq!(
            anonymous_uri("mongodb+srv://u:p@c.example.net/?authSource=admin"),
            Some("mongodb+srv://c.example.net/".to_owned())
        );
        assert_eq!(anonymous_uri("mongodb://h1/?replicaSet=rs0"), None);
        assert_eq!(anonymous_uri("mongodb://h1"), None);
        // X.509: the certificate names the user; the probe keeps TLS, drops the mechanism
        assert_eq!(
            anonymous_uri("mongodb://h1/?tls=true&authMechanism=MONGODB-X509&tlsCertificateKeyFile=/c.pem"),
            Some("mongodb://h1/?tls=true&tlsCertificateKeyFile=/c.pem".to_owned())
        );
    }
}
