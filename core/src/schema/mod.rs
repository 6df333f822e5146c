//! The [`MongoSchema`] trait: the `$jsonSchema` of a Rust type, exact to what the driver
//! writes, and the compile-time facts the modelling rules need.

mod impls;
pub(crate) mod size;

pub(crate) use impls::narrow;
pub use impls::{array_of, map_of, nullable, tuple_of, MapKey};

use crate::bson::{doc, Document};

pub use mongo_schema_contract::bson::BsonKind;

/// A `$jsonSchema` keyword a field or type sets through `#[mongo(...)]` or its doc
/// comment, as the derive emits it into a [`FieldFacts`] table (the table of keywords,
/// attribute keys and keyword names is the contract crate's).
pub type Keyword = mongo_schema_contract::keyword::Keyword<&'static str, &'static [KeywordLit]>;

/// A literal of `#[mongo(enum_values = [...])]`.
pub type KeywordLit = mongo_schema_contract::keyword::Lit<&'static str>;

/// A numeric keyword value (`minimum`, `maximum`, `multipleOf`, ...), as written.
pub use mongo_schema_contract::keyword::Num as KeywordNum;

/// How a value is shaped, for rules that look at containers through type aliases.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// A single value (a number, a string, a date, an ObjectId, ...).
    Scalar,
    /// An embedded document with a fixed set of fields (a derived struct).
    Document,
    /// A growable sequence (`Vec`, `VecDeque`, `LinkedList`): needs `max_items`.
    Array,
    /// A fixed-length array or tuple: bounded by its type.
    FixedArray,
    /// A set (`HashSet`, `BTreeSet`): an array of unique items, needs `max_items`.
    Set,
    /// A string-keyed map: a document with arbitrary keys, needs `max_properties`.
    Map,
}

/// Compile-time facts about a type, read by the derive's const checks through
/// `<T as MongoSchema>::FACTS` so that type aliases, paths and generics cannot hide them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SchemaFacts {
    /// The BSON type written (for containers: the container's, `array` or `object`).
    pub kind: BsonKind,
    /// Whether it is a scalar, a document, or a container that needs a bound.
    pub shape: Shape,
    /// Whether `null` is written for some values (`Option::None`, unit types).
    pub nullable: bool,
    /// Embedded-document levels a value adds: 0 for scalars, 1 + the
    /// deepest field for documents; arrays add none of their own.
    pub depth: u32,
    /// Worst-case encoded size in bytes of the value alone (its element header excluded),
    /// `None` when the type alone does not bound it (strings, `Vec`, maps, ...).
    pub max_size: Option<u64>,
    /// For containers: the worst-case encoded size of one item (a map: one value).
    pub item_max_size: Option<u64>,
    /// For containers: the item's kind (a map: the value's kind). Otherwise `kind`.
    pub item_kind: BsonKind,
    /// serde's default `Serialize` of this type (or of a type inside it) writes something
    /// else than the schema says unless a serde helper is set on the field
    /// (`rust_decimal::Decimal`, `chrono::DateTime`, `uuid::Uuid`): the path of that helper.
    pub needs_helper: Option<&'static str>,
    /// The strings a derived enum of unit variants writes (`"Paid"`, `"Shipped"`), passed
    /// on by containers (an array's or a map's: its items'); empty for other types.
    /// `query!` checks a literal compared with such a field against them.
    pub variants: &'static [&'static str],
}

impl SchemaFacts {
    /// Facts of a scalar of `kind` whose encoded size is `size` bytes (`None`: unbounded).
    pub const fn scalar(kind: BsonKind, size: Option<u64>) -> Self {
        SchemaFacts {
            kind,
            shape: Shape::Scalar,
            nullable: matches!(kind, BsonKind::Null),
            depth: 0,
            max_size: size,
            item_max_size: None,
            item_kind: kind,
            needs_helper: None,
            variants: &[],
        }
    }

    /// Facts of a derived enum of unit variants serde writes as the strings `variants`.
    pub const fn unit_enum(variants: &'static [&'static str]) -> Self {
        let (mut longest, mut i) = (0, 0);
        while i < variants.len() {
            if variants[i].len() > longest {
                longest = variants[i].len();
            }
            i += 1;
        }
        let mut facts = SchemaFacts::scalar(BsonKind::String, Some(mongo_schema_contract::size::str_bytes(longest)));
        facts.variants = variants;
        facts
    }

    /// The same facts with a serde helper required.
    pub const fn with_helper(mut self, helper: &'static str) -> Self {
        self.needs_helper = Some(helper);
        self
    }
}

/// One field of a derived struct, as written: its key, its type's facts and fields. The
/// derive emits one table of these per struct: the schema, the facts and the path rules
/// are all computed from it, so each field's type is named once.
#[derive(Debug, Clone, Copy)]
pub struct FieldFacts {
    /// The key serde writes (after `rename` / `rename_all`).
    pub name: &'static str,
    /// The facts of the field's type (or of the BSON type its helper or `bson_type` fixes).
    pub facts: SchemaFacts,
    /// The fields of the embedded document it holds (through arrays, maps and `Option`: a
    /// map's are its values', one key below it), if any.
    pub fields: Option<&'static [FieldFacts]>,
    /// `#[serde(flatten)]`: its fields are written into the parent.
    pub flatten: bool,
    /// The Rust field when it is not `name` (`""`: `name` is the Rust field, or, for the
    /// fields of tuple structs and tuple variants, their index, which names no field):
    /// read it through [`FieldFacts::rust_name`]. The derive leaves it out of the table
    /// when serde writes the field under its own name, most fields of most models.
    pub ident: &'static str,
    /// The derived struct whose fields `fields` lists, through containers (`Address` for
    /// a `Vec<Address>` field); `""` for other types.
    pub type_name: &'static str,
    #[doc(hidden)]
    pub schema: fn() -> Document,
    /// `__private::{REQUIRED, NULLABLE, SKIPS_NONE}`.
    #[doc(hidden)]
    pub flags: u8,
    /// The field's own `$jsonSchema` keywords (`max_length`, `pattern`, ...), applied
    /// over its type's schema.
    pub keywords: &'static [Keyword],
    /// The keywords of `#[mongo(items(...))]`, one list a level: the items of an array (the
    /// values of a map), then theirs for a nested `items(...)`.
    pub items: &'static [&'static [Keyword]],
    /// The keys of an internally tagged enum it holds (`MongoSchema::TAGGED`, through
    /// containers), for `query!`'s key check; `None` for other types.
    pub tagged: Option<&'static [FieldFacts]>,
}

impl FieldFacts {
    /// The Rust field of a struct's field (`ident`, or `name` when the derive left `ident`
    /// empty because they are the same); `""` for the fields of tuple structs and tuple
    /// variants, whose `name` is their index.
    pub const fn rust_name(&self) -> &'static str {
        match (self.ident.as_bytes(), self.name.as_bytes()) {
            ([], [b'0'..=b'9', ..]) => "",
            ([], _) => self.name,
            _ => self.ident,
        }
    }

    /// The field of `fields` written under the key `name`, looking into flattened fields
    /// (whose members serde writes into the parent), with the name of the struct declaring
    /// it (`owner` for `fields`' own). A `const fn`: the derive's path rules call it at
    /// compile time, the validator's annotations at run time.
    pub const fn written(
        fields: &'static [FieldFacts],
        name: &[u8],
        owner: &'static str,
    ) -> Option<(&'static str, &'static FieldFacts)> {
        let mut i = 0;
        while i < fields.len() {
            let field = &fields[i];
            // a flattened map's keys are any; its values' fields are not the parent's
            if field.flatten && !matches!(field.facts.shape, Shape::Map) {
                if let Some(inner) = field.fields {
                    if let Some(found) = FieldFacts::written(inner, name, field.type_name) {
                        return Some(found);
                    }
                }
            } else if !field.flatten && mongo_schema_contract::helpers::bytes_eq(field.name.as_bytes(), name) {
                return Some((owner, field));
            }
            i += 1;
        }
        None
    }
}

/// A Rust type with a MongoDB `$jsonSchema`, exact to the BSON the official driver writes
/// for it. Implemented for the supported std, bson, rust_decimal, chrono and uuid types;
/// derive it with `#[derive(MongoSchema)]` for your own serde models.
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no MongoDB schema: it does not implement `MongoSchema`",
    label = "this field's type has no `$jsonSchema` mapping",
    note = "derive it on your own types: `#[derive(Serialize, Deserialize, MongoSchema)]`",
    note = "for a foreign type written through a serde helper, set the BSON type it writes on the field: `#[mongo(bson_type = \"string\")]`"
)]
pub trait MongoSchema {
    /// What the rules know about the type at compile time.
    const FACTS: SchemaFacts;

    /// The fields of a derived struct, for resolving index, shard-key and time-series
    /// paths (`address.city`) at compile time; containers (`Option`, `Vec`, `Box`, maps,
    /// ...) pass their item's on (a map's: its values', one key below it). `None`: the
    /// type's keys are not known (enums, `Document`, scalars).
    const FIELDS: Option<&'static [FieldFacts]> = None;

    /// The name of the derived struct whose fields `FIELDS` lists (passed on by containers
    /// like `FIELDS`), for messages such as `Address::city`; `""` for other types.
    const NAME: &'static str = "";

    /// The keys a derived internally tagged enum (`#[serde(tag = "..")]`) writes: its tag,
    /// then one flattened entry per variant that writes keys (`ident`: the variant), holding
    /// a struct variant's fields or a newtype variant's inner type's `FIELD` (whose keys
    /// serde writes beside the tag); passed on by containers like `FIELDS`; `None` for
    /// other types. `query!` checks a key through such a field against them, and a value
    /// against every variant holding the key (`FIELDS` stays `None`: a variant's keys are
    /// not all in every document).
    const TAGGED: Option<&'static [FieldFacts]> = None;

    /// The paths of a value of this type (see [`crate::paths`]): a generated `{Type}Fields`
    /// with one method per field for a derived struct, [`Array`](crate::paths::Array) for
    /// sequences, [`Map`](crate::paths::Map) for maps, the inner type's for `Option`,
    /// `Box` and newtypes, [`UnitEnum`](crate::paths::UnitEnum) for a derived enum of unit
    /// variants, [`Leaf`](crate::paths::Leaf) (the path ends) for the rest.
    type Fields: crate::paths::Node;

    /// The paths of this type's fields from the document's root, as serde writes them:
    /// `User::fields().address().city()` is `"address.city"`.
    #[inline]
    fn fields() -> Self::Fields {
        <Self::Fields as crate::paths::Node>::at(crate::paths::Path::default())
    }

    /// The value of `$jsonSchema` for a value of this type.
    fn json_schema() -> Document;

    /// A field of this type, less what the field itself says (its key, Rust name, flags
    /// and keywords): the derive's `FIELDS` entries start from it, so each type's facts
    /// are copied, not recomputed, wherever it is used.
    #[doc(hidden)]
    const FIELD: FieldFacts = FieldFacts {
        name: "",
        facts: Self::FACTS,
        fields: Self::FIELDS,
        flatten: false,
        ident: "",
        type_name: Self::NAME,
        schema: Self::json_schema,
        flags: mongo_schema_contract::fields::REQUIRED,
        keywords: &[],
        items: &[],
        tagged: Self::TAGGED,
    };

    /// `{"$jsonSchema": <json_schema()>}`, ready for `createCollection`'s `validator`.
    fn validator() -> Document {
        doc! { "$jsonSchema": Self::json_schema() }
    }
}

/// Schema of a single `bsonType`.
pub fn bson_type(alias: &str) -> Document {
    doc! { "bsonType": alias }
}
