//! What a review reports: each checklist item's status, evidence and fix.

use mongo_schema_migrate::server::CommandError;
use serde::Serialize;
use std::fmt;
use std::path::PathBuf;

/// Evidence lines shown per item in the table; JSON has them all.
const SHOWN_EVIDENCE: usize = 30;

/// How one checklist item came out; serialised as its [`name`](Status::name).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[non_exhaustive]
pub enum Status {
    /// Meets the standard.
    #[serde(rename = "pass")]
    Pass,
    /// "Not checkable here": the deployment cannot show it; the evidence says why.
    #[serde(rename = "not checkable here")]
    NotCheckable,
    /// Worth a look; does not fail the review.
    #[serde(rename = "warn")]
    Warn,
    /// Breaks the standard: the review exits 1.
    #[serde(rename = "fail")]
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

/// Which list an item belongs to: the standard's two, or the query performance checklist;
/// serialised as `data`, `connection`, `queries`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum List {
    /// The data-modelling checklist (items 1 to 7).
    Data,
    /// The connection specifications (1 to 5) and the security self-check list.
    Connection,
    /// The query performance checklist, as far as a deployment shows it: indexes unused,
    /// undeclared and missing, slow queries recorded.
    Queries,
}

/// One checklist item: its verdict, what was measured, and what to do. Serialised as
/// `{list, id, title, status, evidence, fix}`, an item of `--format json`.
#[derive(Debug, Clone, PartialEq, Serialize)]
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
    pub(super) fn new(list: List, id: &'static str, title: &'static str) -> Self {
        Item { list, id, title, status: Status::Pass, evidence: Vec::new(), fix: String::new() }
    }

    /// Records a fact at `status`; the item's status is the worst recorded.
    pub(super) fn note(&mut self, status: Status, line: impl Into<String>) {
        self.status = self.status.max(status);
        self.evidence.push(line.into());
    }

    /// The fix, shown when the item warns or fails (a "not checkable" item's evidence says
    /// what would make it checkable).
    pub(super) fn fix(mut self, fix: impl Into<String>) -> Self {
        if matches!(self.status, Status::Warn | Status::Fail) {
            self.fix = fix.into();
        }
        self
    }

    pub(super) fn not_checkable(list: List, id: &'static str, title: &'static str, why: impl Into<String>) -> Self {
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

/// The review's result: every item of the lists, in the checklists' order.
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
    /// The URI does not parse: the driver's parser's error is the
    /// [`source`](std::error::Error::source) (it may quote the URI: redact it before printing).
    Uri(mongodb::error::Error),
    /// A command every review needs failed; `Display` names the command, the error is the
    /// [`source`](std::error::Error::source) (and the driver's cause, its source).
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
            ReviewError::Uri(_) => f.write_str("the connection string does not parse"),
            ReviewError::Command { command: "connect", .. } => f.write_str("cannot connect"),
            ReviewError::Command { command, .. } => write!(f, "`{command}` failed"),
        }
    }
}

impl std::error::Error for ReviewError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ReviewError::Uri(e) => Some(e),
            ReviewError::Command { error, .. } => Some(error),
        }
    }
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
        for list in [List::Data, List::Connection, List::Queries] {
            text.push_str(match list {
                List::Data => "Data modelling checklist\n",
                List::Connection => "\nConnection and security checklist\n",
                List::Queries => "\nQuery performance checklist (indexes and slow queries)\n",
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

    /// For CI: `{"items": [{list, id, title, status, evidence, fix}], "summary": {...}}`,
    /// as the report serialises.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::to_value(self).expect("the review's JSON has string keys only")
    }
}

/// `{"items": [{list, id, title, status, evidence, fix}], "summary": {pass, warn, fail,
/// notCheckable}}`, what `schema review --format json` prints.
impl Serialize for Report {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        Json::of(self).serialize(serializer)
    }
}

/// What `--format json` prints: the items and the count of each status.
#[derive(Serialize)]
struct Json<'a> {
    items: &'a [Item],
    summary: Summary,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Summary {
    pass: usize,
    warn: usize,
    fail: usize,
    not_checkable: usize,
}

impl<'a> Json<'a> {
    fn of(report: &'a Report) -> Self {
        let summary = Summary {
            pass: report.count(Status::Pass),
            warn: report.count(Status::Warn),
            fail: report.count(Status::Fail),
            not_checkable: report.count(Status::NotCheckable),
        };
        Json { items: &report.items, summary }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One item of each list and each status, as the review builds them.
    fn report() -> Report {
        let mut naming = Item::new(List::Data, "naming", "1. naming of databases, collections and fields");
        naming.note(Status::Pass, "6 database and collection names follow the rules");
        let mut auth = Item::new(List::Connection, "auth", "Spec 5: authentication enabled");
        auth.note(Status::Fail, "a client without credentials listed the databases");
        let auth = auth.fix("start mongod with `--auth`");
        let mut unused = Item::new(List::Queries, "unused_indexes", "indexes no query used");
        unused.note(Status::Warn, "db_shop.t_order index `status_1` {\"status\":1}: 0 operations");
        let unused = unused.fix("hide it, then drop it");
        let profiler = Item::not_checkable(List::Queries, "slow_query_log", "slow queries recorded", "through mongos");
        Report { items: vec![naming, auth, unused, profiler] }
    }

    /// The JSON `--format json` prints, byte for byte: CI parses it, so its shape only
    /// changes with a CHANGELOG entry.
    #[test]
    fn the_json_shape_is_held() {
        let text = serde_json::to_string_pretty(&report().to_json()).unwrap();
        assert_eq!(text, SNAPSHOT, "{text}");
    }

    #[test]
    fn statuses_serialise_as_their_names() {
        for status in [Status::Pass, Status::Warn, Status::Fail, Status::NotCheckable] {
            assert_eq!(serde_json::to_value(status).unwrap(), status.name());
        }
        // the report itself and `to_json` print the same
        assert_eq!(serde_json::to_string(&report()).unwrap(), report().to_json().to_string());
    }

    const SNAPSHOT: &str = r#"{
  "items": [
    {
      "list": "data",
      "id": "naming",
      "title": "1. naming of databases, collections and fields",
      "status": "pass",
      "evidence": [
        "6 database and collection names follow the rules"
      ],
      "fix": ""
    },
    {
      "list": "connection",
      "id": "auth",
      "title": "Spec 5: authentication enabled",
      "status": "fail",
      "evidence": [
        "a client without credentials listed the databases"
      ],
      "fix": "start mongod with `--auth`"
    },
    {
      "list": "queries",
      "id": "unused_indexes",
      "title": "indexes no query used",
      "status": "warn",
      "evidence": [
        "db_shop.t_order index `status_1` {\"status\":1}: 0 operations"
      ],
      "fix": "hide it, then drop it"
    },
    {
      "list": "queries",
      "id": "slow_query_log",
      "title": "slow queries recorded",
      "status": "not checkable here",
      "evidence": [
        "through mongos"
      ],
      "fix": ""
    }
  ],
  "summary": {
    "pass": 1,
    "warn": 1,
    "fail": 1,
    "notCheckable": 1
  }
}"#;
}
