//! From the inference state to draft models: each path's target type (what the modelling
//! rules want, chosen from what the data shows), the Rust source of the models, and the
//! values those models will refuse (the anomalies), path by path.

use super::evidence::{self, Cases};
use super::stats::{Collection, Field, Kind, Object, Seen, Values, MAX_LENGTH};
use mongo_schema_contract::case::RenameRule;
use mongo_schema_contract::naming;
use mongo_schema_core::bson::Document;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

/// Distinct strings at most for an enum.
const ENUM_MAX: usize = 12;

/// One collection to draft a model for.
#[derive(Debug, Clone)]
pub struct Input {
    /// The database.
    pub db: String,
    /// The collection.
    pub collection: String,
    /// What its documents held.
    pub stats: Collection,
    /// Documents in the collection (`count`), when known.
    pub total: Option<u64>,
    /// `listIndexes`' documents, from a deployment or a dump's metadata.
    pub indexes: Vec<Document>,
    /// The collection's validator, when it has one.
    pub validator: Option<Document>,
    /// Its `validationLevel` as `listCollections` (or a dump's metadata) gives it; `None`:
    /// not stated, mongod's default (`strict`).
    pub validation_level: Option<String>,
    /// Its `validationAction`; `None`: not stated, mongod's default (`error`).
    pub validation_action: Option<String>,
}

/// What a person should decide about a path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidate {
    /// `rename`, `enum`, `map`, `bound`, `type`, `date`, `nesting`.
    pub kind: &'static str,
    /// The path (`a.b`, `items.$[]` for an array's items, as `schema check` groups them, `<key>` for a map's values).
    pub path: String,
    /// What was seen and what was drafted.
    pub note: String,
}

/// Documents the drafted model refuses, at one path.
#[derive(Debug, Clone, PartialEq)]
pub struct Anomaly {
    /// The path (`a.b`, `items.$[]` for an array's items, as `schema check` groups them, `<key>` for a map's values).
    pub path: String,
    /// What the refused values are.
    pub what: String,
    /// Documents holding one (for a map's values, at least this many).
    pub documents: u64,
    /// `_id`s of the first such documents.
    pub examples: Vec<String>,
}

/// A path's observed kinds.
#[derive(Debug, Clone, PartialEq)]
pub struct FieldSeen {
    /// The path (`a.b`, `items.$[]` for an array's items, as `schema check` groups them, `<key>` for a map's values).
    pub path: String,
    /// Documents (at this level) holding the key.
    pub present: u64,
    /// Documents at this level.
    pub of: u64,
    /// Each BSON kind seen, with its count of values.
    pub kinds: Vec<(&'static str, u64)>,
    /// The drafted Rust type.
    pub rust: String,
}

/// What the draft of one collection says.
#[derive(Debug, Clone, PartialEq)]
pub struct CollectionDraft {
    /// `db.collection`.
    pub namespace: String,
    /// The drafted collection root.
    pub model: String,
    /// Documents read.
    pub read: u64,
    /// Documents in the collection, when counted (a deployment).
    pub total: Option<u64>,
    /// Each path's kinds.
    pub fields: Vec<FieldSeen>,
    /// The values the drafted model refuses, by path.
    pub anomalies: Vec<Anomaly>,
    /// What a person should decide.
    pub candidates: Vec<Candidate>,
    /// Notes (an empty collection, an existing validator, indexes not drafted).
    pub notes: Vec<String>,
    /// The validator the collection already has, with whether mongod enforces it.
    pub existing: Option<Existing>,
}

/// A validator the collection already has: what it says and whether it refuses anything.
#[derive(Debug, Clone, PartialEq)]
pub struct Existing {
    /// The validator document, as relaxed Extended JSON.
    pub validator: serde_json::Value,
    /// `validationLevel`: `strict`, `moderate` or `off`.
    pub level: String,
    /// `validationAction`: `error` or `warn`.
    pub action: String,
    /// Whether the level or action was left to mongod's default (not stated).
    pub defaulted: bool,
    /// Whether a write that fails it is refused (`error` with a level other than `off`).
    pub enforced: bool,
}

impl Existing {
    fn new(validator: &Document, level: Option<&str>, action: Option<&str>) -> Existing {
        let defaulted = level.is_none() || action.is_none();
        let level = level.unwrap_or("strict").to_owned();
        let action = action.unwrap_or("error").to_owned();
        Existing {
            validator: mongo_schema_core::bson::Bson::Document(validator.clone()).into_relaxed_extjson(),
            enforced: action == "error" && level != "off",
            level,
            action,
            defaulted,
        }
    }

    /// What it means for writes, in words.
    pub fn meaning(&self) -> &'static str {
        match (self.level.as_str(), self.action.as_str()) {
            ("off", _) => "not enforced: validationLevel off checks nothing",
            (_, "warn") => "not enforced: a write that fails it is logged, not refused",
            ("moderate", _) => {
                "enforced on inserts and on updates of documents that pass it; documents that already fail it may still be updated"
            }
            _ => "enforced: a write that fails it is refused",
        }
    }
}

/// The drafted source and what it says of each collection.
#[derive(Debug, Clone, PartialEq)]
pub struct Draft {
    /// The Rust source of the models.
    pub source: String,
    /// Per collection, sorted by namespace.
    pub collections: Vec<CollectionDraft>,
}

/// Drafts the models of `inputs` (sorted by namespace first, so the file depends on the
/// data only).
pub fn draft(inputs: &[Input]) -> Draft {
    let mut sorted: Vec<&Input> = inputs.iter().collect();
    sorted.sort_by(|a, b| (&a.db, &a.collection).cmp(&(&b.db, &b.collection)));
    let mut w = Writer::default();
    let mut collections = Vec::new();
    let cases: Vec<Cases> = sorted.iter().map(|input| Cases::of_object(&input.stats.root)).collect();
    for (n, input) in sorted.iter().enumerate() {
        // the case of the database's other collections: a rename's direction may need it
        let others = sorted.iter().zip(&cases).enumerate().filter(|(m, (other, _))| *m != n && other.db == input.db);
        let database = others.fold(Cases::default(), |sum, (_, (_, c))| sum + *c);
        collections.push(w.collection(input, database));
    }
    let mut source = String::from(HEADER);
    for item in &w.items {
        source.push('\n');
        source.push_str(item);
    }
    Draft { source, collections }
}

const HEADER: &str = "\
// Drafted by `schema infer` from the data: the target shape of each collection, what the
// modelling rules want, chosen from what the documents hold. Review every type, waiver and
// bound before adopting it (docs/INFER.md); `schema check` with these models lists the
// documents that must change.
#![allow(dead_code)]

use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};
";

/// The target type of a path.
#[derive(Debug, Clone, PartialEq)]
enum Ty {
    ObjectId,
    String,
    Enum(String),
    Bool,
    I32,
    I64,
    F64,
    Decimal,
    Date,
    Uuid,
    Binary,
    Timestamp,
    Regex,
    Struct(String),
    Map(Box<Ty>, u64),
    Vec(Box<Ty>, u64),
    Any,
}

impl Ty {
    fn accepts(&self, kind: Kind) -> bool {
        match self {
            Ty::ObjectId => kind == Kind::ObjectId,
            Ty::String | Ty::Enum(_) => kind == Kind::String,
            Ty::Bool => kind == Kind::Bool,
            Ty::I32 | Ty::I64 => matches!(kind, Kind::Int | Kind::Long),
            Ty::F64 => matches!(kind, Kind::Double | Kind::Int | Kind::Long),
            Ty::Decimal => kind == Kind::Decimal,
            Ty::Date => kind == Kind::Date,
            Ty::Uuid => kind == Kind::Uuid,
            Ty::Binary => matches!(kind, Kind::BinData | Kind::Uuid),
            Ty::Timestamp => kind == Kind::Timestamp,
            Ty::Regex => kind == Kind::Regex,
            Ty::Struct(_) | Ty::Map(..) => kind == Kind::Object,
            Ty::Vec(..) => kind == Kind::Array,
            Ty::Any => true,
        }
    }

    fn rust(&self) -> String {
        match self {
            Ty::ObjectId => "mongo_schema::bson::oid::ObjectId".into(),
            Ty::String => "String".into(),
            Ty::Enum(name) | Ty::Struct(name) => name.clone(),
            Ty::Bool => "bool".into(),
            Ty::I32 => "i32".into(),
            Ty::I64 => "i64".into(),
            Ty::F64 => "f64".into(),
            Ty::Decimal => "rust_decimal::Decimal".into(),
            Ty::Date => "mongo_schema::bson::DateTime".into(),
            Ty::Uuid => "uuid::Uuid".into(),
            Ty::Binary => "mongo_schema::bson::Binary".into(),
            Ty::Timestamp => "mongo_schema::bson::Timestamp".into(),
            Ty::Regex => "mongo_schema::bson::Regex".into(),
            Ty::Map(value, _) => format!("std::collections::BTreeMap<String, {}>", value.rust()),
            Ty::Vec(item, _) => format!("Vec<{}>", item.rust()),
            Ty::Any => "mongo_schema::bson::Bson".into(),
        }
    }
}

/// Where a type is written: a field, or inside a `Vec` / map (bounds then go in `items(...)`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Place {
    Field,
    Inner,
}

#[derive(Default)]
struct Writer {
    items: Vec<String>,
    names: BTreeSet<String>,
}

/// The per-collection work: anomalies and candidates found while typing paths.
struct Ctx {
    anomalies: Vec<Anomaly>,
    candidates: Vec<Candidate>,
    fields: Vec<FieldSeen>,
    notes: Vec<String>,
    /// Paths written (as serde writes them), with whether an array is on the way / it is a date.
    paths: BTreeMap<String, (bool, bool)>,
    /// The paths the deployment names (its indexes, its validator), with what names them.
    deployed: BTreeMap<String, Vec<String>>,
    /// The keys of the database's other collections, by case.
    database: Cases,
}

impl Writer {
    fn unique(&mut self, base: &str) -> String {
        let base = if base.is_empty() { "Document".to_owned() } else { base.to_owned() };
        let mut name = base.clone();
        let mut n = 2;
        while self.names.contains(&name) || RESERVED.contains(&name.as_str()) {
            name = format!("{base}{n}");
            n += 1;
        }
        self.names.insert(name.clone());
        name
    }

    fn collection(&mut self, input: &Input, database: Cases) -> CollectionDraft {
        let namespace = format!("{}.{}", input.db, input.collection);
        let base = pascal(input.collection.strip_prefix("t_").unwrap_or(&input.collection));
        let model = self.unique(&base);
        let mut ctx = Ctx {
            anomalies: Vec::new(),
            candidates: Vec::new(),
            fields: Vec::new(),
            notes: Vec::new(),
            paths: BTreeMap::new(),
            deployed: evidence::deployed_names(&input.indexes, input.validator.as_ref()),
            database,
        };
        if input.stats.documents == 0 {
            ctx.notes.push("the collection is empty: the model holds only `_id` (an ObjectId)".to_owned());
        }
        let existing = input.validator.as_ref().map(|validator| {
            Existing::new(validator, input.validation_level.as_deref(), input.validation_action.as_deref())
        });
        if let Some(e) = &existing {
            ctx.notes.push(format!(
                "the collection already has a validator (validationLevel {}, validationAction {}{}: {}): {}",
                e.level,
                e.action,
                if e.defaulted { ", mongod's defaults where not stated" } else { "" },
                e.meaning(),
                e.validator
            ));
        }
        let mut root_attrs = vec![format!("db = {:?}", input.db), format!("collection = {:?}", input.collection)];
        let mut waivers = Vec::new();
        if naming::check_db_name(&input.db).is_err() {
            waivers.push("db_name");
        }
        if naming::check_collection_name(&input.collection).is_err() {
            waivers.push("collection_name");
        }
        let start = self.items.len();
        let body = self.structure(&model, &input.stats.root, "", 1, true, &mut ctx);
        self.items.pop(); // the root goes before the types it uses
        let indexes = index_attrs(&input.indexes, &mut ctx);
        root_attrs.extend(indexes);
        if !waivers.is_empty() {
            root_attrs.push(format!(
                "allow({}, reason = \"the deployed names, kept as they are: renaming a database or collection is a move, not a model change\")",
                waivers.join(", ")
            ));
        }
        let read = match input.total {
            Some(total) => format!("{} of {}", thousands(input.stats.documents), thousands(total)),
            None => thousands(input.stats.documents),
        };
        let mut item = format!("/// `{}`: {read} documents read.\n", shown(&namespace));
        item.push_str(&body.replacen("#[mongo(ROOT", &format!("#[mongo({}", root_attrs.join(", ")), 1));
        self.items.insert(start, item);
        ctx.anomalies.sort_by(|a, b| a.path.cmp(&b.path).then(a.what.cmp(&b.what)));
        CollectionDraft {
            namespace,
            model,
            read: input.stats.documents,
            total: input.total,
            fields: ctx.fields,
            anomalies: ctx.anomalies,
            candidates: ctx.candidates,
            notes: ctx.notes,
            existing,
        }
    }

    /// The type `name` for the documents of `object` at `path` (nesting `level`, the root
    /// is 1): a struct, or at the root an internally tagged enum when a key's values each
    /// bring keys of their own. Pushes its nested types and returns its own source.
    fn structure(
        &mut self,
        name: &str,
        object: &Object,
        path: &str,
        level: usize,
        root: bool,
        ctx: &mut Ctx,
    ) -> String {
        let tagged = if root { discriminator(object, ctx) } else { None };
        let has_id = object.fields.iter().any(|f| f.key == "_id");
        // a root whose keys are data (dates, ids) or too many to be names: `_id` and a map of the rest
        let others = object.distinct_keys.saturating_sub(u64::from(has_id));
        let data_root = root && tagged.is_none() && (object.overflowed || (others > 0 && object.data_keys == others));
        // keys of one variant each never meet either, nor do data keys: they are no rename
        let not_renamed = |p: usize| data_root || tagged.as_ref().is_some_and(|t| t.position == p || t.explains(p));
        let renames = renames(object, path, not_renamed, ctx);
        // keys all in camelCase: `rename_all` says it once (not in an enum: it would rename the variants)
        let rename_all = tagged.is_none() && camel_case(object, &renames);
        let mut fields: Vec<Drafted> = Vec::new();
        let mut idents = BTreeSet::new();
        let mut keys = Vec::new();
        if root && !has_id {
            fields.push(Drafted {
                key: "_id".into(),
                position: None,
                lines: vec![
                    "/// Not seen in the documents read: mongod adds one to every document.".into(),
                    "#[serde(rename = \"_id\")]".into(),
                    "pub id: mongo_schema::bson::oid::ObjectId,".into(),
                ],
            });
            idents.insert("id".to_owned());
        }
        for (position, field) in object.fields.iter().enumerate() {
            if data_root && field.key != "_id" {
                continue;
            }
            let child = join(path, &field.key);
            if field.key.is_empty() || field.key.contains('.') || field.key.starts_with('$') {
                ctx.candidate(
                    "key",
                    &child,
                    &format!(
                        "the key {:?} ({} documents) cannot be a field (the rules refuse `.`, `$` and empty names, with no waiver): left out of the model, so serde drops it when a document is read and written back; rename it with a data migration",
                        field.key,
                        thousands(field.holders.documents)
                    ),
                );
                continue;
            }
            if renames.values().any(|old| old == &field.key) {
                continue; // written as the new key's `renamed_from`
            }
            if let Some(tag) = &tagged {
                if tag.position == position {
                    keys.push(field.key.clone());
                    ctx.fields.push(FieldSeen {
                        path: child,
                        present: field.present,
                        of: object.count,
                        kinds: field.values.kinds.iter().map(|(k, s)| (k.name(), s.values)).collect(),
                        rust: format!("the tag of enum {name}"),
                    });
                    continue;
                }
            }
            let merged;
            let (values, present, old) = match renames.get(&field.key) {
                Some(old) => {
                    let old_field = object.fields.iter().find(|f| &f.key == old).expect("a rename names a field");
                    let mut values = field.values.clone();
                    values.merge(&old_field.values);
                    merged = values;
                    (&merged, field.present + old_field.present, Some(old.clone()))
                }
                None => (&field.values, field.present, None),
            };
            // a key only one variant's documents hold is typed among that variant's documents,
            // a key some variants' documents hold among theirs
            let (parent, of) = match (tagged.as_ref().and_then(|t| t.owner(position)), &tagged) {
                (Some(variant), _) => (format!("{name}{}", variant.name), variant.documents),
                (None, Some(t)) => (name.to_owned(), t.documents_of(position).unwrap_or(object.count)),
                (None, None) => (name.to_owned(), object.count),
            };
            // documents with no tag (anomalies) may hold a variant's key too
            let present = present.min(of);
            let ident = self.ident(&field.key, &mut idents);
            if field.key != "_id" {
                keys.push(field.key.clone());
            }
            let lines = self.field(
                &parent,
                field,
                values,
                (present, of),
                old.as_deref(),
                &child,
                (&ident, rename_all),
                level,
                root,
                ctx,
            );
            fields.push(Drafted { key: field.key.clone(), position: Some(position), lines });
        }
        if data_root {
            let lines = self.entries(name, object, others, ctx);
            fields.push(Drafted { key: String::new(), position: None, lines });
        }
        let mut container: Vec<String> = Vec::new();
        if root {
            container.push("ROOT".to_owned());
        }
        if !field_names_pass(&keys) {
            container.push(
                "allow(field_name, reason = \"the keys as deployed; renaming them is a data migration (renamed_from)\")"
                    .to_owned(),
            );
        }
        let mut out = String::new();
        out.push_str("#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, MongoSchema)]\n");
        match &tagged {
            Some(tag) => {
                let _ = writeln!(out, "#[serde(tag = {:?})]", tag.key);
                let _ = writeln!(out, "#[mongo({})]", container.join(", "));
                let _ = writeln!(out, "pub enum {name} {{");
                for variant in &tag.variants {
                    let own: Vec<&str> = fields
                        .iter()
                        .filter(|f| variant.has(f.position) && f.position.is_some_and(|p| tag.owner(p).is_some()))
                        .map(|f| f.key.as_str())
                        .collect();
                    let _ = writeln!(
                        out,
                        "    /// `{}: {:?}`: {} documents{}.",
                        shown(&tag.key),
                        variant.value,
                        thousands(variant.documents),
                        if own.is_empty() { String::new() } else { format!(", with {}", shown(&own.join(", "))) }
                    );
                    let _ = writeln!(out, "    #[serde(rename = {:?})]", variant.value);
                    let _ = writeln!(out, "    {} {{", variant.name);
                    for f in fields.iter().filter(|f| variant.has(f.position)) {
                        for line in &f.lines {
                            let line = line.strip_prefix("pub ").unwrap_or(line);
                            let _ = writeln!(out, "        {line}");
                        }
                    }
                    out.push_str("    },\n");
                }
            }
            None => {
                if rename_all {
                    out.push_str("#[serde(rename_all = \"camelCase\")]\n");
                }
                if !container.is_empty() {
                    let _ = writeln!(out, "#[mongo({})]", container.join(", "));
                }
                let _ = writeln!(out, "pub struct {name} {{");
                for f in &fields {
                    for line in &f.lines {
                        let _ = writeln!(out, "    {line}");
                    }
                }
            }
        }
        out.push_str("}\n");
        self.items.push(out.clone());
        out
    }

    /// The lines of a root's flattened map: its keys (but `_id`) are data, `others` of them.
    fn entries(&mut self, name: &str, object: &Object, others: u64, ctx: &mut Ctx) -> Vec<String> {
        let merged = object.merged_data();
        let value = match self.decide(name, "entries", &merged, "<key>", 2, Place::Inner, ctx) {
            Ty::Map(..) | Ty::Vec(..) => Ty::Any,
            other => other,
        };
        for (kind, seen) in &merged.kinds {
            if !value.accepts(*kind) {
                ctx.anomaly("<key>", &format!("{} value where the model has {}", kind.name(), value.rust()), seen);
            }
        }
        let why = match object.overflowed {
            true => format!("more than {} distinct keys", super::stats::MAX_KEYS),
            false => format!("{} distinct keys, all data (ids, numbers, dates)", thousands(others)),
        };
        ctx.candidate("map", "<root>", &format!("{why}: drafted as `_id` and a flattened map of the other keys"));
        ctx.fields.push(FieldSeen {
            path: "<key>".into(),
            present: merged.total(),
            of: object.count,
            kinds: merged.kinds.iter().map(|(k, s)| (k.name(), s.values)).collect(),
            rust: value.rust(),
        });
        vec![
            format!("/// The other keys: {why} ({}).", kinds_line(&merged)),
            "#[serde(flatten)]".to_owned(),
            format!("pub entries: std::collections::BTreeMap<String, {}>,", value.rust()),
        ]
    }

    fn ident(&self, key: &str, taken: &mut BTreeSet<String>) -> String {
        let base = if key == "_id" { "id".to_owned() } else { snake(key) };
        let base = if KEYWORDS.contains(&base.as_str()) { format!("{base}_") } else { base };
        let mut ident = base.clone();
        let mut n = 2;
        while taken.contains(&ident) {
            ident = format!("{}_{n}", base.trim_end_matches('_'));
            n += 1;
        }
        taken.insert(ident.clone());
        ident
    }

    #[allow(clippy::too_many_arguments)]
    fn field(
        &mut self,
        parent: &str,
        field: &Field,
        values: &Values,
        (present, of): (u64, u64),
        old: Option<&str>,
        path: &str,
        (ident, rename_all): (&str, bool),
        level: usize,
        root: bool,
        ctx: &mut Ctx,
    ) -> Vec<String> {
        let key = field.key.as_str();
        let nulls = values.count(Kind::Null);
        let optional = present < of;
        let nullable = nulls > 0;
        let ty = self.decide(parent, key, values, path, level, Place::Field, ctx);
        let mut lines = Vec::new();
        // what was seen
        let mut seen = format!("{} of {}", thousands(present), thousands(of));
        let kinds = kinds_line(values);
        if !kinds.is_empty() {
            let _ = write!(seen, ": {kinds}");
        }
        if let Some(old) = old {
            let _ = write!(seen, " (with `{}`, its old key)", shown(old));
        }
        lines.push(format!("/// {seen}."));
        if let (Ty::String, Some(value)) = (&ty, single_string(values)) {
            lines.push(format!("/// Every string read is {value:?}: a String, not an enum of one variant."));
        }
        if optional && nullable {
            lines.push(
                "/// Missing in some documents and null in others: both admitted (`nullable`), both read as `None`."
                    .to_owned(),
            );
        }
        ctx.fields.push(FieldSeen {
            path: path.to_owned(),
            present,
            of,
            kinds: values.kinds.iter().map(|(k, s)| (k.name(), s.values)).collect(),
            rust: ty.rust(),
        });
        // anomalies: the kinds the type refuses
        for (kind, seen) in &values.kinds {
            if *kind == Kind::Null {
                // an `Option`: null admitted (`nullable` where the field may be missing too)
                continue;
            }
            if !ty.accepts(*kind) {
                ctx.anomaly(path, &format!("{} where the model has {}", kind.name(), ty.rust()), seen);
            }
        }
        if matches!(ty, Ty::F64) && values.count(Kind::Double) > 0 && values.fractional.values == 0 {
            ctx.candidate("bound", path, "every double is integral: an integer type may fit");
        }
        let mut serde = Vec::new();
        let written = if rename_all { RenameRule::Camel.apply_to_field(ident) } else { ident.to_owned() };
        if written != key {
            serde.push(format!("rename = {key:?}"));
        }
        if let Some(old) = old {
            // the previous release writes the old key until the contract moves it
            serde.push(format!("alias = {old:?}"));
        }
        let wrapped = optional || nullable;
        if optional {
            serde.push("skip_serializing_if = \"Option::is_none\"".into());
        }
        match (&ty, wrapped) {
            (Ty::Decimal, false) => serde.push("with = \"mongo_schema::serde_helpers::decimal128\"".into()),
            (Ty::Decimal, true) => {
                serde.push("with = \"mongo_schema::serde_helpers::decimal128_option\"".into());
                serde.push("default".into());
            }
            (Ty::Uuid, false) => serde.push("with = \"mongo_schema::serde_helpers::uuid_binary\"".into()),
            (Ty::Uuid, true) => {
                serde.push("with = \"mongo_schema::serde_helpers::uuid_binary_option\"".into());
                serde.push("default".into());
            }
            _ => {}
        }
        if !serde.is_empty() {
            lines.push(format!("#[serde({})]", serde.join(", ")));
        }
        let mut mongo = Vec::new();
        if optional && nullable {
            mongo.push("nullable".to_owned());
        }
        match old {
            // migrations move a root field's old key; below the root a data migration does
            Some(old) if root => mongo.push(format!("renamed_from = {old:?}")),
            Some(old) => {
                let docs = lines.iter().take_while(|l| l.starts_with("///")).count();
                lines.insert(docs, format!("/// Renamed from `{}`, which `alias` still reads: migrations rename root fields only, so a data migration (`schema new-data --contract`) moves these.", shown(old)));
            }
            None => {}
        }
        mongo.extend(bounds(&ty, Place::Field));
        if matches!(ty, Ty::I32 | Ty::I64 | Ty::F64) && naming::is_status_name(key) {
            mongo.push(
                "allow(numeric_status, reason = \"stored as numbers; a string enum needs a data migration\")"
                    .to_owned(),
            );
            ctx.candidate("enum", path, "a status stored as numbers: a string enum is what the rules want");
        }
        if matches!(ty, Ty::String | Ty::Enum(_)) && naming::is_date_name(key) {
            mongo.push(
                "allow(string_date, reason = \"stored as strings; a BSON date needs a data migration\")".to_owned(),
            );
            ctx.candidate("date", path, "a date stored as strings: convert them, then make it a BSON date");
        }
        if matches!(ty, Ty::F64) && naming::is_money_name(key) {
            mongo.push(
                "allow(money_double, reason = \"stored as doubles; Decimal128 needs a data migration\")".to_owned(),
            );
        }
        if root && key == "_id" && !matches!(ty, Ty::ObjectId | Ty::I32 | Ty::I64 | Ty::Date) {
            mongo.push(
                "allow(random_id, reason = \"the deployed `_id`s; changing them rewrites every document\")".into(),
            );
        }
        if !mongo.is_empty() {
            lines.push(format!("#[mongo({})]", mongo.join(", ")));
        }
        let rust = if wrapped { format!("Option<{}>", ty.rust()) } else { ty.rust() };
        lines.push(format!("pub {ident}: {rust},"));
        let in_array = path.contains(".$[]") || matches!(ty, Ty::Vec(..));
        ctx.paths.insert(path.replace(".$[]", ""), (in_array, !in_array && !wrapped && ty == Ty::Date));
        lines
    }

    /// The target type of the values at `path` (`key` names it in its parent `parent`).
    #[allow(clippy::too_many_arguments)]
    fn decide(
        &mut self,
        parent: &str,
        key: &str,
        values: &Values,
        path: &str,
        level: usize,
        place: Place,
        ctx: &mut Ctx,
    ) -> Ty {
        let kinds: BTreeMap<Kind, u64> =
            values.kinds.iter().filter(|(k, _)| **k != Kind::Null).map(|(k, s)| (*k, s.values)).collect();
        let has = |k: Kind| kinds.contains_key(&k);
        let only = |allowed: &[Kind]| kinds.keys().all(|k| allowed.contains(k));
        if kinds.is_empty() {
            return Ty::Any;
        }
        let numeric = [Kind::Int, Kind::Long, Kind::Double, Kind::Decimal];
        if only(&numeric) {
            if has(Kind::Decimal) || (naming::is_money_name(key) && has(Kind::Double)) {
                return Ty::Decimal;
            }
            if has(Kind::Double) && (values.fractional.values > 0 || !(has(Kind::Int) || has(Kind::Long))) {
                return Ty::F64;
            }
            // int32 alone stays int32; int64 (or doubles an int32 cannot hold) widen to i64
            return if has(Kind::Long) || values.wide_doubles > 0 { Ty::I64 } else { Ty::I32 };
        }
        if has(Kind::Date) && only(&[Kind::Date, Kind::String]) {
            return Ty::Date;
        }
        if has(Kind::ObjectId) && only(&[Kind::ObjectId, Kind::String]) {
            return Ty::ObjectId;
        }
        if has(Kind::Uuid) && only(&[Kind::Uuid, Kind::String]) {
            return Ty::Uuid;
        }
        if kinds.len() > 1 {
            // no target of the rules fits them all: the most frequent kind (the rest are anomalies)
            let (top, _) = kinds.iter().max_by(|a, b| a.1.cmp(b.1).then(b.0.cmp(a.0))).expect("not empty");
            let mut narrowed = values.clone();
            narrowed.kinds.retain(|k, _| k == top || *k == Kind::Null);
            let names: Vec<&str> = kinds.keys().map(|k| k.name()).collect();
            ctx.candidate(
                "type",
                path,
                &format!("mixed {}: drafted as the most frequent, {}", names.join(" and "), top.name()),
            );
            return self.decide(parent, key, &narrowed, path, level, place, ctx);
        }
        let kind = *kinds.keys().next().expect("not empty");
        match kind {
            Kind::String => self.string(parent, key, values, path, ctx),
            Kind::Bool => Ty::Bool,
            Kind::BinData => Ty::Binary,
            Kind::Timestamp => Ty::Timestamp,
            Kind::Regex => Ty::Regex,
            Kind::Object => self.object(parent, key, values, path, level, place, ctx),
            Kind::Array => self.array(parent, key, values, path, level, place, ctx),
            _ => Ty::Any,
        }
    }

    fn string(&mut self, parent: &str, key: &str, values: &Values, path: &str, ctx: &mut Ctx) -> Ty {
        let count = values.count(Kind::String);
        if values.uuid_strings == count {
            ctx.candidate("type", path, "every string is a UUID: binary UUIDs (subtype 4) would be half the size");
        }
        if values.hex_strings == count {
            ctx.candidate("type", path, "every string is 24 hex digits: an ObjectId reference stored as a string?");
        }
        let Some(strings) = &values.strings else { return Ty::String };
        if let Some(value) = single_string(values) {
            ctx.candidate(
                "enum",
                path,
                &format!("every string is {value:?}: drafted as a String, since an enum of one variant would refuse the first other value; make it an enum once it has two"),
            );
            return Ty::String;
        }
        let enumerable = strings.len() <= ENUM_MAX
            && count >= 2 * strings.len() as u64
            && values.date_strings == 0
            && values.uuid_strings == 0
            && values.hex_strings == 0
            && strings.keys().all(|s| !s.is_empty() && s.len() <= 64);
        if !enumerable {
            return Ty::String;
        }
        let name = self.unique(&format!("{parent}{}", pascal(key)));
        let mut out = String::new();
        let listed: Vec<String> = strings.iter().map(|(s, n)| format!("{s:?} {}", thousands(*n))).collect();
        let _ = writeln!(out, "/// The values of `{}`: {}.", shown(path), listed.join(", "));
        out.push_str("#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, MongoSchema)]\n");
        let _ = writeln!(out, "pub enum {name} {{");
        let mut taken = BTreeSet::new();
        for value in strings.keys() {
            let variant = variant_name(value, &mut taken);
            let _ = writeln!(out, "    #[serde(rename = {value:?})]\n    {variant},");
        }
        out.push_str("}\n");
        self.items.push(out);
        ctx.candidate("enum", path, &format!("{} distinct strings: drafted as `enum {name}`", strings.len()));
        Ty::Enum(name)
    }

    #[allow(clippy::too_many_arguments)]
    fn object(
        &mut self,
        parent: &str,
        key: &str,
        values: &Values,
        path: &str,
        level: usize,
        place: Place,
        ctx: &mut Ctx,
    ) -> Ty {
        let object = values.object.as_deref().expect("an object kind has its stats");
        if level >= 5 {
            ctx.candidate("nesting", path, "nested deeper than the rules' 5 levels: drafted as any BSON value");
            return Ty::Any;
        }
        let data_keys = object.overflowed || (object.distinct_keys > 0 && object.data_keys == object.distinct_keys);
        if data_keys {
            let merged = object.merged();
            let bound = round_up(object.max_keys.max(1), u64::MAX);
            let why = match object.overflowed {
                true => format!("more than {} distinct keys", super::stats::MAX_KEYS),
                false => format!("{} distinct keys, all data (ids, numbers, dates)", thousands(object.distinct_keys)),
            };
            ctx.candidate("map", path, &format!("{why}: drafted as a map of at most {bound} entries"));
            let value = match place {
                Place::Field if level < 5 => {
                    let v = self.decide(parent, key, &merged, &format!("{path}.<key>"), level + 1, Place::Inner, ctx);
                    match v {
                        Ty::Map(..) | Ty::Vec(..) => Ty::Any,
                        other => other,
                    }
                }
                _ => Ty::Any,
            };
            let value_path = format!("{path}.<key>");
            for (kind, seen) in &merged.kinds {
                if !value.accepts(*kind) {
                    ctx.anomaly(
                        &value_path,
                        &format!("{} value where the model has {}", kind.name(), value.rust()),
                        seen,
                    );
                }
            }
            return Ty::Map(Box::new(value), bound);
        }
        let name = self.unique(&format!("{parent}{}", pascal(key)));
        self.structure(&name, object, path, level + 1, false, ctx);
        Ty::Struct(name)
    }

    #[allow(clippy::too_many_arguments)]
    fn array(
        &mut self,
        parent: &str,
        key: &str,
        values: &Values,
        path: &str,
        level: usize,
        place: Place,
        ctx: &mut Ctx,
    ) -> Ty {
        let max = values.max_length();
        let all = round_up(u64::from(max.clamp(1, MAX_LENGTH)), u64::from(MAX_LENGTH));
        // the bound of the bulk: what admits 99% of the arrays; the few far longer (more than
        // twice it) are outliers, and anomalies, when their documents are all known
        let bulk = round_up(u64::from(values.length_percentile(99).max(1)), u64::from(MAX_LENGTH));
        let outliers = match u64::from(max) > 2 * bulk {
            true => values.longer_than(bulk as u32),
            false => None,
        };
        let bound = match &outliers {
            Some(seen) => {
                ctx.anomaly(path, &format!("an array of more than {bulk} items (up to {max})"), seen);
                ctx.candidate(
                    "bound",
                    path,
                    &format!("99% of the arrays have {bulk} items or fewer, {} have up to {max}: max_items = {bulk}, the longer ones are anomalies (max_items = {all} would admit them)", thousands(seen.values)),
                );
                bulk
            }
            None => {
                if values.too_long.values > 0 {
                    ctx.anomaly(
                        path,
                        &format!("an array of more than {MAX_LENGTH} items (the standard's greatest max_items)"),
                        &values.too_long,
                    );
                }
                let p95 = values.length_percentile(95);
                if u64::from(p95) * 4 < u64::from(max) {
                    ctx.candidate(
                        "bound",
                        path,
                        &format!("arrays of up to {max} items, 95% of them {p95} or fewer: max_items = {all} admits all; a lower bound makes the long ones anomalies"),
                    );
                }
                all
            }
        };
        let item = match (values.items.as_deref(), place) {
            (Some(items), Place::Field) if items.total() > 0 => {
                let item_path = format!("{path}.$[]");
                let ty = self.decide(parent, key, items, &item_path, level, Place::Inner, ctx);
                let ty = match ty {
                    Ty::Map(..) => Ty::Any,
                    other => other,
                };
                for (kind, seen) in &items.kinds {
                    if !ty.accepts(*kind) {
                        ctx.anomaly(
                            &item_path,
                            &format!("{} item where the model has {}", kind.name(), ty.rust()),
                            seen,
                        );
                    }
                }
                ty
            }
            (Some(items), Place::Inner) if items.total() > 0 => {
                // an array of arrays: its items' items are any BSON value
                Ty::Any
            }
            _ => Ty::Any,
        };
        Ty::Vec(Box::new(item), bound)
    }
}

/// The `#[mongo(...)]` bounds a type needs where it is written.
fn bounds(ty: &Ty, place: Place) -> Vec<String> {
    let own = match ty {
        Ty::Vec(_, n) => Some(format!("max_items = {n}")),
        Ty::Map(_, n) => Some(format!("max_properties = {n}")),
        _ => None,
    };
    let inner = match ty {
        Ty::Vec(inner, _) | Ty::Map(inner, _) => bounds(inner, Place::Inner),
        _ => Vec::new(),
    };
    let mut out: Vec<String> = own.into_iter().collect();
    if !inner.is_empty() {
        out.push(format!("items({})", inner.join(", ")));
    }
    let _ = place;
    out
}

impl Ctx {
    fn anomaly(&mut self, path: &str, what: &str, seen: &Seen) {
        self.anomalies.push(Anomaly {
            path: path.to_owned(),
            what: what.to_owned(),
            documents: seen.documents,
            examples: seen.examples.clone(),
        });
    }

    fn candidate(&mut self, kind: &'static str, path: &str, note: &str) {
        if kind == "key" {
            self.notes.push(format!("{path}: {note}"));
        }
        self.candidates.push(Candidate { kind, path: path.to_owned(), note: note.to_owned() });
    }
}

/// One field's drafted lines, with the key's position in its object (for a tagged enum's
/// variants); `None` for an `_id` added because no document showed one.
struct Drafted {
    key: String,
    position: Option<usize>,
    lines: Vec<String>,
}

/// An internally tagged enum drafted for a root: the tag's key and a variant per value.
struct Tagged {
    key: String,
    position: usize,
    variants: Vec<Variant>,
}

struct Variant {
    value: String,
    name: String,
    documents: u64,
    /// Keys (bits by position) every document of the variant has, and any has.
    all: u64,
    any: u64,
}

impl Tagged {
    /// The one variant whose documents alone hold the key at `position`.
    fn owner(&self, position: usize) -> Option<&Variant> {
        if position >= 64 {
            return None;
        }
        let bit = 1u64 << position;
        let mut holders = self.variants.iter().filter(|v| v.any & bit != 0);
        let first = holders.next()?;
        let shared = holders.next().is_some() || self.variants.iter().all(|v| v.all & bit != 0);
        (!shared).then_some(first)
    }

    /// Whether some variant's documents never hold the key at `position`: the tag explains
    /// it, so it is no rename.
    fn explains(&self, position: usize) -> bool {
        position < 64 && self.variants.iter().any(|v| v.any & (1 << position) == 0)
    }

    /// The documents of the variants whose documents hold the key at `position`; `None`
    /// when every variant's do (or it is untracked): then the collection's documents.
    fn documents_of(&self, position: usize) -> Option<u64> {
        if !self.explains(position) {
            return None;
        }
        Some(self.variants.iter().filter(|v| v.has(Some(position))).map(|v| v.documents).sum())
    }
}

impl Variant {
    /// Whether the variant's documents hold the key at `position` (an untracked key, past
    /// the first 64, or an added `_id`, goes in every variant).
    fn has(&self, position: Option<usize>) -> bool {
        match position {
            Some(p) if p < 64 => self.any & (1 << p) != 0,
            _ => true,
        }
    }
}

/// The renames of one level (see [`evidence::renames`]), reported: a candidate saying what
/// decided the direction, an anomaly for the documents holding the old key. Returns new key
/// → old key.
fn renames(object: &Object, path: &str, skip: impl Fn(usize) -> bool, ctx: &mut Ctx) -> BTreeMap<String, String> {
    let mut found = BTreeMap::new();
    for rename in evidence::renames(object, path, skip, &ctx.deployed, ctx.database) {
        let (new, old) = (&object.fields[rename.new], &object.fields[rename.old]);
        let how = match path.is_empty() {
            true => format!("renamed_from = \"{}\"", old.key),
            false => format!("alias = \"{}\" (below the root, a data migration moves the values)", old.key),
        };
        ctx.candidate(
            "rename",
            &join(path, &new.key),
            &format!(
                "`{}` ({}) and `{}` ({}) never occur together and add up to every document: drafted as `{}` with {how}; the new key decided by {}",
                new.key,
                thousands(new.present),
                old.key,
                thousands(old.present),
                new.key,
                rename.why,
            ),
        );
        ctx.anomaly(
            &join(path, &old.key),
            &format!(
                "the old key `{}`: the model writes `{}` ({})",
                old.key,
                new.key,
                if path.is_empty() { "renamed_from" } else { "a data migration moves it" }
            ),
            &old.holders,
        );
        found.insert(new.key.clone(), old.key.clone());
    }
    found
}

/// The tag of a root (see [`evidence::tags`]): the first candidate is drafted, every one is
/// reported.
fn discriminator(object: &Object, ctx: &mut Ctx) -> Option<Tagged> {
    let mut drafted: Option<Tagged> = None;
    for tag in evidence::tags(object) {
        let key = &object.fields[tag.position].key;
        let described: Vec<String> = tag
            .values
            .iter()
            .map(|(value, _, _, any)| {
                let keys: Vec<&str> = object
                    .fields
                    .iter()
                    .enumerate()
                    .take(64)
                    .filter(|(i, _)| *i != tag.position && any & !tag.universal & (1 << i) != 0)
                    .map(|(_, f)| f.key.as_str())
                    .collect();
                format!("{value:?} with {}", if keys.is_empty() { "no other keys".to_owned() } else { keys.join(", ") })
            })
            .collect();
        let what = match &drafted {
            None => "drafted as an internally tagged enum, a variant per value".to_owned(),
            Some(t) => format!("not drafted: the enum is tagged by `{}`", t.key),
        };
        ctx.candidate(
            "discriminator",
            key,
            &format!(
                "the keys its values come with, beyond those every document has ({}): {what}",
                described.join("; ")
            ),
        );
        if drafted.is_none() && tag.untagged > 0 {
            // no variant reads a document whose tag is missing or not a string
            let examples: Vec<String> = object.fields[tag.position]
                .values
                .kinds
                .iter()
                .filter(|(kind, _)| **kind != Kind::String)
                .flat_map(|(_, seen)| seen.examples.iter().cloned())
                .take(super::stats::EXAMPLES)
                .collect();
            ctx.anomalies.push(Anomaly {
                path: key.clone(),
                what: format!("no string `{key}` (missing, or of another type): no variant of the enum reads it"),
                documents: tag.untagged,
                examples,
            });
        }
        if drafted.is_none() {
            let mut taken = BTreeSet::new();
            let variants = tag
                .values
                .iter()
                .map(|(value, documents, all, any)| Variant {
                    value: value.clone(),
                    name: variant_name(value, &mut taken),
                    documents: *documents,
                    all: *all,
                    any: *any,
                })
                .collect();
            drafted = Some(Tagged { key: key.clone(), position: tag.position, variants });
        }
    }
    drafted
}

/// A Rust variant name for a string value, unique among `taken`.
fn variant_name(value: &str, taken: &mut BTreeSet<String>) -> String {
    let mut variant = pascal(value);
    if variant.is_empty() || variant == "Self" || variant.starts_with(|c: char| c.is_ascii_digit()) {
        variant = format!("V{variant}");
    }
    let base = variant.clone();
    let mut n = 2;
    while !taken.insert(variant.clone()) {
        variant = format!("{base}{n}");
        n += 1;
    }
    variant
}

/// Whether the keys that become fields of `object` are all camelCase with at least one
/// capital: `#[serde(rename_all = "camelCase")]` then names most of them.
fn camel_case(object: &Object, renames: &BTreeMap<String, String>) -> bool {
    let keys: Vec<&str> = object
        .fields
        .iter()
        .map(|f| f.key.as_str())
        .filter(|k| *k != "_id" && !renames.values().any(|old| old == k))
        .collect();
    keys.iter().any(|k| k.chars().any(|c| c.is_ascii_uppercase()))
        && keys.iter().all(|k| naming::FieldCase::Camel.fits(k) && naming::check_field_name(k).is_ok())
}

/// The index attributes of a root, from `listIndexes`; indexes the derive cannot state are
/// reported instead.
fn index_attrs(indexes: &[Document], ctx: &mut Ctx) -> Vec<String> {
    use mongo_schema_core::bson::Bson;
    let mut out = Vec::new();
    for index in indexes {
        let name = index.get_str("name").unwrap_or_default().to_owned();
        if name == "_id_" {
            continue;
        }
        let Ok(key) = index.get_document("key") else { continue };
        let mut keys = Vec::new();
        let mut arrays = 0;
        let mut skip = None;
        for (path, direction) in key {
            let value = match direction {
                Bson::Int32(n) => n.signum().to_string(),
                Bson::Int64(n) => n.signum().to_string(),
                Bson::Double(n) => (*n as i64).signum().to_string(),
                Bson::String(s) if s == "hashed" || s == "2dsphere" => format!("{s:?}"),
                other => {
                    skip = Some(format!("a key of kind {other} the drafted attributes do not state"));
                    break;
                }
            };
            match ctx.paths.get(path.as_str()) {
                Some((array, _)) => arrays += usize::from(*array),
                None if path == "_id" => {}
                None => {
                    skip = Some(format!("`{path}` is not a field of the drafted model"));
                    break;
                }
            }
            keys.push(format!("{path:?} = {value}"));
        }
        if arrays > 1 {
            skip = Some("more than one array among its keys".to_owned());
        }
        if let Some(why) = skip {
            ctx.notes.push(format!("index `{name}` is not drafted: {why}; keep it by hand"));
            continue;
        }
        let drafted = ["v", "key", "name", "ns", "unique", "expireAfterSeconds", "partialFilterExpression"];
        let left: Vec<&str> = index.keys().map(String::as_str).filter(|k| !drafted.contains(k)).collect();
        if !left.is_empty() {
            ctx.notes
                .push(format!("index `{name}`: its options {} are not drafted; add them by hand", left.join(", ")));
        }
        let mut attr = format!("index(keys({})", keys.join(", "));
        if index.get_bool("unique").unwrap_or(false) {
            attr.push_str(", unique");
        }
        let _ = write!(attr, ", name = {name:?}");
        if let Some(ttl) = index.get("expireAfterSeconds") {
            let single_date =
                key.len() == 1 && key.keys().next().and_then(|p| ctx.paths.get(p.as_str())).is_some_and(|p| p.1);
            let seconds = match ttl {
                Bson::Int32(n) => i64::from(*n),
                Bson::Int64(n) => *n,
                Bson::Double(n) => *n as i64,
                _ => -1,
            };
            if !single_date || seconds < 0 {
                ctx.notes.push(format!(
                    "index `{name}` expires documents but not on a drafted date field: drafted without its TTL"
                ));
            } else {
                let _ = write!(attr, ", ttl = {seconds}");
            }
        }
        if let Ok(partial) = index.get_document("partialFilterExpression") {
            let json = Bson::Document(partial.clone()).into_canonical_extjson().to_string();
            let _ = write!(attr, ", partial = r#\"{json}\"#");
        }
        attr.push(')');
        out.push(attr);
    }
    out
}

/// Whether the derive's `field_name` rule passes these keys (one style, no bad names).
fn field_names_pass(keys: &[String]) -> bool {
    if keys.iter().any(|k| naming::check_field_name(k).is_err()) {
        return false;
    }
    match keys.iter().find_map(|k| naming::infer_case(k)) {
        Some(case) => keys.iter().all(|k| case.fits(k)),
        None => true,
    }
}

fn kinds_line(values: &Values) -> String {
    let total = values.total();
    let mut kinds: Vec<(&Kind, &Seen)> = values.kinds.iter().collect();
    kinds.sort_by(|a, b| b.1.values.cmp(&a.1.values).then(a.0.cmp(b.0)));
    kinds.iter().map(|(k, s)| format!("{} {}", k.name(), percent(s.values, total))).collect::<Vec<_>>().join(", ")
}

/// `n` of `total` as a percentage people read: `97%`, `<1%`, `100%` only when all.
pub fn percent(n: u64, total: u64) -> String {
    if total == 0 {
        return "0%".into();
    }
    let p = (n as f64) * 100.0 / (total as f64);
    if n == total {
        "100%".into()
    } else if p < 1.0 {
        "<1%".into()
    } else if p > 99.0 {
        ">99%".into()
    } else {
        format!("{}%", p.round() as u64)
    }
}

/// Text from the data as a doc comment shows it: control characters (a line break in a
/// key) escaped, so the comment stays one line.
pub(crate) fn shown(text: &str) -> String {
    text.chars().flat_map(|c| if c.is_control() { c.escape_debug().collect::<Vec<_>>() } else { vec![c] }).collect()
}

/// `9812` → `9,812`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The smallest of 1, 2, 5, 10, 20, 50, ... at least `n`, at most `cap`.
fn round_up(n: u64, cap: u64) -> u64 {
    let mut step = 1u64;
    loop {
        for m in [1, 2, 5] {
            let v = step.saturating_mul(m);
            if v >= n {
                return v.min(cap);
            }
        }
        if step > u64::MAX / 10 {
            return cap;
        }
        step *= 10;
    }
}

fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_owned()
    } else {
        format!("{path}.{key}")
    }
}

/// The one string a path holds when every string there is the same (seen at least twice),
/// and nothing suggests a date, an id or a UUID.
fn single_string(values: &Values) -> Option<&str> {
    let strings = values.strings.as_ref()?;
    let plain = values.date_strings == 0 && values.uuid_strings == 0 && values.hex_strings == 0;
    match (strings.len(), strings.keys().next()) {
        (1, Some(value)) if plain && values.count(Kind::String) >= 2 => Some(value),
        _ => None,
    }
}

/// `order_items`, `orderItems`, `order-items` → `OrderItems`; `Österreichische Bundesliga`
/// → `OsterreichischeBundesliga` (Latin letters lose their diacritics, other letters are
/// their code points); other characters dropped.
pub fn pascal(name: &str) -> String {
    let mut out = String::new();
    for word in naming::words(name) {
        let word = ascii(&word);
        let mut chars = word.chars();
        if let Some(first) = chars.next() {
            out.push(first.to_ascii_uppercase());
            out.extend(chars);
        }
    }
    out
}

/// A word of a name as ASCII letters and digits: Latin letters lose their diacritics (`ö` →
/// `o`, `ł` → `l`) or are spelled out (`ß` → `ss`, `æ` → `ae`), any other letter or digit is
/// its code point (`東` → `u6771`), the rest is dropped. Drafted identifiers are ASCII: a
/// non-ASCII one compiles, but rustc's `confusable_idents`, `mixed_script_confusables` and
/// `uncommon_codepoints` lints (warnings, errors under `-D warnings`) depend on the other
/// identifiers of the crate the file lands in, which infer cannot see.
fn ascii(word: &str) -> String {
    let mut out = String::new();
    for c in word.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c);
        } else if let Some((_, latin)) = LATIN.iter().find(|(from, _)| from.contains(c)) {
            out.push_str(latin);
        } else if c.is_alphanumeric() {
            out.push_str(&format!("u{:x}", u32::from(c)));
        }
    }
    out
}

/// Latin letters with diacritics, and those spelled with two letters, in ASCII (lowercase:
/// [`naming::words`] lowercases; [`pascal`] capitalizes).
const LATIN: [(&str, &str); 28] = [
    ("àáâãäåāăąǎ", "a"),
    ("çćĉċč", "c"),
    ("ďđð", "d"),
    ("èéêëēĕėęě", "e"),
    ("ĝğġģ", "g"),
    ("ĥħ", "h"),
    ("ìíîïĩīĭįıǐ", "i"),
    ("ĵ", "j"),
    ("ķĸ", "k"),
    ("ĺļľŀł", "l"),
    ("ñńņňŉ", "n"),
    ("òóôõöøōŏőǒ", "o"),
    ("ŕŗř", "r"),
    ("śŝşšș", "s"),
    ("ţťŧț", "t"),
    ("ùúûüũūŭůűųǔ", "u"),
    ("ŵ", "w"),
    ("ýÿŷ", "y"),
    ("źżž", "z"),
    ("æ", "ae"),
    ("œ", "oe"),
    ("ß", "ss"),
    ("þ", "th"),
    ("ĳ", "ij"),
    ("ŋ", "ng"),
    ("ƒ", "f"),
    ("ǆ", "dz"),
    ("ǉ", "lj"),
];

/// A Rust field name for a key: snake case, ASCII letters, digits and `_` (see [`ascii`]).
fn snake(key: &str) -> String {
    let words: Vec<String> = naming::words(key).into_iter().map(|w| ascii(&w)).filter(|w| !w.is_empty()).collect();
    let joined = words.join("_");
    match joined.chars().next() {
        None => "field".to_owned(),
        Some(c) if c.is_ascii_digit() => format!("f_{joined}"),
        Some(_) => joined,
    }
}

/// Rust's keywords, strict and reserved (`gen` since edition 2024): no field may be named one.
const KEYWORDS: [&str; 51] = [
    "as", "break", "const", "continue", "crate", "else", "enum", "extern", "false", "fn", "for", "if", "impl", "in",
    "let", "loop", "match", "mod", "move", "mut", "pub", "ref", "return", "self", "static", "struct", "super", "trait",
    "true", "type", "unsafe", "use", "where", "while", "async", "await", "dyn", "abstract", "try", "become", "box",
    "do", "final", "macro", "override", "priv", "typeof", "unsized", "virtual", "yield", "gen",
];

/// Type names the drafted file's items must not take (they would shadow what it uses).
const RESERVED: [&str; 13] = [
    "Self",
    "Option",
    "Vec",
    "String",
    "Box",
    "Result",
    "Serialize",
    "Deserialize",
    "MongoSchema",
    "Some",
    "None",
    "Ok",
    "Err",
];

#[cfg(test)]
mod tests {
    use super::*;
    use mongo_schema_core::bson::{doc, RawDocumentBuf};

    /// `db_app.<collection>` holding `docs`, as a dump gives it (no count, index or validator).
    pub(super) fn input(collection: &str, docs: &[Document]) -> Input {
        let mut stats = Collection::default();
        for d in docs {
            stats.observe(&RawDocumentBuf::try_from(d).unwrap()).unwrap();
        }
        Input {
            db: "db_app".into(),
            collection: collection.into(),
            stats,
            total: None,
            indexes: Vec::new(),
            validator: None,
            validation_level: None,
            validation_action: None,
        }
    }

    #[test]
    fn numbers_for_people() {
        assert_eq!(thousands(9812), "9,812");
        assert_eq!(thousands(1_000_000), "1,000,000");
        assert_eq!(thousands(12), "12");
        assert_eq!(percent(9812, 10_000), "98%");
        assert_eq!(percent(1, 1000), "<1%");
        assert_eq!(percent(999, 1000), ">99%");
        assert_eq!(percent(3, 3), "100%");
        assert_eq!(round_up(12, 1000), 20);
        assert_eq!(round_up(1, 1000), 1);
        assert_eq!(round_up(700, 1000), 1000);
        assert_eq!(round_up(1001, 1000), 1000);
        assert_eq!(pascal("order_items"), "OrderItems");
        assert_eq!(pascal("orderItems"), "OrderItems");
        assert_eq!(snake("orderItems"), "order_items");
        assert_eq!(snake("2fa"), "f_2fa");
    }

    #[test]
    fn type_names_are_unique_and_stable() {
        let docs = [doc! { "_id": 1, "a_b": { "x": 1 }, "aB": { "y": 2 } }];
        let first = draft(&[input("t_thing", &docs)]);
        assert!(first.source.contains("pub struct ThingAB {"), "{}", first.source);
        assert!(first.source.contains("pub struct ThingAB2 {"), "{}", first.source);
        assert!(first.source.contains("allow(field_name"), "mixed cases need the waiver: {}", first.source);
        assert_eq!(first, draft(&[input("t_thing", &docs)]));
    }

    #[test]
    fn a_random_id_and_string_dates_alone_are_waived_with_reasons() {
        let docs = [
            doc! { "_id": "a", "createTime": "2024-01-01", "price": 1.5, "status": 1 },
            doc! { "_id": "b", "createTime": "2024-01-02", "price": 2.5, "status": 2 },
        ];
        let d = draft(&[input("t_thing", &docs)]);
        assert!(d.source.contains("allow(random_id"), "{}", d.source);
        assert!(d.source.contains("allow(string_date"), "{}", d.source);
        assert!(d.source.contains("allow(numeric_status"), "{}", d.source);
        // money held as doubles only: Decimal is the target, every double an anomaly
        assert!(d.source.contains("pub price: rust_decimal::Decimal,"), "{}", d.source);
        let anomalies: Vec<(&str, u64)> =
            d.collections[0].anomalies.iter().map(|a| (a.path.as_str(), a.documents)).collect();
        assert_eq!(anomalies, [("price", 2)]);
    }

    #[test]
    fn an_empty_collection_drafts_an_id() {
        let d = draft(&[input("t_nothing", &[])]);
        assert!(d.source.contains("pub struct Nothing {\n    /// Not seen"), "{}", d.source);
        assert_eq!(d.collections[0].read, 0);
        assert!(d.collections[0].notes[0].contains("empty"));
    }
}

#[cfg(test)]
mod discriminator_tests {
    use super::*;
    use mongo_schema_core::bson::doc;

    fn candidates(docs: &[Document]) -> Vec<Candidate> {
        draft(&[super::tests::input("t_event", docs)]).collections.remove(0).candidates
    }

    #[test]
    fn a_tag_whose_values_bring_their_own_keys_is_a_discriminator() {
        let docs = [
            doc! { "_id": 1, "kind": "click", "x": 1, "y": 2 },
            doc! { "_id": 2, "kind": "buy", "price": 1.5 },
            doc! { "_id": 3, "kind": "click", "x": 3, "y": 4 },
            doc! { "_id": 4, "kind": "view" },
            doc! { "_id": 5, "kind": "buy", "price": 2.5 },
        ];
        let all = candidates(&docs);
        let found: Vec<&Candidate> = all.iter().filter(|c| c.kind == "discriminator").collect();
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].path, "kind");
        assert!(
            found[0].note.contains(r#""buy" with price; "click" with x, y; "view" with no other keys"#),
            "{}",
            found[0].note
        );
        // two variants' own keys never meet and add up to every document: no rename
        let two = [
            doc! { "_id": 1, "kind": "click", "x": 1 },
            doc! { "_id": 2, "kind": "buy", "price": 1.5 },
            doc! { "_id": 3, "kind": "click", "x": 3 },
        ];
        let found = candidates(&two);
        assert!(found.iter().any(|c| c.kind == "discriminator"), "{found:?}");
        assert!(!found.iter().any(|c| c.kind == "rename"), "{found:?}");
        // a key some values share is still explained by the tag: in each of their variants,
        // typed among their documents (optional in both, since a `view` may lack it)
        let mut shared = docs.to_vec();
        shared.push(doc! { "_id": 6, "kind": "view", "x": 1 });
        let drafted = draft(&[super::tests::input("t_event", &shared)]);
        assert!(drafted.source.contains("#[serde(tag = \"kind\")]"), "{}", drafted.source);
        assert!(drafted.source.contains("    Click {\n        /// 6 of 6: int32 100%.\n        #[serde(rename = \"_id\")]\n        id: i32,\n        /// 3 of 4: int32 100%.\n        #[serde(skip_serializing_if = \"Option::is_none\")]\n        x: Option<i32>,"), "{}", drafted.source);
    }

    #[test]
    fn a_tag_missing_from_one_document_in_fifty_is_still_a_tag() {
        let docs = |untagged: i32| -> Vec<Document> {
            (0..100)
                .map(|i| match (i < untagged, i % 2) {
                    (true, _) => doc! { "_id": i, "x": 1 },
                    (false, 0) => doc! { "_id": i, "kind": "click", "x": 1 },
                    (false, _) => doc! { "_id": i, "kind": "buy", "price": 1.5 },
                })
                .collect()
        };
        let drafted = draft(&[super::tests::input("t_event", &docs(2))]);
        assert!(drafted.source.contains("#[serde(tag = \"kind\")]"), "{}", drafted.source);
        let anomalies: Vec<(&str, u64)> =
            drafted.collections[0].anomalies.iter().map(|a| (a.path.as_str(), a.documents)).collect();
        assert_eq!(anomalies, [("kind", 2), ("price", 49)], "{:?}", drafted.collections[0].anomalies);
        // `x`, in the click documents and the two without a tag, is required among the clicks
        assert!(drafted.source.contains("        /// 49 of 49: int32 100%.\n        x: i32,"), "{}", drafted.source);
        assert!(!candidates(&docs(3)).iter().any(|c| c.kind == "discriminator"));
    }

    #[test]
    fn a_string_key_that_explains_no_key_is_no_tag() {
        // `status` has two values and the optional key `note` turns up under both
        let docs: Vec<Document> = (0..40)
            .map(|i| match (i % 2, i % 3) {
                (0, 0) => doc! { "_id": i, "status": "open", "note": "n" },
                (0, _) => doc! { "_id": i, "status": "open" },
                (_, 0) => doc! { "_id": i, "status": "done", "note": "m" },
                _ => doc! { "_id": i, "status": "done" },
            })
            .collect();
        assert!(!candidates(&docs).iter().any(|c| c.kind == "discriminator"));
        // one value alone with keys of its own: an optional key, not a tag
        let one: Vec<Document> = (0..20)
            .map(|i| match i % 4 {
                0 => doc! { "_id": i, "status": "cancelled", "reason": "r" },
                _ => doc! { "_id": i, "status": "paid" },
            })
            .collect();
        assert!(!candidates(&one).iter().any(|c| c.kind == "discriminator"));
    }
}

#[cfg(test)]
mod index_tests {
    use super::*;
    use mongo_schema_core::bson::doc;

    #[test]
    fn indexes_become_attributes_and_what_cannot_be_stated_is_noted() {
        let d = doc! { "_id": 1, "email": "a@b.c", "expireTime": mongo_schema_core::bson::DateTime::from_millis(0), "tags": ["x"], "cats": ["y"] };
        let indexes = vec![
            doc! { "v": 2, "key": { "_id": 1 }, "name": "_id_" },
            doc! { "v": 2, "key": { "email": 1 }, "name": "email_1", "unique": true, "sparse": true },
            doc! { "v": 2, "key": { "expireTime": 1 }, "name": "ttl", "expireAfterSeconds": 60 },
            doc! { "v": 2, "key": { "email": 1, "_id": -1 }, "name": "p", "partialFilterExpression": { "email": { "$exists": true } } },
            doc! { "v": 2, "key": { "gone": 1 }, "name": "gone_1" },
            doc! { "v": 2, "key": { "tags": 1, "cats": 1 }, "name": "two_arrays" },
        ];
        let input = Input { indexes, ..super::tests::input("t_x", &[d]) };
        let drafted = draft(&[input]);
        let root = drafted.source.lines().find(|l| l.starts_with("#[mongo(db")).unwrap();
        assert_eq!(
            root,
            r##"#[mongo(db = "db_app", collection = "t_x", index(keys("email" = 1), unique, name = "email_1"), index(keys("expireTime" = 1), name = "ttl", ttl = 60), index(keys("email" = 1, "_id" = -1), name = "p", partial = r#"{"email":{"$exists":true}}"#))]"##
        );
        let notes = &drafted.collections[0].notes;
        assert!(
            notes.iter().any(|n| n == "index `email_1`: its options sparse are not drafted; add them by hand"),
            "{notes:?}"
        );
        assert!(
            notes.iter().any(|n| n.starts_with("index `gone_1` is not drafted: `gone` is not a field")),
            "{notes:?}"
        );
        assert!(
            notes.iter().any(|n| n.starts_with("index `two_arrays` is not drafted: more than one array")),
            "{notes:?}"
        );
    }
}

#[cfg(test)]
mod validator_tests {
    use super::*;
    use mongo_schema_core::bson::doc;

    /// An existing validator is quoted with its level and action, mongod's defaults where
    /// they are not stated, and whether a failing write is refused.
    #[test]
    fn an_existing_validator_says_whether_it_is_enforced() {
        let validator = doc! { "age": { "$gte": 0 } };
        let cases = [
            (None, None, "validationLevel strict, validationAction error, mongod's defaults where not stated: enforced: a write that fails it is refused", true),
            (Some("strict"), Some("error"), "validationLevel strict, validationAction error: enforced: a write that fails it is refused", true),
            (Some("moderate"), Some("error"), "validationLevel moderate, validationAction error: enforced on inserts and on updates of documents that pass it", true),
            (Some("strict"), Some("warn"), "validationLevel strict, validationAction warn: not enforced: a write that fails it is logged", false),
            (Some("off"), Some("error"), "validationLevel off, validationAction error: not enforced: validationLevel off checks nothing", false),
        ];
        for (level, action, said, enforced) in cases {
            let input = Input {
                validator: Some(validator.clone()),
                validation_level: level.map(str::to_owned),
                validation_action: action.map(str::to_owned),
                ..super::tests::input("t_x", &[doc! { "_id": 1, "age": 3 }])
            };
            let drafted = draft(&[input]);
            let c = &drafted.collections[0];
            assert!(
                c.notes[0].starts_with(&format!("the collection already has a validator ({said}")),
                "{:?}",
                c.notes
            );
            assert!(c.notes[0].ends_with(r#": {"age":{"$gte":0}}"#), "{:?}", c.notes);
            let existing = c.existing.as_ref().unwrap();
            assert_eq!((existing.enforced, existing.defaulted), (enforced, level.is_none()));
            let json = super::super::render_json(&drafted);
            assert_eq!(json["collections"][0]["validator"]["enforced"], enforced);
        }
        assert_eq!(draft(&[super::tests::input("t_x", &[])]).collections[0].existing, None);
    }
}

#[cfg(test)]
mod key_tests {
    use super::*;
    use mongo_schema_core::bson::doc;

    #[test]
    fn keys_no_field_may_have_are_left_out_and_reported() {
        let d = doc! { "_id": 1, "a.b": 1, "$weird": 2, "fine": 3 };
        let drafted = draft(&[super::tests::input("t_x", &[d])]);
        assert!(drafted.source.contains("pub fine: i32,"), "{}", drafted.source);
        assert!(!drafted.source.contains("a.b") && !drafted.source.contains("$weird"), "{}", drafted.source);
        let notes = &drafted.collections[0].notes;
        assert_eq!(notes.len(), 2, "{notes:?}");
        assert!(notes[0].starts_with("a.b: the key \"a.b\" (1 documents) cannot be a field"), "{notes:?}");
    }
}

#[cfg(test)]
mod wide_root_tests {
    use super::*;
    use mongo_schema_core::bson::doc;

    #[test]
    fn a_root_with_keys_that_are_data_keeps_them_in_a_flattened_map() {
        let docs: Vec<Document> = (0..300)
            .map(|i| {
                let mut d = doc! { "_id": i };
                d.insert(format!("2024-01-{i:03}"), i);
                if i == 7 {
                    d.insert("2025-01-01", "seven");
                }
                d
            })
            .collect();
        let drafted = draft(&[super::tests::input("t_wide", &docs)]);
        assert!(drafted.source.contains("    #[serde(rename = \"_id\")]\n    pub id: i32,\n"), "{}", drafted.source);
        assert!(
            drafted
                .source
                .contains("    #[serde(flatten)]\n    pub entries: std::collections::BTreeMap<String, i32>,\n"),
            "{}",
            drafted.source
        );
        let anomalies: Vec<(&str, u64)> =
            drafted.collections[0].anomalies.iter().map(|a| (a.path.as_str(), a.documents)).collect();
        assert_eq!(anomalies, [("<key>", 1)]);

        // two date keys never together that add up to every document: data, not a rename
        let days: Vec<Document> =
            (0..10).map(|i| doc! { "_id": i, (if i % 2 == 0 { "2030-01-01" } else { "2030-01-02" }): 1 }).collect();
        let drafted = draft(&[super::tests::input("t_days", &days)]);
        assert!(drafted.source.contains("pub entries: std::collections::BTreeMap<String, i32>,"), "{}", drafted.source);
        assert!(drafted.collections[0].anomalies.is_empty(), "{:?}", drafted.collections[0].anomalies);
    }
}
