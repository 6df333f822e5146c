//! Nothing to link: the crate exists for its UI tests (`tests/ui.rs`), which trybuild builds
//! with this crate's dependencies and features only.
