//! What the commands' modules share: how a command ends early, an error with its causes,
//! the models a `--collection` selects, and `--format`.

/// An error and its causes as the command line prints them: the error, then each cause on a
/// line of its own (`  caused by: ...`).
pub(crate) fn chain(error: &dyn std::error::Error) -> String {
    said(error, None)
}

/// [`chain`] with a fix said after the error, before its causes.
pub(crate) fn chain_then(error: &dyn std::error::Error, fix: &str) -> String {
    said(error, Some(fix))
}

fn said(error: &dyn std::error::Error, fix: Option<&str>) -> String {
    let mut said = mongo_schema_migrate::server::causes(error);
    if let Some(fix) = fix {
        said[0] = format!("{}; {fix}", said[0]);
    }
    said.join("\n  caused by: ")
}
use clap::ValueEnum;
use mongo_schema_migrate::Model;
use std::io;

/// How a report is printed: `--format text` (for people, the default) or `json` (one
/// document, for scripts and CI).
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum Output {
    /// Lines for people.
    Text,
    /// One JSON document on standard output.
    Json,
}

/// How a command ends early: the exit code, and the message printed (after `schema: `)
/// before exiting.
pub(crate) struct Exit(pub(crate) i32, pub(crate) String);

impl From<io::Error> for Exit {
    fn from(e: io::Error) -> Self {
        Exit(2, chain(&e))
    }
}

/// The models `name` selects (`t_x` or `db_y.t_x`); all when `None`.
pub(crate) fn select(models: &[Model], name: Option<&str>) -> Result<Vec<Model>, Exit> {
    let Some(name) = name else { return Ok(models.to_vec()) };
    let found: Vec<Model> = models.iter().filter(|m| m.collection == name || m.namespace() == name).cloned().collect();
    let known = || models.iter().map(Model::namespace).collect::<Vec<_>>().join(", ");
    match found.len() {
        0 => Err(Exit(2, format!("no model for collection {name:?}; registered: {}", known()))),
        1 => Ok(found),
        _ => {
            Err(Exit(2, format!("{name:?} names a collection in several databases; write db.collection: {}", known())))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mongo_schema_migrate::apply::ApplyError;
    use mongo_schema_migrate::server::CommandError;
    use std::sync::Arc;

    #[test]
    fn each_cause_is_a_line_and_the_fix_follows_the_error() {
        let reset = std::io::Error::new(std::io::ErrorKind::ConnectionReset, "connection reset by peer");
        let cause = CommandError::Driver(Arc::new(reset));
        let failed = ApplyError::State { state_db: "db_app".into(), cause };
        let said = "cannot use the migration records db_app.t_schema_migration";
        let caused = "\n  caused by: the driver failed\n  caused by: connection reset by peer";
        assert_eq!(chain(&failed), format!("{said}{caused}"));
        assert_eq!(chain_then(&failed, "retry"), format!("{said}; retry{caused}"));
    }
}
