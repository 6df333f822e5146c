//! `schema review`: the standard's launch checklists against a deployment (feature
//! `driver`), printed as a table per item or as JSON for CI; exit 1 on any fail.

use super::{chain, Exit};
use crate::migrate::apply::Server;
use crate::migrate::driver::MongoServer;
use crate::migrate::Model;
use crate::review::{review, Options, Report};
use clap::{Args, ValueEnum};
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
    #[arg(long, default_value_t = 30_000)]
    max_time_ms: u32,
    /// The nesting limit (the standard's 5; a crate's lower `max_depth`).
    #[arg(long, default_value_t = mongo_schema_contract::rules::DEFAULT_MAX_DEPTH)]
    max_depth: u32,
    /// Application instances connecting with this URI (A in A × P × M).
    #[arg(long)]
    apps: Option<u32>,
    /// mongos nodes behind an SRV name, when config.mongos is not readable (M).
    #[arg(long)]
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
        let connect = |uri: &str| MongoServer::connect(uri).map_err(|e| Exit(2, format!("cannot connect: {}", chain(&e))));
        let mut server = connect(&self.uri)?;
        let mut anonymous = match without_credentials(&self.uri) {
            Some(uri) => Some(connect(&uri)?),
            None => None,
        };
        let report = review(&mut server, anonymous.as_mut().map(|a| a as &mut dyn Server), models, &options)
            .map_err(|e| Exit(2, chain(&e)))?;
        print(&report, self.format, out)
    }
}

fn print(report: &Report, format: ReviewFormat, out: &mut dyn Write) -> Result<i32, Exit> {
    match format {
        ReviewFormat::Table => write!(out, "{}", report.render_text())?,
        ReviewFormat::Json => {
            let text = serde_json::to_string_pretty(&report.to_json()).expect("a JSON value always serialises");
            writeln!(out, "{text}")?
        }
    }
    Ok(i32::from(report.failed()))
}

/// `uri` without its user and password (and the options that only make sense with them),
/// to ask whether the deployment lets anyone in; `None` when it has no credentials.
pub(crate) fn without_credentials(uri: &str) -> Option<String> {
    let scheme_end = uri.find("://")? + 3;
    let authority_end = uri[scheme_end..].find(['/', '?']).map_or(uri.len(), |e| e + scheme_end);
    let at = uri[scheme_end..authority_end].rfind('@')? + scheme_end;
    let (head, tail) = (&uri[..scheme_end], &uri[at + 1..]);
    let (base, query) = tail.split_once('?').unwrap_or((tail, ""));
    let kept: Vec<&str> = query
        .split('&')
        .filter(|o| {
            let key = o.split('=').next().unwrap_or_default().to_ascii_lowercase();
            !o.is_empty() && !key.starts_with("auth")
        })
        .collect();
    Some(match kept.is_empty() {
        true => format!("{head}{base}"),
        false => format!("{head}{base}?{}", kept.join("&")),
    })
}

#[cfg(test)]
mod tests {
    use super::without_credentials;

    #[test]
    fn the_anonymous_probe_drops_user_password_and_auth_options() {
        assert_eq!(
            without_credentials("mongodb://app:p@ss@h1:1,h2/db_app?authSource=admin&replicaSet=rs0&authMechanism=SCRAM-SHA-256"),
            Some("mongodb://h1:1,h2/db_app?replicaSet=rs0".to_owned())
        );
        assert_eq!(without_credentials("mongodb+srv://u:p@c.example.net/?authSource=admin"), Some("mongodb+srv://c.example.net/".to_owned()));
        assert_eq!(without_credentials("mongodb://h1/?replicaSet=rs0"), None);
    }
}
