//! Compiles the vendored PCRE2 (`upstream/`, see README.md) into a static library whose every
//! external symbol carries the prefix `mongo_schema_`, whatever the machine has installed: no
//! pkg-config probe, no environment variable, no system library.
//!
//! The configuration is the one pcre2-sys 0.2.10 uses for its vendored build (8-bit code
//! units, Unicode, the JIT where sljit supports the target; `config.h` is PCRE2's
//! `config.h.generic`), so the dialect is the one the differential tests against mongod prove.
//!
//! Renaming: PCRE2 spells each external name through macros. A public function is written
//! `pcre2_compile` and `pcre2.h` maps it with `#define pcre2_compile PCRE2_SUFFIX(pcre2_compile_)`
//! to `pcre2_compile_8`; an internal one is written `PRIV(ord2utf)`, which becomes
//! `_pcre2_ord2utf` and, through a `#define ... PCRE2_SUFFIX(...)` of `pcre2_internal.h`, the
//! symbol `_pcre2_ord2utf_8` (a few tables shared by every width, such as `_pcre2_utf8_table1`,
//! keep the unsuffixed name). The preprocessor rescans the token a macro expansion pastes
//! together, so a `#define pcre2_compile_8 mongo_schema_pcre2_compile_8` seen before PCRE2's
//! headers renames the symbol everywhere it is declared, defined or called. This script
//! derives the list of those final names from the sources (the `PCRE2_SUFFIX` mappings, the
//! `PRIV(...)` uses and the `_pcre2_` identifiers) and writes them to a header, and each C file
//! is compiled through a two-line unit in OUT_DIR that includes that header and then the file
//! (portable to every C compiler, unlike a command-line forced include). sljit, the JIT's code
//! generator, is already built with `SLJIT_CONFIG_STATIC` (all its functions `static`). The
//! unit test `every_symbol_is_prefixed` checks the resulting archive with `nm`.

use std::collections::BTreeSet;
use std::env;
use std::fs;
use std::path::{Path, PathBuf};

/// Put before every external name of the library.
const PREFIX: &str = "mongo_schema_";

/// C files that PCRE2 includes from others rather than compiling on their own.
const INCLUDED: [&str; 3] = ["pcre2_jit_match.c", "pcre2_jit_misc.c", "pcre2_ucptables.c"];

fn main() {
    let manifest = PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR"));
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("OUT_DIR"));
    let target = env::var("TARGET").expect("TARGET");
    let upstream = manifest.join("upstream");
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=upstream");

    let src = upstream.join("src");
    let mut sources: Vec<PathBuf> = fs::read_dir(&src)
        .expect("upstream/src")
        .map(|entry| entry.expect("upstream/src entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "c" || ext == "h"))
        .collect();
    sources.sort();
    let pcre2_h = upstream.join("include").join("pcre2.h");

    let mut texts = vec![read(&pcre2_h)];
    texts.extend(sources.iter().map(|path| read(path)));
    let header = symbols_header(&texts);
    fs::write(out.join("mongo_schema_pcre2_symbols.h"), header).expect("write the symbols header");

    let units = out.join("units");
    fs::create_dir_all(&units).expect("create the units directory");
    let mut build = cc::Build::new();
    build
        .define("PCRE2_CODE_UNIT_WIDTH", "8")
        .define("HAVE_STDLIB_H", "1")
        .define("HAVE_MEMMOVE", "1")
        .define("HAVE_CONFIG_H", "1")
        .define("PCRE2_STATIC", "1")
        .define("STDC_HEADERS", "1")
        .define("SUPPORT_PCRE2_8", "1")
        .define("SUPPORT_UNICODE", "1")
        .include(&out)
        .include(&src)
        .include(upstream.join("include"))
        .include(upstream.join("deps"))
        // Vendored code, not ours to fix: the compiler's extra warnings would be noise on
        // every build.
        .warnings(false)
        // Debug info for PCRE2's C is rarely wanted and is most of its object size.
        .debug(env::var_os("MONGO_SCHEMA_PCRE2_DEBUG").is_some_and(|v| v == "1"));
    println!("cargo:rerun-if-env-changed=MONGO_SCHEMA_PCRE2_DEBUG");
    if target.contains("windows") {
        build.define("HAVE_WINDOWS_H", "1");
    }
    if jit_supported(&target) {
        build.define("SUPPORT_JIT", "1");
    }
    for path in &sources {
        let name = path.file_name().and_then(|n| n.to_str()).expect("a UTF-8 file name");
        if !name.ends_with(".c") || INCLUDED.contains(&name) {
            continue;
        }
        // Not named as the file it includes: a quoted include looks first beside the unit.
        let unit = units.join(format!("unit_{name}"));
        write_if_changed(&unit, &format!("#include \"mongo_schema_pcre2_symbols.h\"\n#include \"{name}\"\n"));
        build.file(unit);
    }
    build.compile("mongo_schema_pcre2");

    println!("cargo:rustc-env=MONGO_SCHEMA_PCRE2_VENDORED_VERSION={}", vendored_version(&read(&pcre2_h)));
}

fn read(path: &Path) -> String {
    // PCRE2's sources are ASCII but for a few comments; those bytes do not matter here.
    String::from_utf8_lossy(&fs::read(path).unwrap_or_else(|err| panic!("{}: {err}", path.display()))).into_owned()
}

/// Rewrites `path` only when its content changes, so that cc's objects stay fresh.
fn write_if_changed(path: &Path, content: &str) {
    if fs::read_to_string(path).ok().as_deref() != Some(content) {
        fs::write(path, content).unwrap_or_else(|err| panic!("{}: {err}", path.display()));
    }
}

/// `#define NAME mongo_schema_NAME` for every final external name of PCRE2's 8-bit library.
fn symbols_header(texts: &[String]) -> String {
    // Macros `#define X PCRE2_SUFFIX(Y)`: X is spelled in the code, `Y8` is the symbol.
    let mut macros = BTreeSet::new();
    let mut names = BTreeSet::new();
    for text in texts {
        for line in text.lines() {
            let Some((name, value)) = define(line) else { continue };
            let value: String = value.chars().filter(|c| !c.is_whitespace()).collect();
            let Some(base) = value.strip_prefix("PCRE2_SUFFIX(").and_then(|v| v.strip_suffix(')')) else { continue };
            if base.starts_with("pcre2_") || base.starts_with("_pcre2_") {
                macros.insert(name.to_owned());
                names.insert(format!("{base}8"));
            }
        }
    }
    // Internal names written `PRIV(x)` or `_pcre2_x` that no such macro maps: their symbol is
    // `_pcre2_x` itself (the tables shared by every code unit width).
    for text in texts {
        for line in text.lines().filter(|line| define(line).is_none_or(|(name, _)| !name.starts_with("PRIV"))) {
            for (at, _) in line.match_indices("PRIV(") {
                if starts_identifier(line, at) {
                    let name = identifier(&line[at + "PRIV(".len()..]);
                    if !name.is_empty() {
                        names.insert(format!("_pcre2_{name}"));
                    }
                }
            }
            for (at, _) in line.match_indices("_pcre2_") {
                if starts_identifier(line, at) {
                    names.insert(identifier(&line[at..]).to_owned());
                }
            }
        }
    }
    let mut header = String::from(
        "/* Generated by mongo-schema-pcre2's build.rs: every external name of PCRE2 gets the\n   \
         prefix, so this copy never clashes with another PCRE2 in the same binary. */\n",
    );
    for name in names.iter().filter(|name| !macros.contains(*name)) {
        header.push_str(&format!("#define {name} {PREFIX}{name}\n"));
    }
    header
}

/// The name and value of a `#define NAME VALUE` line (`#  define` too).
fn define(line: &str) -> Option<(&str, &str)> {
    let rest = line.trim_start().strip_prefix('#')?.trim_start().strip_prefix("define")?;
    let rest = rest.strip_prefix([' ', '\t'])?.trim_start();
    let name = identifier(rest);
    Some((name, &rest[name.len()..]))
}

/// Whether the match at `at` starts an identifier (is not the tail of a longer one).
fn starts_identifier(line: &str, at: usize) -> bool {
    !line[..at].ends_with(|c: char| c.is_ascii_alphanumeric() || c == '_')
}

/// The identifier at the start of `text`.
fn identifier(text: &str) -> &str {
    let end = text.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(text.len());
    &text[..end]
}

/// `pcre2_config(PCRE2_CONFIG_VERSION)` of the vendored copy, from `pcre2.h`: "10.46 2025-08-27".
fn vendored_version(pcre2_h: &str) -> String {
    let field = |key: &str| {
        pcre2_h.lines().find_map(|line| define(line).filter(|(name, _)| *name == key).map(|(_, value)| value.trim()))
    };
    let major = field("PCRE2_MAJOR").expect("PCRE2_MAJOR in pcre2.h");
    let minor = field("PCRE2_MINOR").expect("PCRE2_MINOR in pcre2.h");
    let prerelease = field("PCRE2_PRERELEASE").unwrap_or("");
    let date = field("PCRE2_DATE").expect("PCRE2_DATE in pcre2.h");
    format!("{major}.{minor}{prerelease} {date}")
}

/// The targets where pcre2-sys 0.2.10 builds the JIT (sljit does not build, or does not link,
/// on the others it lists).
fn jit_supported(target: &str) -> bool {
    !(target == "aarch64-linux-android"
        || target == "armv7-linux-androideabi"
        || target == "aarch64-unknown-linux-musl"
        || target.contains("musleabi")
        || target.contains("apple-ios")
        || target.contains("apple-tvos"))
}
