//! The check of one input on every core: `jobs` threads take turns reading a batch of
//! documents ([`DumpReader::fill`]: cut, not yet decoded) and decode and validate it while
//! the others read; the batch reports are merged in input order, so the report is the one a
//! single thread makes, byte for byte.

use super::error::{CheckError, CheckErrorKind};
use super::report::DryRunReport;
use crate::dump::{self, Batch, DumpError, DumpReader};
use mongo_schema_validate::Validator;
use std::collections::BTreeMap;
use std::io::{self, BufRead, Read};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Mutex};

/// Documents per batch handed to a validating thread (fewer when they are large).
const BATCH_DOCUMENTS: usize = 512;
/// Bytes per batch: bounds the memory of the queue, whatever the documents' size.
const BATCH_BYTES: usize = 1 << 20;

/// What a check shows while it runs (a progress bar); every method does nothing by default,
/// and `()` shows nothing.
pub trait Progress {
    /// An input of `len` bytes (`None`: unknown, as for standard input) starts, adding to
    /// `report`: the reader the check then reads the input through.
    fn start(
        &mut self,
        namespace: &str,
        len: Option<u64>,
        report: &DryRunReport,
        input: Box<dyn Read + Send>,
    ) -> Box<dyn Read + Send> {
        let _ = (namespace, len, report);
        input
    }
    /// A batch of documents was added to `report`.
    fn batch(&mut self, report: &DryRunReport) {
        let _ = report;
    }
    /// The input is over (read to its end, or failed).
    fn finish(&mut self) {}
}

impl Progress for () {}

/// Checks one input (`-`: standard input) of any format [`dump::from_reader`] tells apart
/// against `validator`, into `report`, on `jobs` threads (0 or 1: one thread reads and
/// validates). From a `mongodump --archive`, only `namespace`'s documents are read. An
/// input that cannot be read, holds a document that does not decode, or holds no document
/// stops the check; what was read before counts in `report`.
pub fn check_input(
    validator: &Validator,
    namespace: &str,
    path: &Path,
    jobs: usize,
    report: &mut DryRunReport,
    progress: &mut dyn Progress,
) -> Result<(), CheckError> {
    let name = if path == Path::new("-") { "standard input".to_owned() } else { path.display().to_string() };
    let (input, len): (Box<dyn Read + Send>, Option<u64>) = if path == Path::new("-") {
        (Box::new(io::stdin()), None)
    } else {
        let file = std::fs::File::open(path).map_err(|e| CheckError::caused(CheckErrorKind::Unreadable, &name, e))?;
        let len = file.metadata().map(|m| m.len()).ok();
        (Box::new(file), len)
    };
    let input = progress.start(namespace, len, report, input);
    let mut docs = dump::from_reader(input)
        .map_err(|e| CheckError::caused(CheckErrorKind::Unreadable, &name, e))?
        .only_namespace(namespace);
    let result = match jobs {
        0 | 1 => sequential(&mut docs, validator, report, progress),
        _ => parallel(&mut docs, validator, jobs, report, progress),
    };
    progress.finish();
    result.map_err(|e| CheckError::caused(CheckErrorKind::Unreadable, &name, e))?;
    if docs.documents() == 0 {
        return Err(CheckError::new(
            CheckErrorKind::Empty,
            format!(
            "{name}: empty: no documents (expected mongodump BSON or --archive, Extended JSON lines or a JSON array, plain or gzip)"
        )));
    }
    Ok(())
}

/// One thread reads, decodes and validates, a batch at a time.
fn sequential<R: BufRead>(
    docs: &mut DumpReader<R>,
    validator: &Validator,
    report: &mut DryRunReport,
    progress: &mut dyn Progress,
) -> Result<(), DumpError> {
    let mut batch = Batch::new();
    loop {
        batch.clear();
        let read = docs.fill(&mut batch, BATCH_DOCUMENTS, BATCH_BYTES);
        // the batch's documents come before a read error, so does an error among them
        if let Some(e) = validate(&batch, validator, report, None) {
            return Err(e);
        }
        progress.batch(report);
        read?;
        if batch.is_empty() {
            return Ok(());
        }
    }
}

/// Validates a batch's documents into `report`, in order, until one does not decode (its
/// error is returned) or `stop` is set.
fn validate(
    batch: &Batch,
    validator: &Validator,
    report: &mut DryRunReport,
    stop: Option<&AtomicBool>,
) -> Option<DumpError> {
    for i in 0..batch.len() {
        if stop.is_some_and(|stop| stop.load(Ordering::Relaxed)) {
            return None;
        }
        match batch.decode(i) {
            Ok(doc) => report.add(validator, &doc),
            Err(e) => return Some(e),
        }
    }
    None
}

/// A batch's report, and the error that ended it early (a document that does not decode).
type Done = (u64, DryRunReport, Option<DumpError>);

/// The input, shared by the threads that take turns reading it.
struct Shared<'a, R> {
    docs: &'a mut DumpReader<R>,
    /// The number of the next batch read.
    next: u64,
    /// Reading is over: the input ended, or failed with `error`.
    over: bool,
    error: Option<DumpError>,
}

/// `jobs` threads take turns reading a batch of documents (numbered in input order) and
/// validate it while the others read theirs, so each batch is checked where it was read,
/// still in that core's cache; one thread merges their reports in batch order. Memory:
/// one batch per thread.
fn parallel<R: BufRead + Send>(
    docs: &mut DumpReader<R>,
    validator: &Validator,
    jobs: usize,
    report: &mut DryRunReport,
    progress: &mut dyn Progress,
) -> Result<(), DumpError> {
    let ids = report.ids_per_group();
    let stop = AtomicBool::new(false);
    let shared = Mutex::new(Shared { docs, next: 0, over: false, error: None });
    let (done, results) = mpsc::channel::<Done>();
    let failed = std::thread::scope(|scope| {
        for _ in 0..jobs {
            let (done, shared, stop) = (done.clone(), &shared, &stop);
            scope.spawn(move || {
                let mut batch = Batch::new();
                while !stop.load(Ordering::Relaxed) {
                    let Some(seq) = read_batch(shared, &mut batch) else { return };
                    let mut part = DryRunReport::new(ids);
                    let error = validate(&batch, validator, &mut part, Some(stop));
                    if done.send((seq, part, error)).is_err() {
                        return;
                    }
                }
            });
        }
        drop(done);
        let mut pending: BTreeMap<u64, (DryRunReport, Option<DumpError>)> = BTreeMap::new();
        let mut next = 0;
        let mut failed = None;
        for (seq, part, error) in results {
            pending.insert(seq, (part, error));
            while let Some((part, error)) = pending.remove(&next) {
                next += 1;
                if failed.is_some() {
                    continue;
                }
                report.merge(part);
                progress.batch(report);
                if error.is_some() {
                    failed = error;
                    stop.store(true, Ordering::Relaxed);
                }
            }
        }
        failed
    });
    // the first error in input order: a batch's comes before any the reader met later
    let read_error = shared.into_inner().unwrap_or_else(|poisoned| poisoned.into_inner()).error;
    match failed.or(read_error) {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// Reads the next batch into `batch`; its number, or `None` when reading is over.
fn read_batch<R: BufRead>(shared: &Mutex<Shared<'_, R>>, batch: &mut Batch) -> Option<u64> {
    let mut shared = shared.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    if shared.over {
        return None;
    }
    batch.clear();
    if let Err(e) = shared.docs.fill(batch, BATCH_DOCUMENTS, BATCH_BYTES) {
        shared.over = true;
        shared.error = Some(e);
    }
    if batch.is_empty() {
        shared.over = true;
        return None;
    }
    shared.next += 1;
    Some(shared.next - 1)
}
