//! `uniqueItems` in expected linear time, with the verdicts of the pairwise definition.
//!
//! The definition is pairwise: the duplicate is the first element `x[i]` for which some
//! earlier `x[j]` has `bson_eq(x[i], x[j])`, the pairs tried `j` ascending, and the first pair
//! that errors (malformed raw bytes) ends the search with that error. This module finds the
//! same element, or the same error, without trying every pair: it tries only the pairs a
//! hash cannot rule out, in the same order, and `bson_eq` (the one definition of equality)
//! still decides every pair it tries. So the search can only go wrong if it skips a pair that
//! `bson_eq` would have called equal (or an error), and it skips a pair only when:
//!
//! * the two elements are of different canonical types (`bson_eq` answers `false` from the
//!   type alone, without reading either value); or
//! * both were read to the end without error (so `bson_eq` cannot meet an error in them)
//!   and their hashes differ, every hash being invariant under `bson_eq`:
//!   * the **fine** hash, of *regular* elements (no document anywhere inside holds a field
//!     name twice): numbers by value across types (see [`num_key`]), strings and symbols by
//!     bytes, documents as the multiset of their (name, value) pairs, arrays in order;
//!   * the **coarse** hash, of every element read without error, regular or not: the same,
//!     except that a document contributes only its field count. A document with a repeated
//!     name is compared by `bson_eq` as "every field of one has an equal first namesake in the
//!     other, and the counts agree", which is not symmetric and can equal a document with
//!     other names (`{x: 1, x: 1}` equals `{x: 1, y: 1}` one way round), so only the count
//!     is certain to agree.
//!
//! An element that could not be read to the end (raw bytes only) is compared with `bson_eq`
//! against every element of its canonical type, in order, as the pairwise search would. The
//! cost is expected O(n) for regular elements (hash collisions are tried, not trusted, and the
//! hash keys are random per call); elements with repeated names or unreadable bytes cost a
//! comparison with each element of the same coarse hash or type.

use std::collections::hash_map::RandomState;
use std::collections::HashMap;
use std::hash::{BuildHasher, BuildHasherDefault, Hash, Hasher};

use super::equal::{bson_eq, canonical};
use super::value::{Arr, Doc, Res, Value, View};
use mongo_schema_core::view::number::{dec_exact_f64, BsonNumber, Dec};

/// The index of the first element equal to an earlier one, as the pairwise search finds it.
pub(crate) fn first_duplicate<'a, A: Arr<'a>>(a: A) -> Res<Option<usize>> {
    let mut seen = Seen::new();
    for (i, x) in a.items().enumerate() {
        let x = x?;
        let key = seen.digest(x);
        if seen.earlier_equal(x, &key)? {
            return Ok(Some(i));
        }
        seen.push(x, key);
    }
    Ok(None)
}

/// How an element can be matched.
#[derive(Clone, Copy)]
enum Key {
    /// Read without error, no repeated field name inside: the fine and the coarse hash.
    Regular { fine: u64, coarse: u64 },
    /// Read without error, a repeated field name inside: the coarse hash.
    Repeated { coarse: u64 },
    /// Reading it met an error: only its canonical type is known.
    Unread,
}

const NONE: u32 = u32::MAX;

/// A map from a hash to the latest element with it; `prev` chains the earlier ones.
#[derive(Default)]
struct Chains {
    heads: HashMap<u64, u32, BuildHasherDefault<Spread>>,
    prev: Vec<u32>,
}

impl Chains {
    fn insert(&mut self, hash: u64, index: u32) {
        if self.prev.len() <= index as usize {
            self.prev.resize(index as usize + 1, NONE);
        }
        self.prev[index as usize] = self.heads.insert(hash, index).unwrap_or(NONE);
    }

    fn collect(&self, hash: u64, out: &mut Vec<u32>) {
        let mut at = self.heads.get(&hash).copied().unwrap_or(NONE);
        while at != NONE {
            out.push(at);
            at = self.prev[at as usize];
        }
    }
}

/// The elements before the current one, indexed by their keys.
struct Seen<'a, V> {
    hasher: RandomState,
    items: Vec<V>,
    types: Vec<u8>,
    keys: Vec<Key>,
    /// Regular elements by fine hash.
    fine: Chains,
    /// Elements with a repeated name, by coarse hash.
    repeated: Chains,
    /// Every element read without error, by coarse hash; filled once the first element with a
    /// repeated name arrives (only such an element looks a regular one up by coarse hash).
    coarse: Option<Chains>,
    /// Whether an unreadable element of each canonical type came before.
    unread: [bool; 17],
    candidates: Vec<u32>,
    names: Vec<&'a str>,
}

impl<'a, V: Value<'a>> Seen<'a, V> {
    fn new() -> Self {
        Seen {
            hasher: RandomState::new(),
            items: Vec::new(),
            types: Vec::new(),
            keys: Vec::new(),
            fine: Chains::default(),
            repeated: Chains::default(),
            coarse: None,
            unread: [false; 17],
            candidates: Vec::new(),
            names: Vec::new(),
        }
    }

    fn digest(&mut self, x: V) -> Key {
        self.names.clear();
        match digest(x, &self.hasher, &mut self.names) {
            Ok(d) if d.regular => Key::Regular { fine: d.fine, coarse: d.coarse },
            Ok(d) => Key::Repeated { coarse: d.coarse },
            Err(_) => Key::Unread,
        }
    }

    /// Whether `x` equals an earlier element: `bson_eq(x, earlier)` over the earlier elements
    /// its key cannot rule out, in index order (the first error is the pairwise search's).
    fn earlier_equal(&mut self, x: V, key: &Key) -> Res<bool> {
        let ty = canonical(&x.view());
        let mut candidates = std::mem::take(&mut self.candidates);
        candidates.clear();
        match *key {
            Key::Regular { fine, coarse } => {
                self.fine.collect(fine, &mut candidates);
                self.repeated.collect(coarse, &mut candidates);
            }
            Key::Repeated { coarse } => self.all_readable().collect(coarse, &mut candidates),
            Key::Unread => {}
        }
        if let Key::Unread = key {
            candidates.extend((0..self.items.len() as u32).filter(|&j| self.types[j as usize] == ty));
        } else if self.unread[ty as usize] {
            candidates.extend(
                (0..self.items.len() as u32)
                    .filter(|&j| self.types[j as usize] == ty && matches!(self.keys[j as usize], Key::Unread)),
            );
        }
        candidates.sort_unstable();
        let mut found = Ok(false);
        for &j in &candidates {
            match bson_eq(x, self.items[j as usize]) {
                Ok(false) => {}
                other => {
                    found = other;
                    break;
                }
            }
        }
        self.candidates = candidates;
        found
    }

    /// Every earlier element read without error, by coarse hash (built on first use).
    fn all_readable(&mut self) -> &mut Chains {
        let keys = &self.keys;
        self.coarse.get_or_insert_with(|| {
            let mut all = Chains::default();
            for (j, k) in keys.iter().enumerate() {
                if let Key::Regular { coarse, .. } | Key::Repeated { coarse } = *k {
                    all.insert(coarse, j as u32);
                }
            }
            all
        })
    }

    fn push(&mut self, x: V, key: Key) {
        let index = self.items.len() as u32;
        let ty = canonical(&x.view());
        self.items.push(x);
        self.types.push(ty);
        self.keys.push(key);
        match key {
            Key::Regular { fine, coarse } => {
                self.fine.insert(fine, index);
                if let Some(all) = &mut self.coarse {
                    all.insert(coarse, index);
                }
            }
            Key::Repeated { coarse } => {
                self.repeated.insert(coarse, index);
                self.all_readable().insert(coarse, index);
            }
            Key::Unread => self.unread[ty as usize] = true,
        }
    }
}

/// The hashes of one value read to the end.
struct Digest {
    fine: u64,
    coarse: u64,
    /// No document inside (or the value itself) holds a field name twice.
    regular: bool,
}

fn digest<'a, V: Value<'a>>(v: V, keys: &RandomState, names: &mut Vec<&'a str>) -> Res<Digest> {
    let view = v.view();
    let ty = canonical(&view);
    let mut h = keys.build_hasher();
    h.write_u8(ty);
    let scalar = |h: &mut std::collections::hash_map::DefaultHasher| {
        let hash = h.finish();
        Ok(Digest { fine: hash, coarse: hash, regular: true })
    };
    match view {
        View::MinKey | View::Undefined | View::Null | View::MaxKey => scalar(&mut h),
        View::Double(_) | View::Int32(_) | View::Int64(_) | View::Decimal(_) => {
            if let Some(n) = super::equal::as_num(&view) {
                num_key(n).hash(&mut h);
            }
            scalar(&mut h)
        }
        View::String(s) | View::Symbol(s) | View::Code(s) => {
            bytes(&mut h, s.as_bytes());
            scalar(&mut h)
        }
        View::Binary { subtype, bytes: b } => {
            h.write_u8(subtype);
            bytes(&mut h, b);
            scalar(&mut h)
        }
        View::ObjectId(id) => {
            h.write(&id);
            scalar(&mut h)
        }
        View::Boolean(b) => {
            h.write_u8(u8::from(b));
            scalar(&mut h)
        }
        View::DateTime(t) => {
            h.write_i64(t);
            scalar(&mut h)
        }
        View::Timestamp(t) => {
            h.write_u64(t);
            scalar(&mut h)
        }
        View::Regex { pattern, options } => {
            bytes(&mut h, pattern.as_bytes());
            bytes(&mut h, options.as_bytes());
            scalar(&mut h)
        }
        // `bson_eq` compares the decoded pointers; equal ones print the same.
        View::DbPointer => {
            bytes(&mut h, format!("{:?}", v.to_bson()?).as_bytes());
            scalar(&mut h)
        }
        View::Document(d) => document(d, h, keys, names),
        View::CodeWithScope { code, scope } => {
            bytes(&mut h, code.as_bytes());
            document(scope, h, keys, names)
        }
        View::Array(a) => {
            let mut c = h.clone();
            let (mut count, mut regular) = (0u64, true);
            for item in a.items() {
                let d = digest(item?, keys, names)?;
                h.write_u64(d.fine);
                c.write_u64(d.coarse);
                regular &= d.regular;
                count += 1;
            }
            h.write_u64(count);
            c.write_u64(count);
            Ok(Digest { fine: h.finish(), coarse: c.finish(), regular })
        }
    }
}

/// A document (or a scope) after what `h` already holds: fine, the multiset of its fields
/// (field order is not part of `bson_eq`); coarse, its field count alone.
fn document<'a, D: Doc<'a>>(
    d: D,
    mut h: std::collections::hash_map::DefaultHasher,
    keys: &RandomState,
    names: &mut Vec<&'a str>,
) -> Res<Digest> {
    let start = names.len();
    let (mut count, mut sum, mut regular) = (0u64, 0u64, true);
    for field in d.fields() {
        let (name, value) = field?;
        let inner = digest(value, keys, names)?;
        regular &= inner.regular;
        let mut f = keys.build_hasher();
        bytes(&mut f, name.as_bytes());
        f.write_u64(inner.fine);
        sum = sum.wrapping_add(f.finish());
        names.push(name);
        count += 1;
    }
    regular &= distinct(&mut names[start..]);
    names.truncate(start);
    let mut c = h.clone();
    c.write_u64(count);
    h.write_u64(count);
    h.write_u64(sum);
    Ok(Digest { fine: h.finish(), coarse: c.finish(), regular })
}

/// Whether no name occurs twice (reorders `names`).
fn distinct(names: &mut [&str]) -> bool {
    if names.len() <= 8 {
        return names.iter().enumerate().all(|(i, a)| names[..i].iter().all(|b| a != b));
    }
    names.sort_unstable();
    names.windows(2).all(|w| w[0] != w[1])
}

fn bytes(h: &mut impl Hasher, b: &[u8]) {
    h.write_usize(b.len());
    h.write(b);
}

/// A number's hash key: equal under `num_eq` (NaN equals NaN; otherwise the exact value
/// across int, long, double and decimal) implies equal keys.
///
/// A double is its value (`-0.0` as `0.0`); a long or a decimal its double when one holds
/// it exactly. Every other long or decimal equals no double and is its exact decimal value. This follows `num_eq` as it
/// is; should `num_eq` change, this must follow (the tests compare the search with the
/// pairwise one on near-equal numbers of every type).
#[derive(Hash, PartialEq, Eq, Debug)]
enum NumKey {
    NaN,
    Double(u64),
    Exact { neg: bool, coef: u128, exp: i32 },
}

fn num_key(n: BsonNumber) -> NumKey {
    match n {
        BsonNumber::Double(x) => double_key(x),
        BsonNumber::Long(v) => {
            let x = v as f64;
            if x as i128 == i128::from(v) {
                double_key(x)
            } else {
                exact(Dec::from_i64(v))
            }
        }
        BsonNumber::Decimal(Dec::NaN) => NumKey::NaN,
        BsonNumber::Decimal(Dec::Inf { neg }) => double_key(if neg { f64::NEG_INFINITY } else { f64::INFINITY }),
        BsonNumber::Decimal(d) => match dec_exact_f64(d) {
            Some(x) => double_key(x),
            None => exact(d),
        },
    }
}

fn double_key(x: f64) -> NumKey {
    if x.is_nan() {
        NumKey::NaN
    } else if x == 0.0 {
        NumKey::Double(0)
    } else {
        NumKey::Double(x.to_bits())
    }
}

/// A finite decimal's value, one form per value (zeros unsigned, no trailing zero digits).
fn exact(d: Dec) -> NumKey {
    match d {
        Dec::Finite { coef: 0, .. } => NumKey::Exact { neg: false, coef: 0, exp: 0 },
        Dec::Finite { neg, mut coef, mut exp } => {
            while coef % 10 == 0 {
                coef /= 10;
                exp += 1;
            }
            NumKey::Exact { neg, coef, exp }
        }
        Dec::NaN => NumKey::NaN,
        Dec::Inf { neg } => double_key(if neg { f64::NEG_INFINITY } else { f64::INFINITY }),
    }
}

/// The hash map's own hasher: its keys are already random 64-bit hashes.
#[derive(Default)]
struct Spread(u64);

impl Hasher for Spread {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(b)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::first_duplicate;
    use crate::equal::bson_eq;
    use crate::value::{Arr, Doc, Res, Value, View};
    use crate::walk::Bytes;
    use mongo_schema_core::bson::{doc, spec::BinarySubtype, Binary, Bson, Decimal128, Document, RawDocumentBuf};

    /// The definition: the first element equal to an earlier one, every pair tried in order.
    fn pairwise<'a, A: Arr<'a>>(a: A) -> Res<Option<usize>> {
        for (i, x) in a.items().enumerate() {
            let x = x?;
            for y in a.items().take(i) {
                if bson_eq(x, y?)? {
                    return Ok(Some(i));
                }
            }
        }
        Ok(None)
    }

    /// A value as raw bytes can hold it: documents may repeat a name, strings may be invalid.
    #[derive(Clone, Debug)]
    enum T {
        B(Bson),
        Doc(Vec<(&'static str, T)>),
        Arr(Vec<T>),
        /// A string whose bytes are not UTF-8 (`Malformed` when read).
        BadString,
        /// A dbPointer (bson cannot build one), its ObjectId bytes all `n`.
        Ptr(u8),
    }

    fn element(out: &mut Vec<u8>, key: &str, t: &T) {
        let tag = |out: &mut Vec<u8>, tag: u8| {
            out.push(tag);
            out.extend_from_slice(key.as_bytes());
            out.push(0);
        };
        match t {
            T::B(b) => {
                let raw = RawDocumentBuf::try_from(&doc! { "": b.clone() }).unwrap().into_bytes();
                tag(out, raw[4]);
                out.extend_from_slice(&raw[6..raw.len() - 1]);
            }
            T::Doc(fields) => {
                tag(out, 0x03);
                out.extend(frame(fields.iter().map(|(k, v)| (k.to_string(), v))));
            }
            T::Arr(items) => {
                tag(out, 0x04);
                out.extend(frame(items.iter().enumerate().map(|(i, v)| (i.to_string(), v))));
            }
            T::BadString => {
                tag(out, 0x02);
                out.extend(3i32.to_le_bytes());
                out.extend([0xff, 0xfe, 0]);
            }
            T::Ptr(n) => {
                tag(out, 0x0C);
                out.extend(5i32.to_le_bytes());
                out.extend(b"db.c\0");
                out.extend([*n; 12]);
            }
        }
    }

    fn frame<'t>(elements: impl Iterator<Item = (String, &'t T)>) -> Vec<u8> {
        let mut body = Vec::new();
        for (key, value) in elements {
            element(&mut body, &key, value);
        }
        let mut out = ((body.len() + 5) as i32).to_le_bytes().to_vec();
        out.extend(body);
        out.push(0);
        out
    }

    /// The decoded form, when bson can hold the value.
    fn decoded(t: &T) -> Option<Bson> {
        match t {
            T::B(b) => Some(b.clone()),
            T::Arr(items) => items.iter().map(decoded).collect::<Option<Vec<_>>>().map(Bson::Array),
            T::Doc(fields) => {
                let mut d = Document::new();
                for (k, v) in fields {
                    if d.insert(*k, decoded(v)?).is_some() {
                        return None;
                    }
                }
                Some(Bson::Document(d))
            }
            T::BadString | T::Ptr(_) => None,
        }
    }

    /// Every document's fields in reverse order (the same value under `bson_eq` when no name
    /// repeats).
    fn reversed(t: &T) -> T {
        match t {
            T::Doc(fields) => T::Doc(fields.iter().rev().map(|(k, v)| (*k, reversed(v))).collect()),
            T::Arr(items) => T::Arr(items.iter().map(reversed).collect()),
            other => other.clone(),
        }
    }

    fn dec(s: &str) -> Bson {
        Bson::Decimal128(s.parse::<Decimal128>().unwrap())
    }

    /// Numbers equal or nearly equal across types, and scalars of every canonical type.
    fn leaves() -> Vec<T> {
        let two53 = 1i64 << 53;
        let mut out: Vec<T> = vec![
            Bson::Int32(1),
            Bson::Int64(1),
            Bson::Double(1.0),
            dec("1"),
            dec("1.0"),
            dec("1E0"),
            dec("0.10E1"),
            Bson::Int32(0),
            Bson::Double(0.0),
            Bson::Double(-0.0),
            dec("0"),
            dec("-0"),
            dec("0E-7"),
            Bson::Double(f64::NAN),
            Bson::Double(-f64::NAN),
            dec("NaN"),
            Bson::Double(f64::INFINITY),
            dec("Infinity"),
            dec("-Infinity"),
            Bson::Double(f64::NEG_INFINITY),
            Bson::Double(0.5),
            dec("0.50"),
            Bson::Double(0.1),
            dec("0.1"),
            dec("0.1000000000000000055511151231257827"),
            dec("0.10000000000000000555111512312578270"),
            Bson::Int64(two53),
            Bson::Int64(two53 + 1),
            Bson::Double(two53 as f64),
            dec("9007199254740993"),
            dec("9007199254740992.0"),
            Bson::Int64(i64::MAX),
            Bson::Double(9_223_372_036_854_775_808.0),
            dec("9223372036854775807"),
            dec("9223372036854775808"),
            Bson::Double(f64::MIN_POSITIVE / 4.0),
            dec("5.562684646268003461437589970711986E-309"),
            Bson::String("a".into()),
            Bson::Symbol("a".into()),
            Bson::JavaScriptCode("a".into()),
            Bson::String("b".into()),
            Bson::String(String::new()),
            Bson::Null,
            Bson::Undefined,
            Bson::MinKey,
            Bson::MaxKey,
            Bson::Boolean(true),
            Bson::Boolean(false),
            Bson::Binary(Binary { subtype: BinarySubtype::Generic, bytes: vec![1] }),
            Bson::Binary(Binary { subtype: BinarySubtype::UserDefined(0x80), bytes: vec![1] }),
        ]
        .into_iter()
        .map(T::B)
        .collect();
        out.extend([T::BadString, T::Ptr(1), T::Ptr(1), T::Ptr(2)]);
        out
    }

    fn tree() -> impl Strategy<Value = T> {
        prop::sample::select(leaves()).prop_recursive(3, 24, 4, |inner| {
            prop_oneof![
                prop::collection::vec((prop::sample::select(vec!["x", "y", "z"]), inner.clone()), 0..4)
                    .prop_map(T::Doc),
                prop::collection::vec(inner, 0..4).prop_map(T::Arr),
            ]
        })
    }

    /// Arrays drawn from a few values, some with their documents' fields reversed, so equal
    /// and nearly equal elements meet often.
    fn array() -> impl Strategy<Value = Vec<T>> {
        (prop::collection::vec(tree(), 1..6), prop::collection::vec((0..6usize, any::<bool>()), 0..12)).prop_map(
            |(pool, picks)| {
                picks
                    .into_iter()
                    .map(|(i, flip)| {
                        let t = &pool[i % pool.len()];
                        if flip {
                            reversed(t)
                        } else {
                            t.clone()
                        }
                    })
                    .collect()
            },
        )
    }

    /// The fast search and the pairwise definition over the raw bytes and, when bson can hold
    /// them, the decoded values; returns the verdict on the raw bytes.
    fn agree(items: &[T]) -> Res<Option<usize>> {
        let bytes = frame(std::iter::once(("a".to_string(), &T::Arr(items.to_vec()))));
        let root = Bytes::new(&bytes).unwrap();
        let View::Array(raw) = root.get("a").unwrap().unwrap().view() else { panic!("not an array") };
        let fast = first_duplicate(raw);
        assert_eq!(fast, pairwise(raw), "raw {items:?}");
        if let Some(values) = items.iter().map(decoded).collect::<Option<Vec<Bson>>>() {
            assert_eq!(first_duplicate(values.as_slice()), pairwise(values.as_slice()), "decoded {values:?}");
            assert_eq!(first_duplicate(values.as_slice()), fast, "decoded and raw {values:?}");
        }
        fast
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(3000))]

        #[test]
        fn fast_search_is_the_pairwise_search(items in array()) {
            let _ = agree(&items);
        }

        #[test]
        fn every_pair_of_trees_agrees(a in tree(), b in tree(), flip in any::<bool>()) {
            let b = if flip { reversed(&b) } else { b };
            let _ = agree(&[a.clone(), b.clone()]);
            let _ = agree(&[b, a]);
        }
    }

    fn leaf(b: Bson) -> T {
        T::B(b)
    }

    #[test]
    fn known_verdicts() {
        let one = || vec![leaf(Bson::Int32(1)), leaf(Bson::Double(1.0)), leaf(Bson::Int64(1)), leaf(dec("1.0"))];
        assert_eq!(agree(&one()), Ok(Some(1)));
        assert_eq!(agree(&[leaf(Bson::Double(-0.0)), leaf(dec("0E+3"))]), Ok(Some(1)));
        assert_eq!(agree(&[leaf(Bson::Double(f64::NAN)), leaf(dec("NaN"))]), Ok(Some(1)));
        assert_eq!(agree(&[leaf(Bson::Int64((1 << 53) + 1)), leaf(Bson::Double((1u64 << 53) as f64))]), Ok(None));
        // Longs a double cannot hold, against decimals.
        assert_eq!(agree(&[leaf(Bson::Int64((1 << 53) + 1)), leaf(dec("9007199254740993"))]), Ok(Some(1)));
        assert_eq!(agree(&[leaf(dec("9223372036854775807.0")), leaf(Bson::Int64(i64::MAX))]), Ok(Some(1)));
        // A decimal equals a double only at the double's exact value, as in mongod 6.0.5: not
        // at its shortest form, nor at its 34-digit rounding.
        assert_eq!(agree(&[leaf(Bson::Double(0.1)), leaf(dec("0.1"))]), Ok(None));
        assert_eq!(agree(&[leaf(Bson::Double(0.1)), leaf(dec("0.1000000000000000055511151231257827"))]), Ok(None));
        assert_eq!(agree(&[leaf(Bson::Double(0.5)), leaf(dec("0.50"))]), Ok(Some(1)));
        let two70 = leaf(Bson::Double(2f64.powi(70)));
        assert_eq!(agree(&[two70, leaf(dec("1180591620717411303424"))]), Ok(Some(1)));
        assert_eq!(agree(&[leaf(Bson::String("a".into())), leaf(Bson::Symbol("a".into()))]), Ok(Some(1)));
        let xy = T::Doc(vec![("x", leaf(Bson::Int32(1))), ("y", leaf(Bson::Int32(2)))]);
        let yx = reversed(&xy);
        assert_eq!(agree(&[xy.clone(), yx.clone()]), Ok(Some(1)));
        assert_eq!(
            agree(&[
                T::Arr(vec![leaf(Bson::Int32(1)), leaf(Bson::Int32(2))]),
                T::Arr(vec![leaf(Bson::Int32(2)), leaf(Bson::Int32(1))])
            ]),
            Ok(None)
        );
        // The first element equal to an earlier one, not the earliest pair's first element.
        let s = |v: &str| leaf(Bson::String(v.into()));
        assert_eq!(agree(&[s("a"), s("b"), s("c"), s("b"), s("a")]), Ok(Some(3)));
        // A repeated name: `{x: 1, x: 1}` equals `{x: 1, y: 1}` (every field of the first has
        // an equal first namesake in the second), not the other way round.
        let xx = T::Doc(vec![("x", leaf(Bson::Int32(1))), ("x", leaf(Bson::Int32(1)))]);
        let x1y1 = T::Doc(vec![("x", leaf(Bson::Int32(1))), ("y", leaf(Bson::Int32(1)))]);
        assert_eq!(agree(&[x1y1.clone(), xx.clone()]), Ok(Some(1)));
        assert_eq!(agree(&[xx.clone(), x1y1.clone()]), Ok(None));
        assert_eq!(agree(&[s("z"), x1y1.clone(), s("q"), T::Arr(vec![xx.clone()]), T::Arr(vec![x1y1])]), Ok(None));
        // Unreadable bytes: met (and reported) only where the pairwise search meets them.
        assert!(agree(&[T::Doc(vec![("x", T::BadString)]), T::Doc(vec![("x", s("a"))])]).is_err());
        assert_eq!(agree(&[T::Doc(vec![("x", T::BadString)]), s("a"), s("a")]), Ok(Some(2)));
        assert_eq!(agree(&[T::Ptr(3), T::Ptr(3)]), Ok(Some(1)));
        assert_eq!(agree(&[T::Ptr(3), T::Ptr(4)]), Ok(None));
    }

    /// Many regular documents after one with a repeated name, and many with repeated names.
    #[test]
    fn repeated_names_among_many() {
        let d = |i: i32| T::Doc(vec![("x", leaf(Bson::Int32(i))), ("y", leaf(Bson::Int32(i)))]);
        let dup = |i: i32| T::Doc(vec![("x", leaf(Bson::Int32(i))), ("x", leaf(Bson::Int32(i)))]);
        let mut items: Vec<T> = (0..200).map(d).collect();
        items.insert(150, dup(120));
        assert_eq!(agree(&items), Ok(Some(150)));
        items[150] = dup(160);
        assert_eq!(agree(&items), Ok(None));
        let mut items: Vec<T> = (0..200).map(dup).collect();
        items.push(d(7));
        assert_eq!(agree(&items), Ok(None));
        items.push(dup(7));
        assert_eq!(agree(&items), Ok(Some(201)));
    }
}

#[cfg(test)]
mod timing {
    use crate::Validator;
    use mongo_schema_core::bson::{doc, Bson, Document, RawDocumentBuf};
    use std::time::Instant;

    fn inputs() -> Vec<(&'static str, Document)> {
        let strings: Vec<Bson> = (0..100_000).map(|i| Bson::String(format!("s{i:06}"))).collect();
        let ints: Vec<Bson> = (0..50_000).map(Bson::Int32).collect();
        let mixed: Vec<Bson> =
            (0..50_000).map(|i| if i % 2 == 0 { Bson::Int32(i) } else { Bson::Double(f64::from(i) + 0.5) }).collect();
        let docs: Vec<Bson> = (0..20_000).map(|i| Bson::Document(doc! { "x": i, "y": "k", "z": [i, 1] })).collect();
        let decimals: Vec<Bson> = (0..50_000)
            .map(|i| Bson::Decimal128(format!("{i}.25").parse::<mongo_schema_core::bson::Decimal128>().unwrap()))
            .collect();
        vec![
            ("100000 distinct strings", doc! { "a": strings }),
            ("50000 ints", doc! { "a": ints }),
            ("50000 mixed int/double", doc! { "a": mixed }),
            ("20000 small subdocuments", doc! { "a": docs }),
            ("50000 decimals", doc! { "a": decimals }),
        ]
    }

    /// Wall time of `uniqueItems` on large distinct arrays (no assertion on time):
    /// `cargo test --release -p mongo-schema-validate --lib --features bson-3 -- --ignored --nocapture unique_items_timing`
    #[test]
    #[ignore]
    fn unique_items_timing() {
        let validator = Validator::new(&doc! { "properties": { "a": { "uniqueItems": true } } }).unwrap();
        for (name, d) in inputs() {
            let raw = RawDocumentBuf::try_from(&d).unwrap();
            let start = Instant::now();
            assert!(validator.validate(&d).is_ok());
            let decoded = start.elapsed();
            let start = Instant::now();
            assert!(validator.validate_raw(&raw).is_ok());
            let raw_time = start.elapsed();
            println!("{name}: validate {decoded:?}, validate_raw {raw_time:?}");
        }
    }
}
