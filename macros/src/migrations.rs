//! `migrations!("dir")`: a migrations directory embedded at compile time, as a
//! `mongo_schema::migrate::Migrator`. Each file is `include_str!`ed, so an edited file
//! rebuilds the crate; an added file needs `cargo:rerun-if-changed=DIR` in a build script
//! (cargo cannot be told to watch a directory from a macro).

use proc_macro2::TokenStream;
use quote::quote;

/// The expansion: `Migrator::embedded(&[(name, include_str!(path)), ...])`, the files in the
/// order they apply; a compile error at the literal for a missing, unreadable or empty
/// directory.
pub fn expand(input: TokenStream) -> TokenStream {
    let literal = match syn::parse2::<syn::LitStr>(input) {
        Ok(literal) => literal,
        Err(e) => {
            let message =
                format!("{e}: write the migrations directory as a string literal, `migrations!(\"migrations\")`");
            return syn::Error::new(e.span(), message).to_compile_error();
        }
    };
    match files(&literal.value()) {
        Ok(files) => {
            let entries = files.iter().map(|(name, path)| quote!((#name, ::core::include_str!(#path))));
            quote!(::mongo_schema::migrate::Migrator::embedded(&[#(#entries),*]))
        }
        Err(message) => syn::Error::new(literal.span(), message).to_compile_error(),
    }
}

/// `(migration name, absolute path)` of each migration file of `dir` (relative to the
/// crate's `Cargo.toml`), by version then name.
fn files(dir: &str) -> Result<Vec<(String, String)>, String> {
    let root = std::env::var_os("CARGO_MANIFEST_DIR").map(std::path::PathBuf::from).unwrap_or_default();
    let path = root.join(dir);
    let entries = std::fs::read_dir(&path).map_err(|e| {
        format!(
            "cannot read the migrations directory {} ({e}); the path is relative to this crate's Cargo.toml: pass \
             the directory `schema migrate --dir` writes",
            path.display()
        )
    })?;
    let mut found = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|e| format!("cannot list {}: {e}", path.display()))?;
        let file = entry.file_name();
        let Some(file) = file.to_str() else { continue };
        if !mongo_schema_contract::migration::is_migration_file(file) {
            continue;
        }
        let version = mongo_schema_contract::migration::version_of(file).map_or(0, |(v, _)| v);
        let name = file.trim_end_matches(".json").to_owned();
        let full = entry.path();
        let full = full.to_str().ok_or_else(|| format!("{} is not UTF-8", full.display()))?.to_owned();
        found.push((version, name, full));
    }
    if found.is_empty() {
        return Err(format!(
            "no migrations in {}: write them with `schema migrate --dir {dir}` (an empty migrator would report \
             success and apply nothing)",
            path.display()
        ));
    }
    found.sort();
    Ok(found.into_iter().map(|(_, name, path)| (name, path)).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_or_empty_directory_or_a_non_literal_is_a_compile_error() {
        let missing = expand(quote!("no/such/migrations")).to_string();
        assert!(missing.contains("compile_error"), "{missing}");
        assert!(missing.contains("cannot read the migrations directory"), "{missing}");
        assert!(missing.contains("relative to this crate's Cargo.toml"), "{missing}");
        // this crate's `src` holds no migration file
        let empty = expand(quote!("src")).to_string();
        assert!(empty.contains("no migrations in"), "{empty}");
        let not_literal = expand(quote!(DIR)).to_string();
        assert!(not_literal.contains("as a string literal"), "{not_literal}");
    }

    #[test]
    fn the_files_of_a_directory_are_embedded_in_the_order_they_apply() {
        let dir = "../examples/app/migrations";
        let expanded = expand(quote!(#dir)).to_string();
        assert!(expanded.starts_with(":: mongo_schema :: migrate :: Migrator :: embedded"), "{expanded}");
        let first = expanded.find("0001_create_t_order_and_2_more").unwrap();
        let second = expanded.find("0002_alter_t_order").unwrap();
        assert!(first < second, "{expanded}");
        assert!(
            !expanded.contains("snapshot") && !expanded.contains(".js\"") && !expanded.contains(".down."),
            "{expanded}"
        );
    }
}
