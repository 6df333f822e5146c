//! `#[mongo(...)]`: one branch per key, each headed by its syntax; anything else is an
//! "unknown mongo attribute" error at the key.

use super::grammar::{self, is_annotation, Scope};
use super::{key, string, Attr, BoolAttr};
use crate::ctxt::Ctxt;
use crate::symbol::*;
use mongo_schema_contract::keyword::{self, Arg, Spec, Value};
use mongo_schema_contract::options::{ValidationAction, ValidationLevel};
use mongo_schema_contract::{bson, naming::FieldCase};
use proc_macro2::Span;
use quote::ToTokens;
use syn::meta::ParseNestedMeta;
use syn::spanned::Spanned;
use syn::{LitStr, Token};

/// A `$jsonSchema` keyword as the derive holds it (the contract's enum, with owned values).
pub type Keyword = keyword::Keyword<String, Vec<Lit>>;
/// A literal of `enum_values`.
pub type Lit = keyword::Lit<String>;
pub use keyword::Num;

// The value parsers below fail with syn's bare words ("expected ..."), which
// `grammar::value` says in the key's: what it takes and an example.

/// `key = 10`
fn unsigned(meta: &ParseNestedMeta) -> syn::Result<u64> {
    let lit: syn::LitInt = meta.value()?.parse()?;
    lit.base10_parse::<u64>().map_err(|_| syn::Error::new(lit.span(), "expected a non-negative integer"))
}

/// `key = -1.5` or `key = 0`
fn number(meta: &ParseNestedMeta) -> syn::Result<Num> {
    let input = meta.value()?;
    let negative = input.parse::<Option<Token![-]>>()?.is_some();
    let lit: syn::Lit = input.parse()?;
    let sign = if negative { -1 } else { 1 };
    match &lit {
        syn::Lit::Int(i) => i.base10_parse::<i64>().map(|n| Num::Int(sign * n)),
        syn::Lit::Float(f) => f.base10_parse::<f64>().map(|n| Num::Float(sign as f64 * n)),
        _ => Err(syn::Error::new(lit.span(), "")),
    }
    .map_err(|_| syn::Error::new(lit.span(), "expected a number"))
}

/// `key` or `key = true`
fn flag(meta: &ParseNestedMeta) -> syn::Result<bool> {
    if !meta.input.peek(Token![=]) {
        return Ok(true);
    }
    let lit: syn::LitBool = meta.value()?.parse()?;
    Ok(lit.value)
}

/// `enum_values = ["a", "b", 3]`
fn literals(meta: &ParseNestedMeta) -> syn::Result<Vec<Lit>> {
    let input = meta.value()?;
    let content;
    syn::bracketed!(content in input);
    let mut values = Vec::new();
    while !content.is_empty() {
        let negative = content.parse::<Option<Token![-]>>()?.is_some();
        let lit: syn::Lit = content.parse()?;
        let sign = if negative { -1 } else { 1 };
        values.push(match &lit {
            syn::Lit::Str(s) if !negative => Lit::Str(s.value()),
            syn::Lit::Bool(b) if !negative => Lit::Bool(b.value),
            syn::Lit::Int(i) => Lit::Int(sign * i.base10_parse::<i64>()?),
            syn::Lit::Float(f) => Lit::Float(sign as f64 * f.base10_parse::<f64>()?),
            _ => {
                return Err(syn::Error::new(lit.span(), "`enum_values` takes string, integer, float or bool literals"))
            }
        });
        if !content.is_empty() {
            content.parse::<Token![,]>()?;
        }
    }
    Ok(values)
}

/// Patterns are PCRE in mongod (PCRE before 7.0, PCRE2 since), whose syntax no Rust
/// parser follows (atomic groups, possessive quantifiers, `\Q..\E`, `(*UCP)`, `\h`): only
/// what every PCRE refuses is refused here, a pattern whose parentheses or brackets do
/// not balance, or that ends inside an escape. The rest is left to mongod and to the
/// local validator, which compiles patterns with PCRE2.
fn check_pattern(lit: &LitStr) -> syn::Result<String> {
    let pattern = lit.value();
    match unbalanced(&pattern) {
        None => Ok(pattern),
        Some((offset, problem)) => Err(syn::Error::new(
            lit.span(),
            format!(
                "`pattern` is not a regular expression: {problem} (at byte {offset}); mongod refuses it when the \
                 validator is installed"
            ),
        )),
    }
}

/// Where `pattern` breaks the structure every PCRE requires, and how: escapes (`\x`),
/// quoted runs (`\Q..\E`), character classes (a leading `]` and `[:name:]` inside
/// them) and comments (`(?#..)`) are honoured.
pub(crate) fn unbalanced(pattern: &str) -> Option<(usize, &'static str)> {
    let bytes = pattern.as_bytes();
    let mut open = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => match bytes.get(i + 1) {
                None => return Some((i, "it ends with a lone `\\`")),
                Some(b'Q') => i = quoted_end(bytes, i + 2),
                Some(_) => i += 2,
            },
            b'[' => match class_end(bytes, i) {
                Some(end) => i = end + 1,
                None => return Some((i, "this `[` opens a character class that is never closed with `]`")),
            },
            b'(' if bytes[i + 1..].starts_with(b"?#") => match bytes[i..].iter().position(|&b| b == b')') {
                Some(len) => i += len + 1,
                None => return Some((i, "this `(?#` comment is never closed with `)`")),
            },
            b'(' => {
                open.push(i);
                i += 1;
            }
            b')' => {
                if open.pop().is_none() {
                    return Some((i, "this `)` closes no group"));
                }
                i += 1;
            }
            _ => i += 1,
        }
    }
    open.pop().map(|at| (at, "this `(` opens a group that is never closed with `)`"))
}

/// After a `\Q` at `start`: the index past the matching `\E` (or the end).
fn quoted_end(bytes: &[u8], start: usize) -> usize {
    bytes[start..].windows(2).position(|w| w == b"\\E").map_or(bytes.len(), |at| start + at + 2)
}

/// The index of the `]` that closes the class opened at `start`.
fn class_end(bytes: &[u8], start: usize) -> Option<usize> {
    let mut i = start + 1;
    if bytes.get(i) == Some(&b'^') {
        i += 1;
    }
    // a `]` first is a literal
    if bytes.get(i) == Some(&b']') {
        i += 1;
    }
    while i < bytes.len() {
        match bytes[i] {
            b'\\' if bytes.get(i + 1) == Some(&b'Q') => i = quoted_end(bytes, i + 2),
            b'\\' => i += 2,
            b'[' if bytes.get(i + 1) == Some(&b':') => {
                // `[:alpha:]`, or a literal `[` when no `:]` follows
                let close = bytes[i + 2..].windows(2).position(|w| w == b":]");
                i = close.map_or(i + 1, |at| i + 2 + at + 2);
            }
            b']' => return Some(i),
            _ => i += 1,
        }
    }
    None
}

fn bson_type(lit: &LitStr) -> syn::Result<String> {
    let alias = lit.value();
    if bson::is_alias(&alias) {
        return Ok(alias);
    }
    let accepted: Vec<&str> = bson::alias_names().collect();
    Err(syn::Error::new(lit.span(), format!("unknown bsonType `{alias}`; mongod accepts {}", accepted.join(", "))))
}

/// The keyword of `spec` with `value`, of the kind `spec` takes.
fn new_keyword(spec: &Spec, value: Value<String, Vec<Lit>>) -> Option<Keyword> {
    Keyword::new(spec, value)
}

/// A string keyword, its value checked: `bson_type` names an alias mongod accepts, a
/// `pattern` compiles.
fn string_keyword(spec: &Spec, lit: &LitStr) -> syn::Result<Option<Keyword>> {
    Ok(match new_keyword(spec, Value::Str(&lit.value())) {
        Some(Keyword::BsonType(_)) => Some(Keyword::BsonType(bson_type(lit)?)),
        Some(Keyword::Pattern(_)) => Some(Keyword::Pattern(check_pattern(lit)?)),
        other => other,
    })
}

/// `meta` is a keyword a type takes.
fn is_annotation_key(meta: &ParseNestedMeta) -> bool {
    meta.path.get_ident().and_then(|ident| keyword::by_attr(&ident.to_string())).is_some_and(is_annotation)
}

/// The keys every item (type or field) accepts: `$jsonSchema` keywords.
#[derive(Default)]
pub struct Keywords {
    pub list: Vec<(Span, Keyword)>,
}

impl Keywords {
    fn push(&mut self, cx: &Ctxt, meta: &ParseNestedMeta, keyword: Option<Keyword>) {
        let Some(keyword) = keyword else { return };
        let same = std::mem::discriminant(&keyword);
        if self.list.iter().any(|(_, k)| std::mem::discriminant(k) == same) {
            cx.error_spanned_by(&meta.path, format!("duplicate attribute `{}`", key(meta)));
            return;
        }
        self.list.push((meta.path.span(), keyword));
    }

    /// Parses one keyword key (`#[mongo(max_length = 50)]`, `#[mongo(unique_items)]`, ...),
    /// as the contract's keyword table says; `Ok(false)` when `meta` is not a keyword.
    fn parse(&mut self, cx: &Ctxt, meta: &ParseNestedMeta) -> syn::Result<bool> {
        let Some(spec) = meta.path.get_ident().and_then(|ident| keyword::by_attr(&ident.to_string())) else {
            return Ok(false);
        };
        let keyword = match spec.arg {
            Arg::Str => string_keyword(spec, &string(meta)?)?,
            Arg::Count => new_keyword(spec, Value::Count(unsigned(meta)?)),
            // #[mongo(exclusive_minimum = 0)]: minimum 0, exclusiveMinimum true (draft 4)
            Arg::Num => new_keyword(spec, Value::Num(number(meta)?)),
            // #[mongo(unique_items)] or #[mongo(unique_items = false)]
            Arg::Bool => new_keyword(spec, Value::Bool(flag(meta)?)),
            Arg::Lits => new_keyword(spec, Value::Lits(&literals(meta)?)),
        };
        self.push(cx, meta, keyword);
        Ok(true)
    }

    /// Bounds no value satisfies (`minimum = 5, maximum = 1`, `min_length = 10,
    /// max_length = 2`, ...) make mongod reject every document: an error at the later one.
    /// So are `minimum` with `exclusive_minimum` (both write `minimum`) and a `multiple_of`
    /// that is not positive (mongod refuses the validator).
    fn check_bounds(&self, cx: &Ctxt) {
        // (index in `list`, bound) of the first keyword `side` reads
        let find = |side: &dyn Fn(&Keyword) -> Option<Bound>| {
            self.list.iter().enumerate().find_map(|(i, (_, k))| side(k).map(|b| (i, b)))
        };
        let lower = |k: &Keyword| match k {
            Keyword::MinLength(n) | Keyword::MinItems(n) | Keyword::MinProperties(n) => Some((*n as f64, false)),
            Keyword::Minimum(n) => Some((num(*n), false)),
            Keyword::ExclusiveMinimum(n) => Some((num(*n), true)),
            _ => None,
        };
        let upper = |k: &Keyword| match k {
            Keyword::MaxLength(n) | Keyword::MaxItems(n) | Keyword::MaxProperties(n) => Some((*n as f64, false)),
            Keyword::Maximum(n) => Some((num(*n), false)),
            Keyword::ExclusiveMaximum(n) => Some((num(*n), true)),
            _ => None,
        };
        type Pick = fn(&Keyword) -> bool;
        let groups: [(Pick, Pick); 4] = [
            (|k| matches!(k, Keyword::MinLength(_)), |k| matches!(k, Keyword::MaxLength(_))),
            (|k| matches!(k, Keyword::MinItems(_)), |k| matches!(k, Keyword::MaxItems(_))),
            (|k| matches!(k, Keyword::MinProperties(_)), |k| matches!(k, Keyword::MaxProperties(_))),
            (
                |k| matches!(k, Keyword::Minimum(_) | Keyword::ExclusiveMinimum(_)),
                |k| matches!(k, Keyword::Maximum(_) | Keyword::ExclusiveMaximum(_)),
            ),
        ];
        for (is_lo, is_hi) in groups {
            let lo = find(&|k| {
                if is_lo(k) {
                    lower(k).map(|(value, exclusive)| Bound { value, exclusive, attr: k.parts().0.attr })
                } else {
                    None
                }
            });
            let hi = find(&|k| {
                if is_hi(k) {
                    upper(k).map(|(value, exclusive)| Bound { value, exclusive, attr: k.parts().0.attr })
                } else {
                    None
                }
            });
            let (Some((lo_at, lo)), Some((hi_at, hi))) = (lo, hi) else { continue };
            if lo.value > hi.value || (lo.value == hi.value && (lo.exclusive || hi.exclusive)) {
                let span = self.list[lo_at.max(hi_at)].0;
                cx.syn_error(syn::Error::new(
                    span,
                    format!(
                        "`{} = {}` and `{} = {}` leave no value in between: mongod would reject every document; \
                         swap or fix the bounds",
                        lo.attr, lo.value, hi.attr, hi.value
                    ),
                ));
            }
        }
        for (plain, exclusive) in [("minimum", "exclusive_minimum"), ("maximum", "exclusive_maximum")] {
            let attr = |k: &Keyword| k.parts().0.attr;
            let has_plain = self.list.iter().any(|(_, k)| attr(k) == plain);
            if let Some((span, _)) = self.list.iter().find(|(_, k)| attr(k) == exclusive).filter(|_| has_plain) {
                cx.syn_error(syn::Error::new(
                    *span,
                    format!(
                        "`{plain}` and `{exclusive}` both set the schema's `{plain}`: keep one (`{exclusive}` also \
                         excludes the bound itself)"
                    ),
                ));
            }
        }
        if let Some((span, Keyword::MultipleOf(n))) =
            self.list.iter().find(|(_, k)| matches!(k, Keyword::MultipleOf(_)))
        {
            if num(*n) <= 0.0 {
                cx.syn_error(syn::Error::new(
                    *span,
                    "`multiple_of` takes a positive number (mongod refuses `multipleOf` of zero or less), e.g. \
                     `multiple_of = 0.01`",
                ));
            }
        }
    }

    pub fn has_description(&self) -> bool {
        self.list.iter().any(|(_, k)| matches!(k, Keyword::Description(_)))
    }

    pub fn bson_type(&self) -> Option<&str> {
        self.list.iter().find_map(|(_, k)| match k {
            Keyword::BsonType(alias) => Some(alias.as_str()),
            _ => None,
        })
    }
}

/// One side of a range keyword pair, as a number.
struct Bound {
    value: f64,
    exclusive: bool,
    attr: &'static str,
}

fn num(n: keyword::Num) -> f64 {
    match n {
        keyword::Num::Int(i) => i as f64,
        keyword::Num::Float(f) => f,
    }
}

/// `#[mongo(allow(rule_id, reason = "..."))]`: one rule knowingly waived. The reason is
/// required for the reviewer reading the model; the derive only checks it is there.
pub struct Waiver {
    pub rule: &'static str,
}

fn rule_id(path: &syn::Path) -> syn::Result<&'static str> {
    let name = path.get_ident().map(|i| i.to_string()).unwrap_or_else(|| path.to_token_stream().to_string());
    if let Some(rule) = WAIVABLE_RULES.iter().find(|r| **r == name) {
        return Ok(rule);
    }
    let message = match UNWAIVABLE_RULES.iter().find(|(r, _)| *r == name) {
        Some((rule, why)) => format!("`{rule}` cannot be waived: {why}"),
        None => format!("unknown rule `{name}` in `allow`; rules that can be waived: {}", WAIVABLE_RULES.join(", ")),
    };
    Err(syn::Error::new_spanned(path, message))
}

/// `allow(money_double, string_date, reason = "...")`
fn waivers(meta: &ParseNestedMeta) -> syn::Result<Vec<Waiver>> {
    let mut rules = Vec::new();
    let mut reason: Option<LitStr> = None;
    meta.parse_nested_meta(|inner| {
        if inner.path.is_ident(REASON) {
            reason = Some(grammar::value(grammar::row(Scope::Allow, REASON), &inner, string)?);
        } else {
            rules.push(rule_id(&inner.path)?);
        }
        Ok(())
    })?;
    let example = "e.g. `#[mongo(allow(money_double, reason = \"exchange rates are ratios, not amounts\"))]`";
    if rules.is_empty() {
        return Err(meta.error(format!("`allow` names the rules it waives, {example}")));
    }
    match reason {
        Some(reason) if !reason.value().trim().is_empty() => {
            Ok(rules.into_iter().map(|rule| Waiver { rule }).collect())
        }
        Some(reason) => Err(syn::Error::new(
            reason.span(),
            format!("the reason of a waiver cannot be empty: say why the rule does not apply here, {example}"),
        )),
        None => Err(meta.error(format!(
            "a waiver needs a reason: add `reason = \"...\"` saying why the rule does not apply here, {example}"
        ))),
    }
}

fn unknown(meta: &ParseNestedMeta, valid: &str) -> syn::Error {
    meta.error(format!("unknown mongo attribute `{}`; expected one of: {valid}", key(meta)))
}

/// The keys a field accepts besides the keywords.
const FIELD_KEYS: &str =
    "items(...), money, date, auto_increment, nullable, renamed_from = \"oldName\", allow(rule_id, reason = \"...\")";

/// The keywords of one level of `items(...)`: the items of an array, or the values of a
/// map, one level further down at each nested `items(...)`.
pub struct Items {
    /// The `items` key, for errors about the whole level.
    pub span: Span,
    pub keywords: Keywords,
}

/// `items(max_length = 30, pattern = "...", items(...))`: keywords of the field's items
/// (or its values, for a map), pushed as `levels[depth]`; a nested `items(...)` is the next
/// level down (the items of `Vec<Vec<String>>`'s inner vectors). `bson_type` is refused:
/// the derive cannot see the items' own type to keep their facts true.
fn items(cx: &Ctxt, meta: &ParseNestedMeta, depth: usize, levels: &mut Vec<Items>) -> syn::Result<()> {
    if levels.len() > depth {
        return Err(meta.error("duplicate attribute `items`: list every keyword of the items in one `items(...)`"));
    }
    let empty = |fork: syn::parse::ParseStream| -> syn::Result<bool> {
        let content;
        syn::parenthesized!(content in fork);
        Ok(content.is_empty())
    };
    if empty(&meta.input.fork()).unwrap_or(false) {
        return Err(
            meta.error("`items(...)` sets nothing: list the keywords of the items, e.g. `items(max_length = 30)`")
        );
    }
    levels.push(Items { span: meta.path.span(), keywords: Keywords::default() });
    let mut inner = Keywords::default();
    let mut result = Ok(());
    meta.parse_nested_meta(|nested| {
        if nested.path.is_ident(ITEMS) {
            let spec = grammar::row(Scope::Field, ITEMS);
            if let Err(error) = grammar::value(spec, &nested, |nested| items(cx, nested, depth + 1, levels)) {
                result = Err(error);
            }
            return Ok(());
        }
        if nested.path.is_ident("bson_type") {
            return Err(nested.error(
                "`bson_type` cannot be set on the items: give the items a type that has the BSON type (a newtype \
                 with `#[mongo(bson_type = \"...\")]` on its field)",
            ));
        }
        let spec = grammar::find(Scope::Keyword, &nested);
        if !spec.map_or(Ok(false), |spec| grammar::value(spec, &nested, |nested| inner.parse(cx, nested)))? {
            let keywords: Vec<&str> =
                keyword::KEYWORDS.iter().filter(|spec| spec.attr != "bson_type").map(|spec| spec.attr).collect();
            return Err(nested.error(format!(
                "unknown key `{}` in `items(...)`; expected one of: {}, items(...)",
                key(&nested),
                keywords.join(", ")
            )));
        }
        Ok(())
    })?;
    if inner.list.is_empty() && levels.len() == depth + 1 {
        return Err(
            meta.error("`items(...)` sets nothing: list the keywords of the items, e.g. `items(max_length = 30)`")
        );
    }
    inner.check_bounds(cx);
    levels[depth].keywords = inner;
    result
}

/// Every key a field accepts, for the "unknown mongo attribute" message.
fn field_keys() -> String {
    let keywords: Vec<&str> = keyword::KEYWORDS.iter().map(|spec| spec.attr).collect();
    format!("{}, {FIELD_KEYS}", keywords.join(", "))
}

/// Calls `f` for each key of every `#[mongo(...)]` attribute.
/// The path the expansion names the runtime by: `::mongo_schema`, or the path of
/// `#[mongo(crate = "...")]` for a crate that re-exports mongo-schema under another name.
/// Read apart from [`Container::from_ast`] (which reports its errors) so that the fallback
/// of a failed derive names the same runtime.
pub fn runtime_path(attrs: &[syn::Attribute]) -> syn::Path {
    let mut found = None;
    for attr in attrs.iter().filter(|a| a.path().is_ident(MONGO)) {
        let _ = attr.parse_nested_meta(|meta| {
            if meta.path.is_ident(CRATE) {
                found = string(&meta)?.parse::<syn::Path>().ok();
            } else if meta.input.peek(syn::Token![=]) {
                meta.value()?.parse::<syn::Expr>()?;
            } else if meta.input.peek(syn::token::Paren) {
                let content;
                syn::parenthesized!(content in meta.input);
                content.parse::<proc_macro2::TokenStream>()?;
            }
            Ok(())
        });
    }
    found.unwrap_or_else(|| syn::parse_quote!(::mongo_schema))
}

fn each_key(cx: &Ctxt, attrs: &[syn::Attribute], mut f: impl FnMut(&ParseNestedMeta) -> syn::Result<()>) {
    for attr in attrs.iter().filter(|a| a.path().is_ident(MONGO)) {
        if let Err(error) = attr.parse_nested_meta(|meta| f(&meta)) {
            cx.syn_error(error);
        }
    }
}

/// `#[mongo(...)]` on a field or variant.
#[derive(Default)]
pub struct Field {
    pub keywords: Keywords,
    /// Holds money whatever its name says (`money_double`).
    pub money: bool,
    /// Holds a date whatever its name says (`string_date`).
    pub date: bool,
    /// An integer the application increments (`monotonic_shard_key`).
    pub auto_increment: bool,
    pub allow: Vec<Waiver>,
    /// `items(...)`: the keywords of the items (or map values), one entry a level.
    pub items: Vec<Items>,
    /// `renamed_from = "oldName"`: the key this field was stored under before (migrations
    /// rename the stored documents' field safely).
    pub renamed_from: Option<LitStr>,
    /// `nullable`: an `Option` serde skips when `None` (so the field may be missing) whose
    /// validator admits `null` too, which other writers store and serde reads as `None`.
    /// The key's span, for errors.
    pub nullable: Option<Span>,
}

impl Field {
    pub fn from_ast(cx: &Ctxt, attrs: &[syn::Attribute]) -> Self {
        let mut keywords = Keywords::default();
        let mut money = BoolAttr::none(cx, MONEY);
        let mut date = BoolAttr::none(cx, DATE);
        let mut auto_increment = BoolAttr::none(cx, AUTO_INCREMENT);
        let mut allow = Vec::new();
        let mut levels = Vec::new();
        let mut renamed_from: Option<LitStr> = None;
        let mut nullable = None;
        each_key(cx, attrs, |meta| {
            let Some(spec) = grammar::find(Scope::Field, meta) else { return Err(unknown(meta, &field_keys())) };
            grammar::value(spec, meta, |meta| {
                let path = &meta.path;
                if path.is_ident(RENAMED_FROM) {
                    // #[mongo(renamed_from = "maxSeats")]
                    let old = super::string(meta)?;
                    let name = old.value();
                    if name.is_empty() || name.starts_with('$') || name.contains('.') || name == "_id" {
                        return Err(syn::Error::new(
                        old.span(),
                        "renamed_from names the field's previous key in the stored documents: not empty, not `_id`, \
                         without `$` at its start or `.` (one field of this struct)",
                    ));
                    }
                    if renamed_from.is_some() {
                        return Err(meta.error("duplicate mongo attribute `renamed_from`"));
                    }
                    renamed_from = Some(old);
                } else if path.is_ident(ITEMS) {
                    // #[mongo(items(max_length = 30, pattern = "^[a-z]+$"))]
                    items(cx, meta, 0, &mut levels)?;
                } else if path.is_ident(MONEY) {
                    // #[mongo(money)]
                    if flag(meta)? {
                        money.set_true(path);
                    }
                } else if path.is_ident(DATE) {
                    // #[mongo(date)]
                    if flag(meta)? {
                        date.set_true(path);
                    }
                } else if path.is_ident(AUTO_INCREMENT) {
                    // #[mongo(auto_increment)]
                    if flag(meta)? {
                        auto_increment.set_true(path);
                    }
                } else if path.is_ident(NULLABLE) {
                    // #[mongo(nullable)]
                    if nullable.is_some() {
                        return Err(meta.error("duplicate mongo attribute `nullable`"));
                    }
                    if flag(meta)? {
                        nullable = Some(path.span());
                    }
                } else if path.is_ident(ALLOW) {
                    // #[mongo(allow(money_double, reason = "..."))]
                    allow.extend(waivers(meta)?);
                } else if !keywords.parse(cx, meta)? {
                    return Err(unknown(meta, &field_keys()));
                }
                Ok(())
            })
        });
        keywords.check_bounds(cx);
        Field {
            keywords,
            money: money.get(),
            date: date.get(),
            auto_increment: auto_increment.get(),
            allow,
            items: levels,
            renamed_from,
            nullable,
        }
    }
}

/// `#[mongo(...)]` on a struct or enum.
#[derive(Default)]
pub struct Container {
    pub db: Option<LitStr>,
    pub collection: Option<LitStr>,
    pub validation_level: Option<(LitStr, ValidationLevel)>,
    pub validation_action: Option<(LitStr, ValidationAction)>,
    pub keywords: Keywords,
    /// `max_depth = N`: the deepest nesting allowed (default and greatest 5).
    pub max_depth: Option<u32>,
    /// `field_case = "camelCase" | "snake_case"`: the one style of the fields.
    pub field_case: Option<(LitStr, FieldCase)>,
    /// `max_items_limit = N`: the greatest `max_items` of the fields (default and greatest 1000).
    pub max_items_limit: Option<u64>,
    /// `timeseries(...)`, `index(...)`, `shard_key(...)`, `capped(...)`.
    pub options: super::options::Options,
    pub allow: Vec<Waiver>,
}

/// `lit` names one of `choices` (by `name`), or an error listing them.
fn one_of<T: Copy>(lit: LitStr, choices: &[T], name: fn(T) -> &'static str, what: &str) -> syn::Result<(LitStr, T)> {
    let value = lit.value();
    match choices.iter().find(|choice| name(**choice) == value) {
        Some(choice) => Ok((lit, *choice)),
        None => {
            let names: Vec<String> = choices.iter().map(|choice| format!("\"{}\"", name(*choice))).collect();
            Err(syn::Error::new(
                lit.span(),
                format!("unknown {what} \"{value}\", expected one of {}", names.join(", ")),
            ))
        }
    }
}

/// Every key a type accepts, for the "unknown mongo attribute" message.
fn container_keys() -> String {
    let annotations: Vec<&str> =
        keyword::KEYWORDS.iter().filter(|spec| is_annotation(spec)).map(|spec| spec.attr).collect();
    format!(
        "db, collection, validation_level, validation_action, {}, max_depth, field_case, max_items_limit, \
         timeseries(...), index(...), shard_key(...), capped(...), allow(rule_id, reason = \"...\"), \
         crate = \"path::to::mongo_schema\"",
        annotations.join(", ")
    )
}

/// `max_depth = 3`: at least 1, at most the crate's limit (the standard's 5 unless the
/// crate policy sets another).
fn max_depth(meta: &ParseNestedMeta) -> syn::Result<u32> {
    let n = unsigned(meta)?;
    let ceiling = crate::policy::current().policy.max_depth;
    match u32::try_from(n) {
        Ok(n) if (1..=ceiling).contains(&n) => Ok(n),
        _ => Err(meta.error(format!(
            "`max_depth` is 1 to {ceiling}: {}, so a type can only lower it",
            ceiling_source(ceiling == DEFAULT_MAX_DEPTH, "the standard keeps documents within 3-5 levels")
        ))),
    }
}

/// `max_items_limit = 100`: at most the crate's limit (the standard's 1000 unless the
/// crate policy sets another).
fn max_items_limit(meta: &ParseNestedMeta) -> syn::Result<u64> {
    let ceiling = crate::policy::current().policy.max_items_limit;
    match unsigned(meta)? {
        n if (1..=ceiling).contains(&n) => Ok(n),
        _ => Err(meta.error(format!(
            "`max_items_limit` is 1 to {ceiling}: {}, so a type can only lower it",
            ceiling_source(ceiling == DEFAULT_MAX_ITEMS, "the standard keeps arrays under 1000 items")
        ))),
    }
}

/// Who set a limit: the standard, or the crate policy.
fn ceiling_source(standard: bool, why: &str) -> String {
    match standard {
        true => why.to_owned(),
        false => format!("the crate's limit, set in Cargo.toml [{}]", crate::policy::TABLE),
    }
}

/// `field_case = "camelCase"`
fn field_case(meta: &ParseNestedMeta) -> syn::Result<(LitStr, FieldCase)> {
    let lit = string(meta)?;
    match FieldCase::from_name(&lit.value()) {
        Some(case) => Ok((lit, case)),
        None => Err(syn::Error::new(
            lit.span(),
            format!("unknown field_case \"{}\", expected \"camelCase\" or \"snake_case\"", lit.value()),
        )),
    }
}

impl Container {
    pub fn from_ast(cx: &Ctxt, attrs: &[syn::Attribute]) -> Self {
        let mut db = Attr::none(cx, DB);
        let mut collection = Attr::none(cx, COLLECTION);
        let mut level = Attr::none(cx, VALIDATION_LEVEL);
        let mut action = Attr::none(cx, VALIDATION_ACTION);
        let mut keywords = Keywords::default();
        let mut depth = Attr::none(cx, MAX_DEPTH);
        let mut case = Attr::none(cx, FIELD_CASE);
        let mut items_limit = Attr::none(cx, MAX_ITEMS_LIMIT);
        let mut options = super::options::Options::default();
        let mut allow = Vec::new();
        each_key(cx, attrs, |meta| {
            let Some(spec) = grammar::find(Scope::Type, meta) else { return Err(unknown(meta, &container_keys())) };
            grammar::value(spec, meta, |meta| {
                let path = &meta.path;
                if path.is_ident(CRATE) {
                    // #[mongo(crate = "my_facade::mongo_schema")]: read by `runtime_path`
                    string(meta)?.parse::<syn::Path>()?;
                } else if path.is_ident(DB) {
                    // #[mongo(db = "db_user_center")]
                    db.set(path, string(meta)?);
                } else if path.is_ident(COLLECTION) {
                    // #[mongo(collection = "t_user_account")]
                    collection.set(path, string(meta)?);
                } else if path.is_ident(VALIDATION_LEVEL) {
                    // #[mongo(validation_level = "strict" | "moderate" | "off")]
                    level.set(path, one_of(string(meta)?, &ValidationLevel::ALL, |l| l.as_str(), "validation_level")?);
                } else if path.is_ident(VALIDATION_ACTION) {
                    // #[mongo(validation_action = "error" | "warn" | "errorAndLog")]
                    action
                        .set(path, one_of(string(meta)?, &ValidationAction::ALL, |a| a.as_str(), "validation_action")?);
                } else if path.is_ident(MAX_DEPTH) {
                    // #[mongo(max_depth = 3)]
                    depth.set(path, max_depth(meta)?);
                } else if path.is_ident(FIELD_CASE) {
                    // #[mongo(field_case = "camelCase" | "snake_case")]
                    case.set(path, field_case(meta)?);
                } else if path.is_ident(MAX_ITEMS_LIMIT) {
                    // #[mongo(max_items_limit = 100)]
                    items_limit.set(path, max_items_limit(meta)?);
                } else if path.is_ident(ALLOW) {
                    // #[mongo(allow(field_name, reason = "..."))]
                    allow.extend(waivers(meta)?);
                } else if is_annotation_key(meta) {
                    // #[mongo(title = "...", description = "...")]
                    keywords.parse(cx, meta)?;
                } else if !options.parse(cx, meta)? {
                    return Err(unknown(meta, &container_keys()));
                }
                Ok(())
            })
        });
        Container {
            db: db.get(),
            collection: collection.get(),
            validation_level: level.get(),
            validation_action: action.get(),
            keywords,
            max_depth: depth.get(),
            field_case: case.get(),
            max_items_limit: items_limit.get(),
            options,
            allow,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::unbalanced;

    #[test]
    fn pcre_constructs_pass() {
        for pattern in [
            r"(?>ab|a)c",
            r"^\h*$",
            r"^\Q1.5\E$",
            r"^a++b*+c?+$",
            r"(*UCP)^\w+$",
            r"^[]a]$",
            r"^[^]a]$",
            r"^[[:alpha:]]+$",
            r"^[(]$",
            r"^\($",
            r"^\Q(\E$",
            r"^[\Q]\E]$",
            r"a(?#comment (with a paren)b",
            r"(?<year>\d{4})-(?P<m>\d\d)\k<year>",
            r"(?<=a)b(?!c)",
            r"^\Q[unterminated",
        ] {
            assert_eq!(unbalanced(pattern), None, "{pattern}");
        }
    }

    #[test]
    fn broken_structure_is_found_at_its_offset() {
        assert_eq!(unbalanced("(ab").map(|e| e.0), Some(0));
        assert_eq!(unbalanced("a(b))").map(|e| e.0), Some(4));
        assert_eq!(unbalanced("a[bc").map(|e| e.0), Some(1));
        assert_eq!(unbalanced("[]").map(|e| e.0), Some(0));
        assert_eq!(unbalanced(r"ab\").map(|e| e.0), Some(2));
        assert_eq!(unbalanced("(?#open").map(|e| e.0), Some(0));
        assert_eq!(unbalanced(r"\((a").map(|e| e.0), Some(2));
    }
}
