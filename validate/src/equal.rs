//! BSON equality as `enum` and `uniqueItems` use it in mongod: numbers compare across types,
//! strings and symbols compare by bytes, and embedded documents ignore field order
//! (mongod's `UnorderedFieldsBSONElementComparator`).

use super::value::{Arr, Doc, Res, Value, View};
use mongo_schema_core::view::number::{num_eq, BsonNumber, Dec};

/// Widens any numeric view to a `BsonNumber`.
pub(crate) fn as_num<D, A>(view: &View<'_, D, A>) -> Option<BsonNumber> {
    match *view {
        View::Int32(v) => Some(BsonNumber::Long(i64::from(v))),
        View::Int64(v) => Some(BsonNumber::Long(v)),
        View::Double(v) => Some(BsonNumber::Double(v)),
        View::Decimal(bytes) => Some(BsonNumber::Decimal(Dec::from_bytes(bytes))),
        _ => None,
    }
}

/// mongod's canonical type order: values of different canonical types are never equal, and
/// order by this rank alone.
pub(super) fn canonical<D, A>(view: &View<'_, D, A>) -> u8 {
    match view {
        View::MinKey => 0,
        View::Undefined => 1,
        View::Null => 2,
        View::Double(_) | View::Int32(_) | View::Int64(_) | View::Decimal(_) => 3,
        View::String(_) | View::Symbol(_) => 4,
        View::Document(_) => 5,
        View::Array(_) => 6,
        View::Binary { .. } => 7,
        View::ObjectId(_) => 8,
        View::Boolean(_) => 9,
        View::DateTime(_) => 10,
        View::Timestamp(_) => 11,
        View::Regex { .. } => 12,
        View::DbPointer => 13,
        View::Code(_) => 14,
        View::CodeWithScope { .. } => 15,
        View::MaxKey => 16,
    }
}

/// Whether two values are equal under mongod's unordered-fields comparison.
pub(crate) fn bson_eq<'a, 'b, A: Value<'a>, B: Value<'b>>(a: A, b: B) -> Res<bool> {
    let (va, vb) = (a.view(), b.view());
    if canonical(&va) != canonical(&vb) {
        return Ok(false);
    }
    if let (Some(x), Some(y)) = (as_num(&va), as_num(&vb)) {
        return Ok(num_eq(x, y));
    }
    match (va, vb) {
        (View::Document(x), View::Document(y)) => docs_eq(x, y),
        (View::Array(x), View::Array(y)) => arrays_eq(x, y),
        (View::CodeWithScope { code: c, scope: s }, View::CodeWithScope { code: d, scope: t }) => {
            Ok(c == d && docs_eq(s, t)?)
        }
        (View::DbPointer, View::DbPointer) => Ok(a.to_bson()? == b.to_bson()?),
        (x, y) => Ok(scalars_eq(&x, &y)),
    }
}

fn scalars_eq<D, A, E, B>(a: &View<'_, D, A>, b: &View<'_, E, B>) -> bool {
    match (a, b) {
        (View::String(x) | View::Symbol(x), View::String(y) | View::Symbol(y)) => x == y,
        (View::Code(x), View::Code(y)) => x == y,
        (View::Binary { subtype: s, bytes: x }, View::Binary { subtype: t, bytes: y }) => s == t && x == y,
        (View::ObjectId(x), View::ObjectId(y)) => x == y,
        (View::Boolean(x), View::Boolean(y)) => x == y,
        (View::DateTime(x), View::DateTime(y)) => x == y,
        (View::Timestamp(x), View::Timestamp(y)) => x == y,
        (View::Regex { pattern: p, options: o }, View::Regex { pattern: q, options: r }) => p == q && o == r,
        _ => true,
    }
}

/// Same number of fields, and every field of `a` has an equal namesake in `b`.
pub(crate) fn docs_eq<'a, 'b, A: Doc<'a>, B: Doc<'b>>(a: A, b: B) -> Res<bool> {
    let (mut count_a, mut count_b) = (0usize, 0usize);
    for field in b.fields() {
        field?;
        count_b += 1;
    }
    for field in a.fields() {
        let (name, value) = field?;
        count_a += 1;
        match b.get(name)? {
            Some(other) if bson_eq(value, other)? => {}
            _ => return Ok(false),
        }
    }
    Ok(count_a == count_b)
}

fn arrays_eq<'a, 'b, A: Arr<'a>, B: Arr<'b>>(a: A, b: B) -> Res<bool> {
    let (mut xs, mut ys) = (a.items(), b.items());
    loop {
        match (xs.next(), ys.next()) {
            (None, None) => return Ok(true),
            (Some(x), Some(y)) => {
                if !bson_eq(x?, y?)? {
                    return Ok(false);
                }
            }
            _ => return Ok(false),
        }
    }
}
