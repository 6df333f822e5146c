//! `cargo run -p mongo-schema-example-app --bin schema -- migrate --dir migrations/`
//! Every collection root of the crate is registered by its derive; nothing to list here.

#![forbid(unsafe_code)]

use mongo_schema_example_app as _;

fn main() {
    mongo_schema::cli::main()
}
