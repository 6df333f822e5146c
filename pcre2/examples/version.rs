//! Prints the version of the PCRE2 linked into this binary (`pcre2_config`'s), which is always
//! the vendored one: `scripts/test.sh` builds and runs this with a system libpcre2-8 in sight.

fn main() {
    println!("{}", mongo_schema_pcre2::version());
}
