//! The connection specifications (1 to 5) and the security self-check list: the URI as
//! written, the deployment as `hello`, `connectionStatus` and `serverStatus` show it.

use super::report::{Item, List, Options, Status};
use super::source;
use super::uri::{self, Access, Reach, UriFacts};
use mongo_schema_contract::codes::UNAUTHORIZED;
use mongo_schema_core::bson::{doc, Bson, Document};
use mongo_schema_migrate::server::{chain, Server};

/// Built-in roles that administer: a business application never needs them.
const ADMIN_ROLES: &[&str] = &[
    "root",
    "__system",
    "readAnyDatabase",
    "readWriteAnyDatabase",
    "userAdminAnyDatabase",
    "dbAdminAnyDatabase",
    "clusterAdmin",
    "clusterManager",
    "clusterMonitor",
    "hostManager",
    "backup",
    "restore",
    "dbOwner",
    "dbAdmin",
    "userAdmin",
    "enableSharding",
    "directShardOperations",
];

/// What kind of deployment answered, from `hello`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Topology {
    /// mongos (`msg: "isdbgrid"`).
    Mongos,
    /// A replica set member: the set's name and its members.
    ReplicaSet { name: String, members: Vec<String> },
    /// A single server.
    Standalone,
}

impl Topology {
    pub(super) fn of(hello: &Document) -> Self {
        if hello.get_str("msg").is_ok_and(|m| m == "isdbgrid") {
            return Topology::Mongos;
        }
        match hello.get_str("setName") {
            Ok(name) => {
                let members = ["hosts", "passives"]
                    .iter()
                    .filter_map(|k| hello.get_array(k).ok())
                    .flatten()
                    .filter_map(Bson::as_str)
                    .map(str::to_owned)
                    .collect();
                Topology::ReplicaSet { name: name.to_owned(), members }
            }
            Err(_) => Topology::Standalone,
        }
    }

    pub(super) fn describe(&self) -> String {
        match self {
            Topology::Mongos => "a sharded cluster (mongos)".to_owned(),
            Topology::ReplicaSet { name, members } => {
                format!("replica set `{name}` of {} ({})", members_of(members.len()), members.join(", "))
            }
            Topology::Standalone => "a standalone mongod".to_owned(),
        }
    }
}

/// `1 data-bearing member`, `3 data-bearing members`.
fn members_of(n: usize) -> String {
    format!("{n} data-bearing member{}", if n == 1 { "" } else { "s" })
}

pub(super) fn review_connection(
    server: &mut dyn Server,
    anonymous: Option<&mut dyn Server>,
    uri: &UriFacts,
    topology: &Topology,
    options: &Options,
) -> Vec<Item> {
    let status = server.run_command("admin", doc! { "connectionStatus": 1, "showPrivileges": true });
    let auth_info = status.as_ref().ok().and_then(|s| s.get_document("authInfo").ok()).cloned().unwrap_or_default();
    let auth_on = auth_enforced(server, anonymous);
    let server_status = server_status(server);
    vec![
        hosts_item(uri, topology),
        auth_source_item(uri),
        replica_set_item(uri, topology),
        retries_item(uri),
        write_concern_item(uri),
        pooling_item(&server_status),
        pool_item(server, &server_status, uri, topology, options),
        read_preference_item(uri),
        auth_item(&auth_on),
        privileges_item(&auth_info, &auth_on),
        password_item(uri),
        exposure_item(uri),
        security_group_item(),
        tls_item(uri),
        source_item(options),
    ]
}

const CONNECTION: List = List::Connection;

/// Whether the deployment refuses clients without credentials: `Ok(true)` when a
/// credential-less `listDatabases` is refused as unauthorised.
fn auth_enforced(server: &mut dyn Server, anonymous: Option<&mut dyn Server>) -> Result<bool, String> {
    let probe: &mut dyn Server = match anonymous {
        Some(anonymous) => anonymous,
        None => server,
    };
    match probe.run_command("admin", doc! { "listDatabases": 1, "nameOnly": true }) {
        Ok(_) => Ok(false),
        Err(e) if e.is(UNAUTHORIZED) => Ok(true),
        Err(e) => Err(chain(&e)),
    }
}

// Spec 1.1: no single point. A seed list of every member (or SRV) lets the driver find
// the new primary after a failover.
fn hosts_item(uri: &UriFacts, topology: &Topology) -> Item {
    let mut item =
        Item::new(CONNECTION, "uri_hosts", "Spec 1: high-availability address (several hosts or mongodb+srv://)");
    let hosts = uri.hosts.join(", ");
    item.evidence.push(format!("the deployment is {}", topology.describe()));
    if uri.direct_connection == Some(true) {
        item.note(Status::Fail, "directConnection=true: the driver talks to one server and never follows a failover");
    }
    match topology {
        _ if uri.srv => item.note(Status::Pass, format!("mongodb+srv://{hosts}: DNS lists the hosts")),
        Topology::Standalone => {
            item.note(Status::Fail, format!("{hosts}: a standalone server has no failover at all"))
        }
        Topology::Mongos if uri.load_balanced == Some(true) => {
            item.note(Status::Pass, format!("{hosts}: loadBalanced=true, a load balancer in front of mongos"))
        }
        Topology::Mongos if uri.hosts.len() == 1 => item.note(
            Status::Warn,
            format!("{hosts}: one mongos address: fine when it is a load balancer's VIP, a single point when it is one mongos"),
        ),
        Topology::Mongos => item.note(Status::Pass, format!("{} mongos addresses: {hosts}", uri.hosts.len())),
        Topology::ReplicaSet { members, .. } if uri.hosts.len() == 1 => {
            item.note(Status::Fail, format!("one host ({hosts}) for {}: if it is down, no client starts", members_of(members.len())))
        }
        Topology::ReplicaSet { members, .. } => {
            let missing: Vec<&String> = members.iter().filter(|m| !uri.hosts.contains(m)).collect();
            match missing.is_empty() {
                true => item.note(Status::Pass, format!("{} hosts: {hosts}", uri.hosts.len())),
                false => item.note(Status::Warn, format!("{} hosts ({hosts}); members not in the URI: {}", uri.hosts.len(), missing.iter().map(|m| m.as_str()).collect::<Vec<_>>().join(", "))),
            }
        }
    }
    item.fix("list every member of the replica set (or every mongos, or the load balancer's address) in the URI, or use `mongodb+srv://`; deploy a replica set, never a standalone server, in production")
}

// Spec 1.2: `authSource` named, so authentication never depends on the path's database.
fn auth_source_item(uri: &UriFacts) -> Item {
    let mut item = Item::new(CONNECTION, "auth_source", "Spec 1: authSource in the URI");
    match &uri.auth_source {
        Some(source) => item.note(Status::Pass, format!("authSource={source}")),
        None => item.note(Status::Fail, "no authSource: the driver authenticates against the URI's database, or admin"),
    }
    item.fix("add `authSource=admin` (users created in the console), or the database the user was created in")
}

// Spec 1.3: `replicaSet` names the set, so the driver follows the primary after a failover.
fn replica_set_item(uri: &UriFacts, topology: &Topology) -> Item {
    let mut item = Item::new(CONNECTION, "replica_set", "Spec 1: replicaSet for a replica set");
    match (topology, &uri.replica_set) {
        (Topology::ReplicaSet { name, .. }, Some(given)) if given == name => {
            item.note(Status::Pass, format!("replicaSet={given}, the set's name"))
        }
        (Topology::ReplicaSet { name, .. }, Some(given)) => {
            item.note(Status::Fail, format!("replicaSet={given}, but the set is named `{name}`"))
        }
        (Topology::ReplicaSet { name, .. }, None) if uri.srv => item.note(
            Status::Warn,
            format!("no replicaSet in the URI (the set is `{name}`); SRV may supply it in a TXT record"),
        ),
        (Topology::ReplicaSet { name, .. }, None) => {
            item.note(Status::Fail, format!("no replicaSet in the URI, though the deployment is replica set `{name}`"))
        }
        (other, _) => item.note(Status::Pass, format!("not a replica set ({})", other.describe())),
    }
    item.fix("add `replicaSet=<the set's name>` (hello's setName) to the URI")
}

// Spec 1.4: retries ride out elections and network blips.
fn retries_item(uri: &UriFacts) -> Item {
    let mut item = Item::new(CONNECTION, "retries", "Spec 1: retryWrites=true and retryReads=true");
    for (name, value) in [("retryWrites", uri.retry_writes), ("retryReads", uri.retry_reads)] {
        match value {
            Some(true) => item.note(Status::Pass, format!("{name}=true")),
            Some(false) => item.note(Status::Fail, format!("{name}=false: an election fails the operation")),
            None => item.note(
                Status::Warn,
                format!("{name} not in the URI (current drivers default to true; older ones and other tools do not)"),
            ),
        }
    }
    item.fix("append `retryWrites=true&retryReads=true`")
}

// Key parameters: `w=majority` for core business, so an acknowledged write survives a
// failover.
fn write_concern_item(uri: &UriFacts) -> Item {
    let mut item = Item::new(CONNECTION, "write_concern", "Spec 1: w=majority for core business");
    match uri.w.as_deref() {
        Some("majority") => item.note(Status::Pass, "w=majority"),
        Some(w) => item.note(
            Status::Fail,
            format!("w={w}: a write acknowledged by fewer than a majority can be rolled back after a failover"),
        ),
        None => item.note(
            Status::Warn,
            "w not in the URI: the server's default applies (majority since MongoDB 5.0, but 1 with an arbiter)",
        ),
    }
    item.fix(
        "append `w=majority` (a service that is not core business may keep a weaker concern and accept this warning)",
    )
}

/// Connections opened per second since start above which short-lived connections are
/// likely: a pooled application opens its pool once, one that connects per request opens
/// one per request (the standard's PHP story: thousands a second at peak).
const CHURN_PER_SECOND: f64 = 10.0;

// Spec 2: long-lived pooled connections. An application's code is not visible, but the
// server counts the connections it has opened since it started.
fn pooling_item(status: &Result<Document, String>) -> Item {
    let title = "Spec 2: connection pools (long-lived connections), no short connections";
    let mut item = Item::new(CONNECTION, "connection_pool_reuse", title);
    let code = "whether each application creates one client at startup and shares it (PHP-FPM, serverless: through a pooling proxy) is in its code";
    let Ok(connections) = status.as_ref().map(|s| (s.get_document("connections").ok().cloned(), count(s, "uptime")))
    else {
        item.note(
            Status::NotCheckable,
            format!(
                "{code}; the connection counters are not readable either ({})",
                status.as_ref().err().map_or("", String::as_str)
            ),
        );
        return item.fix("create one client per application at startup and share it (PHP-FPM and serverless: put a pooling proxy in front)");
    };
    let (Some(connections), uptime) = connections else {
        item.note(Status::NotCheckable, format!("{code}; serverStatus has no connection counters here"));
        return item;
    };
    let created = count(&connections, "totalCreated");
    let rate = created as f64 / uptime.max(1) as f64;
    let line = format!(
        "{created} connections opened in {uptime} s since start ({rate:.2} per second), {} open now",
        count(&connections, "current")
    );
    match rate > CHURN_PER_SECOND {
        true => item.note(
            Status::Warn,
            format!("{line}: more than {CHURN_PER_SECOND} a second, as connecting per request does"),
        ),
        false => item.note(Status::NotCheckable, format!("{line}: no sign of connecting per request; {code}")),
    }
    item.fix("create one client per application at startup and share it (PHP-FPM and serverless: put a pooling proxy in front)")
}

/// The mongos count: `--mongos`, else mongos that pinged `config.mongos` in the last 10 minutes.
fn mongos_count(server: &mut dyn Server, options: &Options) -> Result<(u32, String), String> {
    if let Some(m) = options.mongos {
        return Ok((m, "--mongos".to_owned()));
    }
    let since = mongo_schema_core::bson::DateTime::from_millis(
        mongo_schema_core::bson::DateTime::now().timestamp_millis() - 600_000,
    );
    let command = doc! { "find": "mongos", "filter": { "ping": { "$gte": since } }, "projection": { "_id": 1 }, "batchSize": 10_000 };
    let reply = server.run_command("config", command).map_err(|e| format!("config.mongos: {}", chain(&e)))?;
    let batch = reply.get_document("cursor").and_then(|c| c.get_array("firstBatch")).map_err(|e| e.to_string())?;
    let names: Vec<String> =
        batch.iter().filter_map(|d| d.as_document()?.get_str("_id").ok().map(str::to_owned)).collect();
    Ok((names.len() as u32, format!("config.mongos, pinged in the last 10 minutes: {}", names.join(", "))))
}

/// How the applications' pools reach the deployment, and the evidence for it.
fn access(
    server: &mut dyn Server,
    uri: &UriFacts,
    topology: &Topology,
    options: &Options,
) -> Result<(Access, String), String> {
    if *topology != Topology::Mongos || uri.load_balanced == Some(true) {
        return Ok((Access::Single, "A × P: one pool per application toward the primary".to_owned()));
    }
    if uri.srv {
        let (m, from) = mongos_count(server, options)?;
        return Ok((
            Access::PerMongos(m.max(1)),
            format!("A × P × M: SRV gives each application a pool per mongos; M = {m} ({from})"),
        ));
    }
    match uri.hosts.len() {
        1 => Ok((Access::Single, "A × P: one address in front of mongos (a load balancer) gets one pool".to_owned())),
        m => Ok((Access::PerMongos(m as u32), format!("A × P × M: every mongos in the URI gets a pool; M = {m}"))),
    }
}

/// The instance's connection limit: `--connection-limit`, else serverStatus's current +
/// available.
fn connection_limit(status: &Result<Document, String>, options: &Options) -> Result<(u64, String), String> {
    if let Some(limit) = options.connection_limit {
        return Ok((limit, "--connection-limit".to_owned()));
    }
    let connections = status.as_ref().map_err(Clone::clone)?.get_document("connections").map_err(|e| e.to_string())?;
    let (current, available) = (count(connections, "current"), count(connections, "available"));
    Ok((current + available, format!("serverStatus: {current} current + {available} available")))
}

/// `serverStatus` (only the sections the review reads), or why it is not readable.
fn server_status(server: &mut dyn Server) -> Result<Document, String> {
    let command = doc! { "serverStatus": 1, "repl": 0, "metrics": 0, "locks": 0 };
    server.run_command("admin", command).map_err(|e| match e.is(UNAUTHORIZED) {
        true => "this user may not run serverStatus (it needs clusterMonitor)".to_owned(),
        false => format!("serverStatus: {}", chain(&e)),
    })
}

/// A counter of a `serverStatus` section (Int32, Int64 or Double).
fn count(section: &Document, key: &str) -> u64 {
    match section.get(key) {
        Some(Bson::Int32(n)) => *n as u64,
        Some(Bson::Int64(n)) => *n as u64,
        Some(Bson::Double(n)) => *n as u64,
        _ => 0,
    }
}

// Spec 3: the theoretical total (A × P, or A × P × M through SRV or every mongos) stays
// under 80% of the connection limit, leaving room for reconnections after a failover.
fn pool_item(
    server: &mut dyn Server,
    status: &Result<Document, String>,
    uri: &UriFacts,
    topology: &Topology,
    options: &Options,
) -> Item {
    let title = "Spec 3: pool size: total connections under 80% of the limit";
    let mut item = Item::new(CONNECTION, "pool_size", title);
    let pool = match uri.max_pool_size {
        Some(p) => {
            item.evidence.push(format!("maxPoolSize={p}"));
            p
        }
        None => {
            item.note(Status::Warn, "maxPoolSize not in the URI: counted as 100, the driver specification's default (the Rust driver's is 10); size it explicitly");
            100
        }
    };
    let access = match access(server, uri, topology, options) {
        Ok((access, why)) => {
            item.evidence.push(why);
            Some(access)
        }
        Err(e) => {
            item.note(Status::NotCheckable, format!("the mongos count: {e}; pass --mongos M"));
            None
        }
    };
    if let (Some(access), Some(qps), Some(latency)) = (access, options.peak_qps, options.latency_ms) {
        let recommended = uri::recommended_pool(qps, latency, access);
        let line = format!(
            "recommended maxPoolSize ≈ {recommended} ({qps} QPS × {} s × 1.5{})",
            latency / 1000.0,
            match access {
                Access::PerMongos(m) => format!(" ÷ {m} mongos"),
                Access::Single => String::new(),
            }
        );
        item.note(if u64::from(pool) < recommended { Status::Warn } else { Status::Pass }, line);
    }
    let Some(apps) = options.apps else {
        item.note(Status::NotCheckable, "the number of applications is not known here: pass --apps A");
        return item.fix("pass --apps (and --connection-limit where serverStatus is not readable) to check the total");
    };
    let Some(access) = access else { return item.fix("pass --mongos M") };
    let total = uri::total_connections(apps, pool, access);
    match connection_limit(status, options) {
        Ok((limit, from)) => {
            let budget = uri::connection_budget(limit);
            let status = if total > budget { Status::Fail } else { Status::Pass };
            item.note(status, format!("{total} connections at most ({apps} applications × {pool}{}) against 80% of {limit} = {budget} ({from})", match access {
                Access::PerMongos(m) => format!(" × {m} mongos"),
                Access::Single => String::new(),
            }));
        }
        Err(e) => item.note(
            Status::NotCheckable,
            format!("{total} connections at most; the limit is not readable here ({e}): pass --connection-limit N"),
        ),
    }
    item.fix("lower maxPoolSize (peak QPS × response time in seconds × 1.5, divided by M through SRV or every mongos) or the number of applications, so the total stays under 80% of the limit")
}

// Spec 4: read preference by the decision table; a recommendation, so at most a warning.
fn read_preference_item(uri: &UriFacts) -> Item {
    let mut item =
        Item::new(CONNECTION, "read_preference", "Spec 4: read preference fits the business (recommendation)");
    let (status, line) = match uri.read_preference {
        None | Some("primary") => (Status::Pass, "primary: strong consistency (balances, an order's status after placing it); read-heavy reporting would spare the primary with secondaryPreferred"),
        Some("primaryPreferred") => (Status::Pass, "primaryPreferred: strong consistency, falls back to a secondary while there is no primary"),
        Some("secondaryPreferred") => (Status::Warn, "secondaryPreferred: eventual consistency, the standard's choice for read/write splitting; reads may be stale, so never for a read that must see the write before it"),
        Some("secondary") => (Status::Warn, "secondary: eventual consistency, for reports and analysis only; stale reads after writes"),
        Some(_) => (Status::Warn, "nearest: node-dependent consistency, for geographically distributed deployments"),
    };
    item.note(status, format!("readPreference={}", line));
    item.fix("core, strongly consistent services read from primary; reports and read-heavy services use secondaryPreferred and tolerate stale reads")
}

// Spec 5 / self-check: authentication is on, so reaching the port is not enough to read.
fn auth_item(auth_on: &Result<bool, String>) -> Item {
    let mut item = Item::new(CONNECTION, "auth", "Spec 5: authentication enabled");
    match auth_on {
        Ok(true) => item.note(Status::Pass, "a client without credentials is refused (listDatabases: Unauthorized)"),
        Ok(false) => item.note(
            Status::Fail,
            "a client without credentials listed the databases: the deployment runs without authentication",
        ),
        Err(e) => item.note(Status::NotCheckable, format!("the probe without credentials failed otherwise: {e}")),
    }
    item.fix("start mongod with `--auth` (security.authorization: enabled), create one user per application with readWrite on its database")
}

/// Why a role breaks least privilege, if it does.
fn excessive(role: &str, db: &str) -> Option<String> {
    if ADMIN_ROLES.contains(&role) {
        return Some(format!("{role}@{db}: an administrative role"));
    }
    match role {
        "read" | "readWrite" if mongo_schema_contract::naming::SYSTEM_DATABASES.contains(&db) => {
            Some(format!("{role}@{db}: on a system database"))
        }
        "read" | "readWrite" => None,
        _ => Some(format!(
            "{role}@{db}: a custom role (check that its actions are only reads and writes on business collections)"
        )),
    }
}

// Self-check, least privilege: the application's user has readWrite on its own databases,
// never root, `*AnyDatabase` or an administrative role.
fn privileges_item(auth_info: &Document, auth_on: &Result<bool, String>) -> Item {
    let mut item =
        Item::new(CONNECTION, "least_privilege", "Spec 5: least privilege (readWrite on its own databases only)");
    let users: Vec<String> = pairs(auth_info, "authenticatedUsers", "user");
    let roles: Vec<(String, String)> = auth_info
        .get_array("authenticatedUserRoles")
        .map(|a| {
            a.iter()
                .filter_map(|r| {
                    let r = r.as_document()?;
                    Some((r.get_str("role").ok()?.to_owned(), r.get_str("db").ok()?.to_owned()))
                })
                .collect()
        })
        .unwrap_or_default();
    if users.is_empty() {
        match auth_on {
            Ok(false) => item.note(Status::Fail, "no user: without authentication every client may do everything"),
            _ => item.note(Status::NotCheckable, "the URI names no user, so there are no privileges to read"),
        }
        return item.fix("connect with the application's own user");
    }
    item.evidence.push(format!("connected as {}", users.join(", ")));
    for (role, db) in &roles {
        match excessive(role, db) {
            Some(why) if why.contains("custom role") => item.note(Status::Warn, why),
            Some(why) => item.note(Status::Fail, why),
            None => item.note(Status::Pass, format!("{role}@{db}")),
        }
    }
    item.fix("create a user per application with only `readWrite` on its business database (`db.createUser({user, pwd, roles: [{role: \"readWrite\", db: \"db_...\"}]})`); keep root and admin roles for people, never in an application's URI")
}

fn pairs(doc: &Document, array: &str, key: &str) -> Vec<String> {
    doc.get_array(array)
        .map(|a| {
            a.iter()
                .filter_map(|u| {
                    let u = u.as_document()?;
                    Some(format!("{}@{}", u.get_str(key).ok()?, u.get_str("db").unwrap_or("?")))
                })
                .collect()
        })
        .unwrap_or_default()
}

// Self-check, password complexity: 12 characters or more with upper- and lowercase
// letters, digits and symbols resist brute force.
fn password_item(uri: &UriFacts) -> Item {
    let title = "Spec 5: password complexity (12+ characters, upper, lower, digit, symbol)";
    let Some(weaknesses) = uri.password_weaknesses() else {
        return Item::not_checkable(CONNECTION, "password_strength", title, "the URI carries no password");
    };
    let mut item = Item::new(CONNECTION, "password_strength", title);
    let user = uri.user.as_deref().unwrap_or("?");
    match weaknesses.is_empty() {
        true => item.note(Status::Pass, format!("user `{user}`: password present (not shown), meets the rule")),
        false => {
            item.note(Status::Fail, format!("user `{user}`: password present (not shown): {}", weaknesses.join(", ")))
        }
    }
    item.fix("set a password of 12 characters or more with upper- and lowercase letters, digits and symbols (`db.changeUserPassword`), kept in an environment variable or a KMS")
}

// Self-check, public exposure: only private addresses; public access only through a
// CLB with an allowlist, which a deployment cannot show.
fn exposure_item(uri: &UriFacts) -> Item {
    let title = "Spec 5: no public network exposure (private network, or a CLB with an allowlist)";
    let mut item = Item::new(CONNECTION, "network_exposure", title);
    for host in &uri.hosts {
        match reach_of(uri, host) {
            Reach::Private => item.note(Status::Pass, format!("{host}: private address")),
            Reach::Public(ip) => item.note(Status::Warn, format!("{host}: public address {ip}: allowed only through a CLB with an allowlist, which is not visible from here")),
            Reach::Unresolved => item.note(Status::NotCheckable, format!("{host}: {}", unresolved(uri))),
        }
    }
    item.fix("reach the database from the VPC's private network; for public access put a CLB in front with a security group allowing only the clients' addresses")
}

fn reach_of(uri: &UriFacts, host: &str) -> Reach {
    if uri.srv {
        // the SRV name is not a host: its records name them
        return Reach::Unresolved;
    }
    uri::reach(host, &uri::system_resolve)
}

fn unresolved(uri: &UriFacts) -> &'static str {
    match uri.srv {
        true => "an SRV name: the hosts it lists are not resolved here",
        false => "the name does not resolve from this machine, so its network is unknown",
    }
}

fn security_group_item() -> Item {
    Item::not_checkable(
        CONNECTION,
        "security_group",
        "Spec 5: security groups allow only named sources (no 0.0.0.0/0)",
        "security groups and allowlists live in the cloud provider's console, which a database connection cannot see; check them there",
    )
}

// Self-check, transport: TLS whenever a link may cross the public network.
fn tls_item(uri: &UriFacts) -> Item {
    let mut item = Item::new(CONNECTION, "tls", "Spec 5: TLS when a host is not in a private range");
    if uri.tls_on() {
        let why = if uri.tls.is_none() { " (mongodb+srv:// turns it on)" } else { "" };
        item.note(Status::Pass, format!("TLS on{why}"));
        return item;
    }
    for host in &uri.hosts {
        match reach_of(uri, host) {
            Reach::Private => item.note(Status::Pass, format!("TLS off; {host} is a private address")),
            Reach::Public(ip) => item.note(Status::Fail, format!("TLS off toward {host}, a public address ({ip}): credentials and data cross the internet in plain text")),
            Reach::Unresolved => item.note(Status::Warn, format!("TLS off; {host}: {}", unresolved(uri))),
        }
    }
    item.fix("enable SSL/TLS on the instance and append `tls=true` to the URI")
}

// Self-check, application layer: no password written into code or config files.
fn source_item(options: &Options) -> Item {
    let title = "Spec 5: no hard-coded credentials in the sources";
    let Some(dir) = &options.source else {
        return Item::not_checkable(
            CONNECTION,
            "hardcoded_credentials",
            title,
            "pass --source DIR to scan the application's sources and config files",
        );
    };
    let mut item = Item::new(CONNECTION, "hardcoded_credentials", title);
    match source::scan_source(dir) {
        Ok(scan) => {
            for finding in &scan.findings {
                item.note(Status::Fail, finding.to_string());
            }
            if scan.findings.is_empty() {
                item.note(
                    Status::Pass,
                    format!(
                        "{} files under {} scanned: no connection string with a password, no password assigned in code",
                        scan.files,
                        dir.display()
                    ),
                );
            }
        }
        Err(e) => item.note(Status::NotCheckable, format!("{}: {e}", dir.display())),
    }
    item.fix("read the URI from an environment variable (`MONGODB_URI`) or a secrets manager (KMS); rotate any password that was committed")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hello_tells_mongos_replica_sets_and_standalone_servers_apart() {
        assert_eq!(Topology::of(&doc! { "msg": "isdbgrid", "isWritablePrimary": true }), Topology::Mongos);
        let set = doc! { "setName": "rs0", "hosts": ["a:1", "b:1"], "passives": ["c:1"], "arbiters": ["d:1"] };
        let members = ["a:1", "b:1", "c:1"].map(str::to_owned).to_vec();
        assert_eq!(Topology::of(&set), Topology::ReplicaSet { name: "rs0".to_owned(), members });
        assert_eq!(Topology::of(&doc! { "isWritablePrimary": true }), Topology::Standalone);
    }

    #[test]
    fn least_privilege_allows_reads_and_writes_on_business_databases_only() {
        assert_eq!(excessive("readWrite", "db_app"), None);
        assert_eq!(excessive("read", "db_report"), None);
        for (role, db) in
            [("root", "admin"), ("dbAdminAnyDatabase", "admin"), ("dbOwner", "db_app"), ("readWrite", "admin")]
        {
            assert!(excessive(role, db).is_some_and(|why| !why.contains("custom role")), "{role}@{db}");
        }
        assert!(excessive("shopReporter", "db_app").is_some_and(|why| why.contains("custom role")));
    }
}
