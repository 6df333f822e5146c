//! A migration as files: the mongosh scripts (up, down) and the JSON command file.
//! Every name, description and pattern reaches them through a serializer
//! (`mongo_schema_core::render`), never glued into the text.

use super::snapshot::Entry;
use super::step::{Migration, Phase, Step};
use mongo_schema_core::bson::Bson;
use mongo_schema_core::render::{js_document, js_line_comment, js_string};
use serde_json::{json, Value};

/// Defined in every script (a function declaration, so scripts can share one mongosh
/// session): runs a command, runs the fallback on NamespaceExists (48), takes
/// IndexNotFound (27) from `dropIndexes` as already done (so re-running a drop-and-create
/// is harmless), skips `shardCollection` with a note where the deployment has no mongos
/// (a replica set or a standalone: the script then runs again through mongos once the
/// cluster exists), throws with the server's message on failure so mongosh exits non-zero.
/// `mongoSchemaRequireValid` is the gate before a step that enforces a validator: it throws
/// while a stored document fails it.
const PRELUDE: &str = r#"function mongoSchemaStep(dbName, command, ifNamespaceExists) {
  if ("shardCollection" in command && db.hello().msg !== "isdbgrid") {
    print("pending: shardCollection " + command.shardCollection + " needs a sharded cluster (no mongos here); run this script again through mongos");
    return { ok: 1, pending: true };
  }
  let reply;
  try {
    reply = db.getSiblingDB(dbName).runCommand(command);
  } catch (error) {
    reply = { ok: 0, code: error.code, errmsg: error.message };
  }
  if (reply.ok !== 1 && reply.code === 48 && ifNamespaceExists) {
    return mongoSchemaStep(dbName, ifNamespaceExists, null);
  }
  if (reply.ok !== 1 && reply.code === 27 && "dropIndexes" in command) {
    return reply;
  }
  if (reply.ok !== 1) {
    throw new Error(dbName + ": " + Object.keys(command)[0] + " failed: " + reply.errmsg);
  }
  return reply;
}
function mongoSchemaRequireValid(dbName, collection, validator) {
  const coll = db.getSiblingDB(dbName).getCollection(collection);
  const failing = coll.countDocuments({ $nor: [validator] });
  if (failing > 0 && typeof enforceAnyway === "undefined") {
    throw new Error(dbName + "." + collection + ": " + failing + " of " + coll.countDocuments({}) + " documents fail the validator the next step enforces: `schema check --uri` lists them with a fix for each. Fix them and run this script again (every step is harmless to repeat), or enforce anyway with --eval \"var contract = true, enforceAnyway = true\"");
  }
}
"#;

impl Migration {
    /// The mongosh script that applies the migration (`mongosh "$URI" <name>.js`): the
    /// `<name>.js` file [`migrate`](super::migrate) writes.
    pub fn up_js(&self) -> String {
        up_js(self)
    }

    /// The mongosh script that restores the validators the migration replaced: the
    /// `<name>.down.js` file.
    pub fn down_js(&self) -> String {
        down_js(self)
    }

    /// The same commands as JSON (canonical Extended JSON, exact BSON types) for drivers and
    /// other runners: the `<name>.json` file, which [`apply`](super::apply::apply) reads back.
    pub fn commands_json(&self) -> String {
        commands_json(self)
    }
}

/// The mongosh script that applies the migration: `mongosh "$URI" <name>.js`.
fn up_js(migration: &Migration) -> String {
    let mut lines = header(migration, "applies", &format!("Undo: mongosh \"$URI\" {}.down.js", migration.name));
    lines.extend(drops(&migration.up));
    notes(&mut lines, &migration.notes);
    steps(&mut lines, &migration.up, &migration.name);
    removed(&mut lines, &migration.removed);
    footer(lines, migration)
}

/// The mongosh script that restores the validators the migration replaced.
fn down_js(migration: &Migration) -> String {
    let mut lines = header(
        migration,
        "reverts",
        "Restores the validators and indexes as they were before; collections and documents are kept.",
    );
    lines.extend(drops(&migration.down));
    steps(&mut lines, &migration.down, &migration.name);
    footer(lines, migration)
}

/// What a script drops, said at its top: nothing, or each index it drops (collections and
/// documents never are), and that re-running is harmless.
fn drops(steps: &[Step]) -> Vec<String> {
    let dropped: Vec<String> = steps
        .iter()
        .filter_map(|s| {
            let index = match s.command.get("index")? {
                Bson::String(name) => name.clone(),
                Bson::Array(names) => names.iter().filter_map(Bson::as_str).collect::<Vec<_>>().join(", "),
                other => other.to_string(),
            };
            s.command.contains_key("dropIndexes").then(|| format!("{index} of {}.{}", s.db, s.collection))
        })
        .collect();
    if dropped.is_empty() {
        return vec![js_line_comment(
            "Harmless to re-run: createCollection falls back to collMod. Nothing is dropped.",
        )];
    }
    vec![
        js_line_comment(&format!(
            "Drops indexes (each step below says why and what is not enforced meanwhile): {}. No collection or document is dropped.",
            dropped.join("; ")
        )),
        js_line_comment(
            "Harmless to re-run: createCollection falls back to collMod, and a drop of an index already gone counts as done.",
        ),
    ]
}

fn header(migration: &Migration, verb: &str, second: &str) -> Vec<String> {
    vec![
        js_line_comment(&format!("Migration {}: {verb} the validators of the models in this crate. Generated by mongo-schema; review it, do not edit it.", migration.name)),
        js_line_comment(second),
    ]
}

fn notes(lines: &mut Vec<String>, notes: &[String]) {
    if notes.is_empty() {
        return;
    }
    lines.push(js_line_comment(""));
    lines.push(js_line_comment("Notes:"));
    lines.extend(notes.iter().map(|n| js_line_comment(&format!("- {n}"))));
}

fn steps(lines: &mut Vec<String>, steps: &[Step], name: &str) {
    lines.push(String::new());
    lines.push(PRELUDE.trim_end().to_owned());
    let mut contract = false;
    for step in steps {
        if step.phase == Phase::Contract && !contract {
            contract = true;
            lines.push(String::new());
            lines.push(js_line_comment(
                "The contract: run it once no instance of the previous release writes (it still writes the old \
                 shapes until then), with --eval \"var contract = true\".",
            ));
            let waiting = format!(
                "{name}: expanded; the contract waits until no instance of the previous release writes: mongosh \
                 \"$URI\" --eval \"var contract = true\" {name}.js"
            );
            lines.push(format!("if (typeof contract === \"undefined\") {{ print({}); }} else {{", js_string(&waiting)));
        }
        lines.push(String::new());
        lines.extend(step.comments.iter().map(|c| js_line_comment(c)));
        if let (true, Ok(validator)) = (step.require_valid, step.command.get_document("validator")) {
            lines.push(format!(
                "mongoSchemaRequireValid({}, {}, {});",
                js_string(&step.db),
                js_string(&step.collection),
                js_document(validator)
            ));
        }
        let fallback = step.if_namespace_exists.as_ref().map_or_else(|| "null".to_owned(), js_document);
        lines.push(format!("mongoSchemaStep({}, {}, {});", js_string(&step.db), js_document(&step.command), fallback));
    }
    if contract {
        lines.push("}".to_owned());
    }
}

fn removed(lines: &mut Vec<String>, removed: &[Entry]) {
    if removed.is_empty() {
        return;
    }
    lines.push(String::new());
    lines.push(js_line_comment(
        "Models no longer in the code. Their collections, documents and validators are left as they are:",
    ));
    lines
        .extend(removed.iter().map(|e| js_line_comment(&format!("- {} ({})", e.model.namespace(), e.model.rust_type))));
}

fn footer(mut lines: Vec<String>, migration: &Migration) -> String {
    lines.push(String::new());
    lines.push(format!("print({});", js_string(&format!("{}: done", migration.name))));
    lines.join("\n") + "\n"
}

/// The same commands as JSON (canonical Extended JSON, exact BSON types), for drivers and
/// other runners: run each `up` step's `command`; on NamespaceExists (48) run its
/// `ifNamespaceExists` instead.
fn commands_json(migration: &Migration) -> String {
    let removed: Vec<Value> = migration
        .removed
        .iter()
        .map(|e| json!({ "db": e.model.db, "collection": e.model.collection, "rustType": e.model.rust_type }))
        .collect();
    let value = json!({
        "migration": migration.name,
        "generatedBy": "mongo-schema",
        "notes": migration.notes,
        "up": migration.up.iter().map(step_json).collect::<Vec<_>>(),
        "down": migration.down.iter().map(step_json).collect::<Vec<_>>(),
        "removed": removed,
    });
    serde_json::to_string_pretty(&value).expect("a JSON value always serialises") + "\n"
}

fn step_json(step: &Step) -> Value {
    let mut value = json!({ "db": step.db, "collection": step.collection, "command": canonical(&step.command) });
    if let Some(fallback) = &step.if_namespace_exists {
        value["ifNamespaceExists"] = canonical(fallback);
    }
    if step.phase == Phase::Contract {
        value["phase"] = Phase::Contract.as_str().into();
    }
    if step.require_valid {
        value["requireValid"] = true.into();
    }
    value
}

fn canonical(doc: &mongo_schema_core::bson::Document) -> Value {
    Bson::Document(doc.clone()).into_canonical_extjson()
}

#[cfg(test)]
mod tests {
    use mongo_schema_contract::codes::{INDEX_NOT_FOUND, NAMESPACE_EXISTS};

    /// The scripts' prelude spells the codes `apply` reads by name (it is mongosh's text).
    #[test]
    fn the_prelude_reads_the_codes_apply_reads() {
        for (code, condition) in
            [(NAMESPACE_EXISTS, "ifNamespaceExists"), (INDEX_NOT_FOUND, "\"dropIndexes\" in command")]
        {
            let test = format!("reply.code === {} && {condition}", code.code);
            assert!(super::PRELUDE.contains(&test), "{} ({}): {test}", code.name, code.code);
        }
    }
}
