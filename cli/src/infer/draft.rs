//! What a draft says: the input of one collection, the report of what it holds (each
//! path's kinds, the values the drafted models will refuse, what to decide, the next
//! steps) and the drafted source, with the numbers and text people read in it.

use super::stats::Collection;
use mongo_schema_core::bson::Document;
use serde::Serialize;

/// What to run next, after reading the drafted models (docs/MIGRATIONS.md, "Adopting an
/// existing database").
pub const NEXT_STEPS: &str = "\
next steps (docs/INFER.md, docs/MIGRATIONS.md \"Adopting an existing database\"):
  1. review the drafted models (types, enums, maps, bounds, waivers) and add them to your crate
  2. schema migrate                  # the first migration: adopts the collections under validationAction warn
  3. schema apply --uri URI          # installs the validators under warn: nothing is refused yet
  4. schema check --uri URI          # the documents that must change, by path (the anomalies above)
  5. schema new-data fix_NAME --contract, fill it, then schema apply --uri URI --contract
                                     # the data fixed and the validators enforced";

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
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Candidate {
    /// `rename`, `enum`, `map`, `bound`, `type`, `date`, `nesting`.
    pub kind: &'static str,
    /// The path (`a.b`, `items.$[]` for an array's items, as `schema check` groups them, `<key>` for a map's values).
    pub path: String,
    /// What was seen and what was drafted.
    pub note: String,
}

/// Documents the drafted model refuses, at one path.
#[derive(Debug, Clone, PartialEq, Serialize)]
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
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FieldSeen {
    /// The path (`a.b`, `items.$[]` for an array's items, as `schema check` groups them, `<key>` for a map's values).
    pub path: String,
    /// Documents (at this level) holding the key.
    pub present: u64,
    /// Documents at this level.
    pub of: u64,
    /// Each BSON kind seen, with its count of values (in JSON an object: kind → count).
    #[serde(serialize_with = "kinds_map")]
    pub kinds: Vec<(&'static str, u64)>,
    /// The drafted Rust type.
    pub rust: String,
}

/// What the draft of one collection says (in the JSON report, its fields in this order).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CollectionDraft {
    /// `db.collection`.
    pub namespace: String,
    /// The drafted collection root.
    pub model: String,
    /// Documents read.
    pub read: u64,
    /// Documents in the collection, when counted (a deployment).
    pub total: Option<u64>,
    /// Notes (an empty collection, an existing validator, indexes not drafted).
    pub notes: Vec<String>,
    /// The validator the collection already has, with whether mongod enforces it (JSON:
    /// `validator`, `null` when it has none).
    #[serde(rename = "validator")]
    pub existing: Option<Existing>,
    /// Each path's kinds.
    pub fields: Vec<FieldSeen>,
    /// The values the drafted model refuses, by path.
    pub anomalies: Vec<Anomaly>,
    /// What a person should decide.
    pub candidates: Vec<Candidate>,
}

/// A validator the collection already has: what it says and whether it refuses anything.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Existing {
    /// The validator document, as relaxed Extended JSON.
    pub validator: serde_json::Value,
    /// `validationLevel`: `strict`, `moderate` or `off`.
    #[serde(rename = "validationLevel")]
    pub level: String,
    /// `validationAction`: `error` or `warn`.
    #[serde(rename = "validationAction")]
    pub action: String,
    /// Whether the level or action was left to mongod's default (not stated).
    pub defaulted: bool,
    /// Whether a write that fails it is refused (`error` with a level other than `off`).
    pub enforced: bool,
}

impl Existing {
    pub(super) fn new(validator: &Document, level: Option<&str>, action: Option<&str>) -> Existing {
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

/// The drafted source and what it says of each collection. It serializes as the report
/// (`schema infer --format json`, docs/INFER.md): `{collections, next}`, `next` the steps
/// of [`NEXT_STEPS`], without the source.
#[derive(Debug, Clone, PartialEq)]
pub struct Draft {
    /// The Rust source of the models.
    pub source: String,
    /// Per collection, sorted by namespace.
    pub collections: Vec<CollectionDraft>,
}

impl serde::Serialize for Draft {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Report<'a> {
            collections: &'a [CollectionDraft],
            next: Vec<&'static str>,
        }
        let next = NEXT_STEPS.lines().skip(1).map(str::trim).collect();
        Report { collections: &self.collections, next }.serialize(serializer)
    }
}

/// [`FieldSeen::kinds`] as a JSON object, kind → count, in the order seen.
fn kinds_map<S: serde::Serializer>(kinds: &[(&'static str, u64)], serializer: S) -> Result<S::Ok, S::Error> {
    serializer.collect_map(kinds.iter().map(|(kind, n)| (*kind, *n)))
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

// the tests draft through the module root
#[cfg(test)]
use super::draft;

#[cfg(test)]
mod tests {
    use super::super::decide::round_up;
    use super::super::names::{pascal, snake};
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
