//! The layers of mongo-schema import one way. Between crates Cargo sees to it: core, then
//! validate and migrate, then cli, then this facade, and a dependency loop does not build.
//! Inside each crate this test does: the files of a module import one way, so that no two
//! of them import each other, directly or in a loop, and each can be read (and changed)
//! knowing only what is below it.
//!
//! A module is a crate's `src/` with its root file `lib.rs` (named by the crate's directory:
//! `cli`, whose files are `check`, `cli`, `dump`, ...), or a directory of it with its root
//! file (`update_check/mod.rs` or `cli.rs`), at any depth (`validate::update_check`, `cli::cli`); its
//! files are the root and each child (`apply.rs`, or for a child directory every file under
//! it: `update/*.rs` are the child `update` of `validate`). A file imports a child when it
//! names it (`super::record::State`, `crate::lock`, `super::super::schema` from
//! `update/apply.rs`), or names an item the root re-exports from it (`super::Model` when the
//! root says `pub use model::Model`); a child imports the root when it names an item the
//! root defines. The root's own `pub use` lines are the module's face, not imports.
//! Unit-test modules (from `#[cfg(test)]` on) are left out: they may reach anywhere.
//!
//! A loop is either broken or named in [`INTENDED`] with the reason it is one; a loop not
//! named there fails the test, and so does a named one that is gone.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

const ROOT: &str = "(root)";

/// Loops among a module's files that are meant: the module, its files in the loop (sorted),
/// and why. Every other loop fails the test.
const INTENDED: &[(&str, &[&str], &str)] = &[
    (
        "validate",
        &["keywords", "schema"],
        "a dispatcher and its keyword modules: `schema` compiles a node by handing each keyword family to \
         `keywords`, which compile their subschemas (items, properties, allOf) back through `schema`'s node",
    ),
    (
        "tests",
        &["(root)", "models"],
        "the unpublished test corpus: the crate root lists every model (`roots()`, each a `Root::of::<Model>()`), \
         and the models give their samples through the root's `Samples` trait, written with its `bson` names and \
         read back through its `driver_bytes`",
    ),
    (
        "core",
        &["paths", "schema"],
        "the trait names its paths: `MongoSchema::Fields` is a `paths::Node`, and the nodes are built from \
         each type's `MongoSchema` facts",
    ),
];

/// The crates whose modules are read, by directory: every member of the workspace with a
/// library (`the_scan_reads_every_crate` holds this list to the workspace's): the layers, the
/// facade, the derive (`macros`, whose stages import one way too: attr, ir, check and rules,
/// expand), the contract, PCRE2, the tests' shared crates (`testsupport`, `testsupport/rng`)
/// and the unpublished test and example crates.
const CRATES: &[&str] = &[
    "contract",
    "macros",
    "core",
    "validate",
    "migrate",
    "cli",
    "runtime",
    "pcre2",
    "tests",
    "drivertests",
    "uitests",
    "examples/app",
    "testsupport",
    "testsupport/rng",
];

/// A module: its name (the crate's, then its path), its path from the crate root, its root
/// file, its children by name, and every file under it with the child it belongs to
/// ([`ROOT`] for the root file) and its own module path.
struct Module {
    name: String,
    path: Vec<String>,
    root: PathBuf,
    children: BTreeMap<String, PathBuf>,
    files: Vec<(String, PathBuf, Vec<String>)>,
}

/// Every module of the crate whose sources are `src`: the crate root, named `krate`, and
/// the nested ones (`validate::update_check`).
fn modules(src: &Path, krate: &str) -> Vec<Module> {
    let root = src.join("lib.rs");
    let mut files = vec![(ROOT.to_owned(), root.clone(), Vec::new())];
    for file in rust_files(src).into_iter().filter(|f| *f != root) {
        let module = module_path(src, &file);
        files.push((module[0].clone(), file, module));
    }
    let mut found = vec![Module { name: krate.to_owned(), path: Vec::new(), root, children: children(src), files }];
    collect(src, src, krate, &mut Vec::new(), &mut found);
    found.sort_by(|a, b| a.name.cmp(&b.name));
    found
}

/// The children of the module whose directory is `dir`: its files and its directories
/// with a `mod.rs`, by name.
fn children(dir: &Path) -> BTreeMap<String, PathBuf> {
    let mut children = BTreeMap::new();
    for entry in fs::read_dir(dir).expect("a module directory") {
        let child = entry.expect("an entry").path();
        let file = match child.extension().and_then(|e| e.to_str()) {
            Some("rs") if !["mod.rs", "lib.rs"].contains(&&*child.file_name().unwrap().to_string_lossy()) => {
                child.clone()
            }
            None if child.join("mod.rs").is_file() => child.join("mod.rs"),
            _ => continue,
        };
        children.insert(child.file_stem().unwrap().to_string_lossy().into_owned(), file);
    }
    children
}

fn collect(src: &Path, dir: &Path, krate: &str, path: &mut Vec<String>, found: &mut Vec<Module>) {
    for entry in fs::read_dir(dir).expect("a source directory") {
        let sub = entry.expect("an entry").path();
        if !sub.is_dir() {
            continue;
        }
        let name = sub.file_name().unwrap().to_string_lossy().into_owned();
        let root = [sub.join("mod.rs"), dir.join(format!("{name}.rs"))].into_iter().find(|p| p.is_file());
        let Some(root) = root else { continue };
        path.push(name);
        let mut files = vec![(ROOT.to_owned(), root.clone(), path.clone())];
        for file in rust_files(&sub).into_iter().filter(|f| *f != root) {
            let module = module_path(src, &file);
            files.push((module[path.len()].clone(), file, module));
        }
        let name = format!("{krate}::{}", path.join("::"));
        found.push(Module { name, path: path.clone(), root, children: children(&sub), files });
        collect(src, &sub, krate, path, found);
        path.pop();
    }
}

/// The `.rs` files under `dir`, at any depth.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in fs::read_dir(dir).expect("a source directory") {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            files.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
    files
}

/// The module a file is: `update/apply.rs` (of validate's `src`) is `update::apply`,
/// `update/mod.rs` is `update`.
fn module_path(src: &Path, file: &Path) -> Vec<String> {
    let relative = file.strip_prefix(src).expect("a file of src");
    let mut path: Vec<String> = relative.iter().map(|c| c.to_string_lossy().into_owned()).collect();
    let last = path.pop().unwrap_or_default();
    match last.strip_suffix(".rs") {
        Some("mod") | Some("lib") | None => {}
        Some(stem) => path.push(stem.to_owned()),
    }
    path
}

/// The file's code: no comments, no unit tests.
fn code(path: &Path) -> String {
    let text = fs::read_to_string(path).expect("a source file");
    let text = text.split("#[cfg(test)]").next().unwrap_or_default();
    text.lines().map(|l| l.split("//").next().unwrap_or_default()).collect::<Vec<_>>().join("\n")
}

/// The first segments of the paths after each `prefix` in `code`: `super::a::b` gives `a`,
/// `super::{a, b::c, D as E}` gives `a`, `b` and `D`.
fn names_after(code: &str, prefix: &str) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    let mut rest = code;
    while let Some(at) = rest.find(prefix) {
        rest = &rest[at + prefix.len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let mut depth = 1;
            let end = group
                .char_indices()
                .find(|&(_, c)| {
                    depth += match c {
                        '{' => 1,
                        '}' => -1,
                        _ => 0,
                    };
                    depth == 0
                })
                .map_or(group.len(), |(i, _)| i);
            let mut depth = 0;
            let mut item = String::new();
            for c in group[..end].chars().chain([',']) {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        names.extend(first_segment(&item));
                        item.clear();
                        continue;
                    }
                    _ => {}
                }
                item.push(c);
            }
        } else {
            names.extend(first_segment(rest));
        }
    }
    names
}

fn first_segment(path: &str) -> Option<String> {
    let name: String = path.trim_start().chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
    (!name.is_empty() && name != "self" && name != "super").then_some(name)
}

/// A statement without the attributes before it (`#[cfg(...)]`, on its own line or not);
/// the statement itself may span lines (`pub use files::{\n a,\n b,\n}`).
fn without_attributes(statement: &str) -> &str {
    let mut rest = statement.trim();
    while let Some(attribute) = rest.strip_prefix("#[").or_else(|| rest.strip_prefix("#![")) {
        let mut depth = 1;
        let end = attribute.char_indices().find(|&(_, c)| {
            depth += match c {
                '[' => 1,
                ']' => -1,
                _ => 0,
            };
            depth == 0
        });
        let Some((end, _)) = end else { return "" };
        rest = attribute[end + 1..].trim_start();
    }
    rest
}

/// The root's `pub use child::...` lines: item name -> child.
fn reexports(root: &str, children: &BTreeMap<String, PathBuf>) -> BTreeMap<String, String> {
    let mut items = BTreeMap::new();
    for statement in root.split(';') {
        let statement = without_attributes(statement);
        let Some(path) = ["pub use ", "pub(crate) use "].iter().find_map(|p| statement.strip_prefix(p)) else {
            continue;
        };
        let Some(child) = first_segment(path).filter(|c| children.contains_key(c)) else { continue };
        let after = path.trim_start()[child.len()..].trim_start_matches("::");
        let names = match after.strip_prefix('{') {
            Some(_) => names_after(&format!("x::{after}"), "x::"),
            None => after.rsplit("::").next().and_then(first_segment).into_iter().collect(),
        };
        for name in names {
            items.insert(name, child.clone());
        }
    }
    items
}

/// Who imports whom among a module's files, with the names that make each edge.
fn edges(module: &Module) -> BTreeMap<(String, String), BTreeSet<String>> {
    let root = code(&module.root);
    let reexported = reexports(&root, &module.children);
    let mut edges: BTreeMap<(String, String), BTreeSet<String>> = BTreeMap::new();
    // the root imports a child it names outside its `mod` and `pub use` lines
    let face = ["pub use ", "pub(crate) use ", "pub mod ", "pub(crate) mod ", "mod "];
    let private: String = root
        .split(';')
        .filter(|s| !face.iter().any(|f| without_attributes(s).starts_with(f)))
        .collect::<Vec<_>>()
        .join(";");
    let own = match module.path.is_empty() {
        true => "crate::".to_owned(),
        false => format!("crate::{}::", module.path.join("::")),
    };
    for child in module.children.keys() {
        let named = private.match_indices(&format!("{child}::")).any(|(i, _)| {
            let before = private[..i].chars().next_back();
            before.is_none_or(|c| !(c.is_alphanumeric() || c == '_' || c == ':'))
                || private[..i].ends_with("self::")
                || private[..i].ends_with(&own)
        });
        if named {
            edges.entry((ROOT.to_owned(), child.clone())).or_default().insert(format!("{child}::"));
        }
    }
    for (from, path, file_module) in &module.files {
        // the module's own root: its face is not an import, and its bare names are read above
        let code = if *from == ROOT { private.clone() } else { code(path) };
        for target in references(&code, file_module) {
            let Some(name) = target.strip_prefix(module.path.as_slice()).and_then(|rest| rest.first()) else {
                continue;
            };
            let to = match (module.children.contains_key(name), reexported.get(name)) {
                (true, _) => name.clone(),
                (false, Some(owner)) => owner.clone(),
                (false, None) => ROOT.to_owned(),
            };
            if to != *from {
                edges.entry((from.clone(), to)).or_default().insert(name.clone());
            }
        }
    }
    edges
}

/// The absolute paths `code` names through `crate::`, `self::` and `super::` (repeated),
/// read from the file whose module is `module`: `super::super::schema::Schema` in
/// `validate::update_check::apply` is `validate::schema::Schema`; a group (`super::{a, b::c}`)
/// gives each of its paths.
fn references(code: &str, module: &[String]) -> Vec<Vec<String>> {
    let mut found = Vec::new();
    let mut at = 0;
    while at < code.len() {
        let rest = &code[at..];
        let before = code[..at].chars().next_back();
        let starts = before.is_none_or(|c| !(c.is_alphanumeric() || c == '_' || c == ':'));
        let base = match () {
            _ if !starts => None,
            _ if rest.starts_with("crate::") => Some((Vec::new(), "crate::".len())),
            _ if rest.starts_with("self::") => Some((module.to_vec(), "self::".len())),
            _ if rest.starts_with("super::") => {
                let (mut up, mut len) = (0, 0);
                while rest[len..].starts_with("super::") {
                    up += 1;
                    len += "super::".len();
                }
                Some((module[..module.len().saturating_sub(up)].to_vec(), len))
            }
            _ => None,
        };
        match base {
            Some((base, len)) => {
                for path in use_tree(&rest[len..]) {
                    found.push(base.iter().cloned().chain(path).collect());
                }
                at += len;
            }
            None => at += rest.chars().next().map_or(1, char::len_utf8),
        }
    }
    found
}

/// The paths of a use tree (what follows `prefix::`): `a::b` gives `[a, b]`, `{a, b::{c, d}}`
/// gives `[a]`, `[b, c]` and `[b, d]`; a glob or `self` ends a path.
fn use_tree(tree: &str) -> Vec<Vec<String>> {
    let tree = tree.trim_start();
    if let Some(group) = tree.strip_prefix('{') {
        let mut depth = 0;
        let mut items = vec![String::new()];
        for c in group.chars() {
            match c {
                '{' => depth += 1,
                '}' if depth == 0 => break,
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    items.push(String::new());
                    continue;
                }
                _ => {}
            }
            items.last_mut().unwrap().push(c);
        }
        return items.iter().filter(|i| !i.trim().is_empty()).flat_map(|i| use_tree(i)).collect();
    }
    let name: String = tree.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
    if name.is_empty() || name == "self" {
        return vec![Vec::new()];
    }
    match tree[name.len()..].strip_prefix("::") {
        Some(rest) => {
            use_tree(rest).into_iter().map(|tail| std::iter::once(name.clone()).chain(tail).collect()).collect()
        }
        None => vec![vec![name]],
    }
}

/// A loop among the edges, as the files in order, if there is one.
fn a_loop(edges: &BTreeMap<(String, String), BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        at: &str,
        edges: &BTreeMap<(String, String), BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(start) = path.iter().position(|p| p == at) {
            let mut cycle = path[start..].to_vec();
            cycle.push(at.to_owned());
            return Some(cycle);
        }
        if !done.insert(at.to_owned()) {
            return None;
        }
        path.push(at.to_owned());
        for ((from, to), _) in edges.iter().filter(|((from, _), _)| from == at) {
            let _ = from;
            if let Some(cycle) = visit(to, edges, path, done) {
                return Some(cycle);
            }
        }
        path.pop();
        None
    }
    let mut done = BTreeSet::new();
    let starts: BTreeSet<&String> = edges.keys().map(|(from, _)| from).collect();
    starts.into_iter().find_map(|start| visit(start, edges, &mut Vec::new(), &mut done))
}

/// The loops among the edges: each set of files that reach one another (two or more).
fn loops(edges: &BTreeMap<(String, String), BTreeSet<String>>) -> Vec<BTreeSet<String>> {
    let reach = |from: &String| {
        let mut seen = BTreeSet::new();
        let mut todo = vec![from.clone()];
        while let Some(at) = todo.pop() {
            for (_, to) in edges.keys().filter(|(f, _)| *f == at) {
                if seen.insert(to.clone()) {
                    todo.push(to.clone());
                }
            }
        }
        seen
    };
    let reached: BTreeMap<&String, BTreeSet<String>> = edges.keys().map(|(from, _)| (from, reach(from))).collect();
    let mut found: Vec<BTreeSet<String>> = Vec::new();
    for (file, reaches) in &reached {
        let together: BTreeSet<String> =
            reaches.iter().filter(|other| reached.get(other).is_some_and(|r| r.contains(*file))).cloned().collect();
        if together.len() > 1 && !found.contains(&together) {
            found.push(together);
        }
    }
    found
}

/// One loop of `files`, with the names that make each edge.
fn explained(edges: &BTreeMap<(String, String), BTreeSet<String>>, files: &BTreeSet<String>) -> String {
    let inside = edges.iter().filter(|((f, t), _)| files.contains(f) && files.contains(t));
    let inside: BTreeMap<(String, String), BTreeSet<String>> = inside.map(|(k, v)| (k.clone(), v.clone())).collect();
    let cycle = a_loop(&inside).expect("files that reach one another");
    let why: Vec<String> = cycle
        .windows(2)
        .map(|w| {
            let names = &inside[&(w[0].clone(), w[1].clone())];
            format!("{} -> {} ({})", w[0], w[1], names.iter().cloned().collect::<Vec<_>>().join(", "))
        })
        .collect();
    why.join("; ")
}

#[test]
fn the_files_of_each_module_import_one_way() {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("the workspace");
    let modules: Vec<Module> = CRATES.iter().flat_map(|c| modules(&workspace.join(c).join("src"), c)).collect();
    let names: Vec<&str> = modules.iter().map(|m| m.name.as_str()).collect();
    let expected = ["core", "core::view", "migrate", "cli", "cli::cli", "cli::check", "cli::review", "validate"];
    let derive = ["macros", "macros::attr", "macros::rules", "macros::expand"];
    for expected in expected
        .into_iter()
        .chain(["validate::update_check", "validate::keywords", "validate::update_check::expr"])
        .chain(derive)
    {
        assert!(names.contains(&expected), "no module {expected} among {names:?}");
    }
    let mut unnamed = Vec::new();
    let mut named = BTreeSet::new();
    for module in &modules {
        let edges = edges(module);
        for files in loops(&edges) {
            let intended = INTENDED.iter().position(|(m, f, _)| {
                *m == module.name && f.iter().map(|f| (*f).to_owned()).collect::<BTreeSet<_>>() == files
            });
            match intended {
                Some(i) => {
                    named.insert(i);
                }
                None => {
                    let list: Vec<&str> = files.iter().map(String::as_str).collect();
                    unnamed.push(format!("{} {list:?}: {}", module.name, explained(&edges, &files)));
                }
            }
        }
    }
    assert!(
        unnamed.is_empty(),
        "files importing each other in a loop (break it, or name it in INTENDED with the reason):\n{}",
        unnamed.join("\n")
    );
    let gone: Vec<_> = INTENDED.iter().enumerate().filter(|(i, _)| !named.contains(i)).map(|(_, l)| l).collect();
    assert!(gone.is_empty(), "loops named in INTENDED that are not there (any more): {gone:?}");
}

/// The published crates, whose public paths users write.
const PUBLISHED: &[&str] = &["contract", "macros", "core", "validate", "migrate", "cli", "runtime", "pcre2"];

/// Second public paths that are meant: the file, the statement's start, and why.
const SECOND_PATHS: &[(&str, &str, &str)] = &[(
    "runtime/src/lib.rs",
    "pub use crate::{MongoCollection, MongoSchema}",
    "the prelude: the two traits, for one glob import",
)];

/// One public path per item: no module re-exports a sibling's items (`pub use super::x::Item`,
/// `pub use crate::x::Item`), and no module root re-exports the items of a child that is
/// itself public (`pub mod plan;` and `pub use plan::Rule;`). Items under `#[doc(hidden)]`
/// (the expansion's `__private`, `compat`) are not public API and may; a crate root's
/// re-exports of another crate's items (the facade's front door) are how the crates meet.
#[test]
fn one_public_path_per_item() {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("the workspace");
    let mut second = Vec::new();
    for krate in PUBLISHED {
        let src = workspace.join(krate).join("src");
        let modules = modules(&src, krate);
        // the modules declared `#[doc(hidden)] pub mod`, by name: nothing under them is public API
        let mut hidden = BTreeSet::new();
        for module in &modules {
            for statement in code(&module.root).split(';') {
                let bare = without_attributes(statement);
                if let Some(name) = bare.strip_prefix("pub mod ").and_then(first_segment) {
                    if statement.contains("doc(hidden)") {
                        hidden.insert(name);
                    }
                }
            }
        }
        for module in &modules {
            let root = code(&module.root);
            let public: BTreeSet<String> = root
                .split(';')
                .filter(|s| !s.contains("doc(hidden)"))
                .filter_map(|s| without_attributes(s).strip_prefix("pub mod ").and_then(first_segment))
                .collect();
            for (child, file, path) in &module.files {
                if path.iter().any(|p| hidden.contains(p)) || module.path.iter().any(|p| hidden.contains(p)) {
                    continue;
                }
                let text = if *child == ROOT { root.clone() } else { code(file) };
                let shown = file.strip_prefix(workspace).unwrap_or(file).to_string_lossy().into_owned();
                for (bare, hidden) in pub_uses(&text) {
                    let Some(used) = bare.strip_prefix("pub use ").filter(|_| !hidden) else { continue };
                    let sibling = used.starts_with("super::") || used.starts_with("crate::");
                    let of_public_child = *child == ROOT && first_segment(used).is_some_and(|c| public.contains(&c));
                    let meant = SECOND_PATHS.iter().any(|(f, start, _)| shown == *f && bare.starts_with(start));
                    if (sibling || of_public_child) && !meant {
                        second.push(format!("{shown}: {bare}"));
                    }
                }
            }
        }
    }
    assert!(
        second.is_empty(),
        "items re-exported under a second public path (give each one path; an old one, a deprecated \
         alias or wrapper):\n{}",
        second.join("\n")
    );
}

/// Each `pub use` statement of `code` (joined to one line), and whether an attribute right
/// above it is `#[doc(hidden)]`; comments are gone already, so a doc comment is a blank line.
fn pub_uses(code: &str) -> Vec<(String, bool)> {
    let lines: Vec<&str> = code.lines().collect();
    let mut found = Vec::new();
    for (at, line) in lines.iter().enumerate() {
        if !line.trim_start().starts_with("pub use ") {
            continue;
        }
        let mut statement = String::new();
        for next in &lines[at..] {
            statement.push_str(next.trim());
            statement.push(' ');
            if next.contains(';') {
                break;
            }
        }
        let statement = statement.split(';').next().unwrap_or_default().trim().to_owned();
        let above = lines[..at].iter().rev().map(|l| l.trim()).take_while(|l| l.is_empty() || l.starts_with("#["));
        let hidden = above.into_iter().any(|l| l.contains("doc(hidden)"));
        found.push((statement, hidden));
    }
    found
}

#[test]
fn pub_uses_see_their_attributes() {
    let code = "fn f() {\n}\n#[doc(hidden)]\n    \npub use super::a::B;\n#[cfg(x)]\npub use c::{\n    D,\n    E,\n};\n";
    assert_eq!(pub_uses(code), [("pub use super::a::B".to_owned(), true), ("pub use c::{ D, E, }".to_owned(), false)]);
}

/// The list of crates read is the workspace's: a crate added to `members` with a library is
/// read too, or this fails.
#[test]
fn the_scan_reads_every_crate() {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("the workspace");
    let manifest = fs::read_to_string(workspace.join("Cargo.toml")).expect("the workspace manifest");
    let members = manifest.split("members").nth(1).and_then(|m| m.split(']').next()).expect("workspace members");
    let with_library: BTreeSet<&str> = members
        .split(',')
        .map(|m| m.trim().trim_start_matches('=').trim().trim_start_matches('[').trim().trim_matches('"'))
        .filter(|m| !m.is_empty() && workspace.join(m).join("src/lib.rs").is_file())
        .collect();
    assert!(with_library.contains("core") && with_library.contains("examples/app"), "{with_library:?}");
    assert_eq!(
        with_library,
        CRATES.iter().copied().collect::<BTreeSet<_>>(),
        "CRATES is not the workspace's libraries"
    );
}

/// The scan itself: a loop it must see, and a one-way layering it must accept.
#[test]
fn the_scan_sees_a_loop_and_accepts_layers() {
    let dir = std::env::temp_dir().join(format!("mongo-schema-layers-{}", std::process::id()));
    let src = dir.join("src");
    let write = |path: &str, text: &str| {
        let path = src.join(path);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, text).unwrap();
    };
    write("lib.rs", "mod m;\n");
    write("m/mod.rs", "mod a;\nmod b;\npub use a::Thing;\npub use b::{Other, more::Deep};\n");
    write("m/a.rs", "use super::b::Other;\npub struct Thing;\n");
    write("m/b.rs", "pub struct Other;\n#[cfg(test)]\nmod tests { use super::super::a::Thing; }\n");
    let module = &modules(&src, "k")[1];
    assert_eq!(a_loop(&edges(module)), None);
    write("m/b.rs", "use super::{Thing, c};\npub struct Other;\n");
    let module = &modules(&src, "k")[1];
    let found = a_loop(&edges(module)).expect("a -> b -> a");
    assert!(found == ["a", "b", "a"] || found == ["b", "a", "b"], "{found:?}");
    // an item the root defines: the child imports the root, which imports the child
    write("m/b.rs", "use crate::m::Root;\npub struct Other;\n");
    write("m/mod.rs", "mod a;\nmod b;\nuse b::Other;\npub struct Root(Other);\n");
    let module = &modules(&src, "k")[1];
    assert!(a_loop(&edges(module)).is_some_and(|l| l.contains(&ROOT.to_owned())));

    // nested modules: `m::n` is a module of its own, and every file under `m/n/` is the child
    // `n` of `m`, whose paths resolve from its own depth
    write("m/mod.rs", "mod a;\nmod b;\nmod n;\npub use a::Thing;\n");
    write("m/b.rs", "pub struct Other;\n");
    write("m/n/mod.rs", "mod x;\nmod y;\npub use x::X;\n");
    write("m/n/x.rs", "use super::y::Y;\nuse super::super::{a::Thing, b};\npub struct X(Y, Thing);\n");
    write("m/n/y.rs", "pub struct Y;\n");
    let found = modules(&src, "k");
    assert_eq!(found.iter().map(|m| m.name.as_str()).collect::<Vec<_>>(), ["k", "k::m", "k::m::n"]);
    let (m, n) = (edges(&found[1]), edges(&found[2]));
    assert!(m.contains_key(&("n".to_owned(), "a".to_owned())) && m.contains_key(&("n".to_owned(), "b".to_owned())));
    assert_eq!(n.keys().collect::<Vec<_>>(), [&("x".to_owned(), "y".to_owned())]);
    assert!(loops(&m).is_empty() && loops(&n).is_empty());
    // a loop through the nested module, and one inside it
    write("m/a.rs", "use crate::m::n::X;\npub struct Thing;\n");
    write("m/n/y.rs", "use super::X;\npub struct Y;\n");
    let found = modules(&src, "k");
    let set = |files: &[&str]| files.iter().map(|f| (*f).to_owned()).collect::<BTreeSet<_>>();
    assert_eq!(loops(&edges(&found[1])), [set(&["a", "n"])]);
    assert_eq!(loops(&edges(&found[2])), [set(&["x", "y"])]);
    // the crate root is a module too: its top-level files import one way, and an item the
    // crate root re-exports (`pub use m::Thing`) counts as its file's
    write("lib.rs", "mod m;\nmod top;\n#[doc(hidden)] pub use m::{\n    Thing,\n};\n");
    write("top.rs", "pub struct Top;\n");
    write("m/a.rs", "use crate::top::Top;\npub struct Thing(Top);\n");
    assert!(loops(&edges(&modules(&src, "k")[0])).is_empty());
    write("top.rs", "use crate::Thing;\npub struct Top;\n");
    assert_eq!(loops(&edges(&modules(&src, "k")[0])), [set(&["m", "top"])]);
    fs::remove_dir_all(&dir).unwrap();
}
