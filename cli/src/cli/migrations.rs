//! `schema migrate`: the next migration written from the models' differences with the
//! snapshot, or (`--check`) whether the models match it.

use super::shared::{chain, chain_then, Exit, Output};
use crate::migrate::{self, MigrateError, MigrateOptions, Model};
use serde_json::json;
use std::io::{self, Write};
use std::path::Path;

/// The fix of a damaged snapshot.
const RESTORE: &str = "restore it from version control";

pub(super) fn naming(numbered: bool) -> migrate::Naming {
    if numbered {
        migrate::Naming::Sequence
    } else {
        migrate::Naming::Timestamp
    }
}

/// `migrate --check`: exit 1, naming what changed, when `migrate` would write a migration.
pub(super) fn check_migrations(
    models: &[Model],
    dir: &Path,
    options: &MigrateOptions,
    format: Output,
    out: &mut dyn Write,
) -> Result<i32, Exit> {
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
        let report = match &next {
            None => json!({ "current": true }),
            Some(migration) => json!({
                "current": false,
                "steps": migration.up.iter().map(|s| json!({
                    "db": s.db, "collection": s.collection, "comments": s.comments,
                    "phase": s.phase.as_str(), "requireValid": s.require_valid,
                })).collect::<Vec<_>>(),
                "removed": migration.removed.iter().map(|e| e.model.namespace()).collect::<Vec<_>>(),
                "notes": migration.notes,
            }),
        };
        writeln!(out, "{report}")?;
        return Ok(i32::from(next.is_some()));
    }
    let Some(migration) = next else {
        writeln!(out, "migrations are current: the models match {}", path.display())?;
        return Ok(0);
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
    Ok(1)
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
