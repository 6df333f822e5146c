//! The lease every applier takes before it reads what is pending, so that several instances
//! of an application starting together (a rolling deploy, an autoscaler), or the CLI beside
//! them, never run one migration twice.
//!
//! The lease is one document of the record collection, `{_id: "lock", owner, expiresAt}`.
//! It is taken, renewed and taken over with one atomic `findAndModify` that changes it only
//! when it is free, expired or already ours; its times are the server's clock (`$$NOW`), so
//! the appliers' clocks never matter. An applier that finds another owner waits. An owner
//! that died (a killed process, a lost machine) stops renewing, and its lease is taken over
//! once it expires.

use super::record::STATE_COLLECTION;
use super::server::{CommandError, Server};
use mongo_schema_contract::codes::DUPLICATE_KEY;
use mongo_schema_core::bson::{doc, Bson, Document};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// The `_id` of the lease document in the record collection.
pub const LOCK_ID: &str = "lock";

/// How an applier takes the lease.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LockOptions {
    /// How long a lease lasts without renewal: an owner that died blocks the others this
    /// long at most. Renewed every third of it while the owner works.
    pub lease: Duration,
    /// How long to wait for another applier's lease before giving up with an error.
    pub wait: Duration,
}

impl Default for LockOptions {
    /// A 30-second lease and up to 10 minutes of waiting: long enough for another instance
    /// to build an index on a large collection, short enough for a start-up probe.
    fn default() -> Self {
        LockOptions { lease: Duration::from_secs(30), wait: Duration::from_secs(600) }
    }
}

/// Who holds the lease: this process, on this machine, and a random part that tells two
/// appliers of one process apart.
fn owner() -> String {
    let host = std::env::var("HOSTNAME").ok().filter(|h| !h.is_empty()).unwrap_or_else(|| "unknown-host".to_owned());
    format!("{host}:{}:{}", std::process::id(), mongo_schema_core::bson::oid::ObjectId::new().to_hex())
}

/// Why the lease could not be taken or was lost.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum LockError {
    /// Another applier held it for longer than [`LockOptions::wait`].
    Timeout {
        /// The holder, as it wrote itself (`host:pid:...`).
        holder: String,
        /// How long this applier waited.
        waited: Duration,
    },
    /// The lease expired while this applier worked and another took it over: this applier
    /// stopped before its next step.
    Lost {
        /// The applier that holds it now, if it could be read.
        holder: Option<String>,
    },
    /// The server refused a command on the lease.
    Server(CommandError),
}

impl std::fmt::Display for LockError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LockError::Timeout { holder, waited } => write!(
                f,
                "another applier ({holder}) has held the migration lock for the {}s this run waited; it renews it \
                 while it works, so it is still running: wait for it, or raise the wait (`--lock-wait`, \
                 `Migrator::lock`)",
                waited.as_secs()
            ),
            LockError::Lost { holder } => write!(
                f,
                "the migration lock expired while this run worked and {} took it over: this run stopped before \
                 its next step (was the process paused longer than the lease?); run apply again, which resumes",
                holder.as_deref().unwrap_or("another applier")
            ),
            LockError::Server(_) => f.write_str("cannot use the migration lock"),
        }
    }
}

impl std::error::Error for LockError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            LockError::Server(e) => Some(e),
            _ => None,
        }
    }
}

/// The lease, held: renewed in the background while a step runs (when the server can hand
/// out a second connection), and between steps; released on [`Lease::release`] or drop.
pub struct Lease {
    state_db: String,
    owner: String,
    lease: Duration,
    lost: Arc<AtomicBool>,
    heartbeat: Option<Heartbeat>,
}

/// The renewing thread and how to stop it: a flag set under its mutex, and the signal.
type Heartbeat = (Arc<(Mutex<bool>, Condvar)>, JoinHandle<()>);

impl Lease {
    /// Takes the lease in `state_db`, waiting while another applier holds it. `waiting` is
    /// told once who holds it, when this applier has to wait.
    pub fn acquire(
        server: &mut dyn Server,
        state_db: &str,
        options: LockOptions,
        waiting: &mut dyn FnMut(&str),
    ) -> Result<Lease, LockError> {
        let owner = owner();
        let start = Instant::now();
        let mut told = false;
        let mut pause = Duration::from_millis(100);
        loop {
            match take(server, state_db, &owner, options.lease)? {
                true => break,
                false => {
                    let holder = holder(server, state_db).unwrap_or_else(|| "an applier that just released it".into());
                    if start.elapsed() >= options.wait {
                        return Err(LockError::Timeout { holder, waited: start.elapsed() });
                    }
                    if !told {
                        waiting(&holder);
                        told = true;
                    }
                    std::thread::sleep(pause.min(options.wait.saturating_sub(start.elapsed())));
                    pause = (pause * 2).min(Duration::from_secs(1));
                }
            }
        }
        let lost = Arc::new(AtomicBool::new(false));
        let heartbeat = server.handle().map(|mut handle| {
            let stop = Arc::new((Mutex::new(false), Condvar::new()));
            let (stop2, lost2, owner2, db2) = (stop.clone(), lost.clone(), owner.clone(), state_db.to_owned());
            let every = options.lease / 3;
            let lease = options.lease;
            let thread = std::thread::spawn(move || {
                let (flag, signal) = &*stop2;
                let mut stopped = flag.lock().unwrap_or_else(|e| e.into_inner());
                loop {
                    // the flag, not the signal, says stop: a release before this thread first
                    // waits signalled no one, and must not be waited out for a whole beat
                    let (guard, _) =
                        signal.wait_timeout_while(stopped, every, |stop| !*stop).unwrap_or_else(|e| e.into_inner());
                    stopped = guard;
                    if *stopped {
                        return;
                    }
                    // a failed renewal (the network) is retried at the next beat; a lease
                    // someone else took over is lost for good
                    if let Ok(false) = take(&mut *handle, &db2, &owner2, lease) {
                        lost2.store(true, Ordering::SeqCst);
                        return;
                    }
                }
            });
            (stop, thread)
        });
        Ok(Lease { state_db: state_db.to_owned(), owner, lease: options.lease, lost, heartbeat })
    }

    /// Renews the lease before a step; an error when it was lost to another applier.
    pub fn renew(&self, server: &mut dyn Server) -> Result<(), LockError> {
        if !self.lost.load(Ordering::SeqCst) && take(server, &self.state_db, &self.owner, self.lease)? {
            return Ok(());
        }
        self.lost.store(true, Ordering::SeqCst);
        Err(LockError::Lost { holder: holder(server, &self.state_db) })
    }

    /// Stops renewing and gives the lease back, so the next applier need not wait for it to
    /// expire. A failure to delete it only makes the next applier wait for the expiry.
    pub fn release(mut self, server: &mut dyn Server) {
        self.stop_heartbeat();
        let delete = doc! { "q": { "_id": LOCK_ID, "owner": &self.owner }, "limit": 1 };
        let _ = server.run_command(&self.state_db, doc! { "delete": STATE_COLLECTION, "deletes": [delete] });
    }

    fn stop_heartbeat(&mut self) {
        if let Some((stop, thread)) = self.heartbeat.take() {
            let (flag, signal) = &*stop;
            *flag.lock().unwrap_or_else(|e| e.into_inner()) = true;
            signal.notify_all();
            let _ = thread.join();
        }
    }
}

impl Drop for Lease {
    /// Without [`release`](Lease::release) (a panic), the heartbeat stops and the lease
    /// expires on its own.
    fn drop(&mut self) {
        self.stop_heartbeat();
    }
}

/// One attempt to take or renew the lease: `true` when `owner` holds it now.
///
/// One `findAndModify` upserting `_id: "lock"`, whose pipeline keeps the holder unless the
/// lease expired or is `owner`'s already (on the server's clock), and returns the document
/// after: the lease is ours when it names us. Two appliers inserting it at once meet the
/// unique `_id`; mongod retries the loser's upsert as an update, which then sees the
/// winner (a server that does not retry answers E11000: held as well).
fn take(server: &mut dyn Server, state_db: &str, owner: &str, lease: Duration) -> Result<bool, LockError> {
    let lease_ms = i64::try_from(lease.as_millis()).unwrap_or(i64::MAX);
    let free = doc! { "$or": [
        { "$lte": ["$expiresAt", "$$NOW"] },
        { "$eq": ["$owner", owner] },
    ] };
    let pick = |ours: Bson, theirs: &str| Bson::Document(doc! { "$cond": [free.clone(), ours, theirs] });
    let command = doc! {
        "findAndModify": STATE_COLLECTION,
        "query": { "_id": LOCK_ID },
        "update": [{ "$set": {
            "owner": pick(Bson::String(owner.to_owned()), "$owner"),
            "expiresAt": pick(Bson::Document(doc! { "$add": ["$$NOW", lease_ms] }), "$expiresAt"),
            "renewedAt": pick(Bson::String("$$NOW".to_owned()), "$renewedAt"),
        } }],
        "upsert": true,
        "new": true,
    };
    match server.run_command(state_db, command) {
        Ok(reply) => {
            let holder = reply.get_document("value").ok().and_then(|v| v.get_str("owner").ok());
            Ok(holder == Some(owner))
        }
        // the lease's upsert met the document another applier holds
        Err(e) if e.is(DUPLICATE_KEY) => Ok(false),
        Err(e) => Err(LockError::Server(e)),
    }
}

/// For fakes of [`Server`] (tests of code that applies migrations without a deployment):
/// when `command` is the lease's `findAndModify`, the reply of a deployment where no other
/// applier runs, which grants it; `None` for any other command.
pub fn granting_reply(command: &Document) -> Option<Document> {
    let lease = command.get_str("findAndModify").ok() == Some(STATE_COLLECTION)
        && command.get_document("query").ok()?.get_str("_id").ok() == Some(LOCK_ID);
    if !lease {
        return None;
    }
    let set = command.get_array("update").ok()?.first()?.as_document()?.get_document("$set").ok()?;
    let owner = set.get_document("owner").ok()?.get_array("$cond").ok()?.get(1)?.as_str()?;
    Some(
        doc! { "lastErrorObject": { "n": 1, "updatedExisting": true }, "value": { "_id": LOCK_ID, "owner": owner }, "ok": 1 },
    )
}

/// Who holds the lease, as it wrote itself; `None` when it is free or unreadable.
fn holder(server: &mut dyn Server, state_db: &str) -> Option<String> {
    let reply = server
        .run_command(state_db, doc! { "find": STATE_COLLECTION, "filter": { "_id": LOCK_ID }, "limit": 1 })
        .ok()?;
    let batch = reply.get_document("cursor").ok()?.get_array("firstBatch").ok()?;
    let lock: &Document = batch.first()?.as_document()?;
    lock.get_str("owner").ok().map(str::to_owned)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A deployment where no other applier runs, with a second handle for the heartbeat.
    struct Granting;

    impl Server for Granting {
        fn run_command(&mut self, _: &str, command: Document) -> Result<Document, CommandError> {
            Ok(granting_reply(&command).unwrap_or_else(|| doc! { "ok": 1 }))
        }

        fn handle(&self) -> Option<Box<dyn Server + Send>> {
            Some(Box::new(Granting))
        }
    }

    #[test]
    fn a_lease_released_at_once_does_not_wait_for_its_heartbeat() {
        // the heartbeat renews every 10 s; a release before its thread first waits must
        // still stop it at once (`schema resolve` holds the lease for milliseconds)
        for _ in 0..20 {
            let start = Instant::now();
            let lease = Lease::acquire(&mut Granting, "db_state", LockOptions::default(), &mut |_| {}).unwrap();
            lease.release(&mut Granting);
            assert!(start.elapsed() < Duration::from_secs(5), "released after {:?}", start.elapsed());
        }
    }
}
