//! RULES.md stays true: every compiler message it quotes (each line of a `text` block
//! that starts with `error`) is, word for word, a line of a UI test's `.stderr` file,
//! i.e. what the compiler says today; and the rule ids it documents are the contract's.

use std::collections::BTreeSet;
use std::path::Path;

fn stderr_lines(dir: &Path, out: &mut BTreeSet<String>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            stderr_lines(&path, out);
        } else if path.extension().is_some_and(|e| e == "stderr") {
            out.extend(std::fs::read_to_string(&path).unwrap().lines().map(str::to_owned));
        }
    }
}

/// The lines of RULES.md's ```text blocks that quote an error.
fn quoted_errors(rules: &str) -> Vec<String> {
    let (mut quotes, mut in_text) = (Vec::new(), false);
    for line in rules.lines() {
        match line.trim_end() {
            "```text" => in_text = true,
            "```" => in_text = false,
            quote if in_text && quote.starts_with("error") => quotes.push(quote.to_owned()),
            _ => {}
        }
    }
    quotes
}

#[test]
fn every_quoted_message_is_what_the_compiler_says() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let rules = std::fs::read_to_string(root.join("../RULES.md")).unwrap();
    let mut said = BTreeSet::new();
    stderr_lines(&root.join("../uitests/ui"), &mut said);
    let quotes = quoted_errors(&rules);
    assert!(quotes.len() >= 20, "RULES.md quotes {} messages", quotes.len());
    let stale: Vec<&String> = quotes.iter().filter(|q| !said.contains(*q)).collect();
    assert!(stale.is_empty(), "RULES.md quotes messages no UI test produces:\n{}", {
        let lines: Vec<&str> = stale.iter().map(|s| s.as_str()).collect();
        lines.join("\n")
    });
}

#[test]
fn the_standard_is_cited_by_its_public_title_and_every_rule_is_documented() {
    let rules = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../RULES.md")).unwrap();
    assert!(rules.contains("\"Data Modeling and Schema Design Specifications\""));
    assert!(!rules.contains("Specification ") && !rules.contains("(Spec "), "cite the standard by its title only");
    let ids = mongo_schema_contract::rules::WAIVABLE_RULES
        .iter()
        .chain(mongo_schema_contract::rules::UNWAIVABLE_RULES.iter().map(|(id, _)| id))
        .chain(mongo_schema_contract::rules::QUERY_RULES);
    for id in ids.chain(&["system_db"]) {
        assert!(rules.contains(&format!("## `{id}`")), "RULES.md has no section for `{id}`");
    }
}

#[test]
fn the_quote_extractor_reads_text_blocks_only() {
    let doc = "```rust\nerror: not a quote\n```\n```text\nerror: one\nnote: no\n```\nerror: outside\n";
    assert_eq!(quoted_errors(doc), ["error: one"]);
}
