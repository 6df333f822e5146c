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
    "struct E(#[mongo(enum_values = [1, \"a\", -2.5, true])] i32);",
    "#[mongo(db = \"db_x\", collection = \"t_x\", max_depth = 3, field_case = \"camelCase\", max_items_limit = 10)] struct X { #[mongo(max_items = 10)] items: Vec<i32> }",
    "struct Money { #[mongo(money, allow(money_double, reason = \"r\"))] credits: f64 }",
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
    "#[mongo(max_depth = 0)] struct A;",
    "#[mongo(max_depth = 99999999999999999999999999)] struct A;",
    "#[mongo(field_case = \"kebab-case\")] struct A;",
    "#[mongo(allow)] struct A;",
    "#[mongo(allow())] struct A;",
    "#[mongo(allow(reason = \"x\"))] struct A;",
    "#[mongo(allow(a::b, reason = \"x\"))] struct A;",
    "#[mongo(allow(system_db, reason = 5))] struct A;",
    "struct A { #[mongo(max_items = -1)] a: Vec<i32> }",
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
