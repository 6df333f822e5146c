//! The app's committed migrations (a directory of `NNNN_` files, written before timestamped
//! names) applied the way a service does at start: embedded with `migrations!` and run with
//! its own `mongodb::Database`; then read back by the `schema` binary's `status`, both with
//! their default state database, so the CLI and the application keep one record.
#![forbid(unsafe_code)]
#![cfg(feature = "driver")]

use mongo_schema::migrate::apply::Outcome;
use mongo_schema::migrate::record::DEFAULT_STATE_DB;
use mongo_schema::migrate::Migrator;
use std::path::Path;
use std::process::Command;

/// The app's databases, dropped before and after (test set-up: migrations never drop).
const DATABASES: [&str; 2] = ["db_user_center", "db_order"];

#[test]
fn the_committed_migrations_apply_at_start_and_the_cli_sees_them() {
    let Ok(uri) = std::env::var("MONGODB_URI") else {
        eprintln!("skipped (no MONGODB_URI): the_committed_migrations_apply_at_start_and_the_cli_sees_them");
        return;
    };
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("migrations");
    let embedded: Migrator = mongo_schema::migrations!("migrations");
    let names: Vec<String> = embedded.migrations().iter().map(|m| m.name.clone()).collect();
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let reset = || {
        runtime.block_on(async {
            let client = mongodb::Client::with_uri_str(&uri).await.unwrap();
            for db in DATABASES {
                client.database(db).drop().await.unwrap();
            }
            let records = client.database(DEFAULT_STATE_DB).collection::<mongodb::bson::Document>("t_schema_migration");
            records.delete_many(mongodb::bson::doc! { "migration": { "$in": &names } }).await.unwrap();
        })
    };
    reset();
    let (first, second) = runtime.block_on(async {
        let client = mongodb::Client::with_uri_str(&uri).await.unwrap();
        let db = client.database("db_user_center");
        (embedded.run(&db).await.unwrap(), Migrator::from_dir(&dir).unwrap().run(&db).await.unwrap())
    });
    let applied: Vec<String> = first
        .iter()
        .map(|o| match o {
            Outcome::Applied(name) => name.clone(),
            other => panic!("not applied on a fresh deployment: {other:?}"),
        })
        .collect();
    assert_eq!(applied, names, "every file of the directory is embedded, in order");
    assert_eq!(names.len(), 4, "{names:?}");
    assert!(names.windows(2).all(|w| w[0] < w[1]) && names[0].starts_with("0001_"), "in order: {names:?}");
    // the directory read at run time is the same migrations: recognised as applied
    assert_eq!(second, names.iter().cloned().map(Outcome::AlreadyApplied).collect::<Vec<_>>());

    let output = Command::new(env!("CARGO_BIN_EXE_schema"))
        .args(["status", "--uri", &uri, "--dir", dir.to_str().unwrap()])
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{out}{}", String::from_utf8_lossy(&output.stderr));
    for name in &names {
        assert!(out.contains(&format!("applied  {name}  ")), "{out}");
    }
    assert!(out.ends_with("4 applied, 0 pending, 0 partial, 0 contract pending\n"), "{out}");

    // the indexes the migrations created are the ones the queries were planned on: mongod's
    // explain of every query of `src/store.rs` agrees with `schema queries`
    let output =
        Command::new(env!("CARGO_BIN_EXE_schema")).args(["queries", "--uri", &uri, "--explain"]).output().unwrap();
    let out = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{out}{}", String::from_utf8_lossy(&output.stderr));
    assert_eq!(out, "0 of 6 queries planned otherwise by mongod\n");

    // and the store's queries read what was written, through the validators just applied
    runtime.block_on(async {
        use mongo_schema::bson::{oid::ObjectId, DateTime};
        use mongo_schema_example_app::{store, Order, OrderLine, OrderStatus};
        let client = mongodb::Client::with_uri_str(&uri).await.unwrap();
        let orders = client.database("db_order").collection::<Order>("t_order");
        let customer = ObjectId::new();
        let order = |no: &str, status: OrderStatus, at: i64| Order {
            id: ObjectId::new(),
            order_no: no.to_owned(),
            customer_id: customer,
            lines: vec![OrderLine {
                product_id: ObjectId::new(),
                product_name: "tea".to_owned(),
                price: rust_decimal::Decimal::new(450, 2),
                quantity: 2,
            }],
            total_amount: rust_decimal::Decimal::new(900, 2),
            status,
            create_time: DateTime::from_millis(at),
            pay_time: matches!(status, OrderStatus::Paid).then(|| DateTime::from_millis(at + 60_000)),
        };
        let day = 86_400_000;
        orders
            .insert_many([
                order("A-1", OrderStatus::Paid, day),
                order("A-2", OrderStatus::Shipped, 2 * day),
                order("A-3", OrderStatus::PendingPayment, 3 * day),
            ])
            .await
            .unwrap();
        let recent: Vec<String> =
            store::recent_orders(&orders, customer).await.unwrap().into_iter().map(|o| o.order_no).collect();
        assert_eq!(recent, ["A-3", "A-2", "A-1"]);
        let paid =
            store::paid_between(&orders, DateTime::from_millis(0), DateTime::from_millis(2 * day)).await.unwrap();
        assert_eq!(paid.iter().map(|o| o.order_no.as_str()).collect::<Vec<_>>(), ["A-1"]);
        let awaiting: Vec<String> = store::awaiting(&orders).await.unwrap().into_iter().map(|o| o.order_no).collect();
        assert_eq!(awaiting, ["A-3", "A-1"], "no pay time sorts first");
        let view = store::order_status(&orders, "A-2").await.unwrap().expect("A-2");
        assert_eq!((view.order_no.as_str(), matches!(view.status, OrderStatus::Shipped)), ("A-2", true));
    });
    reset();
}
