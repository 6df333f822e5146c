//! `schema review`: the standard's launch checklists against a deployment (feature
//! `driver`), printed as a table per item or as JSON for CI; exit 1 on any fail.

use super::shared::{chain, Exit};
use crate::review::{review_uri, Options, Report};
use clap::{Args, ValueEnum};
use mongo_schema_migrate::Model;
use std::io::Write;
use std::path::PathBuf;

/// `schema review`'s flags.
#[derive(Args)]
pub(crate) struct ReviewArgs {
    /// The connection string the applications use; its password is never printed.
    #[arg(long, env = "MONGODB_URI", hide_env_values = true)]
    uri: String,
    /// Only these collections (`t_users` or `db_user_center.t_users`), comma-separated;
    /// all the user may read when absent.
    #[arg(long, value_delimiter = ',')]
    collections: Vec<String>,
    /// Documents sampled per collection (`$sample`).
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    sample: u32,
    /// `maxTimeMS` of each sampling aggregation.
    #[arg(long, default_value_t = 30_000, value_parser = clap::value_parser!(u32).range(1..))]
    max_time_ms: u32,
    /// The nesting limit (the standard's 5; a crate's lower `max_depth`).
    #[arg(long, default_value_t = mongo_schema_contract::rules::DEFAULT_MAX_DEPTH, value_parser = clap::value_parser!(u32).range(1..))]
    max_depth: u32,
    /// Application instances connecting with this URI (A in A × P × M).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    apps: Option<u32>,
    /// mongos nodes behind an SRV name (M), when config.mongos is not readable.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    mongos: Option<u32>,
    /// The instance's connection limit, when serverStatus is not readable.
    #[arg(long)]
    connection_limit: Option<u64>,
    /// Expected peak queries per second of one application (with --latency-ms: the
    /// recommended maxPoolSize).
    #[arg(long, requires = "latency_ms")]
    peak_qps: Option<f64>,
    /// Average database response time in milliseconds.
    #[arg(long, requires = "peak_qps")]
    latency_ms: Option<f64>,
    /// The application's sources and config files, scanned for hard-coded passwords.
    #[arg(long)]
    source: Option<PathBuf>,
    #[arg(long, value_enum, default_value_t = ReviewFormat::Table)]
    format: ReviewFormat,
}

#[derive(Clone, Copy, ValueEnum)]
enum ReviewFormat {
    /// One block per checklist item: verdict, evidence, fix.
    Table,
    /// `{"items": [{list, id, title, status, evidence, fix}], "summary": {...}}`.
    Json,
}

impl ReviewArgs {
    pub(crate) fn run(self, models: &[Model], out: &mut dyn Write) -> Result<i32, Exit> {
        let options = Options {
            uri: self.uri.clone(),
            collections: self.collections,
            sample: self.sample,
            max_time_ms: self.max_time_ms,
            max_depth: self.max_depth,
            apps: self.apps,
            mongos: self.mongos,
            connection_limit: self.connection_limit,
            peak_qps: self.peak_qps,
            latency_ms: self.latency_ms,
            source: self.source,
        };
        let report = review_uri(models, &options).map_err(|e| Exit(2, format!("cannot review: {}", chain(&e))))?;
        print(&report, self.format, out)
    }
}

fn print(report: &Report, format: ReviewFormat, out: &mut dyn Write) -> Result<i32, Exit> {
    match format {
        ReviewFormat::Table => write!(out, "{}", report.render_text())?,
        ReviewFormat::Json => {
            let text = serde_json::to_string_pretty(report).expect("the review's JSON has string keys only");
            writeln!(out, "{text}")?
        }
    }
    Ok(i32::from(report.failed()))
}
