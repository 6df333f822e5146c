//! `schema print`: each model's commands as mongosh (`createCollection`, the `collMod` for a
//! collection that exists, the options' commands) or as one JSON array, with what bounds
//! its documents' size.

use super::shared::Exit;
use clap::ValueEnum;
use mongo_schema_core::render::{js_line_comment, mongosh_create_collection, mongosh_run_command};
use mongo_schema_migrate::Model;
use serde_json::json;
use std::io::Write;

/// What `print` writes.
#[derive(Clone, Copy, ValueEnum)]
pub(super) enum Format {
    /// mongosh: `createCollection`, and the `collMod` for an existing collection.
    Js,
    /// A JSON array of `{db, collection, rustType, createCollection, collMod}` (relaxed Extended JSON).
    Json,
}

pub(super) fn print(models: &[Model], format: Format, out: &mut dyn Write) -> Result<i32, Exit> {
    let text = match format {
        Format::Js => models.iter().map(print_js).collect::<Vec<_>>().join("\n"),
        Format::Json => print_json(models),
    };
    writeln!(out, "{text}")?;
    Ok(0)
}

fn print_js(model: &Model) -> String {
    // time-series and capped options included; a time-series collection has no validator
    let (create, coll_mod) = model.commands();
    [
        js_line_comment(&format!(
            "{} ({}): create the collection with its validator",
            model.namespace(),
            model.rust_type
        )),
        js_line_comment(&size_note(model)),
        mongosh_create_collection(&model.db, &create),
        js_line_comment("or, when the collection exists, install the validator:"),
        mongosh_run_command(&model.db, &coll_mod),
    ]
    .into_iter()
    .chain(
        option_commands(model)
            .into_iter()
            .flat_map(|(db, comment, command)| [js_line_comment(&comment), mongosh_run_command(&db, &command)]),
    )
    .collect::<Vec<_>>()
    .join("\n")
        + "\n"
}

/// What else a migration installs for `model`: its indexes, and its shard key (through
/// mongos); as (database, comment, command).
fn option_commands(model: &Model) -> Vec<(String, String, mongo_schema_core::bson::Document)> {
    let mut commands = Vec::new();
    if !model.options.indexes.is_empty() {
        let command = mongo_schema_core::bson::doc! { "createIndexes": &model.collection, "indexes": model.options.indexes.clone() };
        commands.push((model.db.clone(), "its indexes:".to_owned(), command));
    }
    if !model.options.shard_key.is_empty() {
        let command = mongo_schema_core::bson::doc! { "shardCollection": model.namespace(), "key": model.options.shard_key.clone() };
        let comment = "its shard key (through mongos, on a sharded cluster):".to_owned();
        commands.push(("admin".to_owned(), comment, command));
    }
    commands
}

fn print_json(models: &[Model]) -> String {
    let items: Vec<serde_json::Value> = models.iter().map(|m| {
        let (create, coll_mod) = m.commands();
        let relaxed = |d: mongo_schema_core::bson::Document| mongo_schema_core::bson::Bson::Document(d).into_relaxed_extjson();
        let size = match worst_case_size(m) {
            Some(bytes) => json!({ "worstCaseBytes": bytes }),
            None => json!({ "unboundedBy": unbounded_by(m).map(|(path, why)| format!("{path}: {why}")) }),
        };
        let mut item = json!({ "db": m.db, "collection": m.collection, "rustType": m.rust_type, "documentSize": size, "createCollection": relaxed(create), "collMod": relaxed(coll_mod) });
        for (_, _, command) in option_commands(m) {
            let key = command.keys().next().cloned().unwrap_or_default();
            item[key] = relaxed(command);
        }
        item
    }).collect();
    serde_json::to_string_pretty(&items).expect("a JSON value always serialises")
}

/// A root's worst-case encoded size (`MongoCollection::MAX_DOCUMENT_SIZE`); `None` when
/// unbounded.
fn worst_case_size(model: &Model) -> Option<u64> {
    model.max_document_size
}

/// `print`'s line on a root's size: its worst case, or what leaves it unbounded.
fn size_note(model: &Model) -> String {
    match (worst_case_size(model), unbounded_by(model)) {
        (Some(bytes), _) => format!("worst-case document size: {bytes} bytes"),
        (None, Some((path, why))) => format!("document size unbounded: `{path}` is {why}"),
        (None, None) => "document size unbounded".to_owned(),
    }
}

/// The first field of an unbounded root whose schema sets no bound: a string with
/// neither `maxLength`, `enum` nor a fixed-width `pattern`, an array without `maxItems`,
/// a map, or a document whose fields are not declared, in the root's fields or any branch
/// of a polymorphic root. When none is (the bound is the Rust type's, which the schema does
/// not say), the first field of a kind whose size only the type bounds: binary data, or a
/// value of any BSON type.
fn unbounded_by(model: &Model) -> Option<(String, &'static str)> {
    use mongo_schema_core::view::{SchemaView, Unbounds};
    let schema = SchemaView::of_validator(&model.validator)?;
    let (path, why) = schema.unbounded(Unbounds::ByKeywords).or_else(|| schema.unbounded(Unbounds::AlsoByTypes))?;
    Some((path, why.text()))
}
