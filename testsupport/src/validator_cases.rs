//! Conformance cases for the local `$jsonSchema` validator, written from MongoDB's documented
//! behaviour; each cites its source. The differential test (`validator_differential.rs`) runs
//! every case against a real mongod too, so each expectation here is also checked against
//! the server.
//!
//! Sources (MongoDB manual):
//! - [KW]   reference/operator/query/jsonSchema — "Available Keywords" table and notes
//! - [OM]   reference/operator/query/jsonSchema — "Omissions" (unsupported keywords)
//! - [BT]   reference/bson-types — type aliases, "number"
//! - [CMP]  reference/bson-type-comparison-order — numbers compare across types
//! - [SV]   core/schema-validation/specify-json-schema — required, additionalProperties & _id
//! - [ENC]  core/csfle/reference/encryption-schemas — `encrypt` keyword
//! - [ERR]  core/schema-validation/handle-invalid-documents — errInfo shape (5.0+)

#![forbid(unsafe_code)]

use mongo_schema::bson::{self, doc, spec::BinarySubtype, Binary, Bson, Decimal128, Document};
use mongo_schema::Validator;

/// A schema with documents and the verdict mongod gives each.
pub struct Case {
    pub name: &'static str,
    pub source: &'static str,
    pub schema: Document,
    pub docs: Vec<(Document, bool)>,
}

/// A schema mongod refuses, and the schema path our error must name.
pub struct Refused {
    pub name: &'static str,
    pub source: &'static str,
    pub schema: Document,
    pub path: &'static str,
}

fn case(name: &'static str, source: &'static str, schema: Document, docs: Vec<(Document, bool)>) -> Case {
    Case { name, source, schema, docs }
}

fn dec(s: &str) -> Bson {
    Bson::Decimal128(s.parse::<Decimal128>().expect("decimal literal"))
}

fn bin(subtype: u8, bytes: Vec<u8>) -> Bson {
    Bson::Binary(Binary { subtype: BinarySubtype::from(subtype), bytes })
}

/// An FLE 1 blob: subtype byte, 16-byte key id, original BSON type, ciphertext.
fn fle(kind: u8, original_type: u8) -> Bson {
    let mut bytes = vec![kind];
    bytes.extend([7u8; 16]);
    bytes.push(original_type);
    bytes.extend([1u8; 16]);
    bin(6, bytes)
}

pub fn cases() -> Vec<Case> {
    let mut all = Vec::new();
    all.extend(type_cases());
    all.extend(scalar_cases());
    all.extend(array_cases());
    all.extend(object_cases());
    all.extend(logic_cases());
    all.extend(err_info_cases());
    all
}

// bson 2 regexes hold `String`s (bson 3 `CString`s): the conversion is fallible under bson 3
// only (this crate has no feature naming the major: the build's `mongo_schema::bson` is it)
#[allow(clippy::unnecessary_fallible_conversions)]
fn type_cases() -> Vec<Case> {
    vec![
        // [BT] every alias names its BSON type; [KW] bsonType accepts "all BSON type aliases".
        case(
            "bsonType aliases",
            "[BT] [KW] bsonType",
            doc! { "properties": {
                "d": {"bsonType": "double"}, "s": {"bsonType": "string"}, "o": {"bsonType": "object"},
                "a": {"bsonType": "array"}, "b": {"bsonType": "binData"}, "u": {"bsonType": "undefined"},
                "oid": {"bsonType": "objectId"}, "t": {"bsonType": "bool"}, "dt": {"bsonType": "date"},
                "n": {"bsonType": "null"}, "re": {"bsonType": "regex"}, "js": {"bsonType": "javascript"},
                "sym": {"bsonType": "symbol"}, "i": {"bsonType": "int"}, "ts": {"bsonType": "timestamp"},
                "l": {"bsonType": "long"}, "dec": {"bsonType": "decimal"}, "min": {"bsonType": "minKey"},
                "max": {"bsonType": "maxKey"}, "jsw": {"bsonType": "javascriptWithScope"},
            }},
            vec![
                (
                    doc! { "d": 1.5, "s": "x", "o": {}, "a": [], "b": bin(0, vec![1]), "u": Bson::Undefined,
                    "oid": bson::oid::ObjectId::from_bytes([1; 12]), "t": true,
                    "dt": bson::DateTime::from_millis(5), "n": Bson::Null,
                    "re": Bson::RegularExpression(bson::Regex { pattern: "a".try_into().unwrap(), options: "i".try_into().unwrap() }),
                    "js": Bson::JavaScriptCode("1".into()), "sym": Bson::Symbol("s".into()), "i": 1,
                    "ts": bson::Timestamp { time: 1, increment: 2 }, "l": 2i64, "dec": dec("1.5"),
                    "min": Bson::MinKey, "max": Bson::MaxKey,
                    "jsw": Bson::JavaScriptCodeWithScope(bson::JavaScriptCodeWithScope { code: "x".into(), scope: doc! {"x": 1} }) },
                    true,
                ),
                (doc! { "d": 1 }, false),
                (doc! { "i": 1.0 }, false),
                (doc! { "l": 1 }, false),
                (doc! { "s": Bson::Symbol("x".into()) }, false),
                (doc! { "n": Bson::Undefined }, false),
                (doc! { "dt": bson::Timestamp { time: 1, increment: 1 } }, false),
            ],
        ),
        // [BT] "number" matches int, long, double and decimal.
        case(
            "bsonType number",
            "[BT] number alias",
            doc! { "properties": { "n": {"bsonType": "number"} } },
            vec![
                (doc! { "n": 1 }, true),
                (doc! { "n": 1i64 }, true),
                (doc! { "n": 1.5 }, true),
                (doc! { "n": dec("2") }, true),
                (doc! { "n": "1" }, false),
                (doc! { "n": true }, false),
            ],
        ),
        // [KW] bsonType: "Accepts same string aliases used for the $type operator" — arrays too.
        case(
            "bsonType array of aliases",
            "[KW] bsonType array",
            doc! { "properties": { "v": {"bsonType": ["string", "null"]} } },
            vec![
                (doc! { "v": "a" }, true),
                (doc! { "v": Bson::Null }, true),
                (doc! { "v": 3 }, false),
                (doc! {}, true),
            ],
        ),
        // [KW] type: JSON types; "number" covers every numeric BSON type.
        case(
            "json type",
            "[KW] type",
            doc! { "properties": {
                "o": {"type": "object"}, "a": {"type": "array"}, "s": {"type": "string"},
                "b": {"type": "boolean"}, "n": {"type": "null"}, "num": {"type": "number"},
            }},
            vec![
                (doc! { "o": {}, "a": [1], "s": "", "b": false, "n": Bson::Null, "num": 1i64 }, true),
                (doc! { "num": dec("1") }, true),
                (doc! { "b": 0 }, false),
                (doc! { "a": {} }, false),
                (doc! { "s": Bson::Symbol("s".into()) }, false),
            ],
        ),
        // [KW] a root bsonType other than object matches no document.
        case(
            "root type excludes object",
            "[KW] bsonType at top level",
            doc! { "bsonType": "array" },
            vec![(doc! {}, false), (doc! { "a": 1 }, false)],
        ),
        case(
            "root type includes object",
            "[KW] bsonType at top level",
            doc! { "bsonType": ["object", "array"] },
            vec![(doc! { "a": 1 }, true)],
        ),
        // [KW] arrays are values of type array: keywords do not traverse into their elements.
        case(
            "no array traversal",
            "[KW] type applies to the field value",
            doc! { "properties": { "a": {"bsonType": "int"} } },
            vec![(doc! { "a": [1, 2] }, false), (doc! { "a": 1 }, true)],
        ),
    ]
}

fn scalar_cases() -> Vec<Case> {
    vec![
        // [KW] minLength/maxLength: strings only, counted in characters (code points).
        case(
            "string length in code points",
            "[KW] minLength/maxLength",
            doc! { "properties": { "s": {"minLength": 2, "maxLength": 3} } },
            vec![
                (doc! { "s": "ab" }, true),
                (doc! { "s": "ééé" }, true),
                (doc! { "s": "😀😀" }, true),
                (doc! { "s": "a" }, false),
                (doc! { "s": "abcd" }, false),
                (doc! { "s": "😀" }, false),
                (doc! { "s": 12345 }, true),
                (doc! { "s": ["a"] }, true),
            ],
        ),
        case(
            "length bounds as double and long",
            "[KW] maxLength: integer value",
            doc! { "properties": { "s": {"maxLength": 2.0, "minLength": 1i64} } },
            vec![(doc! { "s": "ab" }, true), (doc! { "s": "abc" }, false), (doc! { "s": "" }, false)],
        ),
        // [KW] pattern: strings only, PCRE, unanchored unless the pattern anchors.
        case(
            "pattern",
            "[KW] pattern",
            doc! { "properties": { "e": {"pattern": "^[a-z]+@[a-z]+\\.[a-z]{2,}$"}, "p": {"pattern": "b"} } },
            vec![
                (doc! { "e": "ada@example.org" }, true),
                (doc! { "e": "Ada@example.org" }, false),
                (doc! { "p": "abc" }, true),
                (doc! { "p": "xyz" }, false),
                (doc! { "p": 5 }, true),
                (doc! { "p": Bson::Symbol("abc".into()) }, true),
            ],
        ),
        // [KW] pattern runs in UTF-8 mode: `.` is one code point.
        case(
            "pattern utf8",
            "[KW] pattern (PCRE, UTF-8)",
            doc! { "properties": { "p": {"pattern": "^.$"} } },
            vec![(doc! { "p": "é" }, true), (doc! { "p": "😀" }, true), (doc! { "p": "ab" }, false)],
        ),
        // [KW] pattern: an anchored fixed-width code (decided without PCRE2 locally); `$` also
        // matches before a final newline, as in PCRE.
        case(
            "pattern fixed width",
            "[KW] pattern (PCRE)",
            doc! { "properties": { "s": {"pattern": "^[A-Z]{3}-[0-9]{4}$"}, "z": {"pattern": "^[0-9]{5}$"} } },
            vec![
                (doc! { "s": "SKU-0042" }, true),
                (doc! { "s": "SKU-0042\n" }, true),
                (doc! { "s": "SKU-0042\r\n" }, false),
                (doc! { "s": "SKU-0042\n\n" }, false),
                (doc! { "s": "\nSKU-0042" }, false),
                (doc! { "s": "sku-0042" }, false),
                (doc! { "s": "SKU-00425" }, false),
                (doc! { "s": "ÄKU-0042" }, false),
                (doc! { "s": "" }, false),
                (doc! { "s": Bson::Symbol("x".into()) }, true),
                (doc! { "z": "10117" }, true),
                (doc! { "z": "1011٣" }, false),
            ],
        ),
        // [KW] pattern: anchored patterns of ASCII sets with greedy quantifiers (decided by an
        // NFA locally, without PCRE2): counts at and past their bounds, `\d` and `\w` without
        // Unicode letters or digits, escaped punctuation, `$` before one final newline.
        case(
            "pattern linear",
            "[KW] pattern (PCRE)",
            doc! { "properties": {
                "e": {"pattern": "^[a-zA-Z0-9._%+-]+@[a-zA-Z0-9.-]+\\.[a-zA-Z]{2,}$"},
                "d": {"pattern": "^\\+?\\d{2,4}-?\\w*$"},
                "o": {"pattern": "^a?b*c{1,2}$"},
            } },
            vec![
                (doc! { "e": "ada.l+x@example.co.uk" }, true),
                (doc! { "e": "ada@example.c" }, false),
                (doc! { "e": "ada@example.com\n" }, true),
                (doc! { "e": "ada@example.com\r\n" }, false),
                (doc! { "e": "ada@@example.com" }, false),
                (doc! { "e": "adé@example.com" }, false),
                (doc! { "e": "@example.com" }, false),
                (doc! { "e": "a@b.cd" }, true),
                (doc! { "e": "a@b..cd" }, true),
                (doc! { "d": "+49-abc_1" }, true),
                (doc! { "d": "49" }, true),
                (doc! { "d": "4" }, false),
                (doc! { "d": "49123" }, true),
                (doc! { "d": "4٣" }, false),
                (doc! { "d": "12-é" }, false),
                (doc! { "d": "++12" }, false),
                (doc! { "d": "12-\n" }, true),
                (doc! { "o": "c" }, true),
                (doc! { "o": "abbbcc" }, true),
                (doc! { "o": "aac" }, false),
                (doc! { "o": "ccc" }, false),
                (doc! { "o": "" }, false),
            ],
        ),
        // [KW] integral bounds, exclusive or not, against every numeric type [CMP].
        case(
            "integral bounds",
            "[KW] minimum/maximum/exclusiveMaximum, [CMP]",
            doc! { "properties": { "n": {"minimum": 1, "maximum": 1000, "exclusiveMaximum": true}, "m": {"minimum": Bson::Int64(i64::MAX), "exclusiveMinimum": true} } },
            vec![
                (doc! { "n": 1 }, true),
                (doc! { "n": 0 }, false),
                (doc! { "n": 999_i64 }, true),
                (doc! { "n": 1000_i64 }, false),
                (doc! { "n": 999.5 }, true),
                (doc! { "n": 0.5 }, false),
                (doc! { "n": dec("999.99") }, true),
                (doc! { "n": dec("1000") }, false),
                (doc! { "m": i64::MAX }, false),
                (doc! { "m": 1e19 }, true),
                (doc! { "m": 1 }, false),
            ],
        ),
        // [KW] minimum/maximum compare across numeric types [CMP].
        case(
            "minimum maximum",
            "[KW] minimum/maximum, [CMP]",
            doc! { "properties": { "n": {"minimum": 0, "maximum": 150} } },
            vec![
                (doc! { "n": 0 }, true),
                (doc! { "n": 150i64 }, true),
                (doc! { "n": 150.5 }, false),
                (doc! { "n": -1 }, false),
                (doc! { "n": dec("149.99") }, true),
                (doc! { "n": dec("150.01") }, false),
                (doc! { "n": "200" }, true),
                (doc! { "n": f64::NAN }, false),
            ],
        ),
        case(
            "exclusive bounds",
            "[KW] exclusiveMinimum/exclusiveMaximum",
            doc! { "properties": { "n": {"minimum": 0, "exclusiveMinimum": true, "maximum": 10.5, "exclusiveMaximum": true} } },
            vec![
                (doc! { "n": 0 }, false),
                (doc! { "n": 1e-300 }, true),
                (doc! { "n": 10 }, true),
                (doc! { "n": 10.5 }, false),
                (doc! { "n": dec("10.4999999999") }, true),
            ],
        ),
        case(
            "exclusive false",
            "[KW] exclusiveMinimum false is inclusive",
            doc! { "properties": { "n": {"minimum": 5, "exclusiveMinimum": false} } },
            vec![(doc! { "n": 5 }, true), (doc! { "n": 4.999 }, false)],
        ),
        case(
            "long bounds exact",
            "[CMP] long/double compared exactly",
            doc! { "properties": { "n": {"maximum": 9007199254740993i64} } },
            vec![
                (doc! { "n": 9007199254740992.0 }, true),
                (doc! { "n": 9007199254740994.0 }, false),
                (doc! { "n": 9007199254740993i64 }, true),
                (doc! { "n": 9007199254740994i64 }, false),
            ],
        ),
        case(
            "decimal bound vs double",
            "[CMP] decimal and double",
            doc! { "properties": { "n": {"maximum": dec("0.1")} } },
            vec![
                (doc! { "n": 0.1 }, false),
                (doc! { "n": 0.09999 }, true),
                (doc! { "n": dec("0.1") }, true),
                (doc! { "n": dec("0.10000") }, true),
            ],
        ),
        // A double against a decimal at its exact binary value: 0.1 is
        // 0.1000000000000000055511151231257827021181583404541015625, so it is above its own
        // 34-digit rounding, below the next decimal, and equal to neither.
        case(
            "decimal bounds at a double's 34-digit rounding",
            "[CMP] decimal and double",
            doc! { "properties": {
                "above": {"minimum": dec("0.1000000000000000055511151231257827"), "exclusiveMinimum": true},
                "below": {"maximum": dec("0.1000000000000000055511151231257828"), "exclusiveMaximum": true},
                "neg": {"maximum": dec("-0.1000000000000000055511151231257827"), "exclusiveMaximum": true},
                "big": {"minimum": dec("1E+300"), "exclusiveMinimum": true},
            } },
            vec![
                (doc! { "above": 0.1, "below": 0.1, "neg": -0.1, "big": 1e300 }, true),
                (doc! { "above": dec("0.1000000000000000055511151231257827") }, false),
                (doc! { "below": dec("0.1000000000000000055511151231257828") }, false),
                (doc! { "neg": dec("-0.1000000000000000055511151231257827") }, false),
                (doc! { "big": dec("1E+300") }, false),
            ],
        ),
        case(
            "enum and uniqueItems: a double equals a decimal only at its exact value",
            "[KW] enum, uniqueItems, [CMP]",
            doc! { "properties": {
                "tenth": {"enum": [dec("0.1000000000000000055511151231257827"), dec("0.1")]},
                "half": {"enum": [dec("0.50")]},
                "pow": {"enum": [dec("1180591620717411303424")]},
                "list": {"uniqueItems": true},
            } },
            vec![
                (doc! { "tenth": 0.1 }, false),
                (doc! { "tenth": dec("0.1") }, true),
                (doc! { "half": 0.5, "pow": 1180591620717411303424.0 }, true),
                (doc! { "list": [0.1, dec("0.1000000000000000055511151231257827"), dec("0.1")] }, true),
                (doc! { "list": [1e300, dec("1E+300"), 1.0 / 3.0, dec("0.3333333333333333148296162562473910")] }, true),
                (doc! { "list": [0.5, dec("0.5000")] }, false),
                (doc! { "list": [dec("1180591620717411303424"), 1180591620717411303424.0] }, false),
            ],
        ),
        case(
            "NaN bounds",
            "[CMP] NaN",
            doc! { "properties": { "n": {"minimum": f64::NAN} } },
            vec![(doc! { "n": f64::NAN }, true), (doc! { "n": 1 }, false), (doc! { "n": f64::INFINITY }, false)],
        ),
        // [KW] multipleOf: numbers only; divisor positive.
        case(
            "multipleOf",
            "[KW] multipleOf",
            doc! { "properties": { "n": {"multipleOf": 3} } },
            vec![
                (doc! { "n": 9 }, true),
                (doc! { "n": 10 }, false),
                (doc! { "n": 9.0 }, true),
                (doc! { "n": 0 }, true),
                (doc! { "n": -6i64 }, true),
                (doc! { "n": dec("9.000") }, true),
                (doc! { "n": "7" }, true),
                (doc! { "n": f64::NAN }, false),
                (doc! { "n": f64::INFINITY }, false),
            ],
        ),
        case(
            "multipleOf decimal fraction",
            "[KW] multipleOf (decimal arithmetic)",
            doc! { "properties": { "n": {"multipleOf": 0.1} } },
            vec![
                (doc! { "n": 0.3 }, true),
                (doc! { "n": 0.35 }, false),
                (doc! { "n": dec("1.2") }, true),
                (doc! { "n": 7 }, true),
                (doc! { "n": dec("0.01") }, false),
            ],
        ),
        case(
            "multipleOf decimal divisor",
            "[KW] multipleOf",
            doc! { "properties": { "n": {"multipleOf": dec("0.25")} } },
            vec![
                (doc! { "n": 1.75 }, true),
                (doc! { "n": 1.8 }, false),
                (doc! { "n": 12345678901234i64 }, true),
                (doc! { "n": 12345678901234.3 }, false),
                (doc! { "n": 12345678901234.5 }, true),
                (doc! { "n": dec("1E+30") }, true),
            ],
        ),
        // [KW] the root schema ignores scalar keywords: documents are objects.
        case(
            "root scalar keywords ignored",
            "[KW] keywords apply by type",
            doc! { "minimum": 5, "maxLength": 1, "pattern": "^x$", "multipleOf": 2 },
            vec![(doc! { "a": 1 }, true)],
        ),
    ]
}

fn array_cases() -> Vec<Case> {
    vec![
        // [KW] minItems/maxItems: arrays only.
        case(
            "min max items",
            "[KW] minItems/maxItems",
            doc! { "properties": { "a": {"minItems": 1, "maxItems": 2} } },
            vec![
                (doc! { "a": [1] }, true),
                (doc! { "a": [1, 2] }, true),
                (doc! { "a": [] }, false),
                (doc! { "a": [1, 2, 3] }, false),
                (doc! { "a": "abc" }, true),
                (doc! { "a": {"x": 1} }, true),
            ],
        ),
        // [KW] uniqueItems: BSON equality; [CMP] 1 and 1.0 are equal; documents ignore field order.
        case(
            "uniqueItems",
            "[KW] uniqueItems, [CMP]",
            doc! { "properties": { "a": {"uniqueItems": true} } },
            vec![
                (doc! { "a": [1, 2, 3] }, true),
                (doc! { "a": [1, 1.0] }, false),
                (doc! { "a": [1, dec("1.00")] }, false),
                (doc! { "a": [{"x": 1, "y": 2}, {"y": 2, "x": 1}] }, false),
                (doc! { "a": [[1, 2], [2, 1]] }, true),
                (doc! { "a": ["a", "A"] }, true),
                (doc! { "a": [Bson::Null, Bson::Undefined] }, true),
                (doc! { "a": [f64::NAN, f64::NAN] }, false),
            ],
        ),
        // [KW] uniqueItems, [CMP]: near-duplicates across numeric types and nesting.
        case(
            "uniqueItems near-duplicates",
            "[KW] uniqueItems, [CMP]",
            doc! { "properties": { "a": {"uniqueItems": true} } },
            vec![
                (doc! { "a": [Bson::Int64(1), dec("1.0")] }, false),
                (doc! { "a": [2, Bson::Int64(3), 4.5, dec("1E0"), 1] }, false),
                (doc! { "a": [-0.0, dec("0E+3")] }, false),
                (doc! { "a": [0, dec("-0")] }, false),
                (doc! { "a": [f64::NAN, dec("NaN")] }, false),
                (doc! { "a": [f64::INFINITY, dec("Infinity")] }, false),
                (doc! { "a": [f64::INFINITY, f64::NEG_INFINITY] }, true),
                (doc! { "a": [0.1, dec("0.1")] }, true),
                (doc! { "a": [Bson::Int64((1 << 53) + 1), (1u64 << 53) as f64] }, true),
                (doc! { "a": [Bson::Int64(1 << 53), (1u64 << 53) as f64] }, false),
                (doc! { "a": [Bson::Int64(i64::MAX), 9_223_372_036_854_775_808.0] }, true),
                (doc! { "a": [dec("9007199254740993"), Bson::Int64((1 << 53) + 1)] }, false),
                (doc! { "a": ["a", "b", "c", "b"] }, false),
                (doc! { "a": [[1, [2]], [1, [2.0]]] }, false),
                (doc! { "a": [[1, [2]], [[2], 1]] }, true),
                (
                    doc! { "a": [
                        {"x": 1, "y": [1, {"p": 1, "q": 2}]},
                        {"y": [1.0, {"q": 2, "p": 1}], "x": Bson::Int64(1)},
                    ] },
                    false,
                ),
                (doc! { "a": [{"x": 1}, {"x": 1, "y": 1}] }, true),
                (doc! { "a": [{"x": 1}, {"y": 1}] }, true),
                (doc! { "a": ["1", 1] }, true),
            ],
        ),
        case(
            "uniqueItems false",
            "[KW] uniqueItems",
            doc! { "properties": { "a": {"uniqueItems": false} } },
            vec![(doc! { "a": [1, 1] }, true)],
        ),
        // [KW] items as a schema applies to every element.
        case(
            "items schema",
            "[KW] items",
            doc! { "properties": { "a": {"items": {"bsonType": "int", "minimum": 0}} } },
            vec![
                (doc! { "a": [1, 2] }, true),
                (doc! { "a": [] }, true),
                (doc! { "a": [1, -2] }, false),
                (doc! { "a": [1, "x"] }, false),
                (doc! { "a": 5 }, true),
            ],
        ),
        // [KW] items as an array: element i matches schema i; additionalItems after them.
        case(
            "items tuple",
            "[KW] items (array form), additionalItems",
            doc! { "properties": { "a": {"items": [{"bsonType": "string"}, {"bsonType": "int"}], "additionalItems": false} } },
            vec![
                (doc! { "a": ["x", 1] }, true),
                (doc! { "a": ["x"] }, true),
                (doc! { "a": [] }, true),
                (doc! { "a": [1, 1] }, false),
                (doc! { "a": ["x", 1, 2] }, false),
            ],
        ),
        case(
            "additionalItems schema",
            "[KW] additionalItems",
            doc! { "properties": { "a": {"items": [{"bsonType": "string"}], "additionalItems": {"bsonType": "bool"}} } },
            vec![(doc! { "a": ["x", true, false] }, true), (doc! { "a": ["x", 1] }, false)],
        ),
        // [KW] additionalItems has no effect unless items is an array.
        case(
            "additionalItems without tuple",
            "[KW] additionalItems",
            doc! { "properties": { "a": {"items": {"bsonType": "int"}, "additionalItems": false}, "b": {"additionalItems": false} } },
            vec![(doc! { "a": [1, 2, 3], "b": [1, 2] }, true)],
        ),
    ]
}

fn object_cases() -> Vec<Case> {
    vec![
        // [SV] required: the fields must exist (null counts as present).
        case(
            "required",
            "[SV] required",
            doc! { "required": ["a", "b"] },
            vec![(doc! { "a": 1, "b": Bson::Null }, true), (doc! { "a": 1 }, false), (doc! {}, false)],
        ),
        // [KW] properties apply only to fields present.
        case(
            "properties optional",
            "[KW] properties",
            doc! { "properties": { "a": {"bsonType": "string"} } },
            vec![
                (doc! {}, true),
                (doc! { "a": "x" }, true),
                (doc! { "a": 1 }, false),
                (doc! { "a": Bson::Null }, false),
            ],
        ),
        // [SV] additionalProperties: false also rejects _id unless listed.
        case(
            "additionalProperties false",
            "[SV] additionalProperties and _id",
            doc! { "properties": { "a": {} }, "additionalProperties": false },
            vec![(doc! { "a": 1 }, true), (doc! { "_id": 1, "a": 1 }, false), (doc! { "b": 1 }, false)],
        ),
        case(
            "additionalProperties schema",
            "[KW] additionalProperties (schema)",
            doc! { "properties": { "_id": {} }, "additionalProperties": {"bsonType": "int"} },
            vec![(doc! { "_id": "x", "a": 1, "b": 2 }, true), (doc! { "_id": 1, "a": "x" }, false)],
        ),
        // [KW] patternProperties: every pattern matching a name applies; others fall to additionalProperties.
        case(
            "patternProperties",
            "[KW] patternProperties",
            doc! { "patternProperties": { "^s_": {"bsonType": "string"}, "_n$": {"bsonType": "int"} }, "additionalProperties": false },
            vec![
                (doc! { "s_a": "x", "b_n": 1 }, true),
                (doc! { "s_n": "x" }, false),
                (doc! { "s_a": 1 }, false),
                (doc! { "other": 1 }, false),
            ],
        ),
        case(
            "patternProperties with properties",
            "[KW] patternProperties",
            doc! { "properties": { "s_fixed": {"bsonType": "string"} }, "patternProperties": { "^s_": {"minLength": 2} } },
            vec![(doc! { "s_fixed": "ab" }, true), (doc! { "s_fixed": "a" }, false), (doc! { "zzz": 1 }, true)],
        ),
        // [KW] minProperties/maxProperties count every field, _id included.
        case(
            "min max properties",
            "[KW] minProperties/maxProperties",
            doc! { "minProperties": 2, "maxProperties": 3, "properties": { "o": {"minProperties": 1} } },
            vec![
                (doc! { "_id": 1, "a": 2 }, true),
                (doc! { "_id": 1 }, false),
                (doc! { "_id": 1, "a": 1, "b": 2, "c": 3 }, false),
                (doc! { "_id": 1, "o": {} }, false),
                (doc! { "_id": 1, "o": 5 }, true),
            ],
        ),
        // [KW] dependencies, property form and schema form.
        case(
            "property dependencies",
            "[KW] dependencies",
            doc! { "dependencies": { "card": ["billing"] } },
            vec![
                (doc! {}, true),
                (doc! { "billing": 1 }, true),
                (doc! { "card": 1, "billing": 2 }, true),
                (doc! { "card": 1 }, false),
            ],
        ),
        case(
            "schema dependencies",
            "[KW] dependencies",
            doc! { "dependencies": { "card": { "required": ["billing"], "properties": { "billing": {"bsonType": "string"} } } } },
            vec![
                (doc! { "card": 1, "billing": "x" }, true),
                (doc! { "card": 1, "billing": 2 }, false),
                (doc! { "billing": 2 }, true),
            ],
        ),
        case(
            "nested dependencies",
            "[KW] dependencies",
            doc! { "properties": { "o": { "dependencies": { "a": ["b"] } } } },
            vec![(doc! { "o": { "a": 1 } }, false), (doc! { "o": { "a": 1, "b": 1 } }, true), (doc! { "o": 5 }, true)],
        ),
        // [KW] nested objects, three levels.
        case(
            "nested objects",
            "[KW] properties (nested)",
            doc! { "properties": { "a": { "bsonType": "object", "required": ["b"], "properties": { "b": { "properties": { "c": {"enum": [1, 2]} } } } } } },
            vec![
                (doc! { "a": { "b": { "c": 2 } } }, true),
                (doc! { "a": { "b": { "c": 3 } } }, false),
                (doc! { "a": {} }, false),
                (doc! { "a": [] }, false),
            ],
        ),
    ]
}

fn logic_cases() -> Vec<Case> {
    vec![
        // [KW] enum: BSON equality, numbers across types [CMP], documents without field order.
        case(
            "enum",
            "[KW] enum, [CMP]",
            doc! { "properties": { "e": {"enum": ["a", 1, {"x": 1, "y": 2}, [1, 2], Bson::Null]} } },
            vec![
                (doc! { "e": "a" }, true),
                (doc! { "e": 1.0 }, true),
                (doc! { "e": dec("1") }, true),
                (doc! { "e": 1i64 }, true),
                (doc! { "e": {"y": 2, "x": 1} }, true),
                (doc! { "e": [2, 1] }, false),
                (doc! { "e": [1, 2] }, true),
                (doc! { "e": Bson::Null }, true),
                (doc! { "e": "b" }, false),
                (doc! { "e": Bson::Undefined }, false),
            ],
        ),
        // [KW] enum at the root compares the whole document.
        case(
            "root enum",
            "[KW] enum at top level",
            doc! { "enum": [{"a": 1}, 5] },
            vec![(doc! { "a": 1 }, true), (doc! { "a": 1.0 }, true), (doc! { "a": 2 }, false)],
        ),
        case(
            "allOf anyOf oneOf not",
            "[KW] allOf/anyOf/oneOf/not",
            doc! { "properties": {
                "all": {"allOf": [{"minimum": 0}, {"maximum": 10}]},
                "any": {"anyOf": [{"bsonType": "string"}, {"bsonType": "int"}]},
                "one": {"oneOf": [{"minimum": 5}, {"maximum": 7}]},
                "not": {"not": {"bsonType": "string"}},
            }},
            vec![
                (doc! { "all": 5, "any": "x", "one": 10, "not": 1 }, true),
                (doc! { "all": 11 }, false),
                (doc! { "any": 1.5 }, false),
                (doc! { "one": 6 }, false),
                (doc! { "one": 1 }, true),
                (doc! { "not": "s" }, false),
            ],
        ),
        // [KW] title/description are annotations only.
        case(
            "annotations",
            "[KW] title/description",
            doc! { "title": "t", "description": "d", "properties": { "a": {"description": "x", "bsonType": "int"} } },
            vec![(doc! { "a": 1 }, true), (doc! { "a": "1" }, false)],
        ),
        // [ENC] encrypt: the value must be binData subtype 6; bsonType checks the blob header.
        case(
            "encrypt",
            "[ENC] encrypt",
            doc! { "properties": { "ssn": {"encrypt": {"bsonType": "string", "algorithm": "AEAD_AES_256_CBC_HMAC_SHA_512-Deterministic"}}, "any": {"encrypt": {}} } },
            vec![
                (doc! { "ssn": fle(1, 2) }, true),
                (doc! { "ssn": fle(2, 2) }, true),
                (doc! { "ssn": fle(1, 16) }, false),
                (doc! { "ssn": "123" }, false),
                (doc! { "any": bin(6, vec![9]) }, true),
                (doc! { "any": bin(0, vec![9]) }, false),
                (doc! {}, true),
            ],
        ),
    ]
}

/// Schemas whose failures exercise every shape of mongod's `errInfo`: the differential test
/// (`validator_errinfo.rs`) compares the whole `details` document with mongod 6.0.5's.
fn err_info_cases() -> Vec<Case> {
    vec![
        // [ERR] title and description of each subschema sit beside the entry that reports it.
        case(
            "errInfo: annotations at every level",
            "[ERR] schema annotations",
            doc! {
                "description": "root d", "title": "root t",
                "properties": {
                    "a": { "description": "ad", "title": "at", "minItems": 3, "items": { "title": "it", "bsonType": "int" } },
                    "t": { "items": [{ "title": "t0", "bsonType": "int" }, { "description": "t1", "bsonType": "int" }],
                           "additionalItems": { "title": "ai", "description": "aid", "bsonType": "int" } },
                    "m": { "title": "mt", "additionalProperties": { "description": "md", "bsonType": "int" } },
                    "p": { "patternProperties": { "^x": { "title": "px", "bsonType": "int" } } },
                    "l": { "allOf": [{ "title": "a0", "description": "d0", "bsonType": "string" }],
                           "anyOf": [{ "description": "y0", "bsonType": "string" }, { "title": "y1", "maxLength": 0 }],
                           "oneOf": [{ "title": "o0", "minimum": 0 }, { "description": "o1", "maximum": 5 }],
                           "not": { "title": "n", "bsonType": "int" } },
                    "d": { "dependencies": { "k": { "title": "dk", "required": ["j"] } } },
                },
            },
            vec![
                (doc! { "a": [1, "x", "y"] }, false),
                (doc! { "t": ["a", 2, 3, "c", "d"] }, false),
                (doc! { "m": { "k": "v", "j": 1, "z": "w" } }, false),
                (doc! { "p": { "x1": "s", "y": "t", "x2": "u" } }, false),
                (doc! { "l": 3 }, false),
                (doc! { "d": { "k": 1 } }, false),
                (doc! { "a": [1, 2, 3], "t": [1, 2, 3], "m": { "k": 1 } }, true),
                (doc! { "l": "" }, false),
            ],
        ),
        // [ERR] a required property that is missing is also run through its subschema: the
        // combinators that fail on a missing value explain it under `properties`.
        case(
            "errInfo: missing required properties under combinators",
            "[ERR] required with nested schemas",
            doc! {
                "required": ["a", "b", "c", "d", "e", "f", "g", "h"],
                "properties": {
                    "a": { "encrypt": {} },
                    "b": { "bsonType": "int", "title": "B" },
                    "c": { "enum": [1] },
                    "d": { "not": { "minimum": 1 } },
                    "e": { "allOf": [{ "bsonType": "int" }, { "minimum": 1 }, { "oneOf": [{ "minimum": 1 }, { "maximum": 1 }] }] },
                    "f": { "anyOf": [{ "bsonType": "int", "title": "F0" }, { "enum": [2] }] },
                    "g": { "minimum": 1, "description": "G" },
                    "h": { "bsonType": "object", "required": ["x"], "properties": { "x": { "bsonType": "int" } } },
                },
            },
            vec![(doc! {}, false), (doc! { "b": 1, "c": 1, "e": 1, "f": 1 }, false)],
        ),
        // [ERR] with a single stated type mongod drops the other types' keywords; with several
        // it keeps them.
        case(
            "errInfo: a single stated type drops other keywords",
            "[ERR] type and restriction keywords",
            doc! { "properties": {
                "b": { "bsonType": "array", "required": ["n"], "minLength": 3 },
                "c": { "bsonType": ["array", "string"], "required": ["n"], "minLength": 3 },
                "n": { "bsonType": "number", "minimum": 5, "maxItems": 0 },
            } },
            vec![
                (doc! { "b": {} }, false),
                (doc! { "b": "x" }, false),
                (doc! { "c": {} }, false),
                (doc! { "c": "x" }, false),
                (doc! { "n": [1] }, false),
                (doc! { "n": 1 }, false),
            ],
        ),
        // [ERR] `additionalProperties` comes before `patternProperties`, each pattern reports the
        // first property it matches that fails its schema, a schema the first failing property.
        case(
            "errInfo: allowed properties",
            "[ERR] additionalProperties and patternProperties",
            doc! {
                "properties": { "_id": {} },
                "patternProperties": { "^a": { "bsonType": "int" }, "b": { "bsonType": "int" } },
                "additionalProperties": { "bsonType": "string" },
            },
            vec![(doc! { "a1": "x", "a2": "y", "ab": "z", "c": 1, "d": 2 }, false), (doc! { "a1": 1, "c": "s" }, true)],
        ),
        // mongod 6.0 compiles `patternProperties` without PCRE's UTF mode (the name `é` is two
        // bytes: `^..$` matches it, `^.$` does not) and `pattern` with it (`^.$` matches "é").
        case(
            "patternProperties match bytes, pattern matches characters",
            "[KW] patternProperties / pattern (mongod 6.0.5's PCRE modes)",
            doc! {
                "patternProperties": { "^.$": { "bsonType": "int" }, "^..$": { "bsonType": "string" } },
                "properties": { "str": { "pattern": "^.$" }, "big": { "pattern": "^\\x{100}$" } },
            },
            vec![
                (doc! { "é": "x" }, true),
                (doc! { "é": 1 }, false),
                (doc! { "e": 1 }, true),
                (doc! { "e": "x" }, false),
                (doc! { "str": "é" }, true),
                (doc! { "str": "ab" }, false),
                (doc! { "big": "\u{100}" }, true),
                (doc! { "big": "A" }, false),
            ],
        ),
        // [ERR] at the root only documents can equal an `enum` value: with none, mongod's
        // expression is always false, and says so.
        case(
            "errInfo: root enum without documents",
            "[ERR] root enum",
            doc! { "enum": [0, "x"] },
            vec![(doc! {}, false), (doc! { "a": 1 }, false)],
        ),
    ]
}

pub fn refused() -> Vec<Refused> {
    let r = |name, source, schema, path| Refused { name, source, schema, path };
    vec![
        r("$ref", "[OM] $ref", doc! { "$ref": "#/definitions/x" }, "$ref"),
        // Byte by byte, a code point past 255 cannot be a character (mongod 6.0.5: "character
        // value in \x{} or \o{} is too large"); `pattern` (UTF mode) accepts it.
        r(
            "patternProperties code point past a byte",
            "[KW] patternProperties (mongod 6.0.5's PCRE modes)",
            doc! { "patternProperties": { "\\x{100}": {} } },
            "patternProperties.\\x{100}",
        ),
        r("$schema", "[OM] $schema", doc! { "$schema": "http://json-schema.org/draft-04/schema#" }, "$schema"),
        r("default", "[OM] default", doc! { "properties": { "a": {"default": 1} } }, "properties.a.default"),
        r("definitions", "[OM] definitions", doc! { "definitions": {} }, "definitions"),
        r("format", "[OM] format", doc! { "properties": { "a": {"format": "email"} } }, "properties.a.format"),
        r("id", "[OM] id", doc! { "id": "x" }, "id"),
        r("unknown keyword", "[KW] only listed keywords", doc! { "items": {"minimun": 1} }, "items.minimun"),
        r(
            "integer type",
            "[OM] type integer",
            doc! { "properties": { "a": {"type": "integer"} } },
            "properties.a.type",
        ),
        r(
            "unknown alias",
            "[BT] aliases",
            doc! { "properties": { "a": {"bsonType": "integer"} } },
            "properties.a.bsonType",
        ),
        r(
            "unknown alias 2",
            "[BT] aliases",
            doc! { "properties": { "a": {"bsonType": "str"} } },
            "properties.a.bsonType",
        ),
        r(
            "json type with bson alias",
            "[KW] type: JSON types only",
            doc! { "properties": { "a": {"type": "int"} } },
            "properties.a.type",
        ),
        r("type and bsonType", "[KW] type/bsonType", doc! { "type": "object", "bsonType": "object" }, "bsonType"),
        r("duplicate type", "[KW] bsonType", doc! { "bsonType": ["int", "int"] }, "bsonType"),
        r("empty type array", "[KW] bsonType", doc! { "bsonType": [] }, "bsonType"),
        r("required not array", "[KW] required", doc! { "required": "a" }, "required"),
        r("required empty", "[KW] required", doc! { "required": [] }, "required"),
        r("required non-string", "[KW] required", doc! { "required": ["a", 1] }, "required"),
        r("required duplicates", "[KW] required", doc! { "required": ["a", "a"] }, "required"),
        r(
            "negative maxLength",
            "[KW] maxLength: non-negative integer",
            doc! { "properties": { "a": {"maxLength": -1} } },
            "properties.a.maxLength",
        ),
        r(
            "fractional minItems",
            "[KW] minItems: integer",
            doc! { "properties": { "a": {"minItems": 1.5} } },
            "properties.a.minItems",
        ),
        r("string maxProperties", "[KW] maxProperties: integer", doc! { "maxProperties": "3" }, "maxProperties"),
        r(
            "non-numeric minimum",
            "[KW] minimum: number",
            doc! { "properties": { "a": {"minimum": "0"} } },
            "properties.a.minimum",
        ),
        r(
            "exclusiveMaximum alone",
            "[KW] exclusiveMaximum needs maximum",
            doc! { "properties": { "a": {"exclusiveMaximum": true} } },
            "properties.a.exclusiveMaximum",
        ),
        r(
            "exclusiveMinimum not bool",
            "[KW] exclusiveMinimum: boolean",
            doc! { "properties": { "a": {"minimum": 1, "exclusiveMinimum": 1} } },
            "properties.a.exclusiveMinimum",
        ),
        r(
            "multipleOf zero",
            "[KW] multipleOf: positive",
            doc! { "properties": { "a": {"multipleOf": 0} } },
            "properties.a.multipleOf",
        ),
        r(
            "multipleOf negative",
            "[KW] multipleOf: positive",
            doc! { "properties": { "a": {"multipleOf": -2} } },
            "properties.a.multipleOf",
        ),
        r(
            "pattern not string",
            "[KW] pattern: string",
            doc! { "properties": { "a": {"pattern": 1} } },
            "properties.a.pattern",
        ),
        r(
            "pattern invalid",
            "[KW] pattern: valid regex",
            doc! { "properties": { "a": {"pattern": "(["} } },
            "properties.a.pattern",
        ),
        r(
            "enum empty",
            "[KW] enum: at least one element",
            doc! { "properties": { "a": {"enum": []} } },
            "properties.a.enum",
        ),
        r(
            "enum duplicates",
            "[KW] enum: unique",
            doc! { "properties": { "a": {"enum": [1, 1.0]} } },
            "properties.a.enum",
        ),
        r("enum not array", "[KW] enum: array", doc! { "enum": 1 }, "enum"),
        r("properties not object", "[KW] properties: object", doc! { "properties": [] }, "properties"),
        r(
            "property not object",
            "[KW] properties values are schemas",
            doc! { "properties": { "a": 1 } },
            "properties.a",
        ),
        r(
            "additionalProperties bad",
            "[KW] additionalProperties: bool or object",
            doc! { "additionalProperties": 1 },
            "additionalProperties",
        ),
        r(
            "items bad",
            "[KW] items: object or array",
            doc! { "properties": { "a": {"items": 1} } },
            "properties.a.items",
        ),
        r(
            "items element bad",
            "[KW] items: array of schemas",
            doc! { "properties": { "a": {"items": [1]} } },
            "properties.a.items",
        ),
        r(
            "additionalItems bad",
            "[KW] additionalItems: bool or object",
            doc! { "properties": { "a": {"additionalItems": 1} } },
            "properties.a.additionalItems",
        ),
        r(
            "uniqueItems bad",
            "[KW] uniqueItems: boolean",
            doc! { "properties": { "a": {"uniqueItems": 1} } },
            "properties.a.uniqueItems",
        ),
        r("allOf empty", "[KW] allOf: non-empty array", doc! { "allOf": [] }, "allOf"),
        r("anyOf element", "[KW] anyOf: array of schemas", doc! { "anyOf": [1] }, "anyOf"),
        r("not not object", "[KW] not: object", doc! { "not": [] }, "not"),
        r("dependencies bad", "[KW] dependencies", doc! { "dependencies": { "a": 1 } }, "dependencies.a"),
        r("dependencies empty list", "[KW] dependencies", doc! { "dependencies": { "a": [] } }, "dependencies.a"),
        r("title not string", "[KW] title: string", doc! { "title": 1 }, "title"),
        r(
            "description not string",
            "[KW] description: string",
            doc! { "properties": { "a": {"description": 1} } },
            "properties.a.description",
        ),
        r(
            "encrypt with bsonType",
            "[ENC] encrypt implies binData",
            doc! { "properties": { "a": {"encrypt": {}, "bsonType": "binData"} } },
            "properties.a.encrypt",
        ),
        r(
            "encrypt not object",
            "[ENC] encrypt: object",
            doc! { "properties": { "a": {"encrypt": true} } },
            "properties.a.encrypt",
        ),
        r(
            "nested error path",
            "[KW] errors name the nested keyword",
            doc! { "properties": { "a": { "items": { "properties": { "b": {"maxItems": -3} } } } } },
            "properties.a.items.properties.b.maxItems",
        ),
    ]
}

/// Checks one case locally, returning a description of each disagreement.
pub fn check_locally(case: &Case) -> Vec<String> {
    let validator = match Validator::new(&case.schema) {
        Ok(v) => v,
        Err(e) => return vec![format!("{}: schema refused: {e}", case.name)],
    };
    let mut wrong = Vec::new();
    for (i, (doc, expected)) in case.docs.iter().enumerate() {
        let decoded = validator.validate(doc).is_ok();
        let raw = bson::RawDocumentBuf::try_from(doc).expect("encode");
        let by_bytes = validator.validate_raw(&raw).is_ok();
        if decoded != *expected || by_bytes != *expected {
            wrong.push(format!(
                "{} [{}] doc #{i} {doc}: expected {expected}, validate {decoded}, validate_raw {by_bytes}",
                case.name, case.source
            ));
        }
    }
    wrong
}
