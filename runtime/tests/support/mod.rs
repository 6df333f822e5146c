//! What the runtime's mongosh tests share (`mod support;` in each).

use std::path::{Path, PathBuf};
use std::process::Command;

/// The mongosh to run: `$MONGOSH`, the one scripts/with-mongod.sh installed into `.cache/`,
/// or one on the `PATH`; `None` when none answers `--version`.
pub fn mongosh() -> Option<PathBuf> {
    let cached = Path::new(env!("CARGO_MANIFEST_DIR")).join("../.cache/npm/node_modules/.bin/mongosh");
    let candidates = [std::env::var_os("MONGOSH").map(PathBuf::from), Some(cached), Some(PathBuf::from("mongosh"))];
    candidates
        .into_iter()
        .flatten()
        .find(|p| Command::new(p).arg("--version").output().is_ok_and(|o| o.status.success()))
}
