//! What a connection string says, read with the driver's own parser (no DNS lookup), and
//! the pure rules over it: private address ranges, password strength, the pool formula.

use mongodb::options::{Acknowledgment, ConnectionString, HostInfo, ReadPreference, ServerAddress, Tls};
use std::net::{IpAddr, ToSocketAddrs};

/// The facts of a connection string the checklists look at. The password itself is kept
/// only to judge its strength and is never shown (`Debug` leaves it out).
#[derive(Clone, PartialEq)]
pub struct UriFacts {
    /// `mongodb+srv://`.
    pub srv: bool,
    /// The hosts as written (`host:port`); for SRV, the one DNS name.
    pub hosts: Vec<String>,
    /// The user name, when the URI has credentials.
    pub user: Option<String>,
    password: Option<String>,
    /// `authSource`.
    pub auth_source: Option<String>,
    /// `replicaSet`.
    pub replica_set: Option<String>,
    /// `retryWrites`.
    pub retry_writes: Option<bool>,
    /// `retryReads`.
    pub retry_reads: Option<bool>,
    /// `w`: `majority`, a number, or a tag set's name.
    pub w: Option<String>,
    /// `tls`/`ssl`; SRV turns TLS on unless the URI turns it off.
    pub tls: Option<bool>,
    /// `loadBalanced`.
    pub load_balanced: Option<bool>,
    /// `maxPoolSize`.
    pub max_pool_size: Option<u32>,
    /// `readPreference`.
    pub read_preference: Option<&'static str>,
    /// `directConnection`.
    pub direct_connection: Option<bool>,
}

impl std::fmt::Debug for UriFacts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("UriFacts")
            .field("srv", &self.srv)
            .field("hosts", &self.hosts)
            .field("user", &self.user)
            .field("password", &self.password.as_ref().map(|_| "****"))
            .field("auth_source", &self.auth_source)
            .field("replica_set", &self.replica_set)
            .finish_non_exhaustive()
    }
}

impl UriFacts {
    /// Reads `uri` with the driver's parser; the error is the driver's.
    pub fn parse(uri: &str) -> Result<Self, mongodb::error::Error> {
        let parsed = ConnectionString::parse(uri)?;
        let (srv, hosts) = match &parsed.host_info {
            HostInfo::DnsRecord(name) => (true, vec![name.clone()]),
            HostInfo::HostIdentifiers(hosts) => (false, hosts.iter().map(ServerAddress::to_string).collect()),
            _ => (false, Vec::new()),
        };
        let credential = parsed.credential.as_ref();
        Ok(UriFacts {
            srv,
            hosts,
            user: credential.and_then(|c| c.username.clone()),
            password: credential.and_then(|c| c.password.clone()),
            auth_source: credential.and_then(|c| c.source.clone()),
            replica_set: parsed.replica_set.clone(),
            retry_writes: parsed.retry_writes,
            retry_reads: parsed.retry_reads,
            w: parsed.write_concern.as_ref().and_then(|w| w.w.as_ref()).map(|w| match w {
                Acknowledgment::Majority => "majority".to_owned(),
                Acknowledgment::Nodes(n) => n.to_string(),
                Acknowledgment::Custom(tag) => tag.clone(),
                _ => "?".to_owned(),
            }),
            tls: parsed.tls.as_ref().map(|t| matches!(t, Tls::Enabled(_))),
            load_balanced: parsed.load_balanced,
            max_pool_size: parsed.max_pool_size,
            read_preference: parsed.read_preference.as_ref().map(mode),
            direct_connection: parsed.direct_connection,
        })
    }

    /// Whether the URI carries a password.
    pub fn has_password(&self) -> bool {
        self.password.is_some()
    }

    /// What the standard's password rule finds missing in the URI's password (at least 12
    /// characters with upper- and lowercase letters, digits and special symbols); `None`
    /// without a password. Never the password itself.
    pub fn password_weaknesses(&self) -> Option<Vec<&'static str>> {
        self.password.as_deref().map(password_weaknesses)
    }

    /// Whether TLS is on: asked for, or by default for `mongodb+srv://`.
    pub fn tls_on(&self) -> bool {
        self.tls.unwrap_or(self.srv)
    }
}

fn mode(preference: &ReadPreference) -> &'static str {
    match preference {
        ReadPreference::Primary => "primary",
        ReadPreference::Secondary { .. } => "secondary",
        ReadPreference::PrimaryPreferred { .. } => "primaryPreferred",
        ReadPreference::SecondaryPreferred { .. } => "secondaryPreferred",
        ReadPreference::Nearest { .. } => "nearest",
        _ => "unknown",
    }
}

/// The standard's password rule: at least 12 characters, upper- and lowercase letters,
/// digits and special symbols. What `password` lacks, as phrases.
pub fn password_weaknesses(password: &str) -> Vec<&'static str> {
    let mut missing = Vec::new();
    if password.chars().count() < 12 {
        missing.push("fewer than 12 characters");
    }
    let has = |class: fn(&char) -> bool| password.chars().any(|c| class(&c));
    for (present, phrase) in [
        (has(char::is_ascii_uppercase), "no uppercase letter"),
        (has(char::is_ascii_lowercase), "no lowercase letter"),
        (has(char::is_ascii_digit), "no digit"),
        (has(|c| !c.is_alphanumeric()), "no special symbol"),
    ] {
        if !present {
            missing.push(phrase);
        }
    }
    missing
}

/// Whether an address is private (RFC 1918, loopback, link-local, IPv6 unique-local):
/// traffic to it never crosses the public network.
pub fn is_private_ip(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => v4.is_private() || v4.is_loopback() || v4.is_link_local(),
        IpAddr::V6(v6) => {
            if let Some(v4) = v6.to_ipv4_mapped() {
                return is_private_ip(IpAddr::V4(v4));
            }
            v6.is_loopback() || v6.is_unique_local() || v6.is_unicast_link_local()
        }
    }
}

/// Where a host is: every address it has private, some public, or unknown (the name
/// does not resolve here).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reach {
    /// Only private addresses.
    Private,
    /// At least one public address (the first shown).
    Public(IpAddr),
    /// The name did not resolve from this machine.
    Unresolved,
}

/// Where `host` (`name:port` or `[v6]:port`) is, an IP literal read as is and a name
/// through `resolve`.
pub fn reach(host: &str, resolve: &dyn Fn(&str) -> Vec<IpAddr>) -> Reach {
    let name = match host.rsplit_once(':') {
        Some((name, port)) if port.bytes().all(|b| b.is_ascii_digit()) => name,
        _ => host,
    };
    let name = name.trim_start_matches('[').trim_end_matches(']');
    let addresses = match name.parse::<IpAddr>() {
        Ok(ip) => vec![ip],
        Err(_) => resolve(name),
    };
    match addresses.iter().find(|ip| !is_private_ip(**ip)) {
        _ if addresses.is_empty() => Reach::Unresolved,
        Some(public) => Reach::Public(*public),
        None => Reach::Private,
    }
}

/// The system resolver's addresses for `name` (none when it does not resolve).
pub fn system_resolve(name: &str) -> Vec<IpAddr> {
    (name, 0).to_socket_addrs().map(|a| a.map(|s| s.ip()).collect()).unwrap_or_default()
}

/// How applications reach the deployment, which decides the pool formula.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// One address in front of mongos (a load balancer), or a replica set or single
    /// server: one pool per application toward the node it writes to. `A × P`.
    Single,
    /// SRV or every mongos in the URI: one pool per mongos. `A × P × M`.
    PerMongos(u32),
}

/// The theoretical total connections: `A × P`, or `A × P × M` with a pool per mongos.
pub fn total_connections(apps: u32, pool: u32, access: Access) -> u64 {
    let m = match access {
        Access::Single => 1,
        Access::PerMongos(m) => m,
    };
    u64::from(apps) * u64::from(pool) * u64::from(m)
}

/// The standard's `maxPoolSize` estimate: peak QPS × response time in seconds × 1.5
/// (against jitter), rounded up; divided by M (rounded up) when each mongos gets a pool.
pub fn recommended_pool(peak_qps: f64, latency_ms: f64, access: Access) -> u64 {
    let base = (peak_qps * latency_ms / 1000.0 * 1.5).ceil().max(1.0) as u64;
    match access {
        Access::Single => base,
        Access::PerMongos(m) => base.div_ceil(u64::from(m.max(1))),
    }
}

/// 80% of the connection limit: the most the theoretical total may reach.
pub fn connection_budget(limit: u64) -> u64 {
    limit * 8 / 10
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_uri_is_read_by_the_driver_parser() {
        let uri = UriFacts::parse(
            "mongodb://app:Secr3t!pass-word@10.0.0.1:27017,10.0.0.2/db_app?authSource=admin&replicaSet=cmgo-1\
             &retryWrites=true&retryReads=false&w=majority&maxPoolSize=150&readPreference=secondaryPreferred",
        )
        .unwrap();
        assert!(!uri.srv);
        assert_eq!(uri.hosts, ["10.0.0.1:27017", "10.0.0.2:27017"]);
        assert_eq!(uri.user.as_deref(), Some("app"));
        assert_eq!(uri.auth_source.as_deref(), Some("admin"));
        assert_eq!(uri.replica_set.as_deref(), Some("cmgo-1"));
        assert_eq!((uri.retry_writes, uri.retry_reads), (Some(true), Some(false)));
        assert_eq!(uri.w.as_deref(), Some("majority"));
        assert_eq!(uri.max_pool_size, Some(150));
        assert_eq!(uri.read_preference, Some("secondaryPreferred"));
        assert!(!uri.tls_on());
        assert!(!format!("{uri:?}").contains("Secr3t"), "{uri:?}");
        assert_eq!(uri.password_weaknesses(), Some(vec![]));

        let srv = UriFacts::parse("mongodb+srv://cluster.example.net/?authSource=admin").unwrap();
        assert!(srv.srv && srv.tls_on() && !srv.has_password());
        assert_eq!(srv.hosts, ["cluster.example.net"]);
        let off = UriFacts::parse("mongodb+srv://u:p@cluster.example.net/?tls=false").unwrap();
        assert!(!off.tls_on());
        assert!(UriFacts::parse("mongodb://h:notaport/").is_err());
    }

    #[test]
    fn passwords_are_judged_by_the_standard_rule() {
        assert_eq!(password_weaknesses("Abcdefgh1!xy"), Vec::<&str>::new());
        assert_eq!(
            password_weaknesses("admin123"),
            ["fewer than 12 characters", "no uppercase letter", "no special symbol"]
        );
        assert_eq!(password_weaknesses("ABCDEFGHIJKL"), ["no lowercase letter", "no digit", "no special symbol"]);
    }

    #[test]
    fn private_ranges() {
        for private in [
            "10.1.0.40",
            "172.16.0.1",
            "172.31.255.255",
            "192.168.1.1",
            "127.0.0.1",
            "169.254.1.1",
            "::1",
            "fd00::1",
            "fe80::1",
            "::ffff:10.0.0.1",
        ] {
            assert!(is_private_ip(private.parse().unwrap()), "{private}");
        }
        for public in ["8.8.8.8", "172.32.0.1", "172.15.255.255", "100.64.0.1", "2001:db8::1", "::ffff:8.8.8.8"] {
            assert!(!is_private_ip(public.parse().unwrap()), "{public}");
        }
    }

    #[test]
    fn hosts_are_placed_by_their_addresses() {
        let none = |_: &str| Vec::new();
        assert_eq!(reach("10.0.0.1:27017", &none), Reach::Private);
        assert_eq!(reach("[::1]:27017", &none), Reach::Private);
        assert_eq!(reach("8.8.4.4:27017", &none), Reach::Public("8.8.4.4".parse().unwrap()));
        assert_eq!(reach("db.example.net:27017", &none), Reach::Unresolved);
        let mixed = |_: &str| vec!["10.0.0.1".parse().unwrap(), "203.0.113.9".parse().unwrap()];
        assert_eq!(reach("db.example.net:27017", &mixed), Reach::Public("203.0.113.9".parse().unwrap()));
        let private = |_: &str| vec!["192.168.0.5".parse().unwrap()];
        assert_eq!(reach("db.internal", &private), Reach::Private);
    }

    #[test]
    fn the_pool_formula() {
        // the standard's examples: 20 applications × 200 through an LB; 25 × 100
        assert_eq!(total_connections(20, 200, Access::Single), 4000);
        assert_eq!(total_connections(25, 100, Access::Single), 2500);
        assert_eq!(total_connections(10, 50, Access::PerMongos(4)), 2000);
        assert_eq!(connection_budget(3000), 2400);
        // 1000 QPS × 20 ms × 1.5 = 30; with 4 mongos, 30 / 4 rounded up
        assert_eq!(recommended_pool(1000.0, 20.0, Access::Single), 30);
        assert_eq!(recommended_pool(1000.0, 20.0, Access::PerMongos(4)), 8);
        assert_eq!(recommended_pool(1.0, 1.0, Access::Single), 1);
    }
}
