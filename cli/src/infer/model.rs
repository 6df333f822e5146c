//! The draft as decided, before it is Rust text: the items of the drafted file (structs,
//! enums of string values, internally tagged enums), their fields with the target type,
//! whether it is an `Option`, the serde and `#[mongo]` attributes they need and their doc
//! comments. [`super::decide`] builds it (with the report); [`super::render`] alone writes
//! it as Rust.

use super::stats::Kind;

/// The target type of a path: what the modelling rules want, chosen from what the data shows.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Ty {
    ObjectId,
    String,
    /// An enum of the string values seen (the item of that name).
    Enum(String),
    Bool,
    I32,
    I64,
    F64,
    Decimal,
    Date,
    Uuid,
    Binary,
    Timestamp,
    Regex,
    /// A struct (the item of that name).
    Struct(String),
    /// A map with string keys, at most this many entries (`None`: a root's flattened map,
    /// which states no bound).
    Map(Box<Ty>, Option<u64>),
    /// An array of at most this many items.
    Vec(Box<Ty>, u64),
    /// Any BSON value.
    Any,
}

impl Ty {
    /// Whether a value of `kind` reads as this type (the rest are anomalies).
    pub fn accepts(&self, kind: Kind) -> bool {
        match self {
            Ty::ObjectId => kind == Kind::ObjectId,
            Ty::String | Ty::Enum(_) => kind == Kind::String,
            Ty::Bool => kind == Kind::Bool,
            Ty::I32 | Ty::I64 => matches!(kind, Kind::Int | Kind::Long),
            Ty::F64 => matches!(kind, Kind::Double | Kind::Int | Kind::Long),
            Ty::Decimal => kind == Kind::Decimal,
            Ty::Date => kind == Kind::Date,
            Ty::Uuid => kind == Kind::Uuid,
            Ty::Binary => matches!(kind, Kind::BinData | Kind::Uuid),
            Ty::Timestamp => kind == Kind::Timestamp,
            Ty::Regex => kind == Kind::Regex,
            Ty::Struct(_) | Ty::Map(..) => kind == Kind::Object,
            Ty::Vec(..) => kind == Kind::Array,
            Ty::Any => true,
        }
    }
}

/// One item of the drafted file.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Item {
    Struct(Struct),
    /// A root whose documents a key's values tell apart: an internally tagged enum.
    Tagged(Tagged),
    /// The string values a path holds.
    Enum(StringEnum),
}

impl Item {
    #[cfg(test)]
    pub fn name(&self) -> &str {
        match self {
            Item::Struct(s) => &s.name,
            Item::Tagged(t) => &t.name,
            Item::Enum(e) => &e.name,
        }
    }
}

/// A struct: a collection's documents (its root) or an embedded document.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Struct {
    /// Doc comment lines (a root's: the collection and the documents read).
    pub docs: Vec<String>,
    pub name: String,
    /// `#[serde(rename_all = "camelCase")]`: every key is the camelCase of its field.
    pub camel_case: bool,
    pub mongo: Vec<Container>,
    pub fields: Vec<Field>,
}

/// An internally tagged enum (`#[serde(tag = ...)]`), a variant per value of its tag.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Tagged {
    pub docs: Vec<String>,
    pub name: String,
    /// The tag's key.
    pub tag: String,
    pub mongo: Vec<Container>,
    pub variants: Vec<TaggedVariant>,
}

#[derive(Debug, Clone, PartialEq)]
pub(super) struct TaggedVariant {
    /// Its doc comment: the value, its documents and the keys only they hold.
    pub doc: String,
    /// The tag's value.
    pub value: String,
    pub name: String,
    pub fields: Vec<Field>,
}

/// An enum of the strings a path holds, a unit variant per value.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct StringEnum {
    pub docs: Vec<String>,
    pub name: String,
    /// (value, variant name), in the order of the values.
    pub variants: Vec<(String, String)>,
}

/// A field of a struct or of a tagged enum's variant.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Field {
    pub docs: Vec<String>,
    /// The Rust field name.
    pub ident: String,
    pub ty: Ty,
    /// Written `Option<ty>`: missing in some documents or null in some.
    pub option: bool,
    pub serde: Vec<Serde>,
    pub mongo: Vec<Mongo>,
}

impl Field {
    /// Whether the field waives `rule`.
    #[cfg(test)]
    pub fn waives(&self, rule: Rule) -> bool {
        self.mongo.iter().any(|m| matches!(m, Mongo::Allow(w) if w.rules.contains(&rule)))
    }
}

/// An argument of a field's `#[serde(...)]`.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Serde {
    /// The key, where it is not the field's name (after `rename_all`).
    Rename(String),
    /// An older key still read.
    Alias(String),
    /// `skip_serializing_if = "Option::is_none"`: a missing value stays missing.
    SkipNone,
    /// `with = ...`: the helper that reads and writes the BSON type.
    With(Helper),
    Default,
    Flatten,
}

/// mongo-schema's serde helpers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Helper {
    Decimal128,
    Decimal128Option,
    UuidBinary,
    UuidBinaryOption,
}

/// An argument of a field's `#[mongo(...)]`.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Mongo {
    Nullable,
    RenamedFrom(String),
    MaxItems(u64),
    MaxProperties(u64),
    /// The bounds of a `Vec`'s items or a map's values.
    Items(Vec<Mongo>),
    Allow(Waiver),
}

/// An argument of a struct's or enum's `#[mongo(...)]`.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Container {
    Db(String),
    Collection(String),
    Index(Index),
    Allow(Waiver),
}

/// Rules waived, with the reason.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Waiver {
    pub rules: Vec<Rule>,
    pub reason: &'static str,
}

/// The modelling rules a draft may waive.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Rule {
    DbName,
    CollectionName,
    FieldName,
    NumericStatus,
    StringDate,
    MoneyDouble,
    RandomId,
}

impl Rule {
    /// The rule's id, as `allow(...)` names it.
    pub fn id(self) -> &'static str {
        match self {
            Rule::DbName => "db_name",
            Rule::CollectionName => "collection_name",
            Rule::FieldName => "field_name",
            Rule::NumericStatus => "numeric_status",
            Rule::StringDate => "string_date",
            Rule::MoneyDouble => "money_double",
            Rule::RandomId => "random_id",
        }
    }
}

/// An index of a root, as the derive states it.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Index {
    /// Each key's path and direction or kind.
    pub keys: Vec<(String, IndexKey)>,
    pub unique: bool,
    pub name: String,
    /// `expireAfterSeconds`, on a date field.
    pub ttl: Option<i64>,
    /// `partialFilterExpression`, as canonical Extended JSON.
    pub partial: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum IndexKey {
    /// 1 or -1.
    Direction(i64),
    /// `hashed`, `2dsphere`.
    Kind(String),
}
