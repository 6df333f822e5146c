//! `schema review`: the standard's two launch checklists, the data-modelling one and the
//! connection-and-security one, and the query performance checklist as far as a
//! deployment shows it, run against a live deployment (feature `review`; the `schema
//! review` command needs `driver`).
//!
//! Every item of the lists ends as pass, warn, fail or "not checkable here" (with the
//! reason), with its evidence and its fix. The review only reads: `hello`,
//! `connectionStatus`, `listDatabases`, `listCollections`, `serverStatus` (optional),
//! a `find` on `config.mongos` (mongos only), one bounded `$sample` aggregation per
//! collection with `maxTimeMS`, and for the query items `listIndexes` and an `$indexStats`
//! aggregation per collection, `{profile: -1}` per database and `getCmdLineOpts`
//! (optional). It talks to the deployment through [`Server`], so tests
//! inject answers a deployment here cannot give (mongos, SRV).

mod connection;
mod data;
mod queries;
mod report;
mod source;
pub mod uri;

use mongo_schema_migrate::server::Server;
use mongo_schema_migrate::Model;

pub use report::{Item, List, Options, Report, ReviewError, Status};
pub use source::{scan_source, Scan, SourceFinding};

/// Runs the checklists (data, connection, queries). `server` is the deployment reached with `options.uri`;
/// `anonymous`, when the URI carries credentials, the same hosts reached without them
/// (to tell whether the deployment lets anyone in). `models` are the crate's registered
/// collections.
pub fn review(
    server: &mut dyn Server,
    anonymous: Option<&mut dyn Server>,
    models: &[Model],
    options: &Options,
) -> Result<Report, ReviewError> {
    let uri = uri::UriFacts::parse(&options.uri).map_err(ReviewError::Uri)?;
    let hello = server
        .run_command("admin", mongo_schema_core::bson::doc! { "hello": 1 })
        .map_err(|error| ReviewError::Command { command: "hello", error })?;
    let topology = connection::Topology::of(&hello);
    let (mut items, reviewed) = data::review_data(server, models, options);
    items.extend(connection::review_connection(server, anonymous, &uri, &topology, options));
    items.extend(queries::review_queries(server, &hello, &topology, &reviewed, models, options));
    Ok(Report { items })
}

/// Connects with `options.uri` (and, when it carries credentials, once more without
/// them) through the official driver, then runs [`review`].
pub fn review_uri(models: &[Model], options: &Options) -> Result<Report, ReviewError> {
    use mongo_schema_migrate::driver::MongoServer;
    uri::UriFacts::parse(&options.uri).map_err(ReviewError::Uri)?;
    let connect =
        |uri: &str| MongoServer::connect(uri).map_err(|error| ReviewError::Command { command: "connect", error });
    let mut server = connect(&options.uri)?;
    let mut anonymous = match anonymous_uri(&options.uri) {
        Some(uri) => Some(connect(&uri)?),
        None => None,
    };
    review(&mut server, anonymous.as_mut().map(|a| a as &mut dyn Server), models, options)
}

/// `uri` without its user and password and the `auth*` options, to ask whether the
/// deployment lets anyone in; `None` when the URI authenticates neither with a user nor
/// with an `authMechanism` (X.509 names no user in the URI).
pub fn anonymous_uri(uri: &str) -> Option<String> {
    let scheme_end = uri.find("://")? + 3;
    let authority_end = uri[scheme_end..].find(['/', '?']).map_or(uri.len(), |e| e + scheme_end);
    let at = uri[scheme_end..authority_end].rfind('@').map(|at| at + scheme_end);
    let tail = at.map_or(&uri[scheme_end..], |at| &uri[at + 1..]);
    let (base, query) = tail.split_once('?').unwrap_or((tail, ""));
    let is_auth = |o: &&str| o.split('=').next().unwrap_or_default().to_ascii_lowercase().starts_with("auth");
    let mechanism = query.split('&').any(|o| o.to_ascii_lowercase().starts_with("authmechanism="));
    if at.is_none() && !mechanism {
        return None;
    }
    let kept: Vec<&str> = query.split('&').filter(|o| !o.is_empty() && !is_auth(o)).collect();
    let head = &uri[..scheme_end];
    Some(match kept.is_empty() {
        true => format!("{head}{base}"),
        false => format!("{head}{base}?{}", kept.join("&")),
    })
}

#[cfg(test)]
mod tests {
    use super::anonymous_uri;

    #[test]
    fn the_anonymous_probe_drops_user_password_and_auth_options() {
        assert_eq!(
            anonymous_uri(
                "mongodb://app:p@ss@h1:1,h2/db_app?authSource=admin&replicaSet=rs0&authMechanism=SCRAM-SHA-256"
            ),
            Some("mongodb://h1:1,h2/db_app?replicaSet=rs0".to_owned())
        );
        assert_eq!(
            anonymous_uri("mongodb+srv://u:p@c.example.net/?authSource=admin"),
            Some("mongodb+srv://c.example.net/".to_owned())
        );
        assert_eq!(anonymous_uri("mongodb://h1/?replicaSet=rs0"), None);
        assert_eq!(anonymous_uri("mongodb://h1"), None);
        // X.509: the certificate names the user; the probe keeps TLS, drops the mechanism
        assert_eq!(
            anonymous_uri("mongodb://h1/?tls=true&authMechanism=MONGODB-X509&tlsCertificateKeyFile=/c.pem"),
            Some("mongodb://h1/?tls=true&tlsCertificateKeyFile=/c.pem".to_owned())
        );
    }
}
