//! The derive never panics: every input, however malformed or unusual, yields either an
//! expansion or compile errors.

use proc_macro2::TokenStream;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// Inputs that must expand without errors.
const VALID: &[&str] = &[
    "struct Unit;",
    "struct Pair(i32, String);",
    "struct Wrapper(bson::oid::ObjectId);",
    "struct Borrowed<'a> { name: &'a str }",
    "struct Generic<T, const N: usize> where T: Clone { items: [T; N] }",
    "struct Größe { straße: String }",
    "struct r#type { r#type: String }",
    "enum Plain { A, B = 3 }",
    "#[serde(tag = \"kind\")] enum Tagged { A { width: i32 }, B }",
    "#[serde(tag = \"t\", content = \"c\")] #[mongo(db = \"db_a\", collection = \"t_a\")] enum A { B(i32), C }",
    "struct E(#[mongo(enum_values = [1, -2, 3.0])] i32);",
    "struct E(#[mongo(enum_values = [1, \"a\", -2.5, true])] bson::Bson);",
    "#[mongo(db = \"db_x\", collection = \"t_x\", max_depth = 3, field_case = \"camelCase\", max_items_limit = 10)] struct X { #[mongo(max_items = 10)] items: Vec<i32> }",
    "struct Money { #[mongo(money, allow(money_double, reason = \"r\"))] credits: f64 }",
    "#[mongo(db = \"db_x\", collection = \"t_x\", timeseries(time_field = \"timestamp\", meta_field = \"meta\", granularity = \"hours\", expire_after_seconds = 60), index(keys(meta = 1, \"meta.site\" = -1, r#type = \"hashed\"), name = \"ix\", partial = r#\"{\"meta\": {\"$exists\": true}, \"number\": [1.5e3, null, \"\\\"\"]}\"#))] struct X { timestamp: bson::DateTime, meta: Meta, r#type: String }",
    "#[mongo(db = \"db_x\", collection = \"t_x\", shard_key(title = \"hashed\"), index(keys(title = \"text\")), index(keys(location = \"2dsphere\")))] struct X { title: String, location: Geo }",
    "#[serde(tag = \"kind\", deny_unknown_fields)] #[mongo(db = \"db_x\", collection = \"t_x\", index(keys(kind = 1, width = -1)))] enum X { A { #[serde(rename = \"_id\")] id: bson::oid::ObjectId, width: i32 }, B, C(Inner) }",
    "#[mongo(db = \"db_x\", collection = \"t_x\")] struct X { title: String, #[serde(flatten)] body: Body, #[serde(flatten)] other: Other }",
    "#[mongo(db = \"db_x\", collection = \"t_x\", capped(size = 4096, max = 10), index(keys(expire_time = 1)))] struct X { expire_time: bson::DateTime }",
    "struct X { #[mongo(max_items = 3, items(max_length = 3, pattern = \"^a$\", enum_values = [\"a\"]))] tags: Vec<String>, #[mongo(max_properties = 2, items(minimum = 1))] labels: HashMap<String, Alias>, #[mongo(max_items = 2, items(max_items = 2, items(max_length = 1)))] grid: Option<Vec<[String; 2]>> }",
    "struct X<T> { #[mongo(items(max_length = 3), max_length = 2)] value: T, #[mongo(bson_type = \"array\", items(minimum = 0))] raw_items: Raw }",
];

/// Inputs that must yield compile errors, not panics.
const INVALID: &[&str] = &[
    "",
    "fn main() {}",
    "struct",
    "union U { a: u32 }",
    "#[mongo] struct A;",
    "#[mongo = \"x\"] struct A;",
    "#[mongo(db = 5)] struct A { a: i32 }",
    "#[mongo(db = \"\", collection = \"\")] struct A { a: i32 }",
    "#[mongo(db = \"数据库\", collection = \"system.ñ\")] struct A { a: i32 }",
    "#[mongo(db = \"db_a\")] enum A { B }",
    "#[mongo(unknown)] struct A;",
    "struct A { #[mongo(minimum = 5, maximum = 1)] a: i32 }",
    "struct E(#[mongo(enum_values = [1, \"a\", -2.5, true])] i32);",
    "struct A { #[mongo(max_items = 3)] a: String }",
    "struct A { #[mongo(pattern = \"^a$\")] a: u64 }",
    "struct A { #[mongo(min_length = 10, max_length = 2)] a: String }",
    "struct A { #[mongo(exclusive_minimum = 1.0, exclusive_maximum = 1.0)] a: f64 }",
    "struct A { #[mongo(maximum = -1, exclusive_maximum = -2)] a: f64 }",
    "struct A { #[mongo(multiple_of = -0.5)] a: f64 }",
    "struct A { #[mongo(pattern = \"(\\\\\")] a: String }",
    "struct A { #[mongo(pattern = \"[\")] a: String }",
    "#[mongo(db = \"db_a\", collection = \"t_a\", index(keys(a = 1), ttl = 99999999999))] struct A { a: bson::DateTime }",
    "#[mongo(max_depth = 0)] struct A;",
    "#[mongo(max_depth = 99999999999999999999999999)] struct A;",
    "#[mongo(field_case = \"kebab-case\")] struct A;",
    "#[mongo(allow)] struct A;",
    "#[mongo(allow())] struct A;",
    "#[mongo(allow(reason = \"x\"))] struct A;",
    "#[mongo(allow(a::b, reason = \"x\"))] struct A;",
    "#[mongo(allow(system_db, reason = 5))] struct A;",
    "struct A { #[mongo(max_items = -1)] a: Vec<i32> }",
    "struct A { #[mongo(items)] a: Vec<i32> }",
    "struct A { #[mongo(items())] a: Vec<i32> }",
    "struct A { #[mongo(items = 3)] a: Vec<i32> }",
    "struct A { #[mongo(items(max_length = 3), items(max_length = 4))] a: Vec<String> }",
    "struct A { #[mongo(items(items(items(max_length = 3))))] a: Vec<Alias> }",
    "struct A { #[mongo(items(bson_type = \"int\", unknown))] a: Vec<i32> }",
    "struct A { #[mongo(items(max_length = 3))] a: i32 }",
    "enum A { #[mongo(items(max_length = 3))] B { b: Vec<String> } }",
    "struct A { #[mongo(max_items = 1, max_items = 2)] a: Vec<i32> }",
    "struct A { #[mongo(pattern = \"(\")] a: String }",
    "struct A { #[mongo(minimum = -)] a: i32 }",
    "struct A { #[mongo(enum_values = [1 2])] a: i32 }",
    "struct A { #[mongo(bson_type = \"float\")] a: f64 }",
    "struct A { #[mongo(date = \"yes\")] a: String }",
    "struct A { #[serde(with = \"my::helper\")] a: Foreign }",
    "#[serde(rename_all = \"bogus\")] struct A { a: i32 }",
    "struct A { #[serde(rename = 5)] a: i32 }",
    "struct A { #[serde(rename = \"UN\")] a: i32, #[serde(rename = \"$x\")] b: i32, #[serde(rename = \"\")] c: i32 }",
    "struct Node { children: Vec<Node>, parent: Option<Box<Self>> }",
    "enum E { #[serde(with = \"x\")] V(i32) }",
    "#[mongo(index)] struct A;",
    "#[mongo(index())] struct A;",
    "#[mongo(index(keys()))] struct A;",
    "#[mongo(index(keys(a)))] struct A { a: i32 }",
    "#[mongo(index(keys(a = )))] struct A { a: i32 }",
    "#[mongo(index(keys(\"\" = 1, \"a..b\" = 1, 5 = 1)))] struct A { a: i32 }",
    "#[mongo(index(keys(a = 1), partial = \"{\"))] struct A { a: i32 }",
    "#[mongo(index(keys(a = 1), partial = \"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[\\\\\"))] struct A { a: i32 }",
    "#[mongo(index(keys(a = 1), partial = \"\\\\\"))] struct A { a: i32 }",
    "#[mongo(index(keys(a = 1), ttl = 0, ttl = 99999999999999999999999))] struct A { a: i32 }",
    "#[mongo(db = \"db_a\", collection = \"t_a\", index(keys(a = 1), name = \"\"), index(keys(a = 1), name = \"*\"))] struct A { a: i32 }",
    "#[mongo(db = \"db_a\", collection = \"t_a\", timeseries(), timeseries(time_field = 5))] struct A { a: i32 }",
    "#[mongo(db = \"db_a\", collection = \"t_a\", timeseries(time_field = \"a.b\", meta_field = \"_id\"))] struct A { a: i32 }",
    "#[mongo(db = \"db_a\", collection = \"t_a\", shard_key(a = -1), shard_key(a = \"text\"))] struct A { a: i32 }",
    "#[mongo(db = \"db_a\", collection = \"t_a\", shard_key(_id = 1), capped(max = 3))] enum A { B }",
    "#[mongo(db = \"db_a\", collection = \"t_a\", index(keys(t = 1)))] struct A<T> { t: T }",
    "#[mongo(db = \"db_a\", collection = \"t_a\")] enum A { B(i32) }",
    "#[serde(tag = \"t\")] #[mongo(db = \"db_a\", collection = \"t_a\")] enum A { B { b: i32 }, #[serde(untagged)] C { c: i32 } }",
    "#[serde(tag = \"t\", untagged)] #[mongo(db = \"db_a\", collection = \"t_a\")] enum A { B { b: i32 } }",
];

fn expand(source: &str) -> String {
    let tokens: TokenStream = source.parse().unwrap_or_default();
    match catch_unwind(AssertUnwindSafe(|| crate::derive(tokens))) {
        Ok(output) => output.to_string(),
        Err(_) => panic!("the derive panicked on `{source}`"),
    }
}

#[test]
fn valid_inputs_expand() {
    for source in VALID {
        let output = expand(source);
        assert!(output.contains("MongoSchema") && !output.contains("compile_error"), "`{source}` expanded to {output}");
    }
}

#[test]
fn invalid_inputs_are_errors_not_panics() {
    for source in INVALID {
        let output = expand(source);
        assert!(output.contains("compile_error"), "`{source}` expanded without an error: {output}");
    }
}

/// The crate policy at its extremes (no prefixes, the widest limits, odd short names, every
/// rule waived) changes verdicts, never into a panic.
#[test]
fn extreme_policies_are_not_panics() {
    use crate::policy::{with, Policy};
    let mut wide = Policy { max_depth: u32::MAX, max_items_limit: u32::MAX as u64, ..Policy::default() };
    wide.conventions.db_prefix = String::new();
    wide.conventions.collection_prefix = String::new();
    wide.conventions.short_names = vec!["ß".to_owned(), "UN".to_owned(), "a-b".to_owned()];
    wide.conventions.money_words = vec!["x".to_owned()];
    wide.allow = mongo_schema_contract::rules::WAIVABLE_RULES.iter().map(|r| (r.to_string(), "r".to_owned())).collect();
    let narrow = Policy { max_depth: 1, max_items_limit: 1, ..Policy::default() };
    for policy in [wide, narrow] {
        for source in VALID.iter().chain(INVALID) {
            let tokens: TokenStream = source.parse().unwrap_or_default();
            let result = catch_unwind(AssertUnwindSafe(|| with(policy.clone(), || crate::derive_type(tokens))));
            assert!(result.is_ok(), "the derive panicked on `{source}` under {policy:?}");
        }
    }
}
