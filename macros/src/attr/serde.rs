//! The `#[serde(...)]` keys that decide what serde writes. Other keys are skipped: serde
//! itself validates them.

use super::{skip_value, string, Attr, BoolAttr};
use crate::ctxt::Ctxt;
use crate::symbol::*;
use mongo_schema_contract::case::RenameRule;
use syn::meta::ParseNestedMeta;

/// `rename = "x"` or `rename(serialize = "x", deserialize = "y")`: the serialize name.
fn serialize_name(meta: &ParseNestedMeta) -> syn::Result<Option<syn::LitStr>> {
    if meta.input.peek(syn::Token![=]) {
        return string(meta).map(Some);
    }
    let mut name = None;
    meta.parse_nested_meta(|inner| {
        if inner.path.is_ident(SERIALIZE) {
            name = Some(string(&inner)?);
        } else {
            skip_value(&inner)?;
        }
        Ok(())
    })?;
    Ok(name)
}

fn rename_rule(cx: &Ctxt, lit: &syn::LitStr) -> Option<RenameRule> {
    RenameRule::from_str(&lit.value()).map_err(|message| cx.error_spanned_by(lit, message)).ok()
}

/// Calls `f` for each key of every `#[serde(...)]` attribute.
fn each_key(cx: &Ctxt, attrs: &[syn::Attribute], mut f: impl FnMut(&ParseNestedMeta) -> syn::Result<bool>) {
    for attr in attrs.iter().filter(|a| a.path().is_ident(SERDE)) {
        let result = attr.parse_nested_meta(|meta| {
            if !f(&meta)? {
                skip_value(&meta)?;
            }
            Ok(())
        });
        if let Err(error) = result {
            cx.syn_error(error);
        }
    }
}

#[derive(Default)]
pub struct Container {
    pub rename_all: Option<RenameRule>,
    pub rename_all_fields: Option<RenameRule>,
    pub deny_unknown_fields: bool,
    pub tag: Option<String>,
    pub content: Option<String>,
    pub untagged: bool,
    pub transparent: bool,
    /// `into = "Type"`: serde writes that type instead.
    pub into: Option<syn::Type>,
    /// `default` or `default = "path"`: a missing field reads as the container's default.
    pub default: bool,
}

impl Container {
    pub fn from_ast(cx: &Ctxt, attrs: &[syn::Attribute]) -> Self {
        let mut rename_all = Attr::none(cx, RENAME_ALL);
        let mut rename_all_fields = Attr::none(cx, RENAME_ALL_FIELDS);
        let mut deny = BoolAttr::none(cx, DENY_UNKNOWN_FIELDS);
        let mut tag = Attr::none(cx, TAG);
        let mut content = Attr::none(cx, CONTENT);
        let mut untagged = BoolAttr::none(cx, UNTAGGED);
        let mut transparent = BoolAttr::none(cx, TRANSPARENT);
        let mut into = Attr::none(cx, INTO);
        let mut default = false;
        each_key(cx, attrs, |meta| {
            let path = &meta.path;
            if path.is_ident(RENAME_ALL) || path.is_ident(RENAME_ALL_FIELDS) {
                let target = if path.is_ident(RENAME_ALL) { &mut rename_all } else { &mut rename_all_fields };
                if let Some(lit) = serialize_name(meta)? {
                    if let Some(rule) = rename_rule(cx, &lit) {
                        target.set(path, rule);
                    }
                }
            } else if path.is_ident(DENY_UNKNOWN_FIELDS) {
                deny.set_true(path);
            } else if path.is_ident(TAG) {
                tag.set(path, string(meta)?.value());
            } else if path.is_ident(CONTENT) {
                content.set(path, string(meta)?.value());
            } else if path.is_ident(UNTAGGED) {
                untagged.set_true(path);
            } else if path.is_ident(TRANSPARENT) {
                transparent.set_true(path);
            } else if path.is_ident(INTO) {
                let lit = string(meta)?;
                into.set(path, lit.parse::<syn::Type>()?);
            } else if path.is_ident(DEFAULT) {
                // serde itself refuses a second `default`
                default = true;
                return Ok(false);
            } else {
                return Ok(false);
            }
            Ok(true)
        });
        Container {
            rename_all: rename_all.get(),
            rename_all_fields: rename_all_fields.get(),
            deny_unknown_fields: deny.get(),
            tag: tag.get(),
            content: content.get(),
            untagged: untagged.get(),
            transparent: transparent.get(),
            into: into.get(),
            default,
        }
    }
}

#[derive(Default)]
pub struct Field {
    pub rename: Option<String>,
    pub skip_serializing: bool,
    /// `skip_serializing_if = "path"`: the predicate's path.
    pub skip_serializing_if: Option<syn::LitStr>,
    pub flatten: bool,
    /// `with = "path"` or `serialize_with = "path"`: the path as written.
    pub with: Option<syn::LitStr>,
    /// Every `alias = "key"`: the other keys serde reads the field from.
    pub aliases: Vec<syn::LitStr>,
    /// `default` or `default = "path"`: a missing field reads as a default value.
    pub default: bool,
    /// `with = "path"` or `deserialize_with = "path"` (the key and the path): a helper reads
    /// the field, so serde refuses a document without it unless `default` is set.
    pub read_by: Option<(&'static str, syn::LitStr)>,
}

/// The keys fields and variants share: the name written, whether it is written, and
/// the helper that writes it.
struct Written<'c> {
    rename: Attr<'c, String>,
    skip: BoolAttr<'c>,
    with: Attr<'c, syn::LitStr>,
}

impl<'c> Written<'c> {
    fn new(cx: &'c Ctxt) -> Self {
        Written {
            rename: Attr::none(cx, RENAME),
            skip: BoolAttr::none(cx, SKIP_SERIALIZING),
            with: Attr::none(cx, WITH),
        }
    }

    /// Parses one shared key; `Ok(false)` when `meta` is another key.
    fn parse(&mut self, meta: &ParseNestedMeta) -> syn::Result<bool> {
        let path = &meta.path;
        if path.is_ident(RENAME) {
            if let Some(lit) = serialize_name(meta)? {
                self.rename.set(path, lit.value());
            }
        } else if path.is_ident(SKIP) || path.is_ident(SKIP_SERIALIZING) {
            self.skip.set_true(path);
        } else if path.is_ident(WITH) || path.is_ident(SERIALIZE_WITH) {
            self.with.set(path, string(meta)?);
        } else {
            return Ok(false);
        }
        Ok(true)
    }
}

impl Field {
    pub fn from_ast(cx: &Ctxt, attrs: &[syn::Attribute]) -> Self {
        let mut written = Written::new(cx);
        let mut skip_if = Attr::none(cx, SKIP_SERIALIZING_IF);
        let mut flatten = BoolAttr::none(cx, FLATTEN);
        let (mut aliases, mut default, mut read_by, mut with) = (Vec::new(), false, None, false);
        each_key(cx, attrs, |meta| {
            let path = &meta.path;
            // keys that change only what is read, looked at beside `#[mongo(...)]` keys; serde
            // itself refuses their duplicates
            if path.is_ident(DEFAULT) {
                default = true;
                return Ok(false);
            }
            if path.is_ident(DESERIALIZE_WITH) {
                read_by = Some((DESERIALIZE_WITH, string(meta)?));
                return Ok(true);
            }
            with |= path.is_ident(WITH);
            if written.parse(meta)? {
                return Ok(true);
            }
            if path.is_ident(SKIP_SERIALIZING_IF) {
                skip_if.set(path, string(meta)?);
            } else if path.is_ident(FLATTEN) {
                flatten.set_true(path);
            } else if path.is_ident(ALIAS) {
                aliases.push(string(meta)?);
            } else {
                return Ok(false);
            }
            Ok(true)
        });
        if with {
            read_by = written.with.value.clone().map(|path| (WITH, path));
        }
        Field {
            skip_serializing: written.skip.get(),
            rename: written.rename.get(),
            with: written.with.get(),
            skip_serializing_if: skip_if.get(),
            flatten: flatten.get(),
            aliases,
            default,
            read_by,
        }
    }
}

#[derive(Default)]
pub struct Variant {
    pub rename: Option<String>,
    pub rename_all: Option<RenameRule>,
    pub skip_serializing: bool,
    pub untagged: bool,
    pub with: Option<syn::LitStr>,
}

impl Variant {
    pub fn from_ast(cx: &Ctxt, attrs: &[syn::Attribute]) -> Self {
        let mut written = Written::new(cx);
        let mut rename_all = Attr::none(cx, RENAME_ALL);
        let mut untagged = BoolAttr::none(cx, UNTAGGED);
        each_key(cx, attrs, |meta| {
            if written.parse(meta)? {
                return Ok(true);
            }
            let path = &meta.path;
            if path.is_ident(RENAME_ALL) {
                if let Some(rule) = serialize_name(meta)?.and_then(|lit| rename_rule(cx, &lit)) {
                    rename_all.set(path, rule);
                }
            } else if path.is_ident(UNTAGGED) {
                untagged.set_true(path);
            } else {
                return Ok(false);
            }
            Ok(true)
        });
        Variant {
            skip_serializing: written.skip.get(),
            rename: written.rename.get(),
            with: written.with.get(),
            rename_all: rename_all.get(),
            untagged: untagged.get(),
        }
    }
}
