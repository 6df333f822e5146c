//! A typed, read-only view of a `$jsonSchema` document. The guide is `mongo_schema::view`.

mod node;
#[doc(hidden)]
pub mod number;
mod size;
mod walk;

pub use node::{expand_aliases, Additional, Combinator, Items, Properties, SchemaView};
pub use number::Number;
pub use size::{Unbounded, Unbounds};
pub use walk::{Field, Reach, Resolved, Step, Subschema};
