//! `schema check` without the command line: a model's validator run over documents that
//! already exist, in dumps and exports ([`plan`], [`check_input`]) or on a deployment
//! ([`live_check`]), the failures grouped by path and keyword ([`DryRunReport`]) with a fix
//! for each group where one is mechanical ([`suggest`]). The `schema` command adds only its
//! arguments, progress bars and printing.

mod engine;
mod error;
mod fix;
mod inputs;
#[cfg(feature = "live")]
mod live;
mod report;

pub use engine::{check_input, Progress};
pub use error::{CheckError, CheckErrorKind};
pub use fix::{suggest, Fix, BYPASS_NOTE};
pub use inputs::{dump_directory, plan, Plan, Target};
#[cfg(feature = "live")]
#[cfg_attr(docsrs, doc(cfg(any(feature = "cli", feature = "migrate"))))]
pub use live::{live_check, LiveCheck, LiveReport};
pub use report::{dry_run, DryRunReport, Group};

use mongo_schema_core::bson::Document;
use mongo_schema_validate::Validator;

/// What documents of `db.collection` are held to: the `$jsonSchema` of `validator` (the
/// `{"$jsonSchema": ...}` migrations install), or for a time-series collection (which
/// mongod lets have no validator, so a local check is the only one) the registered type's
/// own `$jsonSchema`.
pub fn schema_to_check(
    db: &str,
    collection: &str,
    validator: &Document,
    timeseries: bool,
) -> Result<Document, CheckError> {
    if let Some(schema) = mongo_schema_core::view::SchemaView::of_validator(validator) {
        return Ok(schema.document().clone());
    }
    let registered =
        mongo_schema_core::command::registered().into_iter().find(|r| r.db == db && r.collection == collection);
    match registered {
        Some(r) if timeseries => Ok((r.json_schema)()),
        _ => Err(CheckError::new(
            CheckErrorKind::NoValidator,
            format!("{db}.{collection}: the model has no `$jsonSchema` validator to check documents against"),
        )),
    }
}

/// The validator of `schema` for `db.collection`, naming the Rust field behind each path
/// when a registered type has exactly this schema.
pub fn validator_for(db: &str, collection: &str, schema: &Document) -> Result<Validator, CheckError> {
    let registered = mongo_schema_core::command::registered()
        .into_iter()
        .find(|r| r.db == db && r.collection == collection && (r.json_schema)() == *schema);
    let compiled = match registered {
        Some(r) => Validator::annotated(schema, r.name, r.fields),
        None => Validator::new(schema),
    };
    compiled.map_err(|e| {
        CheckError::new(
            CheckErrorKind::InvalidValidator,
            format!("{db}.{collection}: the validator does not compile: {e}"),
        )
    })
}

#[cfg(test)]
mod tests;
