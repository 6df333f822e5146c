//! Migration file names, read the same way by the runtime (which lists a directory at run
//! time) and by `migrations!` (which embeds it at compile time).

/// The version and the rest of a migration file's name: `0001_create_t_user.json` →
/// `(1, "create_t_user.json")`, `20261123224048_x` → `(20261123224048, "x")`. `None` for a
/// name that does not start with at least four digits and `_`.
pub fn version_of(name: &str) -> Option<(u64, &str)> {
    let (digits, rest) = name.split_once('_')?;
    if digits.len() < 4 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((digits.parse().unwrap_or(u64::MAX), rest))
}

/// A file a migration runner applies: a versioned name ending in `.json` (the `.js` scripts
/// beside it are for mongosh, `snapshot.json` is not versioned). Its migration's name is
/// the file name without `.json`.
pub fn is_migration_file(file_name: &str) -> bool {
    file_name.ends_with(".json") && version_of(file_name).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_and_files() {
        assert_eq!(version_of("0001_create_t_user.json"), Some((1, "create_t_user.json")));
        assert_eq!(version_of("20261123224048_x"), Some((20_261_123_224_048, "x")));
        assert_eq!(version_of("001_x"), None);
        assert_eq!(version_of("snapshot.json"), None);
        assert!(is_migration_file("0002_tighten_t_user.json"));
        assert!(!is_migration_file("0002_tighten_t_user.js"));
        assert!(!is_migration_file("snapshot.json"));
    }
}
