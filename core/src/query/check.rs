//! The compile-time checks of a `query!` against its model: every key the filter, the sort
//! and the projection name is a key the model stores (as serde writes it, dotted through
//! embedded documents and arrays as mongosh writes it), and every operator is one the
//! key's kind can take. `const fn`s over `MongoSchema::FIELDS` and the collection's
//! constants, called by the query's one `const` item, each call spanned at its key (a
//! `#[track_caller]` panic is a build error there).
//!
//! The values' Rust types are checked by the trait [`super::value::Stores`], whose kind
//! argument [`value_class`] computes from the same walk.

use super::shape::{Filter, Op, Pred, Shape};
use crate::command::{IndexKey, MongoCollection};
use crate::paths::kind_name;
use crate::schema::{BsonKind, FieldFacts, Keyword, KeywordLit, MongoSchema, Shape as TypeShape};
use mongo_schema_contract::helpers::bytes_eq;
use mongo_schema_contract::rules::ConstMessage;

/// What a key of the filter reaches in the model.
#[derive(Clone, Copy)]
pub struct Reached {
    /// The BSON type stored there (`Array` for an array field).
    pub kind: BsonKind,
    /// For an array (or a map) the items' kind; else `kind`.
    pub item: BsonKind,
    /// The key is an array field itself (`$size`, `$all`, `$elemMatch` apply).
    pub array: bool,
    /// The fields of the documents there (or of an array's items), when listed.
    pub fields: Option<&'static [FieldFacts]>,
    /// The field itself, when the key ends on a field of a listed struct.
    pub field: Option<&'static FieldFacts>,
    /// The struct declaring `fields`.
    pub owner: &'static str,
    /// The keys of the internally tagged enum the key was found in (its variants'), when
    /// it was: another variant may store the key as another type.
    pub among: Option<&'static [FieldFacts]>,
}

impl Reached {
    /// What an operator on the elements of the array `self` (`$elemMatch` of values, `@`
    /// in the operators' names) compares: the items, with the array's fields.
    const fn elements(&self) -> Reached {
        Reached {
            kind: self.item,
            item: self.item,
            array: false,
            fields: self.fields,
            field: self.field,
            owner: self.owner,
            among: None,
        }
    }

    const fn unlisted() -> Reached {
        Reached {
            kind: BsonKind::Any,
            item: BsonKind::Any,
            array: false,
            fields: None,
            field: None,
            owner: "",
            among: None,
        }
    }
}

/// Why a key does not fit the model.
#[derive(Clone, Copy)]
enum Miss {
    /// Segment `at` names no key of the struct `owner`, whose keys are `list`.
    NoKey { at: usize, list: &'static [FieldFacts], owner: &'static str },
    /// Segment `at` follows a value that has no keys (a scalar of `kind`).
    AfterScalar { at: usize, kind: BsonKind },
}

/// The key of a dotted path's segment `i`: (start, end) byte offsets.
const fn segment(path: &str, i: usize) -> (usize, usize) {
    let bytes = path.as_bytes();
    let (mut start, mut n, mut b) = (0, 0, 0);
    while b <= bytes.len() {
        if b == bytes.len() || bytes[b] == b'.' {
            if n == i {
                return (start, b);
            }
            n += 1;
            start = b + 1;
        }
        b += 1;
    }
    (bytes.len(), bytes.len())
}

const fn slice(path: &str, (start, end): (usize, usize)) -> &str {
    if start == 0 && end == path.len() {
        return path;
    }
    match core::str::from_utf8(path.as_bytes().split_at(end).0.split_at(start).1) {
        Ok(text) => text,
        Err(_) => "",
    }
}

/// The keys listed below `field`: its struct's, else an internally tagged enum's (the tag
/// and the variants' fields).
const fn listed(field: &FieldFacts) -> Option<&'static [FieldFacts]> {
    match field.fields {
        Some(list) => Some(list),
        None => field.tagged,
    }
}

/// `list` holds a flattened field whose keys are not listed (a flattened map, an enum
/// other than an internally tagged one): any key may be one of its.
const fn open_flatten(list: &'static [FieldFacts]) -> bool {
    let mut i = 0;
    while i < list.len() {
        let field = &list[i];
        if field.flatten {
            match (listed(field), matches!(field.facts.shape, TypeShape::Map)) {
                (Some(inner), false) => {
                    if open_flatten(inner) {
                        return true;
                    }
                }
                _ => return true,
            }
        }
        i += 1;
    }
    false
}

/// The field of `list` serde writes under `key[start..end]`, looking into flattened fields
/// (as `FieldFacts::written`, with the comparison inline).
const fn find(list: &'static [FieldFacts], key: &[u8], start: usize, end: usize) -> Option<&'static FieldFacts> {
    let len = end - start;
    let mut i = 0;
    while i < list.len() {
        let field = &list[i];
        if field.flatten {
            if let (Some(inner), false) = (listed(field), matches!(field.facts.shape, TypeShape::Map)) {
                if let Some(found) = find(inner, key, start, end) {
                    return Some(found);
                }
            }
        } else {
            let name = field.name.as_bytes();
            if name.len() == len {
                let mut b = 0;
                while b < len && name[b] == key[start + b] {
                    b += 1;
                }
                if b == len {
                    return Some(field);
                }
            }
        }
        i += 1;
    }
    None
}

/// What a field's value is, as a [`Reached`].
const fn holds(field: &'static FieldFacts) -> Reached {
    let facts = field.facts;
    let array = matches!(facts.shape, TypeShape::Array | TypeShape::Set | TypeShape::FixedArray);
    let kind = match facts.kind {
        // a map's stored kind is a document
        _ if matches!(facts.shape, TypeShape::Map) => BsonKind::Object,
        kind => kind,
    };
    Reached {
        kind,
        item: facts.item_kind,
        array,
        fields: listed(field),
        field: Some(field),
        owner: field.type_name,
        among: None,
    }
}

/// `at`, the field `field` of the internally tagged enum whose keys are `list`: when the
/// variants holding the key store values of classes no one class takes, an open kind (the
/// operators' checks pass; the literals compared with it are checked against each
/// variant's, [`union_literal`]).
const fn among(mut at: Reached, list: &'static [FieldFacts], field: &'static FieldFacts) -> Reached {
    at.among = Some(list);
    if let Err(()) = joined(list, field.name.as_bytes(), None) {
        at.kind = BsonKind::Mixed;
        at.item = BsonKind::Mixed;
        at.array = false;
    }
    at
}

/// The class of the values of the key `name` in every variant of `list` holding it (the
/// tagged enum's keys), folded into `acc`: `Err` when no one class takes them all.
const fn joined(list: &'static [FieldFacts], name: &[u8], mut acc: Option<u8>) -> Result<Option<u8>, ()> {
    use super::value as v;
    let mut i = 0;
    while i < list.len() {
        let field = &list[i];
        if field.flatten {
            if let (Some(inner), false) = (listed(field), matches!(field.facts.shape, TypeShape::Map)) {
                acc = match joined(inner, name, acc) {
                    Ok(acc) => acc,
                    Err(()) => return Err(()),
                };
            }
        } else if bytes_eq(field.name.as_bytes(), name) {
            let class = class_of(&holds(field));
            acc = match acc {
                None => Some(class),
                Some(a) if a == class => Some(a),
                Some(a) => {
                    let number = [a, class];
                    let joined = if matches!(
                        number,
                        [v::INT | v::LONG | v::DOUBLE | v::DECIMAL, v::INT | v::LONG | v::DOUBLE | v::DECIMAL]
                    ) {
                        // the wider class takes the narrower's integers
                        match (a, class) {
                            (v::DOUBLE, v::DECIMAL) | (v::DECIMAL, v::DOUBLE) => return Err(()),
                            (v::DOUBLE, _) | (_, v::DOUBLE) => v::DOUBLE,
                            (v::DECIMAL, _) | (_, v::DECIMAL) => v::DECIMAL,
                            _ => v::LONG,
                        }
                    } else if matches!(number, [v::STRING | v::ENUM, v::STRING | v::ENUM]) {
                        // the enum's class takes strings too
                        v::ENUM
                    } else {
                        return Err(());
                    };
                    Some(joined)
                }
            };
        }
        i += 1;
    }
    Ok(acc)
}

/// Checks a literal (`kind`: `s` string, `i` integer, `f` float, `b` bool) compared with
/// the key `path` that the variants of an internally tagged enum store as values of
/// different classes: some variant's class must take it.
#[track_caller]
const fn union_literal(path: &str, list: &'static [FieldFacts], name: &[u8], kind: u8) {
    if union_takes(list, name, kind) {
        return;
    }
    let what = match kind {
        b's' => "a string literal",
        b'i' => "an integer literal",
        b'f' => "a float literal",
        _ => "a bool literal",
    };
    let message = ConstMessage::new().str(what).str(" is not a value `").str(path).str("` stores: ");
    let message = union_holders(message, list, name, &mut true);
    let message = message.str(" hold it; write a value one of these variants stores");
    panic!("{}", message.as_str())
}

const fn union_takes(list: &'static [FieldFacts], name: &[u8], kind: u8) -> bool {
    use super::value as v;
    let mut i = 0;
    while i < list.len() {
        let field = &list[i];
        if field.flatten {
            if let (Some(inner), false) = (listed(field), matches!(field.facts.shape, TypeShape::Map)) {
                if union_takes(inner, name, kind) {
                    return true;
                }
            }
        } else if bytes_eq(field.name.as_bytes(), name) {
            let class = class_of(&holds(field));
            let takes = match kind {
                b's' => matches!(class, v::STRING | v::ENUM),
                b'i' => matches!(class, v::INT | v::LONG | v::DOUBLE | v::DECIMAL),
                b'f' => matches!(class, v::DOUBLE),
                _ => matches!(class, v::BOOL),
            };
            if takes || class == v::ANY {
                return true;
            }
        }
        i += 1;
    }
    false
}

/// The variants of `list` holding `name`, each with the BSON type it stores there.
const fn union_holders(
    mut message: ConstMessage,
    list: &'static [FieldFacts],
    name: &[u8],
    first: &mut bool,
) -> ConstMessage {
    let mut i = 0;
    while i < list.len() {
        let field = &list[i];
        if field.flatten {
            if let (Some(inner), false) = (listed(field), matches!(field.facts.shape, TypeShape::Map)) {
                let mut j = 0;
                let mut holds_it = false;
                while j < inner.len() {
                    holds_it |= !inner[j].flatten && bytes_eq(inner[j].name.as_bytes(), name);
                    j += 1;
                }
                if holds_it && !field.rust_name().is_empty() {
                    let at = holds(find_named(inner, name));
                    let stored = match at.array {
                        true => kind_name(at.item),
                        false => kind_name(at.kind),
                    };
                    message = message
                        .str(if *first { "variant `" } else { ", variant `" })
                        .str(field.rust_name())
                        .str("` (")
                        .str(stored)
                        .str(")");
                    *first = false;
                } else {
                    message = union_holders(message, inner, name, first);
                }
            }
        }
        i += 1;
    }
    message
}

const fn find_named(list: &'static [FieldFacts], name: &[u8]) -> &'static FieldFacts {
    let mut i = 0;
    while i < list.len() {
        if !list[i].flatten && bytes_eq(list[i].name.as_bytes(), name) {
            return &list[i];
        }
        i += 1;
    }
    &list[0]
}

/// What stands at one of `at`'s items (a map's value, an array's element by position): a
/// listed document, or a value of the items' kind; only an array's `element` of an array
/// of arrays is itself an array (`$size`, `$all` apply to it).
const fn items(at: Reached, element: bool) -> Reached {
    match at.fields {
        Some(_) => {
            Reached { kind: BsonKind::Object, item: BsonKind::Object, array: false, field: None, among: None, ..at }
        }
        None => Reached {
            kind: at.item,
            item: at.item,
            array: element && matches!(at.item, BsonKind::Array),
            fields: None,
            field: None,
            owner: "",
            among: None,
        },
    }
}

/// Walks `path` (a key as stored) from the fields `root` of the struct `owner`, held by the
/// field `from` (an array's, for the keys of an `$elemMatch`; `None` at the model's root).
const fn reach(
    root: Option<&'static [FieldFacts]>,
    owner: &'static str,
    bytes: &[u8],
    from: Option<&'static FieldFacts>,
) -> Result<Reached, Miss> {
    let Some(list) = root else { return Ok(Reached::unlisted()) };
    let mut at = Reached {
        kind: BsonKind::Object,
        item: BsonKind::Object,
        array: false,
        fields: Some(list),
        field: from,
        owner,
        among: None,
    };
    // the walk stands on a map's values: the next segment is any key
    let mut in_map = false;
    // one pass over the path: segment `i` is `bytes[start..end]` (no call per segment:
    // each call is a frame of rustc's const interpreter, the walk's main cost)
    let (mut i, mut start) = (0, 0);
    while start <= bytes.len() {
        let mut end = start;
        while end < bytes.len() && bytes[end] != b'.' {
            end += 1;
        }
        if in_map {
            // a map's value: its own fields, or a scalar
            in_map = false;
            at = items(at, false);
            i += 1;
            start = end + 1;
            continue;
        }
        let mut digits = end > start;
        let mut d = start;
        while digits && d < end {
            digits = bytes[d].is_ascii_digit();
            d += 1;
        }
        if at.array && digits {
            // an element by position: the items themselves
            at = items(at, true);
            i += 1;
            start = end + 1;
            continue;
        }
        match (at.kind, at.fields) {
            // a document (or an array of documents, reached through) whose keys are listed
            (BsonKind::Object | BsonKind::Array, Some(list)) if !at.array || matches!(at.item, BsonKind::Object) => {
                match find(list, bytes, start, end) {
                    Some(field) => {
                        let in_tagged = tagged(&at);
                        at = holds(field);
                        if in_tagged {
                            at = among(at, list, field);
                        }
                        in_map = matches!(field.facts.shape, TypeShape::Map);
                        if in_map {
                            at.item = field.facts.item_kind;
                        }
                    }
                    // a flattened map's or untagged enum's keys are anyone's
                    None if open_flatten(list) => return Ok(Reached::unlisted()),
                    None => return Err(Miss::NoKey { at: i, list, owner: at.owner }),
                }
            }
            // keys no table lists (an untagged or externally tagged enum, a `Document`, a
            // `Bson`): any key, by design; the values there are not checked either
            (BsonKind::Object | BsonKind::Array | BsonKind::Any | BsonKind::Mixed, _) => return Ok(Reached::unlisted()),
            (kind, _) => return Err(Miss::AfterScalar { at: i, kind }),
        }
        i += 1;
        start = end + 1;
    }
    if in_map {
        // the map itself: a document of any keys
        at.kind = BsonKind::Object;
    }
    Ok(at)
}

/// The key `path` of the model `M`, or a build error naming what to write instead.
#[track_caller]
pub const fn key<M: MongoCollection>(path: &'static str) -> Reached {
    key_in(M::FIELDS, M::NAME, M::RENAMES, path, "", None)
}

#[track_caller]
const fn key_in(
    root: Option<&'static [FieldFacts]>,
    owner: &'static str,
    renames: &'static [(&'static str, &'static str)],
    path: &'static str,
    within: &str,
    from: Option<&'static FieldFacts>,
) -> Reached {
    if bytes_eq(path.as_bytes(), b"_id") {
        // every document has one, whatever the model declares
        if let Ok(found) = reach(root, owner, path.as_bytes(), from) {
            return found;
        }
        return Reached::unlisted();
    }
    match reach(root, owner, path.as_bytes(), from) {
        Ok(found) => found,
        Err(miss) => fail_key(miss, renames, path, owner, within),
    }
}

#[track_caller]
const fn fail_key(
    miss: Miss,
    renames: &'static [(&'static str, &'static str)],
    path: &str,
    root: &str,
    within: &str,
) -> ! {
    let mut message = ConstMessage::new().str("`").str(path).str("` ");
    if within.is_empty() {
        message = message.str("is not a key `").str(root).str("` stores");
    } else {
        message = message.str("is not a key of the items of `").str(within).str("`");
    }
    match miss {
        Miss::NoKey { at, list, owner } => {
            let bad = slice(path, segment(path, at));
            if at > 0 {
                let before = slice(path, (0, segment(path, at - 1).1));
                message = message
                    .str(": `")
                    .str(before)
                    .str("` (of type `")
                    .str(owner)
                    .str("`) has no key `")
                    .str(bad)
                    .str("`");
            }
            // a key renamed with `renamed_from`: the old name is what the data had
            let mut r = 0;
            while at == 0 && r < renames.len() {
                if bytes_eq(renames[r].1.as_bytes(), bad.as_bytes()) {
                    let message = message
                        .str(": it was renamed to `")
                        .str(renames[r].0)
                        .str("` (`#[mongo(renamed_from = \"")
                        .str(bad)
                        .str("\")]`); write `")
                        .str(renames[r].0)
                        .str("`");
                    panic!("{}", message.as_str())
                }
                r += 1;
            }
            let message = closest(message, list, bad.as_bytes());
            panic!("{}", message.as_str())
        }
        Miss::AfterScalar { at, kind } => {
            let before = slice(path, (0, segment(path, at - 1).1));
            let message = message
                .str(": `")
                .str(before)
                .str("` holds ")
                .str(kind_name(kind))
                .str(", which has no keys; the path ends there");
            panic!("{}", message.as_str())
        }
    }
}

/// `message` followed by the keys of `list` closest to `bad` (by edit distance), or all of
/// them when none is close.
const fn closest(message: ConstMessage, list: &'static [FieldFacts], bad: &[u8]) -> ConstMessage {
    let mut best = usize::MAX;
    let mut i = 0;
    while i < list.len() {
        let d = distance_in(list[i], bad);
        if d < best {
            best = d;
        }
        i += 1;
    }
    let near = best <= 2 || best * 3 <= bad.len();
    let mut message = message.str(if near { "; did you mean " } else { "; its keys are " });
    let from = message.as_str().len();
    let mut first = true;
    let mut count = 0;
    let mut i = 0;
    while i < list.len() && count < 12 {
        message = keys_of(message, from, list[i], bad, near, best, &mut first, &mut count);
        i += 1;
    }
    if first {
        message = message.str("none");
    }
    message
}

/// The smallest distance from `bad` to `field`'s key (or, when flattened, its fields' keys).
const fn distance_in(field: FieldFacts, bad: &[u8]) -> usize {
    if field.flatten {
        let mut best = usize::MAX;
        if let Some(inner) = listed(&field) {
            let mut i = 0;
            while i < inner.len() {
                let d = distance_in(inner[i], bad);
                if d < best {
                    best = d;
                }
                i += 1;
            }
        }
        return best;
    }
    distance(field.name.as_bytes(), bad)
}

#[allow(clippy::too_many_arguments)]
const fn keys_of(
    mut message: ConstMessage,
    from: usize,
    field: FieldFacts,
    bad: &[u8],
    near: bool,
    best: usize,
    first: &mut bool,
    count: &mut usize,
) -> ConstMessage {
    if field.flatten {
        if let Some(inner) = listed(&field) {
            let mut i = 0;
            while i < inner.len() {
                message = keys_of(message, from, inner[i], bad, near, best, first, count);
                i += 1;
            }
        }
        return message;
    }
    if field.name.is_empty() || (near && distance(field.name.as_bytes(), bad) != best) {
        return message;
    }
    // a key two variants of a tagged enum hold: listed once
    if named_since(message.as_str().as_bytes(), from, field.name.as_bytes()) {
        return message;
    }
    message = message.str(if *first { "`" } else { ", `" }).str(field.name).str("`");
    *first = false;
    *count += 1;
    message
}

/// `message[from..]` holds `` `name` ``.
const fn named_since(message: &[u8], from: usize, name: &[u8]) -> bool {
    let mut at = from;
    while at + name.len() + 2 <= message.len() {
        if message[at] == b'`' && message[at + name.len() + 1] == b'`' {
            let mut b = 0;
            while b < name.len() && message[at + 1 + b] == name[b] {
                b += 1;
            }
            if b == name.len() {
                return true;
            }
        }
        at += 1;
    }
    false
}

/// Levenshtein distance, ASCII case folded (keys longer than 63 bytes are far from all).
const fn distance(a: &[u8], b: &[u8]) -> usize {
    if a.len() > 63 || b.len() > 63 {
        return usize::MAX / 2;
    }
    let mut row = [0usize; 64];
    let mut j = 0;
    while j <= b.len() {
        row[j] = j;
        j += 1;
    }
    let mut i = 1;
    while i <= a.len() {
        let mut diagonal = row[0];
        row[0] = i;
        let mut j = 1;
        while j <= b.len() {
            let above = row[j];
            let cost = !a[i - 1].eq_ignore_ascii_case(&b[j - 1]) as usize;
            let mut best = diagonal + cost;
            if above + 1 < best {
                best = above + 1;
            }
            if row[j - 1] + 1 < best {
                best = row[j - 1] + 1;
            }
            row[j] = best;
            diagonal = above;
            j += 1;
        }
        i += 1;
    }
    row[b.len()]
}

const fn is_number(kind: BsonKind) -> bool {
    matches!(kind, BsonKind::Double | BsonKind::Int | BsonKind::Long | BsonKind::Decimal)
}

const fn is_open(kind: BsonKind) -> bool {
    matches!(kind, BsonKind::Any | BsonKind::Mixed)
}

/// The kind the values of an equality or a range on `at` are compared with: an array
/// field's items (mongod matches an element), else the field's own.
const fn compared(at: &Reached) -> BsonKind {
    if at.array {
        at.item
    } else {
        at.kind
    }
}

/// Checks the predicate `pred` (the filter's `index`-th, as the macro numbers them) of the
/// query `shape` on the model `M`: the key, then the operator against the key's kind.
#[track_caller]
pub const fn pred<M: MongoCollection>(pred: &Pred) {
    let at = key::<M>(pred.path);
    op::<M>(pred.path, &at, &pred.op);
}

/// Checks the key `path` of `M` and the operator `op` (`"$gt"`, `"$regex"`, `"$eq"` for
/// an implicit equality, `"$elemMatch"` with keys, `"$elemMatch-values"` with operators on
/// the elements) against the key's kind. The macro writes one call per operator of the
/// filter, spanned at its key, with primitive arguments only (a reference to a constant
/// would be promoted: a body of its own for the compiler, per call).
#[track_caller]
pub const fn key_op<M: MongoCollection>(path: &'static str, op: &str) {
    let at = key::<M>(path);
    rule::<M>(path, &at, op);
}

/// Checks the key `path` of `M` and its operators `ops` (their names separated by a
/// space; `@` before an operator on the elements of an array, inside `$elemMatch`), and
/// returns the class of the values compared with the key ([`value_class`]). The macro
/// writes one call per key, spanned at it, into the query's one constant array, from which
/// each value's kind is read: one walk of the fields table per key.
#[track_caller]
pub const fn key_ops<M: MongoCollection>(path: &'static str, ops: &str) -> u8 {
    let at = key::<M>(path);
    rules_of::<M>(path, &at, ops);
    class_of(&at)
}

/// [`key_ops`] for the key `name` of the documents in the array `array` (`$elemMatch`).
#[track_caller]
pub const fn elem_key_ops<M: MongoCollection>(array: &'static str, name: &'static str, ops: &str) -> u8 {
    let at = key::<M>(array);
    if at.fields.is_none() {
        // an array of unlisted documents: any key
        return super::value::ANY;
    }
    let inner = key_in(at.fields, at.owner, &[], name, array, at.field);
    rules_of::<M>(name, &inner, ops);
    class_of(&inner)
}

/// What the key check of one key of a model found, computed once per crate for each key
/// a query names ([`Key`]): the class of its values and the operators and literals that
/// pass on it (the bits of `mongo_schema_contract::query`).
#[derive(Clone, Copy)]
pub struct KeyFacts {
    /// The model stores the key (else the check per query says why not).
    pub found: bool,
    /// [`value_class`] of the key.
    pub class: u8,
    /// The operator and literal bits the key takes.
    pub passes: u32,
    /// The field whose values (an enum's variants, its `enum_values`) a string literal
    /// compared with the key must be one of, when `passes` leaves string literals out for
    /// that reason only.
    pub strings: Option<&'static FieldFacts>,
}

/// The key whose bytes are the words `A`, `B` ([`mongo_schema_contract::query::key_words`])
/// of the model `M`: its facts are a generic constant, evaluated once per crate for each
/// model and key however many queries name them.
pub struct Key<M, const A: u128, const B: u128>(core::marker::PhantomData<M>);

impl<M: MongoCollection, const A: u128, const B: u128> Key<M, A, B> {
    /// The key's facts.
    pub const FACTS: KeyFacts = key_facts::<M>(A, B);
}

/// [`Key`] of a key of at most 16 bytes, its second word zero and left out: each const
/// generic argument a query writes is a constant of its own for rustc to lower and evaluate.
pub struct Key1<M, const A: u128>(core::marker::PhantomData<M>);

impl<M: MongoCollection, const A: u128> Key1<M, A> {
    /// The key's facts.
    pub const FACTS: KeyFacts = key_facts::<M>(A, 0);
}

/// [`Key::FACTS`] of the key whose words are `lo`, `hi`: the walk of [`key`] without its
/// panics, and each operator's verdict.
pub const fn key_facts<M: MongoCollection>(lo: u128, hi: u128) -> KeyFacts {
    use mongo_schema_contract::query as q;
    let mut buf = [0u8; q::WORDS_LEN];
    let len = q::key_of_words(lo, hi, &mut buf);
    let path = buf.split_at(len).0;
    let at = match reach(M::FIELDS, M::NAME, path, None) {
        Ok(at) => at,
        // every document has one, whatever the model declares (as [`key_in`])
        Err(_) if bytes_eq(path, b"_id") => Reached::unlisted(),
        Err(_) => return KeyFacts { found: false, class: 0, passes: 0, strings: None },
    };
    let geo = geo_indexed(M::INDEXES, path);
    let item = at.elements();
    // the literals, as `rules_of` checks them: a key the variants of a tagged enum store as
    // different classes checks each; an enum's, or one with `enum_values`, each string
    let (literals, strings) = match (at.among, at.field) {
        (Some(_), Some(_)) if matches!(at.kind, BsonKind::Mixed) => (0, None),
        (_, Some(field)) if !field.facts.variants.is_empty() || !enum_values(field).is_empty() => {
            (q::OTHER_LITERAL, Some(field))
        }
        _ => (q::STRING_LITERAL | q::OTHER_LITERAL, None),
    };
    KeyFacts {
        found: true,
        class: class_of(&at),
        passes: passes(&at, geo) | passes(&item, geo) << q::ITEM | literals,
        strings,
    }
}

/// The operator bits `rule` lets through on `at` (`geo`: the key has a geo index).
const fn passes(at: &Reached, geo: bool) -> u32 {
    use mongo_schema_contract::query as q;
    let mut bits = 0;
    if !regex_refused(at) {
        bits |= q::REGEX;
    }
    if !array_refused(at) {
        bits |= q::SIZE | q::ALL | q::ELEM_MATCH_VALUES;
        if !elem_keys_refused(at) {
            bits |= q::ELEM_MATCH;
        }
    }
    if !range_refused(at) {
        bits |= q::RANGE;
    }
    if !mod_refused(at) {
        bits |= q::MOD;
    }
    if geo {
        bits |= q::NEAR;
    }
    bits
}

/// [`key_ops`] for the key whose bytes are the words `A`, `B` ([`Key`]), with its
/// operators' and literals' bits: a key the model stores and whose operators and literals
/// all pass returns its class from [`Key::FACTS`] at once; any other goes through
/// [`key_ops`], which says what is wrong. (The facts are read here, not at the call: a
/// model that is no collection is then one error per key, on this function's bound.)
#[track_caller]
pub const fn key_ops_at<M: MongoCollection, const A: u128, const B: u128>(
    path: &'static str,
    ops: &str,
    bits: u32,
) -> u8 {
    let facts = Key::<M, A, B>::FACTS;
    // the common case inline (a call is a frame of the const interpreter)
    if facts.found && bits & !facts.passes == 0 {
        return facts.class;
    }
    not_passed::<M>(facts, path, ops, bits)
}

/// [`key_ops_at`] for a key of at most 16 bytes ([`Key1`]).
#[track_caller]
pub const fn key_ops_at1<M: MongoCollection, const A: u128>(path: &'static str, ops: &str, bits: u32) -> u8 {
    let facts = Key1::<M, A>::FACTS;
    if facts.found && bits & !facts.passes == 0 {
        return facts.class;
    }
    not_passed::<M>(facts, path, ops, bits)
}

/// What is left of [`key_ops_at`] when the bits do not all pass at once.
#[track_caller]
const fn not_passed<M: MongoCollection>(facts: KeyFacts, path: &'static str, ops: &str, bits: u32) -> u8 {
    match passed(facts, ops, bits) {
        Some(class) => class,
        None => key_ops::<M>(path, ops),
    }
}

/// The class of the key's values when its facts let its operators and literals (`ops`,
/// as [`key_ops`] reads them, and their `bits`) through: every bit passes, or only string
/// literals are left and each is one of the values the key's field takes (`fits`, as
/// `literal_at` checks it first). `None` leaves the verdict to [`key_ops`].
pub const fn passed(facts: KeyFacts, ops: &str, bits: u32) -> Option<u8> {
    if !facts.found {
        return None;
    }
    let left = bits & !facts.passes;
    if left == 0 {
        return Some(facts.class);
    }
    let Some(field) = facts.strings else { return None };
    if left != mongo_schema_contract::query::STRING_LITERAL {
        return None;
    }
    // the names as `rules_of` splits them; the string literals are the ones after `=`
    let bytes = ops.as_bytes();
    let (mut start, mut b) = (0, 0);
    while b <= bytes.len() {
        if b == bytes.len() || bytes[b] == 0x1f {
            if b > start && bytes[start] == b'=' && !fits(field, bytes.split_at(b).0.split_at(start + 1).1) {
                return None;
            }
            start = b + 1;
        }
        b += 1;
    }
    Some(facts.class)
}

/// [`sort`] with the key's [`Key::FACTS`].
#[track_caller]
pub const fn sort_at<M: MongoCollection, const A: u128, const B: u128>(path: &'static str) {
    if !Key::<M, A, B>::FACTS.found {
        sort::<M>(path);
    }
}

/// [`projection`] with the key's [`Key::FACTS`].
#[track_caller]
pub const fn projection_at<M: MongoCollection, const A: u128, const B: u128>(path: &'static str) {
    if !Key::<M, A, B>::FACTS.found {
        projection::<M>(path);
    }
}

/// [`sort_at`] for a key of at most 16 bytes ([`Key1`]).
#[track_caller]
pub const fn sort_at1<M: MongoCollection, const A: u128>(path: &'static str) {
    if !Key1::<M, A>::FACTS.found {
        sort::<M>(path);
    }
}

/// [`projection_at`] for a key of at most 16 bytes ([`Key1`]).
#[track_caller]
pub const fn projection_at1<M: MongoCollection, const A: u128>(path: &'static str) {
    if !Key1::<M, A>::FACTS.found {
        projection::<M>(path);
    }
}

#[track_caller]
const fn rules_of<M: MongoCollection>(path: &'static str, at: &Reached, ops: &str) {
    let bytes = ops.as_bytes();
    let mut start = 0;
    let mut b = 0;
    while b <= bytes.len() {
        if b == bytes.len() || bytes[b] == 0x1f {
            if b > start {
                let op = slice(ops, (start, b));
                match op.as_bytes()[0] {
                    b'@' => {
                        let item = at.elements();
                        rule::<M>(path, &item, op.split_at(1).1);
                    }
                    b'=' | b'#' => match (at.among, at.field) {
                        // variants storing the key as different classes: some must take it
                        (Some(list), Some(field)) if matches!(at.kind, BsonKind::Mixed) => {
                            let kind = if op.as_bytes()[0] == b'=' { b's' } else { op.as_bytes()[1] };
                            union_literal(path, list, field.name.as_bytes(), kind)
                        }
                        _ if op.as_bytes()[0] == b'=' => literal_at(path, at, op.split_at(1).1),
                        _ => {}
                    },
                    _ => rule::<M>(path, at, op),
                }
            }
            start = b + 1;
        }
        b += 1;
    }
}

/// `op` on the elements of the array `path` (`{ "$elemMatch": { "$gte": a } }`).
#[track_caller]
pub const fn item_op<M: MongoCollection>(path: &'static str, op: &str) {
    let at = key::<M>(path);
    let item = at.elements();
    rule::<M>(path, &item, op);
}

/// The key `key` of the documents in the array `array` (`{ "$elemMatch": { key: .. } }`),
/// and `op` on it.
#[track_caller]
pub const fn elem_key_op<M: MongoCollection>(array: &'static str, name: &'static str, op: &str) {
    let at = key::<M>(array);
    if at.fields.is_none() {
        // an array of unlisted documents: any key
        return;
    }
    let inner = key_in(at.fields, at.owner, &[], name, array, at.field);
    rule::<M>(name, &inner, op);
}

#[track_caller]
const fn rule<M: MongoCollection>(path: &'static str, at: &Reached, op: &str) {
    let o = op.as_bytes();
    let shape = if bytes_eq(o, b"$regex") {
        Op::Regex { prefix: false }
    } else if bytes_eq(o, b"$size") {
        Op::Size
    } else if bytes_eq(o, b"$all") {
        Op::All
    } else if bytes_eq(o, b"$elemMatch") {
        Op::ElemMatch(&[])
    } else if bytes_eq(o, b"$elemMatch-values") {
        Op::ElemMatchValue(&[])
    } else if bytes_eq(o, b"$gt") || bytes_eq(o, b"$gte") || bytes_eq(o, b"$lt") || bytes_eq(o, b"$lte") {
        Op::Gt
    } else if bytes_eq(o, b"$mod") {
        Op::Mod
    } else if bytes_eq(o, b"$near") || bytes_eq(o, b"$nearSphere") {
        Op::Near
    } else {
        Op::Eq
    };
    self::op::<M>(path, at, &shape);
}

#[track_caller]
const fn op<M: MongoCollection>(path: &'static str, at: &Reached, op: &Op) {
    match op {
        Op::Regex { .. } if regex_refused(at) => {
            refuse(path, "`$regex`", at, "matches strings only: compare it with `$eq`, `$in` or a range instead");
        }
        Op::Size | Op::All | Op::ElemMatch(_) | Op::ElemMatchValue(_) => {
            if array_refused(at) {
                let name = match op {
                    Op::Size => "`$size`",
                    Op::All => "`$all`",
                    _ => "`$elemMatch`",
                };
                refuse(path, name, at, "applies to arrays only: compare the value itself (`$eq`, `$in`, a range)");
            }
            if let Op::ElemMatch(filter) = op {
                if elem_keys_listed(at) {
                    elem_match::<M>(path, at, filter);
                } else if elem_keys_refused(at) {
                    refuse(
                        path,
                        "`$elemMatch` with keys",
                        at,
                        "needs an array of documents: with operators on the elements, write `{ \"$elemMatch\": { \"$gte\": a, \"$lt\": b } }`",
                    );
                }
            }
            if let Op::ElemMatchValue(ops) = op {
                let item = Reached {
                    kind: at.item,
                    item: at.item,
                    array: false,
                    fields: at.fields,
                    field: None,
                    owner: at.owner,
                    among: None,
                };
                let mut i = 0;
                while i < ops.len() {
                    self::op::<M>(path, &item, &ops[i]);
                    i += 1;
                }
            }
        }
        Op::Gt | Op::Gte | Op::Lt | Op::Lte => {
            if matches!(compared(at), BsonKind::Bool) {
                refuse(path, "a range operator", at, "has no order on a bool: compare with `true` or `false`");
            }
            if matches!(compared(at), BsonKind::Object) {
                refuse(path, "a range operator", at, "on a whole document compares field by field, which is rarely meant: compare one of its keys (`key.inner`)");
            }
        }
        Op::Mod if mod_refused(at) => {
            refuse(path, "`$mod`", at, "applies to numbers only");
        }
        Op::Near if !geo_indexed(M::INDEXES, path.as_bytes()) => {
            let message = ConstMessage::new()
                .str("`$near` on `")
                .str(path)
                .str("`: mongod answers `$near` only from a `2dsphere` or `2d` index on the key, and `")
                .str(M::NAME)
                .str("` declares none there; add `#[mongo(index(keys(")
                .str(path)
                .str(" = \"2dsphere\")))]` to the model, or use `$geoWithin`, which needs no index");
            panic!("{}", message.as_str())
        }
        Op::Not(inner) => self::op::<M>(path, at, inner),
        _ => {}
    }
}

// The conditions `op` refuses on, shared with [`key_facts`] (which records, per key,
// which operators pass without panicking).

const fn regex_refused(at: &Reached) -> bool {
    let kind = compared(at);
    !matches!(kind, BsonKind::String) && !is_open(kind) && !matches!(at.kind, BsonKind::Object)
}

/// `$size`, `$all`, `$elemMatch` on a value that is not an array.
const fn array_refused(at: &Reached) -> bool {
    !at.array && !is_open(at.kind)
}

/// `$elemMatch` with keys on an array of listed documents: the keys are checked.
const fn elem_keys_listed(at: &Reached) -> bool {
    at.fields.is_some() && matches!(at.item, BsonKind::Object)
}

/// `$elemMatch` with keys on an array of values that are not documents.
const fn elem_keys_refused(at: &Reached) -> bool {
    !elem_keys_listed(at) && !is_open(at.item) && !matches!(at.item, BsonKind::Object)
}

const fn range_refused(at: &Reached) -> bool {
    matches!(compared(at), BsonKind::Bool | BsonKind::Object)
}

const fn mod_refused(at: &Reached) -> bool {
    let kind = compared(at);
    !is_number(kind) && !is_open(kind)
}

#[track_caller]
const fn elem_match<M: MongoCollection>(path: &'static str, at: &Reached, filter: &[Filter]) {
    let mut i = 0;
    while i < filter.len() {
        if let Filter::Pred(pred) = &filter[i] {
            let inner = key_in(at.fields, at.owner, &[], pred.path, path, at.field);
            op::<M>(pred.path, &inner, &pred.op);
        }
        i += 1;
    }
}

#[track_caller]
const fn refuse(path: &str, what: &str, at: &Reached, fix: &str) -> ! {
    let stored = match at.array {
        true => ConstMessage::new().str("an array whose items are each ").str(kind_name(at.item)),
        false => ConstMessage::new().str(kind_name(at.kind)),
    };
    let message = ConstMessage::new()
        .str(what)
        .str(" on `")
        .str(path)
        .str("`, which stores ")
        .str(stored.as_str())
        .str(": ")
        .str(what)
        .str(" ")
        .str(fix);
    panic!("{}", message.as_str())
}

const fn geo_indexed(indexes: &[crate::command::Index], path: &[u8]) -> bool {
    let mut i = 0;
    while i < indexes.len() {
        let keys = indexes[i].keys;
        let mut k = 0;
        while k < keys.len() {
            if matches!(keys[k].1, IndexKey::Sphere2d | IndexKey::Geo2d) && bytes_eq(keys[k].0.as_bytes(), path) {
                return true;
            }
            k += 1;
        }
        i += 1;
    }
    false
}

const fn text_indexed(indexes: &[crate::command::Index]) -> bool {
    let mut i = 0;
    while i < indexes.len() {
        let keys = indexes[i].keys;
        let mut k = 0;
        while k < keys.len() {
            if matches!(keys[k].1, IndexKey::Text) {
                return true;
            }
            k += 1;
        }
        i += 1;
    }
    false
}

/// Checks a `$text` in the filter: the model must have a text index.
#[track_caller]
pub const fn text<M: MongoCollection>() {
    if !text_indexed(M::INDEXES) {
        let message = ConstMessage::new()
            .str("`$text` on `")
            .str(M::NAME)
            .str("`, which declares no text index: mongod refuses a `$text` query without one; add one to the model, `#[mongo(index(keys(title = \"text\")))]` (the keys you search), or match a key with `$regex`");
        panic!("{}", message.as_str())
    }
}

/// Checks a sort key: stored by the model.
#[track_caller]
pub const fn sort<M: MongoCollection>(path: &'static str) {
    let at = key::<M>(path);
    let _ = at;
}

/// Checks a projection key: stored by the model.
#[track_caller]
pub const fn projection<M: MongoCollection>(path: &'static str) {
    let _ = key::<M>(path);
}

/// The field's `enum_values` (empty without).
const fn enum_values(field: &FieldFacts) -> &'static [KeywordLit] {
    let mut allowed: &[KeywordLit] = &[];
    let mut k = 0;
    while k < field.keywords.len() {
        if let Keyword::Enum(list) = field.keywords[k] {
            allowed = list;
        }
        k += 1;
    }
    allowed
}

/// The string `value` is one `field` may store: any, or one of its enum's variants or its
/// `enum_values`.
const fn fits(field: &FieldFacts, value: &[u8]) -> bool {
    let variants = field.facts.variants;
    let allowed = enum_values(field);
    if variants.is_empty() && allowed.is_empty() {
        return true;
    }
    let mut i = 0;
    while i < variants.len() {
        if bytes_eq(variants[i].as_bytes(), value) {
            return true;
        }
        i += 1;
    }
    let mut i = 0;
    while i < allowed.len() {
        if let KeywordLit::Str(text) = allowed[i] {
            if bytes_eq(text.as_bytes(), value) {
                return true;
            }
        }
        i += 1;
    }
    false
}

/// Some variant of the tagged enum whose keys are `list` stores `value` under `name`.
const fn any_fits(list: &'static [FieldFacts], name: &[u8], value: &str) -> bool {
    let mut i = 0;
    while i < list.len() {
        let field = &list[i];
        if field.flatten {
            if let (Some(inner), false) = (listed(field), matches!(field.facts.shape, TypeShape::Map)) {
                if any_fits(inner, name, value) {
                    return true;
                }
            }
        } else if bytes_eq(field.name.as_bytes(), name) && fits(field, value.as_bytes()) {
            return true;
        }
        i += 1;
    }
    false
}

/// Checks a literal string compared with `path` (reached at `at`): inside the field's
/// `enum_values` or its enum's variants when it has them.
#[track_caller]
const fn literal_at(path: &'static str, at: &Reached, value: &str) {
    let Some(field) = at.field else { return };
    if fits(field, value.as_bytes()) {
        return;
    }
    // another variant of the tagged enum holding the key may store it (a `String` there)
    if let Some(list) = at.among {
        if any_fits(list, field.name.as_bytes(), value) {
            return;
        }
    }
    let variants = field.facts.variants;
    let allowed = enum_values(field);
    let mut message =
        ConstMessage::new().str("\"").str(value).str("\" is not a value `").str(path).str("` stores: it holds one of ");
    let mut first = true;
    let mut i = 0;
    while i < variants.len() {
        message = message.str(if first { "\"" } else { ", \"" }).str(variants[i]).str("\"");
        first = false;
        i += 1;
    }
    let mut i = 0;
    while i < allowed.len() {
        if let KeywordLit::Str(text) = allowed[i] {
            message = message.str(if first { "\"" } else { ", \"" }).str(text).str("\"");
            first = false;
        }
        i += 1;
    }
    if !variants.is_empty() && !field.type_name.is_empty() {
        message = message.str(" (write the enum's variant, `").str(field.type_name).str("::..`)");
    }
    panic!("{}", message.as_str())
}

/// The value class (see [`Stores`](super::Stores)) of the values compared with `path` of `M` by an
/// equality, a range or `$in` (`element`: the items of an array field, for `$all`);
/// `value::ANY` where the key is unknown (its own check reports it).
pub const fn value_class<M: MongoSchema>(path: &'static str) -> u8 {
    match reach(M::FIELDS, M::NAME, path.as_bytes(), None) {
        Ok(at) => class_of(&at),
        Err(_) => super::value::ANY,
    }
}

/// The value class of the values of `path` inside the items of the array `array` (keys of
/// an `$elemMatch`).
pub const fn elem_value_class<M: MongoSchema>(array: &'static str, path: &'static str) -> u8 {
    match reach(M::FIELDS, M::NAME, array.as_bytes(), None) {
        Ok(at) => match reach(at.fields, at.owner, path.as_bytes(), at.field) {
            Ok(inner) => class_of(&inner),
            Err(_) => super::value::ANY,
        },
        Err(_) => super::value::ANY,
    }
}

/// The class of the array items of `path` (`$elemMatch` with operators on the elements).
pub const fn item_class<M: MongoSchema>(path: &'static str) -> u8 {
    value_class::<M>(path)
}

/// `at` is a field holding an internally tagged enum (its listed keys are the enum's).
const fn tagged(at: &Reached) -> bool {
    match at.field {
        Some(field) => field.fields.is_none() && field.tagged.is_some(),
        None => false,
    }
}

const fn class_of(at: &Reached) -> u8 {
    use super::value as v;
    if let (Some(list), Some(field)) = (at.among, at.field) {
        // the class every variant holding the key takes (`ANY` when none does: the
        // literals are checked by `union_literal`)
        return match joined(list, field.name.as_bytes(), None) {
            Ok(Some(class)) => class,
            _ => v::ANY,
        };
    }
    let kind = compared(at);
    if let Some(field) = at.field {
        if !field.facts.variants.is_empty() {
            return v::ENUM;
        }
    }
    match kind {
        BsonKind::Double => v::DOUBLE,
        BsonKind::String => v::STRING,
        BsonKind::Object => match at.fields {
            // an internally tagged enum's keys are listed, its values are the enum's
            Some(_) if !tagged(at) => v::DOCUMENT,
            _ => v::ANY,
        },
        BsonKind::BinData => v::BINARY,
        BsonKind::ObjectId => v::OBJECT_ID,
        BsonKind::Bool => v::BOOL,
        BsonKind::Date => v::DATE,
        BsonKind::Int => v::INT,
        BsonKind::Long => v::LONG,
        BsonKind::Decimal => v::DECIMAL,
        BsonKind::Timestamp => v::TIMESTAMP,
        BsonKind::Regex => v::REGEX,
        BsonKind::Null | BsonKind::Array | BsonKind::Any | BsonKind::Mixed => v::ANY,
    }
}

/// Checks the typed projection `P` against the model `M`: each key `P` writes is one `M`
/// stores, of the same BSON type.
#[track_caller]
pub const fn typed_projection<M: MongoCollection, P: MongoSchema>() {
    let Some(list) = P::FIELDS else {
        let message = ConstMessage::new()
            .str("a typed projection is a struct with named fields deriving `MongoSchema`; `")
            .str(P::NAME)
            .str("` lists none");
        panic!("{}", message.as_str())
    };
    projection_fields::<M>(list, P::NAME);
}

#[track_caller]
const fn projection_fields<M: MongoCollection>(list: &'static [FieldFacts], name: &'static str) {
    let mut i = 0;
    while i < list.len() {
        let field = list[i];
        if field.flatten {
            if let Some(inner) = field.fields {
                projection_fields::<M>(inner, name);
            }
            i += 1;
            continue;
        }
        let found = match M::FIELDS {
            Some(root) => FieldFacts::written(root, field.name.as_bytes(), M::NAME),
            None => None,
        };
        match found {
            None if bytes_eq(field.name.as_bytes(), b"_id") => {}
            None => {
                let message = ConstMessage::new()
                    .str("the projection `")
                    .str(name)
                    .str("` reads the key `")
                    .str(field.name)
                    .str("`, which `")
                    .str(M::NAME)
                    .str("` does not store");
                let message = match M::FIELDS {
                    Some(root) => closest(message, root, field.name.as_bytes()),
                    None => message,
                };
                panic!("{}", message.str(": rename or remove the projection's field").as_str())
            }
            Some((_, stored)) => {
                if !same_kind(stored.facts.kind, field.facts.kind) {
                    let message = ConstMessage::new()
                        .str("the projection `")
                        .str(name)
                        .str("` reads `")
                        .str(field.name)
                        .str("` as ")
                        .str(kind_name(field.facts.kind))
                        .str(", and `")
                        .str(M::NAME)
                        .str("` stores ")
                        .str(kind_name(stored.facts.kind))
                        .str(" there: give the projection's field the model's type");
                    panic!("{}", message.as_str())
                }
                if stored.facts.nullable && !field.facts.nullable {
                    let message = ConstMessage::new()
                        .str("the projection `")
                        .str(name)
                        .str("` reads `")
                        .str(field.name)
                        .str("`, which `")
                        .str(M::NAME)
                        .str("` may store as null: make the projection's field an `Option`");
                    panic!("{}", message.as_str())
                }
            }
        }
        i += 1;
    }
}

const fn same_kind(a: BsonKind, b: BsonKind) -> bool {
    a as u8 == b as u8 || is_open(a) || is_open(b)
}

/// How many keys the typed projection `P` writes (flattened fields' keys counted).
pub const fn projection_len<P: MongoSchema>() -> usize {
    match P::FIELDS {
        Some(list) => count_keys(list),
        None => 0,
    }
}

const fn count_keys(list: &'static [FieldFacts]) -> usize {
    let mut n = 0;
    let mut i = 0;
    while i < list.len() {
        n += match (list[i].flatten, list[i].fields) {
            (true, Some(inner)) => count_keys(inner),
            (true, None) => 0,
            (false, _) => 1,
        };
        i += 1;
    }
    n
}

/// The keys of the typed projection `P`, each included: `N` is [`projection_len`].
pub const fn projection_keys<P: MongoSchema, const N: usize>() -> [(&'static str, bool); N] {
    let mut out = [("", true); N];
    if let Some(list) = P::FIELDS {
        fill(list, &mut out, 0);
    }
    out
}

const fn fill<const N: usize>(
    list: &'static [FieldFacts],
    out: &mut [(&'static str, bool); N],
    mut at: usize,
) -> usize {
    let mut i = 0;
    while i < list.len() {
        match (list[i].flatten, list[i].fields) {
            (true, Some(inner)) => at = fill(inner, out, at),
            (true, None) => {}
            (false, _) => {
                if at < N {
                    out[at] = (list[i].name, true);
                }
                at += 1;
            }
        }
        i += 1;
    }
    at
}

/// Checks the whole filter tree of `shape` (the macro calls [`pred`] per predicate at its
/// key instead; this is the same check for the shapes the macro nests in `$or`/`$and`).
#[track_caller]
pub const fn filter<M: MongoCollection>(filter: &[Filter]) {
    let mut i = 0;
    while i < filter.len() {
        match &filter[i] {
            Filter::Pred(p) => pred::<M>(p),
            Filter::And(branches) | Filter::Or(branches) | Filter::Nor(branches) => {
                let mut b = 0;
                while b < branches.len() {
                    self::filter::<M>(branches[b]);
                    b += 1;
                }
            }
            Filter::Text => text::<M>(),
            Filter::Opaque(_) => {}
        }
        i += 1;
    }
}

/// The check of a whole shape, for tests: the filter, the sort and the projection.
#[track_caller]
pub const fn shape<M: MongoCollection>(shape: &Shape) {
    filter::<M>(shape.filter);
    let mut i = 0;
    while i < shape.sort.len() {
        sort::<M>(shape.sort[i].0);
        i += 1;
    }
    let mut i = 0;
    while i < shape.projection.len() {
        projection::<M>(shape.projection[i].0);
        i += 1;
    }
}
