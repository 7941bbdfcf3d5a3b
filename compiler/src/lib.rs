//! The ckdsl compiler: `.ck` text → AST → resolved specs → validated IR → emitters.
//!
//! One front end, shared by the `ckc` CLI, the build.rs API and the `conv_instance!` macro.

pub mod analysis;
pub mod arch;
pub mod derive;
pub mod ir;
pub mod model;
pub mod ops;
pub mod spec;
pub mod validate;

pub use validate::{validate, validate_with_sources};
