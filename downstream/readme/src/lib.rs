//! README.md's examples, as its reader compiles them: each ```rust block of the README is a
//! doctest of this crate (`cargo test --doc`), with this crate's dependencies and no others.
//! A block that needs a server is `no_run` there: compiled, not run.
#![doc = include_str!("../../../README.md")]
