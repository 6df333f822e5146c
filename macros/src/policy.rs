//! The crate-wide policy: a `[package.metadata.mongo-schema]` table in the user's
//! `Cargo.toml`, so a team keeps its conventions in one place and adopts the standard
//! gradually instead of waiving field by field. Every key defaults to the standard.
//!
//! ```toml
//! [package.metadata.mongo-schema]
//! db_prefix = ""                     # database names: no prefix (standard: "db_")
//! collection_prefix = "t_"           # collection names (standard: "t_")
//! field_case = "camelCase"           # every type's field style, unless it declares one
//! short_names = ["un", "qty"]        # allowed besides id, ip, os, ua, tz, ts, k, v, x, y, z
//! money_words = ["premium"]          # last words that make a field money
//! date_words = ["expires"]           # last words that make a field a date
//! max_depth = 4                      # every type's nesting limit (standard: 5)
//! max_items_limit = 500              # every type's greatest `max_items` (standard: 1000)
//! allow = [{ rule = "db_name", reason = "legacy databases keep their names" }]
//! ```
//!
//! The table is read once per manifest and compiler process (cached, and re-read when the
//! file changes), and every expansion includes the manifest with `include_bytes!`, so
//! rustc records it as an input and cargo rebuilds the crate when it changes.

use mongo_schema_contract::naming::{Conventions, FieldCase};
use mongo_schema_contract::rules::{DEFAULT_MAX_DEPTH, DEFAULT_MAX_ITEMS, UNWAIVABLE_RULES, WAIVABLE_RULES};
use std::cell::RefCell;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::SystemTime;
use toml::de::{DeTable as Table, DeValue as Value};

/// Where the table lives in `Cargo.toml`.
pub const TABLE: &str = "package.metadata.mongo-schema";

/// The keys of the table.
const KEYS: &[&str] = &[
    "db_prefix",
    "collection_prefix",
    "field_case",
    "short_names",
    "money_words",
    "date_words",
    "max_depth",
    "max_items_limit",
    "allow",
];

/// A crate's conventions; [`Policy::default`] is the standard's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Policy {
    /// Prefixes, short names and vocabularies.
    pub conventions: Conventions,
    /// The field style of every type that declares none.
    pub field_case: Option<FieldCase>,
    /// Every type's nesting limit, and the greatest a type may declare.
    pub max_depth: u32,
    /// Every type's greatest `max_items`, and the greatest `max_items_limit` a type may declare.
    pub max_items_limit: u64,
    /// Rules waived crate-wide, with the reason.
    pub allow: Vec<(String, String)>,
}

impl Default for Policy {
    fn default() -> Self {
        Policy {
            conventions: Conventions::default(),
            field_case: None,
            max_depth: DEFAULT_MAX_DEPTH,
            max_items_limit: DEFAULT_MAX_ITEMS,
            allow: Vec::new(),
        }
    }
}

/// The policy of the crate being compiled, with the manifest it came from.
#[derive(Debug, Default)]
pub struct Loaded {
    pub policy: Policy,
    /// The manifest, for `include_bytes!`; `None` outside cargo.
    pub manifest: Option<PathBuf>,
    /// What is wrong with the table, each a whole message (the defaults apply instead).
    pub errors: Vec<String>,
    /// An expansion of this compiler process has already emitted the manifest's
    /// `include_bytes!`.
    pub tracked: std::sync::atomic::AtomicBool,
}

impl Loaded {
    /// The manifest to track with `include_bytes!`, the first time it is asked for this
    /// manifest (and modification time) in this process: rustc lists an included file as an
    /// input of the whole crate, so one derive of the crate is enough, and the other
    /// derives emit no byte-array constant for the compiler to evaluate.
    pub fn track(&self) -> Option<&Path> {
        use std::sync::atomic::Ordering;
        self.manifest.as_deref().filter(|_| !self.tracked.swap(true, Ordering::Relaxed))
    }
}

impl Policy {
    /// `rule` is waived crate-wide.
    pub fn allows(&self, rule: &str) -> bool {
        self.allow.iter().any(|(r, _)| r == rule)
    }

    /// The policy in a manifest's text: the defaults when it has no table, else the table
    /// read over them, or every problem in it.
    pub fn from_manifest(text: &str) -> Result<Policy, Vec<String>> {
        let manifest = Table::parse(text).map_err(|e| vec![format!("Cargo.toml does not parse: {e}")])?;
        let mut table = manifest.get_ref();
        for key in ["package", "metadata", "mongo-schema"] {
            match table.get(key).map(|value| value.get_ref()) {
                None => return Ok(Policy::default()),
                Some(Value::Table(inner)) => table = inner,
                Some(_) => return Err(vec![problem(&format!("`{key}` is not a table"))]),
            }
        }
        Policy::from_table(table)
    }

    fn from_table(table: &Table) -> Result<Policy, Vec<String>> {
        let mut policy = Policy::default();
        let mut errors = Vec::new();
        for (key, value) in table {
            let key: &str = key.get_ref();
            if let Err(e) = policy.set(key, value.get_ref()) {
                errors.push(problem(&format!("`{key}` {e}")));
            }
        }
        match errors.is_empty() {
            true => Ok(policy),
            false => Err(errors),
        }
    }

    fn set(&mut self, key: &str, value: &Value) -> Result<(), String> {
        match key {
            "db_prefix" => self.conventions.db_prefix = prefix(value)?,
            "collection_prefix" => self.conventions.collection_prefix = prefix(value)?,
            "field_case" => {
                let name = string(value)?;
                let case = FieldCase::from_name(name)
                    .ok_or_else(|| format!("is {name:?}; write \"camelCase\" or \"snake_case\""))?;
                self.field_case = Some(case);
            }
            "short_names" => self.conventions.short_names = strings(value, short_name)?,
            "money_words" => self.conventions.money_words = strings(value, word)?,
            "date_words" => self.conventions.date_words = strings(value, word)?,
            "max_depth" => self.max_depth = at_least_one(value)? as u32,
            "max_items_limit" => self.max_items_limit = at_least_one(value)?,
            "allow" => self.allow = waivers(value)?,
            _ => return Err(format!("is not a key of the table; the keys are {}", KEYS.join(", "))),
        }
        Ok(())
    }
}

fn problem(what: &str) -> String {
    format!("Cargo.toml [{TABLE}]: {what} (see \"Crate policy\" in mongo-schema's RULES.md)")
}

fn string<'v>(value: &'v Value) -> Result<&'v str, String> {
    value.as_str().ok_or_else(|| format!("must be a string, not {}", value.type_str()))
}

/// A prefix: lowercase letters, digits and `_`, possibly empty.
fn prefix(value: &Value) -> Result<String, String> {
    let prefix = string(value)?;
    match prefix.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_') {
        true => Ok(prefix.to_owned()),
        false => Err(format!("is {prefix:?}; a prefix is lowercase letters, digits and `_` (or empty for none)")),
    }
}

/// A field name the rule's other clauses accept: no `$`, `.`, NUL, leading `_` or emptiness.
fn short_name(name: &str) -> Result<(), String> {
    let bad = name.is_empty() || name.starts_with('_') || name.contains(['$', '.', '\0']);
    match bad {
        true => Err(format!("lists {name:?}, which is not a field name MongoDB handles normally")),
        false => Ok(()),
    }
}

/// One lowercase word, as `field_name`'s vocabularies compare them.
fn word(word: &str) -> Result<(), String> {
    let ok = !word.is_empty() && word.chars().all(|c| c.is_lowercase() || c.is_numeric());
    match ok {
        true => Ok(()),
        false => Err(format!(
            "lists {word:?}; the words are compared with a name's last word, so each is one lowercase word"
        )),
    }
}

fn strings(value: &Value, check: fn(&str) -> Result<(), String>) -> Result<Vec<String>, String> {
    let items = value.as_array().ok_or_else(|| format!("must be an array of strings, not {}", value.type_str()))?;
    items
        .iter()
        .map(|item| {
            let item = string(item.get_ref())?;
            check(item).map(|()| item.to_owned())
        })
        .collect()
}

fn at_least_one(value: &Value) -> Result<u64, String> {
    let integer = value.as_integer().map(|n| i64::from_str_radix(n.as_str(), n.radix()).unwrap_or(i64::MAX));
    match integer {
        Some(n @ 1..=0xFFFF_FFFF) => Ok(n as u64),
        Some(n) => Err(format!("is {n}; it is at least 1")),
        None => Err(format!("must be an integer, not {}", value.type_str())),
    }
}

/// `[{ rule = "db_name", reason = "..." }]`: waivable rules only, each with a reason.
fn waivers(value: &Value) -> Result<Vec<(String, String)>, String> {
    let items = value.as_array().ok_or_else(|| {
        format!("must be an array of {{ rule = \"...\", reason = \"...\" }}, not {}", value.type_str())
    })?;
    items
        .iter()
        .map(|item| {
            let table =
                item.get_ref().as_table().ok_or("lists something else than { rule = \"...\", reason = \"...\" }")?;
            let text = |key: &str| table.get(key).and_then(|value| value.get_ref().as_str());
            if let Some(key) = table.keys().map(|k| -> &str { k.get_ref() }).find(|k| *k != "rule" && *k != "reason") {
                return Err(format!("has an entry with the key `{key}`; an entry has `rule` and `reason`"));
            }
            let rule = text("rule").ok_or("has an entry without `rule = \"...\"`")?;
            if let Some((_, why)) = UNWAIVABLE_RULES.iter().find(|(r, _)| *r == rule) {
                return Err(format!("waives `{rule}`, which cannot be waived: {why}"));
            }
            if !WAIVABLE_RULES.contains(&rule) {
                return Err(format!(
                    "waives `{rule}`, which is no rule; the rules that can be waived are {}",
                    WAIVABLE_RULES.join(", ")
                ));
            }
            let reason = text("reason").unwrap_or_default();
            if reason.trim().is_empty() {
                return Err(format!("waives `{rule}` without a reason; write `reason = \"...\"` so readers know why"));
            }
            Ok((rule.to_owned(), reason.to_owned()))
        })
        .collect()
}

type Cache = Mutex<HashMap<PathBuf, (Option<SystemTime>, Arc<Loaded>)>>;

thread_local! {
    /// The policy of the expansion under way (or of a unit test), so the rules ask the
    /// file system once per expansion.
    static CURRENT: RefCell<Option<Arc<Loaded>>> = const { RefCell::new(None) };
}

/// The policy of the crate being compiled: the expansion's, when one is under way, else
/// read from the manifest.
pub fn current() -> Arc<Loaded> {
    CURRENT.with(|c| c.borrow().clone()).unwrap_or_else(from_manifest)
}

/// Runs `f` (one expansion) with `loaded` as [`current`]'s answer.
pub fn during<T>(loaded: Arc<Loaded>, f: impl FnOnce() -> T) -> T {
    let previous = CURRENT.with(|c| c.replace(Some(loaded)));
    let out = f();
    CURRENT.with(|c| *c.borrow_mut() = previous);
    out
}

/// `$CARGO_MANIFEST_DIR/Cargo.toml`'s table, read once per manifest (again when its
/// modification time changes, for long-lived compiler servers). The standard's defaults
/// outside cargo.
pub fn from_manifest() -> Arc<Loaded> {
    let Some(dir) = std::env::var_os("CARGO_MANIFEST_DIR") else { return Arc::default() };
    let manifest = Path::new(&dir).join("Cargo.toml");
    let modified = std::fs::metadata(&manifest).and_then(|m| m.modified()).ok();
    static CACHE: OnceLock<Cache> = OnceLock::new();
    let mut cache = CACHE.get_or_init(Cache::default).lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some((when, loaded)) = cache.get(&manifest) {
        if *when == modified {
            return loaded.clone();
        }
    }
    let loaded = Arc::new(load(manifest.clone()));
    cache.insert(manifest, (modified, loaded.clone()));
    loaded
}

fn load(manifest: PathBuf) -> Loaded {
    let (policy, errors) = match std::fs::read_to_string(&manifest) {
        Ok(text) => match Policy::from_manifest(&text) {
            Ok(policy) => (policy, Vec::new()),
            Err(errors) => (Policy::default(), errors),
        },
        // not a cargo build, or a manifest elsewhere: nothing to track
        Err(_) => return Loaded::default(),
    };
    Loaded { policy, manifest: Some(manifest), errors, tracked: Default::default() }
}

/// The name the crate being compiled gives the `mongodb` driver in its manifest (its key in
/// `[dependencies]`, or in `[dev-dependencies]` for a target other than the library), for
/// `query!`'s driver option types; `None` without one. Read once per manifest and process.
pub fn driver() -> Option<String> {
    let dir = std::env::var_os("CARGO_MANIFEST_DIR")?;
    let manifest = Path::new(&dir).join("Cargo.toml");
    type Drivers = Mutex<HashMap<PathBuf, Option<(String, bool)>>>;
    static DRIVERS: OnceLock<Drivers> = OnceLock::new();
    let mut cache = DRIVERS.get_or_init(Default::default).lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    let found = cache
        .entry(manifest.clone())
        .or_insert_with(|| std::fs::read_to_string(&manifest).ok().and_then(|text| driver_in(&text)))
        .clone();
    let (key, dev_only) = found?;
    if dev_only {
        // a dev-dependency is in scope for tests, examples and benches, not for the library
        let lib = std::env::var("CARGO_PKG_NAME").unwrap_or_default().replace('-', "_");
        let krate = std::env::var("CARGO_CRATE_NAME").unwrap_or_default();
        if krate == lib && std::env::var_os("CARGO_BIN_NAME").is_none() {
            return None;
        }
    }
    Some(key)
}

/// The key of the `mongodb` package in a manifest's dependencies, and whether it is a
/// dev-dependency only.
pub fn driver_in(text: &str) -> Option<(String, bool)> {
    let manifest = Table::parse(text).ok()?;
    let manifest = manifest.get_ref();
    let find = |table: &Table, section: &str| -> Option<String> {
        let Some(Value::Table(deps)) = table.get(section).map(|v| v.get_ref()) else { return None };
        deps.iter().find_map(|(key, value)| {
            let key: &str = key.get_ref();
            let package = match value.get_ref() {
                Value::Table(t) => match t.get("package").map(|p| p.get_ref()) {
                    Some(Value::String(p)) => p.to_string(),
                    _ => key.to_owned(),
                },
                _ => key.to_owned(),
            };
            (package == "mongodb").then(|| key.replace('-', "_"))
        })
    };
    let mut tables = vec![manifest];
    if let Some(Value::Table(targets)) = manifest.get("target").map(|v| v.get_ref()) {
        for (_, target) in targets {
            if let Value::Table(t) = target.get_ref() {
                tables.push(t);
            }
        }
    }
    if let Some(key) = tables.iter().find_map(|t| find(t, "dependencies")) {
        return Some((key, false));
    }
    tables.iter().find_map(|t| find(t, "dev-dependencies")).map(|key| (key, true))
}

/// Runs `f` with `policy` as the crate's, for unit tests.
#[cfg(test)]
pub fn with<T>(policy: Policy, f: impl FnOnce() -> T) -> T {
    during(Arc::new(Loaded { policy, manifest: None, ..Loaded::default() }), f)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(table: &str) -> Result<Policy, Vec<String>> {
        Policy::from_manifest(&format!("[package]\nname = \"shop\"\n\n[package.metadata.mongo-schema]\n{table}"))
    }

    #[test]
    fn no_table_is_the_standard() {
        assert_eq!(Policy::from_manifest("[package]\nname = \"shop\"\n"), Ok(Policy::default()));
        assert_eq!(parse(""), Ok(Policy::default()));
        let standard = Policy::default();
        assert_eq!((standard.max_depth, standard.max_items_limit), (5, 1000));
        assert_eq!(standard.conventions.db_prefix, "db_");
    }

    #[test]
    fn every_key_is_read() {
        let policy = parse(
            r#"
            db_prefix = ""
            collection_prefix = "c_"
            field_case = "snake_case"
            short_names = ["un", "qty"]
            money_words = ["premium"]
            date_words = ["expires"]
            max_depth = 7
            max_items_limit = 5000
            allow = [{ rule = "db_name", reason = "legacy databases" }, { rule = "money_double", reason = "quotes" }]
            "#,
        )
        .unwrap();
        assert_eq!(policy.conventions.db_prefix, "");
        assert_eq!(policy.conventions.collection_prefix, "c_");
        assert_eq!(policy.field_case, Some(FieldCase::Snake));
        assert_eq!(policy.conventions.short_names, ["un", "qty"]);
        assert_eq!(policy.conventions.money_words, ["premium"]);
        assert_eq!(policy.conventions.date_words, ["expires"]);
        assert_eq!((policy.max_depth, policy.max_items_limit), (7, 5000));
        assert!(policy.allows("db_name") && policy.allows("money_double") && !policy.allows("field_name"));
    }

    #[test]
    fn every_mistake_is_reported_with_what_to_write() {
        let errors = parse(
            r#"
            db_prefix = "DB-"
            field_case = "kebab"
            short_names = ["$x"]
            money_words = ["unitPrice"]
            max_depth = 0
            max_items_limit = "many"
            allow = [{ rule = "document_size", reason = "big" }, { rule = "db_nam", reason = "x" }, { rule = "db_name" }]
            colour = "blue"
            "#,
        )
        .unwrap_err();
        let all = errors.join("\n");
        for expected in [
            "`db_prefix` is \"DB-\"; a prefix is lowercase letters",
            "`field_case` is \"kebab\"; write \"camelCase\" or \"snake_case\"",
            "`short_names` lists \"$x\"",
            "`money_words` lists \"unitPrice\"",
            "`max_depth` is 0; it is at least 1",
            "`max_items_limit` must be an integer, not string",
            "`allow` waives `document_size`, which cannot be waived",
            "`colour` is not a key of the table",
        ] {
            assert!(all.contains(expected), "{expected} not in\n{all}");
        }
        assert!(errors.iter().all(|e| e.starts_with("Cargo.toml [package.metadata.mongo-schema]: ")), "{errors:?}");
        let unknown = parse(r#"allow = [{ rule = "db_nam", reason = "x" }]"#).unwrap_err();
        assert!(unknown[0].contains("`db_nam`, which is no rule"), "{unknown:?}");
        let bare = parse(r#"allow = [{ rule = "db_name" }]"#).unwrap_err();
        assert!(bare[0].contains("without a reason"), "{bare:?}");
        let flat = Policy::from_manifest("[package.metadata]\nmongo-schema = 3\n").unwrap_err();
        assert!(flat[0].contains("`mongo-schema` is not a table"), "{flat:?}");
        assert!(Policy::from_manifest("[package\n").unwrap_err()[0].starts_with("Cargo.toml does not parse"));
    }

    #[test]
    fn a_manifest_is_read_from_disk() {
        let dir = std::env::temp_dir().join(format!("mongo-schema-policy-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let manifest = dir.join("Cargo.toml");
        std::fs::write(&manifest, "[package.metadata.mongo-schema]\nmax_depth = 3\n").unwrap();
        let first = load(manifest.clone());
        assert_eq!((first.policy.max_depth, first.manifest.as_deref()), (3, Some(manifest.as_path())));
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(load(manifest).manifest.is_none());
    }

    #[test]
    fn the_driver_is_found_under_its_key() {
        assert_eq!(driver_in("[dependencies]\nmongodb = \"3\"\n"), Some(("mongodb".into(), false)));
        let renamed = "[dependencies]\nmongo-driver = { package = \"mongodb\", version = \"3\" }\n";
        assert_eq!(driver_in(renamed), Some(("mongo_driver".into(), false)));
        assert_eq!(driver_in("[dev-dependencies]\nmongodb = \"3\"\n"), Some(("mongodb".into(), true)));
        let target = "[target.'cfg(unix)'.dependencies]\nmongodb = { version = \"3\" }\n";
        assert_eq!(driver_in(target), Some(("mongodb".into(), false)));
        assert_eq!(driver_in("[dependencies]\nbson = \"2\"\n"), None);
    }
}
