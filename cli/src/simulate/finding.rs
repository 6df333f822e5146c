//! What the rehearsal found about one data step: refused (the validator it meets, each
//! document shape and the paths that fail, what to do), or not simulated (why).

use mongo_schema_core::bson::Document;
use mongo_schema_migrate::Phase;
use serde::Serialize;
use serde_json::Value;

/// Where a sample document came from.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Origin {
    /// Generated from a validator's `$jsonSchema`: a shape it admits (the text names it).
    Generated(String),
    /// Given by the caller: a dump's document, a deployment's `$sample` (the text says which).
    Given(String),
    /// Written by an earlier data step of the rehearsal (an upsert or an insert).
    Written,
}

impl Origin {
    /// For a person: `generated (the validator of ...)`, the caller's words, `written by an earlier step`.
    pub fn describe(&self) -> String {
        match self {
            Origin::Generated(from) => format!("generated from {from}"),
            Origin::Given(from) => from.clone(),
            Origin::Written => "written by an earlier data step".to_owned(),
        }
    }
}

/// The validator a data step meets when it runs.
#[derive(Debug, Clone, PartialEq)]
pub struct InForce {
    /// `the expand validator of 20261207_tighten_t_order (step 1)`, `the deployed validator`.
    pub name: String,
    /// The validator document (`{$jsonSchema: ...}`).
    pub validator: Document,
    /// `validationLevel`: `strict`, `moderate` or `off`.
    pub level: String,
    /// `validationAction`: `error` or `warn`.
    pub action: String,
}

/// One document shape a data step's result is refused for.
#[derive(Debug, Clone, PartialEq)]
pub struct Refusal {
    /// A document of that shape, as the step found it.
    pub before: Document,
    /// What the step would have written (for a refusal by validation), or `None` when mongod
    /// refuses the update itself (then `reason` gives its error).
    pub after: Option<Document>,
    /// The paths that fail, each with its keyword (`amount: bsonType`), or mongod's error.
    pub paths: Vec<String>,
    /// Why, in mongod's words (`the updated document fails validation (121): ...`).
    pub reason: String,
    /// Where the document came from.
    pub origin: Origin,
    /// How many sample documents of this shape the step refuses.
    pub documents: usize,
    /// `_id`s of those documents, in the order the step meets them.
    pub ids: Vec<mongo_schema_core::bson::Bson>,
    /// Whether the written document is admitted by the collection's last validator (the
    /// contract's): then the step is right but runs too early.
    pub admitted_later: bool,
}

/// What the rehearsal says of a data step.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Verdict {
    /// Some sample documents' results would be refused (mongod's 121, or its error).
    Refused {
        /// The validator it meets.
        in_force: InForce,
        /// One entry a shape (the set of failing paths).
        shapes: Vec<Refusal>,
    },
    /// The step could not be judged: why (a pipeline stage, an operator or a command the
    /// local applier does not model). Never a pass.
    NotSimulated(String),
    /// A gated step (`requireValid`): sample documents, as the data steps before it leave
    /// them, fail the validator it enforces, so `apply --contract` stops there (by design:
    /// nothing is refused) until they are converted or fixed. Not counted as refused: a
    /// generated shape may have no document in the deployment.
    GateStops {
        /// The validator the step enforces.
        in_force: InForce,
        /// One entry a shape (`after` is `None`: nothing was written).
        shapes: Vec<Refusal>,
    },
}

/// One data step (one statement of it, for an `update` with several) the rehearsal reports.
#[derive(Debug, Clone, PartialEq)]
pub struct Finding {
    /// The migration.
    pub migration: String,
    /// The step, 1-based, as `apply` counts it.
    pub step: usize,
    /// The statement of the command's `updates` (or `deletes`, `documents`), 1-based.
    pub statement: Option<usize>,
    /// `update db_shop.t_order`.
    pub command: String,
    /// The step's phase: which run of `apply` runs it.
    pub phase: Phase,
    /// What the rehearsal says.
    pub verdict: Verdict,
}

impl Finding {
    /// `20261207_convert_orders step 2 (update db_shop.t_order, statement 1)`.
    pub fn position(&self) -> String {
        let statement = self.statement.map(|s| format!(", statement {s}")).unwrap_or_default();
        format!("{} step {} ({}{statement})", self.migration, self.step, self.command)
    }

    /// Whether it stops the deploy (a refusal); a step not simulated is reported, not counted.
    pub fn is_refused(&self) -> bool {
        matches!(self.verdict, Verdict::Refused { .. })
    }

    /// Whether the rehearsal could not judge the step.
    pub fn is_not_simulated(&self) -> bool {
        matches!(self.verdict, Verdict::NotSimulated(_))
    }

    /// What to do, for a person.
    pub fn advice(&self) -> String {
        let shapes = match &self.verdict {
            Verdict::Refused { shapes, .. } => shapes,
            Verdict::GateStops { .. } => {
                return "documents of these shapes, where the deployment holds any, keep the contract at this gate: \
                        convert them in a data step of the contract (one update per document shape), or fix them \
                        by hand (`schema check --uri` lists them); the gate then lets it run"
                    .to_owned()
            }
            Verdict::NotSimulated(_) => {
                return "check this step by hand, or on a copy of the data (`mongorestore` a dump into a test \
                        deployment and run `schema apply` there)"
                    .to_owned()
            }
        };
        if shapes.iter().all(|s| s.admitted_later) {
            return "the step writes the new shape, but runs before the validator that admits it: move it after \
                    the migration that installs that validator (a later file), or to the contract (`\"phase\": \
                    \"contract\"`, `schema new-data NAME --contract`)"
                .to_owned();
        }
        let combine = "the update leaves documents halfway between the two releases' shapes, which no validator in \
                       force admits: combine this collection's updates into one update per document shape, each \
                       taking a document from the previous shape to the new one whole (a pipeline with a `$cond` per \
                       field, filtered on that shape)";
        match self.phase {
            Phase::Contract => combine.to_owned(),
            _ => format!(
                "{combine}; or, when the new release does not need it at start, move it to the contract \
                 (`\"phase\": \"contract\"`), which runs once the previous release no longer writes"
            ),
        }
    }

    /// The finding as text, one line a fact, indented under its position.
    pub fn render(&self) -> String {
        let mut out = String::new();
        match &self.verdict {
            Verdict::Refused { in_force, shapes } => {
                let documents: usize = shapes.iter().map(|s| s.documents).sum();
                out.push_str(&format!(
                    "REFUSED  {}: {documents} sample document(s) of {} shape(s) would be refused by {} \
                     (validationLevel {}, validationAction {})\n",
                    self.position(),
                    shapes.len(),
                    in_force.name,
                    in_force.level,
                    in_force.action
                ));
                for shape in shapes {
                    out.push_str(&format!(
                        "  shape ({}, {} document(s)): fails at {}\n",
                        shape.origin.describe(),
                        shape.documents,
                        shape.paths.join(", ")
                    ));
                    out.push_str(&format!("    before: {}\n", relaxed(&shape.before)));
                    if let Some(after) = &shape.after {
                        out.push_str(&format!("    after:  {}\n", relaxed(after)));
                    }
                    out.push_str(&format!("    {}\n", shape.reason));
                }
                out.push_str(&format!("  what to do: {}\n", self.advice()));
            }
            Verdict::NotSimulated(why) => {
                out.push_str(&format!("NOT SIMULATED  {}: {why}\n", self.position()));
                out.push_str(&format!("  what to do: {}\n", self.advice()));
            }
            Verdict::GateStops { in_force, shapes } => {
                let documents: usize = shapes.iter().map(|s| s.documents).sum();
                out.push_str(&format!(
                    "GATE  {}: {documents} sample document(s) of {} shape(s) fail {} it enforces, so `apply \
                     --contract` stops here\n",
                    self.position(),
                    shapes.len(),
                    in_force.name
                ));
                for shape in shapes {
                    out.push_str(&format!(
                        "  shape ({}, {} document(s)): fails at {}\n    {}\n",
                        shape.origin.describe(),
                        shape.documents,
                        shape.paths.join(", "),
                        relaxed(&shape.before)
                    ));
                }
                out.push_str(&format!("  what to do: {}\n", self.advice()));
            }
        }
        out
    }

    /// The finding as JSON: `{migration, step, statement, command, phase, advice, verdict:
    /// "refused" | "notSimulated" | "gateStops", validator?, shapes?, reason?}` (its
    /// serialization).
    pub fn to_json(&self) -> Value {
        serde_json::to_value(self).expect("a finding has string keys only")
    }
}

impl Serialize for Finding {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        Json {
            migration: &self.migration,
            step: self.step,
            statement: self.statement,
            command: &self.command,
            phase: self.phase.as_str(),
            advice: self.advice(),
            verdict: match &self.verdict {
                Verdict::Refused { in_force, shapes } => VerdictJson::Refused {
                    validator: InForceJson {
                        name: &in_force.name,
                        validation_level: &in_force.level,
                        validation_action: &in_force.action,
                    },
                    shapes: shapes
                        .iter()
                        .map(|s| RefusedShape {
                            paths: &s.paths,
                            reason: &s.reason,
                            origin: s.origin.describe(),
                            documents: s.documents,
                            before: extended(&s.before),
                            after: s.after.as_ref().map(extended),
                        })
                        .collect(),
                },
                Verdict::NotSimulated(why) => VerdictJson::NotSimulated { reason: why },
                Verdict::GateStops { in_force, shapes } => VerdictJson::GateStops {
                    validator: GateValidator { name: &in_force.name },
                    shapes: shapes
                        .iter()
                        .map(|s| GateShape {
                            paths: &s.paths,
                            origin: s.origin.describe(),
                            documents: s.documents,
                            before: extended(&s.before),
                        })
                        .collect(),
                },
            },
        }
        .serialize(serializer)
    }
}

/// A [`Finding`] as JSON: what it is, then its verdict and what the verdict carries.
#[derive(Serialize)]
struct Json<'a> {
    migration: &'a str,
    step: usize,
    statement: Option<usize>,
    command: &'a str,
    phase: &'static str,
    advice: String,
    #[serde(flatten)]
    verdict: VerdictJson<'a>,
}

#[derive(Serialize)]
#[serde(tag = "verdict", rename_all = "camelCase")]
enum VerdictJson<'a> {
    Refused { validator: InForceJson<'a>, shapes: Vec<RefusedShape<'a>> },
    NotSimulated { reason: &'a str },
    GateStops { validator: GateValidator<'a>, shapes: Vec<GateShape<'a>> },
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct InForceJson<'a> {
    name: &'a str,
    validation_level: &'a str,
    validation_action: &'a str,
}

#[derive(Serialize)]
struct GateValidator<'a> {
    name: &'a str,
}

#[derive(Serialize)]
struct RefusedShape<'a> {
    paths: &'a [String],
    reason: &'a str,
    origin: String,
    documents: usize,
    before: Value,
    after: Option<Value>,
}

#[derive(Serialize)]
struct GateShape<'a> {
    paths: &'a [String],
    origin: String,
    documents: usize,
    before: Value,
}

fn relaxed(doc: &Document) -> String {
    extended(doc).to_string()
}

fn extended(doc: &Document) -> Value {
    mongo_schema_core::bson::Bson::Document(doc.clone()).into_relaxed_extjson()
}
