//! The local validator's `errInfo` against a real mongod's (`MONGODB_URI`, set by
//! `scripts/with-mongod.sh`) on every bound violation of the test models: each document is
//! inserted into a collection whose validator is the model's `$jsonSchema`, and the `errInfo`
//! of mongod's write error 121 must equal the local `Failure::err_info` byte for byte (the
//! same keys in the same order with the same BSON types). Without `MONGODB_URI` the test says
//! it was skipped and passes.

#![forbid(unsafe_code)]

use mongo_schema::Validator;
use mongo_schema_tests::bson::{self, doc, Bson, Document, RawDocumentBuf};
use mongo_schema_tests::{roots, violations};
use mongodb::sync::Client;

/// `d` as mongod stores it on insert: `_id` first.
fn stored(d: &Document) -> Document {
    let mut out = Document::new();
    if let Some(id) = d.get("_id") {
        out.insert("_id", id.clone());
    }
    out.extend(d.iter().filter(|(k, _)| k.as_str() != "_id").map(|(k, v)| (k.clone(), v.clone())));
    out
}

fn bytes(d: &Document) -> Vec<u8> {
    RawDocumentBuf::try_from(d).expect("serializable").into_bytes()
}

fn json(d: &Document) -> String {
    Bson::Document(d.clone()).into_relaxed_extjson().to_string()
}

#[test]
fn bound_violations_of_the_models_explain_as_mongod_does() {
    let Ok(uri) = std::env::var("MONGODB_URI") else {
        mongo_schema_tests::skipped("errinfo_mongod::bound_violations_of_the_models_explain_as_mongod_does");
        return;
    };
    let client = Client::with_uri_str(uri).expect("MONGODB_URI is a valid connection string");
    let (mut checked, mut wrong) = (0, Vec::new());
    for root in roots() {
        let db = client.database(root.db);
        let name = format!("{}_errinfo", root.collection);
        db.collection::<Document>(&name).drop().run().expect("drop");
        db.run_command(doc! { "create": &name, "validator": { "$jsonSchema": root.json_schema.clone() } })
            .run()
            .expect("create");
        let local = Validator::new(&root.json_schema).expect("the local validator accepts the schema");
        let sample: Document = bson::deserialize_from_slice(root.samples[0].as_bytes()).expect("sample");
        for violation in violations::of(&root.json_schema, &sample) {
            let document = stored(&violation.document);
            let reply = db
                .run_command(doc! { "insert": &name, "documents": [document.clone()] })
                .run()
                .expect("insert command");
            let server = match reply.get_array("writeErrors") {
                Ok(errors) => {
                    let error = errors[0].as_document().expect("a write error document");
                    assert_eq!(error.get_i32("code").ok(), Some(121), "{}: {error}", violation.what);
                    Some(error.get_document("errInfo").expect("errInfo").clone())
                }
                Err(_) => {
                    db.collection::<Document>(&name).delete_many(doc! {}).run().expect("delete");
                    None
                }
            };
            let local = local.validate(&document).err().and_then(|e| e.failure().map(|f| f.err_info()));
            checked += usize::from(server.is_some());
            let same = match (&server, &local) {
                (Some(s), Some(l)) => bytes(s) == bytes(l),
                (None, None) => true,
                _ => false,
            };
            if !same {
                let show = |e: &Option<Document>| e.as_ref().map_or("passes".to_owned(), json);
                wrong.push(format!(
                    "{}: {}\n  doc    {}\n  mongod {}\n  local  {}",
                    root.collection,
                    violation.what,
                    json(&document),
                    show(&server),
                    show(&local)
                ));
            }
        }
    }
    assert!(checked > 80, "only {checked} documents were rejected");
    assert!(wrong.is_empty(), "{} errInfo differences with mongod:\n{}", wrong.len(), wrong.join("\n"));
}
