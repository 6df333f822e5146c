//! The record collection ([`STATE_COLLECTION`]): one document per migration started,
//! what `status`, `apply --dry-run`, `apply` and `revert` read and write, and the
//! checksums that refuse an applied file that changed.
//!
//! A record is inserted before a migration's first step (`done: 0`, no `appliedAt`),
//! `done` is raised after each step, and `appliedAt` set after the last: a run stopped
//! half way leaves a record the next run resumes from, whichever step it stopped in (the
//! first included). Records written before checksums existed (`{migration, steps,
//! appliedAt}`) read as applied, unverified. The same collection holds the appliers' lease
//! (`_id: "lock"`, see [`lock`](super::lock)), which is not a record.

/// Deprecated: moved to [`file::checksum`](super::file::checksum).
#[deprecated(note = "use `mongo_schema::migrate::file::checksum`")]
pub fn checksum(text: &str) -> String {
    super::file::checksum(text)
}
use super::file::{FileStep, MigrationFile};
use super::order::{schedule, Progress, Wait};
use super::server::{CommandError, Server};
use mongo_schema_contract::codes::DUPLICATE_KEY;
use mongo_schema_core::bson::{doc, oid::ObjectId, Bson, DateTime, Document};
use std::fmt::Write as _;

/// Where applied migrations are recorded, one document each.
pub const STATE_COLLECTION: &str = "t_schema_migration";
/// The database holding [`STATE_COLLECTION`] unless told otherwise, for the CLI and
/// `Migrator` alike.
pub const DEFAULT_STATE_DB: &str = "db_schema";

/// One document of the record collection.
#[derive(Debug, Clone, PartialEq)]
pub struct Record {
    /// The migration's name.
    pub migration: String,
    /// The file's checksum when it was started; `None` for records of older versions.
    pub checksum: Option<String>,
    /// The migration's step count.
    pub steps: usize,
    /// The steps completed (all of them once applied).
    pub done: usize,
    /// When the last step completed; `None` while the migration is unfinished.
    pub applied_at: Option<DateTime>,
    /// The steps as they were run, to say what changed in an edited file.
    pub up: Vec<Document>,
    /// Steps (0-based) that need a sharded cluster and were skipped on a deployment without
    /// mongos: a later `apply` through mongos runs them.
    pub deferred: Vec<usize>,
    /// Steps (0-based) whose `createCollection` created its collection (it did not exist):
    /// the contract steps on such a collection have nothing to wait for.
    pub created: Vec<usize>,
}

impl Record {
    fn from_document(doc: &Document) -> Option<Record> {
        let count = |key: &str| match doc.get(key) {
            Some(Bson::Int32(n)) => usize::try_from(*n).ok(),
            Some(Bson::Int64(n)) => usize::try_from(*n).ok(),
            _ => None,
        };
        let steps = count("steps").unwrap_or(0);
        let indices = |key: &str| {
            doc.get_array(key)
                .map(|a| {
                    a.iter()
                        .filter_map(|b| match b {
                            Bson::Int32(n) => usize::try_from(*n).ok(),
                            Bson::Int64(n) => usize::try_from(*n).ok(),
                            _ => None,
                        })
                        .collect()
                })
                .unwrap_or_default()
        };
        let applied_at = doc.get_datetime("appliedAt").ok().copied();
        Some(Record {
            migration: doc.get_str("migration").ok()?.to_owned(),
            checksum: doc.get_str("checksum").ok().map(str::to_owned),
            steps,
            done: count("done").unwrap_or(if applied_at.is_some() { steps } else { 0 }),
            applied_at,
            up: doc
                .get_array("up")
                .map(|a| a.iter().filter_map(Bson::as_document).cloned().collect())
                .unwrap_or_default(),
            deferred: indices("deferred"),
            created: indices("created"),
        })
    }

    /// Every step ran.
    pub fn is_applied(&self) -> bool {
        self.applied_at.is_some()
    }
}

/// Every record of `state_db`, in no particular order; none when the collection does not
/// exist (reading never creates it).
pub fn read_records(server: &mut dyn Server, state_db: &str) -> Result<Vec<Record>, CommandError> {
    let mut reply = server.run_command(state_db, doc! { "find": STATE_COLLECTION, "batchSize": 1000 })?;
    let mut records = Vec::new();
    loop {
        let cursor = reply.get_document("cursor").map_err(|_| CommandError::reply("find", "a cursor", &reply))?;
        let batch = cursor
            .get_array("firstBatch")
            .or_else(|_| cursor.get_array("nextBatch"))
            .map_err(|_| CommandError::reply("find", "a batch in its cursor", &reply))?;
        records.extend(batch.iter().filter_map(Bson::as_document).filter_map(Record::from_document));
        let id = cursor.get_i64("id").unwrap_or(0);
        if id == 0 {
            return Ok(records);
        }
        reply =
            server.run_command(state_db, doc! { "getMore": id, "collection": STATE_COLLECTION, "batchSize": 1000 })?;
    }
}

/// A unique index on the migration name, so two concurrent runs cannot both start one.
pub(super) fn prepare(server: &mut dyn Server, state_db: &str) -> Result<(), CommandError> {
    let index = doc! { "key": { "migration": 1 }, "name": "uk_migration", "unique": true };
    server.run_command(state_db, doc! { "createIndexes": STATE_COLLECTION, "indexes": [index] }).map(drop)
}

fn step_document(step: &FileStep) -> Document {
    let mut doc = doc! { "db": &step.db, "command": step.command.clone() };
    if let Some(fallback) = &step.if_namespace_exists {
        doc.insert("ifNamespaceExists", fallback.clone());
    }
    doc
}

/// Why a record could not be written: what failed, and the server's or the driver's error
/// when the command itself failed (a lost connection is the deployment's failure, exit 2).
#[derive(Debug)]
pub(super) struct WriteFailed {
    /// The record collection (`db_schema.t_schema_migration`), and what failed there.
    pub message: String,
    /// The command's error, or the write's.
    pub cause: Option<CommandError>,
}

impl std::fmt::Display for WriteFailed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

/// Inserts the record of `file` before its first step.
pub(super) fn start(server: &mut dyn Server, state_db: &str, file: &MigrationFile) -> Result<(), WriteFailed> {
    let record = doc! {
        "_id": ObjectId::new(),
        "migration": &file.name,
        "checksum": &file.checksum,
        "steps": file.up.len() as i64,
        "done": 0_i64,
        "startedAt": DateTime::now(),
        "up": file.up.iter().map(step_document).map(Bson::Document).collect::<Vec<_>>(),
    };
    write(server, state_db, doc! { "insert": STATE_COLLECTION, "documents": [record] }).map_err(|e| {
        match e.cause.as_ref().is_some_and(|c| c.is(DUPLICATE_KEY)) {
            true => WriteFailed {
                message: format!(
                    "another run recorded it first (an applier of a version without the migration lock?): {}",
                    e.message
                ),
                ..e
            },
            false => e,
        }
    })
}

/// Records that `done` steps of `name` completed, and when all did, that it is applied;
/// `created`: the step just done created its collection.
pub(super) fn progress(
    server: &mut dyn Server,
    state_db: &str,
    name: &str,
    done: usize,
    finished: bool,
    created: Option<usize>,
) -> Result<(), WriteFailed> {
    let mut set = doc! { "done": done as i64 };
    if finished {
        set.insert("appliedAt", DateTime::now());
    }
    let mut change = doc! { "$set": set };
    if let Some(step) = created {
        change.insert("$addToSet", doc! { "created": step as i64 });
    }
    let update = doc! { "q": { "migration": name }, "u": change };
    write(server, state_db, doc! { "update": STATE_COLLECTION, "updates": [update] })
}

/// Records step `index` of `name` as done without running it (`schema resolve --skip-step`):
/// `done` past it, the step in `skipped`, and `appliedAt` when it was the last.
pub(super) fn skip(
    server: &mut dyn Server,
    state_db: &str,
    name: &str,
    index: usize,
    finished: bool,
) -> Result<(), WriteFailed> {
    let mut set = doc! { "done": (index + 1) as i64 };
    if finished {
        set.insert("appliedAt", DateTime::now());
    }
    let update = doc! { "q": { "migration": name }, "u": { "$set": set, "$addToSet": { "skipped": index as i64 } } };
    write(server, state_db, doc! { "update": STATE_COLLECTION, "updates": [update] })
}

/// Records that step `index` of `name` was skipped because it needs a sharded cluster
/// (`deferred: true`), or that it ran through mongos since (`false`).
pub(super) fn defer(
    server: &mut dyn Server,
    state_db: &str,
    name: &str,
    index: usize,
    deferred: bool,
) -> Result<(), WriteFailed> {
    let change = match deferred {
        true => doc! { "$addToSet": { "deferred": index as i64 } },
        false => doc! { "$pull": { "deferred": index as i64 } },
    };
    let update = doc! { "q": { "migration": name }, "u": change };
    write(server, state_db, doc! { "update": STATE_COLLECTION, "updates": [update] })
}

/// Deletes the record of `name` (after `revert`).
pub(super) fn delete(server: &mut dyn Server, state_db: &str, name: &str) -> Result<(), WriteFailed> {
    let delete = doc! { "q": { "migration": name }, "limit": 1 };
    write(server, state_db, doc! { "delete": STATE_COLLECTION, "deletes": [delete] })
}

/// A write on the record collection: the namespace, and the command's or the write's error.
fn write(server: &mut dyn Server, state_db: &str, command: Document) -> Result<(), WriteFailed> {
    let written = server.run_command(state_db, command).and_then(|reply| write_error(&reply).map_or(Ok(()), Err));
    written.map_err(|e| WriteFailed { message: format!("{state_db}.{STATE_COLLECTION}"), cause: Some(e) })
}

/// The first write error or write concern error of a write command's reply.
pub(super) fn write_error(reply: &Document) -> Option<CommandError> {
    let first = reply.get_array("writeErrors").ok().and_then(|e| e.first()).and_then(Bson::as_document);
    let concern = reply.get_document("writeConcernError").ok();
    first.or(concern).map(|e| CommandError::Write {
        code: e.get_i32("code").unwrap_or_default(),
        message: e.get_str("errmsg").unwrap_or("write error").to_owned(),
    })
}

/// Refuses a file whose checksum differs from the one recorded when it was applied (or
/// started): what changed, and how to go on.
pub(super) fn verify(record: &Record, file: &MigrationFile) -> Result<(), String> {
    let Some(recorded) = &record.checksum else { return Ok(()) };
    if *recorded == file.checksum {
        return Ok(());
    }
    let what = if record.is_applied() { "was applied" } else { "was started" };
    let mut message = format!(
        "{what} from a file with checksum {recorded}, but the file now has {}: a migration must not change once it ran. ",
        file.checksum
    );
    let now: Vec<Document> = file.up.iter().map(step_document).collect();
    if record.up.is_empty() {
        message.push_str("What changed: unknown (the record holds no steps). ");
    } else if record.up == now {
        message.push_str(
            "What changed: only text around the commands (notes, comments, formatting); the commands are the same. ",
        );
    } else {
        let changed: Vec<String> = (0..record.up.len().max(now.len()))
            .filter(|&i| record.up.get(i) != now.get(i))
            .map(|i| match (record.up.get(i), now.get(i)) {
                (Some(_), Some(_)) => format!("step {} differs", i + 1),
                (Some(_), None) => format!("step {} was removed", i + 1),
                _ => format!("step {} was added", i + 1),
            })
            .collect();
        let _ = write!(message, "What changed: {}. ", changed.join(", "));
    }
    message.push_str(
        "Restore the file from version control (`git diff` / `git checkout` on it) and put the change in a new \
         migration (`schema migrate`, or `schema new-data` for a data step); or, to undo this migration on the \
         deployment, restore the file and run `schema revert`.",
    );
    Err(message)
}

/// Where one migration file stands on a deployment.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum State {
    /// Not recorded: `apply` runs it.
    Pending,
    /// Started by a run that stopped after `done` of `steps` steps: `apply` resumes it.
    Partial {
        /// Steps completed.
        done: usize,
        /// Its steps.
        steps: usize,
    },
    /// Every step ran and the checksum matches (or was not recorded: `verified` false).
    Applied {
        /// When its last step completed.
        at: DateTime,
        /// A checksum was recorded and matches.
        verified: bool,
        /// Steps (0-based) waiting for a sharded cluster: skipped where there is no mongos,
        /// run by the next `apply` through mongos.
        deferred: Vec<usize>,
    },
    /// Recorded with a checksum the file no longer has: `apply` and `revert` refuse.
    Changed(String),
    /// Its expand steps ran (`done` of them; none for a data migration of the contract): the
    /// rest is its contract, which `apply --contract` runs once the previous release no
    /// longer writes.
    ContractPending {
        /// Steps completed.
        done: usize,
        /// Its steps.
        steps: usize,
    },
    /// Not applied (`done` of `steps` steps ran), and step `at` (0-based) waits behind the
    /// pending contract of the earlier migration `behind`, which writes to `namespace` first:
    /// it was written against the state that contract leaves. `apply --contract` runs both,
    /// in order.
    Held {
        /// Steps completed.
        done: usize,
        /// Its steps.
        steps: usize,
        /// The step that waits (0-based).
        at: usize,
        /// The migration whose contract it waits for.
        behind: String,
        /// The collection (`db.collection`).
        namespace: String,
    },
}

/// One line of `status`: a migration file, or a record whose file is gone.
#[derive(Debug, Clone, PartialEq)]
pub struct Status {
    /// The migration's name.
    pub name: String,
    /// Where it stands; `None` for a record without a file in the directory.
    pub state: Option<State>,
}

/// Where each of `files` stands according to `records`, as [`schedule`] takes it.
pub fn progress_of(records: &[Record], files: &[MigrationFile]) -> Vec<Progress> {
    files
        .iter()
        .map(|file| match records.iter().find(|r| r.migration == file.name) {
            Some(r) => {
                Progress { applied: r.is_applied(), done: r.done.min(file.up.len()), created: r.created.clone() }
            }
            None => Progress::default(),
        })
        .collect()
}

/// Each file's state, in the files' order, then the records whose file is not in `files`.
pub(super) fn status_of(records: &[Record], files: &[MigrationFile]) -> Vec<Status> {
    let record = |name: &str| records.iter().find(|r| r.migration == name);
    // what the next run without the contract leaves waiting behind a contract already pending
    let plan = schedule(files, &progress_of(records, files), false);
    let held = |f: usize, done: usize, steps: usize| {
        plan.waiting.iter().filter(|w| w.file == f).find_map(|w| match &w.wait {
            Wait::Behind { contract, namespace: (db, collection), .. } if record(&files[*contract].name).is_some() => {
                Some(State::Held {
                    done,
                    steps,
                    at: w.step,
                    behind: files[*contract].name.clone(),
                    namespace: format!("{db}.{collection}"),
                })
            }
            _ => None,
        })
    };
    let mut lines: Vec<Status> = files
        .iter()
        .enumerate()
        .map(|(f, file)| {
            let steps = file.up.len();
            let state = match record(&file.name) {
                Some(r) if verify(r, file).is_err() || r.is_applied() => None,
                Some(r) => held(f, r.done, r.steps),
                None => held(f, 0, steps),
            };
            if let Some(state) = state {
                return Status { name: file.name.clone(), state: Some(state) };
            }
            let state = match records.iter().find(|r| r.migration == file.name) {
                None if file.contract_from(0) == Some(0) => State::ContractPending { done: 0, steps },
                None => State::Pending,
                Some(r) => match (verify(r, file), r.applied_at) {
                    (Err(message), _) => State::Changed(message),
                    (Ok(()), Some(at)) => {
                        State::Applied { at, verified: r.checksum.is_some(), deferred: r.deferred.clone() }
                    }
                    // a contract step that runs with the expand (its collection created) is
                    // where a stopped run resumes, not a contract waiting
                    (Ok(()), None)
                        if file.contract_from(r.done) == Some(r.done)
                            && !plan.order.iter().any(|p| p.file == f && p.step == r.done) =>
                    {
                        State::ContractPending { done: r.done, steps: r.steps }
                    }
                    (Ok(()), None) => State::Partial { done: r.done, steps: r.steps },
                },
            };
            Status { name: file.name.clone(), state: Some(state) }
        })
        .collect();
    let mut orphans: Vec<&Record> = records.iter().filter(|r| !files.iter().any(|f| f.name == r.migration)).collect();
    orphans.sort_by(|a, b| a.migration.cmp(&b.migration));
    lines.extend(orphans.into_iter().map(|r| Status { name: r.migration.clone(), state: None }));
    lines
}

#[cfg(test)]
mod tests {
    use super::{status_of, MigrationFile, Record, State};
    use crate::file::checksum;

    #[test]
    fn a_contract_on_a_collection_its_expand_created_is_where_a_stopped_run_resumes() {
        let text = r#"{"migration": "0001_create_t_a", "up": [
            {"db": "db", "command": {"create": "t_a", "validator": {"$jsonSchema": {}}}},
            {"db": "db", "phase": "contract", "requireValid": true, "command": {"collMod": "t_a", "validator": {"$jsonSchema": {}}}}
        ]}"#;
        let files = [MigrationFile::parse(text).unwrap()];
        let record = |created: Vec<usize>| Record {
            migration: "0001_create_t_a".to_owned(),
            checksum: None,
            steps: 2,
            done: 1,
            applied_at: None,
            up: Vec::new(),
            deferred: Vec::new(),
            created,
        };
        let state = |created| status_of(&[record(created)], &files)[0].state.clone();
        assert_eq!(state(vec![0]), Some(State::Partial { done: 1, steps: 2 }), "created: `apply` runs it");
        assert_eq!(state(vec![]), Some(State::ContractPending { done: 1, steps: 2 }), "adopted: it waits");
    }

    #[test]
    fn checksums_ignore_crlf_and_see_every_other_byte() {
        assert_eq!(checksum("{}\n"), checksum("{}\r\n"));
        assert_ne!(checksum("{}\n"), checksum("{} \n"));
        // sha256 of the empty string
        assert_eq!(checksum(""), "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    }
}
