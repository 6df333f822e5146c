//! The Rust names a draft gives: type names from collection names and keys, field names
//! from keys, variant names from values; ASCII, never a keyword, never a name the drafted
//! file uses.

use mongo_schema_contract::naming;
use std::collections::BTreeSet;

/// A Rust variant name for a string value, unique among `taken`.
pub(super) fn variant_name(value: &str, taken: &mut BTreeSet<String>) -> String {
    let mut variant = pascal(value);
    if variant.is_empty() || variant == "Self" || variant.starts_with(|c: char| c.is_ascii_digit()) {
        variant = format!("V{variant}");
    }
    let base = variant.clone();
    let mut n = 2;
    while !taken.insert(variant.clone()) {
        variant = format!("{base}{n}");
        n += 1;
    }
    variant
}

/// `order_items`, `orderItems`, `order-items` → `OrderItems`; `Österreichische Bundesliga`
/// → `OsterreichischeBundesliga` (Latin letters lose their diacritics, other letters are
/// their code points); other characters dropped.
pub fn pascal(name: &str) -> String {
    let mut out = String::new();
    for word in naming::words(name) {
        let word = ascii(&word);
        let mut chars = word.chars();
        if let Some(first) = chars.next() {
            out.push(first.to_ascii_uppercase());
            out.extend(chars);
        }
    }
    out
}

/// A word of a name as ASCII letters and digits: Latin letters lose their diacritics (`ö` →
/// `o`, `ł` → `l`) or are spelled out (`ß` → `ss`, `æ` → `ae`), any other letter or digit is
/// its code point (`東` → `u6771`), the rest is dropped. Drafted identifiers are ASCII: a
/// non-ASCII one compiles, but rustc's `confusable_idents`, `mixed_script_confusables` and
/// `uncommon_codepoints` lints (warnings, errors under `-D warnings`) depend on the other
/// identifiers of the crate the file lands in, which infer cannot see.
fn ascii(word: &str) -> String {
    let mut out = String::new();
    for c in word.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c);
        } else if let Some((_, latin)) = LATIN.iter().find(|(from, _)| from.contains(c)) {
            out.push_str(latin);
        } else if c.is_alphanumeric() {
            out.push_str(&format!("u{:x}", u32::from(c)));
        }
    }
    out
}

/// Latin letters with diacritics, and those spelled with two letters, in ASCII (lowercase:
/// [`naming::words`] lowercases; [`pascal`] capitalizes).
const LATIN: [(&str, &str); 28] = [
    ("àáâãäåāăąǎ", "a"),
    ("çćĉċč", "c"),
    ("ďđð", "d"),
    ("èéêëēĕėęě", "e"),
    ("ĝğġģ", "g"),
    ("ĥħ", "h"),
    ("ìíîïĩīĭįıǐ", "i"),
    ("ĵ", "j"),
    ("ķĸ", "k"),
    ("ĺļľŀł", "l"),
    ("ñńņňŉ", "n"),
    ("òóôõöøōŏőǒ", "o"),
    ("ŕŗř", "r"),
    ("śŝşšș", "s"),
    ("ţťŧț", "t"),
    ("ùúûüũūŭůűųǔ", "u"),
    ("ŵ", "w"),
    ("ýÿŷ", "y"),
    ("źżž", "z"),
    ("æ", "ae"),
    ("œ", "oe"),
    ("ß", "ss"),
    ("þ", "th"),
    ("ĳ", "ij"),
    ("ŋ", "ng"),
    ("ƒ", "f"),
    ("ǆ", "dz"),
    ("ǉ", "lj"),
];

/// A Rust field name for a key: snake case, ASCII letters, digits and `_` (see [`ascii`]).
pub(super) fn snake(key: &str) -> String {
    let words: Vec<String> = naming::words(key).into_iter().map(|w| ascii(&w)).filter(|w| !w.is_empty()).collect();
    let joined = words.join("_");
    match joined.chars().next() {
        None => "field".to_owned(),
        Some(c) if c.is_ascii_digit() => format!("f_{joined}"),
        Some(_) => joined,
    }
}

/// Rust's keywords, strict and reserved (`gen` since edition 2024): no field may be named one.
pub(super) const KEYWORDS: [&str; 51] = [
    "as", "break", "const", "continue", "crate", "else", "enum", "extern", "false", "fn", "for", "if", "impl", "in",
    "let", "loop", "match", "mod", "move", "mut", "pub", "ref", "return", "self", "static", "struct", "super", "trait",
    "true", "type", "unsafe", "use", "where", "while", "async", "await", "dyn", "abstract", "try", "become", "box",
    "do", "final", "macro", "override", "priv", "typeof", "unsized", "virtual", "yield", "gen",
];

/// Type names the drafted file's items must not take (they would shadow what it uses).
pub(super) const RESERVED: [&str; 13] = [
    "Self",
    "Option",
    "Vec",
    "String",
    "Box",
    "Result",
    "Serialize",
    "Deserialize",
    "MongoSchema",
    "Some",
    "None",
    "Ok",
    "Err",
];
