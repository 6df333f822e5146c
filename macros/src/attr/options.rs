//! Collection options on a root: `timeseries(...)`, `index(...)` (repeatable),
//! `shard_key(...)`, `capped(...)`. One branch per key, each headed by its syntax.

use super::{key, string, Attr, BoolAttr};
use crate::ctxt::Ctxt;
use crate::symbol::*;
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
}

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
        let path = &inner.path;
        if path.is_ident(TIME_FIELD) {
            time.set(path, string(&inner)?);
        } else if path.is_ident(META_FIELD) {
            meta_field.set(path, string(&inner)?);
        } else if path.is_ident(GRANULARITY) {
            let lit = string(&inner)?;
            if !GRANULARITIES.contains(&lit.value().as_str()) {
                return Err(syn::Error::new(lit.span(), format!("unknown granularity \"{}\", expected \"seconds\", \"minutes\" or \"hours\"", lit.value())));
            }
            granularity.set(path, lit);
        } else if path.is_ident(EXPIRE_AFTER_SECONDS) {
            expire.set(path, positive(&inner)?);
        } else {
            return Err(inner.error(format!("unknown timeseries option `{}`; expected one of: time_field, meta_field, granularity, expire_after_seconds", key(&inner))));
        }
        Ok(())
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
    let all = KeyKind::ALL;
    meta.parse_nested_meta(|inner| {
        let path = &inner.path;
        if path.is_ident(KEYS) {
            keys.set(path, key_list(&inner, &all)?);
        } else if path.is_ident(UNIQUE) {
            unique.set_true(path);
        } else if path.is_ident(NAME) {
            name.set(path, string(&inner)?);
        } else if path.is_ident(TTL) {
            ttl.set(path, (path.span(), non_negative(&inner)?));
        } else if path.is_ident(PARTIAL) {
            partial.set(path, json_object(&string(&inner)?)?);
        } else {
            return Err(inner.error(format!(
                "unknown index option `{}`; expected one of: keys(...), unique, name, ttl, partial",
                key(&inner)
            )));
        }
        Ok(())
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
    })
}

fn capped(cx: &Ctxt, meta: &ParseNestedMeta) -> syn::Result<Capped> {
    let mut size = Attr::none(cx, SIZE);
    let mut max = Attr::none(cx, MAX);
    meta.parse_nested_meta(|inner| {
        if inner.path.is_ident(SIZE) {
            size.set(&inner.path, positive(&inner)?);
        } else if inner.path.is_ident(MAX) {
            max.set(&inner.path, positive(&inner)?);
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

fn one_key(input: ParseStream, meta: &ParseNestedMeta, allowed: &[KeyKind]) -> syn::Result<Key> {
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

/// `1`, `-1`, `"hashed"`, `"2dsphere"` or `"text"`.
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
            "an index key is `1` (ascending), `-1` (descending), \"hashed\", \"2dsphere\" or \"text\"",
        )
    })
}

/// `partial = r#"{"total": {"$gt": 0}}"#`: must be a JSON object (Extended JSON for
/// dates and ids, read by bson when the command is built).
fn json_object(lit: &LitStr) -> syn::Result<LitStr> {
    let text = lit.value();
    let mut parser = Json { bytes: text.as_bytes(), at: 0, depth: 0 };
    parser.ws();
    let object = parser.bytes.get(parser.at) == Some(&b'{');
    match parser.value().and_then(|()| parser.end()) {
        Ok(()) if object => Ok(lit.clone()),
        Ok(()) => Err(syn::Error::new(lit.span(), "`partial` is a filter document: a JSON object such as `{\"total\": {\"$gt\": 0}}`")),
        Err(at) => Err(syn::Error::new(lit.span(), format!("`partial` is not valid JSON (at byte {at}); write the filter as (Extended) JSON, e.g. r#\"{{\"total\": {{\"$gt\": 0}}}}\"#"))),
    }
}

/// A JSON syntax checker: enough to catch a typo in a filter at compile time. Nesting
/// is limited so that no input can exhaust the stack.
struct Json<'a> {
    bytes: &'a [u8],
    at: usize,
    depth: u32,
}

impl Json<'_> {
    fn ws(&mut self) {
        while self.bytes.get(self.at).is_some_and(|b| b.is_ascii_whitespace()) {
            self.at += 1;
        }
    }

    fn eat(&mut self, byte: u8) -> Result<(), usize> {
        self.ws();
        if self.bytes.get(self.at) == Some(&byte) {
            self.at += 1;
            Ok(())
        } else {
            Err(self.at)
        }
    }

    fn end(&mut self) -> Result<(), usize> {
        self.ws();
        if self.at == self.bytes.len() {
            Ok(())
        } else {
            Err(self.at)
        }
    }

    fn value(&mut self) -> Result<(), usize> {
        self.ws();
        match self.bytes.get(self.at) {
            Some(b'{') => self.nested(b'{', b'}', true),
            Some(b'[') => self.nested(b'[', b']', false),
            Some(b'"') => self.string(),
            Some(b'-' | b'0'..=b'9') => self.number(),
            _ => self.word(),
        }
    }

    fn nested(&mut self, open: u8, close: u8, object: bool) -> Result<(), usize> {
        self.depth += 1;
        if self.depth > 64 {
            return Err(self.at);
        }
        self.eat(open)?;
        if self.eat(close).is_err() {
            loop {
                if object {
                    self.ws();
                    self.string()?;
                    self.eat(b':')?;
                }
                self.value()?;
                if self.eat(b',').is_err() {
                    self.eat(close)?;
                    break;
                }
            }
        }
        self.depth -= 1;
        Ok(())
    }

    fn string(&mut self) -> Result<(), usize> {
        self.eat(b'"')?;
        while let Some(&b) = self.bytes.get(self.at) {
            self.at += 1;
            match b {
                b'"' => return Ok(()),
                b'\\' => self.at += 1,
                _ => {}
            }
        }
        Err(self.at)
    }

    fn number(&mut self) -> Result<(), usize> {
        let start = self.at;
        while self.bytes.get(self.at).is_some_and(|b| b"+-.eE0123456789".contains(b)) {
            self.at += 1;
        }
        let text = std::str::from_utf8(&self.bytes[start..self.at]).map_err(|_| start)?;
        text.parse::<f64>().map(|_| ()).map_err(|_| start)
    }

    fn word(&mut self) -> Result<(), usize> {
        for word in [&b"true"[..], b"false", b"null"] {
            if self.bytes.get(self.at..).unwrap_or_default().starts_with(word) {
                self.at += word.len();
                return Ok(());
            }
        }
        Err(self.at)
    }
}
