//! The `.ck` language front end: grammar, typed AST with byte spans, a source map over many files,
//! and the one diagnostic type every stage of ckdsl reports through.
//!
//! Shared by the `ckc` CLI, the build.rs API and the `conv_instance!` macro (through `ck-compiler`).

pub mod ast;
pub mod diag;
pub mod parse;
mod scan;
pub mod span;

pub use diag::{Diagnostic, Diagnostics, Label, Severity};
pub use parse::parse;
pub use span::{FileId, SourceMap, Span};
