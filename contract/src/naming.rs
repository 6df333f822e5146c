//! Naming rules of the data-modelling standard (README.md, RULES.md): databases,
//! collections and fields, checked by the derive at compile time and by the runtime for
//! names chosen at run time (e.g. time-suffixed collections).
//!
//! Every check returns `Ok(())` or a [`NameError`] whose message says what is wrong and
//! what to write instead.

use crate::rules;
use std::borrow::Cow;
use std::fmt;

/// Why a name was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NameError {
    /// The rule id, as in RULES.md (one of [`crate::rules`]' ids).
    pub rule: &'static str,
    /// What is wrong and what to write instead.
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

/// Databases MongoDB reserves for itself (a red line of the standard).
pub const SYSTEM_DATABASES: [&str; 3] = ["admin", "local", "config"];

/// Characters MongoDB forbids in database names on any platform.
pub const DB_FORBIDDEN_CHARS: &[char] = &['/', '\\', '.', ' ', '"', '$', '*', '<', '>', ':', '|', '?', '\0'];

/// MongoDB's limit on a database name, in bytes.
pub const DB_NAME_MAX_BYTES: usize = 64;

fn is_snake_lower(s: &str) -> bool {
    s.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
}

/// `system_db`: business data never lives in `admin`, `local` or `config`.
pub fn check_system_db(name: &str) -> Result<(), NameError> {
    Conventions::default().check_system_db(name)
}

/// The standard's database prefix.
pub const DB_PREFIX: &str = "db_";
/// The standard's collection prefix.
pub const COLLECTION_PREFIX: &str = "t_";

/// `db_name`: `db_` + lowercase letters, digits and underscores, at most 64 bytes
/// (case-sensitive names broke production once).
pub fn check_db_name(name: &str) -> Result<(), NameError> {
    Conventions::default().check_db_name(name)
}

/// `collection_name`: `t_` + module_entity in lowercase snake case; a time suffix such as
/// `t_log_202403` is fine. `system.` and `$` are MongoDB's own and never waivable
/// (a `system.orders` collection was skipped by backups).
pub fn check_collection_name(name: &str) -> Result<(), NameError> {
    Conventions::default().check_collection_name(name)
}

/// What a field's name says it holds: [`Conventions::name_kinds`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct NameKinds {
    /// Money ([`is_money_name`] or one of the crate's money words last).
    pub money: bool,
    /// A date ([`is_date_name`] or one of the crate's date words last).
    pub date: bool,
    /// A status flag ([`is_status_name`]).
    pub status: bool,
}

/// The naming conventions a crate follows: the standard's by default; a crate's
/// `[package.metadata.mongo-schema]` table may change the prefixes and add short names
/// and vocabulary words. MongoDB's own limits do not change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Conventions {
    /// Every database name starts with this (`db_`; empty: no prefix).
    pub db_prefix: String,
    /// Every collection name starts with this (`t_`; empty: no prefix).
    pub collection_prefix: String,
    /// Short names allowed besides [`SHORT_NAMES_ALLOWED`].
    pub short_names: Vec<String>,
    /// Last words that make a field money, besides [`MONEY_WORDS`].
    pub money_words: Vec<String>,
    /// Last words that make a field a date, besides [`DATE_WORDS`].
    pub date_words: Vec<String>,
}

impl Default for Conventions {
    /// The standard's conventions.
    fn default() -> Self {
        Conventions {
            db_prefix: DB_PREFIX.to_owned(),
            collection_prefix: COLLECTION_PREFIX.to_owned(),
            short_names: Vec::new(),
            money_words: Vec::new(),
            date_words: Vec::new(),
        }
    }
}

/// `prefix + lowercase letters...`, as the messages say it.
fn prefixed(prefix: &str) -> String {
    match prefix {
        "" => String::new(),
        _ => format!("`{prefix}` + "),
    }
}

impl Conventions {
    /// `system_db`, with a suggestion under these conventions' database prefix.
    pub fn check_system_db(&self, name: &str) -> Result<(), NameError> {
        if SYSTEM_DATABASES.contains(&name) {
            let prefix = &self.db_prefix;
            return err(
                rules::SYSTEM_DB,
                false,
                format!("`{name}` is a MongoDB system database; business data needs its own database, e.g. `{prefix}{name}_data`"),
            );
        }
        Ok(())
    }

    /// `db_name` under these conventions (MongoDB's forbidden characters and 64-byte
    /// limit are never waivable).
    pub fn check_db_name(&self, name: &str) -> Result<(), NameError> {
        if let Some(c) = name.chars().find(|c| DB_FORBIDDEN_CHARS.contains(c)) {
            return err(
                rules::DB_NAME,
                false,
                format!("database name `{name}` contains {c:?}, which MongoDB forbids in database names"),
            );
        }
        if name.is_empty() || name.len() > DB_NAME_MAX_BYTES {
            return err(
                rules::DB_NAME,
                false,
                format!("database name `{name}` is {} bytes; MongoDB allows 1 to {DB_NAME_MAX_BYTES}", name.len()),
            );
        }
        let prefix = &self.db_prefix;
        if !name.starts_with(prefix.as_str()) || !is_snake_lower(name) || name.len() == prefix.len() {
            let suggestion = suggest_snake(prefix, name);
            return err(
                rules::DB_NAME,
                true,
                format!(
                    "database name `{name}` should be {}lowercase letters, digits and underscores, e.g. `{suggestion}` \
                     (a team with other conventions sets its own crate-wide in Cargo.toml: \
                     `[package.metadata.mongo-schema]` `db_prefix = \"\"`)",
                    prefixed(prefix)
                ),
            );
        }
        Ok(())
    }

    /// `collection_name` under these conventions (`system.`, `$` and empty names are
    /// never waivable).
    pub fn check_collection_name(&self, name: &str) -> Result<(), NameError> {
        if name.is_empty() {
            return err(rules::COLLECTION_NAME, false, "collection name is empty".to_owned());
        }
        let prefix = &self.collection_prefix;
        if let Some(rest) = name.strip_prefix("system.") {
            return err(rules::COLLECTION_NAME, false, format!("`{name}` uses MongoDB's reserved `system.` prefix; backups and tools skip such collections. Use e.g. `{prefix}{rest}`"));
        }
        if name.contains('$') || name.contains('\0') {
            return err(
                rules::COLLECTION_NAME,
                false,
                format!("collection name `{name}` contains `$` or NUL, which MongoDB reserves"),
            );
        }
        if !name.starts_with(prefix.as_str()) || !is_snake_lower(name) || name.len() == prefix.len() {
            let suggestion = suggest_snake(prefix, name);
            return err(rules::COLLECTION_NAME, true, format!("collection name `{name}` should be {}module_entity in lowercase snake case (a time suffix like `{prefix}log_202403` is fine), e.g. `{suggestion}` (a team with other conventions sets its own crate-wide in Cargo.toml: `[package.metadata.mongo-schema]` `collection_prefix = \"\"`)", prefixed(prefix)));
        }
        Ok(())
    }

    /// `field_name` under these conventions: [`check_field_name`] with this crate's
    /// short names allowed too.
    pub fn check_field_name(&self, name: &str) -> Result<(), NameError> {
        check_field_name_with(name, &self.short_names)
    }

    /// Whether `name` is a short name these conventions allow.
    pub fn allows_short_name(&self, name: &str) -> bool {
        SHORT_NAMES_ALLOWED.contains(&name) || self.short_names.iter().any(|s| s == name)
    }

    /// [`is_money_name`] with this crate's money words too.
    pub fn is_money_name(&self, name: &str) -> bool {
        self.name_kinds(name).money
    }

    /// [`is_date_name`] with this crate's date words too.
    pub fn is_date_name(&self, name: &str) -> bool {
        self.name_kinds(name).date
    }

    /// What `name` says its field holds under these conventions, from one split of the
    /// name into words: the derive asks it of every field of every model on every build.
    pub fn name_kinds(&self, name: &str) -> NameKinds {
        let words = lower_words(name);
        let last = words.last().map(Cow::as_ref);
        let last_in = |vocabulary: &[&str], more: &[String]| {
            last.is_some_and(|w| vocabulary.contains(&w) || more.iter().any(|m| m == w))
        };
        NameKinds {
            money: last_in(MONEY_WORDS, &self.money_words)
                || words.iter().any(|w| MONEY_ANYWHERE.contains(&w.as_ref())),
            date: last_in(DATE_WORDS, &self.date_words),
            status: last_in(STATUS_WORDS, &[]),
        }
    }
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

/// One naming style for the fields of a type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FieldCase {
    /// `userName`, `createTime`
    Camel,
    /// `user_name`, `create_time`
    Snake,
}

impl FieldCase {
    /// The attribute spellings: `"camelCase"`, `"snake_case"`.
    pub const NAMES: [&'static str; 2] = ["camelCase", "snake_case"];

    /// The style an attribute spelling names.
    pub fn from_name(name: &str) -> Option<Self> {
        match name {
            "camelCase" => Some(FieldCase::Camel),
            "snake_case" => Some(FieldCase::Snake),
            _ => None,
        }
    }

    /// The attribute spelling of this style.
    pub fn name(self) -> &'static str {
        match self {
            FieldCase::Camel => "camelCase",
            FieldCase::Snake => "snake_case",
        }
    }

    /// Whether `name` is written in this style (a single lowercase word fits both).
    pub fn fits(self, name: &str) -> bool {
        // letters of any script: `straße` is a lowercase word
        let starts_lower = name.chars().next().is_some_and(char::is_lowercase);
        match self {
            FieldCase::Camel => starts_lower && name.chars().all(char::is_alphanumeric),
            FieldCase::Snake => {
                let snake = name.chars().all(|c| c.is_lowercase() || c.is_numeric() || c == '_');
                starts_lower && snake && !name.contains("__") && !name.ends_with('_')
            }
        }
    }

    /// `name` rewritten in this style, for suggestions.
    pub fn convert(self, name: &str) -> String {
        let words = words(name);
        match self {
            FieldCase::Snake => words.join("_"),
            FieldCase::Camel => {
                let mut out = String::new();
                for (i, word) in words.iter().enumerate() {
                    let mut chars = word.chars();
                    match chars.next() {
                        Some(first) if i > 0 => {
                            out.push(first.to_ascii_uppercase());
                            out.push_str(chars.as_str());
                        }
                        _ => out.push_str(word),
                    }
                }
                out
            }
        }
    }
}

/// The one style `name` fits, when it fits exactly one (`userName` → camelCase,
/// `user_name` → snake_case, `email` → either, so `None`).
pub fn infer_case(name: &str) -> Option<FieldCase> {
    match (FieldCase::Camel.fits(name), FieldCase::Snake.fits(name)) {
        (true, false) => Some(FieldCase::Camel),
        (false, true) => Some(FieldCase::Snake),
        _ => None,
    }
}

/// The lowercase words of a camelCase, PascalCase, snake_case or kebab-case name.
pub fn words(name: &str) -> Vec<String> {
    let mut words: Vec<String> = Vec::new();
    let mut current = String::new();
    let mut prev_lower = false;
    for c in name.chars() {
        if !c.is_alphanumeric() {
            words.extend((!current.is_empty()).then(|| std::mem::take(&mut current)));
            prev_lower = false;
            continue;
        }
        if c.is_uppercase() && prev_lower {
            words.push(std::mem::take(&mut current));
        }
        prev_lower = c.is_lowercase() || c.is_ascii_digit();
        current.extend(c.to_lowercase());
    }
    words.extend((!current.is_empty()).then_some(current));
    words
}

/// The short names everyone reads the same way: the only names of one or two characters
/// that `field_name` accepts. `k` and `v` are the pair `$arrayToObject` and
/// `$objectToArray` require (the attribute pattern's `{k, v}`); `x`, `y`, `z` are
/// coordinates; `ts` a timestamp.
pub const SHORT_NAMES_ALLOWED: &[&str] = &["id", "ip", "os", "ua", "tz", "ts", "k", "v", "x", "y", "z"];

/// The English words of one or two letters, which are names, not abbreviations: a message's
/// recipient is `to`, a change's author `by`, an offset `at`. The abbreviation rule never
/// calls them short.
pub const SHORT_WORDS: &[&str] = &[
    "am", "an", "as", "at", "be", "by", "do", "go", "he", "if", "in", "is", "it", "me", "my", "no", "of", "ok", "on",
    "or", "so", "to", "up", "us", "we",
];

/// Longest name the abbreviation rule calls short: a name of at most this many
/// characters must be in [`SHORT_NAMES_ALLOWED`] (or the crate's own list).
pub const SHORT_NAME_MAX_CHARS: usize = 2;

/// `field_name`: no leading `_` (except `_id`), no `$` or `.`, written in camelCase or
/// snake_case, and no meaningless abbreviation (`UN`, `oi`, `CT` and four spellings of
/// one field cost a team hours of empty query results). See [`abbreviation`].
pub fn check_field_name(name: &str) -> Result<(), NameError> {
    check_field_name_with(name, &[])
}

fn check_field_name_with(name: &str, short_names: &[String]) -> Result<(), NameError> {
    if name == "_id" {
        return Ok(());
    }
    if name.contains('$') || name.contains('.') || name.contains('\0') {
        return err(rules::FIELD_NAME, false, format!("field `{name}` contains `$`, `.` or NUL: MongoDB reads `.` as a path and `$` as an operator, so the field cannot be queried or updated normally; rename it, e.g. `{}`", FieldCase::Camel.convert(name)));
    }
    if let Some(rest) = name.strip_prefix('_') {
        return err(rules::FIELD_NAME, true, format!("field `{name}` starts with `_`, which is for system fields such as `_id` and invites conflicts with them; rename it, e.g. `{}`", FieldCase::Camel.convert(rest)));
    }
    if !short_names.iter().any(|s| s == name) {
        if let Some(why) = abbreviation(name) {
            let allowed = SHORT_NAMES_ALLOWED.iter().copied().chain(short_names.iter().map(String::as_str));
            let allowed: Vec<&str> = allowed.collect();
            return err(rules::FIELD_NAME, true, format!("field `{name}` looks like a meaningless abbreviation ({}); spell out what it holds, e.g. `userName` rather than `UN`, `createTime` rather than `CT` (allowed short names: {}; add a crate's own in `[package.metadata.mongo-schema] short_names`)", why.reason(), allowed.join(", ")));
        }
    }
    if FieldCase::Camel.fits(name) || FieldCase::Snake.fits(name) {
        return Ok(());
    }
    err(rules::FIELD_NAME, true, format!("field `{name}` is neither camelCase nor snake_case; write `{}` or `{}` (whichever the type uses), e.g. with `#[serde(rename_all = \"camelCase\")]`", FieldCase::Camel.convert(name), FieldCase::Snake.convert(name)))
}

/// Why `field_name` calls a name a meaningless abbreviation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Abbreviation {
    /// One or two characters, not an allowed short name (`un`, `oi`, `a`).
    TooShort,
    /// Two or more letters and no lowercase one (`UN`, `CT`, `URL`, `SKU_ID`).
    AllCapitals,
}

impl Abbreviation {
    fn reason(self) -> &'static str {
        match self {
            Abbreviation::TooShort => "one or two characters, and not an allowed short name",
            Abbreviation::AllCapitals => "all capitals",
        }
    }
}

/// The abbreviation rule, the whole of it: a name is a meaningless abbreviation when it
/// has at most [`SHORT_NAME_MAX_CHARS`] characters and is neither in [`SHORT_NAMES_ALLOWED`]
/// nor an English word ([`SHORT_WORDS`]: `to`, `by`, `at`, ...),
/// or when it has two letters or more and none of them is lowercase. Names of three
/// characters or more with a lowercase letter (`pwd`, `qty`, `age`, `sku`) are not judged:
/// no rule can tell a word from a shortening of one, and the standard's examples
/// (`UN`, `oi`, `CT`) are all short or all capitals.
pub fn abbreviation(name: &str) -> Option<Abbreviation> {
    let letters = name.chars().filter(|c| c.is_alphabetic()).count();
    if letters >= 2 && !name.chars().any(char::is_lowercase) {
        return Some(Abbreviation::AllCapitals);
    }
    if name.chars().count() <= SHORT_NAME_MAX_CHARS
        && !SHORT_NAMES_ALLOWED.contains(&name)
        && !SHORT_WORDS.contains(&name)
    {
        return Some(Abbreviation::TooShort);
    }
    None
}

/// `field_name`: the field is written in the type's one style.
pub fn check_field_case(name: &str, case: FieldCase, why: &str) -> Result<(), NameError> {
    if name == "_id" || case.fits(name) {
        return Ok(());
    }
    err(rules::FIELD_NAME, true, format!("field `{name}` is not {}, the style of this type ({why}); one style per collection keeps queries from missing fields: write `{}`", case.name(), case.convert(name)))
}

/// Last words that make a field a money amount (stored as Decimal128, never a double).
pub const MONEY_WORDS: &[&str] = &[
    "amount",
    "price",
    "total",
    "subtotal",
    "cost",
    "fee",
    "fees",
    "balance",
    "tax",
    "vat",
    "discount",
    "refund",
    "payment",
    "salary",
    "wage",
    "wages",
    "income",
    "revenue",
    "profit",
    "fare",
    "charge",
    "deposit",
    "payout",
    "commission",
    "bonus",
    "tip",
    "budget",
    "money",
    "cash",
    "rebate",
    "surcharge",
    "prepayment",
];

/// Words that make a field a money amount wherever they appear (`amountDue`, `priceOld`).
const MONEY_ANYWHERE: &[&str] = &["amount", "price", "balance", "salary", "money"];

/// Last words that make a field a date (stored as a BSON date, never a string).
pub const DATE_WORDS: &[&str] =
    &["time", "date", "at", "timestamp", "datetime", "birthday", "birthdate", "deadline", "expiry", "dob"];

/// Last words that make a field a status flag (a string enum, not a number).
pub const STATUS_WORDS: &[&str] = &["status", "state", "type", "kind", "stage", "phase", "flag"];

/// [`words`] without a string a word: for an ASCII name (nearly every field name) the
/// words are slices of it, lowercased only when they hold a capital. The derive asks
/// several vocabularies about every field of every model, on every build.
fn lower_words(name: &str) -> Vec<Cow<'_, str>> {
    if !name.is_ascii() {
        return words(name).into_iter().map(Cow::Owned).collect();
    }
    let mut slices = Vec::new();
    let (mut start, mut prev_lower) = (None, false);
    for (i, b) in name.bytes().enumerate() {
        if !b.is_ascii_alphanumeric() {
            slices.extend(start.take().map(|s| &name[s..i]));
            prev_lower = false;
            continue;
        }
        if b.is_ascii_uppercase() && prev_lower {
            slices.extend(start.take().map(|s| &name[s..i]));
        }
        start.get_or_insert(i);
        prev_lower = b.is_ascii_lowercase() || b.is_ascii_digit();
    }
    slices.extend(start.map(|s| &name[s..]));
    slices
        .into_iter()
        .map(|w| match w.bytes().any(|b| b.is_ascii_uppercase()) {
            true => Cow::Owned(w.to_ascii_lowercase()),
            false => Cow::Borrowed(w),
        })
        .collect()
}

fn last_word_in<S: AsRef<str>>(name: &str, vocabulary: &[S]) -> bool {
    lower_words(name).last().is_some_and(|w| vocabulary.iter().any(|v| v.as_ref() == w))
}

/// `totalAmount`, `unit_price`, `shippingFee`: a money field by its name.
pub fn is_money_name(name: &str) -> bool {
    let words = lower_words(name);
    words.last().is_some_and(|w| MONEY_WORDS.contains(&w.as_ref()))
        || words.iter().any(|w| MONEY_ANYWHERE.contains(&w.as_ref()))
}

/// `createTime`, `created_at`, `birthday`: a date field by its name.
pub fn is_date_name(name: &str) -> bool {
    last_word_in(name, DATE_WORDS)
}

/// `status`, `orderState`, `user_type`: a status flag by its name.
pub fn is_status_name(name: &str) -> bool {
    last_word_in(name, STATUS_WORDS)
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
        assert_eq!(check_db_name("UserCenter").unwrap_err().message, "database name `UserCenter` should be `db_` + lowercase letters, digits and underscores, e.g. `db_user_center` (a team with other conventions sets its own crate-wide in Cargo.toml: `[package.metadata.mongo-schema]` `db_prefix = \"\"`)");
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

    #[test]
    fn field_names_follow_the_standard() {
        for ok in ["_id", "userName", "user_name", "email", "id", "ip", "orderItems", "createTime", "level2"] {
            assert!(check_field_name(ok).is_ok(), "{ok}");
        }
        for bad in ["UN", "oi", "CT", "URL", "a", "_total", "Create_Time", "UserName", "user-name", "a.b", "$set"] {
            assert_eq!(check_field_name(bad).unwrap_err().rule, "field_name", "{bad}");
        }
        assert!(!check_field_name("a.b").unwrap_err().waivable);
        assert!(check_field_name("_total").unwrap_err().message.contains("`total`"));
        assert!(check_field_name("Create_Time").unwrap_err().message.contains("`createTime` or `create_time`"));
    }

    #[test]
    fn the_abbreviation_rule_has_two_clauses_and_a_list() {
        // every allowed short name passes, in both styles
        for ok in SHORT_NAMES_ALLOWED {
            assert_eq!(abbreviation(ok), None, "{ok}");
            assert!(check_field_name(ok).is_ok(), "{ok}");
        }
        // the attribute pattern's pair, and a timestamp
        for ok in ["k", "v", "ts"] {
            assert!(check_field_name(ok).is_ok(), "{ok}");
        }
        // one or two characters, not listed
        for short in ["a", "un", "oi", "ct", "n1", "K2", "é"] {
            assert_eq!(abbreviation(short), Some(Abbreviation::TooShort), "{short}");
        }
        // all capitals, whatever the length; one capital letter alone is short, not capitals
        for caps in ["UN", "CT", "URL", "SKU_ID", "ID", "AB2"] {
            assert_eq!(abbreviation(caps), Some(Abbreviation::AllCapitals), "{caps}");
        }
        assert_eq!(abbreviation("K"), Some(Abbreviation::TooShort));
        // real words are names: a message's recipient is `to`
        for word in SHORT_WORDS {
            assert_eq!(abbreviation(word), None, "{word}");
            assert!(check_field_name(word).is_ok(), "{word}");
        }
        assert_eq!(abbreviation("TO"), Some(Abbreviation::AllCapitals));
        // three characters or more with a lowercase letter are not judged
        for word in ["pwd", "msg", "qty", "age", "sku", "url", "uid", "lat", "userId", "x1y"] {
            assert_eq!(abbreviation(word), None, "{word}");
        }
        let message = check_field_name("un").unwrap_err().message;
        assert!(message.contains("one or two characters") && message.contains("k, v"), "{message}");
        assert!(check_field_name("UN").unwrap_err().message.contains("(all capitals)"));
    }

    #[test]
    fn conventions_change_prefixes_short_names_and_vocabularies() {
        let standard = Conventions::default();
        assert!(standard.check_db_name("shop").unwrap_err().message.contains("`db_` + lowercase"));
        let shop = Conventions {
            db_prefix: String::new(),
            collection_prefix: "c_".to_owned(),
            short_names: vec!["un".to_owned(), "SKU".to_owned()],
            money_words: vec!["premium".to_owned()],
            date_words: vec!["expires".to_owned()],
        };
        assert!(shop.check_db_name("shop").is_ok());
        assert!(shop.check_system_db("admin").unwrap_err().message.ends_with("e.g. `admin_data`"));
        assert!(standard.check_system_db("admin").unwrap_err().message.ends_with("e.g. `db_admin_data`"));
        assert!(shop.check_db_name("Shop").unwrap_err().message.contains("should be lowercase letters"));
        assert!(!shop.check_db_name("shop.x").unwrap_err().waivable);
        assert!(shop.check_collection_name("c_order").is_ok());
        let e = shop.check_collection_name("t_order").unwrap_err();
        assert!(e.message.contains("`c_` + module_entity") && e.message.contains("`c_t_order`"), "{e}");
        assert!(shop.check_collection_name("c_").is_err());
        assert!(shop.check_field_name("un").is_ok() && standard.check_field_name("un").is_err());
        assert!(shop
            .check_field_name("oi")
            .unwrap_err()
            .message
            .contains("allowed short names: id, ip, os, ua, tz, ts, k, v, x, y, z, un, SKU"));
        assert!(shop.is_money_name("insurancePremium") && !standard.is_money_name("insurancePremium"));
        assert!(shop.is_date_name("tokenExpires") && !standard.is_date_name("tokenExpires"));
        assert!(shop.is_money_name("totalAmount") && shop.is_date_name("createTime"));
        // one split answers what the three predicates answer
        for name in [
            "totalAmount",
            "unit_price",
            "taxRate",
            "createTime",
            "tokenExpires",
            "orderState",
            "insurancePremium",
            "x",
            "",
        ] {
            let kinds = shop.name_kinds(name);
            assert_eq!(
                (kinds.money, kinds.date, kinds.status),
                (shop.is_money_name(name), shop.is_date_name(name), is_status_name(name)),
                "{name}"
            );
            assert_eq!(standard.name_kinds(name).money, is_money_name(name), "{name}");
            assert_eq!(standard.name_kinds(name).date, is_date_name(name), "{name}");
        }
    }

    #[test]
    fn styles_are_inferred_and_converted() {
        assert_eq!(infer_case("userName"), Some(FieldCase::Camel));
        assert_eq!(infer_case("user_name"), Some(FieldCase::Snake));
        assert_eq!(infer_case("email"), None);
        assert_eq!(FieldCase::Camel.convert("create_time"), "createTime");
        assert_eq!(FieldCase::Snake.convert("createTime"), "create_time");
        assert_eq!(words("Create_Time"), ["create", "time"]);
        // the ASCII fast path splits exactly as `words`
        let names = [
            "",
            "_",
            "a",
            "createTime",
            "created_at",
            "HTTPServer",
            "x2Y",
            "a__b",
            "user-id",
            "ABC",
            "aB1c_D",
            "9lives",
            "totalAmountUSD",
            "é",
            "straßeName",
        ];
        for name in names {
            let fast: Vec<String> = lower_words(name).into_iter().map(Cow::into_owned).collect();
            assert_eq!(fast, words(name), "{name:?}");
        }
        assert!(check_field_case("create_time", FieldCase::Camel, "inferred")
            .unwrap_err()
            .message
            .contains("`createTime`"));
        assert!(check_field_case("email", FieldCase::Camel, "inferred").is_ok());
    }

    #[test]
    fn vocabularies_read_the_last_word() {
        assert!(is_money_name("totalAmount") && is_money_name("unit_price") && is_money_name("shippingFee"));
        assert!(!is_money_name("totalWeight") && !is_money_name("taxRate"));
        assert!(is_date_name("createTime") && is_date_name("updated_at") && is_date_name("birthday"));
        assert!(!is_date_name("category") && !is_date_name("format"));
        assert!(is_status_name("status") && is_status_name("orderState") && is_status_name("user_type"));
        assert!(!is_status_name("statusMessage"));
    }
}
