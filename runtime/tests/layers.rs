//! The files of a module import one way: no two of them import each other, directly or
//! in a loop, so each can be read (and changed) knowing only what is below it.
//!
//! A module is a directory of `src/` with its root file (`migrate/mod.rs` or `cli.rs`); its
//! files are the root and each child (`migrate/apply.rs`, or `validate/update/mod.rs` for a
//! child directory). A file imports a child when it names it (`super::record::State`,
//! `crate::migrate::lock`), or names an item the root re-exports from it
//! (`super::Model` when the root says `pub use model::Model`); a child imports the root when
//! it names an item the root defines. The root's own `pub use` lines are the module's face,
//! not imports. Unit-test modules (from `#[cfg(test)]` on) are left out: they may reach
//! anywhere.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

const ROOT: &str = "(root)";

/// A module: its root file and its children by name.
struct Module {
    name: String,
    root: PathBuf,
    children: BTreeMap<String, PathBuf>,
}

fn modules(src: &Path) -> Vec<Module> {
    let mut found = Vec::new();
    for entry in fs::read_dir(src).expect("runtime/src") {
        let dir = entry.expect("an entry").path();
        if !dir.is_dir() {
            continue;
        }
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        let root = [dir.join("mod.rs"), src.join(format!("{name}.rs"))].into_iter().find(|p| p.is_file());
        let Some(root) = root else { continue };
        let mut children = BTreeMap::new();
        for entry in fs::read_dir(&dir).expect("a module directory") {
            let path = entry.expect("an entry").path();
            let child = match path.extension().and_then(|e| e.to_str()) {
                Some("rs") if path.file_name().unwrap() != "mod.rs" => path.clone(),
                None if path.join("mod.rs").is_file() => path.join("mod.rs"),
                _ => continue,
            };
            let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
            children.insert(stem, child);
        }
        found.push(Module { name, root, children });
    }
    found.sort_by(|a, b| a.name.cmp(&b.name));
    found
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

/// A statement without the attributes and comments before it.
fn last_line(statement: &str) -> &str {
    let statement = statement.trim();
    statement.rfind(['\n', ']']).map_or(statement, |i| statement[i + 1..].trim())
}

/// The root's `pub use child::...` lines: item name -> child.
fn reexports(root: &str, children: &BTreeMap<String, PathBuf>) -> BTreeMap<String, String> {
    let mut items = BTreeMap::new();
    for statement in root.split(';') {
        let statement = last_line(statement);
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
    let private: String =
        root.split(';').filter(|s| !face.iter().any(|f| last_line(s).starts_with(f))).collect::<Vec<_>>().join(";");
    for child in module.children.keys() {
        let named = private.match_indices(&format!("{child}::")).any(|(i, _)| {
            let before = private[..i].chars().next_back();
            before.is_none_or(|c| !(c.is_alphanumeric() || c == '_' || c == ':'))
                || private[..i].ends_with("self::")
                || private[..i].ends_with(&format!("crate::{}::", module.name))
        });
        if named {
            edges.entry((ROOT.to_owned(), child.clone())).or_default().insert(format!("{child}::"));
        }
    }
    for (child, path) in &module.children {
        let code = code(path);
        let mut names = names_after(&code, "super::");
        names.extend(names_after(&code, &format!("crate::{}::", module.name)));
        for name in names {
            let to = match (module.children.contains_key(&name), reexported.get(&name)) {
                (true, _) => name.clone(),
                (false, Some(owner)) => owner.clone(),
                (false, None) => ROOT.to_owned(),
            };
            if to != *child {
                edges.entry((child.clone(), to)).or_default().insert(name);
            }
        }
    }
    edges
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

#[test]
fn the_files_of_each_module_import_one_way() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let modules = modules(&src);
    let names: Vec<&str> = modules.iter().map(|m| m.name.as_str()).collect();
    for expected in ["migrate", "cli", "check", "review"] {
        assert!(names.contains(&expected), "no module {expected} among {names:?}");
    }
    let mut loops = Vec::new();
    for module in &modules {
        let edges = edges(module);
        if let Some(cycle) = a_loop(&edges) {
            let why: Vec<String> = cycle
                .windows(2)
                .map(|w| {
                    let names = &edges[&(w[0].clone(), w[1].clone())];
                    format!("{} -> {} ({})", w[0], w[1], names.iter().cloned().collect::<Vec<_>>().join(", "))
                })
                .collect();
            loops.push(format!("{}: {}", module.name, why.join("; ")));
        }
    }
    assert!(loops.is_empty(), "files importing each other in a loop:\n{}", loops.join("\n"));
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
    write("m/mod.rs", "mod a;\nmod b;\npub use a::Thing;\npub use b::{Other, more::Deep};\n");
    write("m/a.rs", "use super::b::Other;\npub struct Thing;\n");
    write("m/b.rs", "pub struct Other;\n#[cfg(test)]\nmod tests { use super::super::a::Thing; }\n");
    let module = &modules(&src)[0];
    assert_eq!(a_loop(&edges(module)), None);
    write("m/b.rs", "use super::{Thing, c};\npub struct Other;\n");
    let module = &modules(&src)[0];
    let found = a_loop(&edges(module)).expect("a -> b -> a");
    assert!(found == ["a", "b", "a"] || found == ["b", "a", "b"], "{found:?}");
    // an item the root defines: the child imports the root, which imports the child
    write("m/b.rs", "use crate::m::Root;\npub struct Other;\n");
    write("m/mod.rs", "mod a;\nmod b;\nuse b::Other;\npub struct Root(Other);\n");
    let module = &modules(&src)[0];
    assert!(a_loop(&edges(module)).is_some_and(|l| l.contains(&ROOT.to_owned())));
    fs::remove_dir_all(&dir).unwrap();
}
