//! Which documents to check against which collection's validator: files go to the chosen
//! collection, mongodump directories' files to the collections of their names.

use super::error::{CheckError, CheckErrorKind};
use std::collections::BTreeMap;
use std::io;
use std::path::{Path, PathBuf};

/// One collection and the inputs holding its documents.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    /// `db.collection`.
    pub namespace: String,
    /// Files (`-`: standard input) and dumped `.bson[.gz]` files, in the order given.
    pub inputs: Vec<PathBuf>,
}

/// What the inputs hold: the collections to check, and what the dump directories say besides.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Plan {
    /// Sorted by namespace.
    pub targets: Vec<Target>,
    /// Dumped collections of no known namespace: (namespace, file).
    pub unmodelled: Vec<(String, PathBuf)>,
    /// Known namespaces with no file in any dump directory (when a directory was given).
    pub undumped: Vec<String>,
}

/// Matches `inputs` to the `known` namespaces (`db.collection`, one per model). A file
/// holds the documents of `chosen` (one of `known`), which must then be given; a
/// mongodump directory (`dump/` or `dump/<db>/`) holds its `<db>/<collection>.bson[.gz]`
/// files, each checked against the namespace of its name (only `chosen`'s, if given).
pub fn plan(known: &[String], chosen: Option<&str>, inputs: &[PathBuf]) -> Result<Plan, CheckError> {
    let mut found: BTreeMap<String, Vec<PathBuf>> = BTreeMap::new();
    let mut plan = Plan::default();
    let mut any_dir = false;
    for path in inputs {
        if path != Path::new("-") && path.is_dir() {
            any_dir = true;
            for (namespace, file) in dump_directory(path)? {
                match known.contains(&namespace) {
                    true if chosen.is_none_or(|c| c == namespace) => found.entry(namespace).or_default().push(file),
                    true => {}
                    false if chosen.is_none() => plan.unmodelled.push((namespace, file)),
                    false => {}
                }
            }
            continue;
        }
        let Some(chosen) = chosen else {
            return Err(CheckError::new(
                CheckErrorKind::NoMatch,
                format!(
                "{}: a file holds one collection: name its model with --collection (a mongodump directory needs none)",
                path.display()
            ),
            ));
        };
        found.entry(chosen.to_owned()).or_default().push(path.clone());
    }
    for namespace in known.iter().filter(|n| chosen.is_none_or(|c| c == n.as_str())) {
        match found.remove(namespace) {
            Some(files) => plan.targets.push(Target { namespace: namespace.clone(), inputs: files }),
            None if any_dir => plan.undumped.push(namespace.clone()),
            None => {}
        }
    }
    plan.targets.sort_by(|a, b| a.namespace.cmp(&b.namespace));
    plan.undumped.sort();
    if plan.targets.is_empty() {
        let dumped: Vec<&str> = plan.unmodelled.iter().map(|(n, _)| n.as_str()).collect();
        let wanted = match chosen {
            Some(c) => {
                let (db, collection) = c.split_once('.').unwrap_or(("<db>", c));
                format!("no file for {c} (expected <dir>/{db}/{collection}.bson or .bson.gz)")
            }
            None => format!(
                "no dumped collection has a registered model; dumped: {}; registered: {}",
                if dumped.is_empty() { "none".to_owned() } else { dumped.join(", ") },
                known.join(", ")
            ),
        };
        let dirs: Vec<String> = inputs.iter().map(|p| p.display().to_string()).collect();
        return Err(CheckError::new(CheckErrorKind::NoMatch, format!("{}: {wanted}", dirs.join(", "))));
    }
    Ok(plan)
}

/// The collections of a mongodump output directory: `DIR/<db>/<collection>.bson[.gz]`, or
/// `DIR/<collection>.bson[.gz]` when DIR is one database's directory (named for it), as
/// (`db.collection`, file), sorted. `.metadata.json` and other files are not documents,
/// and the server's `system.*` collections are left out.
pub fn dump_directory(dir: &Path) -> Result<Vec<(String, PathBuf)>, CheckError> {
    let in_dir = |e: io::Error, at: &Path| CheckError::new(CheckErrorKind::NotADump, format!("{}: {e}", at.display()));
    let mut own = collections_in(dir).map_err(|e| in_dir(e, dir))?;
    let mut found = Vec::new();
    if !own.is_empty() {
        let db = dir.canonicalize().ok().and_then(|d| d.file_name().map(|n| n.to_string_lossy().into_owned()));
        let db = db.ok_or_else(|| {
            CheckError::new(
                CheckErrorKind::NotADump,
                format!("{}: cannot tell the database from the directory's name", dir.display()),
            )
        })?;
        found.extend(own.drain(..).map(|(c, f)| (format!("{db}.{c}"), f)));
    } else {
        let mut dbs: Vec<PathBuf> = std::fs::read_dir(dir)
            .map_err(|e| in_dir(e, dir))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.is_dir())
            .collect();
        dbs.sort();
        for db_dir in dbs {
            let db = db_dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            for (c, f) in collections_in(&db_dir).map_err(|e| in_dir(e, &db_dir))? {
                found.push((format!("{db}.{c}"), f));
            }
        }
    }
    if found.is_empty() {
        return Err(CheckError::new(
            CheckErrorKind::NotADump,
            format!(
            "{}: not a mongodump directory: no <db>/<collection>.bson or .bson.gz files in it or its subdirectories",
            dir.display()
        ),
        ));
    }
    let mut seen: BTreeMap<&str, &Path> = BTreeMap::new();
    for (namespace, file) in &found {
        if let Some(other) = seen.insert(namespace, file) {
            return Err(CheckError::new(
                CheckErrorKind::DuplicateCollection,
                format!(
                    "{} and {} both dump {namespace}: keep one (checking both would count every document twice)",
                    other.display(),
                    file.display()
                ),
            ));
        }
    }
    Ok(found)
}

/// The `<collection>.bson` and `<collection>.bson.gz` files of one directory, sorted.
fn collections_in(dir: &Path) -> io::Result<Vec<(String, PathBuf)>> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        let Some(name) = path.file_name().and_then(|n| n.to_str()) else { continue };
        let collection = name.strip_suffix(".bson.gz").or_else(|| name.strip_suffix(".bson"));
        // `system.*` collections (users, roles, views) are the server's, never a model's
        if let Some(collection) = collection.filter(|c| !c.is_empty() && !c.starts_with("system.")) {
            if path.is_file() {
                found.push((collection.to_owned(), path.clone()));
            }
        }
    }
    found.sort();
    Ok(found)
}
