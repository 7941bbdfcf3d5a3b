//! `conv_instance!` UI tests live in `tests/macro_ui.rs`; trybuild builds each case against
//! this crate's dev-dependencies, which are kept to the runtime.
