//! `schema migrate`: the next migration written from the models' differences with the
//! snapshot, or (`--check`) whether the models match it.

use super::rehearse;
use super::shared::{chain, chain_then, Exit, Output};
use crate::simulate::{self, Rehearsal, Samples};
use mongo_schema_migrate::file::MigrationFile;
use mongo_schema_migrate::order::Progress;
use mongo_schema_migrate::{self as migrate, MigrateError, MigrateOptions, Model};
use serde::Serialize;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// The fix of a damaged snapshot.
const RESTORE: &str = "restore it from version control";

pub(super) fn naming(numbered: bool) -> migrate::Naming {
    if numbered {
        migrate::Naming::Sequence
    } else {
        migrate::Naming::Timestamp
    }
}

/// Where `migrate --check` takes the rehearsal's sample documents from, besides the
/// documents it generates from the validators.
pub(super) struct SampleArgs {
    /// Dumps (what `schema check` reads).
    pub(super) inputs: Vec<PathBuf>,
    /// The collection a sample file holds.
    pub(super) collection: Option<String>,
    /// A deployment: its records say which migrations are pending, `$sample` gives documents.
    pub(super) uri: Option<String>,
    /// Documents `$sample`d a collection.
    pub(super) size: u32,
    /// The database of the deployment's records.
    pub(super) state_db: String,
}

/// `migrate --check`: exit 1, naming what changed, when `migrate` would write a migration,
/// or when a pending data step's result would be refused (the rehearsal).
pub(super) fn check_migrations(
    models: &[Model],
    dir: &Path,
    options: &MigrateOptions,
    format: Output,
    samples: &SampleArgs,
    out: &mut dyn Write,
) -> Result<i32, Exit> {
    let rehearsal = rehearse_dir(models, dir, samples)?;
    let refused = rehearsal.refused().next().is_some();
    let changed = check_models(models, dir, options, format, &rehearsal, out)?;
    Ok(i32::from(changed || refused))
}

/// The rehearsal of the directory's data steps: all of them on a deployment that has none
/// applied, or with `--uri` those its records say are pending, over its `$sample`s.
fn rehearse_dir(models: &[Model], dir: &Path, args: &SampleArgs) -> Result<Rehearsal, Exit> {
    let files: Vec<MigrationFile> = match dir.is_dir() {
        false => Vec::new(),
        true => {
            let paths = migrate::pending(dir).map_err(|e| Exit(2, chain(&e)))?;
            paths.iter().map(|p| MigrationFile::read(p)).collect::<Result<_, _>>().map_err(|e| Exit(2, chain(&e)))?
        }
    };
    let mut samples = match args.inputs.is_empty() {
        true => Samples::default(),
        false => rehearse::from_dumps(models, &files, &args.inputs, args.collection.as_deref())?,
    };
    let Some(uri) = &args.uri else { return Ok(simulate::rehearse_release(&files, &samples)) };
    live(uri, &args.state_db, &files, args.size, &mut samples)
        .map(|progress| simulate::rehearse(&files, &progress, &samples))
}

/// With the driver: where each of `files` stands by the deployment's records, and the
/// `$sample`s of the collections the pending ones touch added to `samples`.
#[cfg(feature = "driver")]
fn live(
    uri: &str,
    state_db: &str,
    files: &[MigrationFile],
    size: u32,
    samples: &mut Samples,
) -> Result<Vec<Progress>, Exit> {
    let server = &mut super::server::connect(uri)?;
    let todo = mongo_schema_migrate::apply::to_apply(server, files, state_db).map_err(|e| Exit(2, chain(&e)))?;
    let touched: Vec<MigrationFile> = todo.iter().map(|(f, _)| (*f).clone()).collect();
    let progress = rehearse::progress(server, state_db, files)?;
    rehearse::from_server(server, &rehearse::namespaces(&touched), size, samples)?;
    Ok(progress)
}

#[cfg(not(feature = "driver"))]
fn live(_: &str, _: &str, _: &[MigrationFile], _: u32, _: &mut Samples) -> Result<Vec<Progress>, Exit> {
    Err(Exit(
        2,
        "`migrate --check --uri` reads a deployment, which this binary was built without: turn on mongo-schema's \
         `driver` feature"
            .to_owned(),
    ))
}

/// The models compared with the snapshot, then the rehearsal, printed; whether the models
/// changed without a migration.
fn check_models(
    models: &[Model],
    dir: &Path,
    options: &MigrateOptions,
    format: Output,
    rehearsal: &Rehearsal,
    out: &mut dyn Write,
) -> Result<bool, Exit> {
    let path = dir.join(migrate::SNAPSHOT_FILE);
    let snapshot = match std::fs::read_to_string(&path) {
        Ok(text) => migrate::Snapshot::from_json(&text)
            .map_err(|e| Exit(2, format!("{}: {}", path.display(), chain_then(&e, RESTORE))))?,
        // no snapshot: every model is new (a wrong --dir shows up here too)
        Err(e) if e.kind() == io::ErrorKind::NotFound => migrate::Snapshot::default(),
        Err(e) => return Err(Exit(2, format!("{}: {e}", path.display()))),
    };
    let next = match snapshot.next_migration(models, options) {
        Ok(next) => next,
        Err(MigrateError::CollectionCount(message)) => return Err(Exit(1, message)),
        Err(e) => return Err(Exit(2, chain(&e))),
    };
    if format == Output::Json {
        let report = CheckReport::new(next.as_ref(), rehearsal);
        writeln!(out, "{}", serde_json::to_string(&report).expect("the report has string keys only"))?;
        return Ok(next.is_some());
    }
    let Some(migration) = next else {
        writeln!(out, "migrations are current: the models match {}", path.display())?;
        rehearse::print(rehearsal, out)?;
        return Ok(false);
    };
    writeln!(out, "the models changed without a migration; `schema migrate --dir {}` would write:", dir.display())?;
    let mut contract = false;
    for step in &migration.up {
        if step.phase == migrate::Phase::Contract && !contract {
            contract = true;
            writeln!(out, "  then, in its contract (`schema apply --contract`, once the previous release is gone):")?;
        }
        for comment in &step.comments {
            writeln!(out, "  {comment}")?;
        }
    }
    for removed in &migration.removed {
        writeln!(out, "  {}: removed from the code", removed.model.namespace())?;
    }
    rehearse::print(rehearsal, out)?;
    Ok(true)
}

pub(super) fn write_migration(
    models: &[Model],
    dir: &Path,
    options: &MigrateOptions,
    out: &mut dyn Write,
) -> Result<i32, Exit> {
    let written = match migrate::migrate(dir, models, options) {
        Ok(written) => written,
        Err(MigrateError::CollectionCount(message)) => return Err(Exit(1, message)),
        Err(e @ MigrateError::Snapshot { .. }) => return Err(Exit(2, chain_then(&e, RESTORE))),
        Err(e) => return Err(Exit(2, chain(&e))),
    };
    let Some(written) = written else {
        writeln!(out, "no changes: the models match {}", dir.join(migrate::SNAPSHOT_FILE).display())?;
        return Ok(0);
    };
    writeln!(out, "wrote migration {}:", written.migration.name)?;
    for file in &written.files {
        writeln!(out, "  {}", file.display())?;
    }
    for note in &written.migration.notes {
        writeln!(out, "note: {note}")?;
    }
    if let Some(line) = missing_rerun_line(Path::new("."), dir) {
        writeln!(
            out,
            "note: this crate embeds its migrations with `migrations!`, which rebuilds when a file changes but not \
             when one is added: add `{line}` to its build script (build.rs, in `fn main`) so that cargo rebuilds it \
             now; until then `cargo build` keeps the old set"
        )?;
    }
    Ok(0)
}

/// The build-script line a crate at `root` that embeds migrations with `migrations!` lacks
/// for `dir` (added files rebuild it only with it), or `None`: no such crate here, or the
/// line is there.
pub(super) fn missing_rerun_line(root: &Path, dir: &Path) -> Option<String> {
    if !root.join("Cargo.toml").is_file() || !embeds_migrations(&root.join("src")) {
        return None;
    }
    let dir = dir.strip_prefix(".").unwrap_or(dir).to_string_lossy().trim_end_matches('/').to_owned();
    let watched = std::fs::read_to_string(root.join("build.rs"))
        .is_ok_and(|script| script.contains(&format!("rerun-if-changed={dir}")));
    (!watched).then(|| format!("println!(\"cargo:rerun-if-changed={dir}\");"))
}

/// Some `.rs` file under `dir` calls `migrations!`.
fn embeds_migrations(dir: &Path) -> bool {
    let Ok(entries) = std::fs::read_dir(dir) else { return false };
    entries.flatten().any(|entry| {
        let path = entry.path();
        if path.is_dir() {
            embeds_migrations(&path)
        } else {
            path.extension().is_some_and(|e| e == "rs")
                && std::fs::read_to_string(&path).is_ok_and(|text| text.contains("migrations!("))
        }
    })
}

/// `migrate --check --format json`: whether the migrations are current; when not, the
/// next migration's steps, the collections it removes and its notes; then the rehearsal of
/// the pending data steps (docs/MIGRATIONS.md).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct CheckReport<'a> {
    current: bool,
    #[serde(flatten)]
    next: Option<NextMigration<'a>>,
    data_steps: rehearse::DataSteps<'a>,
}

#[derive(Serialize)]
struct NextMigration<'a> {
    steps: Vec<NextStep<'a>>,
    /// The removed collections (`db.collection`).
    removed: Vec<String>,
    notes: &'a [String],
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct NextStep<'a> {
    db: &'a str,
    collection: &'a str,
    comments: &'a [String],
    phase: &'static str,
    require_valid: bool,
}

impl<'a> CheckReport<'a> {
    fn new(next: Option<&'a migrate::Migration>, rehearsal: &'a Rehearsal) -> CheckReport<'a> {
        let next = next.map(|migration| NextMigration {
            steps: migration
                .up
                .iter()
                .map(|s| NextStep {
                    db: &s.db,
                    collection: &s.collection,
                    comments: &s.comments,
                    phase: s.phase.as_str(),
                    require_valid: s.require_valid,
                })
                .collect(),
            removed: migration.removed.iter().map(|e| e.model.namespace()).collect(),
            notes: &migration.notes,
        });
        CheckReport { current: next.is_none(), next, data_steps: rehearse::DataSteps::new(rehearsal) }
    }
}
