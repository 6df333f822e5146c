//! The tests behind the derive's compile-time rules: `const fn`s over a field's
//! [`SchemaFacts`], so type aliases, paths and generic parameters cannot hide what a
//! field holds. The derive calls [`assert_fields`] once per struct (spanned over its
//! checked fields), and `if test(facts) { fail("rule_id: ...") }` for a type's own rules.

use super::{BsonKind, FieldFacts, SchemaFacts, Shape};

const fn same(a: BsonKind, b: BsonKind) -> bool {
    a as u8 == b as u8
}

/// The value, or for containers its items, is of `kind`.
pub const fn holds(facts: SchemaFacts, kind: BsonKind) -> bool {
    same(facts.kind, kind) || (!matches!(facts.shape, Shape::Scalar | Shape::Document) && same(facts.item_kind, kind))
}

/// The value, or for containers its items, is a number.
pub const fn holds_number(facts: SchemaFacts) -> bool {
    holds(facts, BsonKind::Int) || holds(facts, BsonKind::Long) || holds(facts, BsonKind::Double)
}

/// A sequence that can grow: `Vec`, `VecDeque`, sets (not `[T; N]` or tuples).
pub const fn is_growable_array(facts: SchemaFacts) -> bool {
    matches!(facts.shape, Shape::Array | Shape::Set)
}

/// A map: a document with arbitrary keys.
pub const fn is_map(facts: SchemaFacts) -> bool {
    matches!(facts.shape, Shape::Map)
}

/// An `_id` that increases: an ObjectId, an integer, or a date (the document's time, which
/// a clustered collection expires documents by).
pub const fn is_increasing_id(facts: SchemaFacts) -> bool {
    facts.kind.increases()
}

/// serde writes the value through its default `Serialize` although `helper` is needed.
pub const fn needs_helper(facts: SchemaFacts, helper: &str) -> bool {
    match facts.needs_helper {
        Some(needed) => str_eq(needed, helper),
        None => false,
    }
}

use mongo_schema_contract::helpers::{self, str_eq};
use mongo_schema_contract::keyword;
pub use mongo_schema_contract::rules::check;
use mongo_schema_contract::rules::messages::*;
use mongo_schema_contract::rules::ConstMessage;

const fn has(checks: u32, bit: u32) -> bool {
    checks & bit != 0
}

/// The helper a field's type needs and lacks, as its message.
const fn silent(facts: SchemaFacts) -> Option<&'static str> {
    match facts.needs_helper {
        None => None,
        Some(helper) => Some(helpers::silent_message(helper)),
    }
}

/// Every field rule but `nesting_depth` in one evaluation: the message of the first
/// that fails, or `None`.
pub const fn field(facts: SchemaFacts, checks: u32) -> Option<&'static str> {
    if has(checks, check::MONEY) && holds(facts, BsonKind::Double) {
        return Some(MONEY_DOUBLE);
    }
    if has(checks, check::DATE) && holds(facts, BsonKind::String) {
        return Some(STRING_DATE);
    }
    if has(checks, check::SILENT) {
        if let Some(message) = silent(facts) {
            return Some(message);
        }
    }
    if has(checks, check::ID) && !is_increasing_id(facts) {
        return Some(RANDOM_ID);
    }
    if has(checks, check::STATUS) && holds_number(facts) {
        return Some(NUMERIC_STATUS);
    }
    if has(checks, check::ARRAY) && is_growable_array(facts) {
        return Some(UNBOUNDED_ARRAY);
    }
    if has(checks, check::MAP) && is_map(facts) {
        return Some(UNBOUNDED_MAP);
    }
    None
}

/// `nesting_depth` at a field: the levels the document nests through it, when they
/// exceed `max_depth` (the type's limit; 0: not checked). A field whose own type is
/// deeper than `ceiling` (the greatest limit any type of the crate can have) is not
/// reported: that type's own field check already was, where the limit is crossed, so
/// seven levels give one error, not one per enclosing type.
pub const fn too_deep(facts: SchemaFacts, checks: u32, max_depth: u32, ceiling: u32) -> Option<u32> {
    let levels = if has(checks, check::FLATTEN) { facts.depth } else { facts.depth + 1 };
    if max_depth > 0 && levels > max_depth && facts.depth <= ceiling {
        Some(levels)
    } else {
        None
    }
}

/// Fails the build at the caller (the field's span) when a field rule fails.
#[track_caller]
pub const fn assert_field(facts: SchemaFacts, checks: u32, max_depth: u32, ceiling: u32) {
    if let Some(message) = facts_failure(facts, checks, max_depth, ceiling) {
        fail(message.as_str());
    }
}

/// [`assert_field`] for the field at `index` of a one-field table the derive writes for a
/// variant's field (or of a struct's `FIELDS`, when rule errors stop the derive), and with
/// `check::KEYWORDS` its keywords against its facts.
#[track_caller]
pub const fn assert_field_at(fields: Option<&[FieldFacts]>, index: usize, checks: u32, max_depth: u32, ceiling: u32) {
    if let Some(fields) = fields {
        if let Some(message) = field_failure(&fields[index], checks, max_depth, ceiling) {
            fail(message.as_str());
        }
    }
}

/// Every field check of a non-generic struct in one constant: `each` lists, per field
/// the derive could not decide from its syntax, its index in `fields`, its checks and
/// its type's depth limit. One failure stops a constant's evaluation, so the failures of
/// all the fields are gathered first and reported in one error, each after its field's
/// name: a struct costs one constant, not one a field, and one build still reports them
/// all.
#[track_caller]
pub const fn assert_fields(fields: Option<&[FieldFacts]>, each: &[(usize, u32, u32)], ceiling: u32) {
    let Some(fields) = fields else { return };
    let mut i = 0;
    while i < each.len() {
        if failure_at(fields, each[i], ceiling).is_some() {
            fail(fields_report(fields, each, ceiling).as_str());
        }
        i += 1;
    }
}

/// Every failing field of `each`, a line each, after its name: the fields that break the
/// same type rule share one line (``fields `tax`, `fee`: money_double: ...``), at the
/// first one's place.
const fn fields_report(fields: &[FieldFacts], each: &[(usize, u32, u32)], ceiling: u32) -> ConstMessage {
    let mut report = ConstMessage::new();
    let mut lines = 0;
    let mut i = 0;
    while i < each.len() {
        let rule = rule_at(fields, each[i]);
        let failure = match same_rule_before(fields, each, i, rule) {
            true => None,
            false => failure_at(fields, each[i], ceiling),
        };
        if let Some(failure) = failure {
            let mut names = field_name(ConstMessage::new(), fields, each[i].0);
            let mut count = 1;
            if let Some(rule) = rule {
                let mut j = i + 1;
                while j < each.len() {
                    if matches!(rule_at(fields, each[j]), Some(other) if str_eq(other, rule)) {
                        names = field_name(names.str(", "), fields, each[j].0);
                        count += 1;
                    }
                    j += 1;
                }
            }
            if lines > 0 {
                report = report.str("\n");
            }
            report = report.str(if count == 1 { "field " } else { "fields " }).str(names.as_str());
            report = report.str(": ").str(failure.as_str());
            lines += 1;
        }
        i += 1;
    }
    report
}

/// The failure of one `(index, checks, max_depth)` entry, as its message.
const fn failure_at(
    fields: &[FieldFacts],
    (index, checks, max_depth): (usize, u32, u32),
    ceiling: u32,
) -> Option<ConstMessage> {
    field_failure(&fields[index], checks, max_depth, ceiling)
}

/// The type rule one entry breaks (the message [`field`] gives), which fields can share.
const fn rule_at(fields: &[FieldFacts], (index, checks, _): (usize, u32, u32)) -> Option<&'static str> {
    field(fields[index].facts, checks)
}

/// Whether an entry before `i` breaks `rule`, so `i` was named on that entry's line.
const fn same_rule_before(fields: &[FieldFacts], each: &[(usize, u32, u32)], i: usize, rule: Option<&str>) -> bool {
    let Some(rule) = rule else { return false };
    let mut j = 0;
    while j < i {
        if matches!(rule_at(fields, each[j]), Some(other) if str_eq(other, rule)) {
            return true;
        }
        j += 1;
    }
    false
}

/// `` `ident` `` of the field at `index`, or its position for a tuple struct's.
const fn field_name(message: ConstMessage, fields: &[FieldFacts], index: usize) -> ConstMessage {
    match fields[index].rust_name().is_empty() {
        true => message.number(index as u64),
        false => message.str("`").str(fields[index].rust_name()).str("`"),
    }
}

/// The first field rule that `facts` fail, as its message: `field`'s, then `nesting_depth`.
const fn facts_failure(facts: SchemaFacts, checks: u32, max_depth: u32, ceiling: u32) -> Option<ConstMessage> {
    if let Some(message) = field(facts, checks) {
        return Some(ConstMessage::new().str(message));
    }
    if let Some(levels) = too_deep(facts, checks, max_depth, ceiling) {
        return Some(mongo_schema_contract::rules::nesting_depth(levels, max_depth));
    }
    None
}

/// [`facts_failure`] of a field's facts, then with `check::KEYWORDS` its keywords'.
const fn field_failure(field: &FieldFacts, checks: u32, max_depth: u32, ceiling: u32) -> Option<ConstMessage> {
    if let Some(message) = facts_failure(field.facts, checks, max_depth, ceiling) {
        return Some(message);
    }
    if has(checks, check::KEYWORDS) {
        return keywords_failure(field);
    }
    None
}

/// The field's keywords constrain the kind its facts say it has, and its first
/// `items(...)` level the kind of its items (values): the derive asks this where the
/// type's syntax does not show the kind (an alias, a path, a generic parameter).
const fn keywords_failure(field: &FieldFacts) -> Option<ConstMessage> {
    let facts = field.facts;
    if let Some(message) = level_failure(field.keywords, facts.kind, false) {
        return Some(message);
    }
    if field.items.is_empty() {
        return None;
    }
    let item = match facts.shape {
        Shape::Array | Shape::Set | Shape::FixedArray | Shape::Map => facts.item_kind,
        // `bson_type = "array"`: items of no known kind
        Shape::Scalar if matches!(facts.kind, BsonKind::Array | BsonKind::Object) => BsonKind::Any,
        _ if matches!(facts.kind, BsonKind::Any | BsonKind::Mixed) => BsonKind::Any,
        _ => {
            let message = ConstMessage::new()
                .str("`items(...)` constrains the items of an array or the values of a map, and this field's schema is `")
                .str(alias(facts.kind))
                .str("`: set the keywords on the field itself");
            return Some(message);
        }
    };
    level_failure(field.items[0], item, true)
}

const fn level_failure(keywords: &[super::Keyword], kind: BsonKind, item: bool) -> Option<ConstMessage> {
    let mut i = 0;
    while i < keywords.len() {
        let (spec, _) = keywords[i].parts();
        if !spec.applies.fits(kind) {
            return Some(keyword::wrong_kind(spec, kind, item));
        }
        if let super::Keyword::Enum(values) = keywords[i] {
            let mut v = 0;
            while v < values.len() {
                if !keyword::holds(kind, &values[v]) {
                    return Some(keyword::unheld(&values[v], kind, item));
                }
                v += 1;
            }
        }
        i += 1;
    }
    None
}

const fn alias(kind: BsonKind) -> &'static str {
    match kind.alias() {
        Some(alias) => alias,
        None => "a value of no single type",
    }
}

/// Fails the build with `message`, at the caller's span.
#[track_caller]
pub const fn fail(message: &str) -> ! {
    panic!("{}", message)
}

/// Fails the build with `before`, the depth found, then `after`, at the caller's span.
#[track_caller]
pub const fn fail_levels(before: &str, levels: u32, after: &str) -> ! {
    let message = mongo_schema_contract::rules::ConstMessage::new().str(before).number(levels as u64).str(after);
    panic!("{}", message.as_str())
}

/// A bound that is known and above `limit`.
pub const fn exceeds(bound: Option<u64>, limit: u64) -> bool {
    match bound {
        Some(n) => n > limit,
        None => false,
    }
}

/// What a dotted path (`address.city`) of a collection root holds.
#[derive(Clone, Copy)]
pub enum Path {
    /// The facts at the end of the path, and how many arrays it passes through
    /// (the leaf included).
    Found(SchemaFacts, u32),
    /// A segment is not a field of its document.
    Missing,
    /// A segment lies in a value whose keys are not known (a map, an enum,
    /// `bson::Document`): MongoDB accepts any key there.
    Opaque,
}

/// Resolves `path` in `fields` (a root's `<T as MongoSchema>::FIELDS`), through
/// embedded documents, arrays of documents and flattened fields.
pub const fn path(fields: Option<&'static [FieldFacts]>, path: &str) -> Path {
    let (mut fields, mut rest, mut arrays) = (fields, path.as_bytes(), 0);
    loop {
        let (segment, next) = split_segment(rest);
        let Some(list) = fields else { return Path::Opaque };
        let Some(field) = find(list, segment) else {
            return if flattens_unknown_keys(list) { Path::Opaque } else { Path::Missing };
        };
        arrays += matches!(field.facts.shape, Shape::Array | Shape::Set | Shape::FixedArray) as u32;
        match (next, matches!(field.facts.shape, Shape::Map)) {
            (None, _) => return Path::Found(field.facts, arrays),
            (Some(next), false) => (fields, rest) = (field.fields, next),
            // a map's key is any name; its value's fields follow it
            (Some(key), true) => match split_segment(key) {
                (_, None) => return Path::Opaque,
                (_, Some(next)) => (fields, rest) = (field.fields, next),
            },
        }
    }
}

const fn split_segment(path: &[u8]) -> (&[u8], Option<&[u8]>) {
    let mut i = 0;
    while i < path.len() {
        if path[i] == b'.' {
            let (head, tail) = path.split_at(i);
            return (head, Some(tail.split_at(1).1));
        }
        i += 1;
    }
    (path, None)
}

const fn find(list: &'static [FieldFacts], name: &[u8]) -> Option<&'static FieldFacts> {
    match FieldFacts::written(list, name, "") {
        Some((_, field)) => Some(field),
        None => None,
    }
}

/// A flattened field whose keys the table does not list (an enum: its tag, content
/// key and every variant's fields; a map): serde writes keys there that `find` cannot
/// see, so a name missing from the table may be one of them.
const fn flattens_unknown_keys(list: &'static [FieldFacts]) -> bool {
    let mut i = 0;
    while i < list.len() {
        let field = &list[i];
        if field.flatten {
            match field.fields {
                _ if matches!(field.facts.shape, Shape::Map) => return true,
                None => return true,
                Some(inner) => {
                    if flattens_unknown_keys(inner) {
                        return true;
                    }
                }
            }
        }
        i += 1;
    }
    false
}

/// The path names no field of its document.
pub const fn is_missing(path: Path) -> bool {
    matches!(path, Path::Missing)
}

/// The path's facts; for an unknown (opaque) value, `Any`, which no kind test fails.
pub const fn facts_at(path: Path) -> SchemaFacts {
    match path {
        Path::Found(facts, _) => facts,
        _ => SchemaFacts::scalar(BsonKind::Any, None),
    }
}

/// How many arrays the path passes through.
pub const fn arrays_on(path: Path) -> u32 {
    match path {
        Path::Found(_, arrays) => arrays,
        _ => 0,
    }
}

/// The length, in bytes of `path`, of its deepest prefix that holds an array (the
/// leaf included), or `None` when it passes through none.
pub const fn array_prefix(fields: Option<&'static [FieldFacts]>, path: &str) -> Option<usize> {
    let (mut fields, mut rest, mut start, mut deepest) = (fields, path.as_bytes(), 0, None);
    loop {
        let (segment, next) = split_segment(rest);
        let Some(list) = fields else { return deepest };
        let Some(field) = find(list, segment) else { return deepest };
        if matches!(field.facts.shape, Shape::Array | Shape::Set | Shape::FixedArray) {
            deepest = Some(start + segment.len());
        }
        let Some(mut next) = next else { return deepest };
        start += segment.len() + 1;
        // a map's key is any name; its value's fields follow it
        if matches!(field.facts.shape, Shape::Map) {
            let (key, after) = split_segment(next);
            let Some(after) = after else { return deepest };
            start += key.len() + 1;
            next = after;
        }
        (fields, rest) = (field.fields, next);
    }
}

/// Parallel arrays: two key paths of a compound index pass through arrays on
/// different branches of the document (`tags` and `items.sku`). Keys through the
/// same array (`specs.name`, `specs.value`), or through arrays nested along one
/// path, are indexed by mongod.
pub const fn parallel_arrays(fields: Option<&'static [FieldFacts]>, paths: &[&str]) -> bool {
    let mut i = 0;
    while i < paths.len() {
        let mut j = i + 1;
        while j < paths.len() {
            if let (Some(a), Some(b)) = (array_prefix(fields, paths[i]), array_prefix(fields, paths[j])) {
                let (short, long, n) = if a <= b { (paths[i], paths[j], a) } else { (paths[j], paths[i], b) };
                if !same_prefix(short.as_bytes(), long.as_bytes(), n) {
                    return true;
                }
            }
            j += 1;
        }
        i += 1;
    }
    false
}

/// `long` starts with the first `n` bytes of `short`, ending on a segment boundary.
const fn same_prefix(short: &[u8], long: &[u8], n: usize) -> bool {
    if long.len() < n || (long.len() > n && long[n] != b'.') {
        return false;
    }
    let mut i = 0;
    while i < n {
        if short[i] != long[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// A value that is known not to be (or hold) a `kind`.
pub const fn surely_not(facts: SchemaFacts, kind: BsonKind) -> bool {
    !holds(facts, kind) && !matches!(facts.kind, BsonKind::Any | BsonKind::Mixed)
}

/// A value whose type is not known here (`Any`: a path into a map or `bson::Document`).
pub const fn is_unknown(facts: SchemaFacts) -> bool {
    matches!(facts.kind, BsonKind::Any)
}

/// A value of `kind` in every document: not an array of them, never `null`.
pub const fn always(facts: SchemaFacts, kind: BsonKind) -> bool {
    same(facts.kind, kind) && !facts.nullable
}

/// Values that only grow: dates, timestamps, and (`object_id`: the document's own `_id`)
/// ObjectIds, whose first bytes are their creation time.
pub const fn is_monotonic(facts: SchemaFacts, object_id: bool) -> bool {
    matches!(facts.kind, BsonKind::Date | BsonKind::Timestamp)
        || (object_id && matches!(facts.kind, BsonKind::ObjectId))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::MongoSchema;

    fn field<T: MongoSchema>(ident: &'static str) -> FieldFacts {
        FieldFacts { name: ident, ident, ..T::FIELD }
    }

    fn panic_of(check: impl FnOnce() + std::panic::UnwindSafe) -> Option<String> {
        let payload = std::panic::catch_unwind(check).err()?;
        Some(payload.downcast_ref::<String>().cloned().unwrap_or_default())
    }

    /// One call reports every failing field of the struct, each named, in the order given,
    /// whole (the buffer holds several messages), and says nothing of the fields that pass.
    #[test]
    fn assert_fields_reports_every_failing_field_in_one_message() {
        let fields: &'static [FieldFacts] = Vec::leak(vec![
            field::<f64>("unit_price"),
            field::<crate::bson::DateTime>("created_at"),
            field::<Vec<i32>>("scores"),
            field::<i64>("status"),
        ]);
        let each = [(0, check::MONEY, 5), (1, check::DATE, 5), (2, check::ARRAY, 5), (3, check::STATUS, 5)];
        let message = panic_of(|| assert_fields(Some(fields), &each, 5)).expect("three fields fail");
        let lines: Vec<&str> = message.lines().collect();
        assert_eq!(
            lines,
            [
                format!("field `unit_price`: {MONEY_DOUBLE}"),
                format!("field `scores`: {UNBOUNDED_ARRAY}"),
                format!("field `status`: {NUMERIC_STATUS}"),
            ],
        );
        assert!(panic_of(|| assert_fields(Some(fields), &[(1, check::DATE, 5)], 5)).is_none());
        assert!(panic_of(|| assert_fields(None, &each, 5)).is_none(), "no table: nothing to check");
    }

    #[test]
    fn assert_fields_names_the_fields_of_one_rule_on_one_line() {
        let fields: &'static [FieldFacts] = Vec::leak(vec![
            field::<f64>("tax"),
            field::<Vec<i32>>("scores"),
            field::<f32>("fee"),
            field::<String>("note"),
            field::<Option<f64>>("balance"),
            field::<Vec<String>>("tags"),
        ]);
        let each = [
            (0, check::MONEY, 5),
            (1, check::ARRAY, 5),
            (2, check::MONEY, 5),
            (3, check::MONEY, 5),
            (4, check::MONEY, 5),
            (5, check::ARRAY, 5),
        ];
        let message = panic_of(|| assert_fields(Some(fields), &each, 5)).expect("five fields fail");
        let lines: Vec<&str> = message.lines().collect();
        assert_eq!(
            lines,
            [
                format!("fields `tax`, `fee`, `balance`: {MONEY_DOUBLE}"),
                format!("fields `scores`, `tags`: {UNBOUNDED_ARRAY}")
            ],
        );
    }
}
