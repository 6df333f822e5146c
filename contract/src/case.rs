//! serde's `rename_all` rules, applied exactly as serde applies them: the derive names
//! fields and variants with them, and `schema infer` drafts `rename_all` only where they
//! give the deployment's keys.

/// One of serde's `rename_all` rules.
#[allow(missing_docs)] // the variants are serde's rules of the same names
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RenameRule {
    Lower,
    Upper,
    Pascal,
    Camel,
    Snake,
    ScreamingSnake,
    Kebab,
    ScreamingKebab,
}

const RULES: &[(&str, RenameRule)] = &[
    ("lowercase", RenameRule::Lower),
    ("UPPERCASE", RenameRule::Upper),
    ("PascalCase", RenameRule::Pascal),
    ("camelCase", RenameRule::Camel),
    ("snake_case", RenameRule::Snake),
    ("SCREAMING_SNAKE_CASE", RenameRule::ScreamingSnake),
    ("kebab-case", RenameRule::Kebab),
    ("SCREAMING-KEBAB-CASE", RenameRule::ScreamingKebab),
];

impl RenameRule {
    /// The rule `rename_all = "..."` names, or the error serde gives for another name.
    #[allow(clippy::should_implement_trait)] // the derive's own error text, not `FromStr`'s
    pub fn from_str(name: &str) -> Result<Self, String> {
        RULES.iter().find(|(n, _)| *n == name).map(|(_, rule)| *rule).ok_or_else(|| {
            let valid: Vec<String> = RULES.iter().map(|(n, _)| format!("\"{n}\"")).collect();
            format!("unknown rename rule `rename_all = \"{name}\"`, expected one of {}", valid.join(", "))
        })
    }

    /// A variant name (PascalCase in Rust) under this rule.
    pub fn apply_to_variant(self, variant: &str) -> String {
        match self {
            RenameRule::Pascal => variant.to_owned(),
            RenameRule::Lower => variant.to_ascii_lowercase(),
            RenameRule::Upper => variant.to_ascii_uppercase(),
            RenameRule::Camel => lower_first(variant),
            RenameRule::Snake => pascal_to_snake(variant),
            RenameRule::ScreamingSnake => pascal_to_snake(variant).to_ascii_uppercase(),
            RenameRule::Kebab => pascal_to_snake(variant).replace('_', "-"),
            RenameRule::ScreamingKebab => pascal_to_snake(variant).to_ascii_uppercase().replace('_', "-"),
        }
    }

    /// A field name (snake_case in Rust) under this rule.
    pub fn apply_to_field(self, field: &str) -> String {
        match self {
            RenameRule::Lower | RenameRule::Snake => field.to_owned(),
            RenameRule::Upper | RenameRule::ScreamingSnake => field.to_ascii_uppercase(),
            RenameRule::Pascal => snake_to_pascal(field),
            RenameRule::Camel => lower_first(&snake_to_pascal(field)),
            RenameRule::Kebab => field.replace('_', "-"),
            RenameRule::ScreamingKebab => field.to_ascii_uppercase().replace('_', "-"),
        }
    }
}

fn lower_first(name: &str) -> String {
    let mut chars = name.chars();
    chars.next().map(|first| first.to_ascii_lowercase().to_string() + chars.as_str()).unwrap_or_default()
}

fn pascal_to_snake(name: &str) -> String {
    let mut snake = String::new();
    for (i, ch) in name.char_indices() {
        if i > 0 && ch.is_uppercase() {
            snake.push('_');
        }
        snake.push(ch.to_ascii_lowercase());
    }
    snake
}

fn snake_to_pascal(name: &str) -> String {
    let mut pascal = String::new();
    let mut capitalize = true;
    for ch in name.chars() {
        if ch == '_' {
            capitalize = true;
        } else if capitalize {
            pascal.push(ch.to_ascii_uppercase());
            capitalize = false;
        } else {
            pascal.push(ch);
        }
    }
    pascal
}

#[cfg(test)]
mod tests {
    use super::RenameRule::{self, *};

    #[test]
    fn rules_match_serde() {
        let fields: &[(&str, [&str; 8])] = &[
            ("outcome", ["outcome", "OUTCOME", "Outcome", "outcome", "outcome", "OUTCOME", "outcome", "OUTCOME"]),
            (
                "very_tasty",
                [
                    "very_tasty",
                    "VERY_TASTY",
                    "VeryTasty",
                    "veryTasty",
                    "very_tasty",
                    "VERY_TASTY",
                    "very-tasty",
                    "VERY-TASTY",
                ],
            ),
            ("a", ["a", "A", "A", "a", "a", "A", "a", "A"]),
            ("z42", ["z42", "Z42", "Z42", "z42", "z42", "Z42", "z42", "Z42"]),
        ];
        let rules = [Lower, Upper, Pascal, Camel, Snake, ScreamingSnake, Kebab, ScreamingKebab];
        for (field, expected) in fields {
            for (rule, want) in rules.iter().zip(expected) {
                assert_eq!(rule.apply_to_field(field), *want, "{rule:?} {field}");
            }
        }
        assert_eq!(Snake.apply_to_variant("VeryTasty"), "very_tasty");
        assert_eq!(Camel.apply_to_variant("VeryTasty"), "veryTasty");
        assert_eq!(ScreamingKebab.apply_to_variant("VeryTasty"), "VERY-TASTY");
        assert_eq!(Camel.apply_to_variant("Über"), "Über");
        assert!(RenameRule::from_str("camelcase").unwrap_err().contains("\"camelCase\""));
    }
}
