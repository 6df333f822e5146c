//! The `$jsonSchema` keywords a `#[mongo(...)]` attribute (or a doc comment) sets: one
//! declaration gives the [`Keyword`] enum both sides use, the attribute key the derive
//! parses, the keyword name the runtime writes, and the kind of value each takes.
//!
//! The derive instantiates [`Keyword`] with owned values (`Keyword<String, Vec<Lit<String>>>`),
//! the runtime with static ones (`Keyword<&'static str, &'static [Lit<&'static str>]>`);
//! generated code spells a keyword as `_p::Keyword::{variant}(value)`.
//!
//! Adding a keyword: one line in the `keywords!` invocation below, and what the runtime
//! does with it when it is more than `key: value` (e.g. `exclusiveMinimum`, which also
//! writes `minimum`).

/// A numeric keyword value, as written in the attribute.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Num {
    /// An integer literal.
    Int(i64),
    /// A float literal.
    Float(f64),
}

/// A literal of `enum_values`; `S` is the string type.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Lit<S> {
    /// A string.
    Str(S),
    /// An integer.
    Int(i64),
    /// A float.
    Float(f64),
    /// A boolean.
    Bool(bool),
}

/// The kind of value a keyword takes, which says how the derive parses it and how the
/// runtime writes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Arg {
    /// A string literal: `title = "..."`.
    Str,
    /// A non-negative integer: `max_length = 50`, written as a count.
    Count,
    /// A number: `minimum = -1.5`.
    Num,
    /// `key` or `key = true|false`.
    Bool,
    /// A list of literals: `enum_values = ["a", 1]`.
    Lits,
}

/// A keyword's value, borrowed, whatever the keyword: what generic code (the derive's
/// token rendering, the runtime's writer) works on.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Value<'a, S, L> {
    /// [`Arg::Str`]
    Str(&'a S),
    /// [`Arg::Count`]
    Count(u64),
    /// [`Arg::Num`]
    Num(Num),
    /// [`Arg::Bool`]
    Bool(bool),
    /// [`Arg::Lits`]
    Lits(&'a L),
}

/// One row of the keyword table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Spec {
    /// The `#[mongo(...)]` key: `max_length`.
    pub attr: &'static str,
    /// The `$jsonSchema` keyword written: `maxLength`.
    pub json: &'static str,
    /// The [`Keyword`] variant, as generated code spells it: `MaxLength`.
    pub variant: &'static str,
    /// The value it takes.
    pub arg: Arg,
    /// The values it constrains: anywhere else mongod ignores it.
    pub applies: Applies,
}

/// The kind of value a keyword constrains: mongod ignores `maxItems` on a string, `pattern`
/// on a number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Applies {
    /// Any value (`bsonType`, `enum`, `title`, `description`).
    Any,
    /// Strings.
    String,
    /// Numbers (int, long, double, decimal).
    Number,
    /// Arrays.
    Array,
    /// Embedded documents.
    Document,
}

impl Applies {
    /// The kind, as a message says it: "a string".
    pub const fn noun(self) -> &'static str {
        match self {
            Applies::Any => "any value",
            Applies::String => "a string",
            Applies::Number => "a number",
            Applies::Array => "an array",
            Applies::Document => "a document",
        }
    }

    /// The attribute keys of the keywords that constrain this kind: `min_length, max_length, pattern`.
    pub fn attrs(self) -> String {
        KEYWORDS.iter().filter(|spec| spec.applies == self).map(|spec| spec.attr).collect::<Vec<_>>().join(", ")
    }

    /// A value of `kind` is constrained by the keywords of this kind (numbers: `int`,
    /// `long`, `double`, `decimal`). `Any` and `Mixed` (a value of no single kind) fit
    /// everything: nothing is known to be wrong.
    pub const fn fits(self, kind: BsonKind) -> bool {
        if matches!(kind, BsonKind::Any | BsonKind::Mixed) {
            return true;
        }
        match self {
            Applies::Any => true,
            Applies::String => matches!(kind, BsonKind::String),
            Applies::Number => matches!(kind, BsonKind::Int | BsonKind::Long | BsonKind::Double | BsonKind::Decimal),
            Applies::Array => matches!(kind, BsonKind::Array),
            Applies::Document => matches!(kind, BsonKind::Object),
        }
    }

    const fn same(self, other: Applies) -> bool {
        self as u8 == other as u8
    }
}

/// `value` fits a field of `kind`: an `enum_values` literal the type can hold (an `int`
/// holds integers in i32's range, a whole float compares equal to an integer).
pub const fn holds<S>(kind: BsonKind, value: &Lit<S>) -> bool {
    if matches!(kind, BsonKind::Any | BsonKind::Mixed) {
        return true;
    }
    let number = Applies::Number.fits(kind);
    match value {
        Lit::Str(_) => matches!(kind, BsonKind::String),
        Lit::Bool(_) => matches!(kind, BsonKind::Bool),
        Lit::Int(i) => match kind {
            BsonKind::Int => *i >= i32::MIN as i64 && *i <= i32::MAX as i64,
            _ => number,
        },
        Lit::Float(f) => match kind {
            BsonKind::Double | BsonKind::Decimal => true,
            // a whole number also compares equal to an integer
            BsonKind::Int | BsonKind::Long => *f == (*f as i64) as f64,
            _ => false,
        },
    }
}

/// The message of a keyword set on a value of a kind it does not constrain
/// (`max_length` on an `int`): `item` when it is set in `items(...)`. One text for the
/// derive's own check and the const check that reads a field's facts.
pub const fn wrong_kind(spec: &Spec, has: BsonKind, item: bool) -> crate::rules::ConstMessage {
    let mut m = crate::rules::ConstMessage::new().str("`").str(spec.attr).str("` applies to ").str(spec.applies.noun());
    m = m.str(if item { ", and the items of this field are `" } else { ", and this field's schema is `" });
    m = m.str(match has.alias() {
        Some(alias) => alias,
        None => "a value of no single type",
    });
    m = m
        .str("`: mongod would ignore it; remove it (the keywords that apply to ")
        .str(spec.applies.noun())
        .str(" are ");
    let mut i = 0;
    let mut first = true;
    while i < KEYWORDS.len() {
        if KEYWORDS[i].applies.same(spec.applies) {
            if !first {
                m = m.str(", ");
            }
            m = m.str(KEYWORDS[i].attr);
            first = false;
        }
        i += 1;
    }
    m = m.str(")");
    if !item && matches!(has, BsonKind::Array | BsonKind::Object) {
        m = m
            .str("; to constrain each item of an array or value of a map, set it in `items(...)`: `#[mongo(items(")
            .str(spec.attr)
            .str(" = ...))]`");
    }
    m
}

/// The message of an `enum_values` literal a value of `has` cannot hold.
pub const fn unheld(value: &Lit<&str>, has: BsonKind, item: bool) -> crate::rules::ConstMessage {
    let mut m = crate::rules::ConstMessage::new().str("`enum_values` lists ");
    m = match value {
        Lit::Str(s) => m.str("the string \"").str(s).str("\""),
        Lit::Bool(true) => m.str("`true`"),
        Lit::Bool(false) => m.str("`false`"),
        Lit::Int(i) if *i < 0 => m.str("the integer `-").number(i.unsigned_abs()).str("`"),
        Lit::Int(i) => m.str("the integer `").number(*i as u64).str("`"),
        Lit::Float(_) => m.str("a float"),
    };
    m = m.str(if item { ", which the items of this field (`" } else { ", which this field's type (`" });
    m.str(match has.alias() {
        Some(alias) => alias,
        None => "a value of no single type",
    })
    .str("`) cannot hold: no document could store it; list values of that type")
}

macro_rules! keywords {
    ($($(#[$doc:meta])* $variant:ident($ty:ty: $arg:ident) = $attr:literal => $json:literal on $applies:ident,)*) => {
        /// One `$jsonSchema` keyword from a `#[mongo(...)]` attribute or a doc comment. `S`
        /// is the string type, `L` the list of `enum_values` literals.
        #[derive(Debug, Clone, Copy, PartialEq)]
        pub enum Keyword<S, L> {
            $($(#[$doc])* $variant($ty),)*
        }

        /// Every keyword, in the order of [`Keyword`]'s variants (the order the derive lists the
        /// keys in its "unknown mongo attribute" message).
        pub const KEYWORDS: &[Spec] = &[
            $(Spec { attr: $attr, json: $json, variant: stringify!($variant), arg: Arg::$arg, applies: Applies::$applies },)*
        ];

        impl<S, L> Keyword<S, L> {
            /// The keyword's row in [`KEYWORDS`] and its value (a `const fn`: the derive's
            /// const checks read a field's keywords from its table).
            pub const fn parts(&self) -> (&'static Spec, Value<'_, S, L>) {
                let mut i = 0;
                $(
                    if let Keyword::$variant(value) = self {
                        return (&KEYWORDS[i], keywords!(@value $arg value));
                    }
                    i += 1;
                )*
                let _ = i;
                unreachable!()
            }

            /// The keyword of `spec` with `value`; `None` when the value is not of the
            /// kind `spec` takes.
            pub fn new(spec: &Spec, value: Value<'_, S, L>) -> Option<Self>
            where
                S: Clone,
                L: Clone,
            {
                $(
                    if spec.variant == stringify!($variant) {
                        return keywords!(@from $arg value).map(Keyword::$variant);
                    }
                )*
                None
            }
        }
    };
    (@value Str $v:ident) => { Value::Str($v) };
    (@value Count $v:ident) => { Value::Count(*$v) };
    (@value Num $v:ident) => { Value::Num(*$v) };
    (@value Bool $v:ident) => { Value::Bool(*$v) };
    (@value Lits $v:ident) => { Value::Lits($v) };
    (@from Str $v:ident) => { match $v { Value::Str(s) => Some(s.clone()), _ => None } };
    (@from Count $v:ident) => { match $v { Value::Count(n) => Some(n), _ => None } };
    (@from Num $v:ident) => { match $v { Value::Num(n) => Some(n), _ => None } };
    (@from Bool $v:ident) => { match $v { Value::Bool(b) => Some(b), _ => None } };
    (@from Lits $v:ident) => { match $v { Value::Lits(l) => Some(l.clone()), _ => None } };
}

keywords! {
    // Variant(value type: argument kind) = "attribute key" => "$jsonSchema keyword" on the kind it constrains
    /// `bsonType`: replaces the type's own (keeping `null` for an `Option`).
    BsonType(S: Str) = "bson_type" => "bsonType" on Any,
    /// `minLength`
    MinLength(u64: Count) = "min_length" => "minLength" on String,
    /// `maxLength`
    MaxLength(u64: Count) = "max_length" => "maxLength" on String,
    /// `pattern`: a PCRE regular expression.
    Pattern(S: Str) = "pattern" => "pattern" on String,
    /// `minimum`
    Minimum(Num: Num) = "minimum" => "minimum" on Number,
    /// `maximum`
    Maximum(Num: Num) = "maximum" => "maximum" on Number,
    /// `minimum` with draft 4's boolean `exclusiveMinimum: true`.
    ExclusiveMinimum(Num: Num) = "exclusive_minimum" => "exclusiveMinimum" on Number,
    /// `maximum` with draft 4's boolean `exclusiveMaximum: true`.
    ExclusiveMaximum(Num: Num) = "exclusive_maximum" => "exclusiveMaximum" on Number,
    /// `multipleOf`
    MultipleOf(Num: Num) = "multiple_of" => "multipleOf" on Number,
    /// `minItems`
    MinItems(u64: Count) = "min_items" => "minItems" on Array,
    /// `maxItems`
    MaxItems(u64: Count) = "max_items" => "maxItems" on Array,
    /// `uniqueItems`
    UniqueItems(bool: Bool) = "unique_items" => "uniqueItems" on Array,
    /// `minProperties`
    MinProperties(u64: Count) = "min_properties" => "minProperties" on Document,
    /// `maxProperties`
    MaxProperties(u64: Count) = "max_properties" => "maxProperties" on Document,
    /// `enum`
    Enum(L: Lits) = "enum_values" => "enum" on Any,
    /// `title`
    Title(S: Str) = "title" => "title" on Any,
    /// `description`, by default the doc comment.
    Description(S: Str) = "description" => "description" on Any,
}

use crate::bson::BsonKind;

/// The row of the `#[mongo(...)]` key `attr`.
pub fn by_attr(attr: &str) -> Option<&'static Spec> {
    KEYWORDS.iter().find(|spec| spec.attr == attr)
}

#[cfg(test)]
mod tests {
    use super::*;

    type Owned = Keyword<String, Vec<Lit<String>>>;

    #[test]
    fn every_row_builds_its_variant() {
        let s = String::from("x");
        let lits = vec![Lit::Str(String::from("a"))];
        for spec in KEYWORDS {
            let value = match spec.arg {
                Arg::Str => Value::Str(&s),
                Arg::Count => Value::Count(3),
                Arg::Num => Value::Num(Num::Int(3)),
                Arg::Bool => Value::Bool(true),
                Arg::Lits => Value::Lits(&lits),
            };
            let keyword = Owned::new(spec, value).expect(spec.attr);
            assert_eq!(keyword.parts().0, spec);
            assert!(format!("{keyword:?}").starts_with(&format!("{}(", spec.variant)));
            assert_eq!(by_attr(spec.attr), Some(spec));
        }
        assert!(Owned::new(&KEYWORDS[0], Value::Count(1)).is_none());
    }
}
