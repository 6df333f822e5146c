//! Every command that talks to a deployment, against mongod with `--tlsMode requireTLS` and a
//! private CA (`scripts/with-mongod.sh`): `MONGODB_URI_TLS_NONE` (no TLS) and
//! `MONGODB_URI_TLS_WRONG_CA` (TLS trusting an unrelated CA) make each exit 2 naming the
//! driver's cause of the failure; `MONGODB_URI_TLS` (the right CA) lets each connect and exit
//! as its finding says.
//!
//! Without the variables each test says it was skipped and passes.

#![forbid(unsafe_code)]
#![cfg(feature = "driver")]

use mongo_schema::bson::doc;
use mongo_schema::cli::run;
use mongo_schema::migrate::driver::MongoServer;
use mongo_schema::migrate::server::Server;
use mongo_schema::migrate::{new_data_migration, Naming};
use std::path::Path;

use mongo_schema_test_support::migrate_models;

fn uri(test: &str, var: &str) -> Option<String> {
    let found = std::env::var(var).ok();
    if found.is_none() {
        eprintln!("skipped (no {var}): {test}");
    }
    found
}

/// `uri` with server selection and connecting bounded by `ms` (the driver waits 30 s).
fn within(uri: &str, ms: u32) -> String {
    let separator = if uri.contains('?') { '&' } else { '?' };
    format!("{uri}{separator}serverSelectionTimeoutMS={ms}&connectTimeoutMS={ms}")
}

/// `schema ARGS` in this process, over the migration models: exit code and output.
fn schema(args: &[&str]) -> (i32, String) {
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = run(&migrate_models::v1(), std::iter::once("schema").chain(args.iter().copied()), &mut out, &mut err);
    (code, String::from_utf8(out).unwrap() + &String::from_utf8(err).unwrap())
}

/// A data migration in `dir` that pings (up and down): its name.
fn ping_migration(dir: &Path) -> String {
    let path = new_data_migration(dir, "ping", Naming::Sequence).unwrap();
    let mut value: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let ping = serde_json::json!([{ "db": "db_tls", "command": { "ping": 1 } }]);
    value["up"] = ping.clone();
    value["down"] = ping;
    std::fs::write(&path, serde_json::to_string_pretty(&value).unwrap()).unwrap();
    path.file_stem().unwrap().to_str().unwrap().to_owned()
}

/// Every command that connects, with its arguments for `uri`, a migrations directory
/// holding migration `name`, and a state database of its own.
fn commands(uri: &str, dir: &str, name: &str, state_db: &str) -> Vec<Vec<String>> {
    let target = ["--uri", uri, "--dir", dir, "--state-db", state_db];
    let with_target = |command: &[&str]| command.iter().chain(&target).map(|s| (*s).to_owned()).collect();
    vec![
        with_target(&["apply", "--dry-run"]),
        with_target(&["migrate", "--check"]),
        with_target(&["apply"]),
        with_target(&["status"]),
        with_target(&["resolve", name, "--forget"]),
        with_target(&["revert"]),
        ["drift", "--uri", uri].map(str::to_owned).to_vec(),
        ["check", "--uri", uri].map(str::to_owned).to_vec(),
        ["review", "--uri", uri].map(str::to_owned).to_vec(),
    ]
}

/// Runs every command with `uri` (at once: each waits out its server selection) and asserts
/// that each exits 2 naming `cause`.
fn each_names_the_cause(uri: &str, tag: &str, cause: &str) {
    let dir = tempfile::tempdir().unwrap();
    let name = ping_migration(dir.path());
    let uri = within(uri, 3000);
    let commands = commands(&uri, dir.path().to_str().unwrap(), &name, &format!("db_tls_{tag}_state"));
    let results: Vec<(i32, String)> = std::thread::scope(|scope| {
        let running: Vec<_> = commands
            .iter()
            .map(|command| scope.spawn(|| schema(&command.iter().map(String::as_str).collect::<Vec<_>>())))
            .collect();
        running.into_iter().map(|r| r.join().unwrap()).collect()
    });
    for (command, (code, text)) in commands.iter().zip(results) {
        let shown = command.iter().take_while(|a| *a != "--uri").cloned().collect::<Vec<_>>().join(" ");
        assert_eq!(code, 2, "`schema {shown}`: {text}");
        assert!(text.contains(cause), "`schema {shown}` does not name the driver's cause ({cause}): {text}");
    }
}

#[test]
fn without_tls_every_command_names_the_drivers_cause() {
    let test = "without_tls_every_command_names_the_drivers_cause";
    let Some(uri) = uri(test, "MONGODB_URI_TLS_NONE") else { return };
    each_names_the_cause(&uri, "none", "unexpected end of file");
}

#[test]
fn with_the_wrong_ca_every_command_names_the_drivers_cause() {
    let test = "with_the_wrong_ca_every_command_names_the_drivers_cause";
    let Some(uri) = uri(test, "MONGODB_URI_TLS_WRONG_CA") else { return };
    each_names_the_cause(&uri, "wrong_ca", "invalid peer certificate: UnknownIssuer");
}

#[test]
fn with_the_right_ca_every_command_connects() {
    let test = "with_the_right_ca_every_command_connects";
    let Some(uri) = uri(test, "MONGODB_URI_TLS") else { return };
    let dir = tempfile::tempdir().unwrap();
    let name = ping_migration(dir.path());
    // a loaded machine still connects over loopback well within this
    let uri = within(&uri, 20_000);
    let state_db = "db_tls_right_state";
    let mut server = MongoServer::connect(&uri).unwrap();
    server.run_command(state_db, doc! { "dropDatabase": 1 }).expect("dropDatabase over TLS");
    // what each command finds, in this order, on a deployment that holds none of the models
    let expected = [
        (0, format!("would apply {name} (1 steps)")),
        // no snapshot: every model is new; the records read over TLS, nothing to rehearse
        (1, "data steps: none to rehearse".to_owned()),
        (0, format!("applied {name}")),
        (0, format!("applied  {name}")),
        (1, format!("migration {name}: applied: nothing to resolve")),
        (0, format!("reverted {name}")),
        (1, "db_shop.t_user: missing".to_owned()),
        (0, "db_shop.t_user: checked on the server".to_owned()),
        (1, format!("{:<18} Spec 5: TLS when a host is not in a private range (tls)", "[pass]")),
    ];
    let commands = commands(&uri, dir.path().to_str().unwrap(), &name, state_db);
    assert_eq!(commands.len(), expected.len());
    for (command, (code, finding)) in commands.iter().zip(expected) {
        let shown = command.iter().take_while(|a| *a != "--uri").cloned().collect::<Vec<_>>().join(" ");
        let (got, text) = schema(&command.iter().map(String::as_str).collect::<Vec<_>>());
        assert_eq!(got, code, "`schema {shown}`: {text}");
        assert!(text.contains(&finding), "`schema {shown}` should say {finding:?}: {text}");
    }
}
