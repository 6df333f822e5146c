//! The compiled form of a `$jsonSchema`: one `Schema` per (sub)schema, its keywords grouped by
//! the BSON type family they restrict, parsed once with mongod's acceptance rules
//! (`json_schema_parser.cpp`, MongoDB manual "$jsonSchema" and its "Omissions" list).

use mongo_schema_core::bson::{Bson, Document};

use super::error::SchemaError;
use super::keywords::array::ArrayRules;
use super::keywords::encrypt::Encrypt;
use super::keywords::logic::LogicRules;
use super::keywords::number::NumberRules;
use super::keywords::object::ObjectRules;
use super::keywords::string::StringRules;
use super::types::{Aliases, TypeSet};
use mongo_schema_core::view::number::{integral, number_of};

/// Every keyword mongod's `$jsonSchema` parser knows.
const KNOWN: &[&str] = &[
    "additionalItems",
    "additionalProperties",
    "allOf",
    "anyOf",
    "bsonType",
    "dependencies",
    "description",
    "encrypt",
    "encryptMetadata",
    "enum",
    "exclusiveMaximum",
    "exclusiveMinimum",
    "items",
    "maxItems",
    "maxLength",
    "maxProperties",
    "maximum",
    "minItems",
    "minLength",
    "minProperties",
    "minimum",
    "multipleOf",
    "not",
    "oneOf",
    "pattern",
    "patternProperties",
    "properties",
    "required",
    "title",
    "type",
    "uniqueItems",
];

/// JSON Schema keywords the manual's "Omissions" section lists as unsupported.
const UNSUPPORTED: &[&str] = &["$ref", "$schema", "default", "definitions", "format", "id"];

/// One compiled (sub)schema. `repr(C)` keeps what `matches` reads for every value (the type
/// test, the restriction and the rule boxes) in the first cache line, ahead of what only `explain`
/// reads; with Rust's own layout they were spread over several lines of a ~200-byte struct.
#[derive(Debug)]
#[repr(C)]
pub(crate) struct Schema {
    /// The element types this schema admits before any other keyword (`types`, or all;
    /// none when `never`).
    pub(crate) admits: TypeSet,
    /// Which keywords beyond the type test this schema has, for `matches` to decide scalar
    /// values without the generic family dispatch.
    pub(crate) restriction: Restriction,
    /// A root schema whose type excludes objects matches no document.
    pub(crate) never: bool,
    pub(crate) string: Option<Box<StringRules>>,
    pub(crate) number: Option<Box<NumberRules>>,
    pub(crate) object: Option<Box<ObjectRules>>,
    pub(crate) array: Option<Box<ArrayRules>>,
    pub(crate) logic: Option<Box<LogicRules>>,
    pub(crate) encrypt: Option<Encrypt>,
    /// Dotted path of this subschema in the whole schema ("" for the root).
    pub(crate) at: Box<str>,
    pub(crate) types: Option<Types>,
    pub(crate) title: Option<String>,
    pub(crate) description: Option<String>,
    /// The schema as written, kept for a `never` schema: mongod reports it whole.
    pub(crate) written: Option<Document>,
}

/// What a subschema checks beyond `admits`; every kind but `Rules` is decided inline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Restriction {
    /// Nothing: no restriction, `encrypt` or logic keyword.
    Bare,
    /// Only string keywords (`pattern`, `minLength`, `maxLength`).
    String,
    /// Only numeric keywords (`minimum`, `maximum`, `multipleOf`, ...).
    Number,
    /// Anything else: the generic path.
    Rules,
}

/// The `bsonType` / `type` keyword (or the binData type `encrypt` implies).
#[derive(Debug)]
pub(crate) struct Types {
    pub(crate) set: TypeSet,
    /// One alias (mongod's `isSingleType`): restriction keywords of other types are dropped.
    pub(crate) single: bool,
    pub(crate) keyword: &'static str,
    pub(crate) spec: Bson,
}

/// Where a subschema sits: its dotted path, and whether it applies to the root document
/// (mongod parses root schemas with an empty path and drops non-object restrictions there).
#[derive(Clone, Copy)]
pub(crate) struct Ctx<'p> {
    pub(crate) at: &'p str,
    pub(crate) top: bool,
}

impl<'p> Ctx<'p> {
    /// The error for `keyword` in this subschema.
    pub(crate) fn err(&self, keyword: &str, message: impl Into<String>) -> SchemaError {
        SchemaError::new(join(self.at, keyword), message)
    }

    /// The path of `segment` below this subschema.
    pub(crate) fn path(&self, segment: &str) -> String {
        join(self.at, segment)
    }
}

/// `segment` below the dotted path `at` (the root when empty).
pub fn join(at: &str, segment: &str) -> String {
    if at.is_empty() {
        segment.to_owned()
    } else {
        format!("{at}.{segment}")
    }
}

/// The keywords of one subschema, checked for unknown, unsupported and duplicate names.
pub(crate) struct Keywords<'s> {
    entries: Vec<(&'s str, &'s Bson)>,
}

impl<'s> Keywords<'s> {
    fn collect(doc: &'s Document, ctx: Ctx<'_>) -> Result<Keywords<'s>, SchemaError> {
        let mut entries: Vec<(&str, &Bson)> = Vec::with_capacity(doc.len());
        for (name, value) in doc {
            let name = name.as_str();
            if UNSUPPORTED.contains(&name) {
                return Err(ctx.err(name, format!("$jsonSchema keyword '{name}' is not currently supported")));
            }
            if !KNOWN.contains(&name) {
                return Err(ctx.err(name, format!("Unknown $jsonSchema keyword: {name}")));
            }
            if entries.iter().any(|(seen, _)| *seen == name) {
                return Err(ctx.err(name, format!("Duplicate $jsonSchema keyword: {name}")));
            }
            entries.push((name, value));
        }
        Ok(Keywords { entries })
    }

    pub(crate) fn get(&self, name: &str) -> Option<&'s Bson> {
        self.entries.iter().find(|(n, _)| *n == name).map(|(_, v)| *v)
    }
}

impl Schema {
    /// Compiles the subschema `doc` found at `ctx`.
    pub(crate) fn parse(doc: &Document, ctx: Ctx<'_>) -> Result<Schema, SchemaError> {
        let kw = Keywords::collect(doc, ctx)?;
        let (title, description) = (metadata(&kw, ctx, "title")?, metadata(&kw, ctx, "description")?);
        let types = parse_types(&kw, ctx)?;
        let string = StringRules::parse(&kw, ctx)?;
        let number = NumberRules::parse(&kw, ctx)?;
        let array = ArrayRules::parse(&kw, ctx)?;
        let encrypt = Encrypt::parse(&kw, ctx)?;
        let object = ObjectRules::parse(&kw, ctx)?;
        let logic = LogicRules::parse(&kw, ctx)?;
        let never = ctx.top
            && types
                .as_ref()
                .is_some_and(|t| !t.set.contains(mongo_schema_core::bson::spec::ElementType::EmbeddedDocument));
        let admits = if never { TypeSet::default() } else { types.as_ref().map_or(TypeSet::ALL, |t| t.set) };
        let others = array.is_none() && object.is_none() && encrypt.is_none() && logic.is_none();
        let restriction = match (string.is_some(), number.is_some()) {
            (false, false) if others => Restriction::Bare,
            (true, false) if others => Restriction::String,
            (false, true) if others => Restriction::Number,
            _ => Restriction::Rules,
        };
        Ok(Schema {
            at: ctx.at.into(),
            types,
            string,
            number,
            array,
            object,
            encrypt,
            logic,
            never,
            admits,
            restriction,
            title,
            description,
            written: never.then(|| doc.clone()),
        })
    }

    /// Compiles a subschema that must be a document (`items`, `properties.x`, ...).
    pub(crate) fn parse_nested(
        value: &Bson,
        at: &str,
        top: bool,
        what: impl FnOnce() -> SchemaError,
    ) -> Result<Schema, SchemaError> {
        match value {
            Bson::Document(doc) => Schema::parse(doc, Ctx { at, top }),
            _ => Err(what()),
        }
    }
}

/// `title` / `description`: annotations, strings only.
fn metadata(kw: &Keywords<'_>, ctx: Ctx<'_>, name: &str) -> Result<Option<String>, SchemaError> {
    match kw.get(name) {
        None => Ok(None),
        Some(Bson::String(s)) => Ok(Some(s.clone())),
        Some(_) => Err(ctx.err(name, format!("$jsonSchema keyword '{name}' must be of type string"))),
    }
}

/// `bsonType` (BSON aliases) or `type` (JSON types), never both; `encrypt` implies binData
/// and excludes both.
fn parse_types(kw: &Keywords<'_>, ctx: Ctx<'_>) -> Result<Option<Types>, SchemaError> {
    let (json, bson, encrypt) = (kw.get("type"), kw.get("bsonType"), kw.get("encrypt"));
    match (json, bson, encrypt) {
        (Some(_), Some(_), _) => Err(ctx.err("bsonType", "Cannot specify both $jsonSchema keywords 'type' and 'bsonType'")),
        (Some(_), None, Some(_)) | (None, Some(_), Some(_)) => Err(ctx.err("encrypt", "$jsonSchema keyword 'encrypt' cannot be used in conjunction with 'type' or 'bsonType', 'encrypt' implies type 'bsonType::BinData'")),
        (Some(spec), None, None) => type_set(spec, ctx, "type", Aliases::Json).map(Some),
        (None, Some(spec), None) => type_set(spec, ctx, "bsonType", Aliases::Bson).map(Some),
        (None, None, Some(_)) => Ok(Some(Types { set: TypeSet::of(mongo_schema_core::bson::spec::ElementType::Binary), single: true, keyword: "encrypt", spec: Bson::Null })),
        (None, None, None) => Ok(None),
    }
}

/// A type keyword: a string or a non-empty array of unique strings, each a known alias.
pub(crate) fn type_set(spec: &Bson, ctx: Ctx<'_>, keyword: &'static str, table: Aliases) -> Result<Types, SchemaError> {
    let names: Vec<&Bson> = match spec {
        Bson::String(_) => vec![spec],
        Bson::Array(items) => items.iter().collect(),
        _ => {
            return Err(ctx.err(
                keyword,
                format!("$jsonSchema keyword '{keyword}' must be either a string or an array of strings"),
            ))
        }
    };
    let mut set = TypeSet::default();
    let mut seen: Vec<&str> = Vec::new();
    for name in names {
        let Bson::String(alias) = name else {
            return Err(ctx.err(keyword, format!("$jsonSchema keyword '{keyword}' array elements must be strings")));
        };
        set.insert(one_alias(alias, ctx, keyword, table)?);
        if seen.contains(&alias.as_str()) {
            return Err(ctx.err(keyword, format!("$jsonSchema keyword '{keyword}' has duplicate value: {alias}")));
        }
        seen.push(alias);
    }
    if seen.is_empty() {
        return Err(ctx.err(keyword, format!("$jsonSchema keyword '{keyword}' must name at least one type")));
    }
    Ok(Types { set, single: seen.len() == 1, keyword, spec: spec.clone() })
}

fn one_alias(alias: &str, ctx: Ctx<'_>, keyword: &str, table: Aliases) -> Result<TypeSet, SchemaError> {
    if alias == "integer" {
        return Err(ctx.err(keyword, "$jsonSchema type 'integer' is not currently supported."));
    }
    TypeSet::from_alias(alias, table).ok_or_else(|| ctx.err(keyword, format!("Unknown type name alias: {alias}")))
}

/// mongod's `parseIntegerElementToNonNegativeLong`: a number with an integral value that fits
/// a long and is not negative (used by every length and count keyword).
pub(crate) fn non_negative_long(value: &Bson, ctx: Ctx<'_>, keyword: &str) -> Result<u64, SchemaError> {
    let number =
        number_of(value).ok_or_else(|| ctx.err(keyword, format!("Expected a number in: {keyword}: {value}")))?;
    let whole = integral(number).ok_or_else(|| ctx.err(keyword, format!("Expected an integer: {keyword}: {value}")))?;
    u64::try_from(whole).map_err(|_| ctx.err(keyword, format!("Expected a positive number in: {keyword}: {value}")))
}

/// A length or count bound (`maxLength`, `minItems`, `maxProperties`, ...) and how it was written.
#[derive(Clone, Debug)]
pub(crate) struct Limit {
    pub(crate) n: u64,
    pub(crate) spec: Bson,
}

/// Parses the optional length or count keyword `keyword`.
pub(crate) fn limit(kw: &Keywords<'_>, ctx: Ctx<'_>, keyword: &str) -> Result<Option<Limit>, SchemaError> {
    let Some(value) = kw.get(keyword) else { return Ok(None) };
    let n = non_negative_long(value, ctx, keyword)?;
    Ok(Some(Limit { n, spec: value.clone() }))
}
