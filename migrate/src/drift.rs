//! `schema drift`: each model's deployed collection (its validator, level and action, or a
//! time-series collection's options; capped options and indexes) compared with the code's.

use super::server::{CommandError, Server};
use super::tighten::differences;
use mongo_schema_core::bson::{doc, Bson, Document};
use mongo_schema_core::command::{ValidationAction, ValidationLevel};
use mongo_schema_core::model::Model;

/// How a deployed collection compares with its model.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum DriftStatus {
    /// Same validator, level and action (numbers compared by value, defaults filled in); for a
    /// time-series collection, which has no validator, the same declared `timeseries`
    /// options and `expireAfterSeconds`.
    InSync,
    /// The collection does not exist: its migration has not been applied.
    Missing,
    /// The collection exists without a validator (never said of a time-series collection).
    NoValidator,
    /// Deployed and code differ (the validator, level or action, time-series or capped
    /// options, an index missing, different, or deployed without being declared); one line
    /// per difference.
    Differs(Vec<String>),
}

/// Each model's deployed collection compared with the code's: its validator, level and
/// action (or a time-series collection's options), capped options and indexes.
pub fn drift(server: &mut dyn Server, models: &[Model]) -> Result<Vec<(Model, DriftStatus)>, CommandError> {
    models.iter().map(|m| Ok((m.clone(), drift_of(server, m)?))).collect()
}

fn drift_of(server: &mut dyn Server, model: &Model) -> Result<DriftStatus, CommandError> {
    let Some(options) = super::gate::collection_options(server, &model.db, &model.collection)? else {
        return Ok(DriftStatus::Missing);
    };
    let status = if let Ok(declared) = model.options.create.get_document("timeseries") {
        // mongod refuses a validator on a time-series collection: compare what the
        // migration installed there instead
        timeseries_drift(declared, model.options.create.get("expireAfterSeconds"), &options)
    } else {
        match options.get_document("validator") {
            Ok(v) if !v.is_empty() => compare(model, v, &options),
            _ => DriftStatus::NoValidator,
        }
    };
    let mut lines = capped_drift(&model.options.create, &options);
    // a deployment that says it enforces what the code says is not clean while stored
    // documents fail it
    if let Some((failing, total)) = super::gate::enforced_failing_in(server, &model.db, &model.collection, &options)? {
        lines.push(format!(
            "documents: {failing} of {total} fail the enforced validator (`schema check --uri \"$MONGODB_URI\" \
             --collection {}` lists them with fixes)",
            model.namespace()
        ));
    }
    lines.extend(collection_drift(&model.options.create, &options));
    lines.extend(index_drift(&model.options.indexes, &list_indexes(server, model)?));
    Ok(match (status, lines.is_empty()) {
        (status, true) => status,
        (DriftStatus::Differs(mut first), false) => {
            first.extend(lines);
            DriftStatus::Differs(first)
        }
        (DriftStatus::NoValidator, false) => {
            lines.insert(0, "validator: none deployed".to_owned());
            DriftStatus::Differs(lines)
        }
        (_, false) => DriftStatus::Differs(lines),
    })
}

/// `capped`, `size` and `max` as declared against the deployed collection's (mongod rounds
/// `size` up to a multiple of 256 bytes).
fn capped_drift(declared: &Document, deployed: &Document) -> Vec<String> {
    let number = |d: &Document, key: &str| {
        d.get(key).and_then(|v| match normalised_value(v) {
            Bson::Int64(n) => Some(n),
            _ => None,
        })
    };
    let capped = |d: &Document| d.get_bool("capped").unwrap_or(false);
    let mut lines = Vec::new();
    if capped(declared) != capped(deployed) {
        lines.push(format!("capped: deployed {}, code {}", capped(deployed), capped(declared)));
        return lines;
    }
    if !capped(declared) {
        return lines;
    }
    let rounded = number(declared, "size").map(|n| (n + 255) / 256 * 256);
    if rounded != number(deployed, "size") && number(declared, "size") != number(deployed, "size") {
        lines.push(format!("size: deployed {}, code {}", shown(deployed.get("size")), shown(declared.get("size"))));
    }
    if number(declared, "max") != number(deployed, "max") {
        lines.push(format!("max: deployed {}, code {}", shown(deployed.get("max")), shown(declared.get("max"))));
    }
    lines
}

/// A collection's default `collation` (in the fields the code names: mongod fills in the
/// others from the locale) and `clusteredIndex` with its `expireAfterSeconds`, as declared
/// against the deployed collection's. A time-series collection's expiry is compared by
/// [`timeseries_drift`].
fn collection_drift(declared: &Document, deployed: &Document) -> Vec<String> {
    let mut lines = Vec::new();
    match (not_simple(declared.get_document("collation").ok()), not_simple(deployed.get_document("collation").ok())) {
        (None, None) => {}
        (Some(code), Some(found)) => {
            let differs: Vec<String> = code
                .iter()
                .filter(|(k, v)| found.get(k.as_str()).map(normalised_value) != Some(normalised_value(v)))
                .map(|(k, _)| format!("collation.{k}"))
                .collect();
            if !differs.is_empty() {
                lines.push(format!("collation: deployed {found}, code {code} (differs: {})", differs.join(", ")));
            }
        }
        (code, found) => lines.push(format!(
            "collation: deployed {}, code {}",
            found.map_or_else(|| "none".to_owned(), Document::to_string),
            code.map_or_else(|| "none".to_owned(), Document::to_string)
        )),
    }
    if declared.contains_key("timeseries") {
        return lines;
    }
    let clustered = |d: &Document| d.contains_key("clusteredIndex");
    if clustered(declared) != clustered(deployed) {
        lines.push(format!("clustered: deployed {}, code {}", clustered(deployed), clustered(declared)));
    }
    let seconds = |d: &Document| d.get("expireAfterSeconds").map(normalised_value);
    if seconds(declared) != seconds(deployed) {
        lines.push(format!(
            "expireAfterSeconds: deployed {}, code {}",
            shown(deployed.get("expireAfterSeconds")),
            shown(declared.get("expireAfterSeconds"))
        ));
    }
    lines
}

/// A collation other than `{locale: "simple"}` (binary comparison, which mongod lists as none).
fn not_simple(collation: Option<&Document>) -> Option<&Document> {
    collation.filter(|c| c.get_str("locale").ok() != Some("simple"))
}

/// The options of an index compared between code and deployment whether or not the code
/// names them: those `createIndexes` takes and mongod keeps as given (once
/// [`canonical`]). Other options the code names are compared too; options mongod lists
/// that are neither (`ns`, `prepareUnique`, `clustered`) are left out.
const INDEX_OPTIONS: [&str; 17] = [
    "key",
    "unique",
    "sparse",
    "hidden",
    "expireAfterSeconds",
    "partialFilterExpression",
    "collation",
    "weights",
    "default_language",
    "language_override",
    "wildcardProjection",
    "bits",
    "min",
    "max",
    "coarsestIndexedLevel",
    "finestIndexedLevel",
    "storageEngine",
];

/// The deployed collection's indexes (`listIndexes`).
fn list_indexes(server: &mut dyn Server, model: &Model) -> Result<Vec<Document>, CommandError> {
    let reply = server.run_command(&model.db, doc! { "listIndexes": &model.collection })?;
    let batch = reply
        .get_document("cursor")
        .and_then(|c| c.get_array("firstBatch"))
        .map_err(|_| CommandError::reply("listIndexes", "a cursor with a first batch", &reply))?;
    Ok(batch.iter().filter_map(Bson::as_document).cloned().collect())
}

/// Each declared index against the deployed one of its name: missing, or which options
/// differ (both sides in [`canonical`] form); then deployed indexes the code does not
/// declare (migrations never drop those).
fn index_drift(declared: &[Document], deployed: &[Document]) -> Vec<String> {
    let name = |d: &Document| d.get_str("name").unwrap_or_default().to_owned();
    let mut lines = Vec::new();
    for spec in declared {
        let n = name(spec);
        let code = canonical(spec);
        match deployed.iter().find(|d| name(d) == n) {
            None => lines.push(format!("index `{n}`: not deployed (code {})", compared(&code, &code))),
            Some(found) => {
                let found = canonical(found);
                let differences = index_differences(&found, &code);
                if !differences.is_empty() {
                    lines.push(format!(
                        "index `{n}`: deployed {}, code {} (differs: {})",
                        compared(&found, &code),
                        compared(&code, &code),
                        differences.join(", ")
                    ));
                }
            }
        }
    }
    for extra in deployed.iter().filter(|d| name(d) != "_id_" && !declared.iter().any(|s| name(s) == name(d))) {
        let found = canonical(extra);
        lines.push(format!(
            "index `{}`: deployed {}, not declared in the code (migrations keep removed indexes: drop it by hand once no query needs it)",
            name(extra),
            compared(&found, &Document::new())
        ));
    }
    lines
}

/// How one of a collection's indexes compares between the code and the deployment, matched
/// by key pattern and options rather than by name alone ([`match_indexes`]).
#[doc(hidden)]
#[derive(Debug, Clone, PartialEq)]
pub enum IndexMatch {
    /// Deployed with the declared key pattern and options; `deployed` is its name there
    /// (another name than `declared` makes the declaring migration's `createIndexes` fail
    /// with IndexOptionsConflict).
    Same {
        /// The declared name.
        declared: String,
        /// The deployed name.
        deployed: String,
    },
    /// Deployed with the declared key pattern (or, failing that, under the declared name)
    /// and other options: which (`unique`, `collation.strength`, `key`), and both sides in
    /// the options compared.
    Differs {
        /// The declared index as `createIndexes` takes it.
        declared: Document,
        /// The deployed index as `listIndexes` shows it.
        deployed: Document,
        /// The options that differ.
        differences: Vec<String>,
        /// The declared index in the options compared.
        declared_shown: Document,
        /// The deployed index in the options compared.
        deployed_shown: Document,
    },
    /// Declared, not deployed.
    Missing {
        /// The declared index as `createIndexes` takes it.
        declared: Document,
    },
    /// Deployed (not the `_id` index), declared by no index of the code.
    Undeclared {
        /// The deployed index as `listIndexes` shows it.
        deployed: Document,
        /// It, in the options compared.
        shown: Document,
    },
}

/// A collection's declared indexes (as `createIndexes` takes them) against its deployed ones
/// (`listIndexes`): each declared index is matched first to a deployed one with the same key
/// pattern and options, whatever its name; then to one with the same key pattern, or the
/// same name, whose options differ; the deployed indexes left over are undeclared. The
/// `_id` index is implicit on both sides, and so is a clustered collection's index (its
/// `clusteredIndex` option, whatever its name). For `schema review`.
#[doc(hidden)]
pub fn match_indexes(declared: &[Document], deployed: &[Document]) -> Vec<IndexMatch> {
    let name = |d: &Document| d.get_str("name").unwrap_or_default().to_owned();
    let implicit = |d: &Document| {
        let c = canonical(d);
        c.len() == 1 && c.get_document("key").is_ok_and(|k| k.len() == 1 && k.get("_id") == Some(&Bson::Int64(1)))
    };
    let declared: Vec<(&Document, Document)> =
        declared.iter().filter(|d| !implicit(d)).map(|d| (d, canonical(d))).collect();
    // a clustered collection's index is the collection's `clusteredIndex` option, not an index
    let clustered = |d: &Document| d.get_bool("clustered").unwrap_or(false);
    let deployed: Vec<(&Document, Document)> = deployed
        .iter()
        .filter(|d| name(d) != "_id_" && !implicit(d) && !clustered(d))
        .map(|d| (d, canonical(d)))
        .collect();
    let key = |d: &Document| {
        d.get_document("key").map(|k| k.iter().map(|(k, v)| (k.clone(), v.clone())).collect::<Vec<_>>()).ok()
    };
    let mut taken = vec![false; deployed.len()];
    let mut found: Vec<Option<IndexMatch>> = vec![None; declared.len()];
    // same keys and options first, so a near match never takes another index's exact one
    for (i, (spec, code)) in declared.iter().enumerate() {
        let exact = (0..deployed.len())
            .filter(|&j| !taken[j] && index_differences(&deployed[j].1, code).is_empty())
            .min_by_key(|&j| name(deployed[j].0) != name(spec));
        if let Some(j) = exact {
            taken[j] = true;
            found[i] = Some(IndexMatch::Same { declared: name(spec), deployed: name(deployed[j].0) });
        }
    }
    for (i, (spec, code)) in declared.iter().enumerate() {
        if found[i].is_some() {
            continue;
        }
        let near = (0..deployed.len())
            .filter(|&j| !taken[j] && key(&deployed[j].1) == key(code))
            .min_by_key(|&j| name(deployed[j].0) != name(spec))
            .or_else(|| (0..deployed.len()).find(|&j| !taken[j] && name(deployed[j].0) == name(spec)));
        found[i] = Some(match near {
            Some(j) => {
                taken[j] = true;
                let (raw, canon) = &deployed[j];
                IndexMatch::Differs {
                    declared: (*spec).clone(),
                    deployed: (*raw).clone(),
                    differences: index_differences(canon, code),
                    declared_shown: compared(code, code),
                    deployed_shown: compared(canon, code),
                }
            }
            None => IndexMatch::Missing { declared: (*spec).clone() },
        });
    }
    let mut out: Vec<IndexMatch> = found.into_iter().flatten().collect();
    out.extend(deployed.iter().zip(&taken).filter(|(_, taken)| !**taken).map(|((raw, canon), _)| {
        IndexMatch::Undeclared { deployed: (*raw).clone(), shown: compared(canon, &Document::new()) }
    }));
    out
}

/// An index specification (declared, or as `listIndexes` shows it) in the one form both
/// sides are compared in:
///
/// - numbers as `Int64` when integral (`expireAfterSeconds: 3600` is an int from mongosh
///   and the driver, a long in the code), `unique` / `sparse` / `hidden` as booleans and
///   `false` as absent (mongod lists none of them when false);
/// - a declared text key (`{a: 1, subject: "text"}`) as mongod stores it: its text fields
///   become `_fts: "text", _ftsx: 1` in place of the first one (the other keys keep their
///   order) and `weights`, each text field at 1 unless `weights` says otherwise, plus the
///   defaults `default_language: "english"` and `language_override: "language"`;
/// - `weights` in name order (mongod lists them sorted), compared by value;
/// - `wildcardProjection` values as booleans (`1` and `true` include, `0` and `false`
///   exclude);
/// - a `{locale: "simple"}` collation as none (mongod lists none).
fn canonical(spec: &Document) -> Document {
    let mut out: Document =
        spec.iter().filter(|(k, _)| k.as_str() != "name").map(|(k, v)| (k.clone(), normalised_value(v))).collect();
    for flag in ["unique", "sparse", "hidden"] {
        match out.get(flag).map(truthy) {
            Some(true) => {
                out.insert(flag, true);
            }
            Some(false) => {
                out.remove(flag);
            }
            None => {}
        }
    }
    let key = out.get_document("key").cloned().unwrap_or_default();
    let text_fields: Vec<&String> = key.iter().filter(|(_, v)| v.as_str() == Some("text")).map(|(k, _)| k).collect();
    if !key.contains_key("_fts") && !text_fields.is_empty() {
        let mut stored = Document::new();
        for (field, value) in &key {
            match (value.as_str() == Some("text"), stored.contains_key("_fts")) {
                (true, true) => {}
                (true, false) => {
                    stored.insert("_fts", "text");
                    stored.insert("_ftsx", 1_i64);
                }
                (false, _) => {
                    stored.insert(field.clone(), value.clone());
                }
            }
        }
        let mut weights: Document = text_fields.iter().map(|f| ((*f).clone(), Bson::Int64(1))).collect();
        weights.extend(out.get_document("weights").cloned().unwrap_or_default());
        out.insert("key", stored);
        out.insert("weights", weights);
    }
    if out.get_document("key").is_ok_and(|k| k.contains_key("_fts")) {
        if !out.contains_key("default_language") {
            out.insert("default_language", "english");
        }
        if !out.contains_key("language_override") {
            out.insert("language_override", "language");
        }
    }
    if let Ok(weights) = out.get_document("weights") {
        let mut sorted: Vec<(String, Bson)> = weights.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
        sorted.sort_by(|a, b| a.0.cmp(&b.0));
        out.insert("weights", sorted.into_iter().collect::<Document>());
    }
    if let Ok(projection) = out.get_document("wildcardProjection") {
        let booleans: Document = projection.iter().map(|(k, v)| (k.clone(), Bson::Boolean(truthy(v)))).collect();
        out.insert("wildcardProjection", booleans);
    }
    if out.get_document("collation").is_ok_and(|c| c.get_str("locale").ok() == Some("simple")) {
        out.remove("collation");
    }
    out
}

/// `true`, a non-zero number.
fn truthy(value: &Bson) -> bool {
    match value {
        Bson::Boolean(b) => *b,
        Bson::Int32(n) => *n != 0,
        Bson::Int64(n) => *n != 0,
        Bson::Double(n) => *n != 0.0,
        Bson::Null => false,
        _ => true,
    }
}

/// The options compared for an index the code declares as `code` (canonical): those of
/// [`INDEX_OPTIONS`] and any other the code names. So the format versions mongod adds to
/// every index it lists (`v`) or to its kind (`textIndexVersion`, `2dsphereIndexVersion`)
/// count only when the code names them.
fn compared_options(code: &Document) -> Vec<String> {
    let named = code.keys().filter(|k| !INDEX_OPTIONS.contains(&k.as_str())).cloned();
    INDEX_OPTIONS.iter().map(|k| (*k).to_owned()).chain(named).collect()
}

/// What of a deployed index (canonical) differs from the code's: the option, or the field
/// of `weights`, `wildcardProjection` and `collation` (`collation.strength`). A collation is
/// compared in the fields the code names: mongod fills in every other one from the
/// locale's own defaults (`caseFirst: "upper"` for `da`, `backwards: true` for `fr_CA`,
/// ICU's data), which the code accepts by not naming them.
fn index_differences(deployed: &Document, code: &Document) -> Vec<String> {
    let mut out = Vec::new();
    for option in compared_options(code) {
        let (d, c) = (deployed.get(&option), code.get(&option));
        match (option.as_str(), d, c) {
            // the order of a key pattern's fields is the index (bson compares documents as maps)
            ("key", Some(Bson::Document(d)), Some(Bson::Document(c))) if !d.iter().eq(c.iter()) => out.push(option),
            ("collation", Some(Bson::Document(d)), Some(Bson::Document(c))) => out
                .extend(c.iter().filter(|(k, v)| d.get(k.as_str()) != Some(*v)).map(|(k, _)| format!("{option}.{k}"))),
            ("weights" | "wildcardProjection", Some(Bson::Document(d)), Some(Bson::Document(c))) => {
                let mut fields: Vec<&String> =
                    c.keys().chain(d.keys().filter(|k| !c.contains_key(k.as_str()))).collect();
                fields.sort();
                out.extend(
                    fields
                        .into_iter()
                        .filter(|k| d.get(k.as_str()) != c.get(k.as_str()))
                        .map(|k| format!("{option}.{k}")),
                )
            }
            _ if d != c => out.push(option),
            _ => {}
        }
    }
    out
}

/// `index` (canonical) shown in the options compared with `code`, its collation in the
/// fields `code`'s names (all of them when the code names none).
fn compared(index: &Document, code: &Document) -> Document {
    compared_options(code)
        .into_iter()
        .filter_map(|option| {
            let value = index.get(&option)?;
            let value = match (option.as_str(), value, code.get_document("collation")) {
                ("collation", Bson::Document(collation), Ok(named)) => Bson::Document(
                    collation
                        .iter()
                        .filter(|(k, _)| named.contains_key(k.as_str()))
                        .map(|(k, v)| (k.clone(), v.clone()))
                        .collect(),
                ),
                _ => value.clone(),
            };
            Some((option, value))
        })
        .collect()
}

/// A time-series collection against its declaration: each declared `timeseries` option
/// (mongod adds others, such as `bucketMaxSpanSeconds`) and `expireAfterSeconds`.
fn timeseries_drift(declared: &Document, expiry: Option<&Bson>, deployed: &Document) -> DriftStatus {
    let deployed_series = deployed.get_document("timeseries").cloned().unwrap_or_default();
    let mut lines: Vec<String> = declared
        .iter()
        .filter(|(key, value)| deployed_series.get(key.as_str()) != Some(*value))
        .map(|(key, value)| {
            format!("timeseries.{key}: deployed {}, code {value}", shown(deployed_series.get(key.as_str())))
        })
        .collect();
    let seconds = |value: Option<&Bson>| value.and_then(|v| v.as_i64().or_else(|| v.as_i32().map(i64::from)));
    if seconds(deployed.get("expireAfterSeconds")) != seconds(expiry) {
        lines.push(format!(
            "expireAfterSeconds: deployed {}, code {}",
            shown(deployed.get("expireAfterSeconds")),
            shown(expiry)
        ));
    }
    if lines.is_empty() {
        DriftStatus::InSync
    } else {
        DriftStatus::Differs(lines)
    }
}

fn shown(value: Option<&Bson>) -> String {
    value.map_or_else(|| "none".to_owned(), Bson::to_string)
}

/// What differs between `model` and a deployed collection's `validator` and `options`
/// (`listCollections`' `options`): the validator, its level and action, one line each as
/// `drift` prints them; empty when they agree. For `schema review`.
#[doc(hidden)]
pub fn validator_differences(model: &Model, validator: &Document, options: &Document) -> Vec<String> {
    match compare(model, validator, options) {
        DriftStatus::Differs(lines) => lines,
        _ => Vec::new(),
    }
}

fn compare(model: &Model, deployed: &Document, options: &Document) -> DriftStatus {
    let level = options.get_str("validationLevel").unwrap_or(ValidationLevel::Strict.as_str());
    let action = options.get_str("validationAction").unwrap_or(ValidationAction::Error.as_str());
    let mut lines = Vec::new();
    if level != model.level.as_str() {
        lines.push(format!("validationLevel: deployed {level}, code {}", model.level));
    }
    if action != model.action.as_str() {
        lines.push(format!("validationAction: deployed {action}, code {}", model.action));
    }
    let (deployed, code) = (normalised(deployed), normalised(&model.validator));
    if deployed != code {
        lines.extend(validator_lines(&deployed, &code));
    }
    if lines.is_empty() {
        DriftStatus::InSync
    } else {
        DriftStatus::Differs(lines)
    }
}

/// One line per difference between the validators: which side is stricter, and where
/// (`oneOf[1](type="card").number: maxLength 19 -> 16`, a branch of a polymorphic root
/// named by position and tag value); a value replaced by one neither looser nor stricter
/// (a `pattern`) once, from the deployment's to the code's.
fn validator_lines(deployed: &Document, code: &Document) -> Vec<String> {
    let mut lines: Vec<String> = differences(deployed, code)
        .into_iter()
        .map(|t| match t.either_way {
            true => format!("the code and the deployment differ: {}", t.text),
            false => format!("the code is stricter: {}", t.text),
        })
        .collect();
    lines.extend(
        differences(code, deployed)
            .into_iter()
            .filter(|t| !t.either_way)
            .map(|t| format!("the deployment is stricter: {}", t.text)),
    );
    if lines.is_empty() {
        return vec!["validator: differs in descriptions, titles or key order only".to_owned()];
    }
    lines
}

/// Integral numbers as `Int64`, whatever type mongosh or a driver sent them as.
fn normalised(doc: &Document) -> Document {
    doc.iter().map(|(k, v)| (k.clone(), normalised_value(v))).collect()
}

fn normalised_value(value: &Bson) -> Bson {
    match value {
        Bson::Int32(n) => Bson::Int64(i64::from(*n)),
        Bson::Double(d) if d.fract() == 0.0 && d.abs() < 9.0e15 => Bson::Int64(*d as i64),
        Bson::Document(d) => Bson::Document(normalised(d)),
        Bson::Array(items) => Bson::Array(items.iter().map(normalised_value).collect()),
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::{match_indexes, IndexMatch};
    use mongo_schema_core::bson::{doc, Document};

    fn names(found: &[IndexMatch]) -> Vec<String> {
        found
            .iter()
            .map(|m| match m {
                IndexMatch::Same { declared, deployed } => format!("same {declared}={deployed}"),
                IndexMatch::Differs { declared, deployed, differences, .. } => format!(
                    "differs {}~{}: {}",
                    declared.get_str("name").unwrap(),
                    deployed.get_str("name").unwrap(),
                    differences.join(",")
                ),
                IndexMatch::Missing { declared } => format!("missing {}", declared.get_str("name").unwrap()),
                IndexMatch::Undeclared { deployed, .. } => format!("undeclared {}", deployed.get_str("name").unwrap()),
            })
            .collect()
    }

    #[test]
    fn indexes_match_by_keys_and_options_before_names() {
        let declared: Vec<Document> = vec![
            doc! { "key": { "a": 1 }, "name": "a_unique", "unique": true },
            doc! { "key": { "a": 1 }, "name": "a_plain" },
            doc! { "key": { "t": 1 }, "name": "t_ttl", "expireAfterSeconds": 3600_i64 },
            doc! { "key": { "p": 1 }, "name": "p_partial", "partialFilterExpression": { "p": { "$gt": 5_i64 } } },
            doc! { "key": { "h": 1 }, "name": "h_1", "hidden": true },
            doc! { "key": { "body": "text" }, "name": "body_text" },
            doc! { "key": { "_id": 1 }, "name": "_id_" },
            doc! { "key": { "gone": 1 }, "name": "gone_1" },
        ];
        // as mongod lists them: ints, text keys in their stored form, defaults filled in
        let deployed: Vec<Document> = vec![
            doc! { "v": 2, "key": { "_id": 1 }, "name": "_id_" },
            doc! { "v": 2, "key": { "a": 1 }, "name": "a_1" },
            doc! { "v": 2, "key": { "a": 1 }, "name": "a_unique", "unique": true },
            doc! { "v": 2, "key": { "t": 1 }, "name": "t_ttl", "expireAfterSeconds": 60 },
            doc! { "v": 2, "key": { "p": 1 }, "name": "p_partial", "partialFilterExpression": { "p": { "$gt": 6 } } },
            doc! { "v": 2, "key": { "h": 1 }, "name": "h_1" },
            doc! { "v": 2, "key": { "_fts": "text", "_ftsx": 1 }, "name": "body_text", "weights": { "body": 1 },
            "default_language": "english", "language_override": "language", "textIndexVersion": 3 },
            doc! { "v": 2, "key": { "x": 1 }, "name": "x_1", "sparse": true },
            doc! { "v": 2, "key": { "_id": 1 }, "name": "by_time", "unique": true, "clustered": true },
        ];
        assert_eq!(
            names(&match_indexes(&declared, &deployed)),
            [
                "same a_unique=a_unique",
                "same a_plain=a_1",
                "differs t_ttl~t_ttl: expireAfterSeconds",
                "differs p_partial~p_partial: partialFilterExpression",
                "differs h_1~h_1: hidden",
                "same body_text=body_text",
                "missing gone_1",
                "undeclared x_1",
            ]
        );
    }

    #[test]
    fn a_key_in_another_order_is_another_index_and_a_shared_name_is_still_compared() {
        let declared = vec![doc! { "key": { "a": 1, "b": 1 }, "name": "ab" }];
        let deployed = vec![doc! { "v": 2, "key": { "b": 1, "a": 1 }, "name": "ab" }];
        assert_eq!(names(&match_indexes(&declared, &deployed)), ["differs ab~ab: key"]);
        let deployed = vec![doc! { "v": 2, "key": { "b": 1, "a": 1 }, "name": "ba" }];
        assert_eq!(names(&match_indexes(&declared, &deployed)), ["missing ab", "undeclared ba"]);
    }
}
