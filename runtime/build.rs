//! The validator's regexes must run on the PCRE2 that pcre2-sys vendors (the version whose
//! dialect the differential tests prove against mongod), never on whichever libpcre2-8 the
//! build machine happens to have: what `Validator::new` accepts and how patterns match would
//! then depend on the machine.
//!
//! pcre2-sys 0.2.10 (pinned in the workspace) builds its vendored copy when `PCRE2_SYS_STATIC=1`
//! or on musl targets, and otherwise links a system libpcre2-8 whenever pkg-config finds one.
//! It has no feature to force its copy, and a dependency cannot set another one's build
//! environment, so this script asks pkg-config the same question and stops the build, saying
//! what to do, when pcre2-sys would pick the system library. `PCRE2_SYS_STATIC=0` is the
//! explicit way to accept a system PCRE2; nothing picks one silently.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    if std::env::var_os("CARGO_FEATURE_VALIDATOR").is_none() {
        return;
    }
    check_vendored_pcre2();
}

#[cfg(feature = "validator")]
fn check_vendored_pcre2() {
    println!("cargo:rerun-if-env-changed=PCRE2_SYS_STATIC");
    let target = std::env::var("TARGET").unwrap_or_default();
    let wants_static = match std::env::var("PCRE2_SYS_STATIC").as_deref() {
        Ok("1") => true,
        Ok("0") => return, // the user's explicit choice of the system library
        _ => target.contains("musl"),
    };
    if wants_static {
        return;
    }
    // Without printing cargo metadata: this crate links nothing itself.
    let Ok(system) = pkg_config::Config::new().cargo_metadata(false).probe("libpcre2-8") else { return };
    panic!(
        "\n\nmongo-schema's `validator` feature runs its regexes on the PCRE2 that pcre2-sys vendors, \
         but pcre2-sys would link this machine's libpcre2-8 {} (found by pkg-config) instead, so \
         what the validator accepts would depend on the machine.\n\
         Build with PCRE2_SYS_STATIC=1 (for instance `[env] PCRE2_SYS_STATIC = \"1\"` in \
         .cargo/config.toml), or accept the system library explicitly with PCRE2_SYS_STATIC=0, or \
         turn off the `validator` feature if you only derive schemas.\n\n",
        system.version
    );
}

#[cfg(not(feature = "validator"))]
fn check_vendored_pcre2() {}
