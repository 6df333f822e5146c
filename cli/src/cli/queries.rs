//! `schema queries`: every registered `query!` with the index mongod gives it, per model the
//! indexes no query uses and the redundant ones; `--uri URI --explain` compares each verdict
//! with mongod's `explain` on that deployment. Exit 1 on an unwaived problem or a difference.

use super::shared::{Exit, Output};
use crate::queries::{catalogue, text_report};
use clap::Args;
use mongo_schema_core::query::{registered_queries, RegisteredQuery};
use std::io::Write;

/// `schema queries`'s flags.
#[derive(Args)]
pub(crate) struct QueriesArgs {
    #[arg(long, value_enum, default_value_t = Output::Text)]
    format: Output,
    /// With `--explain`: the deployment whose planner judges the verdicts (read only: it
    /// runs `explain`, which reads no document).
    #[arg(long, env = "MONGODB_URI", hide_env_values = true)]
    uri: Option<String>,
    /// Run `explain` (queryPlanner) of every registered query on `--uri` and list where
    /// mongod's winning plan differs from the verdict.
    #[arg(long, requires = "uri")]
    explain: bool,
}

pub(crate) fn run(args: QueriesArgs, out: &mut dyn Write) -> Result<i32, Exit> {
    let mut queries: Vec<&RegisteredQuery> = registered_queries().collect();
    queries.sort_by_key(|q| (q.shape.file, q.shape.line, q.shape.name));
    if args.explain {
        return explain(&queries, args.uri.as_deref().unwrap_or_default(), args.format, out);
    }
    let models = mongo_schema_core::command::registered();
    let found = catalogue(&models, &queries);
    match args.format {
        Output::Text => out.write_all(text_report(&found).as_bytes())?,
        Output::Json => writeln!(out, "{}", serde_json::to_string_pretty(&found).map_err(|e| Exit(2, e.to_string()))?)?,
    }
    Ok(i32::from(found.problems > 0))
}

#[cfg(feature = "driver")]
fn explain(queries: &[&RegisteredQuery], uri: &str, format: Output, out: &mut dyn Write) -> Result<i32, Exit> {
    use mongo_schema_migrate::driver::MongoServer;
    let mut server = MongoServer::connect(uri).map_err(|e| Exit(2, super::shared::chain(&e)))?;
    let found = crate::queries::explain_check(&mut server, queries);
    match format {
        Output::Text => {
            for d in &found {
                writeln!(out, "{} query `{}` ({}):", d.model, d.query, d.location)?;
                for line in &d.differences {
                    writeln!(out, "  {line}")?;
                }
            }
            writeln!(out, "{} of {} queries planned otherwise by mongod", found.len(), queries.len())?;
        }
        Output::Json => {
            let doc = serde_json::json!({ "queries": queries.len(), "differences": found });
            writeln!(out, "{}", serde_json::to_string_pretty(&doc).map_err(|e| Exit(2, e.to_string()))?)?;
        }
    }
    Ok(i32::from(!found.is_empty()))
}

#[cfg(not(feature = "driver"))]
fn explain(_: &[&RegisteredQuery], _: &str, _: Output, _: &mut dyn Write) -> Result<i32, Exit> {
    Err(Exit(
        2,
        "`schema queries --explain` talks to a deployment, which this binary was built without: turn on mongo-schema's \
         `driver` feature, then build the binary again"
            .to_owned(),
    ))
}
