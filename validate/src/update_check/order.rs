//! mongod's total order of BSON values (`BSONElement::woCompare` without a collation), which
//! `$min`, `$max`, `$sort`, `$addToSet`, `$pullAll` and query comparisons use.

use std::cmp::Ordering;

use mongo_schema_core::bson::{Bson, Document};

use super::super::equal::{as_num, canonical};
use super::super::value::{Decoded, Value, View};
use mongo_schema_core::view::number::{compare as compare_numbers, BsonNumber};

type BView<'a> = View<'a, &'a Document, &'a [Bson]>;

fn view(value: &Bson) -> BView<'_> {
    Decoded::Bson(value).view()
}

/// mongod's canonical type rank: values of different ranks order by rank alone.
pub(crate) fn rank(value: &Bson) -> u8 {
    canonical(&view(value))
}

/// Orders two values as mongod does (embedded documents compare field by field, names
/// included, in stored order).
pub(crate) fn compare(a: &Bson, b: &Bson) -> Ordering {
    let by_rank = rank(a).cmp(&rank(b));
    if by_rank != Ordering::Equal {
        return by_rank;
    }
    let (va, vb) = (view(a), view(b));
    if let (Some(x), Some(y)) = (as_num(&va), as_num(&vb)) {
        return compare_nums(x, y);
    }
    match (va, vb) {
        (View::Document(x), View::Document(y)) => compare_docs(x, y),
        (View::Array(x), View::Array(y)) => compare_arrays(x, y),
        (View::String(x) | View::Symbol(x), View::String(y) | View::Symbol(y)) => x.as_bytes().cmp(y.as_bytes()),
        (View::Code(x), View::Code(y)) => x.as_bytes().cmp(y.as_bytes()),
        (View::Binary { subtype: s, bytes: x }, View::Binary { subtype: t, bytes: y }) => {
            x.len().cmp(&y.len()).then(s.cmp(&t)).then_with(|| x.cmp(y))
        }
        (View::ObjectId(x), View::ObjectId(y)) => x.cmp(&y),
        (View::Boolean(x), View::Boolean(y)) => x.cmp(&y),
        (View::DateTime(x), View::DateTime(y)) => x.cmp(&y),
        (View::Timestamp(x), View::Timestamp(y)) => x.cmp(&y),
        (View::Regex { pattern: p, options: o }, View::Regex { pattern: q, options: r }) => {
            p.as_bytes().cmp(q.as_bytes()).then_with(|| o.as_bytes().cmp(r.as_bytes()))
        }
        (View::CodeWithScope { code: c, scope: s }, View::CodeWithScope { code: d, scope: t }) => {
            c.as_bytes().cmp(d.as_bytes()).then_with(|| compare_docs(s, t))
        }
        _ => format!("{a:?}").cmp(&format!("{b:?}")),
    }
}

/// Numbers across types; NaN sorts before every other number and equals itself.
fn compare_nums(x: BsonNumber, y: BsonNumber) -> Ordering {
    match (x.is_nan(), y.is_nan()) {
        (true, true) => Ordering::Equal,
        (true, false) => Ordering::Less,
        (false, true) => Ordering::Greater,
        (false, false) => compare_numbers(x, y).unwrap_or(Ordering::Equal),
    }
}

/// Whether two values are equal in mongod's order (field names and their order count).
pub(crate) fn same(a: &Bson, b: &Bson) -> bool {
    compare(a, b) == Ordering::Equal
}

/// Field by field: type rank, then name, then value; the shorter document first.
pub(crate) fn compare_docs(a: &Document, b: &Document) -> Ordering {
    let mut ys = b.iter();
    for (name_a, value_a) in a {
        let Some((name_b, value_b)) = ys.next() else { return Ordering::Greater };
        let by_element = rank(value_a)
            .cmp(&rank(value_b))
            .then_with(|| name_a.as_bytes().cmp(name_b.as_bytes()))
            .then_with(|| compare(value_a, value_b));
        if by_element != Ordering::Equal {
            return by_element;
        }
    }
    if ys.next().is_some() {
        Ordering::Less
    } else {
        Ordering::Equal
    }
}

/// Arrays compare as documents whose names are the indexes: element by element.
fn compare_arrays(a: &[Bson], b: &[Bson]) -> Ordering {
    for (x, y) in a.iter().zip(b) {
        let by_element = rank(x).cmp(&rank(y)).then_with(|| compare(x, y));
        if by_element != Ordering::Equal {
            return by_element;
        }
    }
    a.len().cmp(&b.len())
}

/// Whether `a` and `b` are the same BSON type and value bit for bit (mongod's
/// `binaryEqualValues`): `1` and `1.0` are not, so replacing one by the other is a change.
pub(crate) fn identical(a: &Bson, b: &Bson) -> bool {
    a == b && same_types(a, b)
}

fn same_types(a: &Bson, b: &Bson) -> bool {
    if a.element_type() != b.element_type() {
        return false;
    }
    match (a, b) {
        (Bson::Document(x), Bson::Document(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|((m, v), (n, w))| m == n && same_types(v, w))
        }
        (Bson::Array(x), Bson::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(v, w)| same_types(v, w)),
        (Bson::Double(x), Bson::Double(y)) => x.to_bits() == y.to_bits(),
        _ => true,
    }
}

/// Whether two documents are the same bytes: the same keys in the same order, each value
/// identical (mongod's no-op detection).
pub(crate) fn bytes_equal(a: &Document, b: &Document) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|((m, v), (n, w))| m == n && identical(v, w))
}
