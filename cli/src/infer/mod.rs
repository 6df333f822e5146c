//! `schema infer`: draft models from the documents a database already holds. One pass
//! over each collection's documents fills a bounded inference state ([`Collection`]: per
//! path the BSON kinds with counts, presence, distinct strings up to a cap, array lengths,
//! embedded documents, keys that are data); [`draft()`] turns the states into the Rust
//! source of models that follow the modelling rules (or waive them with a reason) and the
//! report of what those models will refuse: `decide` types each path into a model of the
//! drafted file (items, fields, types, attributes, doc comments) and the report, `render`
//! alone writes that model as Rust. Nothing here talks to a server or reads a file: the
//! `schema` command feeds it documents from dumps or a deployment.

mod decide;
mod draft;
mod evidence;
mod model;
mod names;
mod render;
mod stats;

pub use draft::{
    percent, thousands, Anomaly, Candidate, CollectionDraft, Draft, Existing, FieldSeen, Input, NEXT_STEPS,
};
pub use names::pascal;
pub use stats::{
    data_key, id_text, Collection, Field, Kind, Object, Seen, Values, EXAMPLES, LONGEST, MAX_KEYS, MAX_LENGTH,
    MAX_STRINGS,
};

use serde_json::Value;

/// Drafts the models of `inputs` (sorted by namespace first, so the file depends on the
/// data only): each path is typed (what the modelling rules want, chosen from what the
/// data shows) into a model of the drafted file and the report, then the model is written
/// as Rust.
pub fn draft(inputs: &[Input]) -> Draft {
    let decided = decide::decide(inputs);
    Draft { source: render::source(&decided.items), collections: decided.collections }
}

/// The report for people: per collection what was read, each path's kinds, the
/// anomalies, the candidates, then the next steps.
pub fn render_text(draft: &Draft) -> String {
    let mut out = String::new();
    for c in &draft.collections {
        let read = match c.total {
            Some(total) => format!("{} of {} documents read", thousands(c.read), thousands(total)),
            None => format!("{} documents read", thousands(c.read)),
        };
        out.push_str(&format!("{} ({read}) -> model {}\n", c.namespace, c.model));
        for note in &c.notes {
            out.push_str(&format!("  note: {}\n", draft::shown(note)));
        }
        out.push_str("  fields:\n");
        for f in &c.fields {
            let total: u64 = f.kinds.iter().map(|(_, n)| n).sum();
            let kinds: Vec<String> =
                f.kinds.iter().map(|(k, n)| format!("{k} {} ({})", thousands(*n), percent(*n, total))).collect();
            out.push_str(&format!(
                "    {}: {} of {}: {} -> {}\n",
                draft::shown(&f.path),
                thousands(f.present),
                thousands(f.of),
                kinds.join(", "),
                f.rust
            ));
        }
        if c.anomalies.is_empty() {
            out.push_str("  anomalies: none (every document read fits the drafted model)\n");
        } else {
            out.push_str("  anomalies (documents the drafted model refuses):\n");
            for a in &c.anomalies {
                let examples = match a.examples.is_empty() {
                    true => String::new(),
                    false => format!("; e.g. _id {}", a.examples.join(", ")),
                };
                out.push_str(&format!(
                    "    {}: {} document{}: {}{examples}\n",
                    draft::shown(&a.path),
                    thousands(a.documents),
                    if a.documents == 1 { "" } else { "s" },
                    a.what,
                ));
            }
        }
        if !c.candidates.is_empty() {
            out.push_str("  to decide:\n");
            for k in &c.candidates {
                out.push_str(&format!("    {} {}: {}\n", k.kind, draft::shown(&k.path), draft::shown(&k.note)));
            }
        }
        out.push('\n');
    }
    out.push_str(NEXT_STEPS);
    out.push('\n');
    out
}

/// The report as one JSON document (`--format json`): [`Draft`]'s serialization.
pub fn render_json(draft: &Draft) -> Value {
    serde_json::to_value(draft).expect("the report has string keys only")
}

#[cfg(test)]
mod tests {
    use super::*;
    use mongo_schema_core::bson::{doc, Document, RawDocumentBuf};

    /// A collection of every part of the report: a total, an existing validator, notes
    /// (an index not drafted), each kind of field, anomalies with examples, candidates.
    fn report_input() -> Input {
        let mut docs: Vec<Document> = (0..6)
            .map(|i| {
                doc! { "_id": i, "status": if i % 2 == 0 { "open" } else { "done" }, "price": 1.5 + f64::from(i),
                "tags": ["a"], "createTime": "2024-01-01" }
            })
            .collect();
        docs.push(doc! { "_id": 6, "status": 3, "price": "free", "tags": "none", "createTime": "2024-01-02" });
        let mut stats = Collection::default();
        for d in &docs {
            stats.observe(&RawDocumentBuf::try_from(d).unwrap()).unwrap();
        }
        Input {
            db: "db_shop".into(),
            collection: "t_order".into(),
            stats,
            total: Some(1_200),
            indexes: vec![doc! { "v": 2, "key": { "gone": 1 }, "name": "gone_1" }],
            validator: Some(doc! { "price": { "$gte": 0 } }),
            validation_level: Some("moderate".into()),
            validation_action: None,
        }
    }

    /// The `--format json` report, as `schema infer` prints it (docs/INFER.md), held by a
    /// committed snapshot.
    #[test]
    fn the_json_report_shape() {
        let empty =
            Input { collection: "t_empty".into(), validator: None, indexes: Vec::new(), total: None, ..report_input() };
        let empty = Input { stats: Collection::default(), ..empty };
        let drafted = draft(&[report_input(), empty]);
        insta::assert_snapshot!(format!("{:#}\n", render_json(&drafted)));
        // the command prints the serialization itself
        assert_eq!(serde_json::to_string_pretty(&drafted).unwrap(), format!("{:#}", render_json(&drafted)));
    }
}
