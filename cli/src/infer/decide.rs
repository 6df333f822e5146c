//! What a draft decides: each path's target type (what the modelling rules want, chosen
//! from what the data shows), the names, attributes and doc comments of the items that
//! carry them ([`model`]), and the report: what each path holds, the values the drafted
//! models will refuse (the anomalies) and what a person should decide (the candidates).
//! Nothing here writes Rust: [`super::render`] does.

use super::draft::{percent, thousands, Anomaly, Candidate, CollectionDraft, Existing, FieldSeen, Input};
use super::evidence::{self, Cases};
use super::model::{self, Container, Helper, Index, IndexKey, Item, Mongo, Rule, Serde, Ty, Waiver};
use super::names::{pascal, snake, variant_name, KEYWORDS, RESERVED};
use super::render;
use super::stats::{Kind, Object, Seen, Values, MAX_LENGTH};
use mongo_schema_contract::case::RenameRule;
use mongo_schema_contract::naming;
use mongo_schema_core::bson::Document;
use std::collections::{BTreeMap, BTreeSet};

/// Distinct strings at most for an enum.
const ENUM_MAX: usize = 12;

/// What the draft of `inputs` decided: the items of the file, in order, and per collection
/// its report.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Decided {
    pub items: Vec<Item>,
    pub collections: Vec<CollectionDraft>,
}

/// Decides the models of `inputs` (sorted by namespace first, so the file depends on the
/// data only).
pub(super) fn decide(inputs: &[Input]) -> Decided {
    let mut sorted: Vec<&Input> = inputs.iter().collect();
    sorted.sort_by(|a, b| (&a.db, &a.collection).cmp(&(&b.db, &b.collection)));
    let mut decider = Decider::default();
    let mut collections = Vec::new();
    let cases: Vec<Cases> = sorted.iter().map(|input| Cases::of_object(&input.stats.root)).collect();
    for (n, input) in sorted.iter().enumerate() {
        // the case of the database's other collections: a rename's direction may need it
        let others = sorted.iter().zip(&cases).enumerate().filter(|(m, (other, _))| *m != n && other.db == input.db);
        let database = others.fold(Cases::default(), |sum, (_, (_, c))| sum + *c);
        collections.push(decider.collection(input, database));
    }
    Decided { items: decider.items, collections }
}

/// Where a type is written: a field, or inside a `Vec` / map (bounds then go in `items(...)`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Place {
    Field,
    Inner,
}

/// Where values are typed: the name of the type holding them (`parent`, which prefixes
/// the names of the types drafted for them), their `key` there, their `path` (`a.b`,
/// `items.$[]`, `<key>`), the nesting `level` (the root is 1) and the `place`.
#[derive(Clone, Copy)]
struct At<'a> {
    parent: &'a str,
    key: &'a str,
    path: &'a str,
    level: usize,
    place: Place,
}

/// The items decided so far, in the order the file writes them, and the type names taken.
#[derive(Default)]
struct Decider {
    items: Vec<Item>,
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

impl Decider {
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
        let mut root = vec![Container::Db(input.db.clone()), Container::Collection(input.collection.clone())];
        let mut waived = Vec::new();
        if naming::check_db_name(&input.db).is_err() {
            waived.push(Rule::DbName);
        }
        if naming::check_collection_name(&input.collection).is_err() {
            waived.push(Rule::CollectionName);
        }
        // the root goes before the types it uses, which its fields push
        let start = self.items.len();
        let mut item = self.structure(&model, &input.stats.root, "", 1, true, &mut ctx);
        root.extend(indexes(&input.indexes, &mut ctx).into_iter().map(Container::Index));
        if !waived.is_empty() {
            root.push(Container::Allow(Waiver {
                rules: waived,
                reason: "the deployed names, kept as they are: renaming a database or collection is a move, not a model change",
            }));
        }
        let read = match input.total {
            Some(total) => format!("{} of {}", thousands(input.stats.documents), thousands(total)),
            None => thousands(input.stats.documents),
        };
        let doc = format!("`{namespace}`: {read} documents read.");
        let (docs, mongo) = match &mut item {
            Item::Struct(s) => (&mut s.docs, &mut s.mongo),
            Item::Tagged(t) => (&mut t.docs, &mut t.mongo),
            Item::Enum(_) => unreachable!("a root is a struct or a tagged enum"),
        };
        *docs = vec![doc];
        mongo.splice(0..0, root);
        self.items.insert(start, item);
        ctx.anomalies.sort_by(|a, b| a.path.cmp(&b.path).then(a.what.cmp(&b.what)));
        CollectionDraft {
            namespace,
            model,
            read: input.stats.documents,
            total: input.total,
            notes: ctx.notes,
            existing,
            fields: ctx.fields,
            anomalies: ctx.anomalies,
            candidates: ctx.candidates,
        }
    }

    /// The type `name` for the documents of `object` at `path` (nesting `level`, the root
    /// is 1): a struct, or at the root an internally tagged enum when a key's values each
    /// bring keys of their own. Pushes its nested types and returns its own item.
    fn structure(&mut self, name: &str, object: &Object, path: &str, level: usize, root: bool, ctx: &mut Ctx) -> Item {
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
            let field = model::Field {
                docs: vec!["Not seen in the documents read: mongod adds one to every document.".into()],
                ident: "id".into(),
                ty: Ty::ObjectId,
                option: false,
                serde: vec![Serde::Rename("_id".into())],
                mongo: Vec::new(),
            };
            fields.push(Drafted { key: "_id".into(), position: None, field });
            idents.insert("id".to_owned());
        }
        for (position, field) in object.fields.iter().enumerate() {
            if data_root && field.key != "_id" {
                continue;
            }
            let child = join(path, &field.key);
            if field.key.is_empty() || field.key.contains('.') || field.key.starts_with('$') {
                ctx.unfit_key(&child, field);
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
                    merged = merge(&field.values, &old_field.values);
                    (&merged, field.present + old_field.present, Some(old.as_str()))
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
            let at = At { parent: &parent, key: &field.key, path: &child, level, place: Place::Field };
            let observed = Observed { values, present, of, old };
            let drafted = self.field(at, observed, (&ident, rename_all), root, ctx);
            fields.push(Drafted { key: field.key.clone(), position: Some(position), field: drafted });
        }
        if data_root {
            let field = self.entries(name, object, others, ctx);
            fields.push(Drafted { key: String::new(), position: None, field });
        }
        let mut mongo = Vec::new();
        if !field_names_pass(&keys) {
            let reason = "the keys as deployed; renaming them is a data migration (renamed_from)";
            mongo.push(Container::Allow(Waiver { rules: vec![Rule::FieldName], reason }));
        }
        match tagged {
            Some(tag) => Item::Tagged(tag.item(name, mongo, &fields)),
            None => {
                let fields = fields.into_iter().map(|f| f.field).collect();
                Item::Struct(model::Struct {
                    docs: Vec::new(),
                    name: name.to_owned(),
                    camel_case: rename_all,
                    mongo,
                    fields,
                })
            }
        }
    }

    /// The lines of a root's flattened map: its keys (but `_id`) are data, `others` of them.
    fn entries(&mut self, name: &str, object: &Object, others: u64, ctx: &mut Ctx) -> model::Field {
        let merged = object.merged_data();
        let at = At { parent: name, key: "entries", path: "<key>", level: 2, place: Place::Inner };
        let value = match self.decide(at, &merged, ctx) {
            Ty::Map(..) | Ty::Vec(..) => Ty::Any,
            other => other,
        };
        for (kind, seen) in &merged.kinds {
            if !value.accepts(*kind) {
                ctx.anomaly(
                    "<key>",
                    &format!("{} value where the model has {}", kind.name(), render::ty(&value)),
                    seen,
                );
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
            rust: render::ty(&value),
        });
        model::Field {
            docs: vec![format!("The other keys: {why} ({}).", kinds_line(&merged))],
            ident: "entries".into(),
            ty: Ty::Map(Box::new(value), None),
            option: false,
            serde: vec![Serde::Flatten],
            mongo: Vec::new(),
        }
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

    /// The field of the key `at.key` (named `ident`; the struct has `rename_all` camelCase
    /// or not), `observed` at `at.path`, in a root or not: its type, doc comments and
    /// attributes; the report's entry for its path, its anomalies and candidates.
    fn field(
        &mut self,
        at: At,
        observed: Observed,
        (ident, rename_all): (&str, bool),
        root: bool,
        ctx: &mut Ctx,
    ) -> model::Field {
        let Observed { values, present, of, old } = observed;
        let (key, path) = (at.key, at.path);
        let optional = present < of;
        let nullable = values.count(Kind::Null) > 0;
        let ty = self.decide(at, values, ctx);
        ctx.fields.push(FieldSeen {
            path: path.to_owned(),
            present,
            of,
            kinds: values.kinds.iter().map(|(k, s)| (k.name(), s.values)).collect(),
            rust: render::ty(&ty),
        });
        // anomalies: the kinds the type refuses
        for (kind, seen) in &values.kinds {
            if *kind == Kind::Null {
                // an `Option`: null admitted (`nullable` where the field may be missing too)
                continue;
            }
            if !ty.accepts(*kind) {
                ctx.anomaly(path, &format!("{} where the model has {}", kind.name(), render::ty(&ty)), seen);
            }
        }
        if matches!(ty, Ty::F64) && values.count(Kind::Double) > 0 && values.fractional.values == 0 {
            ctx.candidate("bound", path, "every double is integral: an integer type may fit");
        }
        let option = optional || nullable;
        let in_array = path.contains(".$[]") || matches!(ty, Ty::Vec(..));
        ctx.paths.insert(path.replace(".$[]", ""), (in_array, !in_array && !option && ty == Ty::Date));
        let mut docs = field_docs(&observed, &ty);
        let mut serde = Vec::new();
        let written = if rename_all { RenameRule::Camel.apply_to_field(ident) } else { ident.to_owned() };
        if written != key {
            serde.push(Serde::Rename(key.to_owned()));
        }
        if let Some(old) = old {
            // the previous release writes the old key until the contract moves it
            serde.push(Serde::Alias(old.to_owned()));
        }
        if optional {
            serde.push(Serde::SkipNone);
        }
        match (&ty, option) {
            (Ty::Decimal, false) => serde.push(Serde::With(Helper::Decimal128)),
            (Ty::Decimal, true) => serde.extend([Serde::With(Helper::Decimal128Option), Serde::Default]),
            (Ty::Uuid, false) => serde.push(Serde::With(Helper::UuidBinary)),
            (Ty::Uuid, true) => serde.extend([Serde::With(Helper::UuidBinaryOption), Serde::Default]),
            _ => {}
        }
        let mut mongo = Vec::new();
        if optional && nullable {
            mongo.push(Mongo::Nullable);
        }
        match old {
            // migrations move a root field's old key; below the root a data migration does
            Some(old) if root => mongo.push(Mongo::RenamedFrom(old.to_owned())),
            Some(old) => docs.push(format!("Renamed from `{old}`, which `alias` still reads: migrations rename root fields only, so a data migration (`schema new-data --contract`) moves these.")),
            None => {}
        }
        mongo.extend(bounds(&ty));
        mongo.extend(waivers(key, &ty, root).into_iter().map(Mongo::Allow));
        if matches!(ty, Ty::I32 | Ty::I64 | Ty::F64) && naming::is_status_name(key) {
            ctx.candidate("enum", path, "a status stored as numbers: a string enum is what the rules want");
        }
        if matches!(ty, Ty::String | Ty::Enum(_)) && naming::is_date_name(key) {
            ctx.candidate("date", path, "a date stored as strings: convert them, then make it a BSON date");
        }
        model::Field { docs, ident: ident.to_owned(), ty, option, serde, mongo }
    }

    /// The target type of `values`, where `at` says.
    fn decide(&mut self, at: At, values: &Values, ctx: &mut Ctx) -> Ty {
        let At { key, path, .. } = at;
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
            return self.decide(at, &narrowed, ctx);
        }
        let kind = *kinds.keys().next().expect("not empty");
        match kind {
            Kind::String => self.string(at, values, ctx),
            Kind::Bool => Ty::Bool,
            Kind::BinData => Ty::Binary,
            Kind::Timestamp => Ty::Timestamp,
            Kind::Regex => Ty::Regex,
            Kind::Object => self.object(at, values, ctx),
            Kind::Array => self.array(at, values, ctx),
            _ => Ty::Any,
        }
    }

    /// Strings: an enum of the values when few repeat, else `String`.
    fn string(&mut self, at: At, values: &Values, ctx: &mut Ctx) -> Ty {
        let At { parent, key, path, .. } = at;
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
        let listed: Vec<String> = strings.iter().map(|(s, n)| format!("{s:?} {}", thousands(*n))).collect();
        let mut taken = BTreeSet::new();
        self.items.push(Item::Enum(model::StringEnum {
            docs: vec![format!("The values of `{path}`: {}.", listed.join(", "))],
            name: name.clone(),
            variants: strings.keys().map(|value| (value.clone(), variant_name(value, &mut taken))).collect(),
        }));
        ctx.candidate("enum", path, &format!("{} distinct strings: drafted as `enum {name}`", strings.len()));
        Ty::Enum(name)
    }

    /// Embedded documents: a map when their keys are data, else a struct (any BSON value
    /// past the rules' 5 levels).
    fn object(&mut self, at: At, values: &Values, ctx: &mut Ctx) -> Ty {
        let At { parent, key, path, level, place } = at;
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
                    let value_path = format!("{path}.<key>");
                    let at = At { path: &value_path, level: level + 1, place: Place::Inner, ..at };
                    let v = self.decide(at, &merged, ctx);
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
                        &format!("{} value where the model has {}", kind.name(), render::ty(&value)),
                        seen,
                    );
                }
            }
            return Ty::Map(Box::new(value), Some(bound));
        }
        let name = self.unique(&format!("{parent}{}", pascal(key)));
        let item = self.structure(&name, object, path, level + 1, false, ctx);
        self.items.push(item);
        Ty::Struct(name)
    }

    /// Arrays: a `Vec` bounded to what the bulk of them hold, of their items' type.
    fn array(&mut self, at: At, values: &Values, ctx: &mut Ctx) -> Ty {
        let At { path, place, .. } = at;
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
                let ty = self.decide(At { path: &item_path, place: Place::Inner, ..at }, items, ctx);
                let ty = match ty {
                    Ty::Map(..) => Ty::Any,
                    other => other,
                };
                for (kind, seen) in &items.kinds {
                    if !ty.accepts(*kind) {
                        ctx.anomaly(
                            &item_path,
                            &format!("{} item where the model has {}", kind.name(), render::ty(&ty)),
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

/// The `#[mongo(...)]` bounds of a type: its own, then its items' (`items(...)`).
fn bounds(ty: &Ty) -> Vec<Mongo> {
    let mut out = Vec::new();
    match ty {
        Ty::Vec(_, n) => out.push(Mongo::MaxItems(*n)),
        Ty::Map(_, Some(n)) => out.push(Mongo::MaxProperties(*n)),
        _ => {}
    }
    let inner = match ty {
        Ty::Vec(inner, _) | Ty::Map(inner, _) => bounds(inner),
        _ => Vec::new(),
    };
    if !inner.is_empty() {
        out.push(Mongo::Items(inner));
    }
    out
}

/// A field's values: those of its key (with its old key's, for a rename), in `present` of
/// the `of` documents at its level.
#[derive(Clone, Copy)]
struct Observed<'a> {
    values: &'a Values,
    present: u64,
    of: u64,
    /// The old key of a rename.
    old: Option<&'a str>,
}

/// A field's doc comment: what was seen, and why a string is no enum or an `Option` is
/// `nullable`.
fn field_docs(observed: &Observed, ty: &Ty) -> Vec<String> {
    let Observed { values, present, of, old } = *observed;
    let mut seen = format!("{} of {}", thousands(present), thousands(of));
    let kinds = kinds_line(values);
    if !kinds.is_empty() {
        seen.push_str(&format!(": {kinds}"));
    }
    if let Some(old) = old {
        seen.push_str(&format!(" (with `{old}`, its old key)"));
    }
    let mut docs = vec![format!("{seen}.")];
    if let (Ty::String, Some(value)) = (ty, single_string(values)) {
        docs.push(format!("Every string read is {value:?}: a String, not an enum of one variant."));
    }
    if present < of && values.count(Kind::Null) > 0 {
        docs.push(
            "Missing in some documents and null in others: both admitted (`nullable`), both read as `None`.".to_owned(),
        );
    }
    docs
}

/// The rules a field of `key` typed `ty` waives, each with its reason: what the data
/// holds, which only a data migration changes.
fn waivers(key: &str, ty: &Ty, root: bool) -> Vec<Waiver> {
    let mut out = Vec::new();
    let mut waive = |rule, reason| out.push(Waiver { rules: vec![rule], reason });
    if matches!(ty, Ty::I32 | Ty::I64 | Ty::F64) && naming::is_status_name(key) {
        waive(Rule::NumericStatus, "stored as numbers; a string enum needs a data migration");
    }
    if matches!(ty, Ty::String | Ty::Enum(_)) && naming::is_date_name(key) {
        waive(Rule::StringDate, "stored as strings; a BSON date needs a data migration");
    }
    if matches!(ty, Ty::F64) && naming::is_money_name(key) {
        waive(Rule::MoneyDouble, "stored as doubles; Decimal128 needs a data migration");
    }
    if root && key == "_id" && !matches!(ty, Ty::ObjectId | Ty::I32 | Ty::I64 | Ty::Date) {
        waive(Rule::RandomId, "the deployed `_id`s; changing them rewrites every document");
    }
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

    /// A key no field may have (`a.b`, `$x`, empty): left out, and said.
    fn unfit_key(&mut self, path: &str, field: &super::stats::Field) {
        let note = format!(
            "the key {:?} ({} documents) cannot be a field (the rules refuse `.`, `$` and empty names, with no waiver): left out of the model, so serde drops it when a document is read and written back; rename it with a data migration",
            field.key,
            thousands(field.holders.documents)
        );
        self.candidate("key", path, &note);
    }

    fn candidate(&mut self, kind: &'static str, path: &str, note: &str) {
        if kind == "key" {
            self.notes.push(format!("{path}: {note}"));
        }
        self.candidates.push(Candidate { kind, path: path.to_owned(), note: note.to_owned() });
    }
}

/// One field as drafted, with the key's position in its object (for a tagged enum's
/// variants); `None` for an `_id` added because no document showed one.
struct Drafted {
    key: String,
    position: Option<usize>,
    field: model::Field,
}

/// An internally tagged enum drafted for a root: the tag's key and a variant per value.
struct Tagging {
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

impl Tagging {
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

    /// The enum `name`, a variant per value, each with the fields its documents hold.
    fn item(self, name: &str, mongo: Vec<Container>, fields: &[Drafted]) -> model::Tagged {
        let variants = self
            .variants
            .iter()
            .map(|variant| {
                let own: Vec<&str> = fields
                    .iter()
                    .filter(|f| variant.has(f.position) && f.position.is_some_and(|p| self.owner(p).is_some()))
                    .map(|f| f.key.as_str())
                    .collect();
                let with = if own.is_empty() { String::new() } else { format!(", with {}", own.join(", ")) };
                model::TaggedVariant {
                    doc: format!(
                        "`{}: {:?}`: {} documents{with}.",
                        self.key,
                        variant.value,
                        thousands(variant.documents)
                    ),
                    value: variant.value.clone(),
                    name: variant.name.clone(),
                    fields: fields.iter().filter(|f| variant.has(f.position)).map(|f| f.field.clone()).collect(),
                }
            })
            .collect();
        model::Tagged { docs: Vec::new(), name: name.to_owned(), tag: self.key, mongo, variants }
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
fn discriminator(object: &Object, ctx: &mut Ctx) -> Option<Tagging> {
    let mut drafted: Option<Tagging> = None;
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
            drafted = Some(Tagging { key: key.clone(), position: tag.position, variants });
        }
    }
    drafted
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

/// The indexes of a root the derive states, from `listIndexes`; those it cannot state are
/// noted instead.
fn indexes(indexes: &[Document], ctx: &mut Ctx) -> Vec<Index> {
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
                Bson::Int32(n) => IndexKey::Direction(i64::from(n.signum())),
                Bson::Int64(n) => IndexKey::Direction(n.signum()),
                Bson::Double(n) => IndexKey::Direction((*n as i64).signum()),
                Bson::String(s) if s == "hashed" || s == "2dsphere" => IndexKey::Kind(s.clone()),
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
            keys.push((path.clone(), value));
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
        let mut ttl = None;
        if let Some(expire) = index.get("expireAfterSeconds") {
            let single_date =
                key.len() == 1 && key.keys().next().and_then(|p| ctx.paths.get(p.as_str())).is_some_and(|p| p.1);
            let seconds = match expire {
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
                ttl = Some(seconds);
            }
        }
        let partial = index.get_document("partialFilterExpression").ok();
        out.push(Index {
            keys,
            unique: index.get_bool("unique").unwrap_or(false),
            name,
            ttl,
            partial: partial.map(|p| Bson::Document(p.clone()).into_canonical_extjson().to_string()),
        });
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

/// `values` and `old`'s together: a key's values and those of its old key.
fn merge(values: &Values, old: &Values) -> Values {
    let mut merged = values.clone();
    merged.merge(old);
    merged
}

/// The kinds of `values`, the most frequent first, with their share (`int32 67%, int64 34%`).
fn kinds_line(values: &Values) -> String {
    let total = values.total();
    let mut kinds: Vec<(&Kind, &Seen)> = values.kinds.iter().collect();
    kinds.sort_by(|a, b| b.1.values.cmp(&a.1.values).then(a.0.cmp(b.0)));
    kinds.iter().map(|(k, s)| format!("{} {}", k.name(), percent(s.values, total))).collect::<Vec<_>>().join(", ")
}

/// The smallest of 1, 2, 5, 10, 20, 50, ... at least `n`, at most `cap`.
pub(super) fn round_up(n: u64, cap: u64) -> u64 {
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

#[cfg(test)]
mod tests {
    //! What is decided, read from the model: types, `Option`s, attributes, waivers, items
    //! and their order, never from the Rust text.
    use super::*;
    use mongo_schema_core::bson::{doc, DateTime, RawDocumentBuf};

    fn input(collection: &str, docs: &[Document]) -> Input {
        let mut stats = super::super::stats::Collection::default();
        for d in docs {
            stats.observe(&RawDocumentBuf::try_from(d).unwrap()).unwrap();
        }
        Input {
            db: "db_shop".into(),
            collection: collection.into(),
            stats,
            total: None,
            indexes: Vec::new(),
            validator: None,
            validation_level: None,
            validation_action: None,
        }
    }

    fn structs(decided: &Decided) -> Vec<&model::Struct> {
        decided.items.iter().filter_map(|i| if let Item::Struct(s) = i { Some(s) } else { None }).collect()
    }

    fn field<'a>(s: &'a model::Struct, ident: &str) -> &'a model::Field {
        s.fields.iter().find(|f| f.ident == ident).unwrap_or_else(|| panic!("no field {ident} in {s:#?}"))
    }

    /// An order: camelCase keys, numbers widened, money as Decimal128, an optional and
    /// nullable key, an enum of statuses, an embedded address, a bounded array.
    fn orders() -> Vec<Document> {
        (0..40)
            .map(|i| {
                let mut d = doc! {
                    "_id": mongo_schema_core::bson::oid::ObjectId::from_bytes([i as u8; 12]),
                    "orderNo": if i % 3 == 0 { mongo_schema_core::bson::Bson::Int64(i) } else { mongo_schema_core::bson::Bson::Int32(i as i32) },
                    "totalAmount": 1.5 + i as f64,
                    "status": (if i % 2 == 0 { "paid" } else { "shipped" }),
                    "shipTo": { "city": "Lyon", "zipCode": "69001" },
                    "lineItems": (0..(i % 7)).map(|n| mongo_schema_core::bson::Bson::Int32(n as i32)).collect::<Vec<_>>(),
                    "createTime": DateTime::from_millis(i * 1000),
                };
                match i % 4 {
                    0 => {}
                    1 => {
                        d.insert("giftMessage", mongo_schema_core::bson::Bson::Null);
                    }
                    _ => {
                        d.insert("giftMessage", format!("note {i}"));
                    }
                }
                d
            })
            .collect()
    }

    #[test]
    fn a_root_struct_its_fields_and_the_items_it_uses() {
        let decided = decide(&[input("t_order", &orders())]);
        let names: Vec<&str> = decided.items.iter().map(Item::name).collect();
        // the root first, then the types its fields use, in the order they were decided
        assert_eq!(names, ["Order", "OrderStatus", "OrderShipTo"]);
        let all = structs(&decided);
        let root = all[0];
        assert!(root.camel_case);
        assert_eq!(root.mongo, [Container::Db("db_shop".into()), Container::Collection("t_order".into())]);
        assert_eq!(root.docs, ["`db_shop.t_order`: 40 documents read."]);
        let id = field(root, "id");
        assert_eq!((&id.ty, id.option, &id.serde[..]), (&Ty::ObjectId, false, &[Serde::Rename("_id".into())][..]));
        assert_eq!(field(root, "order_no").ty, Ty::I64);
        let amount = field(root, "total_amount");
        assert_eq!((&amount.ty, &amount.serde[..]), (&Ty::Decimal, &[Serde::With(Helper::Decimal128)][..]));
        assert_eq!(field(root, "status").ty, Ty::Enum("OrderStatus".into()));
        assert_eq!(field(root, "ship_to").ty, Ty::Struct("OrderShipTo".into()));
        assert_eq!(field(root, "create_time").ty, Ty::Date);
        let items = field(root, "line_items");
        assert_eq!((&items.ty, &items.mongo[..]), (&Ty::Vec(Box::new(Ty::I32), 10), &[Mongo::MaxItems(10)][..]));
        // missing in some documents, null in others: an Option, skipped when None, nullable
        let gift = field(root, "gift_message");
        assert_eq!((&gift.ty, gift.option), (&Ty::String, true));
        assert_eq!((&gift.serde[..], &gift.mongo[..]), (&[Serde::SkipNone][..], &[Mongo::Nullable][..]));
        assert_eq!(gift.docs.len(), 2, "what was seen, and why nullable: {:?}", gift.docs);
        let Item::Enum(status) = &decided.items[1] else { panic!("{:?}", decided.items[1]) };
        assert_eq!(status.variants, [("paid".into(), "Paid".into()), ("shipped".into(), "Shipped".into())]);
        let address = all[1];
        assert_eq!((address.mongo.len(), address.docs.len()), (0, 0), "{address:?}");
        assert_eq!(address.fields.iter().map(|f| f.ident.as_str()).collect::<Vec<_>>(), ["city", "zip_code"]);
    }

    #[test]
    fn waivers_follow_what_the_data_holds() {
        let docs: Vec<Document> = (0..4)
            .map(|i| doc! { "_id": format!("k{i}"), "status": i % 2, "price": 1.5, "created_at": "2024-01-01" })
            .collect();
        let decided = decide(&[input("t_thing", &docs)]);
        let root = structs(&decided)[0];
        assert!(field(root, "id").waives(Rule::RandomId));
        assert!(field(root, "status").waives(Rule::NumericStatus));
        assert!(field(root, "created_at").waives(Rule::StringDate));
        // money held as doubles: the target is Decimal128, so nothing to waive (the doubles are anomalies)
        assert_eq!(field(root, "price").ty, Ty::Decimal);
        assert!(!field(root, "price").waives(Rule::MoneyDouble));
        let anomalies: Vec<&str> = decided.collections[0].anomalies.iter().map(|a| a.path.as_str()).collect();
        assert_eq!(anomalies, ["price"]);
    }

    #[test]
    fn a_rename_reads_the_old_key_and_moves_it_at_the_root_only() {
        let docs: Vec<Document> = (0..10)
            .map(|i| match i < 6 {
                true => doc! { "_id": i, "userName": "a", "profile": { "homeCity": "x" } },
                false => doc! { "_id": i, "user_name": "b", "profile": { "home_city": "y" } },
            })
            .collect();
        let decided = decide(&[input("t_user", &docs)]);
        let all = structs(&decided);
        let name = field(all[0], "user_name");
        assert_eq!(name.serde, [Serde::Alias("user_name".into())]);
        assert_eq!(name.mongo, [Mongo::RenamedFrom("user_name".into())]);
        // below the root: read by alias, moved by a data migration, which the doc comment says
        let city = field(all[1], "home_city");
        assert_eq!((&city.serde[..], &city.mongo[..]), (&[Serde::Alias("home_city".into())][..], &[][..]));
        assert!(city.docs.last().unwrap().starts_with("Renamed from `home_city`"), "{:?}", city.docs);
    }

    #[test]
    fn a_tag_makes_a_variant_per_value_with_its_own_fields() {
        let docs = [
            doc! { "_id": 1, "kind": "click", "x": 1 },
            doc! { "_id": 2, "kind": "buy", "price": 1.5 },
            doc! { "_id": 3, "kind": "click", "x": 3 },
        ];
        let decided = decide(&[input("t_event", &docs)]);
        let Item::Tagged(tagged) = &decided.items[0] else { panic!("{:?}", decided.items[0]) };
        assert_eq!((tagged.name.as_str(), tagged.tag.as_str()), ("Event", "kind"));
        let variants: Vec<(&str, Vec<&str>)> = tagged
            .variants
            .iter()
            .map(|v| (v.value.as_str(), v.fields.iter().map(|f| f.ident.as_str()).collect()))
            .collect();
        assert_eq!(variants, [("buy", vec!["id", "price"]), ("click", vec!["id", "x"])]);
        assert_eq!(tagged.variants[1].doc, "`kind: \"click\"`: 2 documents, with x.");
    }

    #[test]
    fn indexes_and_a_flattened_map_of_data_keys() {
        let docs: Vec<Document> = (0..3)
            .map(|i| {
                let mut d = doc! { "_id": i };
                d.insert(format!("2024-01-0{}", i + 1), i);
                d
            })
            .collect();
        let mut wide = input("t_daily", &docs);
        wide.indexes = vec![
            doc! { "v": 2, "key": { "_id": 1 }, "name": "_id_" },
            doc! { "v": 2, "key": { "_id": -1.0 }, "name": "by_id", "unique": true },
        ];
        let decided = decide(&[wide]);
        let root = structs(&decided)[0];
        let index = Index {
            keys: vec![("_id".into(), IndexKey::Direction(-1))],
            unique: true,
            name: "by_id".into(),
            ttl: None,
            partial: None,
        };
        assert_eq!(root.mongo[2], Container::Index(index));
        let entries = field(root, "entries");
        assert_eq!(entries.ty, Ty::Map(Box::new(Ty::I32), None));
        assert_eq!((&entries.serde[..], &entries.mongo[..]), (&[Serde::Flatten][..], &[][..]));
    }
}
