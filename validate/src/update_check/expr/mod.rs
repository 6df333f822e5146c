//! Aggregation expressions as a pipeline update evaluates them (mongod 6.0): field paths,
//! `$$NOW`/`$$ROOT`/`$$CURRENT`/`$$REMOVE`, and the operators listed in [`Fun`]. A value is
//! `Option<Bson>`: `None` is mongod's "missing".
//!
//! Three steps, one file each, over the tree this root defines: `parse` reads an expression
//! document into an [`Expr`] (mongod refuses a malformed one before it reads a document),
//! `eval` evaluates it against a document, and `convert` is `$convert` and the `$to...`
//! operators, value by value. The arithmetic (`$add`, `$multiply`, `$subtract`) is the update
//! operators' (`super::arith`), and values print as the update's messages print them
//! (`super::format`).

mod convert;
mod eval;
mod parse;

use mongo_schema_core::bson::Bson;

use super::UpdateError;

pub(crate) use convert::truthy;
pub(crate) use eval::Env;
pub(crate) use parse::parse;

pub(crate) type Val = Option<Bson>;

#[derive(Clone, Debug)]
pub(crate) enum Var {
    Current,
    Root,
    Now,
    Remove,
    User(String),
}

/// The type `$convert` or a `$to...` operator converts to.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Target {
    Double,
    String,
    Int,
    Long,
    Decimal,
    Date,
    Bool,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Fun {
    Add,
    Subtract,
    Multiply,
    Concat,
    IfNull,
    Cond,
    MergeObjects,
    To(Target),
    Cmp(&'static str),
    And,
    Or,
    Not,
    Type,
    IsNumber,
    Trunc,
    Size,
    ArrayElemAt,
    ConcatArrays,
}

#[derive(Clone, Debug)]
pub(crate) enum Expr {
    Const(Bson),
    Path { var: Var, fields: Vec<String> },
    Object(Vec<(String, Expr)>),
    Array(Vec<Expr>),
    Call(Fun, Vec<Expr>),
    Convert { input: Box<Expr>, to: Box<Expr>, on_error: Option<Box<Expr>>, on_null: Option<Box<Expr>> },
    Map { input: Box<Expr>, var: String, body: Box<Expr> },
    Filter { input: Box<Expr>, var: String, cond: Box<Expr> },
}

fn unsupported(what: impl Into<String>) -> UpdateError {
    UpdateError::Unsupported(what.into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use mongo_schema_contract::codes::INVALID_PIPELINE_OPERATOR;
    use mongo_schema_contract::location_code;
    use mongo_schema_core::bson::{doc, Document};

    fn run(e: Bson, root: Document) -> Result<Val, UpdateError> {
        parse(&e, &[])?.eval(&Env { root: Bson::Document(root), now: 0, vars: Vec::new() })
    }

    #[test]
    fn arithmetic_widens_as_mongod() {
        let r = |e: Bson| run(e, doc! {}).unwrap();
        assert_eq!(r(Bson::Document(doc! { "$add": [i32::MAX, 1] })), Some(Bson::Int64(2_147_483_648)));
        assert_eq!(r(Bson::Document(doc! { "$add": [1, 1.5] })), Some(Bson::Double(2.5)));
        assert_eq!(r(Bson::Document(doc! { "$add": [i64::MAX, 1] })), Some(Bson::Double(9.223372036854776e18)));
        assert_eq!(r(Bson::Document(doc! { "$concat": ["a", null] })), Some(Bson::Null));
        assert_eq!(r(Bson::Document(doc! { "$subtract": [i32::MIN, 1] })), Some(Bson::Int64(-2_147_483_649)));
        assert_eq!(r(Bson::Document(doc! { "$multiply": [i64::MAX, 2] })), Some(Bson::Double(1.8446744073709552e19)));
    }

    #[test]
    fn refusals_word_for_word() {
        let e = run(Bson::Document(doc! { "$concat": ["x", 1] }), doc! {}).unwrap_err();
        assert_eq!(e, UpdateError::refused(location_code!(16702), "$concat only supports strings, not int"));
        let e = run(Bson::Document(doc! { "$foo": 1 }), doc! {}).unwrap_err();
        assert_eq!(e.server_code(), Some(INVALID_PIPELINE_OPERATOR));
        let e = run(Bson::Document(doc! { "$dateToString": 1 }), doc! {}).unwrap_err();
        assert!(matches!(e, UpdateError::Unsupported(_)));
    }
}
