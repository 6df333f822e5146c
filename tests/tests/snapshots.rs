//! Snapshots of every generated schema and command of the corpus: a change to what the
//! derive emits shows up as a reviewed diff. Update with `INSTA_UPDATE=always`.

#![forbid(unsafe_code)]

use mongo_schema::{render, MongoSchema};
use mongo_schema_tests::{models::*, roots};

fn schema_of<T: MongoSchema>() -> String {
    render::relaxed_json(&T::json_schema())
}

#[test]
fn collection_commands() {
    for root in roots() {
        let name = format!("{}.{}", root.db, root.collection);
        let text = format!(
            "// createCollection\n{}\n// collMod\n{}\n",
            render::relaxed_json(&root.create),
            render::relaxed_json(&root.coll_mod)
        );
        insta::assert_snapshot!(name, text);
    }
}

#[test]
fn embedded_types() {
    insta::assert_snapshot!("Priority", schema_of::<Priority>());
    insta::assert_snapshot!("Shape", schema_of::<Shape>());
    insta::assert_snapshot!("Event", schema_of::<Event>());
    insta::assert_snapshot!("Message", schema_of::<Message>());
    insta::assert_snapshot!("Loose", schema_of::<Loose>());
    insta::assert_snapshot!("Address", schema_of::<Address>());
    insta::assert_snapshot!("Labeled_i64", schema_of::<Labeled<i64>>());
    insta::assert_snapshot!("Meters", schema_of::<Meters>());
    insta::assert_snapshot!("DisplayName", schema_of::<DisplayName>());
    insta::assert_snapshot!("Sku", schema_of::<Sku>());
    insta::assert_snapshot!("Audit", schema_of::<Audit>());
}

/// The polymorphic pattern: a flattened internally tagged enum in a struct root (with and
/// without `deny_unknown_fields`) and an internally tagged enum root.
#[test]
fn polymorphic_roots() {
    insta::assert_snapshot!("Content", schema_of::<Content>());
    insta::assert_snapshot!("StrictContent", schema_of::<StrictContent>());
    insta::assert_snapshot!("Asset", schema_of::<Asset>());
}

/// The compile-time facts the rules read: kind, shape, depth and worst-case size.
#[test]
fn facts() {
    let facts = [
        ("Scalars", Scalars::FACTS),
        ("Containers", Containers::FACTS),
        ("Enums", Enums::FACTS),
        ("SerdeAttributes", SerdeAttributes::FACTS),
        ("Flattened", Flattened::FACTS),
        ("Keywords", Keywords::FACTS),
        ("Address", Address::FACTS),
        ("Priority", Priority::FACTS),
        ("Shape", Shape::FACTS),
        ("Event", Event::FACTS),
        ("Message", Message::FACTS),
        ("Content", Content::FACTS),
        ("Asset", Asset::FACTS),
    ];
    let lines: Vec<String> = facts
        .iter()
        .map(|(name, f)| {
            format!(
                "{name}: {:?} {:?} depth={} max_size={:?} nullable={}",
                f.kind, f.shape, f.depth, f.max_size, f.nullable
            )
        })
        .collect();
    insta::assert_snapshot!("facts", lines.join("\n"));
}
