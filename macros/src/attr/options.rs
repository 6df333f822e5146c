//! Collection options on a root: `timeseries(...)`, `index(...)` (repeatable),
//! `shard_key(...)`, `capped(...)`, `collation(...)`, `clustered(...)`. One branch per
//! key, each headed by its syntax.

use super::grammar::{self, Scope};
use super::json::{parse_json, JsonValue};
use super::{key, string, Attr, BoolAttr};
use crate::ctxt::Ctxt;
use crate::symbol::*;
use mongo_schema_contract::options::keys::*;
use mongo_schema_contract::options::{
    COLLATION_ALTERNATE, COLLATION_CASE_FIRST, COLLATION_MAX_VARIABLE, COLLATION_STRENGTHS,
};
use proc_macro2::Span;
use syn::ext::IdentExt;
use syn::meta::ParseNestedMeta;
use syn::parse::ParseStream;
use syn::spanned::Spanned;
use syn::{LitStr, Token};

/// The value of one key of an index or shard key pattern: the contract's, which the
/// runtime's `IndexKey` is.
pub use mongo_schema_contract::options::IndexKey as KeyKind;

/// `field = 1` or `"address.city" = -1` in a key pattern.
pub struct Key {
    /// The dotted path as written to MongoDB (after serde renames, as the user writes it).
    pub path: String,
    pub span: Span,
    pub kind: KeyKind,
}

pub struct Timeseries {
    pub span: Span,
    pub time_field: LitStr,
    pub meta_field: Option<LitStr>,
    pub granularity: Option<LitStr>,
    pub expire_after_seconds: Option<u64>,
}

pub struct Index {
    pub span: Span,
    pub keys: Vec<Key>,
    pub unique: bool,
    pub name: Option<LitStr>,
    pub ttl: Option<(Span, u64)>,
    pub partial: Option<LitStr>,
    /// `sparse`, at its span.
    pub sparse: Option<Span>,
    /// `hidden`, at its span.
    pub hidden: Option<Span>,
    pub collation: Option<Collation>,
    /// `weights(field = n)`: (field path, its span, weight), in order.
    pub weights: Option<(Span, PathValues<u64>)>,
    pub default_language: Option<LitStr>,
    pub language_override: Option<LitStr>,
    /// `wildcard_projection(path = 1 | 0)`: (path, its span, included).
    pub wildcard_projection: Option<(Span, PathValues<bool>)>,
}

/// `(path = value, ...)`: each field path, its span and its value.
pub type PathValues<T> = Vec<(String, Span, T)>;

/// `collation(locale = "en", strength = 2, ...)`: of an index, or a collection's default.
#[derive(Clone)]
pub struct Collation {
    pub span: Span,
    pub locale: LitStr,
    pub strength: Option<u32>,
    pub case_level: Option<bool>,
    pub case_first: Option<String>,
    pub numeric_ordering: Option<bool>,
    pub alternate: Option<String>,
    pub max_variable: Option<String>,
    pub normalization: Option<bool>,
    pub backwards: Option<bool>,
}

impl Collation {
    /// `{locale: "simple"}`: binary comparison, mongod's default.
    pub fn is_simple(&self) -> bool {
        self.locale.value() == "simple"
    }

    /// The same comparison (what mongod compares to tell two indexes apart).
    pub fn same(&self, other: &Collation) -> bool {
        self.locale.value() == other.locale.value()
            && self.strength == other.strength
            && self.case_level == other.case_level
            && self.case_first == other.case_first
            && self.numeric_ordering == other.numeric_ordering
            && self.alternate == other.alternate
            && self.max_variable == other.max_variable
            && self.normalization == other.normalization
            && self.backwards == other.backwards
    }
}

/// `clustered` or `clustered(expire_after_seconds = N)`.
pub struct Clustered {
    pub span: Span,
    pub expire_after_seconds: Option<u64>,
}

impl Key {
    /// A wildcard key: `"$**"` or `"path.$**"`.
    pub fn is_wildcard(&self) -> bool {
        self.path == WILDCARD || self.path.ends_with(".$**")
    }
}

/// The wildcard segment of a key path.
pub const WILDCARD: &str = "$**";

impl Index {
    /// The declared name, or MongoDB's default: `field_1_other_-1`.
    pub fn name(&self) -> String {
        match &self.name {
            Some(name) => name.value(),
            None => self.keys.iter().map(|k| format!("{}_{}", k.path, k.kind.suffix())).collect::<Vec<_>>().join("_"),
        }
    }
}

pub struct ShardKey {
    pub span: Span,
    pub keys: Vec<Key>,
}

pub struct Capped {
    pub span: Span,
    pub size: u64,
    pub max: Option<u64>,
}

/// The collection options of a type.
#[derive(Default)]
pub struct Options {
    pub timeseries: Option<Timeseries>,
    pub indexes: Vec<Index>,
    pub shard_key: Option<ShardKey>,
    pub capped: Option<Capped>,
    /// The collection's default collation.
    pub collation: Option<Collation>,
    pub clustered: Option<Clustered>,
}

impl Options {
    /// Parses `meta` when it is a collection option; `Ok(false)` otherwise.
    pub fn parse(&mut self, cx: &Ctxt, meta: &ParseNestedMeta) -> syn::Result<bool> {
        let path = &meta.path;
        if path.is_ident(TIMESERIES) {
            // #[mongo(timeseries(time_field = "timestamp", meta_field = "deviceId", granularity = "seconds", expire_after_seconds = 86400))]
            let value = timeseries(cx, meta)?;
            once(cx, meta, &mut self.timeseries, value);
        } else if path.is_ident(INDEX) {
            // #[mongo(index(keys(deviceId = 1, "address.city" = -1), unique, name = "...", ttl = 3600, partial = r#"{"total": {"$gt": 0}}"#))]
            self.indexes.push(index(cx, meta)?);
        } else if path.is_ident(SHARD_KEY) {
            // #[mongo(shard_key(deviceId = "hashed"))] or #[mongo(shard_key(region = 1, userId = 1))]
            let keys = key_list(meta, &[KeyKind::Ascending, KeyKind::Hashed])?;
            once(cx, meta, &mut self.shard_key, ShardKey { span: path.span(), keys });
        } else if path.is_ident(CAPPED) {
            // #[mongo(capped(size = 1048576, max = 1000))]
            let value = capped(cx, meta)?;
            once(cx, meta, &mut self.capped, value);
        } else if path.is_ident(COLLATION) {
            // #[mongo(collation(locale = "en", strength = 2))]
            let value = collation(cx, meta)?;
            once(cx, meta, &mut self.collation, value);
        } else if path.is_ident(CLUSTERED) {
            // #[mongo(clustered)] or #[mongo(clustered(expire_after_seconds = 86400))]
            let value = clustered(cx, meta)?;
            once(cx, meta, &mut self.clustered, value);
        } else {
            return Ok(false);
        }
        Ok(true)
    }
}

fn once<T>(cx: &Ctxt, meta: &ParseNestedMeta, slot: &mut Option<T>, value: T) {
    if slot.is_some() {
        cx.error_spanned_by(&meta.path, format!("duplicate attribute `{}`", key(meta)));
    } else {
        *slot = Some(value);
    }
}

/// `key = 86400`, a positive integer.
fn positive(meta: &ParseNestedMeta) -> syn::Result<u64> {
    let lit: syn::LitInt = meta.value()?.parse()?;
    match lit.base10_parse::<u64>() {
        Ok(n) if n > 0 && n <= i64::MAX as u64 => Ok(n),
        _ => Err(syn::Error::new(
            lit.span(),
            format!("`{}` takes a positive integer, e.g. `{} = 3600`", key(meta), key(meta)),
        )),
    }
}

/// `ttl`: `0` is MongoDB's documented "expire at the clock time stored in the field".
fn non_negative(meta: &ParseNestedMeta) -> syn::Result<u64> {
    let lit: syn::LitInt = meta.value()?.parse()?;
    match lit.base10_parse::<u64>() {
        Ok(n) if n <= i32::MAX as u64 => Ok(n),
        _ => Err(syn::Error::new(
            lit.span(),
            format!(
                "`{}` takes seconds from 0 to 2147483647 (0 expires each document at the time stored in the field), \
                 e.g. `{} = 3600`",
                key(meta),
                key(meta)
            ),
        )),
    }
}

const GRANULARITIES: &[&str] = &["seconds", "minutes", "hours"];

fn timeseries(cx: &Ctxt, meta: &ParseNestedMeta) -> syn::Result<Timeseries> {
    let mut time = Attr::none(cx, TIME_FIELD);
    let mut meta_field = Attr::none(cx, META_FIELD);
    let mut granularity = Attr::none(cx, GRANULARITY);
    let mut expire = Attr::none(cx, EXPIRE_AFTER_SECONDS);
    meta.parse_nested_meta(|inner| {
        let Some(spec) = grammar::find(Scope::Timeseries, &inner) else { return Err(inner.error(format!("unknown timeseries option `{}`; expected one of: time_field, meta_field, granularity, expire_after_seconds", key(&inner)))) };
        grammar::value(spec, &inner, |inner| {
        let path = &inner.path;
        if path.is_ident(TIME_FIELD) {
            time.set(path, string(inner)?);
        } else if path.is_ident(META_FIELD) {
            meta_field.set(path, string(inner)?);
        } else if path.is_ident(GRANULARITY) {
            let lit = string(inner)?;
            if !GRANULARITIES.contains(&lit.value().as_str()) {
                return Err(syn::Error::new(lit.span(), format!("unknown granularity \"{}\", expected \"seconds\", \"minutes\" or \"hours\"", lit.value())));
            }
            granularity.set(path, lit);
        } else if path.is_ident(EXPIRE_AFTER_SECONDS) {
            expire.set(path, positive(inner)?);
        } else {
            return Err(inner.error(format!("unknown timeseries option `{}`; expected one of: time_field, meta_field, granularity, expire_after_seconds", key(inner))));
        }
        Ok(())
        })
    })?;
    let Some(time_field) = time.get() else {
        return Err(meta.error("`timeseries` needs `time_field = \"...\"`, the field holding each measurement's date"));
    };
    Ok(Timeseries {
        span: meta.path.span(),
        time_field,
        meta_field: meta_field.get(),
        granularity: granularity.get(),
        expire_after_seconds: expire.get(),
    })
}

fn index(cx: &Ctxt, meta: &ParseNestedMeta) -> syn::Result<Index> {
    let mut keys = Attr::none(cx, KEYS);
    let mut unique = BoolAttr::none(cx, UNIQUE);
    let mut name = Attr::none(cx, NAME);
    let mut ttl = Attr::none(cx, TTL);
    let mut partial = Attr::none(cx, PARTIAL);
    let mut sparse = Attr::none(cx, SPARSE);
    let mut hidden = Attr::none(cx, HIDDEN);
    let mut collation_ = Attr::none(cx, COLLATION);
    let mut weights = Attr::none(cx, WEIGHTS);
    let mut default_language = Attr::none(cx, DEFAULT_LANGUAGE);
    let mut language_override = Attr::none(cx, LANGUAGE_OVERRIDE);
    let mut projection = Attr::none(cx, WILDCARD_PROJECTION);
    let all = KeyKind::ALL;
    let unknown = |inner: &ParseNestedMeta| {
        inner.error(format!(
            "unknown index option `{}`; expected one of: keys(...), unique, name, ttl, partial, sparse, hidden, \
             collation(...), weights(...), default_language, language_override, wildcard_projection(...)",
            key(inner)
        ))
    };
    meta.parse_nested_meta(|inner| {
        let Some(spec) = grammar::find(Scope::Index, &inner) else { return Err(unknown(&inner)) };
        grammar::value(spec, &inner, |inner| {
            let path = &inner.path;
            if path.is_ident(KEYS) {
                keys.set(path, key_list(inner, &all)?);
            } else if path.is_ident(UNIQUE) {
                // `unique`, or `unique = true | false` as every flag
                if flag(inner)? {
                    unique.set_true(path);
                }
            } else if path.is_ident(NAME) {
                name.set(path, string(inner)?);
            } else if path.is_ident(TTL) {
                ttl.set(path, (path.span(), non_negative(inner)?));
            } else if path.is_ident(PARTIAL) {
                partial.set(path, json_object(&string(inner)?)?);
            } else if path.is_ident(SPARSE) {
                if flag(inner)? {
                    sparse.set(path, path.span());
                }
            } else if path.is_ident(HIDDEN) {
                if flag(inner)? {
                    hidden.set(path, path.span());
                }
            } else if path.is_ident(COLLATION) {
                collation_.set(path, collation(cx, inner)?);
            } else if path.is_ident(WEIGHTS) {
                // weights(title = 10, "body.text" = 2)
                let list = pairs(inner, |lit| {
                    match lit.base10_parse::<u64>() {
                Ok(n) if n > 0 && n < u64::from(mongo_schema_contract::options::MAX_TEXT_WEIGHT) => Ok(n),
                _ => Err(syn::Error::new(
                    lit.span(),
                    "a text weight is an integer from 1 to 99999 (mongod: \"text index weight must be in the exclusive \
                     interval (0,100000)\", code 67), e.g. `weights(title = 10, body = 1)`",
                )),
            }
                })?;
                weights.set(path, (path.span(), list));
            } else if path.is_ident(DEFAULT_LANGUAGE) {
                default_language.set(path, string(inner)?);
            } else if path.is_ident(LANGUAGE_OVERRIDE) {
                language_override.set(path, string(inner)?);
            } else if path.is_ident(WILDCARD_PROJECTION) {
                // wildcard_projection(attributes = 1, "meta.internal" = 0)
                let list = pairs(inner, |lit| match lit.base10_digits() {
                    "1" => Ok(true),
                    "0" => Ok(false),
                    _ => Err(syn::Error::new(
                        lit.span(),
                        "a wildcard projection includes a path with `1` or excludes it with `0`",
                    )),
                })?;
                projection.set(path, (path.span(), list));
            } else {
                return Err(unknown(inner));
            }
            Ok(())
        })
    })?;
    let Some(keys) = keys.get() else {
        return Err(meta.error("`index` needs its keys: `index(keys(field = 1, other = -1))`"));
    };
    Ok(Index {
        span: meta.path.span(),
        keys,
        unique: unique.get(),
        name: name.get(),
        ttl: ttl.get(),
        partial: partial.get(),
        sparse: sparse.get(),
        hidden: hidden.get(),
        collation: collation_.get(),
        weights: weights.get(),
        default_language: default_language.get(),
        language_override: language_override.get(),
        wildcard_projection: projection.get(),
    })
}

/// `(field = n, "a.b" = n)`: field paths, each with the value `value` reads from its integer.
fn pairs<T>(meta: &ParseNestedMeta, value: impl Fn(&syn::LitInt) -> syn::Result<T>) -> syn::Result<PathValues<T>> {
    let content;
    syn::parenthesized!(content in meta.input);
    let mut out = Vec::new();
    while !content.is_empty() {
        let (path, span) = field_path(&content)?;
        content.parse::<Token![=]>()?;
        let lit: syn::LitInt = content.parse()?;
        out.push((path, span, value(&lit)?));
        if !content.is_empty() {
            content.parse::<Token![,]>()?;
        }
    }
    if out.is_empty() {
        return Err(meta.error(format!("`{}` names at least one field, e.g. `{}(title = 1)`", key(meta), key(meta))));
    }
    Ok(out)
}

/// `collation(locale = "en", strength = 2, case_level, case_first = "upper", numeric_ordering,
/// alternate = "shifted", max_variable = "punct", normalization, backwards)`; a flag is
/// written bare or `= true` / `= false`.
fn collation(cx: &Ctxt, meta: &ParseNestedMeta) -> syn::Result<Collation> {
    let mut locale = Attr::none(cx, LOCALE);
    let mut strength = Attr::none(cx, STRENGTH);
    let mut case_level = Attr::none(cx, CASE_LEVEL);
    let mut case_first = Attr::none(cx, CASE_FIRST);
    let mut numeric_ordering = Attr::none(cx, NUMERIC_ORDERING);
    let mut alternate = Attr::none(cx, ALTERNATE);
    let mut max_variable = Attr::none(cx, MAX_VARIABLE);
    let mut normalization = Attr::none(cx, NORMALIZATION);
    let mut backwards = Attr::none(cx, BACKWARDS);
    let word = |inner: &ParseNestedMeta, allowed: &[&str]| -> syn::Result<String> {
        let lit = string(inner)?;
        let value = lit.value();
        if allowed.contains(&value.as_str()) {
            return Ok(value);
        }
        let names: Vec<String> = allowed.iter().map(|a| format!("\"{a}\"")).collect();
        Err(syn::Error::new(lit.span(), format!("`{}` is one of {}", key(inner), names.join(", "))))
    };
    let unknown = |inner: &ParseNestedMeta| {
        inner.error(format!(
            "unknown collation option `{}`; expected one of: locale, strength, case_level, case_first, \
             numeric_ordering, alternate, max_variable, normalization, backwards",
            key(inner)
        ))
    };
    meta.parse_nested_meta(|inner| {
        let Some(spec) = grammar::find(Scope::Collation, &inner) else { return Err(unknown(&inner)) };
        grammar::value(spec, &inner, |inner| {
            let path = &inner.path;
            if path.is_ident(LOCALE) {
                let lit = string(inner)?;
                if !locale_like(&lit.value()) {
                    return Err(syn::Error::new(
                    lit.span(),
                    "`locale` is an ICU locale mongod supports, such as \"en\", \"fr_CA\", \"zh@collation=pinyin\", or \
                     \"simple\" (binary comparison); mongod refuses others (code 2, \"Field 'locale' is invalid\")",
                ));
                }
                locale.set(path, lit);
            } else if path.is_ident(STRENGTH) {
                let lit: syn::LitInt = inner.value()?.parse()?;
                match lit.base10_parse::<u32>() {
                    Ok(n) if COLLATION_STRENGTHS.contains(&n) => strength.set(path, n),
                    _ => return Err(syn::Error::new(
                        lit.span(),
                        "`strength` is 1 (base letters only), 2 (and accents: case-insensitive), 3 (and case, ICU's \
                         default), 4 or 5; mongod refuses others (code 51024)",
                    )),
                }
            } else if path.is_ident(CASE_LEVEL) {
                case_level.set(path, flag(inner)?);
            } else if path.is_ident(CASE_FIRST) {
                case_first.set(path, word(inner, &COLLATION_CASE_FIRST)?);
            } else if path.is_ident(NUMERIC_ORDERING) {
                numeric_ordering.set(path, flag(inner)?);
            } else if path.is_ident(ALTERNATE) {
                alternate.set(path, word(inner, &COLLATION_ALTERNATE)?);
            } else if path.is_ident(MAX_VARIABLE) {
                max_variable.set(path, word(inner, &COLLATION_MAX_VARIABLE)?);
            } else if path.is_ident(NORMALIZATION) {
                normalization.set(path, flag(inner)?);
            } else if path.is_ident(BACKWARDS) {
                backwards.set(path, flag(inner)?);
            } else {
                return Err(unknown(inner));
            }
            Ok(())
        })
    })?;
    let Some(locale) = locale.get() else {
        return Err(meta.error(
            "`collation` needs `locale = \"...\"`, e.g. `collation(locale = \"en\", strength = 2)` for case-insensitive \
             comparison",
        ));
    };
    Ok(Collation {
        span: meta.path.span(),
        locale,
        strength: strength.get(),
        case_level: case_level.get(),
        case_first: case_first.get(),
        numeric_ordering: numeric_ordering.get(),
        alternate: alternate.get(),
        max_variable: max_variable.get(),
        normalization: normalization.get(),
        backwards: backwards.get(),
    })
}

/// A locale's shape: `simple`, or a language code with optional region, script and
/// `@collation=` keyword (`en`, `fr_CA`, `zh_Hant`, `de@collation=phonebook`).
fn locale_like(locale: &str) -> bool {
    if locale == "simple" {
        return true;
    }
    let (base, keyword) = locale.split_once('@').unwrap_or((locale, ""));
    let mut parts = base.split('_');
    let language = parts.next().unwrap_or_default();
    (2..=3).contains(&language.len())
        && language.bytes().all(|b| b.is_ascii_lowercase())
        && parts.all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_alphanumeric()))
        && (keyword.is_empty()
            || keyword
                .strip_prefix("collation=")
                .is_some_and(|k| !k.is_empty() && k.bytes().all(|b| b.is_ascii_alphanumeric())))
}

/// A flag: bare (`true`), or `= true` / `= false`.
fn flag(meta: &ParseNestedMeta) -> syn::Result<bool> {
    if meta.input.peek(Token![=]) {
        let lit: syn::LitBool = meta.value()?.parse()?;
        Ok(lit.value)
    } else {
        Ok(true)
    }
}

fn clustered(cx: &Ctxt, meta: &ParseNestedMeta) -> syn::Result<Clustered> {
    let mut expire = Attr::none(cx, EXPIRE_AFTER_SECONDS);
    if meta.input.peek(syn::token::Paren) {
        meta.parse_nested_meta(|inner| {
            if let Some(spec) = grammar::find(Scope::Clustered, &inner) {
                expire.set(&inner.path, grammar::value(spec, &inner, non_negative)?);
                Ok(())
            } else {
                Err(inner.error(format!(
                    "unknown clustered option `{}`; expected `expire_after_seconds = N` (documents whose `_id`, a date, \
                     is older are deleted)",
                    key(&inner)
                )))
            }
        })?;
    }
    Ok(Clustered { span: meta.path.span(), expire_after_seconds: expire.get() })
}

fn capped(cx: &Ctxt, meta: &ParseNestedMeta) -> syn::Result<Capped> {
    let mut size = Attr::none(cx, SIZE);
    let mut max = Attr::none(cx, MAX);
    meta.parse_nested_meta(|inner| {
        let spec = grammar::find(Scope::Capped, &inner);
        if let Some(spec) = spec.filter(|_| inner.path.is_ident(SIZE)) {
            size.set(&inner.path, grammar::value(spec, &inner, positive)?);
        } else if let Some(spec) = spec.filter(|_| inner.path.is_ident(MAX)) {
            max.set(&inner.path, grammar::value(spec, &inner, positive)?);
        } else {
            return Err(inner.error(format!(
                "unknown capped option `{}`; expected `size` (bytes) and optionally `max` (documents)",
                key(&inner)
            )));
        }
        Ok(())
    })?;
    match size.get() {
        Some(size) => Ok(Capped { span: meta.path.span(), size, max: max.get() }),
        None => Err(meta.error(
            "`capped` needs `size = N`, the collection's greatest size in bytes: `capped(size = 1048576, max = 1000)`",
        )),
    }
}

/// `(field = 1, "a.b" = -1, loc = "2dsphere")`, each kind among `allowed`.
fn key_list(meta: &ParseNestedMeta, allowed: &[KeyKind]) -> syn::Result<Vec<Key>> {
    let content;
    syn::parenthesized!(content in meta.input);
    let mut keys = Vec::new();
    while !content.is_empty() {
        keys.push(one_key(&content, meta, allowed)?);
        if !content.is_empty() {
            content.parse::<Token![,]>()?;
        }
    }
    if keys.is_empty() {
        return Err(meta.error(format!(
            "`{}` names at least one field, e.g. `{}(deviceId = 1)`",
            key(meta),
            key(meta)
        )));
    }
    Ok(keys)
}

/// `field` or `"a.b"`: a field path, its empty segments refused.
fn field_path(input: ParseStream) -> syn::Result<(String, Span)> {
    let (path, span) = if input.peek(LitStr) {
        let lit: LitStr = input.parse()?;
        (lit.value(), lit.span())
    } else {
        let ident = syn::Ident::parse_any(input).map_err(|e| {
            syn::Error::new(e.span(), "expected a field name, or a quoted dotted path such as `\"address.city\" = 1`")
        })?;
        (ident.unraw().to_string(), ident.span())
    };
    if path.is_empty() || path.split('.').any(str::is_empty) {
        return Err(syn::Error::new(
            span,
            format!("`{path}` is not a field path: write `field` or `\"embedded.field\"`"),
        ));
    }
    Ok((path, span))
}

fn one_key(input: ParseStream, meta: &ParseNestedMeta, allowed: &[KeyKind]) -> syn::Result<Key> {
    let (path, span) = field_path(input)?;
    let segments: Vec<&str> = path.split('.').collect();
    let dollar =
        segments.iter().enumerate().find(|(i, s)| s.starts_with('$') && !(*s == &WILDCARD && i + 1 == segments.len()));
    if let Some((_, segment)) = dollar {
        return Err(syn::Error::new(
            span,
            format!(
                "`{path}`: `{segment}` is not a field name; mongod refuses a key segment starting with `$` (code 67, \
                 \"Index key contains an illegal field name: field name starts with '$'\") except a final `$**`, the \
                 wildcard (`\"$**\" = 1`, `\"attributes.$**\" = 1`)"
            ),
        ));
    }
    if path.ends_with(WILDCARD) && key(meta) != KEYS {
        return Err(syn::Error::new(
            span,
            format!("`{}` keys name fields; a wildcard `$**` goes in an index's `keys`", key(meta)),
        ));
    }
    if input.is_empty() || input.peek(Token![,]) {
        // `keys(email)`: ascending, MongoDB's plain index (`email_1`); a shard key's kind
        // (ranged or hashed) is a choice not to be made for the user
        if key(meta) == KEYS {
            return Ok(Key { path, span, kind: KeyKind::Ascending });
        }
        let field = if path.contains('.') { format!("\"{path}\"") } else { path.clone() };
        return Err(syn::Error::new(
            span,
            format!(
                "`{0}` says how each key distributes documents: write `{0}({field} = 1)` for a ranged key or \
                 `{0}({field} = \"hashed\")` for a hashed one",
                key(meta)
            ),
        ));
    }
    input.parse::<Token![=]>()?;
    let kind = key_kind(input)?;
    if !allowed.contains(&kind.0) {
        let names: Vec<String> = allowed
            .iter()
            .map(|k| if k.is_range() { k.suffix().to_owned() } else { format!("\"{}\"", k.suffix()) })
            .collect();
        return Err(syn::Error::new(kind.1, format!("`{}` keys are {}", key(meta), names.join(", "))));
    }
    Ok(Key { path, span, kind: kind.0 })
}

/// `1`, `-1`, `"hashed"`, `"2dsphere"`, `"2d"` or `"text"`.
fn key_kind(input: ParseStream) -> syn::Result<(KeyKind, Span)> {
    let negative = input.parse::<Option<Token![-]>>()?.is_some();
    let lit: syn::Lit = input.parse()?;
    let kind = match (&lit, negative) {
        (syn::Lit::Int(i), _) if i.base10_digits() == "1" => {
            let direction = if negative { -1 } else { 1 };
            KeyKind::ALL.into_iter().find(|k| k.direction() == Some(direction))
        }
        (syn::Lit::Str(s), false) => KeyKind::ALL.into_iter().find(|k| !k.is_range() && k.suffix() == s.value()),
        _ => None,
    };
    kind.map(|k| (k, lit.span())).ok_or_else(|| {
        syn::Error::new(
            lit.span(),
            "an index key is `1` (ascending), `-1` (descending), \"hashed\", \"2dsphere\", \"2d\" or \"text\", e.g. \
             `keys(email = 1, createTime = -1)`",
        )
    })
}

/// `partial = r#"{"total": {"$gt": 0}}"#`: must be a JSON object (Extended JSON for
/// dates and ids, read by bson when the command is built).
fn json_object(lit: &LitStr) -> syn::Result<LitStr> {
    match parse_json(&lit.value()) {
        Ok(JsonValue::Object(_)) => Ok(lit.clone()),
        Ok(_) => Err(syn::Error::new(lit.span(), "`partial` is a filter document: a JSON object such as `{\"total\": {\"$gt\": 0}}`")),
        Err(at) => Err(syn::Error::new(lit.span(), format!("`partial` is not valid JSON (at byte {at}); write the filter as (Extended) JSON, e.g. r#\"{{\"total\": {{\"$gt\": 0}}}}\"#"))),
    }
}
