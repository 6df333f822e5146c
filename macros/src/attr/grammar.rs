//! The `#[mongo(...)]` grammar as one table: every key, where it is written, what it takes,
//! an accepted form and a malformed one. The parsers look a key up here before reading its
//! value (a key missing from the table is an unknown key), and every error while reading
//! a value is said in the table's words: the key, what it takes, an example to copy.
//!
//! The UI cases of `uitests/ui/malformed/` are generated from the `bad` column (a unit
//! test checks they are current), so a new key cannot be added without its case.

use mongo_schema_contract::keyword;
use proc_macro2::{Span, TokenStream, TokenTree};
use quote::ToTokens;
use syn::meta::ParseNestedMeta;
use syn::Token;

/// Where a key is written.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Scope {
    /// `#[mongo(...)]` on a struct or enum.
    Type,
    /// `#[mongo(...)]` on a field or variant.
    Field,
    /// A `$jsonSchema` keyword: on a field or variant, in `items(...)`, and (`title`,
    /// `description`) on a type. Rows come from the contract's keyword table.
    Keyword,
    /// Inside `allow(...)`.
    Allow,
    /// Inside `timeseries(...)`.
    Timeseries,
    /// Inside `index(...)`.
    Index,
    /// Inside `collation(...)`, of an index or a collection.
    Collation,
    /// Inside `capped(...)`.
    Capped,
    /// Inside `clustered(...)`.
    Clustered,
}

impl Scope {
    /// The parent the key is written in, for messages: `index(...)`.
    fn parent(self) -> Option<&'static str> {
        match self {
            Scope::Type | Scope::Field | Scope::Keyword => None,
            Scope::Allow => Some("allow(...)"),
            Scope::Timeseries => Some("timeseries(...)"),
            Scope::Index => Some("index(...)"),
            Scope::Collation => Some("collation(...)"),
            Scope::Capped => Some("capped(...)"),
            Scope::Clustered => Some("clustered(...)"),
        }
    }
}

/// The kind of value a key takes, which picks the hint for a value of another kind.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kind {
    /// `key = "..."`
    Str,
    /// `key = "..."`, one of the words `takes` lists (or, `bson_type`, an alias mongod knows)
    Choice,
    /// `key = 10` (`ttl`, `expire_after_seconds`: seconds; `size`: bytes)
    Int,
    /// `key = -1.5`
    Num,
    /// `key` or `key = true | false`
    Flag,
    /// `key(...)`
    List,
    /// `key = [...]`
    Lits,
}

/// One key of the grammar.
#[derive(Debug)]
pub struct KeySpec {
    pub scope: Scope,
    pub key: &'static str,
    pub kind: Kind,
    /// What it takes, for messages: "a non-negative integer".
    pub takes: &'static str,
    /// An accepted form, as written inside `#[mongo(...)]`.
    pub form: &'static str,
    /// A malformed form a user plausibly writes, as written inside `#[mongo(...)]`: the
    /// generated UI case (read by the tests only).
    #[cfg_attr(not(test), allow(dead_code))]
    pub bad: &'static str,
}

macro_rules! rows {
    ($($scope:ident $key:literal $kind:ident, $takes:literal, $form:literal, $bad:literal;)*) => {
        &[$(KeySpec { scope: Scope::$scope, key: $key, kind: Kind::$kind, takes: $takes, form: $form, bad: $bad },)*]
    };
}

/// Every key but the `$jsonSchema` keywords, which are [`KEYWORD_ROWS`].
pub const KEYS: &[KeySpec] = rows! {
    Type "db" Str, "the database name as a string", r#"db = "db_user_center""#, r#"db = db_user_center"#;
    Type "collection" Str, "the collection name as a string", r#"collection = "t_users""#, r#"collection = t_users"#;
    Type "crate" Str, "the path of the crate re-exporting mongo-schema, as a string", r#"crate = "my_facade::mongo_schema""#, r#"crate = my_facade::mongo_schema"#;
    Type "validation_level" Choice, r#""strict", "moderate" or "off""#, r#"validation_level = "moderate""#, r#"validation_level = moderate"#;
    Type "validation_action" Choice, r#""error", "warn" or "errorAndLog""#, r#"validation_action = "warn""#, r#"validation_action = Warn"#;
    Type "max_depth" Int, "an integer from 1 to the crate's limit (5 by default)", "max_depth = 3", r#"max_depth = "3""#;
    Type "field_case" Choice, r#""camelCase" or "snake_case""#, r#"field_case = "snake_case""#, r#"field_case = snake_case"#;
    Type "max_items_limit" Int, "an integer from 1 to the crate's limit (1000 by default)", "max_items_limit = 100", r#"max_items_limit = "100""#;
    Type "timeseries" List, "its options in parentheses", r#"timeseries(time_field = "timestamp", meta_field = "deviceId", granularity = "seconds")"#, r#"timeseries = "timestamp""#;
    Type "index" List, "its keys and options in parentheses", "index(keys(userId = 1, createTime = -1), unique)", r#"index = "userId_1""#;
    Type "shard_key" List, "its keys in parentheses, each `1` (ranged) or `\"hashed\"`", "shard_key(userId = 1)` or `shard_key(deviceId = \"hashed\")", "shard_key(email)";
    Type "capped" List, "its size in bytes and optionally its greatest number of documents, in parentheses", "capped(size = 1048576, max = 1000)", "capped = 1048576";
    Type "collation" List, "its options in parentheses", r#"collation(locale = "en", strength = 2)"#, r##"collation = r#"{"locale": "en", "strength": 2}"#"##;
    Type "clustered" Flag, "no value, or its option in parentheses", "clustered` or `clustered(expire_after_seconds = 86400)", r#"clustered = "_id""#;
    Type "allow" List, "the rules it waives and a reason, in parentheses", r#"allow(field_name, reason = "a legacy collection shared with another service")"#, r#"allow = "field_name""#;

    Field "items" List, "the keywords of each item (or map value) in parentheses", "items(max_length = 30)", "items = 30";
    Field "money" Flag, "no value (or `true` / `false`)", "money", r#"money = "yes""#;
    Field "date" Flag, "no value (or `true` / `false`)", "date", "date = 1";
    Field "auto_increment" Flag, "no value (or `true` / `false`)", "auto_increment", r#"auto_increment = "yes""#;
    Field "nullable" Flag, "no value (or `true` / `false`)", "nullable", r#"nullable = "true""#;
    Field "renamed_from" Str, "the field's previous key as a string", r#"renamed_from = "oldName""#, "renamed_from = old_name";
    Field "allow" List, "the rules it waives and a reason, in parentheses", r#"allow(money_double, reason = "exchange rates are ratios, not amounts")"#, r#"allow = "money_double""#;

    Allow "reason" Str, "why the rule does not apply here, as a string", r#"allow(money_double, reason = "exchange rates are ratios, not amounts")"#, "allow(money_double, reason = exchange_rates)";

    Timeseries "time_field" Str, "the field holding each measurement's date, as a string", r#"timeseries(time_field = "timestamp")"#, "timeseries(time_field = timestamp)";
    Timeseries "meta_field" Str, "the field naming the series, as a string", r#"timeseries(time_field = "timestamp", meta_field = "deviceId")"#, r#"timeseries(time_field = "timestamp", meta_field = device_id)"#;
    Timeseries "granularity" Choice, r#""seconds", "minutes" or "hours""#, r#"timeseries(time_field = "timestamp", granularity = "minutes")"#, r#"timeseries(time_field = "timestamp", granularity = minutes)"#;
    Timeseries "expire_after_seconds" Int, "seconds as an integer", r#"timeseries(time_field = "timestamp", expire_after_seconds = 86400)"#, r#"timeseries(time_field = "timestamp", expire_after_seconds = "1d")"#;

    Index "keys" List, "field paths in parentheses, each `= 1` (ascending), `= -1` (descending), or `= \"hashed\"`, `\"2dsphere\"`, `\"2d\"`, `\"text\"`", r#"index(keys(userId = 1, "address.city" = -1))"#, r#"index(keys = "email")"#;
    Index "unique" Flag, "no value (or `true` / `false`)", "index(keys(email = 1), unique)", r#"index(keys(email = 1), unique = "yes")"#;
    Index "name" Str, "the index name as a string", r#"index(keys(email = 1), name = "ux_email")"#, "index(keys(email = 1), name = ux_email)";
    Index "ttl" Int, "seconds as an integer (0 expires each document at the time stored in the field)", "index(keys(expireAt = 1), ttl = 3600)", r#"index(keys(createTime = 1), ttl = "1h")"#;
    Index "partial" Str, "the filter as a JSON object in a string", r##"index(keys(email = 1), partial = r#"{"status": "active"}"#)"##, r#"index(keys(email = 1), partial = {"status": "active"})"#;
    Index "sparse" Flag, "no value (or `true` / `false`)", "index(keys(nickname = 1), sparse)", r#"index(keys(nickname = 1), sparse = "yes")"#;
    Index "hidden" Flag, "no value (or `true` / `false`)", "index(keys(email = 1), hidden)", "index(keys(email = 1), hidden = 1)";
    Index "collation" List, "its options in parentheses", r#"index(keys(email = 1), collation(locale = "en", strength = 2))"#, r##"index(keys(email = 1), unique, collation = r#"{"locale": "en", "strength": 2}"#)"##;
    Index "weights" List, "field paths of the text keys in parentheses, each with an integer weight", r#"index(keys(title = "text", bio = "text"), weights(title = 10, bio = 3))"#, r##"index(keys(bio = "text"), weights = r#"{"bio": 3}"#)"##;
    Index "default_language" Str, "a text index language as a string", r#"index(keys(bio = "text"), default_language = "french")"#, r#"index(keys(bio = "text"), default_language = french)"#;
    Index "language_override" Str, "the field naming each document's language, as a string", r#"index(keys(bio = "text"), language_override = "lang")"#, r#"index(keys(bio = "text"), language_override = lang)"#;
    Index "wildcard_projection" List, "field paths in parentheses, each `= 1` (included) or `= 0` (excluded)", r#"index(keys("$**" = 1), wildcard_projection(attributes = 1))"#, r##"index(keys("$**" = 1), wildcard_projection = r#"{"attributes": 1}"#)"##;

    Collation "locale" Str, "an ICU locale as a string", r#"collation(locale = "en")"#, "collation(locale = en)";
    Collation "strength" Int, "1, 2, 3, 4 or 5", r#"collation(locale = "en", strength = 2)"#, r#"collation(locale = "en", strength = "2")"#;
    Collation "case_level" Flag, "no value (or `true` / `false`)", r#"collation(locale = "en", case_level)"#, r#"collation(locale = "en", case_level = "yes")"#;
    Collation "case_first" Choice, r#""upper", "lower" or "off""#, r#"collation(locale = "en", case_first = "upper")"#, r#"collation(locale = "en", case_first = upper)"#;
    Collation "numeric_ordering" Flag, "no value (or `true` / `false`)", r#"collation(locale = "en", numeric_ordering)"#, r#"collation(locale = "en", numeric_ordering = 1)"#;
    Collation "alternate" Choice, r#""non-ignorable" or "shifted""#, r#"collation(locale = "en", alternate = "shifted")"#, r#"collation(locale = "en", alternate = shifted)"#;
    Collation "max_variable" Choice, r#""punct" or "space""#, r#"collation(locale = "en", alternate = "shifted", max_variable = "punct")"#, r#"collation(locale = "en", max_variable = punct)"#;
    Collation "normalization" Flag, "no value (or `true` / `false`)", r#"collation(locale = "en", normalization)"#, r#"collation(locale = "en", normalization = "true")"#;
    Collation "backwards" Flag, "no value (or `true` / `false`)", r#"collation(locale = "fr_CA", backwards)"#, r#"collation(locale = "fr_CA", backwards = 1)"#;

    Capped "size" Int, "the greatest size in bytes, as an integer", "capped(size = 1048576)", r#"capped(size = "1MB")"#;
    Capped "max" Int, "the greatest number of documents, as an integer", "capped(size = 1048576, max = 1000)", r#"capped(size = 1048576, max = "1000")"#;

    Clustered "expire_after_seconds" Int, "seconds as an integer", "clustered(expire_after_seconds = 86400)", r#"clustered(expire_after_seconds = "1d")"#;
};

/// The `$jsonSchema` keywords, one row per key of the contract's `keyword::KEYWORDS` (a
/// test checks they match).
pub const KEYWORD_ROWS: &[KeySpec] = rows! {
    Keyword "bson_type" Choice, "a BSON type alias as a string", r#"bson_type = "string""#, "bson_type = String";
    Keyword "min_length" Int, "a non-negative integer", "min_length = 2", "min_length = -1";
    Keyword "max_length" Int, "a non-negative integer", "max_length = 50", r#"max_length = "50""#;
    Keyword "pattern" Str, "a regular expression as a string", r#"pattern = r"^[a-z0-9_]+$""#, r#"pattern = regex("^[a-z]+$")"#;
    Keyword "minimum" Num, "a number", "minimum = 0", r#"minimum = "0""#;
    Keyword "maximum" Num, "a number", "maximum = 150", r#"maximum = "150""#;
    Keyword "exclusive_minimum" Num, "the excluded bound, a number", "exclusive_minimum = 0", "exclusive_minimum = true";
    Keyword "exclusive_maximum" Num, "the excluded bound, a number", "exclusive_maximum = 100", "exclusive_maximum = true";
    Keyword "multiple_of" Num, "a positive number", "multiple_of = 0.01", r#"multiple_of = "0.01""#;
    Keyword "min_items" Int, "a non-negative integer", "min_items = 1", "min_items = 1.5";
    Keyword "max_items" Int, "a non-negative integer", "max_items = 20", r#"max_items = "20""#;
    Keyword "unique_items" Flag, "no value (or `true` / `false`)", "unique_items", r#"unique_items = "yes""#;
    Keyword "min_properties" Int, "a non-negative integer", "min_properties = 1", "min_properties = -1";
    Keyword "max_properties" Int, "a non-negative integer", "max_properties = 10", r#"max_properties = "10""#;
    Keyword "enum_values" Lits, "a list of string, integer, float or bool literals in brackets", r#"enum_values = ["active", "inactive"]"#, r#"enum_values("active", "inactive")"#;
    Keyword "title" Str, "a string", r#"title = "User""#, "title = User";
    Keyword "description" Str, "a string", r#"description = "Username, 2-50 characters""#, r#"description("Username")"#;
};

/// The row of `meta`'s key in `scope`; the keywords are keys of the field and keyword
/// (`items(...)`) scopes, and their annotations (`title`, `description`) of a type.
pub fn find(scope: Scope, meta: &ParseNestedMeta) -> Option<&'static KeySpec> {
    let name = meta.path.get_ident()?.to_string();
    let keywords = matches!(scope, Scope::Field | Scope::Type | Scope::Keyword);
    // a type takes only the annotations (`title`, `description`) of the keywords
    let annotation = |spec: &KeySpec| scope != Scope::Type || keyword::by_attr(spec.key).is_some_and(is_annotation);
    let in_scope =
        |spec: &&KeySpec| spec.scope == scope || (keywords && spec.scope == Scope::Keyword && annotation(spec));
    KEYS.iter().chain(KEYWORD_ROWS).filter(in_scope).find(|spec| spec.key == name)
}

/// `title` or `description`: the keywords a type takes.
pub(super) fn is_annotation(spec: &keyword::Spec) -> bool {
    let keyword = keyword::Keyword::<String, ()>::new(spec, keyword::Value::Str(&String::new()));
    matches!(keyword, Some(keyword::Keyword::Title(_) | keyword::Keyword::Description(_)))
}

/// The row of `key` in `scope`, for a parser that reads a key outside `parse_nested_meta`.
pub fn row(scope: Scope, key: &str) -> &'static KeySpec {
    KEYS.iter().chain(KEYWORD_ROWS).find(|spec| spec.scope == scope && spec.key == key).expect("a key of the table")
}

impl KeySpec {
    /// "`ttl` in `index(...)`"
    fn named(&self) -> String {
        match self.scope.parent() {
            Some(parent) => format!("`{}` in `{parent}`", self.key),
            None => format!("`{}`", self.key),
        }
    }

    /// The message of a value this key does not take.
    pub fn message(&self) -> String {
        format!("{} takes {}, e.g. `{}`", self.named(), self.takes, self.form)
    }
}

/// An error spanning all of `tokens` (or at `span` when there are none).
fn spanned(tokens: TokenStream, span: Span, message: String) -> syn::Error {
    if tokens.is_empty() {
        syn::Error::new(span, message)
    } else {
        syn::Error::new_spanned(tokens, message)
    }
}

/// syn's own parse messages ("expected parentheses", "expected `=`", "expected integer
/// literal", ...) say nothing about what to write; the derive's own messages do.
fn is_bare(error: &syn::Error) -> bool {
    let text = error.to_string();
    (text.starts_with("expected ") || text.starts_with("unexpected ") || text.starts_with("unsupported "))
        && (!text.contains(" = ") || text.starts_with("expected a string literal"))
}

/// Reads `meta`'s value with `parse`, every error in the key's words: syn's bare messages
/// become the key's (what it takes, an example); a value of another kind that is
/// unambiguous (a number in quotes, a duration or a size with a unit, a name left
/// unquoted, a JSON string where typed fields are expected) gets the exact form to write.
/// Tokens left after the value (`unique = "yes"` where `unique` took none) are an error.
pub fn value<T>(
    spec: &'static KeySpec,
    meta: &ParseNestedMeta,
    parse: impl FnOnce(&ParseNestedMeta) -> syn::Result<T>,
) -> syn::Result<T> {
    let written = value_tokens(meta.input);
    if let Some(error) = hint(spec, &written) {
        return Err(error);
    }
    let value = parse(meta).map_err(|error| {
        if !is_bare(&error) {
            return error;
        }
        // a scalar's whole value; in a list, the token syn stopped at
        let tokens = if spec.kind == Kind::List { TokenStream::new() } else { written.clone() };
        spanned(tokens, error.span(), spec.message())
    })?;
    if !meta.input.is_empty() && !meta.input.peek(Token![,]) {
        let rest = value_tokens(meta.input);
        return Err(spanned(rest, meta.input.span(), spec.message()));
    }
    Ok(value)
}

/// The value's tokens, after its `=` if any, up to the next `,` (nothing consumed).
fn value_tokens(input: syn::parse::ParseStream) -> TokenStream {
    let fork = input.fork();
    let _ = fork.parse::<Option<Token![=]>>();
    let mut tokens = TokenStream::new();
    while !fork.is_empty() && !fork.peek(Token![,]) {
        match fork.parse::<TokenTree>() {
            Ok(tree) => tokens.extend([tree]),
            Err(_) => break,
        }
    }
    tokens
}

/// The exact form to write for a value of another kind, when there is one.
fn hint(spec: &KeySpec, value: &TokenStream) -> Option<syn::Error> {
    let trees: Vec<TokenTree> = value.clone().into_iter().collect();
    let lit = match trees.as_slice() {
        [TokenTree::Literal(lit)] => syn::parse2::<syn::Lit>(lit.to_token_stream()).ok(),
        _ => None,
    };
    let (key, named) = (spec.key, spec.named());
    match (spec.kind, &lit) {
        (Kind::Int | Kind::Num, Some(syn::Lit::Str(s))) => {
            let text = s.value();
            let number = text.trim().replace('_', "");
            let exact = if !number.is_empty() && number.parse::<f64>().is_ok() {
                Some(format!("{named} takes {}, not a string: write `{key} = {}`", spec.takes, text.trim()))
            } else if matches!(key, "ttl" | "expire_after_seconds") {
                seconds(&text).map(|n| {
                    format!(
                        "{named} takes seconds as an integer, not a duration: write `{key} = {n}` (\"{text}\" is {n} \
                         seconds)"
                    )
                })
            } else if key == "size" {
                bytes(&text).map(|(n, decimal)| match decimal {
                    Some(d) => format!(
                        "{named} takes bytes as an integer, not a size with a unit: write `{key} = {n}` (\"{text}\" \
                         in 1024-based units) or `{key} = {d}` (1000-based)"
                    ),
                    None => format!(
                        "{named} takes bytes as an integer, not a size with a unit: write `{key} = {n}` (\"{text}\")"
                    ),
                })
            } else {
                None
            };
            Some(syn::Error::new(s.span(), exact.unwrap_or_else(|| spec.message())))
        }
        // `unique = "yes"`, `money = 1`: a flag is written bare
        (Kind::Flag, Some(lit)) => {
            let yes = match lit {
                syn::Lit::Str(s) => match s.value().to_ascii_lowercase().as_str() {
                    "true" | "yes" | "on" | "1" => Some(true),
                    "false" | "no" | "off" | "0" => Some(false),
                    _ => None,
                },
                syn::Lit::Int(i) => match i.base10_digits() {
                    "1" => Some(true),
                    "0" => Some(false),
                    _ => None,
                },
                _ => return None,
            };
            let message = match yes {
                Some(true) => format!("{named} is a flag: write `{key}` alone (or `{key} = true`)"),
                Some(false) => format!("{named} is a flag: leave it out (or write `{key} = false`)"),
                None => spec.message(),
            };
            Some(syn::Error::new(lit.span(), message))
        }
        // `exclusive_minimum = true`: JSON Schema draft 4's form, where the bound is `minimum`
        (Kind::Num, None)
            if key.starts_with("exclusive_") && matches!(value.to_string().as_str(), "true" | "false") =>
        {
            let message = format!(
                "{named} takes the excluded bound itself, not draft 4's `true` beside `{}`: e.g. `{}`",
                &key["exclusive_".len()..],
                spec.form
            );
            Some(spanned(value.clone(), Span::call_site(), message))
        }
        // `description("...")`, `enum_values("a", "b")`: a value written as a call
        (Kind::Str | Kind::Choice | Kind::Int | Kind::Num | Kind::Lits, None) if matches!(trees.as_slice(), [TokenTree::Group(g)] if g.delimiter() == proc_macro2::Delimiter::Parenthesis) =>
        {
            let [TokenTree::Group(group)] = trees.as_slice() else { return None };
            let inner = group.stream().to_string();
            let written = if spec.kind == Kind::Lits { format!("[{inner}]") } else { inner };
            let message = format!("{named} takes {} after `=`: write `{key} = {written}`", spec.takes);
            Some(spanned(value.clone(), Span::call_site(), message))
        }
        (Kind::Choice, None) if is_path(value) => {
            let written = value.to_string().replace(' ', "");
            let choice = choices(spec).into_iter().find(|choice| choice.eq_ignore_ascii_case(&written));
            let message = match choice {
                Some(choice) => format!("{named} takes {}: write it in quotes, `{key} = \"{choice}\"`", spec.takes),
                None => spec.message(),
            };
            Some(spanned(value.clone(), Span::call_site(), message))
        }
        (Kind::Str, None) if is_path(value) => {
            let written = value.to_string().replace(' ', "");
            let message = format!("{named} takes {}: write it in quotes, `{key} = \"{written}\"`", spec.takes);
            Some(spanned(value.clone(), Span::call_site(), message))
        }
        (Kind::Str, None) if key == "partial" && matches!(trees.as_slice(), [TokenTree::Group(_)]) => {
            let message = format!("{named} takes the filter as a JSON string: write `{key} = r#\"{value}\"#`");
            Some(spanned(value.clone(), Span::call_site(), message))
        }
        (Kind::List, Some(syn::Lit::Str(s))) if s.value().trim_start().starts_with('{') => Some(syn::Error::new(
            s.span(),
            match typed_from_json(key, &s.value()) {
                Some(typed) => {
                    format!("{named} takes typed fields in parentheses, not a JSON string: write `{typed}`")
                }
                None => format!("{named} takes typed fields in parentheses, not a JSON string, e.g. `{}`", spec.form),
            },
        )),
        (Kind::List, _) if !value.is_empty() && !matches!(trees.as_slice(), [TokenTree::Group(_)]) => {
            Some(spanned(value.clone(), Span::call_site(), spec.message()))
        }
        _ => None,
    }
}

/// The words a [`Kind::Choice`] key takes.
fn choices(spec: &KeySpec) -> Vec<String> {
    if spec.key == "bson_type" {
        return mongo_schema_contract::bson::alias_names().map(str::to_owned).collect();
    }
    spec.takes.split('"').skip(1).step_by(2).map(str::to_owned).collect()
}

/// `name` or `a::b`: a value meant as a string and left unquoted.
fn is_path(tokens: &TokenStream) -> bool {
    !tokens.is_empty() && syn::parse2::<syn::Path>(tokens.clone()).is_ok()
}

/// The typed form of a JSON object written where typed fields are expected:
/// `{"locale": "en", "strength": 2}` as `collation(locale = "en", strength = 2)`. Option
/// names are turned to snake case (`caseLevel`: `case_level`), field paths kept (quoted
/// when not a plain name); `None` when the JSON is not a flat object of plain values.
pub fn typed_from_json(key: &str, json: &str) -> Option<String> {
    use super::json::{parse_json, JsonValue};
    let paths = matches!(key, "weights" | "wildcard_projection");
    if !paths && !matches!(key, "collation" | "timeseries" | "capped") {
        return None;
    }
    let JsonValue::Object(members) = parse_json(json).ok()? else { return None };
    let mut parts = Vec::new();
    for (name, value) in members {
        let plain = !name.is_empty()
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            && !name.starts_with(|c: char| c.is_ascii_digit());
        let name = match (paths, plain) {
            (true, true) => name,
            (true, false) => format!("\"{name}\""),
            (false, true) => snake(&name),
            (false, false) => return None,
        };
        parts.push(match value {
            JsonValue::String(s) => format!("{name} = \"{s}\""),
            JsonValue::Number(n) if n.fract() == 0.0 && n.abs() < 1e15 => format!("{name} = {}", n as i64),
            JsonValue::Number(n) => format!("{name} = {n}"),
            JsonValue::Bool(true) if !paths => name,
            JsonValue::Bool(b) => format!("{name} = {b}"),
            _ => return None,
        });
    }
    (!parts.is_empty()).then(|| format!("{key}({})", parts.join(", ")))
}

/// `"1h"`, `"30 min"`, `"1d12h"`, `"90s"`: seconds, when every part has a known unit.
pub fn seconds(text: &str) -> Option<u64> {
    let mut total: u64 = 0;
    let mut rest = text.trim();
    if rest.is_empty() {
        return None;
    }
    while !rest.is_empty() {
        let digits = rest.find(|c: char| !c.is_ascii_digit()).unwrap_or(rest.len());
        let n: u64 = rest[..digits].parse().ok()?;
        rest = rest[digits..].trim_start();
        let unit_len = rest.find(|c: char| !c.is_ascii_alphabetic()).unwrap_or(rest.len());
        let unit = &rest[..unit_len];
        let factor = match unit {
            "s" | "sec" | "secs" | "second" | "seconds" => 1,
            "m" | "min" | "mins" | "minute" | "minutes" => 60,
            "h" | "hr" | "hrs" | "hour" | "hours" => 3600,
            "d" | "day" | "days" => 86400,
            "w" | "week" | "weeks" => 604800,
            _ => return None,
        };
        total = total.checked_add(n.checked_mul(factor)?)?;
        rest = rest[unit_len..].trim_start();
    }
    Some(total)
}

/// `"1MB"`, `"512 KiB"`: bytes, with the 1000-based reading too when the unit could be
/// either (`MB`: 1048576 as most people mean it, or 1000000).
pub fn bytes(text: &str) -> Option<(u64, Option<u64>)> {
    let text = text.trim();
    let digits = text.find(|c: char| !c.is_ascii_digit()).unwrap_or(text.len());
    let n: u64 = text[..digits].parse().ok()?;
    let unit = text[digits..].trim();
    let (power, binary_only) = match unit.to_ascii_lowercase().as_str() {
        "b" => (0, true),
        "k" | "kb" => (1, false),
        "kib" => (1, true),
        "m" | "mb" => (2, false),
        "mib" => (2, true),
        "g" | "gb" => (3, false),
        "gib" => (3, true),
        _ => return None,
    };
    let binary = n.checked_mul(1024u64.checked_pow(power)?)?;
    let decimal = n.checked_mul(1000u64.checked_pow(power)?)?;
    Some((binary, (!binary_only).then_some(decimal)))
}

/// `caseLevel` as `case_level`.
fn snake(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars() {
        if c.is_ascii_uppercase() {
            out.push('_');
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
/// The generated UI cases: (file name under `uitests/ui/malformed/`, its source). Each bad
/// form is an attribute of its own, so the derive reports every one in one build.
pub fn ui_cases() -> Vec<(&'static str, String)> {
    let rows = |scopes: &[Scope]| -> Vec<&'static KeySpec> {
        KEYS.iter().chain(KEYWORD_ROWS).filter(|spec| scopes.contains(&spec.scope)).collect()
    };
    let attrs = |rows: &[&KeySpec], indent: &str| -> String {
        rows.iter().map(|spec| format!("{indent}#[mongo({})]\n", spec.bad)).collect()
    };
    let header = "// Generated from the `#[mongo(...)]` grammar's table (macros/src/attr/grammar.rs) by\n\
                  // `UPDATE_UI_CASES=1 cargo test -p mongo-schema-macros`: one malformed value per key, each\n\
                  // in an attribute of its own so that one build reports every one. Do not edit.\n\n\
                  use mongo_schema::MongoSchema;\nuse serde::{Deserialize, Serialize};\n\n";
    let root = "#[derive(Serialize, Deserialize, MongoSchema)]\n#[mongo(db = \"db_ui\", collection = \"t_cases\")]\n";
    let type_keys = rows(&[Scope::Type, Scope::Timeseries, Scope::Capped, Scope::Clustered, Scope::Collation]);
    let index_keys = rows(&[Scope::Index]);
    let field_keys = rows(&[Scope::Field, Scope::Keyword, Scope::Allow]);
    vec![
        ("type_keys.rs", format!("{header}{root}{}struct Cases {{\n    name: String,\n}}\n\nfn main() {{}}\n", attrs(&type_keys, ""))),
        ("index_keys.rs", format!("{header}{root}{}struct Cases {{\n    name: String,\n}}\n\nfn main() {{}}\n", attrs(&index_keys, ""))),
        (
            "field_keys.rs",
            format!(
                "{header}#[derive(Serialize, Deserialize, MongoSchema)]\nstruct Cases {{\n{}    name: String,\n}}\n\nfn main() {{}}\n",
                attrs(&field_keys, "    ")
            ),
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ctxt::Ctxt;
    use mongo_schema_contract::keyword::{Arg, KEYWORDS};

    #[test]
    fn keyword_rows_are_the_contracts_keywords() {
        let attrs: Vec<&str> = KEYWORDS.iter().map(|spec| spec.attr).collect();
        let rows: Vec<&str> = KEYWORD_ROWS.iter().map(|spec| spec.key).collect();
        assert_eq!(rows, attrs, "one row of KEYWORD_ROWS per keyword of the contract, in its order");
        for (spec, row) in KEYWORDS.iter().zip(KEYWORD_ROWS) {
            let kind = match spec.arg {
                Arg::Str if row.kind == Kind::Choice => Kind::Choice,
                Arg::Str => Kind::Str,
                Arg::Count => Kind::Int,
                Arg::Num => Kind::Num,
                Arg::Bool => Kind::Flag,
                Arg::Lits => Kind::Lits,
            };
            assert_eq!(row.kind, kind, "{}", row.key);
        }
    }

    /// The errors of `#[mongo(attr)]` where a row of `scope` is written: on a root, on a
    /// field, or (a nested scope's row is written whole) where its parent is.
    fn errors(scope: Scope, attr: &str) -> Vec<String> {
        let cx = Ctxt::default();
        let on_field = matches!(scope, Scope::Field | Scope::Keyword | Scope::Allow);
        let source = if on_field {
            format!("struct T {{ #[mongo({attr})] name: String }}")
        } else {
            format!("#[mongo({attr})] struct T {{ name: String }}")
        };
        let input: syn::DeriveInput = syn::parse_str(&source).unwrap();
        if on_field {
            let syn::Data::Struct(data) = &input.data else { unreachable!() };
            let _ = super::super::mongo::Field::from_ast(&cx, &data.fields.iter().next().unwrap().attrs);
        } else {
            let _ = super::super::mongo::Container::from_ast(&cx, &input.attrs);
        }
        cx.check().err().map(|e| e.into_iter().map(|e| e.to_string()).collect()).unwrap_or_default()
    }

    #[test]
    fn every_form_is_accepted() {
        for spec in KEYS.iter().chain(KEYWORD_ROWS) {
            for form in spec.form.split("` or `") {
                assert_eq!(errors(spec.scope, form), Vec::<String>::new(), "{form}");
            }
        }
        // forms accepted besides the table's examples: a key without an order is ascending,
        // a flag may say `= true` or `= false`
        for form in [
            "index(keys(email))",
            "index(keys(email, createTime = -1), unique = true, sparse = false, hidden = false)",
            "shard_key(region = 1, userId = \"hashed\")",
        ] {
            assert_eq!(errors(Scope::Type, form), Vec::<String>::new(), "{form}");
        }
    }

    /// The issue's bar: every malformed value gets one error naming the key and showing
    /// what to write.
    #[test]
    fn every_bad_form_names_its_key_and_shows_a_form() {
        for spec in KEYS.iter().chain(KEYWORD_ROWS) {
            let errors = errors(spec.scope, spec.bad);
            assert_eq!(errors.len(), 1, "{}: {errors:?}", spec.bad);
            let message = &errors[0];
            assert!(message.contains(&format!("`{}`", spec.key)), "{}: {message}", spec.bad);
            assert!(message.contains("e.g. `") || message.contains("write "), "{}: {message}", spec.bad);
        }
    }

    /// Malformed forms beyond the table's: a list key written bare, a bad token inside a
    /// list, a value missing.
    #[test]
    fn more_bad_forms_name_their_key_and_show_a_form() {
        for (scope, attr, key) in [
            (Scope::Type, "index", "index"),
            (Scope::Type, "capped", "capped"),
            (Scope::Type, "timeseries", "timeseries"),
            (Scope::Type, "allow", "allow"),
            (Scope::Type, "index(keys(email = asc))", "keys"),
            (Scope::Type, "index(keys(bio = \"text\"), weights(bio = \"3\"))", "weights"),
            (Scope::Type, "index(keys(bio = \"text\"), weights(bio))", "weights"),
            (Scope::Type, "index(keys(email = 1), ttl)", "ttl"),
            (Scope::Type, "collation(locale)", "locale"),
            (Scope::Type, "db", "db"),
            (Scope::Field, "items", "items"),
            (Scope::Field, "enum_values = [active]", "enum_values"),
            (Scope::Field, "items(max_length = \"30\")", "max_length"),
            (Scope::Field, "min_length", "min_length"),
            (Scope::Field, "maximum = -x", "maximum"),
            (Scope::Type, "title = Users", "title"),
        ] {
            let errors = errors(scope, attr);
            assert_eq!(errors.len(), 1, "{attr}: {errors:?}");
            let message = &errors[0];
            assert!(message.contains(&format!("`{key}`")), "{attr}: {message}");
            assert!(message.contains("e.g. `") || message.contains("write "), "{attr}: {message}");
        }
    }

    /// A keyword a type does not take is an unknown key there, whatever its value.
    #[test]
    fn a_field_keyword_on_a_type_is_unknown() {
        let errors = errors(Scope::Type, "max_length = \"50\"");
        assert!(errors.len() == 1 && errors[0].starts_with("unknown mongo attribute `max_length`"), "{errors:?}");
    }

    /// The UI cases are generated from the table: a new key gets its case (and, through
    /// trybuild, its reviewed `.stderr`) or this fails. `UPDATE_UI_CASES=1` rewrites them.
    #[test]
    fn ui_cases_are_current() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../uitests/ui/malformed");
        if !dir.parent().is_some_and(|ui| ui.exists()) {
            eprintln!("no uitests/ here (a packaged crate): the generated UI cases are checked in the workspace");
            return;
        }
        let update = std::env::var_os("UPDATE_UI_CASES").is_some();
        for (name, source) in ui_cases() {
            let path = dir.join(name);
            if update {
                std::fs::create_dir_all(&dir).unwrap();
                std::fs::write(&path, &source).unwrap();
            } else {
                let current = std::fs::read_to_string(&path).unwrap_or_default();
                assert!(
                    current == source,
                    "{} is not what the grammar's table generates: run `UPDATE_UI_CASES=1 cargo test -p \
                     mongo-schema-macros`, then `TRYBUILD=overwrite cargo test -p mongo-schema-ui --features bson-3` \
                     and read the new .stderr",
                    path.display()
                );
            }
        }
    }

    #[test]
    fn durations_and_sizes() {
        assert_eq!(seconds("1h"), Some(3600));
        assert_eq!(seconds("1d12h"), Some(129600));
        assert_eq!(seconds("30 min"), Some(1800));
        assert_eq!(seconds("1M"), None);
        assert_eq!(seconds("soon"), None);
        assert_eq!(bytes("1MB"), Some((1048576, Some(1000000))));
        assert_eq!(bytes("512 KiB"), Some((524288, None)));
        assert_eq!(bytes("lots"), None);
    }

    #[test]
    fn json_becomes_typed_fields() {
        assert_eq!(
            typed_from_json("collation", r#"{"locale": "en", "strength": 2, "caseLevel": true}"#).as_deref(),
            Some(r#"collation(locale = "en", strength = 2, case_level)"#)
        );
        assert_eq!(
            typed_from_json("weights", r#"{"bio": 3, "a.b": 1}"#).as_deref(),
            Some(r#"weights(bio = 3, "a.b" = 1)"#)
        );
        assert_eq!(typed_from_json("weights", r#"{"bio": {"x": 1}}"#), None);
        assert_eq!(typed_from_json("index", r#"{"email": 1}"#), None);
    }
}
