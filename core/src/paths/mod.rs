//! Field paths checked against the fields table every derived struct has. The guide is
//! `mongo_schema::paths`.

use crate::bson::{doc, Bson, Document};
use crate::schema::MongoSchema;
use serde::Serialize;
use std::borrow::Borrow;
use std::collections::BTreeMap;
use std::fmt;
use std::marker::PhantomData;

mod field_path;
pub(crate) use field_path::kind_name;

pub use field_path::FieldPath;
#[doc(hidden)]
pub use field_path::{resolve, Resolved};

/// A value standing for a dotted path: built from a [`Path`], and read as one.
pub trait Node {
    /// The node at `path`.
    fn at(path: Path) -> Self;
    /// Its path.
    fn path(&self) -> &Path;
}

/// A dotted path (`address.city`, `lines.$[].sku`), as mongod reads it in queries,
/// updates, projections and index keys. The root document's path is empty.
#[derive(Clone, Default, PartialEq, Eq, Hash)]
pub struct Path(String);

impl Path {
    /// The path as text.
    #[inline]
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// This path with `segment` appended (`a` + `b` = `a.b`; the root + `b` = `b`).
    pub fn join(&self, segment: &str) -> Path {
        if self.0.is_empty() {
            return Path(segment.to_owned());
        }
        let mut out = String::with_capacity(self.0.len() + 1 + segment.len());
        out.push_str(&self.0);
        out.push('.');
        out.push_str(segment);
        Path(out)
    }
}

impl fmt::Display for Path {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl fmt::Debug for Path {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.0, f)
    }
}

impl From<Path> for String {
    fn from(path: Path) -> String {
        path.0
    }
}

impl AsRef<str> for Path {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl std::ops::Deref for Path {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

/// `N`'s node at `parent.key` (what the generated field methods call).
#[doc(hidden)]
#[inline]
pub fn child<N: Node>(parent: &Path, key: &str) -> N {
    N::at(parent.join(key))
}

/// `N`'s node at `parent` itself: a flattened field, whose fields serde writes at the
/// parent's level.
#[doc(hidden)]
#[inline]
pub fn flat<N: Node>(parent: &Path) -> N {
    N::at(parent.clone())
}

/// The common impls of a path node: `Display`, `Debug`, `Deref` to [`Path`] (so
/// `as_str()`), `From<_> for String` and `for Path`.
macro_rules! node_impls {
    ($($ty:ident $(<$param:ident>)?),*) => {$(
        impl$(<$param>)? fmt::Display for $ty$(<$param>)? {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                fmt::Display::fmt(Node::path(self), f)
            }
        }
        impl$(<$param>)? fmt::Debug for $ty$(<$param>)? {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                fmt::Debug::fmt(Node::path(self), f)
            }
        }
        impl$(<$param>)? std::ops::Deref for $ty$(<$param>)? {
            type Target = Path;
            fn deref(&self) -> &Path {
                Node::path(self)
            }
        }
        impl$(<$param>)? From<$ty$(<$param>)?> for String {
            fn from(node: $ty$(<$param>)?) -> String {
                Node::path(&node).as_str().to_owned()
            }
        }
        impl$(<$param>)? From<$ty$(<$param>)?> for Path {
            fn from(node: $ty$(<$param>)?) -> Path {
                Node::path(&node).clone()
            }
        }
    )*};
}

/// The generated `{Type}Fields`' impls of `Node`, `Display`, `Debug`, `Deref<Target = Path>`
/// and `From<_> for String`: one macro call per derived struct.
#[doc(hidden)]
#[macro_export]
macro_rules! __fields_node {
    ($ty:ident) => {
        impl ::mongo_schema::__private::Node for $ty {
            #[inline]
            fn at(path: ::mongo_schema::__private::Path) -> Self {
                $ty(path)
            }
            #[inline]
            fn path(&self) -> &::mongo_schema::__private::Path {
                &self.0
            }
        }
        impl ::core::fmt::Display for $ty {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                ::core::fmt::Display::fmt(&self.0, f)
            }
        }
        impl ::core::fmt::Debug for $ty {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                ::core::fmt::Debug::fmt(&self.0, f)
            }
        }
        impl ::core::ops::Deref for $ty {
            type Target = ::mongo_schema::__private::Path;
            #[inline]
            fn deref(&self) -> &::mongo_schema::__private::Path {
                &self.0
            }
        }
        impl ::core::convert::From<$ty> for ::std::string::String {
            fn from(node: $ty) -> ::std::string::String {
                ::std::string::String::from(node.0)
            }
        }
    };
}

/// The path of a value with no fields to name: a scalar, a bson type, an enum, a tuple.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Leaf(Path);

impl Node for Leaf {
    #[inline]
    fn at(path: Path) -> Self {
        Leaf(path)
    }
    #[inline]
    fn path(&self) -> &Path {
        &self.0
    }
}

impl Leaf {
    /// A key under this value, for what the model does not name field by field (an
    /// enum variant's field, a key inside a `Document`): `key("amount")` is `this.amount`.
    pub fn key(&self, key: &str) -> Leaf {
        Leaf(self.0.join(key))
    }
}

/// The path of a derived enum of unit variants (a string out of its variants' names): the
/// path ends, as at a [`Leaf`]. Its own type so that `query!` takes the enum itself as a
/// value compared with such a key (one impl in the runtime for every such enum, keyed on
/// `MongoSchema::Fields`, instead of one the derive would write per enum).
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct UnitEnum(Path);

impl Node for UnitEnum {
    #[inline]
    fn at(path: Path) -> Self {
        UnitEnum(path)
    }
    #[inline]
    fn path(&self) -> &Path {
        &self.0
    }
}

/// The path of an array of `T`: element paths in the forms queries and updates use.
pub struct Array<T: ?Sized>(Path, PhantomData<fn() -> Box<T>>);

impl<T: ?Sized> Node for Array<T> {
    #[inline]
    fn at(path: Path) -> Self {
        Array(path, PhantomData)
    }
    #[inline]
    fn path(&self) -> &Path {
        &self.0
    }
}

impl<T: ?Sized> Clone for Array<T> {
    fn clone(&self) -> Self {
        Array(self.0.clone(), PhantomData)
    }
}

impl<T: MongoSchema + ?Sized> Array<T> {
    /// The items' paths with no position: `lines.sku`, which in a query or an index key
    /// reaches into every item (a multikey path).
    #[inline]
    pub fn items(&self) -> T::Fields {
        T::Fields::at(self.0.clone())
    }

    /// The item a query matched, for an update: `lines.$.sku` (the positional `$`).
    #[inline]
    pub fn matched(&self) -> T::Fields {
        child(&self.0, "$")
    }

    /// Every item, for an update: `lines.$[].sku`.
    #[inline]
    pub fn all(&self) -> T::Fields {
        child(&self.0, "$[]")
    }

    /// The items an `arrayFilters` entry named `identifier` selects, for an update:
    /// `lines.$[big].sku`.
    ///
    /// # Panics
    ///
    /// When `identifier` is not what mongod accepts: a lowercase ASCII letter, then ASCII
    /// letters and digits. mongod refuses the whole update otherwise.
    pub fn filtered(&self, identifier: &str) -> T::Fields {
        let mut chars = identifier.chars();
        let valid = chars.next().is_some_and(|c| c.is_ascii_lowercase()) && chars.all(|c| c.is_ascii_alphanumeric());
        assert!(
            valid,
            "array filter identifier {identifier:?} for `{}`: mongod needs a lowercase ASCII letter followed by ASCII letters and digits (e.g. \"elem\")",
            self.0
        );
        child(&self.0, &format!("$[{identifier}]"))
    }

    /// The item at `index`: `lines.3.sku`.
    pub fn at(&self, index: usize) -> T::Fields {
        child(&self.0, &index.to_string())
    }
}

/// The path of a map (a document of arbitrary string keys) of `V`.
pub struct Map<V: ?Sized>(Path, PhantomData<fn() -> Box<V>>);

impl<V: ?Sized> Node for Map<V> {
    #[inline]
    fn at(path: Path) -> Self {
        Map(path, PhantomData)
    }
    #[inline]
    fn path(&self) -> &Path {
        &self.0
    }
}

impl<V: MongoSchema + ?Sized> Map<V> {
    /// The value at `key`: `labels.en`.
    ///
    /// # Panics
    ///
    /// When `key` is empty or holds a `.` (it would name a deeper path) or starts with `$`
    /// (an operator): such a key cannot be named in a dotted path.
    pub fn key(&self, key: &str) -> V::Fields {
        assert!(
            !key.is_empty() && !key.contains('.') && !key.starts_with('$'),
            "map key {key:?} under `{}` cannot be named in a dotted path: it is empty, holds a '.' or starts with '$'",
            self.0
        );
        child(&self.0, key)
    }
}

node_impls!(Leaf, UnitEnum, Array<T>, Map<V>);

/// An array field declared with `max_items = N`: its paths, plus [`push`](Self::push),
/// which keeps the bound at the database.
pub struct Bounded<A> {
    array: A,
    max_items: u64,
}

impl<A: Node> Bounded<A> {
    #[doc(hidden)]
    #[inline]
    pub fn new(path: Path, max_items: u64) -> Self {
        Bounded { array: A::at(path), max_items }
    }

    /// The field's `max_items`.
    pub fn max_items(&self) -> u64 {
        self.max_items
    }
}

impl<A> std::ops::Deref for Bounded<A> {
    type Target = A;
    fn deref(&self) -> &A {
        &self.array
    }
}

impl<A: Node> fmt::Display for Bounded<A> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self.array.path(), f)
    }
}

impl<A: Node> fmt::Debug for Bounded<A> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?} (max_items {})", self.array.path(), self.max_items)
    }
}

impl<A: Node> From<Bounded<A>> for String {
    fn from(bounded: Bounded<A>) -> String {
        bounded.array.path().as_str().to_owned()
    }
}

impl<T: Serialize> Bounded<Array<T>> {
    /// `{$push: {path: {$each: [items...], $slice: -max_items}}}`: appends the items and
    /// keeps the newest `max_items`, in one update and without reading the document.
    /// Each item is serialized as the driver serializes a document (bson's raw
    /// serializer), so it is written exactly as an inserted model's array item would be.
    /// Builder methods add `$sort` and `$position`; [`Push::update`] gives the document.
    pub fn push<I>(&self, items: I) -> Push
    where
        I: IntoIterator,
        I::Item: Borrow<T>,
    {
        let items: Vec<I::Item> = items.into_iter().collect();
        let values: Vec<&T> = items.iter().map(Borrow::borrow).collect();
        let path = self.array.path().clone();
        let each = serialize_items(&values).map_err(|message| PushError { path: path.as_str().to_owned(), message });
        Push { path, each, max_items: Some(self.max_items), sort: None, position: None, keep_first: false }
    }
}

/// The order of a `$sort` in a bounded push.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Order {
    /// `1`
    Ascending,
    /// `-1`
    Descending,
}

impl Order {
    fn value(self) -> i32 {
        match self {
            Order::Ascending => 1,
            Order::Descending => -1,
        }
    }
}

/// A `$push` being built: see [`Bounded::push`] and [`FieldPath::push`].
#[derive(Debug, Clone)]
#[must_use = "a Push does nothing until its `update()` is sent"]
pub struct Push {
    path: Path,
    each: Result<Vec<Bson>, PushError>,
    max_items: Option<u64>,
    sort: Option<Bson>,
    position: Option<i32>,
    keep_first: bool,
}

impl Push {
    /// `$sort` the whole array by its items' values (items that are scalars).
    pub fn sort(mut self, order: Order) -> Self {
        self.sort = Some(Bson::Int32(order.value()));
        self
    }

    /// `$sort` the whole array by a field of its items (document items); `key` is a path
    /// relative to an item, e.g. `Tag::fields().score()`. Keys add up in call order.
    pub fn sort_by(mut self, key: impl Into<String>, order: Order) -> Self {
        let mut spec = match self.sort.take() {
            Some(Bson::Document(spec)) => spec,
            _ => Document::new(),
        };
        spec.insert(key.into(), order.value());
        self.sort = Some(Bson::Document(spec));
        self
    }

    /// `$position`: insert the items at `index` (negative counts from the end) instead of
    /// appending them. With `0` (newest first), pair it with [`keep_first`](Self::keep_first).
    pub fn position(mut self, index: i32) -> Self {
        self.position = Some(index);
        self
    }

    /// `$slice: +max_items`: keep the first items instead of the last ones (for an array
    /// kept newest first with `position(0)`, or sorted with the items to keep first). An
    /// array without `max_items` gets no `$slice`, first or last.
    pub fn keep_first(mut self) -> Self {
        self.keep_first = true;
        self
    }

    /// The modifier document alone: `{$each: [...], $slice: ..., $sort: ..., $position: ...}`,
    /// to combine with other pushes under one `$push`, and the path it goes under.
    pub fn into_parts(self) -> Result<(String, Document), PushError> {
        let each = self.each?;
        let mut modifiers = doc! { "$each": each };
        if let Some(position) = self.position {
            modifiers.insert("$position", position);
        }
        if let Some(sort) = self.sort {
            modifiers.insert("$sort", sort);
        }
        if let Some(max) = self.max_items {
            let max = i64::try_from(max).unwrap_or(i64::MAX);
            modifiers.insert("$slice", crate::schema::narrow(if self.keep_first { max } else { -max }));
        }
        Ok((self.path.into(), modifiers))
    }

    /// The update: `{$push: {path: {$each: [...], $slice: -max_items}}}`, with `$sort` and
    /// `$position` when asked.
    pub fn update(self) -> Result<Document, PushError> {
        let (path, modifiers) = self.into_parts()?;
        let mut push = Document::new();
        push.insert(path, modifiers);
        Ok(doc! { "$push": push })
    }
}

/// An item of a bounded push that bson cannot serialize (a `u64` above `i64::MAX`, a map
/// with non-string keys, a failing `Serialize` impl).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PushError {
    path: String,
    message: String,
}

impl fmt::Display for PushError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "cannot push to `{}`: an item does not serialize to BSON ({}); the driver would refuse to write it as well",
            self.path, self.message
        )
    }
}

impl std::error::Error for PushError {}

/// The items as the driver writes them: inside a document serialized by bson's raw
/// serializer (not "human readable": a `uuid::Uuid` is binData, as in an inserted model).
fn serialize_items<T: Serialize>(items: &[&T]) -> Result<Vec<Bson>, String> {
    let wrapper = BTreeMap::from([("v", items)]);
    let raw = crate::compat::to_raw_document_buf(&wrapper).map_err(|e| e.to_string())?;
    let mut document = Document::try_from(raw.as_ref()).map_err(|e| e.to_string())?;
    match document.remove("v") {
        Some(Bson::Array(values)) => Ok(values),
        _ => Err("bson wrote no array of the items".to_owned()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn containers_pass_on_their_items_paths() {
        let tags = <Option<Vec<String>> as MongoSchema>::fields();
        assert_eq!(tags.as_str(), "");
        let tags: Array<String> = child(&Path::default(), "tags");
        assert_eq!(tags.items().as_str(), "tags");
        assert_eq!(tags.matched().as_str(), "tags.$");
        assert_eq!(tags.all().as_str(), "tags.$[]");
        assert_eq!(tags.filtered("t1").as_str(), "tags.$[t1]");
        assert_eq!(tags.at(4).to_string(), "tags.4");
        let labels: Map<Vec<i32>> = child(&Path::default().join("a"), "labels");
        assert_eq!(String::from(labels.key("en").all()), "a.labels.en.$[]");
    }

    #[test]
    #[should_panic(expected = "mongod needs a lowercase ASCII letter")]
    fn a_bad_array_filter_identifier_is_refused() {
        let tags: Array<String> = child(&Path::default(), "tags");
        let _ = tags.filtered("$x");
    }

    #[test]
    #[should_panic(expected = "holds a '.'")]
    fn a_dotted_map_key_is_refused() {
        let labels: Map<String> = child(&Path::default(), "labels");
        let _ = labels.key("a.b");
    }

    #[test]
    fn a_bounded_push_keeps_the_last_items() {
        let tags: Bounded<Array<String>> = Bounded::new(Path::default().join("tags"), 3);
        let update = tags.push(["a", "b"].map(String::from)).update().expect("strings serialize");
        assert_eq!(update, doc! { "$push": { "tags": { "$each": ["a", "b"], "$slice": -3 } } });
        let update = tags.push(&[String::from("c")]).position(0).sort(Order::Descending).keep_first().update();
        assert_eq!(
            update.expect("serializes"),
            doc! { "$push": { "tags": { "$each": ["c"], "$position": 0, "$sort": -1, "$slice": 3 } } }
        );
    }

    #[test]
    fn an_item_bson_refuses_is_an_error_naming_the_path() {
        let big: Bounded<Array<u64>> = Bounded::new(Path::default().join("counts"), 2);
        let error = big.push([u64::MAX]).update().expect_err("u64::MAX does not fit a BSON long");
        let text = error.to_string();
        assert!(text.starts_with("cannot push to `counts`: an item does not serialize to BSON ("), "{text}");
    }
}
