//! Naming rules of the data-modelling standard, shared by the derive (compile time) and
//! the runtime (e.g. time-suffixed collection names chosen at run time).
//!
//! Every check returns `Ok(())` or a [`NameError`] whose message says what is wrong and
//! what to write instead. Dependency-free on purpose: every user compiles it.

use std::fmt;

/// Why a name was refused. `rule` is the rule id of SPEC.md's table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NameError {
    pub rule: &'static str,
    pub message: String,
    /// `false` for MongoDB's hard limits and the standard's red lines.
    pub waivable: bool,
}

impl fmt::Display for NameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.rule, self.message)
    }
}

impl std::error::Error for NameError {}

fn err(rule: &'static str, waivable: bool, message: String) -> Result<(), NameError> {
    Err(NameError { rule, message, waivable })
}

/// Databases MongoDB reserves for itself (Specification 1, a red line).
pub const SYSTEM_DATABASES: [&str; 3] = ["admin", "local", "config"];

/// Characters MongoDB forbids in database names on any platform.
pub const DB_FORBIDDEN_CHARS: &[char] = &['/', '\\', '.', ' ', '"', '$', '*', '<', '>', ':', '|', '?', '\0'];

/// MongoDB's limit on a database name, in bytes.
pub const DB_NAME_MAX_BYTES: usize = 64;

fn is_snake_lower(s: &str) -> bool {
    s.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
}

/// `system_db`: business data never lives in `admin`, `local` or `config` (Specification 1).
pub fn check_system_db(name: &str) -> Result<(), NameError> {
    if SYSTEM_DATABASES.contains(&name) {
        return err(
            "system_db",
            false,
            format!("`{name}` is a MongoDB system database; business data needs its own database, e.g. `db_{name}_data`"),
        );
    }
    Ok(())
}

/// `db_name`: `db_` + lowercase letters, digits and underscores, at most 64 bytes
/// (Specification 2: case-sensitive names broke production once).
pub fn check_db_name(name: &str) -> Result<(), NameError> {
    if let Some(c) = name.chars().find(|c| DB_FORBIDDEN_CHARS.contains(c)) {
        return err("db_name", false, format!("database name `{name}` contains {c:?}, which MongoDB forbids in database names"));
    }
    if name.is_empty() || name.len() > DB_NAME_MAX_BYTES {
        return err("db_name", false, format!("database name `{name}` is {} bytes; MongoDB allows 1 to {DB_NAME_MAX_BYTES}", name.len()));
    }
    if !name.starts_with("db_") || !is_snake_lower(name) || name.len() == 3 {
        let suggestion = suggest_snake("db_", name);
        return err("db_name", true, format!("database name `{name}` should be `db_` + lowercase letters, digits and underscores, e.g. `{suggestion}`"));
    }
    Ok(())
}

/// `collection_name`: `t_` + module_entity in lowercase snake case; a time suffix such as
/// `t_log_202403` is fine. `system.` and `$` are MongoDB's own and never waivable
/// (Specification 3: a `system.orders` collection was skipped by backups).
pub fn check_collection_name(name: &str) -> Result<(), NameError> {
    if name.is_empty() {
        return err("collection_name", false, "collection name is empty".to_owned());
    }
    if name.starts_with("system.") {
        return err("collection_name", false, format!("`{name}` uses MongoDB's reserved `system.` prefix; backups and tools skip such collections. Use e.g. `t_{}`", &name[7..]));
    }
    if name.contains('$') || name.contains('\0') {
        return err("collection_name", false, format!("collection name `{name}` contains `$` or NUL, which MongoDB reserves"));
    }
    if !name.starts_with("t_") || !is_snake_lower(name) || name.len() == 2 {
        let suggestion = suggest_snake("t_", name);
        return err("collection_name", true, format!("collection name `{name}` should be `t_` + module_entity in lowercase snake case (a time suffix like `t_log_202403` is fine), e.g. `{suggestion}`"));
    }
    Ok(())
}

/// A lowercase snake-case rendering of `name` with `prefix`, for suggestions.
pub fn suggest_snake(prefix: &str, name: &str) -> String {
    let trimmed = name.strip_prefix(prefix).unwrap_or(name);
    let mut out = String::from(prefix);
    let mut prev_lower = false;
    for c in trimmed.chars() {
        if c.is_ascii_uppercase() {
            if prev_lower {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
            prev_lower = false;
        } else if c.is_ascii_alphanumeric() {
            out.push(c);
            prev_lower = true;
        } else if !out.ends_with('_') {
            out.push('_');
            prev_lower = false;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn system_databases_are_refused_without_waiver() {
        let e = check_system_db("admin").unwrap_err();
        assert_eq!((e.rule, e.waivable), ("system_db", false));
        assert!(check_system_db("db_admin").is_ok());
    }

    #[test]
    fn db_names_follow_the_standard() {
        assert!(check_db_name("db_user_center").is_ok());
        assert_eq!(check_db_name("UserCenter").unwrap_err().message, "database name `UserCenter` should be `db_` + lowercase letters, digits and underscores, e.g. `db_user_center`");
        assert!(!check_db_name("db.user").unwrap_err().waivable);
        assert!(check_db_name(&format!("db_{}", "a".repeat(62))).is_err());
        assert!(check_db_name(&format!("db_{}", "a".repeat(61))).is_ok());
    }

    #[test]
    fn collection_names_follow_the_standard() {
        for ok in ["t_order_detail", "t_log_202403", "t_system_config"] {
            assert!(check_collection_name(ok).is_ok(), "{ok}");
        }
        assert!(!check_collection_name("system.orders").unwrap_err().waivable);
        assert!(!check_collection_name("t_log$202403").unwrap_err().waivable);
        let e = check_collection_name("OrderDetail").unwrap_err();
        assert!(e.waivable && e.message.contains("`t_order_detail`"), "{e}");
    }
}
