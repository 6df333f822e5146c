//! What the rules hand the expansion: [`Assertion`]s, const tests over a type's or a field's
//! facts, spanned where a failure is reported. Data only: `expand` renders them.

use proc_macro2::Span;

use super::site::Site;
use crate::ir::Field;

/// A rule decided by the compiler, over a `SchemaFacts`, with its `panic!` spanned at the
/// field (or type) so the error points there. Data only: `expand` renders it.
pub struct Assertion<'a> {
    /// Whose facts the test reads.
    pub facts: Facts<'a>,
    pub test: Test,
    pub span: (Span, Span),
}

/// Whose `SchemaFacts` an assertion reads.
pub enum Facts<'a> {
    /// The type being derived (its `FACTS`, or the facts being built for a generic type).
    Own,
    /// The collection root, by name (`<Root as MongoSchema>::FACTS`).
    Root,
    /// A field's: its type's, or what its `bson_type` or serde helper fixes.
    Field(&'a Field<'a>),
    /// What a dotted path of the root holds (`_p::rules::facts_at`).
    Path(String),
}

pub enum Test {
    /// Exclusive branches, `(a test over the facts, the message when it holds)`, in one
    /// item (a set is not also a map).
    Branches(Vec<(Branch, String)>),
    /// Every field rule in one call of `_p::rules::assert_field`: the `check` bits that
    /// apply, the type's depth limit (0: unchecked), and the field's index in the type's
    /// `FIELDS` table if it has one. Messages live in the runtime, so a field costs one
    /// small item.
    Field(u32, u32, Option<usize>),
}

/// In a `DeeperThan` branch's message, where the depth found goes (a const panic cannot
/// format it: the expansion builds the message in const evaluation).
pub const LEVELS: &str = "{levels}";

/// One const test over an assertion's facts.
#[derive(Debug)]
pub enum Branch {
    /// The facts nest deeper than this many levels.
    DeeperThan(u32),
    /// The facts' bound exceeds MongoDB's document limit (4 MiB for time series).
    TooLarge { timeseries: bool },
    /// This dotted path names no field of the root.
    Missing(String),
    /// Not a date in every document (and known).
    NotAlwaysDate,
    /// Known not to be (or hold) a date.
    SurelyNotDate,
    /// Two of these paths pass through arrays on different branches (parallel arrays).
    ArrayKeys(Vec<String>),
    /// A value that only grows: a date or a timestamp, and an ObjectId when `true` (the
    /// document's own `_id`, generated at insert; an ObjectId field elsewhere references
    /// another document and does not grow with insert time).
    Monotonic(bool),
}

impl<'a> Assertion<'a> {
    pub fn branches(facts: Facts<'a>, branches: Vec<(Branch, String)>, span: (Span, Span)) -> Self {
        Assertion { facts, test: Test::Branches(branches), span }
    }

    pub(super) fn field(site: &Site<'a>, checks: u32, max_depth: u32, index: Option<usize>) -> Self {
        Assertion { facts: Facts::Field(site.field), test: Test::Field(checks, max_depth, index), span: site.span() }
    }
}
