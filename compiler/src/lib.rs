//! The ckdsl compiler: `.ck` text → AST → resolved specs → validated IR → emitters.
//!
//! One front end, shared by the `ckc` CLI, the build.rs API and the `conv_instance!` macro.

pub mod emit;
pub mod ir;
pub mod model;
pub mod spec;
