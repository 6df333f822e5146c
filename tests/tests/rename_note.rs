//! A renamed field is not only "newly required": the migration says it looks like a rename
//! and gives the `$rename` data step, which is never run unasked. The step, run on mongod,
//! carries the stored values over so the new validator admits the documents.

#![forbid(unsafe_code)]

use mongo_schema::migrate::{migrate, MigrateOptions, Model, Naming};
use mongo_schema_tests::bson::{doc, Bson, Document};

mod v1 {
    use mongo_schema::MongoSchema;
    use serde::{Deserialize, Serialize};

    #[derive(Serialize, Deserialize, MongoSchema)]
    #[serde(rename_all = "camelCase")]
    #[mongo(db = "db_app", collection = "t_rename_order")]
    pub struct Order {
        #[mongo(max_length = 500)]
        pub note: String,
        pub delivery: Delivery,
    }

    #[derive(Serialize, Deserialize, MongoSchema)]
    #[serde(rename_all = "camelCase")]
    pub struct Delivery {
        #[mongo(max_length = 100)]
        pub city: String,
    }
}

mod v2 {
    use mongo_schema::MongoSchema;
    use serde::{Deserialize, Serialize};

    #[derive(Serialize, Deserialize, MongoSchema)]
    #[serde(rename_all = "camelCase")]
    #[mongo(db = "db_app", collection = "t_rename_order")]
    pub struct Order {
        #[mongo(max_length = 500)]
        pub buyer_note: String,
        pub delivery: Delivery,
    }

    #[derive(Serialize, Deserialize, MongoSchema)]
    #[serde(rename_all = "camelCase")]
    pub struct Delivery {
        #[mongo(max_length = 100)]
        pub city_name: String,
    }
}

#[test]
fn a_renamed_field_is_named_as_a_likely_rename_with_its_data_step() {
    let dir = std::env::temp_dir().join(format!("mongo-schema-rename-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let options = MigrateOptions { naming: Naming::Sequence, ..MigrateOptions::default() };
    migrate(&dir, &[Model::of::<v1::Order>("app::Order")], &options).expect("migrate").expect("first");
    let second = migrate(&dir, &[Model::of::<v2::Order>("app::Order")], &options).expect("migrate").expect("second");
    let renames: Vec<&String> = second.migration.notes.iter().filter(|n| n.contains("looks like a rename")).collect();
    assert_eq!(renames.len(), 2, "{:?}", second.migration.notes);
    assert!(renames[0].contains("`note` is gone and `buyerNote` appeared"), "{renames:?}");
    assert!(renames[1].contains("`delivery.city` is gone and `delivery.cityName` appeared"), "{renames:?}");
    std::fs::remove_dir_all(&dir).ok();

    // the step, as a data migration would hold it
    let step = |note: &str| -> serde_json::Value {
        let start = note.find("whose step is ").expect("a step") + "whose step is ".len();
        let end = note.rfind(" (nothing runs it unasked)").expect("the end of the step");
        serde_json::from_str(&note[start..end]).expect("the step is JSON")
    };
    let steps: Vec<serde_json::Value> = renames.iter().map(|n| step(n)).collect();
    assert_eq!(steps[0]["db"], "db_app");
    let Ok(uri) = std::env::var("MONGODB_URI") else {
        mongo_schema_tests::skipped("rename_note: the $rename step on mongod");
        return;
    };
    let client = mongodb::sync::Client::with_uri_str(uri).expect("client");
    let db = client.database("db_app");
    let orders = db.collection::<Document>("t_rename_order");
    orders.drop().run().expect("drop");
    orders
        .insert_many([
            doc! { "note": "leave at the door", "delivery": { "city": "Lyon" } },
            doc! { "note": "ring twice", "delivery": { "city": "Porto" } },
        ])
        .run()
        .expect("seed");
    for step in &steps {
        let command = match Bson::try_from(step["command"].clone()).expect("Extended JSON") {
            Bson::Document(d) => d,
            other => panic!("not a command: {other}"),
        };
        db.run_command(command).run().expect("the $rename step runs");
    }
    let validator = Model::of::<v2::Order>("app::Order").validator;
    let matching = orders.count_documents(validator).run().expect("count");
    assert_eq!(matching, 2, "after the step, every document passes the new validator");
}
