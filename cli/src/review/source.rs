//! The security self-check's last line: "do not hardcode database account passwords in
//! the code". Scans a directory's text files for `mongodb://` and `mongodb+srv://`
//! connection strings that carry a password, and for literal passwords assigned to a name
//! that says it holds one (`let pw = "..."`, `password: "..."`, `DB_PASSWORD=...`).

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
                let found = credentials_in(line).into_iter().chain(assigned_passwords(line));
                scan.findings.extend(found.map(|redacted| SourceFinding { path: path.clone(), line: i + 1, redacted }));
            }
        }
    }
    Ok(())
}

/// Each connection string in `line` that carries a literal password, redacted.
pub fn credentials_in(line: &str) -> Vec<String> {
    crate::redact::credentials(line)
        .into_iter()
        .filter(|c| is_literal(&line[c.password.clone()]))
        .map(|c| format!("{}****{}", &line[c.start..c.password.start], &line[c.password.end..c.end]))
        .collect()
}

/// Names that say they hold a password (compared lowercase, `-` read as `_`): `password`,
/// `passwd`, `pwd`, `secret` anywhere in the name, or `pw` as a whole word of it.
fn names_a_password(name: &str) -> bool {
    let name = name.to_ascii_lowercase().replace('-', "_");
    ["password", "passwd", "pwd", "secret"].iter().any(|w| name.contains(w)) || name.split('_').any(|w| w == "pw")
}

/// Each literal password `line` assigns to a name that says it holds one, redacted: the
/// name, then `= "****"`. The forms: `name = "..."`, `name: "..."`, `"name": "..."`,
/// `name := "..."`, and an unquoted value at the start of a line (`.env`, properties:
/// `DB_PASSWORD=hunter2`). A value read from elsewhere (`env::var(...)`, `${X}`) is not one.
pub fn assigned_passwords(line: &str) -> Vec<String> {
    let bytes = line.as_bytes();
    let is_name = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b == b'-';
    let mut found = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if !is_name(bytes[i]) || (i > 0 && is_name(bytes[i - 1])) {
            i += 1;
            continue;
        }
        let start = i;
        while i < bytes.len() && is_name(bytes[i]) {
            i += 1;
        }
        let name = &line[start..i];
        if !names_a_password(name) {
            continue;
        }
        // a closing quote of a quoted key, then the assignment
        let mut j = i;
        if j < bytes.len() && (bytes[j] == b'"' || bytes[j] == b'\'') {
            j += 1;
        }
        while j < bytes.len() && bytes[j] == b' ' {
            j += 1;
        }
        let op = match &line[j..] {
            rest if rest.starts_with(":=") => 2,
            rest if rest.starts_with("==") => continue,
            rest if rest.starts_with('=') || rest.starts_with(':') => 1,
            _ => continue,
        };
        let mut value = line[j + op..].trim_start();
        // `name: Type = "..."` (a typed binding): the value after the `=`
        if op == 1 && line[j..].starts_with(':') && !value.starts_with(['"', '\'']) {
            if let Some((_, after)) = value.split_once('=').filter(|(_, a)| !a.starts_with('=')) {
                value = after.trim_start();
            }
        }
        let literal = match value.chars().next() {
            Some(q @ ('"' | '\'')) => value[1..].split(q).next().filter(|_| value[1..].contains(q)),
            // unquoted: only where the line is the assignment (an env or properties file)
            Some(_) if line[..start].trim().is_empty() || line[..start].trim() == "export" => {
                value.split_whitespace().next().filter(|v| !v.contains(['(', '.', '[', ',', ';']))
            }
            _ => None,
        };
        if literal.is_some_and(|v| is_literal(v) && v.len() >= 4) {
            found.push(format!("{name} = \"****\""));
        }
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
    fn literal_passwords_assigned_to_a_password_name_are_found() {
        for (line, name) in [
            (r#"let pw = "P@ssw0rd-2024";"#, "pw"),
            (r#"    const DB_PASSWORD: &str = "hunter2!";"#, "DB_PASSWORD"),
            (r#"password: "s3cr3t-value""#, "password"),
            (r#"{"dbPassword": "s3cr3t-value"}"#, "dbPassword"),
            ("DB_PASSWORD=hunter2", "DB_PASSWORD"),
            ("export MONGO_PWD=hunter2", "MONGO_PWD"),
            (r#"secret := "topsecret""#, "secret"),
        ] {
            assert_eq!(assigned_passwords(line), [format!("{name} = \"****\"")], "{line}");
        }
        for line in [
            r#"let pw = std::env::var("MONGO_PW")?;"#,
            "password = os.getenv('DB_PASSWORD')",
            r#"if password == "x" {"#,
            r#"let password_item = item("...");"#,
            r#"password: "${DB_PASSWORD}""#,
            r#"password: "password""#,
            r#"password: "****""#,
            "fn password_item(uri: &UriFacts) -> Item {",
            r#"let pw = "";"#,
            r#"let power = "full";"#,
        ] {
            assert_eq!(assigned_passwords(line), Vec::<String>::new(), "{line}");
        }
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
