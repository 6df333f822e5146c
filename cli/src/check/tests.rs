//! Each way a check stops, told by its kind.

use super::*;
use crate::dump::{DumpError, DumpErrorKind};
use mongo_schema_core::bson::doc;
use std::error::Error as _;
use std::path::{Path, PathBuf};

fn kind<T: std::fmt::Debug>(result: Result<T, CheckError>) -> CheckErrorKind {
    result.expect_err("the check stops").kind()
}

fn check(path: &Path) -> Result<(), CheckError> {
    let validator = Validator::new(&doc! { "bsonType": "object" }).unwrap();
    check_input(&validator, "db_a.t_b", path, 1, &mut DryRunReport::new(1), &mut ())
}

#[test]
fn inputs_that_do_not_match_a_collection() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("users.bson");
    std::fs::write(&file, []).unwrap();
    let known = ["db_a.t_b".to_owned()];
    assert_eq!(kind(plan(&known, None, std::slice::from_ref(&file))), CheckErrorKind::NoMatch);

    let dump = dir.path().join("dump");
    std::fs::create_dir_all(dump.join("db_a")).unwrap();
    std::fs::write(dump.join("db_a/t_other.bson"), []).unwrap();
    let error = plan(&known, None, std::slice::from_ref(&dump)).unwrap_err();
    assert_eq!(error.kind(), CheckErrorKind::NoMatch, "{error}");
    assert!(
        error
            .to_string()
            .ends_with("no dumped collection has a registered model; dumped: db_a.t_other; registered: db_a.t_b"),
        "{error}"
    );

    std::fs::write(dump.join("db_a/t_other.bson.gz"), []).unwrap();
    assert_eq!(kind(dump_directory(&dump)), CheckErrorKind::DuplicateCollection);
    assert_eq!(kind(dump_directory(dir.path().join("absent").as_path())), CheckErrorKind::NotADump);
    let empty = dir.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    assert_eq!(kind(dump_directory(&empty)), CheckErrorKind::NotADump);
}

#[test]
fn inputs_that_cannot_be_read_or_hold_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let absent: PathBuf = dir.path().join("absent.bson");
    let error = check(&absent).unwrap_err();
    assert_eq!(error.kind(), CheckErrorKind::Unreadable);
    assert!(error.source().is_some_and(|e| e.is::<std::io::Error>()), "{error:?}");

    let empty = dir.path().join("empty.bson");
    std::fs::write(&empty, []).unwrap();
    assert_eq!(kind(check(&empty)), CheckErrorKind::Empty);

    // a whole document, then 3 bytes of the next one's length prefix
    let whole = mongo_schema_core::bson::RawDocumentBuf::try_from(&doc! { "_id": 1 }).unwrap();
    let bytes = [whole.as_bytes(), &[9, 0, 0]].concat();
    let cut = dir.path().join("cut.bson");
    std::fs::write(&cut, &bytes).unwrap();
    let error = check(&cut).unwrap_err();
    assert_eq!(error.kind(), CheckErrorKind::Unreadable);
    let cause = error.source().and_then(|e| e.downcast_ref::<DumpError>()).expect("the dump's error is the source");
    assert_eq!((cause.kind, cause.offset), (DumpErrorKind::Truncated, 14));
}

#[test]
fn models_without_a_validator_that_compiles() {
    let error = schema_to_check("db_none", "t_none", &doc! {}, false).unwrap_err();
    assert_eq!(error.kind(), CheckErrorKind::NoValidator, "{error}");
    let error = validator_for("db_none", "t_none", &doc! { "bsonType": "nope" }).map(|_| ()).unwrap_err();
    assert_eq!(error.kind(), CheckErrorKind::InvalidValidator, "{error}");
    assert!(error.to_string().starts_with("db_none.t_none: the validator does not compile: "), "{error}");
}
