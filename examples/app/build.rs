//! `mongo_schema::migrations!("migrations")` embeds each migration file, so an edited file
//! rebuilds the crate; a file added by `schema migrate` does too with this line, which
//! tells cargo to watch the directory.
fn main() {
    println!("cargo:rerun-if-changed=migrations");
}
