//! Collection-option rules: time-series fields, index and shard-key paths, TTL, multikey
//! and name limits, monotonic shard keys, and options mongod refuses together.
//!
//! A path's first segment is checked here against the root's fields (after serde
//! renames); what it holds, and segments inside embedded types, are const assertions over
//! `<Root as MongoSchema>::FIELDS`, so aliases and embedded models are seen through.

use super::{allows, Assertion, Branch, Facts};
use crate::attr::options::{Index, Key, KeyKind, ShardKey, Timeseries};
use crate::ctxt::Ctxt;
use crate::ir::{Container, Data, Field};
use crate::symbol::*;
use proc_macro2::Span;
use syn::ext::IdentExt;

pub fn all<'a>(cx: &Ctxt, c: &'a Container<'a>, out: &mut Vec<Assertion<'a>>) {
    if !applicable(cx, c) {
        return;
    }
    let root = Root::of(c);
    let options = &c.mongo.options;
    timeseries_field(cx, &root, out);
    for index in &options.indexes {
        index_keys(cx, &root, index, out);
        ttl_index(cx, &root, index, out);
        multikey_index(index, out);
    }
    index_name(cx, &options.indexes);
    monotonic_shard_key(cx, &root, out);
    collection_options(cx, c);
}

/// The root's written top-level fields, to resolve the first segment of a path.
struct Root<'a> {
    c: &'a Container<'a>,
    fields: Vec<&'a Field<'a>>,
    /// Flattened fields hide names from the macro: their paths are left to the compiler.
    flattens: bool,
}

/// Where a path's first segment lies.
enum First<'a> {
    Field(&'a Field<'a>),
    /// `_id` without an `_id` field: the ObjectId mongod adds.
    ImplicitId,
    /// Behind a flattened field: resolved by the compiler.
    Deferred,
}

impl<'a> Root<'a> {
    fn of(c: &'a Container<'a>) -> Self {
        let all: &[Field] = match &c.data {
            Data::Struct(_, fields) => fields,
            Data::Enum(_) => &[],
        };
        let fields = all.iter().filter(|f| f.is_written()).collect::<Vec<_>>();
        // an enum root's paths lie in its variants: resolved by the compiler, like a flatten's
        let flattens = fields.iter().any(|f| f.serde.flatten) || matches!(c.data, Data::Enum(_));
        Root { c, fields: fields.into_iter().filter(|f| !f.serde.flatten).collect(), flattens }
    }

    /// The first segment of `path`, or an error naming the fields that exist.
    fn first(&self, cx: &Ctxt, rule: &str, what: &str, path: &str, span: Span) -> Option<First<'a>> {
        let head = path.split('.').next().unwrap_or(path);
        if let Some(field) = self.fields.iter().find(|f| f.name == head) {
            return Some(First::Field(field));
        }
        if head == "_id" {
            return Some(First::ImplicitId);
        }
        if self.flattens {
            return Some(First::Deferred);
        }
        let names: Vec<String> = self.fields.iter().map(|f| format!("`{}`", f.name)).collect();
        let hint = match self.fields.iter().find(|f| f.original.ident.as_ref().is_some_and(|i| i.unraw() == head)) {
            Some(f) => format!("serde writes the field `{head}` as `{}`: write that", f.name),
            None => "paths name fields after serde's renames, and embedded fields as `\"outer.inner\"`".to_owned(),
        };
        cx.syn_error(syn::Error::new(
            span,
            format!(
            "{rule}: {what} `{path}`: `{head}` is not a field of `{}` (its fields, as serde writes them: {}); {hint}",
            self.c.input.ident,
            if names.is_empty() { "none".to_owned() } else { names.join(", ") },
        ),
        ));
        None
    }

    /// An assertion over the facts at `path`; a first branch refuses a missing path.
    fn assert_at(&self, rule: &str, path: &str, span: Span, branches: Vec<(Branch, String)>) -> Assertion<'a> {
        let missing = format!(
            "{rule}: `{path}` names no field of `{}` (checked through the embedded types); paths name fields as serde \
             writes them, after renames",
            self.c.input.ident
        );
        let mut all = vec![(Branch::Missing(path.to_owned()), missing)];
        all.extend(branches);
        Assertion::branches(Facts::Path(path.to_owned()), all, (span, span))
    }
}

/// Options apply to a non-generic collection root: they describe one collection.
fn applicable(cx: &Ctxt, c: &Container) -> bool {
    let o = &c.mongo.options;
    let spans = o
        .timeseries
        .iter()
        .map(|t| t.span)
        .chain(o.indexes.iter().map(|i| i.span))
        .chain(o.shard_key.iter().map(|s| s.span))
        .chain(o.capped.iter().map(|c| c.span));
    let mut ok = true;
    for span in spans {
        let why = if !c.is_root() {
            "applies to a collection root: add `#[mongo(db = \"...\", collection = \"...\")]` to this type, or move the option to the root that embeds it"
        } else if !c.input.generics.params.is_empty() {
            "needs one concrete collection: declare it on a non-generic root (e.g. a struct that wraps this one with `#[serde(flatten)]`)"
        } else {
            continue;
        };
        cx.syn_error(syn::Error::new(span, format!("{COLLECTION_OPTIONS}: this option {why}")));
        ok = false;
    }
    ok
}

/// `timeseries_field`: `time_field` is a top-level field holding a BSON date in every
/// document, and `meta_field` another field: mongod refuses measurements without a date
/// in the time field, and a metaField that is `_id` or the time field.
fn timeseries_field<'a>(cx: &Ctxt, root: &Root<'a>, out: &mut Vec<Assertion<'a>>) {
    let Some(ts) = &root.c.mongo.options.timeseries else { return };
    let time = ts.time_field.value();
    let rule = TIMESERIES_FIELD;
    if top_level(cx, rule, "time_field", &time, ts.time_field.span())
        && root.first(cx, rule, "time_field", &time, ts.time_field.span()).is_some()
    {
        let message = format!(
            "{rule}: time field `{time}` is not a BSON date in every document (its type is written as another BSON \
             type, an array, or `null`); mongod refuses a measurement whose timeField is not a date: make it a \
             `bson::DateTime` (not an `Option`)"
        );
        out.push(root.assert_at(rule, &time, ts.time_field.span(), vec![(Branch::NotAlwaysDate, message)]));
    }
    let Some(meta) = &ts.meta_field else { return };
    let name = meta.value();
    if name == time || name == "_id" {
        cx.error_spanned_by(
            meta,
            format!(
            "{rule}: `meta_field` cannot be `{name}`{}; the metaField labels a series (e.g. `deviceId`, or an embedded \
             document of the device's tags), and mongod refuses `_id` or the time field there",
            if name == time { ", the time field" } else { "" }
        ),
        );
    } else if top_level(cx, rule, "meta_field", &name, meta.span()) {
        root.first(cx, rule, "meta_field", &name, meta.span());
    }
}

/// A time-series field is a top-level key: mongod refuses dots in `timeField` / `metaField`.
fn top_level(cx: &Ctxt, rule: &str, what: &str, name: &str, span: Span) -> bool {
    if !name.contains('.') {
        return true;
    }
    cx.syn_error(syn::Error::new(
        span,
        format!("{rule}: `{what}` names a top-level field; `{name}` is a path, which mongod refuses there"),
    ));
    false
}

/// `index_key`: every key path names a field the model writes, through embedded types:
/// an index on a misspelt path indexes nothing while queries on the real field scan.
fn index_keys<'a>(cx: &Ctxt, root: &Root<'a>, index: &Index, out: &mut Vec<Assertion<'a>>) {
    for key in &index.keys {
        check_path(cx, root, INDEX_KEY, "index key", key, Vec::new(), out);
    }
}

/// The first segment here, the rest (and `branches` over the path's facts) by the compiler.
fn check_path<'a>(
    cx: &Ctxt,
    root: &Root<'a>,
    rule: &str,
    what: &str,
    key: &Key,
    branches: Vec<(Branch, String)>,
    out: &mut Vec<Assertion<'a>>,
) {
    match root.first(cx, rule, what, &key.path, key.span) {
        Some(First::ImplicitId) | None => {}
        Some(First::Field(_)) if !key.path.contains('.') && branches.is_empty() => {}
        Some(_) => out.push(root.assert_at(rule, &key.path, key.span, branches)),
    }
}

/// `ttl_index`: `ttl` goes on a single-field index of a date: mongod only expires
/// documents through a one-key index whose value is a date (or an array of dates).
fn ttl_index<'a>(cx: &Ctxt, root: &Root<'a>, index: &Index, out: &mut Vec<Assertion<'a>>) {
    let Some((span, _)) = index.ttl else { return };
    let rule = TTL_INDEX;
    let [key] = index.keys.as_slice() else {
        cx.syn_error(syn::Error::new(span, format!(
            "{rule}: a TTL index has exactly one key, a date field; mongod does not expire documents through a compound \
             index: declare `index(keys(createTime = 1), ttl = N)` on its own, next to this index"
        )));
        return;
    };
    if !key.kind.is_range() {
        cx.syn_error(syn::Error::new(key.span, format!("{rule}: a TTL index key is `1` or `-1`; mongod expires documents only through an ascending or descending index of a date")));
        return;
    }
    if root.c.mongo.options.timeseries.is_some() {
        cx.syn_error(syn::Error::new(span, format!(
            "{rule}: a time-series collection expires measurements itself: use `timeseries(..., expire_after_seconds = N)` \
             instead of a TTL index"
        )));
        return;
    }
    let message = format!(
        "{rule}: TTL index on `{}`, which is not a date; mongod only expires documents whose indexed field holds a BSON \
         date, so nothing would ever be deleted: index a `bson::DateTime` field (e.g. `expireTime`)",
        key.path
    );
    let test = Branch::SurelyNotDate;
    // a missing first segment is reported once, by `index_key`
    let quiet = Ctxt::default();
    check_path(&quiet, root, rule, "TTL index key", key, vec![(test, message)], out);
    drop(quiet.check());
}

/// `multikey_index`: a compound index's keys may pass through one array (several keys in
/// the same array, `specs.name` and `specs.value`, are fine), never through arrays on
/// different branches: mongod cannot index parallel arrays and refuses every document in
/// which two of them are arrays.
fn multikey_index(index: &Index, out: &mut Vec<Assertion>) {
    if index.keys.len() < 2 {
        return;
    }
    let test = Branch::ArrayKeys(index.keys.iter().map(|k| k.path.clone()).collect());
    let message = format!(
        "{MULTIKEY_INDEX}: index `{}` has keys in two different arrays (parallel arrays); MongoDB cannot index parallel \
         arrays and refuses every document in which two of them hold arrays: keep the keys inside one array \
         (`items.sku`, `items.qty`) or give each array an index of its own",
        index.name()
    );
    out.push(Assertion::branches(Facts::Root, vec![(test, message)], (index.span, index.span)));
}

/// The longest index name accepted by every server the commands target: 127 bytes was
/// the limit before feature compatibility 4.2 and keeps names readable in `getIndexes()`.
const MAX_INDEX_NAME: usize = 127;

/// `index_name`: names are non-empty, not `*`, without NUL, at most 127 bytes, and
/// unique; two indexes may not share a key pattern: mongod refuses each of these.
fn index_name(cx: &Ctxt, indexes: &[Index]) {
    for (i, index) in indexes.iter().enumerate() {
        let name = index.name();
        let span = index.name.as_ref().map_or(index.span, |n| n.span());
        let earlier = &indexes[..i];
        let problem = match () {
            _ if name.is_empty() => Some(("is empty".to_owned(), "")),
            _ if name == "*" => Some(("is `*`, which `dropIndexes` reads as every index".to_owned(), "")),
            _ if name.contains('\0') => Some(("contains a NUL byte".to_owned(), "")),
            _ if name.len() > MAX_INDEX_NAME => {
                Some((format!("is {} bytes long, over {MAX_INDEX_NAME}", name.len()), ""))
            }
            _ if earlier.iter().any(|other| other.name() == name) => {
                Some(("is the name of an earlier index".to_owned(), MERGE))
            }
            _ if earlier.iter().any(|other| same_keys(other, index)) => Some((
                "has the same keys as an earlier index, which mongod refuses under another name".to_owned(),
                MERGE,
            )),
            _ => None,
        };
        if let Some((problem, merge)) = problem {
            cx.syn_error(syn::Error::new(span, format!(
                "{INDEX_NAME}: index name `{name}` {problem}; give the index a short name of its own with `name = \"...\"`{merge}"
            )));
        }
    }
}

const MERGE: &str = ", or merge the two indexes into one";

fn same_keys(a: &Index, b: &Index) -> bool {
    a.keys.len() == b.keys.len() && a.keys.iter().zip(&b.keys).all(|(x, y)| x.path == y.path && x.kind == y.kind)
}

/// `monotonic_shard_key`: a range shard key must not start with a value that only grows
/// (an ObjectId, a date, an auto-increment integer): every insert then goes to the last
/// chunk, on one shard (the standard's sharding table recommends `hashed` instead).
fn monotonic_shard_key<'a>(cx: &Ctxt, root: &Root<'a>, out: &mut Vec<Assertion<'a>>) {
    let Some(shard) = &root.c.mongo.options.shard_key else { return };
    let rule = MONOTONIC_SHARD_KEY;
    for key in &shard.keys[1..] {
        check_path(cx, root, INDEX_KEY, "shard key", key, Vec::new(), out);
    }
    let first = &shard.keys[0];
    let message = |what: &str| {
        format!(
            "{rule}: shard key `{}` starts with {what}, a value that only grows: every insert lands in the last chunk, on \
             one shard, while the others sit idle; shard on `{} = \"hashed\"`, or lead with a high-cardinality field \
             (e.g. `shard_key(userId = 1, {} = 1)`), or waive it with `#[mongo(allow(monotonic_shard_key, reason = \"...\"))]`",
            first.path, first.path, first.path
        )
    };
    let waived = allows(&root.c.mongo.allow, rule);
    let found = root.first(cx, INDEX_KEY, "shard key", &first.path, first.span);
    let field_waives = matches!(&found, Some(First::Field(f)) if allows(&f.mongo.allow, rule));
    let range = first.kind.is_range() && !waived && !field_waives;
    match found {
        Some(First::ImplicitId) if range => cx.syn_error(syn::Error::new(first.span, message("the ObjectId `_id`"))),
        Some(First::Field(f)) if range && f.mongo.auto_increment && !first.path.contains('.') => {
            cx.syn_error(syn::Error::new(first.span, message("an auto-increment integer")))
        }
        Some(First::ImplicitId) | None => {}
        Some(_) => {
            let branches = if range {
                vec![(Branch::Monotonic, message("an ObjectId, a date or a timestamp"))]
            } else {
                Vec::new()
            };
            check_path(cx, root, INDEX_KEY, "shard key", first, branches, out);
        }
    }
}

/// `collection_options`: options mongod refuses together: a capped collection cannot
/// be time-series or sharded, and a time-series collection has no unique index.
fn collection_options(cx: &Ctxt, c: &Container) {
    let o = &c.mongo.options;
    let rule = COLLECTION_OPTIONS;
    if let (Some(capped), Some(_)) = (&o.capped, &o.timeseries) {
        cx.syn_error(syn::Error::new(
            capped.span,
            format!(
                "{rule}: a time-series collection cannot be capped; expire old measurements with \
             `timeseries(..., expire_after_seconds = N)` instead"
            ),
        ));
    }
    if let (Some(capped), Some(_)) = (&o.capped, &o.shard_key) {
        cx.syn_error(syn::Error::new(
            capped.span,
            format!(
            "{rule}: a capped collection cannot be sharded; drop `capped` and expire old documents with a TTL index \
             (`index(keys(createTime = 1), ttl = N)`), or drop `shard_key`"
        ),
        ));
    }
    for index in o.indexes.iter().filter(|i| i.unique && o.timeseries.is_some()) {
        cx.syn_error(syn::Error::new(
            index.span,
            format!(
                "{rule}: a time-series collection has no unique indexes (its documents are stored in buckets); drop \
             `unique`, or keep the data in a regular collection"
            ),
        ));
    }
    if let (Some(ts), Some(shard)) = (&o.timeseries, &o.shard_key) {
        timeseries_shard_key(cx, ts, shard);
    }
    if let Some(shard) = &o.shard_key {
        unique_index_shard_key(cx, &o.indexes, shard);
    }
    for index in &o.indexes {
        if index.unique && index.keys.iter().any(|k| k.kind == KeyKind::Hashed) {
            cx.syn_error(syn::Error::new(index.span, format!("{rule}: a hashed index cannot be unique; mongod refuses it: index the field with `1` for uniqueness")));
        }
    }
}

/// Each shard enforces a unique index on its own documents only, so `shardCollection`
/// refuses a collection with a unique index whose keys do not start with the shard key's
/// fields, in order (an index led by `_id` is exempt); creating one on a sharded
/// collection fails the same way.
fn unique_index_shard_key(cx: &Ctxt, indexes: &[Index], shard: &ShardKey) {
    let rule = COLLECTION_OPTIONS;
    for index in indexes.iter().filter(|i| i.unique) {
        let led_by_id = index.keys.first().is_some_and(|k| k.path == "_id");
        let prefixed =
            shard.keys.len() <= index.keys.len() && shard.keys.iter().zip(&index.keys).all(|(s, i)| s.path == i.path);
        if led_by_id || prefixed {
            continue;
        }
        let shard_fields: Vec<&str> = shard.keys.iter().map(|k| k.path.as_str()).collect();
        let index_fields: Vec<&str> = index.keys.iter().map(|k| k.path.as_str()).collect();
        let lead: Vec<String> = shard.keys.iter().map(|k| format!("{} = 1", k.path)).collect();
        let rest: Vec<String> = index
            .keys
            .iter()
            .filter(|k| !shard_fields.contains(&k.path.as_str()))
            .map(|k| match k.kind.suffix() {
                number @ ("1" | "-1") => format!("{} = {number}", k.path),
                named => format!("{} = \"{named}\"", k.path),
            })
            .collect();
        cx.syn_error(syn::Error::new(
            index.span,
            format!(
                "{rule}: a unique index of a sharded collection must start with the shard key's fields ({}): each shard \
                 can only enforce uniqueness among its own documents, so mongod refuses `shardCollection` while this \
                 index on ({}) exists; lead it with the shard key (`index(keys({}), unique)`), or drop `unique` and \
                 check uniqueness in the application",
                shard_fields.join(", "),
                index_fields.join(", "),
                lead.into_iter().chain(rest).collect::<Vec<_>>().join(", "),
            ),
        ));
    }
}

/// A time-series collection is sharded on its metaField (or fields inside it) and,
/// last and ascending, its timeField: mongod refuses any other shard key there.
fn timeseries_shard_key(cx: &Ctxt, ts: &Timeseries, shard: &ShardKey) {
    let (time, meta) = (ts.time_field.value(), ts.meta_field.as_ref().map(|m| m.value()));
    let last = shard.keys.len() - 1;
    for (i, key) in shard.keys.iter().enumerate() {
        let in_meta = meta.as_ref().is_some_and(|m| key.path == *m || key.path.starts_with(&format!("{m}.")));
        let time_last = key.path == time && i == last && key.kind == KeyKind::Ascending;
        if !(in_meta || time_last) {
            cx.syn_error(syn::Error::new(key.span, format!(
                "{COLLECTION_OPTIONS}: a time-series collection is sharded on its metaField{} (or fields inside it) and, \
                 last and ascending, its timeField `{time}`; mongod refuses `{}` in its shard key",
                meta.as_ref().map(|m| format!(" `{m}`")).unwrap_or_default(),
                key.path
            )));
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::run;
    use syn::parse_quote;

    #[test]
    fn index_keys_name_written_fields() {
        let (errors, _) = run(parse_quote! {
            #[mongo(db = "db_shop", collection = "t_order", index(keys(user_name = 1)))]
            #[serde(rename_all = "camelCase")]
            struct Order { user_name: String }
        });
        assert!(errors[0].contains("serde writes the field `user_name` as `userName`"), "{errors:?}");
        let (errors, assertions) = run(parse_quote! {
            #[mongo(db = "db_shop", collection = "t_order", index(keys(userName = 1, "address.city" = -1)))]
            #[serde(rename_all = "camelCase")]
            struct Order { user_name: String, address: Address }
        });
        assert!(errors.is_empty(), "{errors:?}");
        assert!(assertions.contains(&"path address.city: Missing(\"address.city\")".to_owned()), "{assertions:?}");
        assert!(assertions.iter().any(|a| a.starts_with("root: ArrayKeys")), "{assertions:?}");
    }

    #[test]
    fn ttl_indexes_have_one_range_key() {
        let (errors, _) = run(parse_quote! {
            #[mongo(db = "db_shop", collection = "t_order", index(keys(start_time = 1, end_time = 1), ttl = 60))]
            struct Order { start_time: bson::DateTime, end_time: bson::DateTime }
        });
        assert!(errors[0].starts_with("ttl_index: a TTL index has exactly one key"), "{errors:?}");
        let (errors, assertions) = run(parse_quote! {
            #[mongo(db = "db_shop", collection = "t_order", index(keys(expire_time = 1), ttl = 60))]
            struct Order { expire_time: bson::DateTime }
        });
        assert!(errors.is_empty(), "{errors:?}");
        assert!(assertions.iter().any(|a| a.contains("SurelyNotDate")), "{assertions:?}");
    }

    #[test]
    fn monotonic_shard_keys_fire_unless_hashed() {
        let (errors, _) = run(parse_quote! {
            #[mongo(db = "db_shop", collection = "t_order", shard_key(_id = 1))]
            struct Order { name: String }
        });
        assert!(errors[0].starts_with("monotonic_shard_key:"), "{errors:?}");
        let (errors, _) = run(parse_quote! {
            #[mongo(db = "db_shop", collection = "t_order", shard_key(_id = "hashed"))]
            struct Order { name: String }
        });
        assert!(errors.is_empty(), "{errors:?}");
    }

    #[test]
    fn options_mongod_refuses_together_are_refused() {
        let (errors, _) = run(parse_quote! {
            #[mongo(db = "db_iot", collection = "t_reading", capped(size = 4096), timeseries(time_field = "ts"))]
            struct Reading { ts: bson::DateTime }
        });
        assert!(errors.iter().any(|e| e.starts_with("collection_options:")), "{errors:?}");
    }
}
