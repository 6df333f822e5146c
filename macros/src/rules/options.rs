//! Collection-option rules: time-series fields, index and shard-key paths, TTL, multikey
//! and name limits, monotonic shard keys, and options mongod refuses together.
//!
//! A path's first segment is checked here against the root's fields (after serde
//! renames); what it holds, and segments inside embedded types, are const assertions over
//! `<Root as MongoSchema>::FIELDS`, so aliases and embedded models are seen through.

use super::{allows, Assertion, Branch, Facts};
use crate::attr::json::{parse_json, JsonValue};
use crate::attr::options::{Index, Key, KeyKind, ShardKey, Timeseries, WILDCARD};
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
        index_options(cx, index);
        partial_filter(cx, index);
    }
    index_name(cx, &options.indexes);
    index_count(cx, c);
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
        .chain(o.capped.iter().map(|c| c.span))
        .chain(o.collation.iter().map(|c| c.span))
        .chain(o.clustered.iter().map(|c| c.span));
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
        format!(
            "{rule}: `{what}` names a top-level field; `{name}` is a path, which mongod refuses there: {}",
            if what == "meta_field" {
                let top = name.split('.').next().unwrap_or(name);
                format!("name the top-level field that holds it (`meta_field = \"{top}\"`: every field inside it is part of what identifies a series)")
            } else {
                "keep each measurement's time in a top-level date field and name that field".to_owned()
            }
        ),
    ));
    false
}

/// `index_key`: every key path names a field the model writes, through embedded types:
/// an index on a misspelt path indexes nothing while queries on the real field scan.
fn index_keys<'a>(cx: &Ctxt, root: &Root<'a>, index: &Index, out: &mut Vec<Assertion<'a>>) {
    for key in &index.keys {
        match key.path.strip_suffix(WILDCARD) {
            // `$**`: every field
            Some("") => {}
            // `path.$**`: the fields under `path`
            Some(prefix) => {
                let under = Key { path: prefix.trim_end_matches('.').to_owned(), span: key.span, kind: key.kind };
                check_path(cx, root, INDEX_KEY, "wildcard index path", &under, Vec::new(), out);
            }
            None => check_path(cx, root, INDEX_KEY, "index key", key, Vec::new(), out),
        }
    }
    for (path, span, _) in index.weights.iter().flat_map(|(_, w)| w) {
        let key = Key { path: path.clone(), span: *span, kind: KeyKind::Text };
        check_path(cx, root, INDEX_KEY, "text weight", &key, Vec::new(), out);
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
    if key.is_wildcard() {
        cx.syn_error(syn::Error::new(span, format!(
            "{rule}: a wildcard index cannot be a TTL index; mongod refuses it (code 67, \"Index type 'wildcard' cannot \
             be a TTL index\"): declare `index(keys(expireAt = 1), ttl = N)` on the date field"
        )));
        return;
    }
    if key.path == "_id" {
        cx.syn_error(syn::Error::new(span, format!(
            "{rule}: mongod refuses a TTL on the `_id` index (code 197, \"The field 'expireAfterSeconds' is not valid for \
             an _id index specification\"); index a date field of its own (`index(keys(expireAt = 1), ttl = N)`), or \
             expire by `_id` with `clustered(expire_after_seconds = N)` when `_id` is a date"
        )));
        return;
    }
    if root.c.mongo.options.capped.is_some() {
        cx.syn_error(syn::Error::new(
            span,
            format!(
            "{rule}: mongod refuses a TTL index on a capped collection (code 67, \"Cannot create TTL index on a capped \
             collection\"): a capped collection already removes its oldest documents; drop `ttl`, or drop `capped` to \
             expire documents by date"
        ),
        ));
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

/// Same keys, and nothing mongod tells two such indexes apart by: it holds indexes on the
/// same keys only when their collations or partial filters differ.
fn same_keys(a: &Index, b: &Index) -> bool {
    let collation = match (&a.collation, &b.collation) {
        (None, None) => true,
        (Some(x), Some(y)) => x.same(y),
        _ => false,
    };
    let partial = a.partial.as_ref().map(|p| p.value()) == b.partial.as_ref().map(|p| p.value());
    a.keys.len() == b.keys.len()
        && a.keys.iter().zip(&b.keys).all(|(x, y)| x.path == y.path && x.kind == y.kind)
        && collation
        && partial
}

/// `monotonic_shard_key`: a range shard key must not start with a value that only grows
/// with insert time (the document's own ObjectId `_id`, a date or timestamp, an
/// auto-increment integer): every insert then goes to the last chunk, on one shard (the
/// standard's sharding table recommends `hashed` instead). An ObjectId that references
/// another document (`tenantId`) is not one.
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
            // only the document's own `_id` is an ObjectId made at insert; another ObjectId
            // field references a document and grows with nothing
            let own_id = first.path == "_id";
            let what = if own_id { "an ObjectId, a date or a timestamp" } else { "a date or a timestamp" };
            let branches = if range { vec![(Branch::Monotonic(own_id), message(what))] } else { Vec::new() };
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
            cx.syn_error(syn::Error::new(index.span, format!("{rule}: a hashed index cannot be unique; mongod refuses it (code 16764, \"Currently hashed indexes cannot guarantee uniqueness\"): index the field with `1` for uniqueness")));
        }
    }
    let texts: Vec<&Index> = o.indexes.iter().filter(|i| i.keys.iter().any(|k| k.kind == KeyKind::Text)).collect();
    if let [first, rest @ ..] = texts.as_slice() {
        for index in rest {
            cx.syn_error(syn::Error::new(index.span, format!(
                "{rule}: a collection has one text index, here `{}`; mongod refuses a second (code 85, \"An equivalent index \
                 already exists with a different name and options\"): put every text field in that one index, \
                 `index(keys(a = \"text\", b = \"text\"), weights(a = 10))`",
                first.name()
            )));
        }
    }
    if let Some(clustered) = &o.clustered {
        let other = match (&o.capped, &o.timeseries) {
            (Some(_), _) => Some((
                "capped",
                "6127800, \"Clustered capped collection only available with 'enableTestCommands' server parameter\"",
            )),
            (_, Some(_)) => Some(("time-series", "72, \"'timeseries' is not allowed with 'clusteredIndex'\"")),
            _ => None,
        };
        if let Some((what, answer)) = other {
            cx.syn_error(syn::Error::new(
                clustered.span,
                format!(
                    "{rule}: a clustered collection cannot be {what}; mongod refuses it (code {answer}): drop `clustered`, \
                     or the `{}` option",
                    if what == "capped" { "capped" } else { "timeseries" }
                ),
            ));
        }
    }
}

/// The `_id` index: one range key on `_id`.
fn is_id_index(index: &Index) -> bool {
    matches!(index.keys.as_slice(), [key] if key.path == "_id" && key.kind.is_range())
}

/// What mongod refuses in one index's options: combinations of key kinds (one plugin per
/// index, `2d` first, one hashed field, wildcards alone), and options its kind does not take.
fn index_options(cx: &Ctxt, index: &Index) {
    let rule = COLLECTION_OPTIONS;
    let error = |span: Span, message: String| cx.syn_error(syn::Error::new(span, format!("{rule}: {message}")));
    let kinds = |kind: KeyKind| index.keys.iter().filter(move |k| k.kind == kind);
    let wildcard = index.keys.iter().find(|k| k.is_wildcard());
    // the index "plugins": one a index
    let mut plugins: Vec<(&Key, &str)> = Vec::new();
    for key in &index.keys {
        let plugin = match key.kind {
            KeyKind::Text => "text",
            KeyKind::Sphere2d => "2dsphere",
            KeyKind::Geo2d => "2d",
            KeyKind::Hashed => "hashed",
            _ if key.is_wildcard() => "wildcard",
            _ => continue,
        };
        if plugins.iter().all(|(_, p)| *p != plugin) {
            plugins.push((key, plugin));
        }
    }
    if let [(_, first), (key, second), ..] = plugins.as_slice() {
        let wild = *first == "wildcard" || *second == "wildcard";
        error(
            key.span,
            if wild && (*first == "text" || *second == "text") {
                "a text key cannot sit beside a wildcard key; index every string with `keys(\"$**\" = \"text\")`"
                    .to_owned()
            } else {
                format!(
                "one index is of one kind, here both {first} and {second}; mongod refuses it (code 67, \"Can't use more \
                 than one index plugin for a single index\"): declare two indexes"
            )
            },
        );
        return;
    }
    if let Some(key) = kinds(KeyKind::Hashed).nth(1) {
        error(key.span, "an index has at most one hashed field; mongod refuses more (code 31303, \"A maximum of one index field is allowed to be hashed\"): hash one field and add the others with `1` or `-1`".to_owned());
    }
    if let Some(key) = kinds(KeyKind::Geo2d).nth(1) {
        error(
            key.span,
            "a 2d index has one location field; mongod refuses two (code 16800, \"can't have 2 geo fields\"): give each \
             \"2d\" field an index of its own, or make them \"2dsphere\" keys, several of which one index may hold"
                .to_owned(),
        );
    } else if let Some(key) = kinds(KeyKind::Geo2d).next().filter(|_| index.keys[0].kind != KeyKind::Geo2d) {
        error(key.span, "the \"2d\" key comes first in its index; mongod refuses it elsewhere (code 16801, \"2d has to be first in index\"): move it to the front".to_owned());
    }
    if let Some(key) = wildcard {
        if index.keys.len() > 1 {
            error(key.span, "a wildcard key is its index's only key; mongod 6.0 refuses more (code 67, \"wildcard indexes do not allow compounding\"): declare the other keys in an index of their own".to_owned());
        } else if key.kind == KeyKind::Text && key.path != WILDCARD {
            error(key.span, format!("a wildcard text index covers every field, `keys(\"$**\" = \"text\")`; mongod refuses `{}` (code 67, \"Index key contains an illegal field name: field name starts with '$'\")", key.path));
        } else if !matches!(key.kind, KeyKind::Ascending | KeyKind::Text) {
            error(
                key.span,
                format!(
                    "a wildcard key is `1`; mongod refuses `{}` (code 67, {}): write `keys(\"$**\" = 1)`{}",
                    key.kind.suffix(),
                    if key.kind == KeyKind::Descending {
                        "\"A numeric value in a $** index key pattern must be positive\""
                    } else {
                        "\"Index key contains an illegal field name: field name starts with '$'\""
                    },
                    if key.kind == KeyKind::Descending {
                        String::new()
                    } else {
                        format!(", and give each field that needs a \"{}\" index one of its own", key.kind.suffix())
                    }
                ),
            );
        } else if key.kind == KeyKind::Ascending {
            if index.unique {
                error(index.span, "a wildcard index cannot be unique; mongod refuses it (code 67, \"Index type 'wildcard' does not support the unique option\"): declare a unique index on the field itself".to_owned());
            }
            if let Some(span) = index.sparse {
                error(span, "a wildcard index is already sparse (it holds only the fields present); mongod refuses `sparse` on it (code 67, \"Index type 'wildcard' does not support the sparse option\"): drop `sparse`".to_owned());
            }
        }
    }
    if let Some((span, projection)) = &index.wildcard_projection {
        match wildcard {
            Some(key) if key.path == WILDCARD && key.kind == KeyKind::Ascending => {
                let included: Vec<&(String, Span, bool)> = projection.iter().filter(|(p, _, _)| p != "_id").collect();
                if let Some((path, span, _)) = included.iter().find(|(_, _, inc)| *inc != included[0].2) {
                    error(*span, format!("a wildcard projection either includes paths (`= 1`) or excludes them (`= 0`), only `_id` may differ; mongod refuses a mix (code 31254, \"Cannot do exclusion on field {path} in inclusion projection\")"));
                }
            }
            _ => error(*span, "`wildcard_projection` goes with the key `\"$**\" = 1` alone; mongod refuses it on any other key (code 9, \"The field 'wildcardProjection' is only allowed when 'key' is {\"$**\": ±1}\"): for the fields under one path write `keys(\"path.$**\" = 1)`".to_owned()),
        }
    }
    if let (Some(span), Some(_)) = (index.sparse, &index.partial) {
        error(span, "`sparse` and `partial` cannot be combined; mongod refuses it (code 67, \"cannot mix \"partialFilterExpression\" and \"sparse\" options\"): a partial filter `{\"field\": {\"$exists\": true}}` does what `sparse` does".to_owned());
    }
    if let Some(span) = index.hidden.filter(|_| is_id_index(index)) {
        error(span, "the `_id` index cannot be hidden; mongod refuses it (code 197, \"The field 'hidden' is not valid for an _id index specification\"): queries by `_id` always use it".to_owned());
    }
    let text = index.keys.iter().any(|k| k.kind == KeyKind::Text);
    if let Some(collation) = index.collation.as_ref().filter(|c| !c.is_simple()) {
        if let Some(key) = index.keys.iter().find(|k| matches!(k.kind, KeyKind::Text | KeyKind::Geo2d)) {
            error(collation.span, format!(
                "a \"{}\" index compares no strings by collation; mongod refuses one (code 67, \"Index type '{}' does not \
                 support collation\"): drop `collation`{}",
                key.kind.suffix(),
                key.kind.suffix(),
                if key.kind == KeyKind::Text { " (a text index matches case-insensitively already)" } else { "" }
            ));
        }
    }
    if !text {
        let named = [
            index.weights.as_ref().map(|(span, _)| {
                (*span, "weights", " (code 67, \"the field 'weights' can only be specified with text indexes\")")
            }),
            index.default_language.as_ref().map(|l| (l.span(), "default_language", "")),
            index.language_override.as_ref().map(|l| (l.span(), "language_override", "")),
        ];
        for (span, what, answer) in named.into_iter().flatten() {
            error(span, format!("`{what}` applies to a text index, and this index has no `\"text\"` key; mongod refuses it or ignores it{answer}: drop `{what}`, or add the text fields (`keys(title = \"text\")`)"));
        }
    } else {
        let text_fields: Vec<&str> =
            index.keys.iter().filter(|k| k.kind == KeyKind::Text).map(|k| k.path.as_str()).collect();
        let all = text_fields.contains(&WILDCARD);
        for (path, span, _) in index.weights.iter().flat_map(|(_, w)| w) {
            if !all && !text_fields.contains(&path.as_str()) {
                error(*span, format!("`{path}` is not a text key of this index: a weight would make it one silently; add `{path} = \"text\"` to `keys`, or drop its weight"));
            }
        }
        if let Some(language) = &index.default_language {
            if !mongo_schema_contract::options::TEXT_LANGUAGES.contains(&language.value().as_str()) {
                error(language.span(), format!(
                    "mongod refuses the text language \"{}\" (code 67, \"default_language is not valid\"); it stems {}, \
                     their two-letter codes, or \"none\" (no stemming, no stop words)",
                    language.value(),
                    mongo_schema_contract::options::TEXT_LANGUAGES[..15].join(", ")
                ));
            }
        }
        if let Some(field) = &index.language_override {
            let value = field.value();
            if value.is_empty() || value.contains('.') || value.starts_with('$') {
                error(field.span(), format!("`language_override` names a top-level field (default `language`); mongod refuses \"{value}\" (code 67, \"language_override is not valid\"): keep each document's language in a top-level field and name it (`language_override = \"lang\"`)"));
            }
        }
    }
}

/// Extended JSON wrappers: an object led by one of these is a value, not an operator.
const EXTENDED_JSON: [&str; 16] = [
    "$oid",
    "$date",
    "$numberInt",
    "$numberLong",
    "$numberDouble",
    "$numberDecimal",
    "$binary",
    "$uuid",
    "$timestamp",
    "$minKey",
    "$maxKey",
    "$symbol",
    "$code",
    "$dbPointer",
    "$undefined",
    "$regularExpression",
];

/// `partial`: the operators mongod 6.0 accepts in a `partialFilterExpression` (checked
/// against 6.0.5): equality (`{f: v}`, `$eq`) with any value but a regex, `$exists: true`,
/// `$gt`, `$gte`, `$lt`, `$lte`, `$type`, `$in`, `$all` (of values), `$geoWithin`,
/// `$geoIntersects`, and `$and` / `$or` at any level (`$comment` at the top).
fn partial_filter(cx: &Ctxt, index: &Index) {
    let Some(lit) = &index.partial else { return };
    let Ok(JsonValue::Object(members)) = parse_json(&lit.value()) else { return };
    if let Err(problem) = filter(&members, true) {
        cx.syn_error(syn::Error::new(
            lit.span(),
            format!(
                "{INDEX_KEY}: mongod refuses this partial filter: {problem}; a partialFilterExpression takes equality \
                 (`{{\"f\": v}}`, `$eq`), `$exists: true`, `$gt`, `$gte`, `$lt`, `$lte`, `$type`, `$in`, `$all`, \
                 `$geoWithin`, `$geoIntersects`, `$and` and `$or`"
            ),
        ));
    }
}

/// The first operator of `members` (a filter document) that mongod refuses in a partial filter.
fn filter(members: &[(String, JsonValue)], top: bool) -> Result<(), String> {
    for (key, value) in members {
        match key.as_str() {
            "$and" | "$or" => match value {
                JsonValue::Array(items) if !items.is_empty() => {
                    for item in items {
                        match item {
                            JsonValue::Object(inner) => filter(inner, false)?,
                            _ => return Err(format!("`{key}` takes filter documents")),
                        }
                    }
                }
                _ => return Err(format!("`{key}` takes a non-empty array of filter documents")),
            },
            "$comment" if top => {}
            "$nor" => {
                return Err(unsupported(
                    "`$nor`",
                    "$nor",
                    "write the condition with `$or` and `$and` of what is allowed",
                ))
            }
            "$expr" | "$jsonSchema" => {
                return Err(format!("`{key}` (code 224, \"{key} is not allowed in this context\")"));
            }
            "$text" | "$where" => return Err(format!("`{key}` (code 2, \"{key} is not allowed in this context\")")),
            op if op.starts_with('$') => return Err(unsupported(&format!("`{op}`"), op, "")),
            field => field_condition(field, value)?,
        }
    }
    Ok(())
}

/// mongod's words for an expression it refuses in a partial index (code 67).
fn unsupported(what: &str, mongod: &str, fix: &str) -> String {
    let fix = if fix.is_empty() { String::new() } else { format!(": {fix}") };
    format!("{what} (code 67, \"Expression not supported in partial index: {mongod}\"){fix}")
}

fn field_condition(field: &str, value: &JsonValue) -> Result<(), String> {
    let JsonValue::Object(ops) = value else { return Ok(()) };
    let Some((first, _)) = ops.first() else { return Ok(()) };
    if first == "$regularExpression" {
        return Err(unsupported(
            &format!("a regex on `{field}`"),
            &format!("{field} regex"),
            "filter on equality or a range instead",
        ));
    }
    if !first.starts_with('$') || EXTENDED_JSON.contains(&first.as_str()) {
        // equality with a document or an Extended JSON value
        return Ok(());
    }
    for (op, operand) in ops {
        match op.as_str() {
            "$eq" => {
                if matches!(operand, JsonValue::Object(o) if o.first().is_some_and(|(k, _)| k == "$regularExpression"))
                {
                    return Err(unsupported(&format!("a regex on `{field}`"), &format!("{field} regex"), ""));
                }
            }
            "$gt" | "$gte" | "$lt" | "$lte" | "$type" | "$in" | "$geoWithin" | "$geoIntersects" => {}
            "$all" => {
                let elem = |v: &JsonValue| matches!(v, JsonValue::Object(o) if o.first().is_some_and(|(k, _)| k == "$elemMatch"));
                if matches!(operand, JsonValue::Array(items) if items.iter().any(elem)) {
                    return Err(unsupported(&format!("`$elemMatch` on `{field}`"), &format!("{field} $elemMatch"), ""));
                }
            }
            "$exists" => {
                let truthy = match operand {
                    JsonValue::Bool(b) => *b,
                    JsonValue::Number(n) => *n != 0.0,
                    JsonValue::Null => false,
                    _ => true,
                };
                if !truthy {
                    return Err(unsupported(
                        &format!("`\"{field}\": {{\"$exists\": false}}`"),
                        "$not",
                        &format!(
                            "write `{{\"{field}\": null}}` instead, an equality mongod accepts, which matches the \
                             documents where `{field}` is missing or null"
                        ),
                    ));
                }
            }
            "$ne" | "$nin" | "$not" => {
                return Err(unsupported(
                    &format!("`{op}` on `{field}`"),
                    "$not",
                    "name the values the index covers (`$in`, `$eq`, a range)",
                ));
            }
            "$regex" | "$options" => {
                return Err(unsupported(&format!("`$regex` on `{field}`"), &format!("{field} regex"), ""))
            }
            "$near" | "$nearSphere" | "$geoNear" => {
                return Err(format!(
                    "`{op}` (code 5626500, \"$geoNear, $near, and $nearSphere are not allowed in this context\")"
                ));
            }
            other => return Err(unsupported(&format!("`{other}` on `{field}`"), &format!("{field} {other}"), "")),
        }
    }
    Ok(())
}

/// The most indexes a collection holds is 64, its `_id` index included (a clustered
/// collection's index is not counted): mongod refuses the next one.
fn index_count(cx: &Ctxt, c: &Container) {
    let o = &c.mongo.options;
    let limit = mongo_schema_contract::options::MAX_INDEXES - usize::from(o.clustered.is_none());
    if let Some(index) = o.indexes.get(limit) {
        cx.syn_error(syn::Error::new(
            index.span,
            format!(
            "{COLLECTION_OPTIONS}: {} indexes are declared, and a collection holds at most {limit} besides {}; mongod \
             refuses the next (code 67, \"add index fails, too many indexes\"): merge indexes that share a prefix \
             (`a, b` serves queries on `a`), or drop the ones no query needs",
            o.indexes.len(),
            if o.clustered.is_some() { "its clustered index" } else { "`_id`'s" }
        ),
        ));
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
                 last and ascending, its timeField `{time}`; mongod refuses `{}` in its shard key: {}",
                meta.as_ref().map(|m| format!(" `{m}`")).unwrap_or_default(),
                key.path,
                match &meta {
                    Some(m) => format!("shard on `{m}` (`shard_key({m} = 1)`, or `\"hashed\"`), with `{time} = 1` last if you want it"),
                    None => "declare a `meta_field` (what identifies a series) and shard on it".to_owned(),
                }
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
    fn partial_filters_take_what_mongod_takes() {
        let refused = |partial: &str| {
            let index = crate::attr::json::parse_json(partial).expect("JSON");
            let crate::attr::json::JsonValue::Object(members) = index else { panic!("an object") };
            super::filter(&members, true).err()
        };
        for ok in [
            r#"{"a": 1, "b": null, "c": {"x": 1}, "d": {"$date": "2024-01-01T00:00:00Z"}}"#,
            r#"{"a": {"$exists": true, "$gt": 1}, "b": {"$type": "string"}, "c": {"$in": [1, 2]}}"#,
            r#"{"$or": [{"$and": [{"a": {"$lte": 1}}]}, {"b": {"$all": [1, 2]}}], "$comment": "x"}"#,
            r#"{"p": {"$geoWithin": {"$center": [[0, 0], 1]}}}"#,
        ] {
            assert_eq!(refused(ok), None, "{ok}");
        }
        for (bad, says) in [
            (r#"{"readAt": {"$exists": false}}"#, "code 67"),
            (r#"{"a": {"$exists": 0}}"#, "code 67"),
            (r#"{"$or": [{"a": {"$ne": 1}}]}"#, "$not"),
            (r#"{"a": {"$regularExpression": {"pattern": "x", "options": ""}}}"#, "regex"),
            (r#"{"a": {"$all": [{"$elemMatch": {"b": 1}}]}}"#, "$elemMatch"),
            (r#"{"$nor": [{"a": 1}]}"#, "$nor"),
            (r#"{"$expr": {"$eq": ["$a", 1]}}"#, "code 224"),
            (r#"{"$where": "1"}"#, "code 2,"),
            (r#"{"a": {"$size": 1}}"#, "code 67"),
        ] {
            let problem = refused(bad).unwrap_or_else(|| panic!("{bad} accepted"));
            assert!(problem.contains(says), "{bad}: {problem}");
        }
    }

    #[test]
    fn index_kinds_mongod_refuses_together_are_refused() {
        let (errors, _) = run(parse_quote! {
            #[mongo(db = "db_shop", collection = "t_place", index(keys(title = "text")), index(keys(body = "text")),
                index(keys("$**" = 1, title = 1)), index(keys(rank = 1), sparse, partial = r#"{"rank": 1}"#))]
            struct Place { title: String, body: String, rank: i32 }
        });
        assert_eq!(errors.len(), 3, "{errors:?}");
        assert!(errors.iter().any(|e| e.contains("code 85")), "{errors:?}");
        assert!(errors.iter().any(|e| e.contains("wildcard indexes do not allow compounding")), "{errors:?}");
        assert!(errors.iter().any(|e| e.contains("cannot mix")), "{errors:?}");
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
