//! `schema infer`: draft models from the documents of dumps or of a deployment
//! ([`crate::infer`] does the work; here are its arguments, its inputs and its outputs).
//! It needs no model, and reads only: nothing is created or changed anywhere.

use super::shared::{chain, Exit, Output};
use crate::dump::Metadata;
use crate::infer::{self, Collection, Input};
use clap::Args;
#[cfg(feature = "driver")]
use mongo_schema_core::bson::Document;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The documents a collection is sampled to by default on a deployment.
#[cfg(feature = "driver")]
pub(crate) const DEFAULT_SAMPLE: u64 = 1000;

#[derive(Args)]
pub(crate) struct InferArgs {
    /// Inputs: anything `schema check` reads (a mongodump directory, `.bson`, `--archive`,
    /// Extended JSON lines or a JSON array, plain or gzip). A file's collection is its name
    /// up to the first `.` and its database its directory's name, unless `--collection
    /// db.collection` names it (one file then).
    #[arg(required_unless_present = "uri", conflicts_with = "uri")]
    files: Vec<PathBuf>,
    /// Only these collections (repeatable): `name` or `db.name`.
    #[arg(long)]
    collection: Vec<String>,
    /// Draft from the collections of this deployment (read only; never read from MONGODB_URI).
    #[arg(long, hide_env_values = true, requires = "db")]
    uri: Option<String>,
    /// With `--uri`: the database whose collections are drafted.
    #[arg(long)]
    db: Option<String>,
    /// With `--uri`: a server-side `$sample` of this many documents per collection (default 1000).
    #[arg(long, conflicts_with = "all")]
    sample: Option<u64>,
    /// With `--uri`: read every document (one pass, streaming).
    #[arg(long)]
    all: bool,
    /// Write the models here instead of standard output.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Write the report here instead of standard error.
    #[arg(long)]
    report: Option<PathBuf>,
    #[arg(long, value_enum, default_value_t = Output::Text)]
    format: Output,
}

pub(crate) fn run(args: InferArgs, out: &mut dyn Write, err: &mut dyn Write) -> Result<i32, Exit> {
    if args.uri.is_none() && (args.sample.is_some() || args.all) {
        return Err(Exit(2, "--sample and --all choose what the server sends: they need --uri".to_owned()));
    }
    let inputs = match &args.uri {
        Some(uri) => live(uri, &args)?,
        None => files(&args)?,
    };
    let draft = infer::draft(&inputs);
    match &args.out {
        Some(path) => std::fs::write(path, &draft.source)
            .map_err(|e| Exit(2, format!("cannot write {}: {}", path.display(), chain(&e))))?,
        None => out.write_all(draft.source.as_bytes())?,
    }
    let report = match args.format {
        Output::Text => infer::render_text(&draft),
        Output::Json => {
            format!("{}\n", serde_json::to_string_pretty(&draft).expect("the report has string keys only"))
        }
    };
    match &args.report {
        Some(path) => std::fs::write(path, report)
            .map_err(|e| Exit(2, format!("cannot write {}: {}", path.display(), chain(&e))))?,
        None => err.write_all(report.as_bytes())?,
    }
    Ok(0)
}

/// Whether `namespace` (`db.collection`) is one of `--collection`'s (all when none).
fn chosen(wanted: &[String], namespace: &str) -> bool {
    let collection = namespace.split_once('.').map_or(namespace, |(_, c)| c);
    wanted.is_empty() || wanted.iter().any(|w| w == namespace || w == collection)
}

/// The collections of dump directories and files (an archive's: each of its collections).
fn files(args: &InferArgs) -> Result<Vec<Input>, Exit> {
    let single = args.files.iter().filter(|p| !p.is_dir()).count() == 1 && args.collection.len() == 1;
    let mut found: BTreeMap<String, Collection> = BTreeMap::new();
    let mut metadata: BTreeMap<String, Metadata> = BTreeMap::new();
    let mut read: Vec<(String, PathBuf)> = Vec::new();
    for path in &args.files {
        if path.is_dir() {
            let dumped = crate::check::dump_directory(path).map_err(|e| Exit(2, chain(&e)))?;
            read.extend(dumped.into_iter().filter(|(ns, _)| chosen(&args.collection, ns)));
            continue;
        }
        let namespace = match single {
            true => {
                let named = &args.collection[0];
                match named.split_once('.') {
                    Some(_) => named.clone(),
                    None => format!("{}.{named}", directory_name(path)),
                }
            }
            false => {
                let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
                let collection = name.split('.').next().unwrap_or_default().to_owned();
                format!("{}.{collection}", directory_name(path))
            }
        };
        read.push((namespace, path.clone()));
    }
    for (namespace, path) in read {
        let at = |e: &dyn std::error::Error| Exit(2, format!("{}: {}", path.display(), chain(e)));
        let reader = crate::dump::open(&path).map_err(|e| at(&e))?;
        if reader.format() == crate::dump::DumpFormat::Archive {
            // every collection of the archive (those --collection names), each in its state
            let mut reader = reader;
            while let Some(document) = reader.next() {
                let document = document.map_err(|e| at(&e))?;
                let Some(ns) = reader.archive_namespace().filter(|ns| wanted_in_archive(&args.collection, ns)) else {
                    continue;
                };
                let stats = found.entry(ns.to_owned()).or_default();
                stats.observe(&document).map_err(|e| at(&e))?;
            }
            for ns in reader.archive_namespaces() {
                if wanted_in_archive(&args.collection, ns) {
                    found.entry(ns.clone()).or_default();
                }
                if let Some(json) = reader.archive_metadata(ns) {
                    metadata.insert(ns.clone(), Metadata::parse(json).map_err(|e| at(&e))?);
                }
            }
            continue;
        }
        if single || chosen(&args.collection, &namespace) {
            add(&mut found, &namespace)?;
        } else {
            continue;
        }
        if let Some(beside) = metadata_beside(&path)? {
            metadata.insert(namespace.clone(), beside);
        }
        let stats = found.get_mut(&namespace).expect("added above");
        for document in reader {
            let document = document.map_err(|e| at(&e))?;
            stats.observe(&document).map_err(|e| at(&e))?;
        }
    }
    if found.is_empty() {
        return Err(Exit(
            2,
            format!("no collection to draft: --collection {} matches none of the inputs", args.collection.join(", ")),
        ));
    }
    Ok(found
        .into_iter()
        .map(|(namespace, stats)| {
            let (db, collection) = namespace.split_once('.').unwrap_or(("db", &namespace));
            let Metadata { indexes, options } = metadata.remove(&namespace).unwrap_or_default();
            Input {
                db: db.to_owned(),
                collection: collection.to_owned(),
                stats,
                total: None,
                indexes,
                validator: options.get_document("validator").ok().cloned(),
                validation_level: options.get_str("validationLevel").ok().map(str::to_owned),
                validation_action: options.get_str("validationAction").ok().map(str::to_owned),
            }
        })
        .collect())
}

/// The metadata mongodump writes beside a collection's `.bson[.gz]` file
/// (`<collection>.metadata.json[.gz]`): its indexes and validator. `None` for other files.
fn metadata_beside(path: &Path) -> Result<Option<Metadata>, Exit> {
    use std::io::Read;
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let Some(stem) = name.strip_suffix(".bson.gz").or_else(|| name.strip_suffix(".bson")) else { return Ok(None) };
    for (suffix, gzip) in [(".metadata.json", false), (".metadata.json.gz", true)] {
        let file = path.with_file_name(format!("{stem}{suffix}"));
        let bytes = match std::fs::read(&file) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(e) => return Err(Exit(2, format!("{}: {}", file.display(), chain(&e)))),
        };
        let mut json = String::new();
        let read = match gzip {
            true => flate2::read::GzDecoder::new(&bytes[..]).read_to_string(&mut json),
            false => String::from_utf8(bytes).map(|s| json = s).map(|()| 0).map_err(std::io::Error::other),
        };
        read.map_err(|e| Exit(2, format!("{}: {}", file.display(), chain(&e))))?;
        return Metadata::parse(&json).map(Some).map_err(|e| Exit(2, format!("{}: {}", file.display(), chain(&e))));
    }
    Ok(None)
}

/// A new collection's state; a collection given twice would count its documents twice.
fn add(found: &mut BTreeMap<String, Collection>, namespace: &str) -> Result<(), Exit> {
    match found.insert(namespace.to_owned(), Collection::default()) {
        Some(_) => Err(Exit(2, format!("{namespace} is given twice: keep one input per collection"))),
        None => Ok(()),
    }
}

/// An archive's collection to draft: not the server's `system.*`, and one of `--collection`'s.
fn wanted_in_archive(wanted: &[String], namespace: &str) -> bool {
    let collection = namespace.split_once('.').map_or(namespace, |(_, c)| c);
    !collection.starts_with("system.") && chosen(wanted, namespace)
}

fn directory_name(path: &Path) -> String {
    let dir = path
        .canonicalize()
        .ok()
        .and_then(|p| p.parent().and_then(|d| d.file_name()).map(|n| n.to_string_lossy().into_owned()));
    dir.filter(|d| !d.is_empty()).unwrap_or_else(|| "db".to_owned())
}

#[cfg(not(feature = "driver"))]
fn live(_uri: &str, _args: &InferArgs) -> Result<Vec<Input>, Exit> {
    Err(Exit(
        2,
        "`schema infer --uri` talks to a deployment, which this binary was built without: turn on mongo-schema's \
         `driver` feature, then build the binary again (or draft from a dump: `schema infer DUMP`)"
            .to_owned(),
    ))
}

/// The collections of `--db` on the deployment: listed, counted, their indexes read, their
/// documents sampled (or all read), nothing written.
#[cfg(feature = "driver")]
fn live(uri: &str, args: &InferArgs) -> Result<Vec<Input>, Exit> {
    use mongo_schema_core::bson::doc;
    use mongo_schema_migrate::server::Server;
    let db = args.db.as_deref().expect("clap requires --db with --uri");
    let server = &mut super::server::connect(uri)?
        .reading_from(mongodb::options::ReadPreference::SecondaryPreferred { options: None });
    let failed =
        |what: String| move |e: mongo_schema_migrate::server::CommandError| Exit(2, format!("{what}: {}", chain(&e)));
    let mut listed: Vec<(String, Option<Document>, [Option<String>; 2])> = Vec::new();
    let command = doc! { "listCollections": 1, "filter": { "type": "collection" } };
    let mut bad = None;
    server
        .cursor(db, command, &mut |info| {
            let Ok(name) = info.get_str("name") else { return true };
            if name.starts_with("system.") {
                return true;
            }
            let options = info.get_document("options").ok();
            let validator = options.and_then(|o| o.get_document("validator").ok()).map(Document::try_from);
            let text = |key: &str| options.and_then(|o| o.get_str(key).ok()).map(str::to_owned);
            let validation = [text("validationLevel"), text("validationAction")];
            match validator {
                Some(Err(e)) => bad = Some(format!("{name}: an unreadable validator: {e}")),
                Some(Ok(v)) => listed.push((name.to_owned(), Some(v), validation)),
                None => listed.push((name.to_owned(), None, validation)),
            }
            true
        })
        .map_err(failed(format!("cannot list the collections of {db}")))?;
    if let Some(bad) = bad {
        return Err(Exit(2, bad));
    }
    listed.sort_by(|a, b| a.0.cmp(&b.0));
    if listed.is_empty() {
        return Err(Exit(2, format!("database {db} has no collection on this deployment (does it exist?)")));
    }
    for wanted in &args.collection {
        if !listed.iter().any(|(name, _, _)| chosen(std::slice::from_ref(wanted), &format!("{db}.{name}"))) {
            let names: Vec<&str> = listed.iter().map(|(n, _, _)| n.as_str()).collect();
            return Err(Exit(2, format!("no collection {wanted} in {db}; it has: {}", names.join(", "))));
        }
    }
    let sample = (!args.all).then(|| args.sample.unwrap_or(DEFAULT_SAMPLE));
    let mut inputs = Vec::new();
    for (name, validator, [validation_level, validation_action]) in
        listed.into_iter().filter(|(n, _, _)| chosen(&args.collection, &format!("{db}.{n}")))
    {
        let namespace = format!("{db}.{name}");
        let reply =
            server.run_command(db, doc! { "count": &name }).map_err(failed(format!("cannot count {namespace}")))?;
        let total = match reply.get("n") {
            Some(mongo_schema_core::bson::Bson::Int32(n)) => u64::try_from(*n).unwrap_or(0),
            Some(mongo_schema_core::bson::Bson::Int64(n)) => u64::try_from(*n).unwrap_or(0),
            Some(mongo_schema_core::bson::Bson::Double(n)) => *n as u64,
            _ => return Err(Exit(2, format!("{namespace}: `count` answered without `n`: {reply}"))),
        };
        let mut indexes = Vec::new();
        server
            .cursor(db, doc! { "listIndexes": &name }, &mut |index| {
                if let Ok(index) = Document::try_from(index.as_ref()) {
                    indexes.push(index);
                }
                true
            })
            .map_err(failed(format!("cannot list the indexes of {namespace}")))?;
        let mut pipeline = Vec::new();
        if let Some(size) = sample {
            pipeline.push(doc! { "$sample": { "size": i64::try_from(size).unwrap_or(i64::MAX) } });
        }
        let mut stats = Collection::default();
        let mut corrupt = None;
        server
            .cursor(db, doc! { "aggregate": &name, "pipeline": pipeline, "cursor": {} }, &mut |document| match stats
                .observe(&document)
            {
                Ok(()) => true,
                Err(e) => {
                    corrupt = Some(chain(&e));
                    false
                }
            })
            .map_err(failed(format!("cannot read {namespace}")))?;
        if let Some(e) = corrupt {
            return Err(Exit(2, format!("{namespace}: a corrupt document: {e}")));
        }
        inputs.push(Input {
            db: db.to_owned(),
            collection: name,
            stats,
            total: Some(total),
            indexes,
            validator,
            validation_level,
            validation_action,
        });
    }
    Ok(inputs)
}

#[cfg(test)]
mod tests {
    fn infer(args: &[&str]) -> (i32, String) {
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let code = crate::cli::run(&[], ["schema", "infer"].iter().chain(args), &mut out, &mut err);
        (code, String::from_utf8(err).unwrap())
    }

    #[cfg(not(feature = "driver"))]
    #[test]
    fn infer_uri_without_the_driver_names_the_feature() {
        let (code, err) = infer(&["--uri", "mongodb://127.0.0.1:1/", "--db", "db_app"]);
        assert_eq!(code, 2);
        assert!(err.contains("turn on mongo-schema's `driver` feature"), "{err}");
    }

    #[test]
    fn usage_errors_exit_2() {
        // neither inputs nor --uri; --uri without --db; --sample with --all
        let (code, _) = infer(&[]);
        assert_eq!(code, 2);
        let (code, err) = infer(&["--uri", "mongodb://127.0.0.1:1/"]);
        assert_eq!(code, 2);
        assert!(err.contains("--db"), "{err}");
        let (code, err) = infer(&["--uri", "mongodb://127.0.0.1:1/", "--db", "db_a", "--sample", "5", "--all"]);
        assert_eq!(code, 2);
        assert!(err.contains("cannot be used with"), "{err}");
    }
}
