//! The security self-check's last line: "do not hardcode database account passwords in
//! the code". Scans a directory's text files for `mongodb://` and `mongodb+srv://`
//! connection strings that carry a password.

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

/// Directories never scanned: build output, dependencies, version control.
const SKIPPED_DIRS: &[&str] = &[".git", "target", "node_modules", ".cache"];
/// Files larger than this are data, not sources or configuration.
const MAX_FILE_BYTES: u64 = 2 * 1024 * 1024;
/// Passwords that stand for one (documentation, templates), never flagged.
const PLACEHOLDERS: &[&str] = &["password", "passwd", "pass", "pwd", "secret"];

/// A connection string with a password, where it was found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceFinding {
    /// The file.
    pub path: PathBuf,
    /// Its line, from 1.
    pub line: usize,
    /// The connection string's scheme, user and hosts, the password replaced by `****`.
    pub redacted: String,
}

impl fmt::Display for SourceFinding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {} (a password written into the file)", self.path.display(), self.line, self.redacted)
    }
}

/// What a scan read and found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Scan {
    /// Text files read.
    pub files: usize,
    /// Connection strings with passwords.
    pub findings: Vec<SourceFinding>,
}

/// Scans every text file under `dir` (skipping `.git`, `target`, `node_modules`).
pub fn scan_source(dir: &Path) -> io::Result<Scan> {
    let mut scan = Scan::default();
    if !dir.is_dir() {
        return Err(io::Error::new(io::ErrorKind::NotFound, "not a directory"));
    }
    walk(dir, &mut scan)?;
    scan.findings.sort_by(|a, b| (&a.path, a.line).cmp(&(&b.path, b.line)));
    Ok(scan)
}

fn walk(dir: &Path, scan: &mut Scan) -> io::Result<()> {
    let mut entries: Vec<_> = std::fs::read_dir(dir)?.collect::<Result<_, _>>()?;
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let path = entry.path();
        let kind = entry.file_type()?;
        if kind.is_dir() {
            let name = entry.file_name();
            if !SKIPPED_DIRS.iter().any(|s| name == *s) {
                walk(&path, scan)?;
            }
        } else if kind.is_file() && entry.metadata()?.len() <= MAX_FILE_BYTES {
            // binary files are not text: skipped
            let Ok(text) = std::fs::read_to_string(&path) else { continue };
            scan.files += 1;
            for (i, line) in text.lines().enumerate() {
                scan.findings.extend(credentials_in(line).into_iter().map(|redacted| SourceFinding {
                    path: path.clone(),
                    line: i + 1,
                    redacted,
                }));
            }
        }
    }
    Ok(())
}

/// Each connection string in `line` that carries a literal password, redacted.
pub fn credentials_in(line: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut rest = line;
    while let Some(start) =
        ["mongodb://", "mongodb+srv://"].iter().filter_map(|s| rest.find(s).map(|i| (i, s.len()))).min()
    {
        let (at, scheme_len) = start;
        let uri = &rest[at..];
        let authority_end = uri[scheme_len..]
            .find(|c: char| c == '/' || c == '?' || c.is_whitespace() || "\"'`)>;".contains(c))
            .map_or(uri.len(), |e| e + scheme_len);
        let authority = &uri[scheme_len..authority_end];
        if let Some((userinfo, hosts)) = authority.rsplit_once('@') {
            if let Some((user, password)) = userinfo.split_once(':') {
                if is_literal(password) {
                    found.push(format!("{}{user}:****@{hosts}", &uri[..scheme_len]));
                }
            }
        }
        rest = &uri[authority_end.max(scheme_len)..];
    }
    found
}

/// Whether a password is written out, not a template's hole (`${DB_PASSWORD}`,
/// `<password>`, `{}`, `%s`, `****`) or a documentation word (`password`).
fn is_literal(password: &str) -> bool {
    let hole = password.starts_with(['$', '<', '{', '%']) || password.chars().all(|c| c == '*' || c == 'x');
    !password.is_empty() && !hole && !PLACEHOLDERS.contains(&password.to_ascii_lowercase().as_str())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literal_passwords_are_found_and_redacted() {
        assert_eq!(
            credentials_in(r#"let uri = "mongodb://app:S3cret-pw@10.0.0.1:27017,10.0.0.2/db_app?authSource=admin";"#),
            ["mongodb://app:****@10.0.0.1:27017,10.0.0.2"]
        );
        assert_eq!(
            credentials_in("MONGODB_URI=mongodb+srv://svc:hunter2@cluster.example.net"),
            ["mongodb+srv://svc:****@cluster.example.net"]
        );
        assert_eq!(
            credentials_in("a: mongodb://u:p%40ss@h/x b: 'mongodb://v:w@k'"),
            ["mongodb://u:****@h", "mongodb://v:****@k"]
        );
    }

    #[test]
    fn templates_placeholders_and_plain_uris_are_not_findings() {
        for line in [
            "mongodb://127.0.0.1:27017/",
            "mongodb://app@db1/",
            "url = \"mongodb://app:${DB_PASSWORD}@db1/\"",
            "mongodb://mongouser:password@10.0.0.100:27017/admin",
            "mongodb://u:<password>@h",
            "format!(\"mongodb://{user}:{}@{host}\", pw)",
            "mongodb://app:****@db1:27017",
            "std::env::var(\"MONGODB_URI\")",
        ] {
            assert_eq!(credentials_in(line), Vec::<String>::new(), "{line}");
        }
    }
}
